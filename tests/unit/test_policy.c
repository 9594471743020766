// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for config/policy.c: the fragments/policy parser (every error
 * names file:line and a fix), which rule binds a flavour, value matching,
 * and the violation message (symbol, flavour, required, actual, note).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KF_POLICY_NO_MAIN
#include "../../config/policy.c" /* NOLINT(bugprone-suspicious-include): the tool is one file, no header */

static char err[1024];

static int parse(struct kf_policy *p, const char *text)
{
	err[0] = '\0';
	return kf_policy_parse(p, "fragments/policy", text, err, sizeof(err));
}

static void parses_rules_and_comments(void **state)
{
	struct kf_policy p;
	const struct kf_policy_rule *r;

	(void)state;
	assert_int_equal(parse(&p,
		"# comment\n"
		"\n"
		"CONFIG_X86_L1_CACHE_SHIFT  mpsc=7 k8=6 : cache lines: the point\n"
		"   # indented comment\n"
		"SMP *=y : HyperThreading\n"), 0);
	assert_int_equal(p.n, 3);
	r = kf_policy_rule_for(&p, "X86_L1_CACHE_SHIFT", "mpsc");
	assert_non_null(r);
	assert_string_equal(r->value, "7");
	assert_string_equal(r->note, "cache lines: the point");
	assert_int_equal(r->line, 3);
	assert_string_equal(kf_policy_rule_for(&p, "X86_L1_CACHE_SHIFT", "k8")->value, "6");
	assert_null(kf_policy_rule_for(&p, "X86_L1_CACHE_SHIFT", "generic"));
	assert_int_equal(kf_policy_rule_for(&p, "SMP", "core2")->line, 5);
	kf_policy_free(&p);
}

static void own_entry_wins_over_star(void **state)
{
	struct kf_policy p;

	(void)state;
	assert_int_equal(parse(&p, "SMP up=n : a UP flavour\nSMP *=y : SMT\n"), 0);
	assert_string_equal(kf_policy_rule_for(&p, "SMP", "up")->value, "n");
	assert_string_equal(kf_policy_rule_for(&p, "SMP", "mpsc")->value, "y");
	kf_policy_free(&p);
}

static void quoted_strings_and_alternatives(void **state)
{
	struct kf_policy p;
	const struct kf_policy_rule *r;

	(void)state;
	assert_int_equal(parse(&p,
		"CMDLINE mpsc=\"a: b|c\" : colons and bars inside quotes\n"
		"MICROCODE_AMD *=y|m : loaded either way\n"), 0);
	r = kf_policy_rule_for(&p, "CMDLINE", "mpsc");
	assert_string_equal(r->value, "\"a: b|c\"");
	assert_string_equal(r->note, "colons and bars inside quotes");
	assert_true(kf_policy_allows(r->value, "\"a: b|c\""));
	assert_false(kf_policy_allows(r->value, "\"a: b\""));
	r = kf_policy_rule_for(&p, "MICROCODE_AMD", "k8");
	assert_true(kf_policy_allows(r->value, "m"));
	assert_true(kf_policy_allows(r->value, "y"));
	assert_false(kf_policy_allows(r->value, "n"));
	assert_false(kf_policy_allows(r->value, NULL));
	kf_policy_free(&p);
}

static void values_compare_as_kconfig_does(void **state)
{
	(void)state;
	assert_true(kf_policy_allows("n", NULL));	/* absent is n */
	assert_true(kf_policy_allows("n", "n"));
	assert_true(kf_policy_allows("0x010", "0x10"));	/* numbers by value */
	assert_true(kf_policy_allows("16", "016"));
	assert_false(kf_policy_allows("16", "0x10"));	/* hex reads 16 as 0x16 */
	assert_false(kf_policy_allows("7", "6"));
	assert_false(kf_policy_allows("y", "\"y\""));
}

/* parse fails, and err holds every fragment of want. */
static void parse_fails(const char *text, const char *want1, const char *want2)
{
	struct kf_policy p;

	assert_int_equal(parse(&p, text), -1);
	if (!strstr(err, want1) || (want2 && !strstr(err, want2)))
		fail_msg("error '%s' lacks '%s' / '%s'", err, want1, want2 ? want2 : "");
	assert_int_equal(p.n, 0);	/* nothing left to free */
}

static void errors_name_line_and_fix(void **state)
{
	(void)state;
	parse_fails("# ok\nSMP *=y\n", "fragments/policy:2: no ': note'", "SMP *=y : ");
	parse_fails("SMP *=y :   \n", "fragments/policy:1: the note after ':' is empty", NULL);
	parse_fails("SMP : why\n", ":1: SMP has no FLAVOUR=VALUE", NULL);
	parse_fails(" : why\n", ":1: no symbol before ':'", NULL);
	parse_fails("SM-P *=y : why\n", ":1: 'SM-P' is not a Kconfig symbol", NULL);
	parse_fails("mpsc=7 : why\n", ":1: 'mpsc=7' is not a Kconfig symbol", NULL);
	parse_fails("SMP Mpsc=y : why\n", ":1: 'Mpsc' is not a flavour name", "lowercase");
	parse_fails("SMP mpsc : why\n", ":1: 'mpsc' is not FLAVOUR=VALUE", "'*=y'");
	parse_fails("SMP mpsc=yes : why\n", ":1: mpsc=yes: 'yes' is not a Kconfig value", NULL);
	parse_fails("SMP mpsc=y| : why\n", "is not a Kconfig value", NULL);
	parse_fails("SMP mpsc=\"open : why\n", "no ': note'", NULL);
	parse_fails("SMP mpsc=y : a\n\nCONFIG_SMP k8=y mpsc=y : b\n",
		    ":3: SMP for mpsc is already required on line 1", "keep one");
}

static char *check(const struct kf_policy *p, const char *flavour,
		   const char *config, int *bad)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct kf_config c;
	char *kver = kf_config_kver(config);

	assert_non_null(out);
	assert_int_equal(kf_config_read(&c, "test.config", config, err, sizeof(err)), 0);
	*bad = kf_policy_check(p, flavour, &c, kver, out);
	fclose(out);
	kf_config_free(&c);
	free(kver);
	return buf;
}

static void violations_say_everything(void **state)
{
	struct kf_policy p;
	int bad;
	char *msg;

	(void)state;
	assert_int_equal(parse(&p,
		"MPSC mpsc=y : the Prescott choice\n"
		"X86_L1_CACHE_SHIFT mpsc=7 : 128-byte lines\n"
		"SMP *=y : SMT needs SMP\n"), 0);
	msg = check(&p, "mpsc", "# CONFIG_MPSC is not set\nCONFIG_X86_L1_CACHE_SHIFT=6\n", &bad);
	assert_int_equal(bad, 3);
	assert_non_null(strstr(msg,
		"policy: flavour mpsc violates fragments/policy:1: CONFIG_MPSC required y, actual n (why: the Prescott choice)\n"));
	assert_non_null(strstr(msg,
		"fragments/policy:2: CONFIG_X86_L1_CACHE_SHIFT required 7, actual 6 (why: 128-byte lines)\n"));
	assert_non_null(strstr(msg,
		"fragments/policy:3: CONFIG_SMP required y, actual n (not in .config) (why: SMT needs SMP)\n"));
	free(msg);

	/* k8 is bound by * only; mpsc passes when the facts hold. */
	msg = check(&p, "k8", "CONFIG_SMP=y\nCONFIG_X86_L1_CACHE_SHIFT=6\n", &bad);
	assert_int_equal(bad, 0);
	assert_string_equal(msg, "");
	free(msg);
	msg = check(&p, "mpsc", "CONFIG_MPSC=y\nCONFIG_X86_L1_CACHE_SHIFT=7\nCONFIG_SMP=y\n", &bad);
	assert_int_equal(bad, 0);
	free(msg);
	kf_policy_free(&p);
}

static void one_report_per_symbol(void **state)
{
	struct kf_policy p;
	int bad;
	char *msg;

	(void)state;
	/* Two rules name SMP; a flavour hears about SMP once, from its own. */
	assert_int_equal(parse(&p, "SMP *=y : all\nSMP up=n : the UP one\n"), 0);
	msg = check(&p, "up", "CONFIG_SMP=y\n", &bad);
	assert_int_equal(bad, 1);
	assert_non_null(strstr(msg, "required n, actual y (why: the UP one)"));
	free(msg);
	kf_policy_free(&p);
}

static void flavour_names(void **state)
{
	(void)state;
	assert_true(kf_flavour_name_ok("core2"));
	assert_true(kf_flavour_name_ok("k8-lowlat_2"));
	assert_false(kf_flavour_name_ok(""));
	assert_false(kf_flavour_name_ok("Core2"));
	assert_false(kf_flavour_name_ok("-x"));
	assert_false(kf_flavour_name_ok("a b"));
	assert_false(kf_flavour_name_ok("a/b"));
	assert_false(kf_flavour_name_ok("abcdefghijklmnopqrstuvwxyz0123456"));
}

static void the_shipped_policy_parses(void **state)
{
	struct kf_policy p;
	char *text = kf_read_file("fragments/policy", NULL);

	(void)state;
	if (!text)	/* committed: missing is a failure, not a skip */
		fail_msg("fragments/policy: cannot read (run from the top of the checkout, as tests/run does)");
	assert_int_equal(kf_policy_parse(&p, "fragments/policy", text, err, sizeof(err)), 0);
	assert_string_equal(kf_policy_rule_for(&p, "X86_L1_CACHE_SHIFT", "mpsc")->value, "7");
	assert_string_equal(kf_policy_rule_for(&p, "X86_L1_CACHE_SHIFT", "k8")->value, "6");
	assert_string_equal(kf_policy_rule_for(&p, "X86_L1_CACHE_SHIFT", "generic")->value, "6");
	assert_string_equal(kf_policy_rule_for(&p, "MPSC", "mpsc")->value, "y");
	assert_string_equal(kf_policy_rule_for(&p, "SCHED_SMT", "generic")->value, "y");
	kf_policy_free(&p);
	free(text);
}

/* gone=KVER: the rule does not bind in that kernel's config (issue 13). */
static void gone_rules_skip_their_kernel(void **state)
{
	static const char cfg61[] = "#\n# Linux/x86 6.1.192 Kernel Configuration\n#\nCONFIG_SMP=y\n";
	static const char cfg612[] = "#\n# Linux/x86 6.12.5 Kernel Configuration\n#\nCONFIG_SMP=y\n";
	struct kf_policy p;
	int bad;
	char *msg, *kver;

	(void)state;
	kver = kf_config_kver(cfg612);
	assert_string_equal(kver, "6.12");
	free(kver);
	assert_null(kf_config_kver("CONFIG_SMP=y\n"));
	assert_int_equal(parse(&p, "X86_HT *=y gone=6.12|6.13 : 2.6's HT\n"), 0);
	if (p.n != 1 || !p.rule) {
		fail_msg("one rule expected, %zu parsed", p.n);
		return;
	}
	assert_string_equal(p.rule[0].gone, "6.12|6.13");
	assert_true(kf_policy_gone(&p.rule[0], "6.12"));
	assert_false(kf_policy_gone(&p.rule[0], "6.1"));
	msg = check(&p, "generic", cfg612, &bad);
	assert_int_equal(bad, 0);
	free(msg);
	msg = check(&p, "generic", cfg61, &bad);
	assert_int_equal(bad, 1);
	free(msg);
	kf_policy_free(&p);
	assert_int_equal(parse(&p, "X86_HT *=y gone=soon : x\n"), -1);
	assert_non_null(strstr(err, "fragments/policy:1: gone=soon: give the kernel versions"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_rules_and_comments),
		cmocka_unit_test(own_entry_wins_over_star),
		cmocka_unit_test(quoted_strings_and_alternatives),
		cmocka_unit_test(values_compare_as_kconfig_does),
		cmocka_unit_test(errors_name_line_and_fix),
		cmocka_unit_test(violations_say_everything),
		cmocka_unit_test(one_report_per_symbol),
		cmocka_unit_test(flavour_names),
		cmocka_unit_test(the_shipped_policy_parses),
		cmocka_unit_test(gone_rules_skip_their_kernel),
	};

	return cmocka_run_group_tests_name("policy", tests, NULL, NULL);
}
