// SPDX-License-Identifier: GPL-2.0
/* Unit tests for c2c/raw.c: the plugin's raw output (real runs in
 * tests/data/c2c/, and broken ones), median and spread. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../c2c/raw.h"
#include "../../lib/kf.h"

static void parse_file(const char *name, struct kf_c2c_raw *r)
{
	char path[256], err[256];
	char *text;

	snprintf(path, sizeof(path), "tests/data/c2c/%s", name);
	text = kf_read_file(path, NULL);
	assert_non_null(text);
	if (kf_c2c_raw_parse(r, text, err, sizeof(err)))
		fail_msg("%s: %s", path, err);
	free(text);
}

static void real_calibration(void **state)
{
	struct kf_c2c_raw r;
	uint64_t hitm64 = 0;

	(void)state;
	parse_file("calib-8.raw", &r);
	assert_int_equal(r.count_kernel, 0);
	assert_int_equal(r.vcpus, 2);
	assert_int_equal(r.opens, 1);
	assert_int_equal(r.closes, 1);
	assert_true(r.insns > 100000000);
	/* Every instruction is some vCPU's, kernel or user. */
	assert_true(r.kernel[0] + r.user[0] + r.kernel[1] + r.user[1] == r.insns);
	assert_int_equal(r.size[0].line, 64);
	assert_int_equal(r.size[1].line, 128);
	/* 8 bytes apart: every counted HITM on the counter line is false. */
	for (size_t i = 0; i < r.nlines; i++)
		if (r.lines[i].size == 64 && r.lines[i].hitm > hitm64) {
			hitm64 = r.lines[i].hitm;
			assert_int_equal(r.lines[i].hitm_false, r.lines[i].hitm);
			assert_true(r.lines[i].accesses >= 12000000);
		}
	assert_true(hitm64 >= 20);
	kf_c2c_raw_free(&r);
}

static void real_pipe(void **state)
{
	struct kf_c2c_raw r;
	size_t n64 = 0, n128 = 0;
	uint64_t sum64 = 0;

	(void)state;
	parse_file("pipe-generic.raw", &r);
	assert_int_equal(r.count_kernel, 1);
	assert_true(r.nlines > 100);
	for (size_t i = 0; i < r.nlines; i++) {
		if (r.lines[i].size == 64) {
			n64++;
			sum64 += r.lines[i].hitm;
		} else {
			n128++;
		}
		assert_true(r.lines[i].hitm_false <= r.lines[i].hitm);
		assert_true(r.lines[i].addr % r.lines[i].size == 0);
	}
	assert_true(n64 > 0 && n128 > 0);
	/* Lines with HITMs hold every HITM. */
	assert_true(sum64 == r.size[0].hitm);
	kf_c2c_raw_free(&r);
}

/* The plugin of 2026-12-06 adds every instruction's HITMs per line: on
 * real output they add up to each line's HITMs, none dropped. An older
 * raw file (pipe-generic.raw) has none. */
static void real_hitpcs(void **state)
{
	struct kf_c2c_raw r;

	(void)state;
	parse_file("pipe-generic.raw", &r);
	assert_int_equal(r.nhitpcs, 0);
	kf_c2c_raw_free(&r);
	parse_file("pipe-generic-hitpc.raw", &r);
	assert_true(r.nhitpcs > r.nlines);
	assert_int_equal(r.hitpc_dropped, 0);
	for (size_t i = 0; i < r.nlines; i++) {
		uint64_t sum = 0;

		for (size_t k = 0; k < r.nhitpcs; k++)
			if (r.hitpcs[k].size == r.lines[i].size && r.hitpcs[k].addr == r.lines[i].addr)
				sum += r.hitpcs[k].hitm;
		assert_true(sum == r.lines[i].hitm);
	}
	for (size_t k = 0; k < r.nhitpcs; k++) {
		size_t i;

		for (i = 0; i < r.nlines; i++)
			if (r.hitpcs[k].size == r.lines[i].size && r.hitpcs[k].addr == r.lines[i].addr)
				break;
		assert_true(i < r.nlines);	/* no pair of a line without HITMs */
		assert_true(r.hitpcs[k].pc >> 63);	/* count=kernel: kernel instructions */
	}
	kf_c2c_raw_free(&r);
}

static void refuse(const char *text, const char *want)
{
	struct kf_c2c_raw r;
	char err[256];

	assert_int_equal(kf_c2c_raw_parse(&r, text, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("'%s' does not say '%s'", err, want);
	kf_c2c_raw_free(&r);
}

#define HEAD "kf-c2c-raw 1\ncount kernel\nvcpus 2\nwindow 1 1\ninsns 10\nmem 5 io 1 high 0\n" \
	"size 64 accesses 1 stores 1 hitm 0 hitm_false 0 inval 0\n" \
	"size 128 accesses 1 stores 1 hitm 0 hitm_false 0 inval 0\n"

static void broken(void **state)
{
	struct kf_c2c_raw r;
	char err[256];

	(void)state;
	assert_int_equal(kf_c2c_raw_parse(&r, HEAD "end\n", err, sizeof(err)), 0);
	assert_int_equal(r.insns, 10);
	assert_int_equal(r.mem_io, 1);
	kf_c2c_raw_free(&r);
	refuse("", "empty");
	refuse("kf-c2c-raw 2\nend\n", "line 1: 'kf-c2c-raw 2', want 'kf-c2c-raw 1'");
	refuse(HEAD, "no 'end' line");
	refuse(HEAD "end\nline 64\n", "text after 'end'");
	refuse(HEAD "bogus 1\nend\n", "line 9: unknown line 'bogus 1'");
	refuse(HEAD "size 96 accesses 1 stores 1 hitm 0 hitm_false 0 inval 0\nend\n",
	       "line size 96");
	refuse(HEAD "line 64 0x40 accesses 1 stores 1 hitm 1 hitm_false 0 inval 0\nend\n",
	       "cannot read");
	refuse(HEAD "vcpu 9 kernel 1 user 1 win_kernel 0 win_user 0\nend\n", "vCPU 9 out of range");
	refuse("kf-c2c-raw 1\ncount kernel\nend\n", "incomplete");
	refuse(HEAD "hitpc 64 0x40 0xffffffff81000000\nend\n", "cannot read");
	refuse(HEAD "hitpc 32 0x40 0xffffffff81000000 3\nend\n", "cannot read");
}

static void median_spread(void **state)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, zero[] = { 0, 0 };
	double one[] = { 7 }, m;

	(void)state;
	m = kf_c2c_median(odd, 3);
	assert_true(m == 3);
	assert_true(kf_c2c_spread(odd, 3, m) == (5.0 - 1) / 3);
	m = kf_c2c_median(even, 4);
	assert_true(m == 2.5);
	assert_true(kf_c2c_spread(even, 4, m) == 3 / 2.5);
	m = kf_c2c_median(zero, 2);
	assert_true(m == 0 && kf_c2c_spread(zero, 2, m) == 0);
	m = kf_c2c_median(one, 1);
	assert_true(m == 7 && kf_c2c_spread(one, 1, m) == 0);
	assert_true(kf_c2c_median(NULL, 0) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_calibration),
		cmocka_unit_test(real_pipe),
		cmocka_unit_test(real_hitpcs),
		cmocka_unit_test(broken),
		cmocka_unit_test(median_spread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
