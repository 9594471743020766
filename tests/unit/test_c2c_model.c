// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the c2c plugin's cache model (c2c/plugin.c), without
 * QEMU: the plugin is included here against a declaration-only
 * qemu-plugin.h (tests/unit/qemu-stub/), and its memory callback is fed
 * accesses whose right classification is known by hand: perf c2c's load
 * HITMs and stores apart, a read-modify-write counted once, HITMs at one
 * line size only, invalidations only for clean copies taken away. The raw
 * output it writes is read back through c2c/raw.c.
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

#include "../../c2c/plugin.c" /* NOLINT(bugprone-suspicious-include): its statics are tested */
#include "../../c2c/raw.h"
#include "../../lib/kf.h"

/* ---- the API the plugin calls: accesses are described by the test ---- */

/* meminfo: bit 4 a store, bits 0-3 the size shift; vaddr is the physical
 * address (no MMU here), IO when at or above IO_BASE. */
#define MI(shift, store)	((qemu_plugin_meminfo_t)((shift) | ((store) ? 16 : 0)))
#define IO_BASE			0xfe000000ull
static struct qemu_plugin_hwaddr { uint64_t pa; } hw;

unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info) { return info & 15; }
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info) { return info & 16; }
struct qemu_plugin_hwaddr *qemu_plugin_get_hwaddr(qemu_plugin_meminfo_t info, uint64_t vaddr)
{
	(void)info;
	hw.pa = vaddr;
	return &hw;
}
bool qemu_plugin_hwaddr_is_io(const struct qemu_plugin_hwaddr *h) { return h->pa >= IO_BASE; }
uint64_t qemu_plugin_hwaddr_phys_addr(const struct qemu_plugin_hwaddr *h) { return h->pa; }
/* Translation is not exercised here: the markers and TBs are run by hand. */
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb) { (void)tb; return 0; }
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb) { (void)tb; return 0; }
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t i)
{ (void)tb; (void)i; return NULL; }
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn) { (void)insn; return NULL; }
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn) { (void)insn; return 0; }
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn) { (void)insn; return 0; }
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags f, void *u)
{ (void)tb; (void)cb; (void)f; (void)u; }
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags f, void *u)
{ (void)insn; (void)cb; (void)f; (void)u; }
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op, void *ptr, uint64_t imm)
{ (void)insn; (void)op; (void)ptr; (void)imm; }
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags f, enum qemu_plugin_mem_rw rw, void *u)
{ (void)insn; (void)cb; (void)f; (void)rw; (void)u; }
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb)
{ (void)id; (void)cb; }
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *u)
{ (void)id; (void)cb; (void)u; }

/* ---- driving the model ---- */

#define LINE	0x100000ull			/* a 128-byte line's address */
#define PC(n)	(0xffffffff81000000ull + (n))	/* kernel instructions */

static char raw_path[64];

/* A fresh plugin with its window open, 2 vCPUs, counting kernel accesses. */
static int setup(void **state)
{
	static char out_arg[80];
	char *argv[] = { out_arg, "count=kernel", "tcg=single" };
	qemu_info_t info = { .system_emulation = true };
	int fd;

	(void)state;
	for (unsigned i = 0; i < NCHUNKS; i++) {
		free(chunks[i]);
		chunks[i] = NULL;
	}
	memset(vcpu, 0, sizeof(vcpu));
	free(hitpcs);
	hitpcs = NULL;
	hitpc_used = 0;
	hitpc_dropped = 0;
	window = false;
	window_opens = window_closes = 0;
	strcpy(raw_path, "/tmp/kf-c2c-model-XXXXXX");
	fd = mkstemp(raw_path);
	if (fd < 0)
		return -1;
	close(fd);
	snprintf(out_arg, sizeof(out_arg), "out=%s", raw_path);
	info.system.max_vcpus = 2;
	if (qemu_plugin_install(0, &info, 3, argv))
		return -1;
	marker_exec(0, (void *)&open_tag);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(raw_path);
	for (unsigned i = 0; i < NCHUNKS; i++) {
		free(chunks[i]);
		chunks[i] = NULL;
	}
	free(hitpcs);
	hitpcs = NULL;
	return 0;
}

static void ld(unsigned cpu, uint64_t pa, unsigned shift, uint64_t pc)
{
	mem_cb(cpu, MI(shift, 0), pa, (void *)(uintptr_t)pc); /* NOLINT(performance-no-int-to-ptr) */
}

static void st(unsigned cpu, uint64_t pa, unsigned shift, uint64_t pc)
{
	mem_cb(cpu, MI(shift, 1), pa, (void *)(uintptr_t)pc); /* NOLINT(performance-no-int-to-ptr) */
}

/* The totals of line size s (0: 64, 1: 128) over both vCPUs. */
static struct totals tot(int s)
{
	struct totals t = vcpu[0].t[s];
	const uint64_t *b = (const uint64_t *)&vcpu[1].t[s];
	uint64_t *a = (uint64_t *)&t;

	for (size_t k = 0; k < sizeof(t) / sizeof(uint64_t); k++)
		a[k] += b[k];
	return t;
}

/* 8 bytes apart in one 64-byte half: a false-sharing load HITM at both
 * sizes, nothing at one size only. */
static void false_sharing_both(void **state)
{
	(void)state;
	st(1, LINE, 3, PC(1));
	ld(0, LINE + 8, 3, PC(2));
	assert_int_equal(tot(0).load_hitm, 1);
	assert_int_equal(tot(0).load_hitm_false, 1);
	assert_int_equal(tot(1).load_hitm, 1);
	assert_int_equal(tot(1).load_hitm_false, 1);
	assert_int_equal(vcpu[0].only128[LOAD] + vcpu[0].only64[LOAD], 0);
	assert_int_equal(tot(1).store_hitm, 0);
}

/* 64 bytes apart: the other half written. A HITM at 128 bytes only, with
 * the other side's store named. */
static void other_half(void **state)
{
	struct line *l;

	(void)state;
	st(1, LINE + 64, 3, PC(1));
	ld(0, LINE, 3, PC(2));
	assert_int_equal(tot(0).load_hitm, 0);
	assert_int_equal(tot(1).load_hitm, 1);
	assert_int_equal(tot(1).load_hitm_false, 1);
	assert_int_equal(vcpu[0].only128[LOAD], 1);
	assert_int_equal(vcpu[0].only64[LOAD], 0);
	l = line_of(LINE);
	assert_int_equal(l->only128[LOAD], 1);
	/* the pair (this load, the other half's store) is kept */
	for (uint32_t i = 0; i < HITPC_N; i++)
		if (hitpcs[i].used && hitpcs[i].kind == 2) {
			assert_true(hitpcs[i].pc == PC(2) && hitpcs[i].pc2 == PC(1));
			return;
		}
	fail_msg("no sides pair for the HITM at 128 bytes only");
}

/* CPU 0 writes the low half, CPU 1 the high half: CPU 1 owns the 128-byte
 * line, CPU 0 still the low 64-byte half. CPU 1 reading the low half is a
 * HITM at 64 bytes only. */
static void absorbed_by_128(void **state)
{
	(void)state;
	st(0, LINE, 3, PC(1));
	st(1, LINE + 64, 3, PC(2));
	ld(1, LINE + 8, 3, PC(3));
	assert_int_equal(vcpu[1].only64[LOAD], 1);
	assert_int_equal(vcpu[1].t[0].load_hitm, 1);
	assert_int_equal(vcpu[1].t[1].load_hitm, 0);
	/* CPU 1's store took the 128-byte line from CPU 0: a store HITM at
	 * 128 bytes only */
	assert_int_equal(vcpu[1].only128[STORE], 1);
}

/* A locked increment on another CPU's modified counter: one load HITM (as
 * perf sees a locked instruction), no store HITM, one read-modify-write,
 * and one invalidation (the copy the load left the other CPU). */
static void rmw_once(void **state)
{
	(void)state;
	st(1, LINE, 3, PC(1));
	ld(0, LINE, 3, PC(2));
	st(0, LINE, 3, PC(2));
	for (int s = 0; s < 2; s++) {
		struct totals t = tot(s);

		assert_int_equal(t.loads, 1);
		assert_int_equal(t.stores, 1);	/* CPU 1's, not the RMW's */
		assert_int_equal(t.load_hitm, 1);
		assert_int_equal(t.load_hitm_false, 0);
		assert_int_equal(t.store_hitm, 0);
		assert_int_equal(t.rmw, 1);
		assert_int_equal(t.inval, 1);
	}
	assert_int_equal(vcpu[0].win_loads, 1);
	assert_int_equal(vcpu[0].win_stores, 0);
	/* CPU 0 now holds it modified: CPU 1's load is a true HITM */
	ld(1, LINE, 3, PC(3));
	assert_int_equal(tot(0).load_hitm, 2);
	assert_int_equal(tot(0).load_hitm_false, 0);
}

/* A load then a store of the same address by two instructions is not an
 * RMW: both are counted. */
static void not_rmw(void **state)
{
	(void)state;
	ld(0, LINE, 3, PC(1));
	st(0, LINE, 3, PC(2));
	assert_int_equal(tot(0).loads, 1);
	assert_int_equal(tot(0).stores, 1);
	assert_int_equal(tot(0).rmw, 0);
}

/* A store to a line another CPU holds modified is a store HITM, not a
 * load HITM and not an invalidation. */
static void store_hitm(void **state)
{
	(void)state;
	st(0, LINE, 3, PC(1));
	st(1, LINE, 3, PC(2));
	assert_int_equal(tot(0).store_hitm, 1);
	assert_int_equal(tot(0).load_hitm, 0);
	assert_int_equal(tot(0).inval, 0);
	assert_int_equal(tot(0).store_miss, 2);
}

/* Clean copies taken away by a store: an invalidation, no HITM. */
static void invalidation(void **state)
{
	(void)state;
	ld(0, LINE, 3, PC(1));
	ld(1, LINE, 3, PC(2));
	st(0, LINE, 3, PC(3));
	assert_int_equal(tot(0).inval, 1);
	assert_int_equal(tot(0).load_hitm + tot(0).store_hitm, 0);
	/* a store to a line this CPU alone holds misses nothing */
	st(0, LINE, 3, PC(3));
	assert_int_equal(tot(0).store_miss, 1);
}

/* Outside the window nothing is modelled; user accesses are not counted
 * under count=kernel, but change the state. */
static void window_and_count(void **state)
{
	(void)state;
	marker_exec(0, (void *)&close_tag);
	st(1, LINE, 3, PC(1));
	marker_exec(0, (void *)&open_tag);
	ld(0, LINE, 3, PC(2));
	assert_int_equal(tot(0).load_hitm, 0);
	st(1, LINE, 3, 0x401000);		/* a user store: state only */
	ld(0, LINE, 3, PC(2));
	assert_int_equal(tot(0).load_hitm, 1);
	assert_int_equal(tot(0).stores, 0);
	ld(0, IO_BASE, 2, PC(3));
	assert_int_equal(vcpu[0].io, 1);
}

/* An 8-byte access across a 128-byte boundary: one access, two lines. */
static void across_lines(void **state)
{
	(void)state;
	st(1, LINE + 124, 3, PC(1));
	assert_int_equal(tot(1).stores, 1);
	assert_int_equal(line_of(LINE)->f128.stores, 1);
	assert_int_equal(line_of(LINE + 128)->f128.stores, 1);
	ld(0, LINE + 128, 2, PC(2));
	assert_int_equal(tot(1).load_hitm, 1);
	assert_int_equal(tot(1).load_hitm_false, 0);
}

/* The raw output reads back through c2c/raw.c, figures intact. */
static void raw_round_trip(void **state)
{
	struct kf_c2c_raw r;
	char err[256], *text;

	(void)state;
	st(1, LINE + 64, 3, PC(1));
	ld(0, LINE, 3, PC(2));
	ld(0, LINE + 8, 3, PC(4));
	st(0, LINE + 8, 3, PC(4));
	marker_exec(0, (void *)&close_tag);
	plugin_exit(0, NULL);
	text = kf_read_file(raw_path, NULL);
	assert_non_null(text);
	if (kf_c2c_raw_parse(&r, text, err, sizeof(err)))
		fail_msg("%s", err);
	free(text);
	assert_int_equal(r.vcpus, 2);
	assert_int_equal(r.tcg_multi, 0);
	assert_int_equal(r.size[1].f.load_hitm, 1);
	assert_int_equal(r.size[1].f.rmw, 1);
	assert_int_equal(r.only128[0], 1);
	assert_int_equal(r.size[0].lines, 2);
	assert_int_equal(r.size[1].lines, 1);
	assert_int_equal(r.nsides, 1);
	assert_true(r.sides[0].addr == LINE && r.sides[0].pc == PC(2) && r.sides[0].pc2 == PC(1));
	assert_int_equal(r.win_loads[0], 2);
	assert_int_equal(r.win_stores[1], 1);
	kf_c2c_raw_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(false_sharing_both, setup, teardown),
		cmocka_unit_test_setup_teardown(other_half, setup, teardown),
		cmocka_unit_test_setup_teardown(absorbed_by_128, setup, teardown),
		cmocka_unit_test_setup_teardown(rmw_once, setup, teardown),
		cmocka_unit_test_setup_teardown(not_rmw, setup, teardown),
		cmocka_unit_test_setup_teardown(store_hitm, setup, teardown),
		cmocka_unit_test_setup_teardown(invalidation, setup, teardown),
		cmocka_unit_test_setup_teardown(window_and_count, setup, teardown),
		cmocka_unit_test_setup_teardown(across_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(raw_round_trip, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
