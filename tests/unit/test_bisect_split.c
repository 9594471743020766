// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for bisect/split.c: reading .config text ("is not set" is n),
 * the differing symbols in the bad config's order, configs made of one
 * side with some values of the other, and ktest's order of splits (halves
 * from the good side, then from the bad side, then smaller chunks).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../bisect/split.h"

static const char good_text[] =
	"#\n# Automatically generated file; DO NOT EDIT.\n#\n"
	"CONFIG_A=y\n"
	"# CONFIG_B is not set\n"
	"CONFIG_HOST=\"(none)\"\n"
	"CONFIG_SHIFT=17\n"
	"CONFIG_ONLY_GOOD=y\n";
static const char bad_text[] =
	"CONFIG_A=y\n"
	"CONFIG_B=y\n"
	"CONFIG_ONLY_BAD=y\n"
	"CONFIG_HOST=\"bisect\"\n"
	"CONFIG_SHIFT=16\n";

/* Parse .config text with the one reader (lib/dotconfig.c). */
static void parse(struct kf_config *c, const char *text)
{
	char err[1024];

	assert_int_equal(kf_config_read(c, "test.config", text, err, sizeof(err)), 0);
}

static void parses_values_in_order(void **state)
{
	struct kf_config c;

	(void)state;
	parse(&c, good_text);
	assert_int_equal(c.n, 5);
	assert_string_equal(c.sym[1].name, "B");
	assert_string_equal(kf_config_get(&c, "B"), "n");
	assert_string_equal(kf_config_get(&c, "HOST"), "\"(none)\"");
	assert_null(kf_config_get(&c, "NOPE"));
	kf_config_free(&c);
}

static void differences_in_bad_order(void **state)
{
	struct kf_config g, b;
	const char **names;
	size_t n;

	(void)state;
	parse(&g, good_text);
	parse(&b, bad_text);
	/* ONLY_GOOD and ONLY_BAD follow from dependencies: not bisected. */
	n = kconf_diff(&g, &b, &names);
	assert_int_equal(n, 3);
	assert_string_equal(names[0], "B");
	assert_string_equal(names[1], "HOST");
	assert_string_equal(names[2], "SHIFT");
	assert_false(kconf_equal(&g, &b));
	assert_true(kconf_equal(&g, &g));
	free(names);
	kf_config_free(&g);
	kf_config_free(&b);
}

static void with_takes_the_other_sides_values(void **state)
{
	struct kf_config g, b, n;
	const char *pick[] = { "B", "SHIFT" };
	char *text;

	(void)state;
	parse(&g, good_text);
	parse(&b, bad_text);
	text = kconf_with(&g, &b, pick, 2);
	assert_string_equal(text,
		"CONFIG_A=y\nCONFIG_B=y\nCONFIG_HOST=\"(none)\"\nCONFIG_SHIFT=16\nCONFIG_ONLY_GOOD=y\n");
	free(text);
	/* Back the other way: n is written as kconfig writes it. */
	text = kconf_with(&b, &g, pick, 1);
	parse(&n, text);
	assert_string_equal(kf_config_get(&n, "B"), "n");
	assert_non_null(strstr(text, "# CONFIG_B is not set\n"));
	free(text);
	kf_config_free(&n);
	kf_config_free(&g);
	kf_config_free(&b);
}

static void split_order_is_ktests(void **state)
{
	size_t start, len, i;
	int from_bad;

	(void)state;
	/* 5 differences: halves of 3 and 2, each from good then from bad. */
	assert_true(split_candidate(5, 0, &start, &len, &from_bad));
	assert_int_equal(start, 0);
	assert_int_equal(len, 3);
	assert_false(from_bad);
	assert_true(split_candidate(5, 1, &start, &len, &from_bad));
	assert_int_equal(len, 3);
	assert_true(from_bad);
	assert_true(split_candidate(5, 2, &start, &len, &from_bad));
	assert_int_equal(start, 3);
	assert_int_equal(len, 2);
	assert_false(from_bad);
	/* Then chunks of 2 (3 of them), then single symbols (5). */
	assert_true(split_candidate(5, 4, &start, &len, &from_bad));
	assert_int_equal(start, 0);
	assert_int_equal(len, 2);
	for (i = 0; split_candidate(5, i, &start, &len, &from_bad); i++)
		assert_true(start + len <= 5 && len > 0 && len < 5);
	assert_int_equal(i, 4 + 6 + 10);
	/* One difference cannot be split: it is the answer. */
	assert_false(split_candidate(1, 0, &start, &len, &from_bad));
	assert_false(split_candidate(0, 0, &start, &len, &from_bad));
	/* Two: each single symbol, from both sides. */
	for (i = 0; split_candidate(2, i, &start, &len, &from_bad); i++)
		assert_int_equal(len, 1);
	assert_int_equal(i, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_values_in_order),
		cmocka_unit_test(differences_in_bad_order),
		cmocka_unit_test(with_takes_the_other_sides_values),
		cmocka_unit_test(split_order_is_ktests),
	};

	return cmocka_run_group_tests_name("bisect_split", tests, NULL, NULL);
}
