// SPDX-License-Identifier: GPL-2.0
/*
 * dotconfig.c - the one reader of .config and fragment lines, and the one
 * rule for equal values (dotconfig.h). Every problem is "what; fix", and
 * kf_config_read() puts file:line before it.
 */
#include "dotconfig.h"
#include "kf.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX "CONFIG_"
#define PREFIX_LEN (sizeof(PREFIX) - 1)
#define NOT_SET " is not set"
#define TOP_LEVEL "(top level)"
#define VALUES "use y, m, n, a decimal or 0x hex number, or a \"quoted string\""

static int is_name_char(int c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static size_t name_span(const char *s)
{
	size_t n = 0;

	while (is_name_char(s[n]))
		n++;
	return n;
}

/* Write "what is wrong; fix" into err and give -1 (a macro, so that the
 * compiler checks each format and analysers see the -1). */
#define FAIL(...) (snprintf(err, errlen, __VA_ARGS__), -1)

/* "# CONFIG_NAME is not set", exactly as Kconfig writes it. */
static int is_unset_line(const char *line, struct kf_line *out)
{
	const char *p = line + 2;
	size_t n;

	if (strncmp(line, "# " PREFIX, 2 + PREFIX_LEN) != 0)
		return 0;
	p += PREFIX_LEN;
	n = name_span(p);
	if (n == 0 || strcmp(p + n, NOT_SET) != 0)
		return 0;
	out->kind = KF_LINE_UNSET;
	out->vkind = KF_VAL_TRI;
	out->name = p;
	out->name_len = n;
	out->value = "n";
	out->value_len = 1;
	return 1;
}

static int all_of(const char *s, size_t n, int (*pred)(int))
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (!pred((unsigned char)s[i]))
			return 0;
	return 1;
}

/* Classify the value v (up to the end of the line). */
static int parse_value(const char *line, const char *v, struct kf_line *out,
		       char *err, size_t errlen)
{
	size_t n = strlen(v), t = n;
	const char *name = line;
	int nl = (int)(v - 1 - line);

	while (t > 0 && isspace((unsigned char)v[t - 1]))
		t--;
	if (t == 0)
		return FAIL("%.*s= has no value; %s", nl, name, VALUES);
	out->value = v;
	if (v[0] == '"') {
		size_t i;

		for (i = 1; i < n; i++) {
			if (v[i] == '\\' && i + 1 < n)
				i++;
			else if (v[i] == '"')
				break;
		}
		if (i >= n)
			return FAIL("%.*s: the string has no closing '\"'; end it with \"",
				    nl, name);
		if (i + 1 < t)
			return FAIL("%.*s: text after the closing '\"'; put the whole value inside the quotes",
				    nl, name);
		if (i + 1 < n)
			return FAIL("%.*s: white space after the value; remove it",
				    nl, name);
		out->vkind = KF_VAL_STR;
		out->value_len = n;
		return 0;
	}
	if (t == 1 && (v[0] == 'y' || v[0] == 'm' || v[0] == 'n'))
		out->vkind = KF_VAL_TRI;
	else if (all_of(v + (v[0] == '-'), t - (v[0] == '-'), isdigit))
		out->vkind = KF_VAL_DEC;
	else if (t > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X') &&
		 all_of(v + 2, t - 2, isxdigit))
		out->vkind = KF_VAL_HEX;
	else
		return FAIL("%.*s=%.*s: '%.*s' is not a Kconfig value; %s",
			    nl, name, (int)t, v, (int)t, v, VALUES);
	if (t < n)
		return FAIL("%.*s: white space after the value; remove it",
			    nl, name);
	out->value_len = t;
	return 0;
}

/* Characters that look like nothing (or a space) but break a line: editors
 * and web pages bring them in. Named, so the user can find them. */
static const struct {
	const char *bytes, *name;
} invisible[] = {
	{ "\xef\xbb\xbf", "a byte order mark (U+FEFF, BOM)" },
	{ "\xc2\xa0", "a no-break space (U+00A0, NBSP)" },
	{ "\xe2\x80\x8b", "a zero-width space (U+200B)" },
	{ "\xe2\x80\x8c", "a zero-width non-joiner (U+200C)" },
	{ "\xe2\x80\x8d", "a zero-width joiner (U+200D)" },
	{ "\xe2\x81\xa0", "a word joiner (U+2060)" },
};

/* The first invisible character before any '#' comment; its entry or -1. */
static int find_invisible(const char *line, size_t *col)
{
	size_t end = strcspn(line, "#");
	int best = -1;

	for (size_t i = 0; i < sizeof(invisible) / sizeof(invisible[0]); i++) {
		const char *at = strstr(line, invisible[i].bytes);

		if (at && (size_t)(at - line) < end) {
			end = (size_t)(at - line);
			best = (int)i;
		}
	}
	*col = end + 1;
	return best;
}

int kf_parse_line(const char *line, struct kf_line *out, char *err,
		  size_t errlen)
{
	const char *p;
	size_t n, len = strlen(line);

	memset(out, 0, sizeof(*out));
	if (len > 0 && line[len - 1] == '\r')
		return FAIL("the line ends in a carriage return (DOS line end); convert the file with dos2unix");
	{
		size_t col;
		int inv = find_invisible(line, &col);

		if (inv >= 0)
			return FAIL("byte %zu is %s, an invisible character; delete it (retype the line)",
				    col, invisible[inv].name);
	}
	for (p = line; *p == ' ' || *p == '\t'; p++)
		;
	if (*p == '\0') {
		out->kind = KF_LINE_BLANK;
		return 0;
	}
	if (p != line && *p != '#')
		return FAIL("'%s' is indented, and Kconfig ignores an indented setting; remove the leading white space",
			    p);
	if (*p == '#') {
		if (p != line) {
			out->kind = KF_LINE_COMMENT;
			return 0;
		}
		if (is_unset_line(line, out))
			return 0;
		if (strncmp(line, "# kflavour:", 11) == 0) {
			size_t m = strlen(KF_OVERRIDE_MARK);

			if (strncmp(line, KF_OVERRIDE_MARK, m) == 0 &&
			    line[m + strspn(line + m, " \t")] == '\0') {
				out->kind = KF_LINE_OVERRIDE;
				return 0;
			}
			return FAIL("'%s' is not a kflavour directive; the only one is '%s' (on the line before the setting it allows)",
				    line, KF_OVERRIDE_MARK);
		}
		out->kind = KF_LINE_COMMENT;
		return 0;
	}
	if (strncmp(line, PREFIX, PREFIX_LEN) != 0) {
		n = name_span(line);
		if (n > 0 && line[n] == '=')
			return FAIL("'%s' has no CONFIG_ prefix, so Kconfig ignores it; write " PREFIX "%s",
				    line, line);
		return FAIL("'%s' is not a fragment line; use CONFIG_NAME=value, '# CONFIG_NAME is not set', a '#' comment or a blank line",
			    line);
	}
	p = line + PREFIX_LEN;
	n = name_span(p);
	if (n == 0)
		return FAIL("'%s': no symbol name after CONFIG_; write CONFIG_NAME=value",
			    line);
	out->kind = KF_LINE_SET;
	out->name = p;
	out->name_len = n;
	p += n;
	if (*p == '=')
		return parse_value(line, p + 1, out, err, errlen);
	if (*p == '\0')
		return FAIL("'%s' has no value; write %s=y (or n, m, a number, a \"quoted string\")",
			    line, line);
	if (*p == ' ' || *p == '\t') {
		const char *q = p + strspn(p, " \t");

		if (*q == '=')
			return FAIL("'%s': white space before '='; write " PREFIX "%.*s=%s",
				    line, (int)n, out->name, q + 1 + strspn(q + 1, " \t"));
	}
	return FAIL("'%s': a symbol name has only letters, digits and '_', then '='; fix the name",
		    line);
}

char *kf_setting_str(const char *name, const char *value)
{
	return kf_xasprintf(PREFIX "%s=%s", name, value);
}

char *kf_unquote(const char *value)
{
	char *s = kf_xstrdup(value), *d = s;
	const char *p = value;

	if (*p != '"')
		return s;
	for (p++; *p && *p != '"'; p++) {
		if (*p == '\\' && p[1])
			p++;
		*d++ = *p;
	}
	*d = '\0';
	return s;
}


char *kf_setting_line(const char *name, const char *value)
{
	if (!strcmp(value, "n"))
		return kf_xasprintf("# " PREFIX "%s is not set", name);
	return kf_setting_str(name, value);
}

/* s as a number: hex (0x optional) or decimal; 0 when it is not one. */
static int as_number(const char *s, int base, long long *v)
{
	char *end;

	if (!*s || *s == '"')
		return 0;
	errno = 0;
	if (base == 16)
		*v = (long long)strtoull(s, &end, 16);
	else
		*v = strtoll(s, &end, 10);
	return !errno && !*end && (base == 16 || isdigit((unsigned char)s[*s == '-']));
}

static int is_hex(const char *s)
{
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

int kf_value_equal(const char *a, const char *b)
{
	long long x, y;
	int base = is_hex(a) || is_hex(b) ? 16 : 10;

	if (!strcmp(a, b))
		return 1;
	if (*a == '"' && *b == '"') {
		char *ua = kf_unquote(a), *ub = kf_unquote(b);
		int same = !strcmp(ua, ub);

		free(ua);
		free(ub);
		return same;
	}
	return as_number(a, base, &x) && as_number(b, base, &y) && x == y;
}

void kf_config_free(struct kf_config *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->sym[i].name);
		free(c->sym[i].value);
	}
	for (size_t i = 0; i < c->nmenu; i++)
		free(c->menu[i]);
	free(c->sym);
	free(c->by_name);
	free(c->menu);
	free(c->kver);
	memset(c, 0, sizeof(*c));
}

/*
 * A comment block of a .config being read ("#", "# Title", "#"): a menu
 * once its "# end of Title" comes; a Kconfig comment, which kconfig
 * writes the same way without an end line, if none does.
 */
struct block {
	const char *title;	/* points into the text being read */
	int parent;		/* the block open around it; -1: none */
	int menu;
};

struct blocks {
	struct block *v;
	size_t n;
	int open;		/* the innermost open block; -1: none */
};

/* line, after prev after prev2: open a block, or close the innermost open
 * one of that title (and the comments opened inside it). */
static void block_line(struct blocks *b, const char *line, const char *prev,
		       const char *prev2)
{
	static const char end_of[] = "# end of ";
	size_t n = sizeof(end_of) - 1;

	if (!strcmp(line, "#") && prev2 && !strcmp(prev2, "#") &&
	    !strncmp(prev, "# ", 2) && prev[2]) {
		b->v = kf_xrealloc(b->v, (b->n + 1) * sizeof(*b->v));
		b->v[b->n] = (struct block){ prev + 2, b->open, 0 };
		b->open = (int)b->n++;
	} else if (!strncmp(line, end_of, n)) {
		for (int i = b->open; i >= 0; i = b->v[i].parent)
			if (!strcmp(b->v[i].title, line + n)) {
				b->v[i].menu = 1;
				b->open = b->v[i].parent;
				break;
			}
	}
}

/* Each block's path: the menus among it and the blocks around it, the
 * outermost KF_MENU_DEPTH of them. */
static void menu_paths(struct kf_config *c, const struct blocks *b)
{
	c->menu = kf_xmalloc((b->n + 1) * sizeof(*c->menu));
	c->nmenu = b->n;
	for (size_t i = 0; i < b->n; i++) {
		const char *outer[KF_MENU_DEPTH];
		size_t depth = 0, at;

		for (int j = (int)i; j >= 0; j = b->v[j].parent)
			depth += (size_t)b->v[j].menu;
		at = depth;
		for (int j = (int)i; j >= 0; j = b->v[j].parent)
			if (b->v[j].menu && --at < KF_MENU_DEPTH)
				outer[at] = b->v[j].title;
		c->menu[i] = depth ? kf_menu_join(outer, depth < KF_MENU_DEPTH ? depth : KF_MENU_DEPTH)
				   : kf_xstrdup(TOP_LEVEL);
	}
}

char *kf_menu_join(const char *const *outer, size_t n)
{
	struct strbuf sb = { 0 };

	for (size_t k = 0; k < n; k++)
		sb_addf(&sb, "%s%s", k ? " > " : "", outer[k]);
	return sb.s;
}

/* "6.1" of the header line "# Linux/x86 6.1.192 Kernel Configuration". */
static char *header_kver(const char *line)
{
	const char *sp;
	int major, minor;

	if (strncmp(line, "# Linux/", 8) != 0 || !(sp = strchr(line + 8, ' ')) ||
	    sscanf(sp, " %d.%d", &major, &minor) != 2)
		return NULL;
	return kf_xasprintf("%d.%d", major, minor);
}

/* qsort has no context argument: the array being sorted, for by_index. */
static const struct kf_config_sym *sorting;

/* By name, then by position, so the last of a name sorts last. */
static int by_index(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sorting[i].name, sorting[j].name);

	return c ? c : (i > j) - (i < j);
}

int kf_config_read(struct kf_config *c, const char *path, const char *text,
		   char *err, size_t errlen)
{
	char *owned = NULL, *buf, *line, *next, why[1024];
	const char *prev = NULL, *prev2 = NULL;
	struct blocks b = { .open = -1 };
	int lineno = 0;

	memset(c, 0, sizeof(*c));
	if (!text) {
		owned = kf_read_file(path, NULL);
		if (!owned)
			return FAIL("%s: %s", path, strerror(errno));
		text = owned;
	}
	buf = kf_xstrdup(text);
	free(owned);
	for (line = buf; line && *line; prev2 = prev, prev = line, line = next) {
		struct kf_line l;

		next = kf_cut_line(line);
		lineno++;
		if (kf_parse_line(line, &l, why, sizeof(why)) < 0) {
			free(buf);
			free(b.v);
			kf_config_free(c);
			return FAIL("%s:%d: %s", path, lineno, why);
		}
		if (l.kind == KF_LINE_COMMENT) {
			block_line(&b, line, prev, prev2);
			if (!c->kver)
				c->kver = header_kver(line);
		}
		if (l.kind != KF_LINE_SET && l.kind != KF_LINE_UNSET)
			continue;
		c->sym = kf_xrealloc(c->sym, (c->n + 1) * sizeof(*c->sym));
		c->sym[c->n].name = kf_xasprintf("%.*s", (int)l.name_len, l.name);
		c->sym[c->n].value = kf_xasprintf("%.*s", (int)l.value_len, l.value);
		c->sym[c->n].menu = b.open;
		c->sym[c->n++].line = lineno;
	}
	menu_paths(c, &b);
	free(b.v);
	free(buf);
	c->by_name = kf_xmalloc((c->n + 1) * sizeof(*c->by_name));
	for (size_t i = 0; i < c->n; i++)
		c->by_name[i] = i;
	sorting = c->sym;
	qsort(c->by_name, c->n, sizeof(*c->by_name), by_index);
	sorting = NULL;
	return 0;
}

const struct kf_config_sym *kf_config_find(const struct kf_config *c,
					   const char *name)
{
	size_t lo = 0, hi = c->n;

	/* The last entry of the name: the first one past it, minus one. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(c->sym[c->by_name[mid]].name, name) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && !strcmp(c->sym[c->by_name[lo - 1]].name, name))
		return &c->sym[c->by_name[lo - 1]];
	return NULL;
}

const char *kf_config_get(const struct kf_config *c, const char *name)
{
	const struct kf_config_sym *s = kf_config_find(c, name);

	return s ? s->value : NULL;
}

const char *kf_config_value(const struct kf_config *c, const char *name)
{
	const char *v = kf_config_get(c, name);

	return v ? v : "n";
}

const char *kf_config_menu(const struct kf_config *c, const char *name)
{
	const struct kf_config_sym *s = kf_config_find(c, name);

	if (!s)
		return NULL;
	return s->menu < 0 ? TOP_LEVEL : c->menu[s->menu];
}
