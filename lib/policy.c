// SPDX-License-Identifier: GPL-2.0
/*
 * policy.c - read fragments/policy (the format: policy.h), check a .config
 * against it, and drop a symbol's rules from it.
 */
#include "policy.h"
#include "kf.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rule_error(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int rule_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int is_symbol(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

/* Length of the quoted string at s (s[0] == '"'), or 0 when unterminated. */
static size_t quoted_len(const char *s)
{
	size_t i;

	for (i = 1; s[i]; i++) {
		if (s[i] == '\\' && s[i + 1])
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return 0;
}

/* One accepted value (len bytes at v): y, m, n, a number or a "string". */
static int value_ok(const char *v, size_t len)
{
	size_t i = 0;

	if (len == 1 && (v[0] == 'y' || v[0] == 'm' || v[0] == 'n'))
		return 1;
	if (v[0] == '"')
		return len >= 2 && quoted_len(v) == len;
	if (len > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		for (i = 2; i < len; i++)
			if (!isxdigit((unsigned char)v[i]))
				return 0;
		return 1;
	}
	if (v[0] == '-')
		i = 1;
	if (i == len)
		return 0;
	for (; i < len; i++)
		if (!isdigit((unsigned char)v[i]))
			return 0;
	return 1;
}

/* Length of s up to the first character of stop outside "quotes" (all of
 * s from an unterminated quote on): a '|'-separated alternative, a word, or
 * the rule before its ': note'. */
static size_t span_unquoted(const char *s, const char *stop)
{
	size_t i = 0;

	while (s[i] && !strchr(stop, s[i])) {
		if (s[i] == '"') {
			size_t q = quoted_len(s + i);

			if (!q)
				return strlen(s);
			i += q;
		} else {
			i++;
		}
	}
	return i;
}

static int values_ok(const char *s)
{
	for (;;) {
		size_t n = span_unquoted(s, "|");

		if (n == 0 || !value_ok(s, n))
			return 0;
		if (!s[n])
			return 1;
		s += n + 1;
	}
}

void kf_policy_free(struct kf_policy *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->rule[i].symbol);
		free(p->rule[i].flavour);
		free(p->rule[i].value);
		free(p->rule[i].note);
		free(p->rule[i].gone);
	}
	free(p->rule);
	free(p->path);
	memset(p, 0, sizeof(*p));
}

static const struct kf_policy_rule *find(const struct kf_policy *p,
					 const char *symbol,
					 const char *flavour)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->rule[i].symbol, symbol) &&
		    !strcmp(p->rule[i].flavour, flavour))
			return &p->rule[i];
	return NULL;
}

/* Split the next white-space separated word of *s (quotes respected). */
static char *next_word(char **s)
{
	char *w = *s + strspn(*s, " \t"), *e = w + span_unquoted(w, " \t");

	if (!*w)
		return NULL;
	if (*e)
		*e++ = '\0';
	*s = e;
	return w;
}

static int parse_rule(struct kf_policy *p, char *line, int lineno, char *err,
		      size_t errlen)
{
	const char *path = p->path;
	char *colon = line + span_unquoted(line, ":"), *rest = line, *sym, *w, *note;
	int nvalues = 0;
	size_t first = p->n;
	char *gone = NULL;

	if (!*colon)
		return rule_error(err, errlen,
			    "%s:%d: no ': note' saying why; write e.g. 'SMP *=y : the flavours are SMP kernels'",
			    path, lineno);
	*colon = '\0';
	note = kf_trim(colon + 1);
	if (!*note)
		return rule_error(err, errlen, "%s:%d: the note after ':' is empty; say why the rule exists",
			    path, lineno);
	sym = next_word(&rest);
	if (!sym)
		return rule_error(err, errlen, "%s:%d: no symbol before ':'; write 'SYMBOL FLAVOUR=VALUE... : note'",
			    path, lineno);
	if (!strncmp(sym, "CONFIG_", 7))
		sym += 7;
	if (!is_symbol(sym) || strchr(sym, '='))
		return rule_error(err, errlen,
			    "%s:%d: '%s' is not a Kconfig symbol; a rule starts with the symbol, e.g. 'X86_L1_CACHE_SHIFT mpsc=7 : ...'",
			    path, lineno, sym);
	while ((w = next_word(&rest))) {
		char *eq = strchr(w, '='), *val;
		const struct kf_policy_rule *dup;
		struct kf_policy_rule *r;

		if (!eq || eq == w)
			return rule_error(err, errlen,
				    "%s:%d: '%s' is not FLAVOUR=VALUE; write e.g. 'mpsc=7' or '*=y'",
				    path, lineno, w);
		*eq = '\0';
		val = eq + 1;
		if (!strcmp(w, "gone")) {
			if (!*val || strspn(val, "0123456789.|") != strlen(val))
				return rule_error(err, errlen,
					    "%s:%d: gone=%s: give the kernel versions the symbol is gone from, e.g. gone=6.12 (a|b for several)",
					    path, lineno, val);
			gone = val;
			continue;
		}
		if (strcmp(w, "*") != 0 && !kf_flavour_name_ok(w))
			return rule_error(err, errlen,
				    "%s:%d: '%s' is not a flavour name; use a name from flavours/ (lowercase a-z, 0-9, '_', '-') or *",
				    path, lineno, w);
		if (!values_ok(val))
			return rule_error(err, errlen,
				    "%s:%d: %s=%s: '%s' is not a Kconfig value; use y, m, n, a number or a \"string\" (a|b for either)",
				    path, lineno, w, val, val);
		dup = find(p, sym, w);
		if (dup)
			return rule_error(err, errlen,
				    "%s:%d: %s for %s is already required on line %d; keep one",
				    path, lineno, sym, w, dup->line);
		p->rule = kf_xrealloc(p->rule, (p->n + 1) * sizeof(*p->rule));
		r = &p->rule[p->n++];
		r->symbol = kf_xstrdup(sym);
		r->flavour = kf_xstrdup(w);
		r->value = kf_xstrdup(val);
		r->note = kf_xstrdup(note);
		r->gone = NULL;
		r->line = lineno;
		nvalues++;
	}
	if (!nvalues)
		return rule_error(err, errlen,
			    "%s:%d: %s has no FLAVOUR=VALUE; write e.g. '%s mpsc=y : ...' or '%s *=y : ...'",
			    path, lineno, sym, sym, sym);
	for (size_t i = first; i < p->n && gone; i++)
		p->rule[i].gone = kf_xstrdup(gone);
	return 0;
}

int kf_policy_parse(struct kf_policy *p, const char *path, const char *text,
		    char *err, size_t errlen)
{
	char *buf = kf_xstrdup(text), *line, *next;
	int lineno = 0, rc = 0;

	memset(p, 0, sizeof(*p));
	p->path = kf_xstrdup(path);
	for (line = buf; line && *line && !rc; line = next) {
		char *s;

		next = kf_cut_line(line);
		lineno++;
		s = kf_trim(line);
		if (*s && *s != '#')
			rc = parse_rule(p, s, lineno, err, errlen);
	}
	free(buf);
	if (rc)
		kf_policy_free(p);
	return rc;
}

const struct kf_policy_rule *kf_policy_rule_for(const struct kf_policy *p,
						const char *symbol,
						const char *flavour)
{
	const struct kf_policy_rule *r = find(p, symbol, flavour);

	return r ? r : find(p, symbol, "*");
}

int kf_policy_allows(const char *accepted, const char *actual)
{
	const char *a = actual ? actual : "n";

	for (const char *s = accepted;;) {
		size_t n = span_unquoted(s, "|");
		char *alt = kf_xstrndup(s, n);
		int same = kf_value_equal(alt, a);

		free(alt);
		if (same)
			return 1;
		if (!s[n])
			return 0;
		s += n + 1;
	}
}

int kf_policy_gone(const struct kf_policy_rule *r, const char *kver)
{
	size_t n = kver ? strlen(kver) : 0;

	for (const char *s = r->gone; s && n;) {
		size_t len = strcspn(s, "|");

		if (len == n && !strncmp(s, kver, n))
			return 1;
		s = s[len] ? s + len + 1 : NULL;
	}
	return 0;
}

int kf_policy_check(const struct kf_policy *p, const char *flavour,
		    const struct kf_config *config, const char *kver, FILE *out)
{
	int bad = 0;

	for (size_t i = 0; i < p->n; i++) {
		const struct kf_policy_rule *r = &p->rule[i];
		const char *actual;

		/* Each symbol once: at the first rule that names it. */
		if (kf_policy_rule_for(p, r->symbol, flavour) != r || kf_policy_gone(r, kver))
			continue;
		actual = kf_config_get(config, r->symbol);
		if (!kf_policy_allows(r->value, actual)) {
			fprintf(out,
				"policy: flavour %s violates %s:%d: CONFIG_%s required %s, actual %s (why: %s)\n",
				flavour, p->path, r->line, r->symbol, r->value,
				actual ? actual : "n (not in .config)", r->note);
			bad++;
		}
	}
	return bad;
}

/* The file's text and its rules; NULL on a problem (err says it). */
static char *read_text(struct kf_policy *p, const char *path, char *err, size_t errlen)
{
	char *text = kf_read_file(path, NULL);

	if (!text) {
		rule_error(err, errlen, "%s: %s; the policy file is fragments/policy (docs/flavours.md)",
			   path, strerror(errno));
		return NULL;
	}
	if (kf_policy_parse(p, path, text, err, errlen) < 0) {
		free(text);
		return NULL;
	}
	return text;
}

int kf_policy_read(struct kf_policy *p, const char *path, char *err, size_t errlen)
{
	char *text = read_text(p, path, err, errlen);

	free(text);
	return text ? 0 : -1;
}

/* 1 when line lineno holds a rule on symbol. */
static int rule_on(const struct kf_policy *p, int lineno, const char *symbol)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->rule[i].line == lineno && !strcmp(p->rule[i].symbol, symbol))
			return 1;
	return 0;
}

int kf_policy_drop(const char *path, const char *symbol, char *err, size_t errlen)
{
	struct kf_policy p;
	struct strbuf sb = { 0 };
	char *text = read_text(&p, path, err, errlen), *line, *next;
	int lineno = 0, dropped = 0;

	if (!text)
		return -1;
	for (line = text; line && *line; line = next) {
		next = kf_cut_line(line);
		if (rule_on(&p, ++lineno, symbol))
			dropped++;
		else
			sb_addf(&sb, "%s\n", line);
	}
	if (kf_write_atomic(path, sb.s ? sb.s : "", sb.len) < 0)
		dropped = rule_error(err, errlen, "%s: %s", path, strerror(errno));
	free(sb.s);
	free(text);
	kf_policy_free(&p);
	return dropped;
}
