// SPDX-License-Identifier: GPL-2.0
/* split.c - .config maps, differences and ktest's split order (split.h). */
#include "split.h"
#include "../lib/kf.h"

#include <stdlib.h>
#include <string.h>

static void add(struct kconf *c, const char *name, size_t nlen,
		const char *value, size_t vlen)
{
	struct kconf_sym *s;

	c->sym = kf_xrealloc(c->sym, (c->n + 1) * sizeof(*c->sym));
	s = &c->sym[c->n++];
	s->name = strndup(name, nlen);
	s->value = strndup(value, vlen);
	if (!s->name || !s->value)
		kf_die(1, "out of memory");
}

/* "CONFIG_X=v" or "# CONFIG_X is not set", as kconfig writes them. */
static void parse_line(struct kconf *c, const char *line, size_t len)
{
	static const char notset[] = " is not set";
	const size_t nl = sizeof(notset) - 1;

	if (len > 9 + nl && !strncmp(line, "# CONFIG_", 9) &&
	    !memcmp(line + len - nl, notset, nl)) {
		add(c, line + 9, len - 9 - nl, "n", 1);
		return;
	}
	if (len > 7 && !strncmp(line, "CONFIG_", 7)) {
		const char *eq = memchr(line, '=', len);

		if (eq && eq > line + 7)
			add(c, line + 7, (size_t)(eq - line - 7), eq + 1,
			    len - (size_t)(eq + 1 - line));
	}
}

void kconf_parse(struct kconf *c, const char *text)
{
	const char *p = text;

	c->sym = NULL;
	c->n = 0;
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		parse_line(c, p, len);
		p = nl ? nl + 1 : NULL;
	}
}

int kconf_read(struct kconf *c, const char *path)
{
	char *text = kf_read_file(path, NULL);

	c->sym = NULL;
	c->n = 0;
	if (!text)
		return -1;
	kconf_parse(c, text);
	free(text);
	return 0;
}

void kconf_free(struct kconf *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->sym[i].name);
		free(c->sym[i].value);
	}
	free(c->sym);
	c->sym = NULL;
	c->n = 0;
}

const char *kconf_get(const struct kconf *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->sym[i].name, name))
			return c->sym[i].value;
	return NULL;
}

int kconf_equal(const struct kconf *a, const struct kconf *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < b->n; i++) {
		const char *v = kconf_get(a, b->sym[i].name);

		if (!v || strcmp(v, b->sym[i].value) != 0)
			return 0;
	}
	return 1;
}

size_t kconf_diff(const struct kconf *a, const struct kconf *b, const char ***names)
{
	size_t n = 0;

	*names = NULL;
	for (size_t i = 0; i < b->n; i++) {
		const char *v = kconf_get(a, b->sym[i].name);

		if (!v || !strcmp(v, b->sym[i].value))
			continue;
		*names = kf_xrealloc(*names, (n + 1) * sizeof(**names));
		(*names)[n++] = b->sym[i].name;
	}
	return n;
}

char *kconf_with(const struct kconf *base, const struct kconf *src,
		 const char *const *names, size_t n)
{
	struct strbuf sb = { 0 };

	sb_add(&sb, "");
	for (size_t i = 0; i < base->n; i++) {
		const char *name = base->sym[i].name, *v = base->sym[i].value;

		for (size_t j = 0; j < n; j++)
			if (!strcmp(names[j], name) && kconf_get(src, name))
				v = kconf_get(src, name);
		if (!strcmp(v, "n"))
			sb_addf(&sb, "# CONFIG_%s is not set\n", name);
		else
			sb_addf(&sb, "CONFIG_%s=%s\n", name, v);
	}
	return sb.s;
}

int split_candidate(size_t n, size_t i, size_t *start, size_t *len, int *from_bad)
{
	size_t k = (n + 1) / 2, prev = 0;

	while (n > 1 && k != prev) {
		size_t chunks = (n + k - 1) / k;

		if (i < 2 * chunks) {
			*start = (i / 2) * k;
			*len = *start + k > n ? n - *start : k;
			*from_bad = (int)(i % 2);
			return 1;
		}
		i -= 2 * chunks;
		prev = k;
		k = (k + 1) / 2;
	}
	return 0;
}
