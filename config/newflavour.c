// SPDX-License-Identifier: GPL-2.0
/*
 * newflavour - the logic behind 'make newflavour' (config/edit.mk;
 * config/newflavour.sh evaluates the choice with the tree's kconfig).
 *
 *   newflavour --check NAME CPU MODEL KCONFIG_CPU
 *   newflavour NAME CPU MODEL KCONFIG_CPU EVALUATED
 *       Check NAME (lib/recipe.c's flavour-name rule), MODEL (boot/cpu-models,
 *       read by lib/cpumodels.c) and CPU (a processor-family choice of the
 *       tree's arch/x86/Kconfig.cpu, usable on x86-64); with --check print
 *       the choice's prompt. Else EVALUATED is the tree's kconfig's config
 *       with 64BIT and CPU forced (newflavour.sh): CPU must have stood
 *       there; write flavours/NAME.flavour (generic's fragments with
 *       cpu-NAME for its cpu fragment, by lib/recipe.c's writer) and
 *       fragments/cpu-NAME.config (CONFIG_<CPU>=y, and EVALUATED's
 *       X86_L1_CACHE_SHIFT when it has one).
 *
 * Exit status: 0 done, 2 bad arguments or input (nothing written).
 */
#include "../lib/cpumodels.h"
#include "../lib/dotconfig.h"
#include "../lib/kf.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GENERIC_RECIPE "flavours/generic.flavour"

/* One entry of the processor-family choice of arch/x86/Kconfig.cpu. */
struct cpu_choice {
	char *sym, *prompt;
	int only32;		/* "depends on X86_32" */
};

/*
 * The members of the 'choice' whose prompt is "Processor family". A plain
 * scan of the file suffices: that block is literal Kconfig syntax ("choice",
 * "config NAME", "bool "...", "depends on", "endchoice" at line starts), and
 * whether a symbol is declared inside it is a fact of the text, not of any
 * configuration. What a choice implies (usable on x86-64, its cache line) is
 * left to the tree's own kconfig: newflavour.sh evaluates it.
 */
static size_t read_choices(const char *path, struct cpu_choice **out)
{
	char *text = kf_read_file(path, NULL), *line, *next;
	int in_choice = 0, family = 0;
	struct cpu_choice *v = NULL;
	size_t n = 0, start = 0;

	if (!text)
		kf_die(2, "%s: %s; prepare the tree first (make tree)", path, strerror(errno));
	for (line = text; line; line = next) {
		char *s;

		next = kf_cut_line(line);
		s = kf_trim(line);
		if (!strcmp(s, "choice")) {
			in_choice = 1;
			family = 0;
			start = n;
		} else if (!strcmp(s, "endchoice")) {
			if (!family) {
				for (size_t i = start; i < n; i++) {
					free(v[i].sym);
					free(v[i].prompt);
				}
				n = start;
			}
			in_choice = 0;
		} else if (in_choice && !strncmp(s, "prompt \"Processor family\"", 25)) {
			family = 1;
		} else if (in_choice && !strncmp(s, "config ", 7)) {
			v = kf_xrealloc(v, (n + 1) * sizeof(*v));
			v[n].sym = kf_xstrdup(kf_trim(s + 7));
			v[n].prompt = NULL;
			v[n++].only32 = 0;
		} else if (in_choice && n > start && !v[n - 1].prompt &&
			   !strncmp(s, "bool \"", 6)) {
			char *q = strrchr(s + 6, '"');

			v[n - 1].prompt = kf_xasprintf("%.*s", q ? (int)(q - s - 6) : 0, s + 6);
		} else if (in_choice && n > start && !strcmp(s, "depends on X86_32")) {
			v[n - 1].only32 = 1;
		}
	}
	free(text);
	*out = v;
	return n;
}

/* generic's fragment list with its cpu-* fragment replaced by cpu-NAME. */
static char *scaffold_fragments(const char *name)
{
	struct kf_recipe r;
	struct strbuf out = { 0 };
	char err[1024], *list, *save = NULL;
	int replaced = 0;

	if (kf_recipe_read(GENERIC_RECIPE, &r, err, sizeof(err)) < 0)
		kf_die(2, "%s (newflavour copies its fragment list)", err);
	list = kf_xstrdup(r.value[KF_FRAGMENTS]);
	for (char *f = strtok_r(list, " \t", &save); f; f = strtok_r(NULL, " \t", &save)) {
		if (out.len)
			sb_add(&out, " ");
		if (!strncmp(f, "cpu-", 4)) {
			sb_addf(&out, "cpu-%s", name);
			replaced = 1;
		} else {
			sb_add(&out, f);
		}
	}
	free(list);
	kf_recipe_free(&r);
	if (!replaced)
		kf_die(2, "%s has no cpu-* fragment to replace; newflavour copies generic's list", GENERIC_RECIPE);
	return out.s;
}

/* MODEL must be in the table and expected to pass: a flavour is booted on
 * its model. */
static void check_model(const char *model)
{
	struct kf_cpu_models t;
	const struct kf_cpu_model *m;
	char err[1024], *names;

	if (kf_cpu_models_read(&t, KF_CPU_MODELS, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
	m = kf_cpu_model_find(&t, model);
	names = kf_cpu_model_names(&t, m ? "pass" : NULL);
	if (!m)
		kf_die(2, "model '%s' is not a CPU model in %s; use one of: %s",
		       model, KF_CPU_MODELS, names);
	if (strcmp(m->expect, "pass") != 0)
		kf_die(2, "model '%s' is expected to give '%s' (%s), so the new flavour could never boot on it; use a model that passes: %s",
		       model, m->expect, KF_CPU_MODELS, names);
	free(names);
	kf_cpu_models_free(&t);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "check", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name, *cpu, *model, *kconfig, *shift, *prompt;
	char *recipe, *fragment, *list, *fragtext, *header, err[1024];
	struct kf_recipe r = { 0 };
	struct kf_config evaluated = { 0 };
	struct strbuf cpu64 = { 0 };
	struct cpu_choice *c;
	const struct cpu_choice *hit = NULL;
	size_t n;
	int check = 0, opt;

	kf_prog = "kflavour newflavour";
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt != 'c')
			kf_die(2, "usage: newflavour [--check] NAME CPU MODEL KCONFIG_CPU [EVALUATED]");
		check = 1;
	}
	argc -= optind;
	argv += optind;
	if (argc != 5 - check)
		kf_die(2, "usage: newflavour --check NAME CPU MODEL KCONFIG_CPU | newflavour NAME CPU MODEL KCONFIG_CPU EVALUATED");
	name = argv[0];
	cpu = argv[1];
	model = argv[2];
	kconfig = argv[3];
	if (!strncmp(cpu, "CONFIG_", 7))
		cpu += 7;

	if (!kf_flavour_name_ok(name))
		kf_die(2, "name '%s' is not a flavour name: use %s, e.g. name=core2",
		       name, KF_FLAVOUR_NAME_RULE);
	recipe = kf_xasprintf("flavours/%s.flavour", name);
	fragment = kf_xasprintf("fragments/cpu-%s.config", name);
	if (!access(recipe, F_OK))
		kf_die(2, "%s already exists; newflavour never overwrites a flavour: "
		       "pick another name, or edit that recipe", recipe);
	if (!access(fragment, F_OK))
		kf_die(2, "%s already exists; newflavour never overwrites a fragment: "
		       "pick another name, or remove it", fragment);
	check_model(model);

	n = read_choices(kconfig, &c);
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(c[i].sym, cpu))
			hit = &c[i];
		if (!c[i].only32)
			sb_addf(&cpu64, "%s%s", cpu64.len ? " " : "", c[i].sym);
	}
	if (!n)
		kf_die(2, "%s has no 'Processor family' choice; is it an x86 tree?", kconfig);
	if (!hit)
		kf_die(2, "cpu '%s' is not a processor-family choice in %s; "
		       "x86-64 choices in this tree: %s", cpu, kconfig, cpu64.s);
	if (hit->only32)
		kf_die(2, "cpu '%s' (%s) is a 32-bit processor family in %s (depends on X86_32); "
		       "x86-64 choices in this tree: %s", cpu, hit->prompt ? hit->prompt : "",
		       kconfig, cpu64.s);
	prompt = hit->prompt ? hit->prompt : cpu;
	if (check) {
		printf("%s\n", prompt);
		goto out;
	}

	if (kf_config_read(&evaluated, argv[4], NULL, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
	if (strcmp(kf_config_value(&evaluated, cpu), "y") != 0)
		kf_die(2, "cpu %s does not stand on x86-64 in this tree (its kconfig drops it: see 'depends on' in %s)",
		       cpu, kconfig);
	shift = kf_config_get(&evaluated, "X86_L1_CACHE_SHIFT");
	fragtext = kf_xasprintf(
		"# cpu-%s: Kconfig's \"%s\" processor-family choice (%s) in\n"
		"# arch/x86/Kconfig.cpu, for the %s flavour (scaffolded by make newflavour).\n"
		"CONFIG_%s=y\n",
		name, prompt, cpu, name, cpu);
	if (shift) {
		char *more = kf_xasprintf(
			"%s# The tree's X86_L1_CACHE_SHIFT for %s (its kconfig evaluated\n"
			"# arch/x86/Kconfig.cpu): %d-byte L1 lines. Requested so the audit checks it.\n"
			"CONFIG_X86_L1_CACHE_SHIFT=%s\n",
			fragtext, cpu, 1 << atoi(shift), shift);

		free(fragtext);
		fragtext = more;
	}
	list = scaffold_fragments(name);
	header = kf_xasprintf(
		"# %s: Kconfig's \"%s\" choice (%s), booted on the %s CPU model.\n"
		"# Scaffolded by 'make newflavour' from generic's fragments; say here what\n"
		"# the flavour is for.\n",
		name, prompt, cpu, model);
	r.value[KF_DESCRIPTION] = kf_xasprintf("%s (%s)", prompt, cpu);
	r.value[KF_FRAGMENTS] = list;
	kf_recipe_set(&r, KF_CPU, model);
	kf_recipe_set(&r, KF_MEMORY, "512M");
	kf_recipe_set(&r, KF_SMP, "2");
	kf_recipe_set(&r, KF_CMDLINE, "");
	kf_recipe_set(&r, KF_BASE, "tinyconfig");
	kf_recipe_set(&r, KF_GROUP, "default");
	/* The fragment first: a recipe without its fragment would break make. */
	if (kf_write_atomic(fragment, fragtext, strlen(fragtext)) < 0)
		kf_die(2, "%s: %s", fragment, strerror(errno));
	if (kf_recipe_write(recipe, &r, header, err, sizeof(err)) < 0) {
		unlink(fragment);
		kf_die(2, "%s", err);
	}
	printf("  NEW     %s\n  NEW     %s\n", recipe, fragment);
	free(fragtext);
	free(header);
out:
	kf_recipe_free(&r);
	kf_config_free(&evaluated);
	for (size_t i = 0; i < n; i++) {
		free(c[i].sym);
		free(c[i].prompt);
	}
	free(c);
	free(cpu64.s);
	free(recipe);
	free(fragment);
	return 0;
}

