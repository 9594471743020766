// SPDX-License-Identifier: GPL-2.0
/*
 * attrib.c - kernel objects of a guest-physical line (attrib.h).
 */
#include "attrib.h"
#include "../lib/elf.h"
#include "../lib/kf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_addr(const void *a, const void *b)
{
	const struct kf_sym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

static void push(struct kf_sym **v, size_t *n, uint64_t addr, uint64_t size, const char *name)
{
	*v = kf_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = (struct kf_sym){ addr, size, kf_xstrdup(name) };
}

struct syms_load {
	struct kf_syms *s;
	size_t pcpu_ndx;
};

static void syms_one(const struct kf_elf_sym *y, void *arg)
{
	struct syms_load *l = arg;
	struct kf_syms *s = l->s;

	if (!strcmp(y->name, "_text"))
		s->text = y->value;
	else if (!strcmp(y->name, "_end"))
		s->end = y->value;
	if (y->type == KF_ELF_FUNC && y->size)
		push(&s->func, &s->nfunc, y->value, y->size, y->name);
	else if (y->type == KF_ELF_OBJECT && y->size && l->pcpu_ndx && y->shndx == l->pcpu_ndx)
		push(&s->pcpu, &s->npcpu, y->value, y->size, y->name);
	else if (y->type == KF_ELF_OBJECT && y->size)
		push(&s->obj, &s->nobj, y->value, y->size, y->name);
}

int kf_syms_load(struct kf_syms *s, const char *vmlinux, char *err, size_t es)
{
	struct kf_elf f;
	struct kf_elf_section pcpu;
	struct syms_load l = { s, 0 };
	int found, r;

	memset(s, 0, sizeof(*s));
	r = kf_elf_open(&f, vmlinux, err, es);
	if (r == -1)
		snprintf(err, es, "%s: %s; run make build", vmlinux, strerror(errno));
	if (r)
		return -1;
	if (kf_elf_section(&f, ".data..percpu", &pcpu) == 0)
		l.pcpu_ndx = pcpu.index;
	found = kf_elf_symbols(&f, syms_one, &l) > 0;
	kf_elf_close(&f);
	if (!found || !s->text || !s->end) {
		kf_syms_free(s);
		snprintf(err, es, "%s: no symbol table with _text and _end; give the flavour's "
			 "unstripped vmlinux", vmlinux);
		return -1;
	}
	qsort(s->obj, s->nobj, sizeof(*s->obj), by_addr);
	qsort(s->pcpu, s->npcpu, sizeof(*s->pcpu), by_addr);
	qsort(s->func, s->nfunc, sizeof(*s->func), by_addr);
	return 0;
}

static void free_v(struct kf_sym *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

void kf_syms_free(struct kf_syms *s)
{
	free_v(s->obj, s->nobj);
	free_v(s->pcpu, s->npcpu);
	free_v(s->func, s->nfunc);
	memset(s, 0, sizeof(*s));
}

/* v is sorted by addr: a binary search finds the symbols starting before
 * the range's end, and a short walk back those ending inside it. */
size_t kf_syms_overlap(const struct kf_sym *v, size_t n, uint64_t a, uint64_t len,
		       const struct kf_sym **out, size_t max)
{
	size_t lo = 0, hi = n, count = 0;

	/* First index with addr >= a + len. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].addr < a + len)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Walk back over symbols starting before the end: those ending after
	 * a overlap; a 64 KiB look-back bounds the walk. */
	for (size_t i = lo; i-- > 0; ) {
		if (v[i].addr + 65536 < a)
			break;
		if (v[i].addr + v[i].size > a) {
			if (count < max)
				out[count] = &v[i];
			count++;
		}
	}
	/* Lowest address first. */
	for (size_t i = 0; i + 1 < (count < max ? count : max); i++)
		for (size_t j = i + 1; j < (count < max ? count : max); j++)
			if (out[j]->addr < out[i]->addr) {
				const struct kf_sym *t = out[i];

				out[i] = out[j];
				out[j] = t;
			}
	return count;
}

const struct kf_sym *kf_syms_func(const struct kf_syms *s, uint64_t pc)
{
	const struct kf_sym *out[1];

	return kf_syms_overlap(s->func, s->nfunc, pc, 1, out, 1) ? out[0] : NULL;
}
