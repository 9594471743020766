// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for config/savefragment.c's choices (config/savefragment.sh
 * is their glue): which fragment an edit goes to (to=, else the flavour's
 * own, new when the recipe has none), a new fragment merged last by apply,
 * and which other trees' defconfigs come from the same fragments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define main savefragment_main
#include "../../config/savefragment.c" /* NOLINT(bugprone-suspicious-include): its statics are tested */
#undef main

static void assert_target(const char *to, const char *names, const char *files, const char *want)
{
	char *t = pick_target("mpsc", to, names, files);

	if (!want) {
		assert_null(t);
		return;
	}
	assert_non_null(t);
	assert_string_equal(t, want);
	free(t);
}

static void test_target(void **state)
{
	const char *names = "base  smt cpu-mpsc flavour-mpsc";
	const char *files = "fragments/base.config fragments/smt.config "
			    "fragments/6.1/cpu-mpsc.config fragments/flavour-mpsc.config";

	(void)state;
	/* to= names a fragment of the recipe: its file for this tree. */
	assert_target("cpu-mpsc", names, files, "fragments/6.1/cpu-mpsc.config");
	assert_target("base", names, files, "fragments/base.config");
	/* none: the flavour's own, as the recipe has it, or a new one */
	assert_target("", names, files, "fragments/flavour-mpsc.config");
	assert_target("", "base smt", "fragments/base.config fragments/smt.config",
		      "fragments/flavour-mpsc.config");
	assert_target("", "", "", "fragments/flavour-mpsc.config");
	/* a to= that is no fragment of the recipe is refused */
	assert_target("cpu-k8", names, files, NULL);
	assert_target("cpu-mps", names, files, NULL);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void test_others(void **state)
{
	char tmpl[] = "/tmp/kf-savefragment-XXXXXX", *d = mkdtemp(tmpl), *p;
	char *flavours[] = { "mpsc", "k8" };
	struct strbuf out = { 0 };

	(void)state;
	assert_non_null(d);
	for (const char *k = "6.1\0" "6.12\0" "7.0\0"; *k; k += strlen(k) + 1) {
		p = kf_xasprintf("%s/%s", d, k);
		assert_int_equal(mkdir(p, 0755), 0);
		free(p);
	}
	for (const char *f = "6.1/mpsc_defconfig\0" "6.1/k8_defconfig\0" "6.12/mpsc_defconfig\0"; *f;
	     f += strlen(f) + 1) {
		p = kf_xasprintf("%s/%s", d, f);
		put(p, "CONFIG_SMP=y\n");
		free(p);
	}
	other_trees(&out, d, "6.1", flavours, 2);
	assert_string_equal(out.s, "  SAVE    also run: make defconfigs flavour=mpsc kver=6.12 "
				   "(its defconfig comes from the same fragments)\n");
	free(out.s);
	memset(&out, 0, sizeof(out));
	other_trees(&out, d, "7.0", flavours, 2);
	assert_non_null(strstr(out.s, "flavour=mpsc kver=6.1 "));
	assert_non_null(strstr(out.s, "flavour=k8 kver=6.1 "));
	assert_non_null(strstr(out.s, "flavour=mpsc kver=6.12 "));
	/* in tree order, then the flavours' */
	assert_true(strstr(out.s, "k8 kver=6.1 ") < strstr(out.s, "mpsc kver=6.12 "));
	free(out.s);
	memset(&out, 0, sizeof(out));
	other_trees(&out, "/nonexistent-kf", "6.1", flavours, 2);
	assert_null(out.s);
	for (const char *f = "6.1/mpsc_defconfig\0" "6.1/k8_defconfig\0" "6.12/mpsc_defconfig\0"
			     "6.1\0" "6.12\0" "7.0\0"; *f; f += strlen(f) + 1) {
		p = kf_xasprintf("%s/%s", d, f);
		assert_int_equal(remove(p), 0);
		free(p);
	}
	assert_int_equal(rmdir(d), 0);
}

/* A target that is not among the fragments (the flavour's own, new) is
 * written as the last of the merge: no later fragment to undo it. */
static void test_apply_new(void **state)
{
	char tmpl[] = "/tmp/kf-savefragment-XXXXXX", *d = mkdtemp(tmpl);
	char *base = kf_xasprintf("%s/base.config", d), *changes = kf_xasprintf("%s/changes", d);
	char *target = kf_xasprintf("%s/flavour-mpsc.config", d), *text;
	char *argv[] = { "mpsc", target, changes, base, NULL };

	(void)state;
	assert_non_null(d);
	put(base, "CONFIG_SMP=y\n");
	put(changes, "CONFIG_SMP=n\n");
	assert_int_equal(cmd_apply(4, argv), 0);
	text = kf_read_file(target, NULL);
	assert_non_null(text);
	assert_non_null(strstr(text, "# kflavour: override\n# CONFIG_SMP is not set\n"));
	free(text);
	unlink(target);
	unlink(base);
	unlink(changes);
	assert_int_equal(rmdir(d), 0);
	free(target);
	free(base);
	free(changes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_target),
		cmocka_unit_test(test_others),
		cmocka_unit_test(test_apply_new),
	};

	kf_prog = "test_config_savefragment";
	return cmocka_run_group_tests(tests, NULL, NULL);
}
