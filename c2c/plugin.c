// SPDX-License-Identifier: GPL-2.0
/*
 * plugin.c - a QEMU TCG plugin (API 1, QEMU 7.2) that models cache-line
 * ownership across vCPUs and counts what perf c2c would, at 64- and
 * 128-byte lines at once (docs/c2c.md).
 *
 *   -plugin file=kf-c2c.so,out=FILE[,count=kernel|user]
 *
 * The guest opens and closes a counting window with two magic NOPs
 * (c2c/c2c.h): only accesses inside it are modelled. count= says which
 * accesses are counted there: kernel (the default; the instruction's
 * virtual address is in the upper half) or user. The model sees every
 * access in the window either way, so counted lines have their real state.
 *
 * Per guest-physical line and line size the model keeps the vCPU holding it
 * modified (if any), the vCPUs holding a copy, and the bytes the modified
 * holder wrote since it became the holder. An access by another vCPU to a
 * line held modified is a HITM; it is true sharing when the bytes touched
 * overlap the holder's written bytes, false sharing otherwise. A store that
 * takes copies away from other vCPUs is an invalidation. No eviction, no
 * capacity, no instruction fetch, no page walks (docs/c2c.md).
 *
 * Whole-run totals (every instruction, every access, window or not) are
 * counted the way QEMU's tests/plugin/insn.c and mem.c count them, so a run
 * with those beside this one can be compared exactly.
 *
 * At exit FILE gets plain-text raw figures (written to FILE.tmp, then
 * renamed); c2c/record.c turns them into the record. No symbols here.
 *
 * Runs only under -accel tcg,thread=single: one host thread runs every
 * vCPU, so the plain counters and the line table need no lock.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "c2c.h"

#if QEMU_PLUGIN_VERSION != 1
#error "c2c/plugin.c is written for QEMU plugin API 1 (QEMU 7.2); this qemu-plugin.h has another (see docs/c2c.md)"
#endif

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_VCPUS	8		/* sharers are a byte */
#define CHUNK_SHIFT	20		/* lines are kept per MiB of RAM */
#define NCHUNKS		(1u << (32 - CHUNK_SHIFT))	/* RAM below 4 GiB */
#define NSIZES		2
static const unsigned line_shift[NSIZES] = { 6, 7 };	/* 64, 128 bytes */

/* One line's state and figures. mask: the bytes the modified holder wrote
 * (bit i of mask[i / 64] for byte i). */
struct line {
	int8_t owner;			/* modified holder, -1: none */
	uint8_t sharers;		/* vCPUs holding a copy (bit per vCPU) */
	uint64_t mask[2];
	uint32_t accesses, stores, hitm, hitm_false, inval;
	uint64_t hitm_pc;		/* the instruction of the last HITM */
};

struct chunk {
	struct line *lines[NSIZES];
};

struct totals {
	uint64_t accesses, stores, hitm, hitm_false, inval;
};

static struct chunk *chunks[NCHUNKS];
static struct totals totals[NSIZES];

/*
 * Every instruction that made a counted HITM on a line, with its HITMs (a
 * line keeps only its last one): perf c2c names a line by all the code
 * touching it. An open-addressing table of (line size, line, pc), filled
 * to 3/4 at most; a pair beyond that is dropped and counted, not guessed.
 * A run makes a few thousand pairs.
 */
#define HITPC_BITS	16
#define HITPC_N		(1u << HITPC_BITS)
struct hitpc {
	uint64_t line, pc;
	uint32_t hitm;
	uint8_t size, used;		/* size: index into line_shift */
};
static struct hitpc *hitpcs;
static uint32_t hitpc_used;
static uint64_t hitpc_dropped;

static void hitpc_add(int s, uint64_t line, uint64_t pc)
{
	uint64_t h = ((line ^ (pc * 0x9e3779b97f4a7c15ull)) + (uint64_t)s) * 0xff51afd7ed558ccdull;

	if (!hitpcs)
		hitpcs = calloc(HITPC_N, sizeof(*hitpcs));
	if (!hitpcs) {
		hitpc_dropped++;
		return;
	}
	for (uint32_t i = 0, at = (uint32_t)(h >> (64 - HITPC_BITS)); i < HITPC_N; i++) {
		struct hitpc *e = &hitpcs[(at + i) & (HITPC_N - 1)];

		if (!e->used) {
			if (hitpc_used >= HITPC_N / 4 * 3)
				break;
			*e = (struct hitpc){ .line = line, .pc = pc, .hitm = 1, .size = (uint8_t)s,
					     .used = 1 };
			hitpc_used++;
			return;
		}
		if (e->line == line && e->pc == pc && e->size == s) {
			e->hitm++;
			return;
		}
	}
	hitpc_dropped++;
}

/* Whole run: instructions inline (as insn.c inline=true counts them);
 * accesses in the callback, one per access as mem.c's inline count. */
static uint64_t insn_total;
static uint64_t mem_total, mem_io, mem_high;

/* Instructions per vCPU: insn_total's growth between two TB starts is
 * what the TB before ran (all of it or up to an exception), on the vCPU
 * and in the mode that TB started in. */
struct vcpu_insns {
	uint64_t kernel, user;		/* whole run */
	uint64_t win_kernel, win_user;	/* inside the window */
};
static struct vcpu_insns vcpu[MAX_VCPUS];
static uint64_t insn_mark;
static int last_vcpu = -1, last_kernel;

static bool window;
static unsigned window_opens, window_closes;
static bool count_kernel = true;
static char *out_path;
static int nvcpus;

static inline bool is_kernel(uint64_t vaddr)
{
	return vaddr >> 63;
}

/* Give the instructions run since the last mark to the vCPU that ran them. */
static void flush_insns(void)
{
	uint64_t n = insn_total - insn_mark;

	insn_mark = insn_total;
	if (last_vcpu < 0 || !n)
		return;
	if (last_kernel) {
		vcpu[last_vcpu].kernel += n;
		if (window)
			vcpu[last_vcpu].win_kernel += n;
	} else {
		vcpu[last_vcpu].user += n;
		if (window)
			vcpu[last_vcpu].win_user += n;
	}
}

/* The callbacks' udata for a TB's mode and a marker: addresses of these. */
static const int mode_tag[2] = { 0, 1 };	/* user, kernel */
static const int open_tag = 1, close_tag = 0;

static void tb_exec(unsigned int cpu, void *udata)
{
	flush_insns();
	last_vcpu = cpu < MAX_VCPUS ? (int)cpu : MAX_VCPUS - 1;
	last_kernel = *(const int *)udata;
}

static void marker_exec(unsigned int cpu, void *udata)
{
	(void)cpu;
	flush_insns();
	if (*(const int *)udata) {
		window = true;
		window_opens++;
	} else {
		window = false;
		window_closes++;
	}
}

static struct line *line_of(uint64_t pa, int s)
{
	struct chunk *c;
	uint64_t ci = pa >> CHUNK_SHIFT;

	if (ci >= NCHUNKS)
		return NULL;
	c = chunks[ci];
	if (!c) {
		c = calloc(1, sizeof(*c));
		if (!c)
			return NULL;
		chunks[ci] = c;
	}
	if (!c->lines[s]) {
		size_t n = (size_t)1 << (CHUNK_SHIFT - line_shift[s]);

		c->lines[s] = malloc(n * sizeof(struct line));
		if (!c->lines[s])
			return NULL;
		for (size_t i = 0; i < n; i++)
			c->lines[s][i] = (struct line){ .owner = -1 };
	}
	return &c->lines[s][(pa & ((1u << CHUNK_SHIFT) - 1)) >> line_shift[s]];
}

/* Mask of bytes [off, off + len) of a line, off + len <= 128. */
static void bytes_mask(unsigned off, unsigned len, uint64_t m[2])
{
	m[0] = m[1] = 0;
	for (unsigned b = off; b < off + len; b++)
		m[b / 64] |= 1ull << (b % 64);
}

/* One access of len bytes at pa, inside one line of size s; first: the
 * access's first (or only) line, where the access itself is counted. */
static void model(int s, unsigned cpu, uint64_t pa, unsigned len, bool store,
		  bool counted, bool first, uint64_t pc)
{
	struct line *l = line_of(pa, s);
	struct totals *t = &totals[s];
	uint8_t me = (uint8_t)(1u << cpu);
	uint64_t m[2];

	if (!l)
		return;
	bytes_mask((unsigned)(pa & ((1u << line_shift[s]) - 1)), len, m);
	if (counted) {
		l->accesses++;
		l->stores += store;
		if (first) {
			t->accesses++;
			t->stores += store;
		}
	}
	if (l->owner >= 0 && l->owner != (int)cpu) {
		bool overlap = (m[0] & l->mask[0]) || (m[1] & l->mask[1]);

		if (counted) {
			l->hitm++;
			t->hitm++;
			l->hitm_pc = pc;
			hitpc_add(s, pa >> line_shift[s] << line_shift[s], pc);
			if (!overlap) {
				l->hitm_false++;
				t->hitm_false++;
			}
		}
		if (!store) {
			/* The holder writes back; both keep a copy. */
			l->sharers |= (uint8_t)(me | (1u << l->owner));
			l->owner = -1;
			return;
		}
	}
	if (!store) {
		l->sharers |= me;
		return;
	}
	if (l->sharers & (uint8_t)~me) {
		if (counted) {
			l->inval++;
			t->inval++;
		}
	}
	if (l->owner == (int)cpu) {
		l->mask[0] |= m[0];
		l->mask[1] |= m[1];
	} else {
		l->owner = (int8_t)cpu;
		l->mask[0] = m[0];
		l->mask[1] = m[1];
	}
	l->sharers = me;
}

static void mem_cb(unsigned int cpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw;
	uint64_t pc = (uint64_t)(uintptr_t)udata, pa;
	unsigned len = 1u << qemu_plugin_mem_size_shift(info);
	bool store = qemu_plugin_mem_is_store(info), counted;

	mem_total++;
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw)) {
		mem_io++;
		return;
	}
	if (!window || cpu >= MAX_VCPUS)
		return;
	pa = qemu_plugin_hwaddr_phys_addr(hw);
	if (pa >> 32) {
		/* RAM above 4 GiB: an offset in a RAM block, not an address
		 * (docs/c2c.md); c2c runs on machines below 4 GiB. */
		mem_high++;
		return;
	}
	counted = is_kernel(pc) == count_kernel;
	for (int s = 0; s < NSIZES; s++) {
		unsigned size = 1u << line_shift[s];
		unsigned off = (unsigned)(pa & (size - 1));
		unsigned first = off + len > size ? size - off : len;

		model(s, cpu, pa, first, store, counted, true, pc);
		/* An access across a line boundary touches the next line too
		 * (physically contiguous within the page): a line access there,
		 * not a second access. */
		if (first < len)
			model(s, cpu, pa + first, len - first, store, counted, false, pc);
	}
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
					     (void *)&mode_tag[is_kernel(qemu_plugin_tb_vaddr(tb))]);
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t pc = qemu_plugin_insn_vaddr(insn);

		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							   &insn_total, 1);
		/* The instruction's address rides in udata, as QEMU's own plugins
		 * pass it (GUINT_TO_POINTER): no allocation per instruction. */
		qemu_plugin_register_vcpu_mem_cb(insn, mem_cb, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW,
						 (void *)(uintptr_t)pc); /* NOLINT(performance-no-int-to-ptr) */
		if (qemu_plugin_insn_size(insn) == KF_C2C_MARKER_LEN) {
			const uint8_t *d = qemu_plugin_insn_data(insn);

			if (!memcmp(d, kf_c2c_open, KF_C2C_MARKER_LEN))
				qemu_plugin_register_vcpu_insn_exec_cb(insn, marker_exec,
								       QEMU_PLUGIN_CB_NO_REGS,
								       (void *)&open_tag);
			else if (!memcmp(d, kf_c2c_close, KF_C2C_MARKER_LEN))
				qemu_plugin_register_vcpu_insn_exec_cb(insn, marker_exec,
								       QEMU_PLUGIN_CB_NO_REGS,
								       (void *)&close_tag);
		}
	}
}

static int write_raw(FILE *f)
{
	fprintf(f, "%s\n", KF_C2C_RAW_MAGIC);
	fprintf(f, "count %s\n", count_kernel ? "kernel" : "user");
	fprintf(f, "vcpus %d\n", nvcpus);
	fprintf(f, "window %u %u\n", window_opens, window_closes);
	fprintf(f, "insns %" PRIu64 "\n", insn_total);
	fprintf(f, "mem %" PRIu64 " io %" PRIu64 " high %" PRIu64 "\n", mem_total, mem_io, mem_high);
	for (int c = 0; c < nvcpus && c < MAX_VCPUS; c++)
		fprintf(f, "vcpu %d kernel %" PRIu64 " user %" PRIu64 " win_kernel %" PRIu64
			" win_user %" PRIu64 "\n", c, vcpu[c].kernel, vcpu[c].user,
			vcpu[c].win_kernel, vcpu[c].win_user);
	for (int s = 0; s < NSIZES; s++)
		fprintf(f, "size %u accesses %" PRIu64 " stores %" PRIu64 " hitm %" PRIu64
			" hitm_false %" PRIu64 " inval %" PRIu64 "\n", 1u << line_shift[s],
			totals[s].accesses, totals[s].stores, totals[s].hitm,
			totals[s].hitm_false, totals[s].inval);
	/* Every line with a HITM, by line size and address. */
	for (int s = 0; s < NSIZES; s++)
		for (uint64_t ci = 0; ci < NCHUNKS; ci++) {
			struct line *ls = chunks[ci] ? chunks[ci]->lines[s] : NULL;
			size_t n = (size_t)1 << (CHUNK_SHIFT - line_shift[s]);

			for (size_t i = 0; ls && i < n; i++) {
				const struct line *l = &ls[i];

				if (!l->hitm)
					continue;
				fprintf(f, "line %u 0x%" PRIx64 " accesses %" PRIu32 " stores %" PRIu32
					" hitm %" PRIu32 " hitm_false %" PRIu32 " inval %" PRIu32
					" pc 0x%" PRIx64 "\n", 1u << line_shift[s],
					(ci << CHUNK_SHIFT) + ((uint64_t)i << line_shift[s]),
					l->accesses, l->stores, l->hitm, l->hitm_false, l->inval,
					l->hitm_pc);
			}
		}
	/* Every instruction of a line's HITMs, and the pairs the table dropped. */
	for (uint32_t i = 0; hitpcs && i < HITPC_N; i++)
		if (hitpcs[i].used)
			fprintf(f, "hitpc %u 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu32 "\n",
				1u << line_shift[hitpcs[i].size], hitpcs[i].line, hitpcs[i].pc,
				hitpcs[i].hitm);
	fprintf(f, "hitpc_dropped %" PRIu64 "\n", hitpc_dropped);
	fprintf(f, "end\n");
	return ferror(f) ? -1 : 0;
}

static void plugin_exit(qemu_plugin_id_t id, void *p)
{
	char *tmp;
	FILE *f;

	(void)id;
	(void)p;
	flush_insns();
	if (asprintf(&tmp, "%s.tmp", out_path) < 0)
		return;
	f = fopen(tmp, "w");
	if (!f || write_raw(f) || fclose(f) || rename(tmp, out_path))
		fprintf(stderr, "kf-c2c: cannot write %s: %s\n", out_path, strerror(errno));
	free(tmp);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out_path = argv[i] + 4;
		} else if (!strcmp(argv[i], "count=kernel")) {
			count_kernel = true;
		} else if (!strcmp(argv[i], "count=user")) {
			count_kernel = false;
		} else {
			fprintf(stderr, "kf-c2c: unknown argument '%s'; valid: out=FILE, count=kernel|user\n",
				argv[i]);
			return -1;
		}
	}
	if (!out_path || !*out_path) {
		fprintf(stderr, "kf-c2c: no out=FILE argument; give -plugin file=kf-c2c.so,out=FILE\n");
		return -1;
	}
	if (!info->system_emulation) {
		fprintf(stderr, "kf-c2c: needs system emulation (qemu-system-*)\n");
		return -1;
	}
	nvcpus = info->system.max_vcpus;
	if (nvcpus > MAX_VCPUS) {
		fprintf(stderr, "kf-c2c: %d vCPUs; this model keeps at most %d (give -smp %d or fewer)\n",
			nvcpus, MAX_VCPUS, MAX_VCPUS);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
