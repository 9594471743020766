/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attrib.h - which kernel objects a guest-physical line holds, from
 * vmlinux's symbols (libelf), for c2c-record (docs/c2c.md, "Attribution").
 *
 * Where the kernel put things is not guessed: the flavour probe
 * (patches/<kver>/0003) prints it, and c2c-record reads it from each run's
 * boot record (docs/probe.md, "layout facts"): _text's virtual and
 * physical address, and each CPU's copy of .data..percpu (x86-64 links it
 * at 0, so a per-CPU symbol's value is its offset in each CPU's copy).
 */
#ifndef KF_C2C_ATTRIB_H
#define KF_C2C_ATTRIB_H

#include <stddef.h>
#include <stdint.h>

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

#endif /* KF_C2C_ATTRIB_H */
