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
 * The rules' format and their one reader: lib/policy.h.
 */
#include "../lib/dotconfig.h"
#include "../lib/kf.h"
#include "../lib/policy.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	char *syms = kf_read_file(symfile, NULL), err[1024];
	struct kf_policy p;
	int bad = 0;

	if (!syms)
		kf_die(2, "%s: %s", symfile, strerror(errno));
	if (kf_policy_read(&p, path, err, sizeof(err)) < 0)
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
	char err[1024];
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
	if (kf_policy_read(&p, argv[1], err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
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
