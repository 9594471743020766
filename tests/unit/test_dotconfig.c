// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/dotconfig.c, the one reader of .config and fragment
 * lines: the value-equality rule every tool shares, the Kconfig menu of
 * each setting and the kernel version of the header, and the reader's
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

static const char menus[] =
	"#\n# Automatically generated file; DO NOT EDIT.\n"
	"# Linux/x86 6.1.192 Kernel Configuration\n#\nCONFIG_CC_IS_GCC=y\n"
	"\n#\n# General setup\n#\nCONFIG_A=y\n"
	"\n#\n# Timers subsystem\n#\n# CONFIG_B is not set\n"
	"\n#\n# Deeper\n#\nCONFIG_C=m\n# end of Deeper\n"
	"CONFIG_D=y\n# end of Timers subsystem\n"
	"\n#\n# A comment, not a menu\n#\nCONFIG_E=y\n"
	"\n#\n# Inside the comment\n#\nCONFIG_G=y\n# end of Inside the comment\n"
	"# end of General setup\nCONFIG_F=y\n# end of Nothing open\nCONFIG_H=y\n";

static void reads_menus_and_kver(void **state)
{
	struct kf_config c;

	(void)state;
	assert_int_equal(kf_config_read(&c, "x.config", menus, err, sizeof(err)), 0);
	assert_string_equal(c.kver, "6.1");
	/* The header's block is no menu: it has no end line. */
	assert_string_equal(kf_config_menu(&c, "CC_IS_GCC"), "(top level)");
	assert_string_equal(kf_config_menu(&c, "A"), "General setup");
	/* Two levels deep, the outermost two. */
	assert_string_equal(kf_config_menu(&c, "B"), "General setup > Timers subsystem");
	assert_string_equal(kf_config_menu(&c, "C"), "General setup > Timers subsystem");
	assert_string_equal(kf_config_menu(&c, "D"), "General setup > Timers subsystem");
	/* A Kconfig comment has no end line: its symbols stay in the menu,
	 * and a menu opened after it is not inside it. */
	assert_string_equal(kf_config_menu(&c, "E"), "General setup");
	assert_string_equal(kf_config_menu(&c, "G"), "General setup > Inside the comment");
	assert_string_equal(kf_config_menu(&c, "F"), "(top level)");
	/* An end line of no open menu closes nothing. */
	assert_string_equal(kf_config_menu(&c, "H"), "(top level)");
	assert_null(kf_config_menu(&c, "X"));
	kf_config_free(&c);
	/* Debian's amd64 config: a comment, then a menu, of the same title. */
	assert_int_equal(kf_config_read(&c, "x.config",
		"\n#\n# Device Drivers\n#\n\n#\n# Media drivers\n#\n\n#\n# Media drivers\n#\n"
		"CONFIG_M=y\n# end of Media drivers\nCONFIG_N=y\n# end of Device Drivers\nCONFIG_O=y\n",
		err, sizeof(err)), 0);
	assert_string_equal(kf_config_menu(&c, "M"), "Device Drivers > Media drivers");
	assert_string_equal(kf_config_menu(&c, "N"), "Device Drivers");
	assert_string_equal(kf_config_menu(&c, "O"), "(top level)");
	kf_config_free(&c);
	/* An end line closes one block, the innermost of its title; a block
	 * is "#", "# Title", "#" (two comment lines then "#" are none). */
	assert_int_equal(kf_config_read(&c, "x.config",
		"#\n# Media\n#\n#\n# Media\n#\nCONFIG_M=y\n# end of Media\nCONFIG_N=y\n"
		"#\n# Note\n# Menu X\n#\nCONFIG_P=y\n# end of Menu X\n", err, sizeof(err)), 0);
	assert_string_equal(kf_config_menu(&c, "M"), "Media");
	assert_string_equal(kf_config_menu(&c, "N"), "(top level)");
	assert_string_equal(kf_config_menu(&c, "P"), "(top level)");
	kf_config_free(&c);
	/* A fragment has neither. */
	assert_int_equal(kf_config_read(&c, "f.config", "CONFIG_A=y\n", err, sizeof(err)), 0);
	assert_null(c.kver);
	assert_string_equal(kf_config_menu(&c, "A"), "(top level)");
	kf_config_free(&c);
	assert_int_equal(kf_config_read(&c, "x.config", "# Linux/x86 6.12.1 Kernel Configuration\n",
					err, sizeof(err)), 0);
	assert_string_equal(c.kver, "6.12");
	kf_config_free(&c);
}

/* A bad line inside a menu is named like any other, and nothing is kept. */
static void bad_line_in_a_menu(void **state)
{
	struct kf_config c;
	char *text = kf_xasprintf("%sCONFIG_I= y\n", menus);

	(void)state;
	assert_int_equal(kf_config_read(&c, "x.config", text, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "x.config:39: "));
	assert_null(c.menu);
	assert_int_equal(c.n, 0);
	free(text);
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
		cmocka_unit_test(reads_menus_and_kver),
		cmocka_unit_test(bad_line_in_a_menu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
