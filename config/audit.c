// SPDX-License-Identifier: GPL-2.0
/*
 * audit - check that every value the fragments request is in the final config.
 *
 *   config-audit --srctree SRC --config FINAL --flavour NAME [--json OUT]
 *                [--renames FILE] [--base BASE [--verbose]] [--olddefconfig LOG]
 *                [--needs FILE] FRAGMENT...
 *
 * NAME is the flavour the lines and the record name (config/merge.sh's
 * FLAVOUR), never made up from FINAL's path.
 *
 * The fragments alone (their lines, conflicts between them) are checked
 * first, without a tree, by config/lint.c; the audit reports the same
 * problems if it is given such fragments.
 *
 * The full audit also parses SRC's Kconfig with the tree's own kconfig
 * (linked from the tree's scripts/kconfig objects, so it always matches the
 * tree) and reads FINAL with it. Each effective request is compared with the
 * value FINAL's text holds (n, "is not set" and absent are the same); the
 * parsed tree explains the misses, with each symbol's value as kconfig
 * computes it from FINAL. Each request that did not survive gets a block on
 * stderr saying why, in kconfig's terms (config/explain.c). Exit 0 when all
 * survived, 1 on a fragment error or a miss, 2 on a usage or I/O error.
 *
 * --olddefconfig first writes FINAL back as 'make olddefconfig' would (the
 * same kconfig: read it, compute every symbol, write it; byte-identical),
 * then audits that: the tree's Kconfig is parsed once per flavour, not
 * twice. Its $(shell,...) macros run the compiler some 60 times per parse,
 * the larger part of a distro flavour's config stage. What kconfig says
 * while reading FINAL ("override: X changes choice state") goes to LOG, as
 * make olddefconfig's output did.
 *
 * --base names the full config the fragments were merged onto (a distro's,
 * recipe key 'base'). Its thousands of values are not requests: a value the
 * fragments do not set again and that did not survive is explained, in
 * the same kconfig terms, but counted, not failed: one summary line per
 * cause on stdout, every value in the JSON's "base" object (and on stderr
 * with --verbose). Values Kconfig computes (no prompt: the toolchain's
 * CC_VERSION_TEXT, GCC_VERSION, PAHOLE_VERSION, ...) are one of the causes.
 *
 * --needs names what an init needs of the kernel (fragments/systemd.needs,
 * config/sysreq.c): FINAL is checked against it, before any build, and each
 * required value FINAL lacks is named with its menu path from the tree's
 * kconfig ("General setup > Control Group support"): one "  SYSTEMD" line
 * (and one per miss) on stdout, the "systemd" object in the JSON. A miss is
 * information, not a failure: the tiny flavours cannot boot systemd.
 *
 * The tree's other views of a config are tools of their own: config-diff
 * (config/diff.c) and config-prompts (config/prompts.c).
 */
#include "../lib/kf.h"
#include "../lib/renames.h"
#include "../lib/record.h"
#include "audit.h"
#include "../lib/kconf.h"
#include "sysreq.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_RENAMES "fragments/renames"

static void usage(void)
{
	kf_die(2, "usage: config-audit --srctree SRC --config FINAL --flavour NAME [--json OUT.json]\n"
	       "                    [--renames FILE] [--base BASE [--verbose]] [--olddefconfig LOG]\n"
	       "                    [--needs FILE] FRAGMENT...");
}

/*
 * The CPU the config builds for, from the tree's kconfig when 'loaded'
 * (else null, [] and null): the value set in the "Processor family" choice
 * (found through GENERIC_CPU, one of its values in every tree kflavour
 * knows), all values of that choice (the report groups them as "cpu"),
 * and X86_L1_CACHE_SHIFT.
 */
#define CPU_CHOICE_ANCHOR "GENERIC_CPU"

static void add_name(struct symbol *sym, void *arg)
{
	if (sym->name)
		json_array_append_new(arg, json_string(sym->name));
}

static json_t *cpu_json(int loaded)
{
	struct symbol *anchor = loaded ? sym_find(CPU_CHOICE_ANCHOR) : NULL, *w = NULL;
	struct symbol *shift = loaded ? sym_find("X86_L1_CACHE_SHIFT") : NULL;
	struct menu *choice = anchor ? kf_choice_of(anchor) : NULL;
	json_t *values = json_array(), *jshift = json_null();

	if (choice) {
		w = kf_choice_winner(choice);
		kf_choice_values(choice, add_name, values);
	}
	if (shift && kf_sym_known(shift)) {
		char *end;
		long v;

		sym_calc_value(shift);
		v = strtol(sym_get_string_value(shift), &end, 10);
		if (!*end && end != sym_get_string_value(shift))
			jshift = json_integer(v);
	}
	return json_pack("{s:o, s:o, s:o}",
			 "cpu_choice", w && w->name ? json_string(w->name) : json_null(),
			 "cpu_choice_values", values, "l1_cache_shift", jshift);
}

/* Where the loaded tree asks for a symbol (sysreq.h's callback). */
static struct kf_sym_where sym_where(const char *name, void *arg)
{
	struct symbol *sym = sym_find(name);
	struct menu *e = kf_sym_known(sym) ? kf_sym_entry(sym) : NULL;
	struct kf_sym_where w = { e != NULL, NULL, NULL };

	(void)arg;
	if (e) {
		w.menu = kf_menu_path(e);
		w.defined_at = kf_xasprintf("%s:%d", MENU_FILE(e), e->lineno);
	}
	return w;
}

/* The check of FINAL against what the init needs (--needs), the tree loaded. */
static json_t *needs_check(const struct kf_audit *a, const char *path)
{
	struct kf_sysreqs r;
	json_t *rec;

	if (kf_sysreqs_read(&r, path, NULL)) {
		for (size_t k = 0; k < r.nerr; k++)
			fprintf(stderr, "%s: %s\n", kf_prog, r.err[k]);
		kf_die(2, "--needs %s: %zu problem(s); fix the file", path, r.nerr);
	}
	rec = kf_sysreqs_record(&r, &a->final, sym_where, NULL);
	kf_sysreqs_free(&r);
	return rec;
}

/* config.json; the tree loaded when 'loaded'; needs: the check's (taken). */
static void write_record(const struct kf_audit *a, const char *json, const char *flavour,
			 int ok, int loaded, json_t *needs)
{
	json_t *root = kf_audit_record(a, flavour, cpu_json(loaded), ok);

	json_object_set_new(root, "systemd", needs ? needs : json_null());

	if (kf_record_write(root, json) < 0)
		kf_die(2, "%s: %s", json, strerror(errno));
	json_decref(root);
}

/* Each problem in the fragments, and the record that says so (its header
 * names the tree); nothing is merged. */
static int fragment_errors(struct kf_audit *a, const char *srctree, const char *json,
			   const char *flavour)
{
	for (size_t k = 0; k < a->req.nerr; k++)
		fprintf(stderr, "%s: %s\n", kf_prog, a->req.err[k]);
	fprintf(stderr, "%s: %zu problem%s in the fragments; nothing was merged\n",
		kf_prog, a->req.nerr, a->req.nerr == 1 ? "" : "s");
	if (json) {
		a->kernelversion = kf_tree_version(srctree, &a->kver);
		write_record(a, json, flavour, 0, 0, NULL);
	}
	return 1;
}

/* FINAL (normalised first with --olddefconfig LOG) and BASE read. */
static void read_configs(struct kf_audit *a, const char *srctree, const char *olddefconfig)
{
	if (access(a->config, R_OK) < 0)
		kf_die(2, "--config %s: %s; give the merged config to audit",
		       a->config, strerror(errno));
	if (olddefconfig)
		a->kernelversion = kf_kconfig_olddefconfig(srctree, a->config, olddefconfig, &a->kver);
	kf_fragset_add(&a->final, a->config, NULL);
	if (a->final.nerr)
		kf_die(2, "%s (%zu problem(s) in all); --config must be a config written by kconfig",
		       a->final.err[0], a->final.nerr);
	if (a->base_path) {
		kf_fragset_add(&a->base, a->base_path, NULL);
		if (a->base.nerr)
			kf_die(2, "%s (%zu problem(s) in all); --base must be a full config (.config)",
			       a->base.err[0], a->base.nerr);
	}
	if (!olddefconfig)
		a->kernelversion = kf_kconfig_load(srctree, a->config, &a->kver);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "srctree", required_argument, NULL, 's' },
		{ "config", required_argument, NULL, 'c' },
		{ "flavour", required_argument, NULL, 'f' },
		{ "json", required_argument, NULL, 'j' },
		{ "renames", required_argument, NULL, 'r' },
		{ "base", required_argument, NULL, 'b' },
		{ "olddefconfig", required_argument, NULL, 'o' },
		{ "needs", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	const char *srctree = NULL, *json = NULL, *olddefconfig = NULL, *needs_path = NULL;
	const char *flavour = NULL;
	json_t *needs = NULL;
	struct kf_renames renames = { 0 };
	struct kf_audit a;
	int ok, c, verbose = 0;

	kf_prog = "audit";
	kf_audit_init(&a);
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'v': verbose = 1; break;
		case 's': srctree = optarg; break;
		case 'c': a.config = optarg; break;
		case 'f': flavour = optarg; break;
		case 'j': json = optarg; break;
		case 'r': a.renames_path = optarg; break;
		case 'b': a.base_path = optarg; break;
		case 'o': olddefconfig = optarg; break;
		case 'n': needs_path = optarg; break;
		default: usage();
		}
	}
	if (optind >= argc || !srctree || !a.config || !flavour)
		usage();
	for (int i = optind; i < argc; i++)
		kf_fragset_add(&a.req, argv[i], NULL);
	if (a.req.nerr) {
		ok = fragment_errors(&a, srctree, json, flavour);
		kf_audit_free(&a);
		return ok;
	}
	kf_renames_read(&renames, a.renames_path ? a.renames_path : DEFAULT_RENAMES,
			a.renames_path != NULL);
	if (!a.renames_path)
		a.renames_path = DEFAULT_RENAMES;
	a.renames = &renames;
	read_configs(&a, srctree, olddefconfig);
	kf_audit_requests(&a);
	kf_audit_base(&a);
	if (needs_path)
		needs = needs_check(&a, needs_path);

	ok = a.nmiss == 0;
	for (size_t k = 0; k < a.nmiss; k++)
		kf_miss_print(stderr, &a.miss[k]);
	if (needs)
		kf_sysreqs_print(stdout, needs, flavour);
	if (json)
		write_record(&a, json, flavour, ok, 1, json_incref(needs));
	json_decref(needs);
	if (ok)
		printf("  AUDIT   %s: %zu requested values, all present\n",
		       flavour, a.req.nset);
	else
		fprintf(stderr, "%s: %s: %zu of %zu requested values did not survive the merge (above)\n",
			kf_prog, flavour, a.nmiss, a.req.nset);
	if (a.base_path)
		kf_base_summary(stdout, &a, flavour);
	for (size_t k = 0; verbose && k < a.nlost; k++)
		kf_miss_print(stderr, &a.lost[k]);
	kf_renames_free(&renames);
	kf_audit_free(&a);
	return ok ? 0 : 1;
}
