/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attrib.h - which kernel objects a guest-physical line holds, from
 * vmlinux's symbols (libelf), for c2c-record (docs/c2c.md, "Attribution").
 *
 * Static objects: the kernel image is mapped at __START_KERNEL_map
 * (0xffffffff80000000) + its physical address; c2c boots with nokaslr and
 * the tiny flavours are not relocatable, so that holds.
 * Per-CPU objects: x86-64 links .data..percpu at 0, so a per-CPU symbol's
 * value is its offset in each CPU's unit; unit c of the first chunk is at
 * base + c * unit. The kernel prints the unit size and the static size
 * ("percpu: Embedded N pages/cpu sS rR dD uU"), not the base:
 * kf_percpu_base() infers it from the lines (below).
 */
#ifndef KF_C2C_ATTRIB_H
#define KF_C2C_ATTRIB_H

#include <stddef.h>
#include <stdint.h>

#define KF_START_KERNEL_MAP	0xffffffff80000000ull

struct kf_sym {
	uint64_t addr, size;		/* per-CPU: offset in the unit */
	char *name;
};

struct kf_syms {
	struct kf_sym *obj, *pcpu, *func;	/* sorted by addr */
	size_t nobj, npcpu, nfunc;
	uint64_t text, end;			/* _text, _end */
};

/* vmlinux's data objects, per-CPU objects and functions. 0, or -1 with
 * the reason in err. */
int kf_syms_load(struct kf_syms *s, const char *vmlinux, char *err, size_t errsize);
void kf_syms_free(struct kf_syms *s);

/* Up to max symbols of v (n of them) overlapping [a, a + len); how many
 * overlap in all. */
size_t kf_syms_overlap(const struct kf_sym *v, size_t n, uint64_t a, uint64_t len,
		       const struct kf_sym **out, size_t max);
/* The function holding pc, or NULL. */
const struct kf_sym *kf_syms_func(const struct kf_syms *s, uint64_t pc);

/*
 * "sS" and "uU" of the kernel's "percpu: Embedded ..." line in text; 0,
 * or -1 when there is none.
 */
int kf_percpu_sizes(const char *text, uint64_t *statsize, uint64_t *unit);

/*
 * The first chunk's base: of the chunk-aligned (align) addresses at or
 * below each line, the one with the most paired lines: a line in a unit's
 * static part (offset % unit < statsize, within ncpu units) with a line at
 * the same offset in another unit. At least two; 0, or -1 when none has.
 */
int kf_percpu_base(const uint64_t *lines, size_t n, uint64_t unit, uint64_t statsize,
		   int ncpu, uint64_t align, uint64_t *base);

#endif /* KF_C2C_ATTRIB_H */
