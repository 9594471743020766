// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/record.c: the one JSON reader (kf_record_read, what
 * each need does with a missing or broken file, the message it gives) and
 * the writer's round trip.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../lib/kf.h"
#include "../../lib/record.h"

static char dir[] = "/tmp/kf-record-XXXXXX";
static char *bad, *arr;	/* a broken JSON file (error on line 2); an array */

static char *put(const char *name, const char *text)
{
	char *path = kf_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	if (!f)
		kf_die(2, "%s: cannot write it", path);
	fputs(text, f);
	fclose(f);
	return path;
}

/* What kf_record_read(path, need, "the fix") writes to stderr, and the exit
 * status of the child that called it: 10 or 11 when it returned an object
 * or NULL (the path on the stack: the child exits holding no heap). */
static char *run_read(const char *path, enum kf_need need, int *exit_status)
{
	char err[sizeof(dir) + 8], *text;
	pid_t pid;
	int status;

	snprintf(err, sizeof(err), "%s/stderr", dir);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		json_t *j;

		if (!freopen(err, "w", stderr))
			_exit(3);
		j = kf_record_read(path, need, "the fix");
		fflush(stderr);
		_exit(j ? 10 : 11);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	*exit_status = WEXITSTATUS(status);
	text = kf_read_file(err, NULL);
	assert_non_null(text);
	unlink(err);
	return text;
}

/* An object is read, with every need; its members by type. */
static void test_reads_an_object(void **state)
{
	char *path = put("ok.json", "{\"s\": \"x\", \"n\": 1.5, \"i\": 7, \"z\": null}\n");
	json_t *j = kf_record_read(path, KF_MUST, "unused");

	(void)state;
	assert_non_null(j);
	assert_string_equal(kf_json_str(j, "s"), "x");
	assert_null(kf_json_str(j, "i"));
	assert_true(kf_json_num(j, "n") == 1.5);
	assert_true(isnan(kf_json_num(j, "s")));
	assert_int_equal(kf_json_int(j, "i"), 7);
	assert_int_equal(kf_json_int(j, "n"), -1);
	assert_int_equal(kf_json_int(j, "z"), -1);
	assert_null(kf_json_str(NULL, "s"));
	json_decref(j);
	unlink(path);
	free(path);
}

/* KF_QUIET: NULL and nothing said, for a missing, broken or non-object file. */
static void test_quiet(void **state)
{
	char *missing = kf_xasprintf("%s/none.json", dir);
	const char *paths[] = { bad, arr, missing };
	int rc;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		char *said = run_read(paths[i], KF_QUIET, &rc);

		assert_int_equal(rc, 11);
		assert_string_equal(said, "");
		free(said);
	}
	free(missing);
}

/* KF_WARN: NULL after "path:line: what; fix"; KF_MUST: the same, exit 2. */
static void test_warn_and_must(void **state)
{
	char *want = kf_xasprintf(": %s:2: ", bad), *said;
	int rc;

	(void)state;
	said = run_read(bad, KF_WARN, &rc);
	assert_int_equal(rc, 11);
	assert_non_null(strstr(said, want));
	assert_non_null(strstr(said, "; the fix\n"));
	free(said);
	said = run_read(bad, KF_MUST, &rc);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(said, want));
	free(said);
	free(want);
	want = kf_xasprintf(": %s: not a JSON object; the fix\n", arr);
	said = run_read(arr, KF_WARN, &rc);
	assert_int_equal(rc, 11);
	assert_non_null(strstr(said, want));
	free(said);
	free(want);
}

/* What kf_record_write writes, kf_record_read reads back: header first. */
static void test_round_trip(void **state)
{
	char *path = kf_xasprintf("%s/rec.json", dir);
	json_t *rec = kf_record_new("boot", "mpsc", "6.1", NULL), *back;

	(void)state;
	json_object_set_new(rec, "wall_seconds", json_real(201.4));
	assert_int_equal(kf_record_write(rec, path), 0);
	back = kf_record_read(path, KF_MUST, "unused");
	assert_true(json_equal(rec, back));
	assert_string_equal(kf_json_str(back, "record"), "boot");
	assert_int_equal(kf_json_int(back, "format"), KF_RECORD_FORMAT);
	assert_true(json_is_null(json_object_get(back, "release")));
	json_decref(rec);
	json_decref(back);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_an_object),
		cmocka_unit_test(test_quiet),
		cmocka_unit_test(test_warn_and_must),
		cmocka_unit_test(test_round_trip),
	};
	int failed;

	kf_prog = "test_record";
	if (!mkdtemp(dir))
		return 1;
	bad = put("bad.json", "{\"a\": 1,\n  oops}\n");
	arr = put("arr.json", "[1, 2]\n");
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(bad);
	unlink(arr);
	free(bad);
	free(arr);
	rmdir(dir);
	return failed;
}
