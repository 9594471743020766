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

/* Calibration under tcg=multi (both vCPUs at once), counters 8 bytes
 * apart: each vCPU's counted loads and stores are the workload's own
 * arithmetic (3,000,000 increments of a volatile counter: a load and a
 * store each, plus a few of the child's own), and every HITM on the counter
 * line is false sharing at both sizes. */
static void real_calibration(void **state)
{
	struct kf_c2c_raw r;
	uint64_t hitm64 = 0;

	(void)state;
	parse_file("calib-8.raw", &r);
	assert_int_equal(r.count_kernel, 0);
	assert_int_equal(r.tcg_multi, 1);
	assert_int_equal(r.vcpus, 2);
	assert_int_equal(r.opens, 1);
	assert_int_equal(r.closes, 1);
	assert_true(r.insns > 100000000);
	/* Every instruction is some vCPU's, kernel or user. */
	assert_true(r.kernel[0] + r.user[0] + r.kernel[1] + r.user[1] == r.insns);
	for (int c = 0; c < 2; c++) {
		assert_true(r.win_loads[c] >= 3000000 && r.win_loads[c] < 3000100);
		assert_true(r.win_stores[c] >= 3000000 && r.win_stores[c] < 3000100);
	}
	assert_int_equal(r.size[0].line, 64);
	assert_int_equal(r.size[1].line, 128);
	for (size_t i = 0; i < r.nlines; i++)
		if (r.lines[i].size == 64 && r.lines[i].f.load_hitm > hitm64) {
			hitm64 = r.lines[i].f.load_hitm;
			assert_int_equal(r.lines[i].f.load_hitm_false, r.lines[i].f.load_hitm);
			assert_int_equal(r.lines[i].f.store_hitm_false, r.lines[i].f.store_hitm);
			assert_true(r.lines[i].f.loads >= 6000000);
		}
	assert_true(hitm64 >= 1000);
	/* 8 apart is in one 64-byte half: nothing at one size only */
	assert_true(r.only128[0] + r.only128[1] + r.only64[0] + r.only64[1] < 10);
	kf_c2c_raw_free(&r);
}

/* 64 bytes apart: HITMs at 128 bytes only, none at 64. */
static void real_calibration_64(void **state)
{
	struct kf_c2c_raw r;

	(void)state;
	parse_file("calib-64.raw", &r);
	assert_true(r.only128[0] >= 1000);
	assert_true(r.size[0].f.load_hitm < 10);
	assert_true(r.size[1].f.load_hitm >= r.only128[0]);
	kf_c2c_raw_free(&r);
}

static void real_pipe(void **state)
{
	struct kf_c2c_raw r;
	size_t n64 = 0, n128 = 0;
	uint64_t sum64 = 0, only128 = 0, only64 = 0;

	(void)state;
	parse_file("pipe-generic.raw", &r);
	assert_int_equal(r.count_kernel, 1);
	assert_true(r.nlines > 100);
	for (size_t i = 0; i < r.nlines; i++) {
		const struct kf_c2c_line *l = &r.lines[i];

		if (l->size == 64) {
			n64++;
			sum64 += l->f.load_hitm;
		} else {
			n128++;
			only128 += l->only128[0] + l->only128[1];
			only64 += l->only64[0] + l->only64[1];
		}
		assert_true(l->f.load_hitm_false <= l->f.load_hitm);
		assert_true(l->addr % l->size == 0);
	}
	assert_true(n64 > 0 && n128 > 0);
	/* Lines with HITMs hold every HITM, and every HITM at one size only. */
	assert_true(sum64 == r.size[0].f.load_hitm);
	assert_true(only128 == r.only128[0] + r.only128[1]);
	assert_true(only64 == r.only64[0] + r.only64[1]);
	/* A pipe round trip takes locks: read-modify-writes, counted once. */
	assert_true(r.size[0].f.rmw > 2000);
	kf_c2c_raw_free(&r);
}

/* Every instruction's HITMs per line add up to the line's HITMs (loads and
 * stores), none dropped; the two sides of the HITMs at 128 bytes only add
 * up to the lines' figures. */
static void real_hitpcs(void **state)
{
	struct kf_c2c_raw r;

	(void)state;
	parse_file("pipe-generic.raw", &r);
	assert_true(r.nhitpcs > r.nlines);
	assert_true(r.nsides > 0);
	assert_int_equal(r.hitpc_dropped, 0);
	for (size_t i = 0; i < r.nlines; i++) {
		uint64_t sum = 0, sides = 0;

		for (size_t k = 0; k < r.nhitpcs; k++)
			if (r.hitpcs[k].size == r.lines[i].size && r.hitpcs[k].addr == r.lines[i].addr)
				sum += r.hitpcs[k].hitm;
		assert_true(sum == r.lines[i].f.load_hitm + r.lines[i].f.store_hitm);
		if (r.lines[i].size != 128)
			continue;
		for (size_t k = 0; k < r.nsides; k++)
			if (r.sides[k].addr == r.lines[i].addr)
				sides += r.sides[k].n;
		assert_true(sides == r.lines[i].only128[0] + r.lines[i].only128[1]);
	}
	for (size_t k = 0; k < r.nhitpcs; k++)
		assert_true(r.hitpcs[k].pc >> 63);	/* count=kernel: kernel instructions */
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

#define FIGS "loads 1 load_miss 0 load_hitm 0 load_hitm_false 0 stores 1 store_miss 0 " \
	"store_hitm 0 store_hitm_false 0 inval 0 rmw 0"
#define HEAD "kf-c2c-raw 2\ncount kernel\ntcg multi\nvcpus 2\nwindow 1 1\ninsns 10\n" \
	"mem 5 io 1 high 0\nsize 64 " FIGS " lines 1\nsize 128 " FIGS " lines 1\n"

static void broken(void **state)
{
	struct kf_c2c_raw r;
	char err[256];

	(void)state;
	assert_int_equal(kf_c2c_raw_parse(&r, HEAD "end\n", err, sizeof(err)), 0);
	assert_int_equal(r.insns, 10);
	assert_int_equal(r.mem_io, 1);
	assert_int_equal(r.tcg_multi, 1);
	assert_int_equal(r.size[1].lines, 1);
	kf_c2c_raw_free(&r);
	refuse("", "empty");
	refuse("kf-c2c-raw 1\nend\n", "line 1: 'kf-c2c-raw 1', want 'kf-c2c-raw 2'");
	refuse(HEAD, "no 'end' line");
	refuse(HEAD "end\nline 64\n", "text after 'end'");
	refuse(HEAD "bogus 1\nend\n", "line 10: unknown line 'bogus 1'");
	refuse(HEAD "size 96 " FIGS " lines 1\nend\n", "line size 96");
	refuse(HEAD "size 64 " FIGS "\nend\n", "no 'lines' figure");
	refuse(HEAD "size 64 " FIGS " lines 1 lines 2\nend\n", "twice: 'lines'");
	refuse(HEAD "size 64 " FIGS " lines 1 hitm 3\nend\n", "unknown figure 'hitm'");
	refuse(HEAD "line 64 0x40 " FIGS "\nend\n", "cannot read");
	refuse(HEAD "line 128 0x80 " FIGS " pc 0x1\nend\n", "no 'only128_load' figure");
	refuse(HEAD "vcpu 9 kernel 1 user 1 win_kernel 0 win_user 0\nend\n", "vCPU 9 out of range");
	refuse(HEAD "vcpu 1 kernel 1 user 1 win_kernel 0 win_user 0\nend\n", "no 'win_loads' figure");
	refuse("kf-c2c-raw 2\ncount kernel\nend\n", "incomplete");
	refuse("kf-c2c-raw 2\ncount kernel\nvcpus 2\nsize 64 " FIGS " lines 1\nsize 128 " FIGS
	       " lines 1\nend\n", "incomplete: no count, tcg");
	refuse(HEAD "hitpc 64 0x40 0xffffffff81000000\nend\n", "cannot read");
	refuse(HEAD "hitpc 32 0x40 0xffffffff81000000 3\nend\n", "cannot read");
	refuse(HEAD "sides 0x80 0x1 3\nend\n", "cannot read");
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
		cmocka_unit_test(real_calibration_64),
		cmocka_unit_test(real_pipe),
		cmocka_unit_test(real_hitpcs),
		cmocka_unit_test(broken),
		cmocka_unit_test(median_spread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
