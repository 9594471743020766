// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for config/commit.c, the end of a config attempt: a failed
 * attempt leaves .config and config.json alone and records why (and its
 * audit); a passing one replaces .config only when it differs, keeps edits
 * not saved aside, and writes .config.merged and config.stamp. What it
 * writes is read back through lib/records.c's kf_config_state_read(), the
 * one reader of the rule.
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

#define main commit_main
#include "../../config/commit.c" /* NOLINT(bugprone-suspicious-include): its statics are tested */
#undef main

static void touch(const char *dir, const char *name, const char *text)
{
	char *p = kf_xasprintf("%s/%s", dir, name);

	assert_int_equal(kf_write_atomic(p, text, strlen(text)), 0);
	free(p);
}

/* dir/name's text, "(none)" when it is not there. */
static char *text_of(const char *dir, const char *name)
{
	char *p = kf_xasprintf("%s/%s", dir, name), *t = kf_read_file(p, NULL);

	free(p);
	return t ? t : kf_xstrdup("(none)");
}

static void assert_file(const char *dir, const char *name, const char *want)
{
	char *t = text_of(dir, name);

	assert_string_equal(t, want);
	free(t);
}

/* What lib/records.c's reader makes of DIR: the current audit's file name
 * and the last attempt's failure (NULL: none). */
static void assert_state(const char *dir, const char *audit, const char *failed)
{
	struct kf_config_state st;
	char *suffix = kf_xasprintf("/%s", audit);

	kf_config_state_read(&st, dir);
	assert_non_null(st.audit);
	assert_non_null(strstr(st.audit, suffix));
	if (failed)
		assert_string_equal(st.failed, failed);
	else
		assert_null(st.failed);
	kf_config_state_free(&st);
	free(suffix);
}

static char *odir(void)
{
	char tmpl[] = "/tmp/kf-commit-XXXXXX";

	assert_non_null(mkdtemp(tmpl));
	return kf_xstrdup(tmpl);
}

static void cleanup(char *dir)
{
	const char *names = ".config\0.config.kf-new\0.config.merged\0.config.unsaved\0"
			    "config.json\0config.json.kf-new\0config-failed.json\0config.failed\0"
			    "config.stamp\0";

	for (const char *n = names; *n; n += strlen(n) + 1) {
		char *p = kf_xasprintf("%s/%s", dir, n);

		unlink(p);
		free(p);
	}
	assert_int_equal(rmdir(dir), 0);
	free(dir);
}

/* A failed audit: config-failed.json is its audit and the current one;
 * .config and config.json are the last good. */
static void test_failed_audit(void **state)
{
	char *d = odir();

	(void)state;
	touch(d, ".config", "CONFIG_A=y\n");
	touch(d, "config.json", "good");
	touch(d, "config.json.kf-new", "bad");
	commit_failed(d, "audit failed (see config-failed.json)");
	assert_file(d, ".config", "CONFIG_A=y\n");
	assert_file(d, "config.json", "good");
	assert_file(d, "config-failed.json", "bad");
	assert_file(d, "config.json.kf-new", "(none)");
	assert_file(d, "config.failed", "audit failed (see config-failed.json)\n");
	assert_state(d, "config-failed.json", "audit failed (see config-failed.json)");
	cleanup(d);
}

/* A failure before the audit: no audit of it, config.json stays current. */
static void test_failed_early(void **state)
{
	char *d = odir();

	(void)state;
	touch(d, "config.json", "good");
	commit_failed(d, "merge failed (see config.log)");
	assert_file(d, "config-failed.json", "(none)");
	assert_state(d, "config.json", "merge failed (see config.log)");
	cleanup(d);
}

/* A pass after a failure: the failure records go; a new .config. */
static void test_passed_new(void **state)
{
	char *d = odir();

	(void)state;
	touch(d, ".config", "CONFIG_A=y\n");
	touch(d, ".config.merged", "CONFIG_A=y\n");
	touch(d, "config.failed", "policy violation\n");
	touch(d, "config-failed.json", "bad");
	touch(d, ".config.kf-new", "CONFIG_A=m\n");
	touch(d, "config.json.kf-new", "new");
	commit_passed(d, "mpsc");
	assert_file(d, ".config", "CONFIG_A=m\n");
	assert_file(d, ".config.merged", "CONFIG_A=m\n");
	assert_file(d, ".config.kf-new", "(none)");
	assert_file(d, ".config.unsaved", "(none)");
	assert_file(d, "config.json", "new");
	assert_file(d, "config.stamp", "");
	assert_state(d, "config.json", NULL);
	cleanup(d);
}

/* An unchanged merge leaves .config's inode (and mtime) alone. */
static void test_passed_same(void **state)
{
	char *d = odir(), *p = kf_xasprintf("%s/.config", d);
	struct stat before, after;

	(void)state;
	touch(d, ".config", "CONFIG_A=y\n");
	touch(d, ".config.kf-new", "CONFIG_A=y\n");
	touch(d, "config.json.kf-new", "new");
	assert_int_equal(stat(p, &before), 0);
	commit_passed(d, "mpsc");
	assert_int_equal(stat(p, &after), 0);
	assert_int_equal(before.st_ino, after.st_ino);
	assert_file(d, ".config.kf-new", "(none)");
	assert_file(d, ".config.merged", "CONFIG_A=y\n");
	free(p);
	cleanup(d);
}

/* Edits not saved by savefragment (.config unlike .config.merged) are
 * kept in .config.unsaved when a new merge replaces .config. */
static void test_passed_unsaved(void **state)
{
	char *d = odir();

	(void)state;
	touch(d, ".config", "CONFIG_A=y\nCONFIG_EDIT=y\n");
	touch(d, ".config.merged", "CONFIG_A=y\n");
	touch(d, ".config.kf-new", "CONFIG_A=m\n");
	touch(d, "config.json.kf-new", "new");
	commit_passed(d, "mpsc");
	assert_file(d, ".config.unsaved", "CONFIG_A=y\nCONFIG_EDIT=y\n");
	assert_file(d, ".config", "CONFIG_A=m\n");
	assert_file(d, ".config.merged", "CONFIG_A=m\n");
	cleanup(d);
}

/* The first merge: no .config, no .config.merged, nothing kept aside. */
static void test_passed_first(void **state)
{
	char *d = odir();

	(void)state;
	touch(d, ".config.kf-new", "CONFIG_A=y\n");
	touch(d, "config.json.kf-new", "new");
	commit_passed(d, "mpsc");
	assert_file(d, ".config", "CONFIG_A=y\n");
	assert_file(d, ".config.unsaved", "(none)");
	assert_file(d, "config.json", "new");
	cleanup(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_failed_audit),
		cmocka_unit_test(test_failed_early),
		cmocka_unit_test(test_passed_new),
		cmocka_unit_test(test_passed_same),
		cmocka_unit_test(test_passed_unsaved),
		cmocka_unit_test(test_passed_first),
	};

	kf_prog = "test_config_commit";
	return cmocka_run_group_tests(tests, NULL, NULL);
}
