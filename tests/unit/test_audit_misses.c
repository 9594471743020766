// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for config/misses.c, the half of the audit that needs no tree:
 * which final values satisfy a request, the order misses are reported in,
 * the block printed for each, the base summary and config.json's shape.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kf.h"
#include "../../config/audit.h"

/* The audit of 'final' (a config's text) for two fragments' requests. */
static void audit_of(struct kf_audit *a, const char *a_text, const char *b_text,
		     const char *final)
{
	kf_audit_init(a);
	a->config = "out/6.1/mpsc/.config";
	assert_int_equal(kf_fragset_add(&a->req, "fragments/a.config", a_text), 0);
	if (b_text)
		assert_int_equal(kf_fragset_add(&a->req, "fragments/b.config", b_text), 0);
	assert_int_equal(kf_fragset_add(&a->final, a->config, final), 0);
}

static const struct kf_setting *req(const struct kf_audit *a, const char *name)
{
	const struct kf_setting *r = kf_fragset_find(&a->req, name);

	assert_non_null(r);
	return r;
}

/* A miss of the request of name, as explain.c would leave it. */
static void miss(struct kf_audit *a, const char *name, enum kf_why why, const char *final)
{
	struct kf_miss *m = kf_miss_add(&a->miss, &a->nmiss, req(a, name),
					final ? kf_xstrdup(final) : NULL);

	m->why = why;
	m->reason = kf_xasprintf("%s did not survive", name);
	m->detail = kf_xstrdup("Defined at init/Kconfig:1\nDepends on: X [=n]\n");
	m->fix = kf_xstrdup("request X too");
}

static void survived_compares_as_kconfig_writes(void **state)
{
	struct kf_audit a;

	(void)state;
	audit_of(&a, "CONFIG_A=y\n# CONFIG_B is not set\n# CONFIG_C is not set\nCONFIG_D=y\n"
		 "CONFIG_E=16\nCONFIG_F=0x10\nCONFIG_S=12\nCONFIG_Q=\"x\"\n", NULL,
		 "CONFIG_A=y\n# CONFIG_C is not set\nCONFIG_D=m\n"
		 "CONFIG_E=0x10\nCONFIG_F=16\nCONFIG_S=12\nCONFIG_Q=\"x\"\n");
	assert_true(kf_survived(&a.final, req(&a, "A"), 0));
	/* n: absent and "is not set" are the same */
	assert_true(kf_survived(&a.final, req(&a, "B"), 0));
	assert_true(kf_survived(&a.final, req(&a, "C"), 0));
	assert_false(kf_survived(&a.final, req(&a, "D"), 0));
	/* 16 is not 0x10: a hex symbol reads 16 as 0x16 */
	assert_false(kf_survived(&a.final, req(&a, "E"), 0));
	assert_false(kf_survived(&a.final, req(&a, "F"), 0));
	/* a string symbol wants its value quoted */
	assert_true(kf_survived(&a.final, req(&a, "S"), 0));
	assert_false(kf_survived(&a.final, req(&a, "S"), 1));
	assert_true(kf_survived(&a.final, req(&a, "Q"), 1));
	kf_audit_free(&a);
}

static void misses_in_fragment_then_line_order(void **state)
{
	struct kf_audit a;

	(void)state;
	audit_of(&a, "CONFIG_A1=y\nCONFIG_A2=y\nCONFIG_A3=y\n", "CONFIG_B1=y\nCONFIG_B2=y\n", "");
	miss(&a, "B2", KF_WHY_DEPENDS, "n");
	miss(&a, "A3", KF_WHY_DEPENDS, "n");
	miss(&a, "B1", KF_WHY_DEPENDS, "n");
	miss(&a, "A1", KF_WHY_DEPENDS, "n");
	kf_misses_sort(&a);
	assert_int_equal(a.nmiss, 4);
	assert_string_equal(a.miss[0].req->name, "A1");
	assert_string_equal(a.miss[1].req->name, "A3");
	assert_string_equal(a.miss[2].req->name, "B1");
	assert_string_equal(a.miss[3].req->name, "B2");
	assert_int_equal(a.miss[0].order, 0);
	assert_int_equal(a.miss[3].order, 1);
	kf_audit_free(&a);
}

static void miss_block_names_file_line_and_fix(void **state)
{
	struct kf_audit a;
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	kf_prog = "audit";
	audit_of(&a, "CONFIG_A=y\nCONFIG_UNK=y\n", NULL, "");
	miss(&a, "A", KF_WHY_DEPENDS, NULL);
	miss(&a, "UNK", KF_WHY_UNKNOWN, "n");
	kf_miss_print(f, &a.miss[0]);
	kf_miss_print(f, &a.miss[1]);
	fclose(f);
	assert_string_equal(text,
		"audit: fragments/a.config:1: CONFIG_A=y requested, final (not set)\n"
		"    A did not survive\n"
		"    Defined at init/Kconfig:1\n"
		"    Depends on: X [=n]\n"
		"    fix: request X too\n"
		"audit: fragments/a.config:2: CONFIG_UNK=y requested, final n (no such symbol)\n"
		"    UNK did not survive\n"
		"    Defined at init/Kconfig:1\n"
		"    Depends on: X [=n]\n"
		"    fix: request X too\n");
	free(text);
	kf_audit_free(&a);
}

/* Five base values: one set again by the fragments, three not kept. */
static void base_of(struct kf_audit *a)
{
	audit_of(a, "CONFIG_V1=y\n", NULL, "CONFIG_V1=y\nCONFIG_V2=y\n");
	a->base_path = "/usr/src/base.config";
	assert_int_equal(kf_fragset_add(&a->base, a->base_path,
					"CONFIG_V1=m\nCONFIG_V2=y\nCONFIG_V3=y\nCONFIG_V4=y\n"
					"CONFIG_V5=y\nCONFIG_V6=y\nCONFIG_GONE=y\n"), 0);
	a->noverridden = 1;
	for (int i = 3; i <= 6; i++) {
		struct kf_miss *m = kf_miss_add(&a->lost, &a->nlost,
						&a->base.set[i - 1], kf_xstrdup("n"));

		m->why = KF_WHY_DEPENDS;
		m->reason = kf_xstrdup("blocked");
		m->detail = kf_xstrdup("");
		m->fix = kf_xstrdup("none");
	}
	kf_miss_add(&a->lost, &a->nlost, &a->base.set[6], kf_xstrdup("n"))->why = KF_WHY_UNKNOWN;
	a->lost[4].reason = kf_xstrdup("unknown");
	a->lost[4].detail = kf_xstrdup("GONE -> NEW: renamed\n");
	a->lost[4].fix = kf_xstrdup("drop it");
}

static void base_summary_counts_each_cause(void **state)
{
	struct kf_audit a;
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	base_of(&a);
	kf_base_summary(f, &a, "mpsc");
	fclose(f);
	assert_string_equal(text,
		"  BASE    mpsc: 1 of 7 base values kept, 1 set by the fragments, 5 not kept"
		" (details: \"base\" in config.json)\n"
		"  BASE        1 not symbols of this tree, e.g. GONE\n"
		"  BASE        4 blocked by dependencies the final config does not meet,"
		" e.g. V3 V4 V5 ...\n");
	free(text);
	kf_audit_free(&a);
}

static void record_holds_misses_base_and_cpu(void **state)
{
	struct kf_audit a;
	json_t *rec, *m, *base;
	const char *key;
	json_t *v;
	const char *order[] = { "record", "format", "flavour", "kver", "release", "config",
				"fragments", "requested", "errors", "misses", "base",
				"cpu_choice", "cpu_choice_values", "l1_cache_shift", "ok" };
	size_t i = 0;

	(void)state;
	base_of(&a);
	a.kver = kf_xstrdup("6.1");
	a.kernelversion = kf_xstrdup("6.1.192");
	miss(&a, "V1", KF_WHY_SELECTED, NULL);
	rec = kf_audit_record(&a, "mpsc", json_pack("{s:s, s:[s], s:i}", "cpu_choice", "MPSC",
			      "cpu_choice_values", "MPSC", "l1_cache_shift", 7), 0);
	json_object_foreach(rec, key, v) {
		assert_true(i < sizeof(order) / sizeof(order[0]));
		assert_string_equal(key, order[i++]);
	}
	assert_int_equal(i, sizeof(order) / sizeof(order[0]));
	assert_string_equal(json_string_value(json_object_get(rec, "flavour")), "mpsc");
	assert_string_equal(json_string_value(json_object_get(rec, "release")), "6.1.192");
	assert_int_equal(json_integer_value(json_object_get(rec, "requested")), 1);
	assert_true(json_is_false(json_object_get(rec, "ok")));
	assert_int_equal(json_integer_value(json_object_get(rec, "l1_cache_shift")), 7);
	m = json_array_get(json_object_get(rec, "misses"), 0);
	assert_string_equal(json_string_value(json_object_get(m, "symbol")), "V1");
	assert_string_equal(json_string_value(json_object_get(m, "file")), "fragments/a.config");
	assert_int_equal(json_integer_value(json_object_get(m, "line")), 1);
	assert_true(json_is_null(json_object_get(m, "final")));
	assert_string_equal(json_string_value(json_object_get(m, "kind")), "selected");
	assert_int_equal(json_array_size(json_object_get(m, "detail")), 2);
	assert_string_equal(json_string_value(json_array_get(json_object_get(m, "detail"), 1)),
			    "Depends on: X [=n]");
	base = json_object_get(rec, "base");
	assert_int_equal(json_integer_value(json_object_get(base, "values")), 7);
	assert_int_equal(json_integer_value(json_object_get(base, "kept")), 1);
	assert_int_equal(json_integer_value(json_object_get(base, "set_by_fragments")), 1);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(base,
			 "not_kept_by_cause"), "depends")), 4);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(base,
			 "not_kept_by_cause"), "unknown-symbol")), 1);
	assert_int_equal(json_array_size(json_object_get(base, "not_kept")), 5);
	json_decref(rec);
	kf_audit_free(&a);
}

static void record_of_fragment_errors(void **state)
{
	struct kf_audit a;
	json_t *rec;

	(void)state;
	kf_audit_init(&a);
	a.config = "out/6.1/mpsc/.config.kf-new";
	assert_int_equal(kf_fragset_add(&a.req, "fragments/x.config", "CONFIG_A=maybe\n"), 1);
	rec = kf_audit_record(&a, "", json_pack("{s:n, s:[], s:n}", "cpu_choice",
			      "cpu_choice_values", "l1_cache_shift"), 0);
	assert_int_equal(json_array_size(json_object_get(rec, "errors")), 1);
	assert_non_null(strstr(json_string_value(json_array_get(json_object_get(rec, "errors"), 0)),
			       "fragments/x.config:1:"));
	assert_true(json_is_null(json_object_get(rec, "base")));
	assert_true(json_is_null(json_object_get(rec, "cpu_choice")));
	assert_int_equal(json_array_size(json_object_get(rec, "misses")), 0);
	json_decref(rec);
	kf_audit_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(survived_compares_as_kconfig_writes),
		cmocka_unit_test(misses_in_fragment_then_line_order),
		cmocka_unit_test(miss_block_names_file_line_and_fix),
		cmocka_unit_test(base_summary_counts_each_cause),
		cmocka_unit_test(record_holds_misses_base_and_cpu),
		cmocka_unit_test(record_of_fragment_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
