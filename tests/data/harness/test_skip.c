// SPDX-License-Identifier: GPL-2.0
/* A cmocka program for tests/e2e/00-harness.sh: one test passes, one calls
 * skip(), which cmocka 1.1 prints in TAP as 'not ok 2 # SKIP skips'; tests/run
 * must count it as a skip, never a pass or a failure. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

static void passes(void **state)
{
	(void)state;
}

static void skips(void **state)
{
	(void)state;
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(passes),
		cmocka_unit_test(skips),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
