// SPDX-License-Identifier: GPL-2.0
/*
 * menus.c - each symbol's Kconfig menu, read from a .config without the tree.
 *
 * Kconfig writes a menu as a comment block, its symbols, then an end line:
 *
 *     #
 *     # Processor type and features
 *     #
 *     CONFIG_SMP=y
 *     ...
 *     # end of Processor type and features
 *
 * A Kconfig comment is written as the same block without an end line, so a
 * first pass collects the titles that have one and only those open a menu.
 * Menus nest; a symbol's menu is the outermost KC_MENU_DEPTH of them joined
 * with " > " (as config/kdiff.c shows them), or "(top level)".
 */
#include "report.h"
#include "../lib/kf.h"

#include <stdlib.h>
#include <string.h>

#define KC_MENU_DEPTH	2
#define MAX_NESTING	32

static const char end_of[] = "# end of ";

/* The line at p (without its newline) and where the next one starts. */
static size_t line_at(const char *p, const char **next)
{
	size_t len = strcspn(p, "\n");

	*next = p[len] ? p + len + 1 : p + len;
	return len;
}

/* "# Title" between two "#" lines: the title's length, else 0. */
static size_t heading(const char *prev, size_t prev_len, const char *p, size_t len,
		      const char *next)
{
	const char *after;

	if (prev_len != 1 || *prev != '#' || len < 3 || strncmp(p, "# ", 2) != 0)
		return 0;
	if (line_at(next, &after) != 1 || *next != '#')
		return 0;
	return len - 2;
}

static int has_title(char *const *titles, size_t n, const char *t, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(titles[i]) == len && !strncmp(titles[i], t, len))
			return 1;
	return 0;
}

static char *path_of(char *const *stack, size_t depth)
{
	struct strbuf sb = { 0 };

	if (!depth)
		return kf_xstrdup("(top level)");
	for (size_t i = 0; i < depth && i < KC_MENU_DEPTH; i++) {
		if (i)
			sb_add(&sb, " > ");
		sb_add(&sb, stack[i]);
	}
	return sb.s;
}

/* "CONFIG_X=..." or "# CONFIG_X is not set": the name's length, else 0. */
static size_t symbol(const char *p, size_t len, const char **name)
{
	const char *s = p, *e;

	if (len > 9 && !strncmp(p, "# CONFIG_", 9))
		s = p + 9;
	else if (len > 7 && !strncmp(p, "CONFIG_", 7))
		s = p + 7;
	else
		return 0;
	e = s + strcspn(s, "= \n");
	*name = s;
	return (size_t)(e - s);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct kc_menu_sym *)a)->name,
		      ((const struct kc_menu_sym *)b)->name);
}

void kc_menus_parse(struct kc_menus *m, const char *text)
{
	char **titles = NULL, *stack[MAX_NESTING];
	size_t ntitles = 0, depth = 0, len, prev_len = 0;
	const char *p, *next, *prev = "";
	char *menu = NULL;

	memset(m, 0, sizeof(*m));
	/* Pass 1: the titles of real menus (those with an end line). */
	for (p = text; *p; p = next) {
		len = line_at(p, &next);
		if (len > sizeof(end_of) - 1 && !strncmp(p, end_of, sizeof(end_of) - 1)) {
			titles = kf_xrealloc(titles, (ntitles + 1) * sizeof(*titles));
			titles[ntitles++] = kf_xstrndup(p + sizeof(end_of) - 1,
							len - (sizeof(end_of) - 1));
		}
	}
	/* Pass 2: open and close them; give each symbol the current path. */
	for (p = text; *p; prev = p, prev_len = len, p = next) {
		const char *name;
		size_t n, t;

		len = line_at(p, &next);
		if ((t = heading(prev, prev_len, p, len, next)) &&
		    has_title(titles, ntitles, p + 2, t)) {
			if (depth < MAX_NESTING)
				stack[depth] = kf_xstrndup(p + 2, t);
			depth++;
			free(menu);
			menu = NULL;
		} else if (len > sizeof(end_of) - 1 && !strncmp(p, end_of, sizeof(end_of) - 1)) {
			if (depth) {
				depth--;
				if (depth < MAX_NESTING)
					free(stack[depth]);
			}
			free(menu);
			menu = NULL;
		} else if ((n = symbol(p, len, &name))) {
			if (!menu)
				menu = path_of(stack, depth < MAX_NESTING ? depth : MAX_NESTING);
			m->v = kf_xrealloc(m->v, (m->n + 1) * sizeof(*m->v));
			m->v[m->n].name = kf_xstrndup(name, n);
			m->v[m->n].menu = kf_xstrdup(menu);
			m->n++;
		}
	}
	free(menu);
	for (size_t i = 0; i < depth && i < MAX_NESTING; i++)
		free(stack[i]);
	for (size_t i = 0; i < ntitles; i++)
		free(titles[i]);
	free(titles);
	if (m->n)	/* qsort(NULL, 0, ...) is undefined */
		qsort(m->v, m->n, sizeof(*m->v), by_name);
}

const char *kc_menu(const struct kc_menus *m, const char *name)
{
	struct kc_menu_sym key = { (char *)name, NULL };
	const struct kc_menu_sym *s;

	if (!m->n)
		return NULL;
	s = bsearch(&key, m->v, m->n, sizeof(*m->v), by_name);
	return s ? s->menu : NULL;
}

void kc_menus_free(struct kc_menus *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].name);
		free(m->v[i].menu);
	}
	free(m->v);
	memset(m, 0, sizeof(*m));
}
