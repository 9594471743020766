// SPDX-License-Identifier: GPL-2.0
/*
 * attrib.c - kernel objects of a guest-physical line (attrib.h).
 */
#include "attrib.h"
#include "../lib/kf.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int kf_syms_load(struct kf_syms *s, const char *vmlinux, char *err, size_t es)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx, pcpu_ndx = 0;
	int fd, found = 0;
	Elf *e;

	memset(s, 0, sizeof(*s));
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, es, "libelf: %s", elf_errmsg(-1));
		return -1;
	}
	fd = open(vmlinux, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, es, "%s: %s; run make build", vmlinux, strerror(errno));
		return -1;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_getshdrstrndx(e, &shstrndx)) {
		snprintf(err, es, "%s: not an ELF file (%s)", vmlinux, elf_errmsg(-1));
		if (e)
			elf_end(e);
		close(fd);
		return -1;
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".data..percpu"))
			pcpu_ndx = elf_ndxscn(scn);
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name;
			int type;

			if (!gelf_getsym(d, (int)i, &sym))
				continue;
			name = elf_strptr(e, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			found = 1;
			type = GELF_ST_TYPE(sym.st_info);
			if (!strcmp(name, "_text"))
				s->text = sym.st_value;
			else if (!strcmp(name, "_end"))
				s->end = sym.st_value;
			if (type == STT_FUNC && sym.st_size)
				push(&s->func, &s->nfunc, sym.st_value, sym.st_size, name);
			else if (type == STT_OBJECT && sym.st_size && pcpu_ndx &&
				 sym.st_shndx == pcpu_ndx)
				push(&s->pcpu, &s->npcpu, sym.st_value, sym.st_size, name);
			else if (type == STT_OBJECT && sym.st_size)
				push(&s->obj, &s->nobj, sym.st_value, sym.st_size, name);
		}
	}
	elf_end(e);
	close(fd);
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
