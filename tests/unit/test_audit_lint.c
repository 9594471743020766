// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for config/fragment.c, the lint half of the audit: which lines
 * a fragment may hold, and how the settings of several fragments merge.
 * Every error must name file:line and say how to fix it.
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

#include "../../lib/kf.h"
#include "../../lib/fragment.h"

/* Classify one line; returns the error text ("" when the line is valid). */
static const char *classify(const char *line, struct kf_line *l)
{
	static char err[1024];

	err[0] = '\0';
	if (kf_parse_line(line, l, err, sizeof(err)) == 0)
		assert_string_equal(err, "");
	else
		assert_true(err[0] != '\0');
	return err;
}

static void assert_contains(const char *haystack, const char *needle)
{
	if (!strstr(haystack, needle))
		fail_msg("'%s' does not contain '%s'", haystack, needle);
}

static void assert_setting(const char *line, enum kf_line_kind kind,
			   enum kf_value_kind vkind, const char *name,
			   const char *value)
{
	struct kf_line l;

	assert_string_equal(classify(line, &l), "");
	assert_int_equal(l.kind, kind);
	assert_int_equal(l.vkind, vkind);
	assert_int_equal(l.name_len, strlen(name));
	assert_memory_equal(l.name, name, l.name_len);
	assert_int_equal(l.value_len, strlen(value));
	assert_memory_equal(l.value, value, l.value_len);
}

static void valid_lines(void **state)
{
	struct kf_line l;

	(void)state;
	assert_string_equal(classify("", &l), "");
	assert_int_equal(l.kind, KF_LINE_BLANK);
	assert_string_equal(classify("  \t", &l), "");
	assert_int_equal(l.kind, KF_LINE_BLANK);
	assert_string_equal(classify("# a comment: CONFIG_X86_HT is gone", &l), "");
	assert_int_equal(l.kind, KF_LINE_COMMENT);
	assert_string_equal(classify("#", &l), "");
	assert_int_equal(l.kind, KF_LINE_COMMENT);
	assert_string_equal(classify(KF_OVERRIDE_MARK, &l), "");
	assert_int_equal(l.kind, KF_LINE_OVERRIDE);

	assert_setting("CONFIG_SMP=y", KF_LINE_SET, KF_VAL_TRI, "SMP", "y");
	assert_setting("CONFIG_USB=m", KF_LINE_SET, KF_VAL_TRI, "USB", "m");
	assert_setting("CONFIG_64BIT=n", KF_LINE_SET, KF_VAL_TRI, "64BIT", "n");
	assert_setting("CONFIG_NR_CPUS=8", KF_LINE_SET, KF_VAL_DEC, "NR_CPUS", "8");
	assert_setting("CONFIG_X=-1", KF_LINE_SET, KF_VAL_DEC, "X", "-1");
	assert_setting("CONFIG_PHYSICAL_START=0x1000000", KF_LINE_SET, KF_VAL_HEX,
		       "PHYSICAL_START", "0x1000000");
	assert_setting("CONFIG_CMDLINE=\"\"", KF_LINE_SET, KF_VAL_STR, "CMDLINE", "\"\"");
	assert_setting("CONFIG_CMDLINE=\"a \\\"b\\\" c\"", KF_LINE_SET, KF_VAL_STR,
		       "CMDLINE", "\"a \\\"b\\\" c\"");
	assert_setting("# CONFIG_SWIOTLB is not set", KF_LINE_UNSET, KF_VAL_TRI,
		       "SWIOTLB", "n");
}

static void maybe_is_not_a_value(void **state)
{
	struct kf_line l;
	const char *err = classify("CONFIG_FOO=maybe", &l);

	(void)state;
	assert_contains(err, "CONFIG_FOO=maybe: 'maybe' is not a Kconfig value");
	assert_contains(err, "; use y, m, n, a decimal or 0x hex number, or a \"quoted string\"");
}

static void other_bad_values(void **state)
{
	struct kf_line l;

	(void)state;
	assert_contains(classify("CONFIG_FOO=", &l), "has no value");
	assert_contains(classify("CONFIG_FOO", &l), "has no value; write CONFIG_FOO=y");
	assert_contains(classify("CONFIG_FOO=yes", &l), "'yes' is not a Kconfig value");
	assert_contains(classify("CONFIG_FOO=0xZZ", &l), "'0xZZ' is not a Kconfig value");
	assert_contains(classify("CONFIG_FOO=\"open", &l), "no closing '\"'");
	assert_contains(classify("CONFIG_FOO=\"a\"b", &l), "text after the closing");
	assert_contains(classify("CONFIG_FOO=y ", &l), "white space after the value; remove it");
	assert_contains(classify("CONFIG_FOO = y", &l), "white space before '='; write CONFIG_FOO=y");
	assert_contains(classify("CONFIG_FOO-BAR=y", &l), "letters, digits and '_'");
	assert_contains(classify("CONFIG_=y", &l), "no symbol name after CONFIG_");
	assert_contains(classify("CONFIG_SMP=y\r", &l), "dos2unix");
	assert_contains(classify("  CONFIG_SMP=y", &l), "indented");
	assert_contains(classify("# kflavour: overide", &l), "not a kflavour directive");
}

static void line_without_prefix(void **state)
{
	struct kf_line l;

	(void)state;
	assert_contains(classify("SMP=y", &l),
			"'SMP=y' has no CONFIG_ prefix, so Kconfig ignores it; write CONFIG_SMP=y");
	assert_contains(classify("make it fast", &l), "is not a fragment line; use CONFIG_NAME=value");
}

/* A whole fragment: every problem reported, each with file:line. */
/* BOM, NBSP, zero-width: named, not "is not a fragment line" (issue 13). */
static void invisible_characters_are_named(void **state)
{
	struct kf_line l;

	(void)state;
	assert_contains(classify("\xef\xbb\xbf" "CONFIG_SMP=y", &l),
			"byte 1 is a byte order mark (U+FEFF, BOM)");
	assert_contains(classify("CONFIG_SMP=y\xc2\xa0", &l), "byte 13 is a no-break space (U+00A0, NBSP)");
	assert_contains(classify("CONFIG_\xe2\x80\x8bSMP=y", &l), "zero-width space (U+200B)");
	/* In a comment they do no harm. */
	assert_string_equal(classify("# a note\xc2\xa0with NBSP", &l), "");
}

static void fragment_errors_name_file_and_line(void **state)
{
	struct kf_fragset fs;

	(void)state;
	kf_fragset_init(&fs);
	assert_int_equal(kf_fragset_add(&fs, "fragments/bad.config",
					"# header\n"
					"CONFIG_SMP=y\n"
					"\n"
					"CONFIG_FOO=maybe\n"
					"SMP=y\n"), 2);
	assert_int_equal(fs.nerr, 2);
	assert_contains(fs.err[0], "fragments/bad.config:4: CONFIG_FOO=maybe:");
	assert_contains(fs.err[1], "fragments/bad.config:5: 'SMP=y' has no CONFIG_ prefix");
	/* the valid lines still count */
	assert_int_equal(fs.nset, 1);
	assert_string_equal(fs.set[0].name, "SMP");
	assert_int_equal(fs.set[0].line, 2);
	kf_fragset_free(&fs);
}

static void conflict_names_both(void **state)
{
	struct kf_fragset fs;

	(void)state;
	kf_fragset_init(&fs);
	assert_int_equal(kf_fragset_add(&fs, "fragments/a.config",
					"CONFIG_SMP=y\nCONFIG_NR_CPUS=8\n"), 0);
	assert_int_equal(kf_fragset_add(&fs, "fragments/b.config",
					"# off\n# CONFIG_SMP is not set\n"), 1);
	assert_int_equal(fs.nerr, 1);
	assert_contains(fs.err[0], "fragments/b.config:2: CONFIG_SMP=n conflicts with "
				   "fragments/a.config:1: CONFIG_SMP=y; ");
	assert_contains(fs.err[0], KF_OVERRIDE_MARK);
	/* the earlier value stays */
	assert_string_equal(kf_fragset_find(&fs, "SMP")->value, "y");
	kf_fragset_free(&fs);
}

static void conflict_in_one_fragment(void **state)
{
	struct kf_fragset fs;

	(void)state;
	kf_fragset_init(&fs);
	assert_int_equal(kf_fragset_add(&fs, "f.config",
					"CONFIG_NR_CPUS=8\nCONFIG_X=1\nCONFIG_NR_CPUS=4\n"), 1);
	assert_contains(fs.err[0], "f.config:3: CONFIG_NR_CPUS=4 conflicts with f.config:1: CONFIG_NR_CPUS=8");
	kf_fragset_free(&fs);
}

static void same_value_twice_is_fine(void **state)
{
	struct kf_fragset fs;

	(void)state;
	kf_fragset_init(&fs);
	assert_int_equal(kf_fragset_add(&fs, "a", "CONFIG_SMP=n\nCONFIG_H=0x1f\n"), 0);
	assert_int_equal(kf_fragset_add(&fs, "b", "# CONFIG_SMP is not set\nCONFIG_H=0x1F\n"), 0);
	assert_int_equal(fs.nerr, 0);
	assert_int_equal(fs.nset, 2);
	assert_string_equal(kf_fragset_find(&fs, "SMP")->file, "a");
	kf_fragset_free(&fs);
}

static void override_marker_accepted(void **state)
{
	struct kf_fragset fs;
	const struct kf_setting *s;

	(void)state;
	kf_fragset_init(&fs);
	assert_int_equal(kf_fragset_add(&fs, "fragments/base.config",
					"CONFIG_CPU_SUP_AMD=y\nCONFIG_NR_CPUS=8\n"), 0);
	assert_int_equal(kf_fragset_add(&fs, "fragments/intel.config",
					"# Intel only\n"
					KF_OVERRIDE_MARK "\n"
					"# CONFIG_CPU_SUP_AMD is not set\n"
					KF_OVERRIDE_MARK "\n"
					"CONFIG_NR_CPUS=2\n"), 0);
	assert_int_equal(fs.nerr, 0);
	s = kf_fragset_find(&fs, "CPU_SUP_AMD");
	assert_non_null(s);
	assert_string_equal(s->value, "n");
	assert_string_equal(s->file, "fragments/intel.config");
	assert_int_equal(s->line, 3);
	assert_true(s->override);
	assert_string_equal(kf_fragset_find(&fs, "NR_CPUS")->value, "2");
	/* the marker covers only the next line */
	assert_int_equal(kf_fragset_add(&fs, "fragments/c.config",
					KF_OVERRIDE_MARK "\nCONFIG_X=y\nCONFIG_NR_CPUS=4\n"), 1);
	assert_contains(fs.err[0], "fragments/c.config:3: CONFIG_NR_CPUS=4 conflicts with "
				   "fragments/intel.config:5: CONFIG_NR_CPUS=2");
	kf_fragset_free(&fs);
}

static void override_marker_must_precede_a_setting(void **state)
{
	struct kf_fragset fs;

	(void)state;
	kf_fragset_init(&fs);
	assert_int_equal(kf_fragset_add(&fs, "f", KF_OVERRIDE_MARK "\n\nCONFIG_SMP=y\n"
					KF_OVERRIDE_MARK "\n"), 2);
	assert_contains(fs.err[0], "f:1: '" KF_OVERRIDE_MARK "' must be directly followed");
	assert_contains(fs.err[1], "f:4: ");
	kf_fragset_free(&fs);
}

static void unreadable_file(void **state)
{
	struct kf_fragset fs;

	(void)state;
	kf_fragset_init(&fs);
	assert_int_equal(kf_fragset_add(&fs, "/nonexistent/x.config", NULL), 1);
	assert_contains(fs.err[0], "/nonexistent/x.config: cannot read it: No such file");
	kf_fragset_free(&fs);
}

static void reads_a_file(void **state)
{
	char path[] = "/tmp/kf-frag-XXXXXX";
	const char *text = "CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_S=\"x\\\\y\"";
	struct kf_fragset fs;
	int fd = mkstemp(path);
	char *u;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	kf_fragset_init(&fs);
	assert_int_equal(kf_fragset_add(&fs, path, NULL), 0);
	unlink(path);
	assert_int_equal(fs.nset, 3);
	assert_string_equal(fs.set[1].value, "n");
	assert_int_equal(fs.set[2].line, 3);	/* no newline at the end */
	u = kf_unquote(fs.set[2].value);
	assert_string_equal(u, "x\\y");
	free(u);
	kf_fragset_free(&fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(valid_lines),
		cmocka_unit_test(maybe_is_not_a_value),
		cmocka_unit_test(other_bad_values),
		cmocka_unit_test(line_without_prefix),
		cmocka_unit_test(invisible_characters_are_named),
		cmocka_unit_test(fragment_errors_name_file_and_line),
		cmocka_unit_test(conflict_names_both),
		cmocka_unit_test(conflict_in_one_fragment),
		cmocka_unit_test(same_value_twice_is_fine),
		cmocka_unit_test(override_marker_accepted),
		cmocka_unit_test(override_marker_must_precede_a_setting),
		cmocka_unit_test(unreadable_file),
		cmocka_unit_test(reads_a_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
