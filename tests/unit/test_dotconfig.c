// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/dotconfig.c, the one reader of .config and fragment
 * lines: the value-equality rule every tool shares, and the reader's
 * errors (file:line, what is wrong, how to fix it). The line classifier's
 * cases are in test_audit_lint.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/dotconfig.h"
#include "../../lib/kf.h"

static char err[1024];

static void equal_values(void **state)
{
	(void)state;
	assert_true(kf_value_equal("y", "y"));
	assert_true(kf_value_equal("0x10", "0X10"));
	assert_true(kf_value_equal("0x10", "0x010"));
	assert_true(kf_value_equal("0x10", "10"));	/* a hex symbol reads 10 as 0x10 */
	assert_true(kf_value_equal("16", "016"));
	assert_true(kf_value_equal("-1", "-01"));
	assert_true(kf_value_equal("\"a\\\"b\"", "\"a\\\"b\""));
	assert_true(kf_value_equal("\"a\\b\"", "\"ab\""));	/* as Kconfig unquotes */
}

static void unequal_values(void **state)
{
	(void)state;
	assert_false(kf_value_equal("0x10", "16"));	/* 16 in a hex symbol is 0x16 */
	assert_false(kf_value_equal("y", "m"));
	assert_false(kf_value_equal("y", "\"y\""));
	assert_false(kf_value_equal("1", "\"1\""));
	assert_false(kf_value_equal("n", "0"));
	assert_false(kf_value_equal("\"a\"", "\"b\""));
	assert_false(kf_value_equal("7", "6"));
	assert_false(kf_value_equal("", "0"));
}

static void reads_settings_in_order(void **state)
{
	struct kf_config c;

	(void)state;
	assert_int_equal(kf_config_read(&c, "x.config",
		"# Linux/x86 6.1 Kernel Configuration\n"
		"CONFIG_AB=5\n"
		"CONFIG_A=y\n"
		"# CONFIG_B is not set\n"
		"# CONFIG_BC is not set, really\n"
		"CONFIG_A=m\n"
		"CONFIG_S=\"x y\"", err, sizeof(err)), 0);
	assert_int_equal(c.n, 5);
	assert_string_equal(c.sym[0].name, "AB");
	assert_string_equal(c.sym[2].value, "n");
	assert_string_equal(kf_config_get(&c, "A"), "m");	/* the last wins */
	assert_string_equal(kf_config_get(&c, "B"), "n");
	assert_string_equal(kf_config_get(&c, "S"), "\"x y\"");	/* no newline */
	assert_null(kf_config_get(&c, "BC"));			/* a comment */
	assert_null(kf_config_get(&c, "C"));
	assert_string_equal(kf_config_value(&c, "C"), "n");
	kf_config_free(&c);
}

static void bad_line_names_file_and_line(void **state)
{
	struct kf_config c;

	(void)state;
	assert_int_equal(kf_config_read(&c, "x.config", "CONFIG_A=y\nCONFIG_B=maybe\n",
					err, sizeof(err)), -1);
	assert_non_null(strstr(err, "x.config:2: "));
	assert_non_null(strstr(err, "'maybe' is not a Kconfig value; use y, m, n"));
	assert_int_equal(kf_config_read(&c, "x.config", "CONFIG_A=y\r\n",
					err, sizeof(err)), -1);
	assert_non_null(strstr(err, "x.config:1: "));
	assert_non_null(strstr(err, "dos2unix"));
	assert_int_equal(kf_config_read(&c, "/nonexistent/x.config", NULL,
					err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/x.config: No such file"));
}

static void setting_lines(void **state)
{
	char *s;

	(void)state;
	s = kf_setting_line("A", "n");
	assert_string_equal(s, "# CONFIG_A is not set");
	free(s);
	s = kf_setting_line("A", "0x10");
	assert_string_equal(s, "CONFIG_A=0x10");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(equal_values),
		cmocka_unit_test(unequal_values),
		cmocka_unit_test(reads_settings_in_order),
		cmocka_unit_test(bad_line_names_file_and_line),
		cmocka_unit_test(setting_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
