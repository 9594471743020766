// SPDX-License-Identifier: GPL-2.0
/* Unit tests for lib/util.c's directories and clock: kf_mkdir_p, kf_now. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../lib/kf.h"

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Parents are made, and a second call on what exists is no error. */
static void test_mkdir_p_makes_parents(void **state)
{
	char top[] = "/tmp/kf-util-XXXXXX";
	char *leaf, *mid;

	(void)state;
	assert_non_null(mkdtemp(top));
	mid = kf_xasprintf("%s/a/b", top);
	leaf = kf_xasprintf("%s/c", mid);
	kf_mkdir_p(leaf);
	assert_true(is_dir(leaf));
	kf_mkdir_p(leaf);
	assert_true(is_dir(leaf));
	assert_int_equal(rmdir(leaf), 0);
	assert_int_equal(rmdir(mid), 0);
	*strrchr(mid, '/') = '\0';
	assert_int_equal(rmdir(mid), 0);
	assert_int_equal(rmdir(top), 0);
	free(leaf);
	free(mid);
}

/* A file where a directory must go: the tool exits 2 (kf_die), in a child. */
static void test_mkdir_p_dies_on_a_file(void **state)
{
	char top[] = "/tmp/kf-util-XXXXXX";
	char *file, *under;
	FILE *f;
	pid_t pid;
	int status;

	(void)state;
	assert_non_null(mkdtemp(top));
	file = kf_xasprintf("%s/file", top);
	under = kf_xasprintf("%s/dir", file);
	f = fopen(file, "w");
	assert_non_null(f);
	fclose(f);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		kf_mkdir_p(under);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 2);
	unlink(file);
	rmdir(top);
	free(under);
	free(file);
}

/* The clock moves forward by at least what was slept, never back. */
static void test_now_advances(void **state)
{
	double t0 = kf_now(), t1;

	(void)state;
	usleep(20000);
	t1 = kf_now();
	assert_true(t1 - t0 >= 0.019);
	assert_true(kf_now() >= t1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mkdir_p_makes_parents),
		cmocka_unit_test(test_mkdir_p_dies_on_a_file),
		cmocka_unit_test(test_now_advances),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
