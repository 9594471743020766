// SPDX-License-Identifier: GPL-2.0
/*
 * plugin.c - a QEMU TCG plugin (API 1, QEMU 7.2) that models cache-line
 * ownership across vCPUs and counts what perf c2c would, at 64- and
 * 128-byte lines at once (docs/c2c.md).
 *
 *   -plugin file=kf-c2c.so,out=FILE[,count=kernel|user][,tcg=single|multi]
 *
 * The guest opens and closes a counting window with two magic NOPs
 * (lib/c2c.h): only accesses inside it are modelled. count= says which
 * accesses are counted there: kernel (the default; the instruction's
 * virtual address is in the upper half) or user. The model sees every
 * access in the window either way, so counted lines have their real state.
 *
 * Per guest-physical 128-byte line the model keeps the state of the line
 * and of its two 64-byte halves: the vCPU holding it modified (if any), the
 * vCPUs holding a clean copy, the bytes the modified holder wrote and the
 * instruction of its last store. In perf c2c's terms, per line size:
 *  - a load of a line another vCPU holds modified is a load HITM (true
 *    sharing when its bytes overlap the holder's written bytes, false
 *    when not);
 *  - a store to such a line is a store to a modified line, counted apart
 *    (perf c2c reports stores apart from HITMs);
 *  - a store that takes clean copies away from other vCPUs is an
 *    invalidation;
 *  - an instruction that loads and then stores the same address (a locked
 *    read-modify-write reaches the plugin as a load and a store) is one
 *    access, a load, as perf's load sampling sees it; its store moves
 *    ownership and may invalidate, but is not counted again.
 * Per access the two sizes are compared: a HITM at 128 bytes that is none
 * at 64 (the other half was written by another vCPU: what a 128-byte line
 * costs a 64-byte layout) and a HITM at 64 that the 128-byte line did not
 * make. No eviction, no capacity, no instruction fetch, no page walks.
 *
 * tcg=multi (QEMU's -accel tcg,thread=multi): every vCPU runs on a host
 * thread of its own, callbacks run concurrently. Lines are then changed
 * under a spinlock per stripe of 128-byte lines, each vCPU counts in its own
 * slot, and the instruction counts are per translation block (see
 * tb_exec). tcg=single needs no lock and counts instructions exactly.
 *
 * At exit FILE gets plain-text raw figures (written to FILE.tmp, then
 * renamed); c2c/raw.c reads them, c2c/record.c makes the record.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "../lib/c2c.h"

#if QEMU_PLUGIN_VERSION != 1
#error "c2c/plugin.c is written for QEMU plugin API 1 (QEMU 7.2); this qemu-plugin.h has another (see docs/c2c.md)"
#endif

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_VCPUS	8		/* sharers are a byte */
#define CHUNK_SHIFT	20		/* lines are kept per MiB of RAM */
#define NCHUNKS		(1u << (32 - CHUNK_SHIFT))	/* RAM below 4 GiB */
#define LINES_PER_CHUNK	(1u << (CHUNK_SHIFT - 7))
#define NSTRIPES	4096u

enum { LOAD, STORE };

/* One line's coherence state. mask: the bytes the modified holder wrote
 * (bit i of mask[i / 64] for byte i of the 128-byte line). */
struct state {
	int8_t owner;			/* modified holder, -1: none */
	uint8_t sharers;		/* vCPUs holding a copy (bit per vCPU) */
	uint64_t mask[2];
	uint64_t wpc;			/* the holder's last store */
};

/* One line's counted figures (perf c2c's per-line columns). */
struct figs {
	uint32_t loads, load_miss, load_hitm, load_hitm_false;
	uint32_t stores, store_miss, store_hitm, store_hitm_false, inval, rmw;
	uint64_t hitm_pc;		/* the instruction of the last HITM */
};

/* A 128-byte line and its two 64-byte halves. only128/only64: HITMs at
 * one size only, by load and store. */
struct line {
	struct state st128, st64[2];
	struct figs f128, f64[2];
	uint32_t only128[2], only64[2];
};

struct chunk {
	struct line lines[LINES_PER_CHUNK];
};

/* Per size totals: index 0 for 64 bytes, 1 for 128. */
struct totals {
	uint64_t loads, load_miss, load_hitm, load_hitm_false;
	uint64_t stores, store_miss, store_hitm, store_hitm_false, inval, rmw;
};

/* What one vCPU counts, in a slot of its own (tcg=multi: its thread's). */
struct vcpu {
	struct totals t[2];
	uint64_t only128[2], only64[2];
	uint64_t kernel, user;		/* instructions, whole run */
	uint64_t win_kernel, win_user;	/* inside the window */
	uint64_t win_loads, win_stores;	/* counted accesses inside it */
	uint64_t mem, io, high;
	uint64_t load_pc, load_pa;	/* the last load, to find an RMW's store */
	bool load_valid;
} __attribute__((aligned(128)));

static struct chunk *chunks[NCHUNKS];
static struct vcpu vcpu[MAX_VCPUS];
static uint8_t stripe[NSTRIPES];
static bool multi;

/*
 * Every instruction that made a counted HITM on a line (a line keeps only
 * its last), and for a HITM at 128 bytes only, the instruction on each
 * side: perf c2c names a line by all the code touching it. An
 * open-addressing table filled to 3/4 at most; a pair beyond that is
 * dropped and counted, not guessed. kind: 0 a HITM at 64, 1 at 128, 2 a
 * HITM at 128 only (pc here, pc2 the other half's last store).
 */
#define HITPC_BITS	16
#define HITPC_N		(1u << HITPC_BITS)
struct hitpc {
	uint64_t line, pc, pc2;
	uint32_t n;
	uint8_t kind, used;
};
static struct hitpc *hitpcs;
static uint32_t hitpc_used;
static uint64_t hitpc_dropped;
static pthread_mutex_t hitpc_lock = PTHREAD_MUTEX_INITIALIZER;

static void hitpc_add(int kind, uint64_t line, uint64_t pc, uint64_t pc2)
{
	uint64_t h = ((line ^ (pc * 0x9e3779b97f4a7c15ull) ^ (pc2 * 0xc2b2ae3d27d4eb4full)) +
		      (uint64_t)kind) * 0xff51afd7ed558ccdull;

	pthread_mutex_lock(&hitpc_lock);
	for (uint32_t i = 0, at = (uint32_t)(h >> (64 - HITPC_BITS)); hitpcs && i < HITPC_N; i++) {
		struct hitpc *e = &hitpcs[(at + i) & (HITPC_N - 1)];

		if (!e->used) {
			if (hitpc_used >= HITPC_N / 4 * 3)
				break;
			*e = (struct hitpc){ .line = line, .pc = pc, .pc2 = pc2, .n = 1,
					     .kind = (uint8_t)kind, .used = 1 };
			hitpc_used++;
			pthread_mutex_unlock(&hitpc_lock);
			return;
		}
		if (e->line == line && e->pc == pc && e->pc2 == pc2 && e->kind == kind) {
			e->n++;
			pthread_mutex_unlock(&hitpc_lock);
			return;
		}
	}
	hitpc_dropped++;
	pthread_mutex_unlock(&hitpc_lock);
}

/* tcg=single: instructions inline (as insn.c inline=true counts them),
 * handed at each TB's start to the vCPU and mode the previous TB ran in. */
static uint64_t insn_total, insn_mark;
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

static inline bool in_window(void)
{
	return __atomic_load_n(&window, __ATOMIC_RELAXED);
}

static void add_insns(int cpu, bool kernel, uint64_t n)
{
	struct vcpu *v = &vcpu[cpu];
	bool w = in_window();

	if (kernel) {
		v->kernel += n;
		v->win_kernel += w ? n : 0;
	} else {
		v->user += n;
		v->win_user += w ? n : 0;
	}
}

/* tcg=single: give the instructions run since the last mark to the vCPU
 * that ran them. */
static void flush_insns(void)
{
	uint64_t n = insn_total - insn_mark;

	insn_mark = insn_total;
	if (last_vcpu >= 0 && n)
		add_insns(last_vcpu, last_kernel, n);
}

/*
 * A TB starts. udata: its instruction count and mode, (n << 1) | kernel.
 * tcg=single: the inline counter's growth since the last start is what the
 * TB before ran, all of it or up to an exception. tcg=multi has no per-vCPU
 * inline counter in API 1: the TB's whole count goes to this vCPU, so an
 * instruction after a faulting one in the same TB is counted too.
 */
static void tb_exec(unsigned int cpu, void *udata)
{
	uintptr_t u = (uintptr_t)udata;
	int c = cpu < MAX_VCPUS ? (int)cpu : MAX_VCPUS - 1;

	if (multi) {
		add_insns(c, u & 1, u >> 1);
		return;
	}
	flush_insns();
	last_vcpu = c;
	last_kernel = (int)(u & 1);
}

/* The callbacks' udata for a marker: addresses of these. */
static const int open_tag = 1, close_tag = 0;

static void marker_exec(unsigned int cpu, void *udata)
{
	(void)cpu;
	if (!multi)
		flush_insns();
	__atomic_store_n(&window, *(const int *)udata != 0, __ATOMIC_RELAXED);
	if (*(const int *)udata)
		__atomic_add_fetch(&window_opens, 1, __ATOMIC_RELAXED);
	else
		__atomic_add_fetch(&window_closes, 1, __ATOMIC_RELAXED);
}

/* The 128-byte line at pa, its chunk made on first use (the loser of a
 * race frees its copy). */
static struct line *line_of(uint64_t pa)
{
	uint64_t ci = pa >> CHUNK_SHIFT;
	struct chunk *c, *none = NULL;

	if (ci >= NCHUNKS)
		return NULL;
	c = __atomic_load_n(&chunks[ci], __ATOMIC_ACQUIRE);
	if (!c) {
		c = malloc(sizeof(*c));
		if (!c)
			return NULL;
		for (unsigned i = 0; i < LINES_PER_CHUNK; i++) {
			c->lines[i] = (struct line){ 0 };
			c->lines[i].st128.owner = -1;
			c->lines[i].st64[0].owner = c->lines[i].st64[1].owner = -1;
		}
		if (!__atomic_compare_exchange_n(&chunks[ci], &none, c, false, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE)) {
			free(c);
			c = none;
		}
	}
	return &c->lines[(pa & ((1u << CHUNK_SHIFT) - 1)) >> 7];
}

static void lock_line(uint64_t pa)
{
	uint8_t *s = &stripe[(pa >> 7) % NSTRIPES];

	if (!multi)
		return;
	while (__atomic_test_and_set(s, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(s, __ATOMIC_RELAXED))
			__builtin_ia32_pause();
}

static void unlock_line(uint64_t pa)
{
	if (multi)
		__atomic_clear(&stripe[(pa >> 7) % NSTRIPES], __ATOMIC_RELEASE);
}

/* Mask of bytes [off, off + len) of a 128-byte line. */
static void bytes_mask(unsigned off, unsigned len, uint64_t m[2])
{
	m[0] = m[1] = 0;
	for (unsigned b = off; b < off + len && b < 128; b++)
		m[b / 64] |= 1ull << (b % 64);
}

enum { EV_HITM = 1, EV_FALSE = 2, EV_INVAL = 4, EV_MISS = 8 };

/* One access by cpu of the bytes m to a line in state st: the state's
 * change, and what the access was (EV_*). */
static unsigned step(struct state *st, unsigned cpu, const uint64_t m[2], bool store,
		     uint64_t pc)
{
	uint8_t me = (uint8_t)(1u << cpu);
	unsigned ev = 0;

	if (st->owner >= 0 && st->owner != (int)cpu) {
		ev = EV_HITM | EV_MISS;
		if (!(m[0] & st->mask[0]) && !(m[1] & st->mask[1]))
			ev |= EV_FALSE;
		if (!store) {
			/* The holder writes back; both keep a copy. */
			st->sharers = (uint8_t)(me | (1u << st->owner));
			st->owner = -1;
			return ev;
		}
	} else if (st->owner != (int)cpu && (store ? st->sharers != me : !(st->sharers & me))) {
		ev = EV_MISS;
	}
	if (!store) {
		st->sharers |= me;
		return ev;
	}
	if (st->owner < 0 && (st->sharers & (uint8_t)~me))
		ev |= EV_INVAL;
	if (st->owner == (int)cpu) {
		st->mask[0] |= m[0];
		st->mask[1] |= m[1];
	} else {
		st->owner = (int8_t)cpu;
		st->mask[0] = m[0];
		st->mask[1] = m[1];
	}
	st->wpc = pc;
	st->sharers = me;
	return ev;
}

/* Add one access's events ev to x, a line's struct figs or a vCPU's struct
 * totals (the same names, other widths). rmw: the store of a
 * read-modify-write, counted only where it invalidates. */
#define FALSE_HITM(ev)	(((ev) & (EV_HITM | EV_FALSE)) == (EV_HITM | EV_FALSE))
#define COUNT(x, ev, store, rmw) do {					\
	if (rmw) {							\
		(x)->inval += !!((ev) & EV_INVAL);			\
		(x)->rmw++;						\
	} else if (store) {						\
		(x)->stores++;						\
		(x)->store_miss += !!((ev) & EV_MISS);			\
		(x)->store_hitm += !!((ev) & EV_HITM);			\
		(x)->store_hitm_false += FALSE_HITM(ev);		\
		(x)->inval += !!((ev) & EV_INVAL);			\
	} else {							\
		(x)->loads++;						\
		(x)->load_miss += !!((ev) & EV_MISS);			\
		(x)->load_hitm += !!((ev) & EV_HITM);			\
		(x)->load_hitm_false += FALSE_HITM(ev);			\
	}								\
} while (0)

/* Count an access's events in a line's figures f and, where the access is
 * counted (first), in the vCPU's totals t. */
static void count(struct figs *f, struct totals *t, unsigned ev, bool store, bool rmw,
		  bool first, uint64_t pc)
{
	COUNT(f, ev, store, rmw);
	if ((ev & EV_HITM) && !rmw)
		f->hitm_pc = pc;
	if (first)
		COUNT(t, ev, store, rmw);
}

/*
 * One access of len bytes at pa inside one 128-byte line (the caller splits
 * one that crosses it); first: the access's first line, where it is counted
 * in the totals.
 */
static void model(unsigned cpu, uint64_t pa, unsigned len, bool store, bool rmw,
		  bool counted, bool first, uint64_t pc)
{
	struct vcpu *v = &vcpu[cpu];
	uint64_t base = pa & ~127ull, m[2], other_pc;
	unsigned off = (unsigned)(pa & 127), ev128, ev64 = 0, h0 = off / 64,
		 h1 = (off + len - 1) / 64;
	struct line *l = line_of(pa);
	bool first64 = first;

	if (!l)
		return;
	bytes_mask(off, len, m);
	lock_line(pa);
	other_pc = l->st128.wpc;
	ev128 = step(&l->st128, cpu, m, store, pc);
	for (unsigned h = h0; h <= h1; h++) {
		/* A 64-byte half sees the access's bytes in it at their place
		 * in the 128-byte mask: overlap tests stay the same. */
		uint64_t mh[2] = { h ? 0 : m[0], h ? m[1] : 0 };
		unsigned e = step(&l->st64[h], cpu, mh, store, pc);

		if (counted) {
			count(&l->f64[h], &v->t[0], e, store, rmw, first64, pc);
			first64 = false;
			if ((e & EV_HITM) && !rmw)
				hitpc_add(0, base + (uint64_t)64 * h, pc, 0);
		}
		ev64 |= e;
	}
	if (counted) {
		int k = store ? STORE : LOAD;

		count(&l->f128, &v->t[1], ev128, store, rmw, first, pc);
		if (!rmw && (ev128 & EV_HITM))
			hitpc_add(1, base, pc, 0);
		if (!rmw && (ev128 & EV_HITM) && !(ev64 & EV_HITM)) {
			l->only128[k]++;
			v->only128[k]++;
			hitpc_add(2, base, pc, other_pc);
		} else if (!rmw && (ev64 & EV_HITM) && !(ev128 & EV_HITM)) {
			l->only64[k]++;
			v->only64[k]++;
		}
	}
	unlock_line(pa);
}

static void mem_cb(unsigned int cpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw;
	uint64_t pc = (uint64_t)(uintptr_t)udata, pa;
	unsigned len = 1u << qemu_plugin_mem_size_shift(info);
	bool store = qemu_plugin_mem_is_store(info), counted, rmw = false;
	struct vcpu *v;

	if (cpu >= MAX_VCPUS)
		return;
	v = &vcpu[cpu];
	v->mem++;
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw)) {
		v->io++;
		return;
	}
	if (!in_window())
		return;
	pa = qemu_plugin_hwaddr_phys_addr(hw);
	if (pa >> 32) {
		/* RAM above 4 GiB: an offset in a RAM block, not an address
		 * (docs/c2c.md); c2c runs on machines below 4 GiB. */
		v->high++;
		return;
	}
	/* A store by the instruction of this vCPU's last load, to its
	 * address: the write half of a read-modify-write. */
	if (store && v->load_valid && v->load_pc == pc && v->load_pa == pa)
		rmw = true;
	v->load_valid = !store;
	v->load_pc = pc;
	v->load_pa = pa;
	counted = is_kernel(pc) == count_kernel;
	if (counted && !rmw) {
		v->win_loads += !store;
		v->win_stores += store;
	}
	for (unsigned done = 0; done < len; ) {
		uint64_t at = pa + done;
		unsigned n = 128 - (unsigned)(at & 127);

		/* An access across a 128-byte boundary touches the next line
		 * too (physically contiguous within the page): a line access
		 * there, not a second access. */
		n = n < len - done ? n : len - done;
		model(cpu, at, n, store, rmw, counted, done == 0, pc);
		done += n;
	}
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	uintptr_t u = ((uintptr_t)n << 1) | is_kernel(qemu_plugin_tb_vaddr(tb));

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
					     (void *)u); /* NOLINT(performance-no-int-to-ptr) */
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t pc = qemu_plugin_insn_vaddr(insn);

		/* tcg=multi: one shared inline counter would lose updates. */
		if (!multi)
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

static void write_figs(FILE *f, const struct figs *x)
{
	fprintf(f, " loads %" PRIu32 " load_miss %" PRIu32 " load_hitm %" PRIu32
		" load_hitm_false %" PRIu32 " stores %" PRIu32 " store_miss %" PRIu32
		" store_hitm %" PRIu32 " store_hitm_false %" PRIu32 " inval %" PRIu32
		" rmw %" PRIu32, x->loads, x->load_miss, x->load_hitm, x->load_hitm_false,
		x->stores, x->store_miss, x->store_hitm, x->store_hitm_false, x->inval, x->rmw);
}

static bool has_hitm(const struct figs *x)
{
	return x->load_hitm || x->store_hitm;
}

static bool touched(const struct figs *x)
{
	return x->loads || x->stores;
}

static void write_lines(FILE *f)
{
	for (uint64_t ci = 0; ci < NCHUNKS; ci++)
		for (unsigned i = 0; chunks[ci] && i < LINES_PER_CHUNK; i++) {
			const struct line *l = &chunks[ci]->lines[i];
			uint64_t a = (ci << CHUNK_SHIFT) + ((uint64_t)i << 7);

			for (unsigned h = 0; h < 2; h++) {
				if (!has_hitm(&l->f64[h]))
					continue;
				fprintf(f, "line 64 0x%" PRIx64, a + (uint64_t)64 * h);
				write_figs(f, &l->f64[h]);
				fprintf(f, " pc 0x%" PRIx64 "\n", l->f64[h].hitm_pc);
			}
			if (!has_hitm(&l->f128) && !l->only64[LOAD] && !l->only64[STORE])
				continue;
			fprintf(f, "line 128 0x%" PRIx64, a);
			write_figs(f, &l->f128);
			fprintf(f, " only128_load %" PRIu32 " only128_store %" PRIu32
				" only64_load %" PRIu32 " only64_store %" PRIu32 " pc 0x%" PRIx64 "\n",
				l->only128[LOAD], l->only128[STORE], l->only64[LOAD],
				l->only64[STORE], l->f128.hitm_pc);
		}
}

static int write_raw(FILE *f)
{
	struct totals t[2] = { 0 };
	uint64_t only128[2] = { 0 }, only64[2] = { 0 }, touched_lines[2] = { 0 };
	uint64_t mem = 0, io = 0, high = 0, insns = 0;

	for (int c = 0; c < MAX_VCPUS; c++) {
		const struct vcpu *v = &vcpu[c];

		for (int s = 0; s < 2; s++) {
			const uint64_t *a = (const uint64_t *)&v->t[s];
			uint64_t *b = (uint64_t *)&t[s];

			for (size_t k = 0; k < sizeof(t[s]) / sizeof(uint64_t); k++)
				b[k] += a[k];
		}
		for (int k = 0; k < 2; k++) {
			only128[k] += v->only128[k];
			only64[k] += v->only64[k];
		}
		mem += v->mem;
		io += v->io;
		high += v->high;
		insns += v->kernel + v->user;
	}
	for (uint64_t ci = 0; ci < NCHUNKS; ci++)
		for (unsigned i = 0; chunks[ci] && i < LINES_PER_CHUNK; i++) {
			const struct line *l = &chunks[ci]->lines[i];

			touched_lines[0] += touched(&l->f64[0]) + touched(&l->f64[1]);
			touched_lines[1] += touched(&l->f128);
		}
	fprintf(f, "%s\n", KF_C2C_RAW_MAGIC);
	fprintf(f, "count %s\n", count_kernel ? "kernel" : "user");
	fprintf(f, "tcg %s\n", multi ? "multi" : "single");
	fprintf(f, "vcpus %d\n", nvcpus);
	fprintf(f, "window %u %u\n", window_opens, window_closes);
	/* tcg=single: the inline count (insn.c inline=true's); multi: the
	 * vCPUs' TB counts added up. */
	fprintf(f, "insns %" PRIu64 "\n", multi ? insns : insn_total);
	fprintf(f, "mem %" PRIu64 " io %" PRIu64 " high %" PRIu64 "\n", mem, io, high);
	for (int c = 0; c < nvcpus && c < MAX_VCPUS; c++)
		fprintf(f, "vcpu %d kernel %" PRIu64 " user %" PRIu64 " win_kernel %" PRIu64
			" win_user %" PRIu64 " win_loads %" PRIu64 " win_stores %" PRIu64 "\n", c,
			vcpu[c].kernel, vcpu[c].user, vcpu[c].win_kernel, vcpu[c].win_user,
			vcpu[c].win_loads, vcpu[c].win_stores);
	for (int s = 0; s < 2; s++)
		fprintf(f, "size %u loads %" PRIu64 " load_miss %" PRIu64 " load_hitm %" PRIu64
			" load_hitm_false %" PRIu64 " stores %" PRIu64 " store_miss %" PRIu64
			" store_hitm %" PRIu64 " store_hitm_false %" PRIu64 " inval %" PRIu64
			" rmw %" PRIu64 " lines %" PRIu64 "\n", s ? 128 : 64, t[s].loads,
			t[s].load_miss, t[s].load_hitm, t[s].load_hitm_false, t[s].stores,
			t[s].store_miss, t[s].store_hitm, t[s].store_hitm_false, t[s].inval,
			t[s].rmw, touched_lines[s]);
	fprintf(f, "only128 load %" PRIu64 " store %" PRIu64 "\n", only128[LOAD], only128[STORE]);
	fprintf(f, "only64 load %" PRIu64 " store %" PRIu64 "\n", only64[LOAD], only64[STORE]);
	write_lines(f);
	/* Every instruction of a line's HITMs, of both sides of a HITM at
	 * 128 bytes only, and the pairs the table dropped. */
	for (uint32_t i = 0; hitpcs && i < HITPC_N; i++) {
		const struct hitpc *e = &hitpcs[i];

		if (!e->used)
			continue;
		if (e->kind == 2)
			fprintf(f, "sides 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu32 "\n",
				e->line, e->pc, e->pc2, e->n);
		else
			fprintf(f, "hitpc %u 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu32 "\n",
				e->kind ? 128 : 64, e->line, e->pc, e->n);
	}
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
	if (!multi)
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
		} else if (!strcmp(argv[i], "count=kernel") || !strcmp(argv[i], "count=user")) {
			count_kernel = !strcmp(argv[i], "count=kernel");
		} else if (!strcmp(argv[i], "tcg=single") || !strcmp(argv[i], "tcg=multi")) {
			multi = !strcmp(argv[i], "tcg=multi");
		} else {
			fprintf(stderr, "kf-c2c: unknown argument '%s'; valid: out=FILE, "
				"count=kernel|user, tcg=single|multi\n", argv[i]);
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
	hitpcs = calloc(HITPC_N, sizeof(*hitpcs));
	if (!hitpcs) {
		fprintf(stderr, "kf-c2c: out of memory\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
