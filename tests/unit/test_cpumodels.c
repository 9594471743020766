// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/cpumodels.c, the one reader of boot/cpu-models: the
 * shipped table reads, and every error names file:line and a fix.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/cpumodels.h"
#include "../../lib/kf.h"

static char err[1024];

/* Read text as a table; returns kf_cpu_models_read's result. */
static int read_text(const char *text, struct kf_cpu_models *t)
{
	char path[] = "/tmp/kf-cpu-models-XXXXXX";
	int fd = mkstemp(path), rc;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	rc = kf_cpu_models_read(t, path, err, sizeof(err));
	unlink(path);
	return rc;
}

static void the_shipped_table_reads(void **state)
{
	struct kf_cpu_models t;
	const struct kf_cpu_model *m;
	char *names;

	(void)state;
	assert_int_equal(kf_cpu_models_read(&t, KF_CPU_MODELS, err, sizeof(err)), 0);
	m = kf_cpu_model_find(&t, "nocona");
	assert_non_null(m);
	assert_string_equal(m->expect, "pass");
	assert_non_null(strstr(m->cpu_string, "model-id=Intel(R) Xeon(TM) CPU 3.60GHz"));
	names = kf_cpu_model_names(&t, "refused");
	assert_string_equal(names, "i686");
	free(names);
	kf_cpu_models_free(&t);
}

static void lines_and_comments(void **state)
{
	struct kf_cpu_models t;

	(void)state;
	assert_int_equal(read_text("# c\n\n  a  pass   qemu64,+x  \nb refused pentium3\n", &t), 0);
	assert_int_equal(t.n, 2);
	assert_string_equal(t.m[0].name, "a");
	assert_string_equal(t.m[0].cpu_string, "qemu64,+x");
	assert_string_equal(t.m[0].text, "a  pass   qemu64,+x");
	assert_int_equal(t.m[1].line, 4);
	kf_cpu_models_free(&t);
}

static void errors(void **state)
{
	struct kf_cpu_models t;

	(void)state;
	assert_int_equal(read_text("a pass\n", &t), -1);
	assert_non_null(strstr(err, ":1: 'a pass' is not 'name expect -cpu-string'"));
	assert_int_equal(read_text("# x\na hang qemu64\n", &t), -1);
	assert_non_null(strstr(err, ":2: a expects 'hang'; the expected verdict is pass"));
	assert_int_equal(read_text("a pass qemu64\na pass core2duo\n", &t), -1);
	assert_non_null(strstr(err, ":2: model a is already on line 1; keep one"));
	assert_int_equal(read_text("a/b pass qemu64\n", &t), -1);
	assert_non_null(strstr(err, ":1: model name 'a/b' may hold"));
	assert_int_equal(read_text("a pass qemu64 # old\n", &t), -1);
	assert_non_null(strstr(err, "comments go on lines of their own"));
	assert_int_equal(read_text("# nothing\n", &t), -1);
	assert_non_null(strstr(err, ": no CPU model; add a line"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_shipped_table_reads),
		cmocka_unit_test(lines_and_comments),
		cmocka_unit_test(errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
