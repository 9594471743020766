// SPDX-License-Identifier: GPL-2.0
/*
 * policy - check a flavour's final .config against fragments/policy, the
 * facts each flavour exists for (like Ubuntu's annotations). merge.sh runs it
 * on every config run, after the audit, before the new config replaces
 * .config, so a flavour that breaks its policy keeps its previous .config.
 *
 *   policy POLICY FLAVOUR CONFIG   exit 0: holds; 1: violated; 2: bad input
 *   policy --symbols SYMBOLS KVER POLICY
 *                    every rule's symbol is one of the tree's Kconfig symbols
 *                    (SYMBOLS: one a line), or the rule says gone=KVER;
 *                    else exit 2 naming the line and the nearest symbol
 *
 * A rule is one line:  SYMBOL FLAVOUR=VALUE... : NOTE
 *   SYMBOL   a Kconfig symbol, with or without CONFIG_
 *   FLAVOUR  a flavour name (flavours/<name>.flavour) or * for every flavour;
 *            for one flavour its own entry wins over *
 *   VALUE    y, m, n (n: "is not set" or absent), a number, a "string";
 *            a|b accepts either
 *   NOTE     why the flavour needs it: printed with every violation
 *   gone=K   (optional, K: kver, a|b for several) the symbol is known to be
 *            gone from kernel K's Kconfig: the rule does not apply there
 * A symbol may have several rules (one note each), but a flavour (or *)
 * only one required value per symbol.
 */
#include "../lib/dotconfig.h"
#include "../lib/kf.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One required value: one symbol for one flavour (or "*"). */
struct kf_policy_rule {
	char *symbol;		/* without CONFIG_ */
	char *flavour;		/* flavour name or "*" */
	char *value;		/* accepted values as written, '|' between */
	char *note;
	char *gone;		/* kvers the symbol is gone from, '|' between; or NULL */
	int line;
};

struct kf_policy {
	char *path;
	struct kf_policy_rule *rule;
	size_t n;
};

/* Parse policy text; on a problem "path:line: what; fix" in err, -1. */
int kf_policy_parse(struct kf_policy *p, const char *path, const char *text,
		    char *err, size_t errlen);
void kf_policy_free(struct kf_policy *p);
/* The rule that binds flavour for symbol: its own, else "*", else NULL. */
const struct kf_policy_rule *kf_policy_rule_for(const struct kf_policy *p,
						const char *symbol,
						const char *flavour);
/* 1 when actual (NULL: absent, read as n) is one of the accepted values
 * (lib/dotconfig.c's kf_value_equal()). */
int kf_policy_allows(const char *accepted, const char *actual);
/* Print one line per violation of config (of kernel kver, or NULL) to out;
 * returns how many there are. */
int kf_policy_check(const struct kf_policy *p, const char *flavour,
		    const struct kf_config *config, const char *kver, FILE *out);
/* 1 when the rule is marked gone=... for kver. */
int kf_policy_gone(const struct kf_policy_rule *r, const char *kver);
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

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
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

#ifndef KF_POLICY_NO_MAIN
/* Every flavour a rule names must have a recipe: a typo would bind nothing. */
static void check_flavours(const struct kf_policy *p)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct kf_policy_rule *r = &p->rule[i];
		char *recipe;

		if (!strcmp(r->flavour, "*"))
			continue;
		recipe = kf_xasprintf("flavours/%s.flavour", r->flavour);
		if (access(recipe, F_OK))
			kf_die(2, "%s:%d: flavour '%s' has no recipe %s; fix the name, or remove it with the flavour",
			       p->path, r->line, r->flavour, recipe);
		free(recipe);
	}
}

/* --symbols SYMBOLS KVER POLICY: a rule on a symbol the tree does not have
 * (a typo, or a symbol gone in this kernel) would pass silently. */
static int check_symbols(const char *symfile, const char *kver, const char *path)
{
	char *syms = kf_read_file(symfile, NULL), *text = kf_read_file(path, NULL);
	char err[1024];
	struct kf_policy p;
	int bad = 0;

	if (!syms || !text)
		kf_die(2, "%s: %s", syms ? path : symfile, strerror(errno));
	if (kf_policy_parse(&p, path, text, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
	for (size_t i = 0; i < p.n; i++) {
		const struct kf_policy_rule *r = &p.rule[i];
		char *want = kf_xasprintf("\n%s\n", r->symbol), *best = NULL;
		size_t best_d = (size_t)-1, symlen = strlen(r->symbol);

		/* Each line once, and not when marked gone here. */
		if ((i && p.rule[i - 1].line == r->line) || kf_policy_gone(r, kver) ||
		    (!strncmp(syms, r->symbol, symlen) && syms[symlen] == '\n') || strstr(syms, want)) {
			free(want);
			continue;
		}
		for (char *s = syms; *s;) {
			size_t len = strcspn(s, "\n"), d;
			char c = s[len];

			s[len] = '\0';
			d = kf_edit_distance(r->symbol, s);
			if (d < best_d) {
				best_d = d;
				free(best);
				best = kf_xstrdup(s);
			}
			s[len] = c;
			s += len + (c != '\0');
		}
		fprintf(stderr,
			"policy: %s:%d: CONFIG_%s is not a symbol of the %s tree's Kconfig (nearest: %s); fix the name, or add gone=%s to the rule if the symbol is gone there\n",
			path, r->line, r->symbol, kver, best ? best : "none", kver);
		free(best);
		free(want);
		bad++;
	}
	kf_policy_free(&p);
	free(syms);
	free(text);
	return bad ? 2 : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "symbols", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	const char *symbols = NULL;
	struct kf_policy p;
	struct kf_config config;
	char err[1024], *text;
	int bad, c;

	kf_prog = "policy";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 's')
			kf_die(2, "usage: policy POLICY FLAVOUR CONFIG | --symbols SYMBOLS KVER POLICY");
		symbols = optarg;
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (symbols && argc == 3)
		return check_symbols(symbols, argv[1], argv[2]);
	if (symbols || argc != 4)
		kf_die(2, "usage: policy POLICY FLAVOUR CONFIG (run by config/merge.sh)");
	text = kf_read_file(argv[1], NULL);
	if (!text)
		kf_die(2, "%s: %s; the policy file is fragments/policy (docs/flavours.md)",
		       argv[1], strerror(errno));
	if (kf_policy_parse(&p, argv[1], text, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
	free(text);
	check_flavours(&p);
	if (kf_config_read(&config, argv[3], NULL, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
	bad = kf_policy_check(&p, argv[2], &config, config.kver, stderr);
	if (bad)
		fprintf(stderr,
			"policy: %s: %d policy violation%s; fix the flavour's fragments (or %s, if the policy is what is wrong)\n",
			argv[2], bad, bad == 1 ? "" : "s", argv[1]);
	kf_config_free(&config);
	kf_policy_free(&p);
	return bad ? 1 : 0;
}
#endif
