// SPDX-License-Identifier: GPL-2.0
/*
 * fragment.c - read Kconfig fragments line by line and merge their settings
 * (see fragment.h). Every problem is one "file:line: what; fix" message.
 */
#include "fragment.h"
#include "../lib/kf.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX "CONFIG_"
#define PREFIX_LEN (sizeof(PREFIX) - 1)
#define NOT_SET " is not set"
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

void kf_fragset_init(struct kf_fragset *fs)
{
	memset(fs, 0, sizeof(*fs));
}

void kf_fragset_free(struct kf_fragset *fs)
{
	size_t i;

	for (i = 0; i < fs->nset; i++) {
		free(fs->set[i].name);
		free(fs->set[i].value);
	}
	free(fs->set);
	for (i = 0; i < fs->nfiles; i++)
		free(fs->files[i]);
	free(fs->files);
	for (i = 0; i < fs->nerr; i++)
		free(fs->err[i]);
	free(fs->err);
	kf_fragset_init(fs);
}

static void add_err(struct kf_fragset *fs, char *msg)
{
	fs->err = kf_xrealloc(fs->err, (fs->nerr + 1) * sizeof(*fs->err));
	fs->err[fs->nerr++] = msg;
}

static struct kf_setting *find(const struct kf_fragset *fs, const char *name,
			       size_t len)
{
	size_t i;

	for (i = 0; i < fs->nset; i++)
		if (strncmp(fs->set[i].name, name, len) == 0 &&
		    fs->set[i].name[len] == '\0')
			return &fs->set[i];
	return NULL;
}

const struct kf_setting *kf_fragset_find(const struct kf_fragset *fs,
					 const char *name)
{
	return find(fs, name, strlen(name));
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

static int same_value(const struct kf_setting *s, const struct kf_line *l)
{
	if (strlen(s->value) != l->value_len)
		return 0;
	if (s->vkind == KF_VAL_HEX && l->vkind == KF_VAL_HEX)
		return strncasecmp(s->value, l->value, l->value_len) == 0;
	return strncmp(s->value, l->value, l->value_len) == 0;
}

/* Merge one setting of file:lineno; returns 1 on a conflict. */
static int merge(struct kf_fragset *fs, const struct kf_line *l,
		 const char *file, int lineno, bool override)
{
	struct kf_setting *s = find(fs, l->name, l->name_len);

	if (s && same_value(s, l))
		return 0;
	if (s && !override) {
		char *now = kf_xasprintf(PREFIX "%.*s=%.*s", (int)l->name_len,
					 l->name, (int)l->value_len, l->value);
		char *before = kf_setting_str(s->name, s->value);

		add_err(fs, kf_xasprintf(
			"%s:%d: %s conflicts with %s:%d: %s; keep one value, or put '%s' on the line before %s:%d if the later value should win",
			file, lineno, now, s->file, s->line, before,
			KF_OVERRIDE_MARK, file, lineno));
		free(now);
		free(before);
		return 1;
	}
	if (!s) {
		fs->set = kf_xrealloc(fs->set, (fs->nset + 1) * sizeof(*fs->set));
		s = &fs->set[fs->nset++];
		s->name = kf_xasprintf("%.*s", (int)l->name_len, l->name);
	} else {
		free(s->value);
	}
	s->value = kf_xasprintf("%.*s", (int)l->value_len, l->value);
	s->vkind = l->vkind;
	s->file = file;
	s->line = lineno;
	s->override = override;
	return 0;
}

int kf_fragset_add(struct kf_fragset *fs, const char *path, const char *text)
{
	char *owned = NULL, *buf, *line, *next, err[1024];
	const char *file;
	size_t before = fs->nerr;
	int lineno = 0, mark = 0;

	fs->files = kf_xrealloc(fs->files, (fs->nfiles + 1) * sizeof(*fs->files));
	fs->files[fs->nfiles++] = kf_xstrdup(path);
	file = fs->files[fs->nfiles - 1];
	if (!text) {
		owned = kf_read_file(path, NULL);
		if (!owned) {
			add_err(fs, kf_xasprintf("%s: cannot read it: %s; check the fragment list (the recipe's fragments =)",
						 path, strerror(errno)));
			return 1;
		}
		text = owned;
	}
	buf = kf_xstrdup(text);
	for (line = buf; line && *line; line = next) {
		struct kf_line l;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (kf_parse_line(line, &l, err, sizeof(err)) < 0) {
			add_err(fs, kf_xasprintf("%s:%d: %s", file, lineno, err));
			mark = 0;
			continue;
		}
		if (mark && l.kind != KF_LINE_SET && l.kind != KF_LINE_UNSET)
			add_err(fs, kf_xasprintf(
				"%s:%d: '%s' must be directly followed by the CONFIG_ line it lets win; move it there or remove it",
				file, mark, KF_OVERRIDE_MARK));
		if (l.kind == KF_LINE_SET || l.kind == KF_LINE_UNSET)
			merge(fs, &l, file, lineno, mark != 0);
		mark = l.kind == KF_LINE_OVERRIDE ? lineno : 0;
	}
	if (mark)
		add_err(fs, kf_xasprintf(
			"%s:%d: '%s' must be directly followed by the CONFIG_ line it lets win; move it there or remove it",
			file, mark, KF_OVERRIDE_MARK));
	free(buf);
	free(owned);
	return (int)(fs->nerr - before);
}
