// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for bisect/search.c: the good/bad/skip search of make bisect,
 * driven by a fake world instead of olddefconfig, builds and boots. Four
 * symbols A B C D are n in the good config and y in the bad one; a config's
 * id spells them, upper case for y ("ABcd": A and B set). The fake test
 * answers bad when every culprit symbol is set, skip or error for the ids
 * its table names, else good.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bisect/search.h"

struct world {
	const char *culprit;	/* bad when all of these are y */
	const char *follows;	/* "BA": settling gives B A's value (a select) */
	const char *skip;	/* ids the test skips, space separated; "*": all */
	const char *error;	/* the id whose test fails */
	char log[1024];		/* "id outcome left;" per step */
	int tests;
};

static void parse(struct kf_config *c, const char *text)
{
	char err[1024];

	assert_int_equal(kf_config_read(c, "fake.config", text, err, sizeof(err)), 0);
}

static void settle(void *ctx, const char *text, struct kf_config *out, char id[65])
{
	const struct world *w = ctx;

	parse(out, text);
	for (const char *f = w->follows; f && *f; f += 2) {
		const char *leader = kf_config_get(out, (char[]){ f[1], '\0' });

		for (size_t i = 0; i < out->n; i++)
			if (out->sym[i].name[0] == f[0]) {
				free(out->sym[i].value);
				out->sym[i].value = strdup(leader);
			}
	}
	for (size_t i = 0; i < out->n; i++) {
		char l = out->sym[i].name[0];

		id[i] = !strcmp(out->sym[i].value, "y") ? l : (char)tolower(l);
	}
	id[out->n] = '\0';
}

static enum bs_outcome test(void *ctx, const struct bs_step *s, char *why, size_t len)
{
	struct world *w = ctx;
	enum bs_outcome o = BS_BAD;
	static const char *const names[] = { "good", "bad", "skip", "error" };

	/* The splits of 4 symbols make 10 configs; a search that tested one
	 * twice could go on for ever. */
	assert_in_range(++w->tests, 1, 10);
	for (const char *c = w->culprit; *c; c++)
		if (!strchr(s->id, *c))
			o = BS_GOOD;
	if (w->skip && (!strcmp(w->skip, "*") || strstr(w->skip, s->id)))
		o = BS_SKIP;
	if (w->error && !strcmp(w->error, s->id)) {
		snprintf(why, len, "the boot of %s failed to run", s->id);
		o = BS_ERROR;
	}
	snprintf(w->log + strlen(w->log), sizeof(w->log) - strlen(w->log), "%s %s%s", s->id,
		 names[o], o == BS_ERROR ? ";" : "");
	return o;
}

static void stepped(void *ctx, const struct bs_step *s, size_t left)
{
	struct world *w = ctx;

	(void)s;
	snprintf(w->log + strlen(w->log), sizeof(w->log) - strlen(w->log), " %zu;", left);
}

/* Search the fake world; res holds the answer, the symbols it names in
 * 'answer'. */
static enum bs_end search(struct world *w, struct bs_result *res, char *answer, size_t len)
{
	const struct bs_ops ops = { settle, test, stepped, w };
	struct kf_config good, bad;
	const char **diff;
	size_t n;
	enum bs_end end;

	parse(&good, "# CONFIG_A is not set\n# CONFIG_B is not set\n"
		     "# CONFIG_C is not set\n# CONFIG_D is not set\n");
	parse(&bad, "CONFIG_A=y\nCONFIG_B=y\nCONFIG_C=y\nCONFIG_D=y\n");
	end = bs_search(&good, "abcd", &bad, "ABCD", &ops, res);
	assert_int_equal(good.n + bad.n, 0);	/* taken over */
	n = kconf_diff(&res->good, &res->bad, &diff);
	answer[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(answer + strlen(answer), len - strlen(answer), "%s%s", i ? " " : "", diff[i]);
	free(diff);
	return end;
}

/* Only C breaks: the top half is good, then C alone is bad. */
static void one_culprit(void **state)
{
	struct world w = { .culprit = "C" };
	struct bs_result res;
	char answer[64];

	(void)state;
	assert_int_equal(search(&w, &res, answer, sizeof(answer)), BS_FOUND);
	assert_string_equal(w.log, "ABcd good 2;ABCd bad 1;");
	assert_string_equal(answer, "C");
	assert_string_equal(res.good_id, "ABcd");
	assert_string_equal(res.bad_id, "ABCd");
	assert_int_equal(res.steps, 2);
	assert_int_equal(res.skipped, 0);
	bs_result_free(&res);
}

/* A breaks and B follows it: no split parts them, the answer is both. */
static void two_that_go_together(void **state)
{
	struct world w = { .culprit = "A", .follows = "BA" };
	struct bs_result res;
	char answer[64];

	(void)state;
	assert_int_equal(search(&w, &res, answer, sizeof(answer)), BS_FOUND);
	assert_string_equal(w.log, "ABcd bad 2;");
	assert_string_equal(answer, "A B");
	bs_result_free(&res);
}

/* Step 2 (C alone onto good) is skipped: C is bisected from the bad side,
 * and the skipped config is never tested again. */
static void skip_in_the_middle(void **state)
{
	struct world w = { .culprit = "C", .skip = "ABCd" };
	struct bs_result res;
	char answer[64];

	(void)state;
	assert_int_equal(search(&w, &res, answer, sizeof(answer)), BS_FOUND);
	assert_string_equal(w.log, "ABcd good 2;ABCd skip 2;ABcD good 1;");
	assert_string_equal(answer, "C");
	assert_int_equal(res.steps, 3);
	assert_int_equal(res.skipped, 1);
	bs_result_free(&res);
}

/* Every config skipped: each split is tried once, from halves to single
 * symbols, and the search cannot decide. */
static void every_step_skipped(void **state)
{
	struct world w = { .culprit = "C", .skip = "*" };
	struct bs_result res;
	char answer[64];

	(void)state;
	assert_int_equal(search(&w, &res, answer, sizeof(answer)), BS_UNDECIDED);
	assert_string_equal(w.log, "ABcd skip 4;abCD skip 4;Abcd skip 4;aBCD skip 4;aBcd skip 4;"
			    "AbCD skip 4;abCd skip 4;ABcD skip 4;abcD skip 4;ABCd skip 4;");
	assert_string_equal(answer, "A B C D");
	assert_int_equal(res.skipped, 10);
	assert_non_null(strstr(res.why, "10 of 10 steps skipped"));
	bs_result_free(&res);
}

/* The test fails at step 2: the search stops there, with its reason. */
static void error_stops(void **state)
{
	struct world w = { .culprit = "C", .error = "ABCd" };
	struct bs_result res;
	char answer[64];

	(void)state;
	assert_int_equal(search(&w, &res, answer, sizeof(answer)), BS_FAILED);
	assert_string_equal(w.log, "ABcd good 2;ABCd error;");
	assert_string_equal(res.why, "the boot of ABCd failed to run");
	assert_int_equal(w.tests, 2);
	assert_int_equal(res.steps, 1);
	assert_string_equal(answer, "C D");
	bs_result_free(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_culprit),
		cmocka_unit_test(two_that_go_together),
		cmocka_unit_test(skip_in_the_middle),
		cmocka_unit_test(every_step_skipped),
		cmocka_unit_test(error_stops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
