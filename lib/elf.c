// SPDX-License-Identifier: GPL-2.0
/*
 * elf.c - the one ELF reader (elf.h), over libelf.
 */
#include "elf.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int kf_elf_open(struct kf_elf *f, const char *path, char *err, size_t es)
{
	Elf *e;
	GElf_Ehdr eh;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->machine = -1;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, es, "libelf: %s", elf_errmsg(-1));
		return -2;
	}
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		int saved = errno;

		snprintf(err, es, "%s: %s", path, strerror(saved));
		errno = saved;
		return -1;
	}
	e = elf_begin(f->fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &f->shstrndx) != 0) {
		int en = elf_errno();

		snprintf(err, es, "%s: not an ELF file%s%s%s", path, en ? " (" : "",
			 en ? elf_errmsg(en) : "", en ? ")" : "");
		if (e)
			elf_end(e);
		close(f->fd);
		f->fd = -1;
		return -2;
	}
	if (gelf_getehdr(e, &eh))
		f->machine = eh.e_machine;
	f->elf = e;
	return 0;
}

void kf_elf_close(struct kf_elf *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	f->elf = NULL;
	f->fd = -1;
}

int kf_elf_section(struct kf_elf *f, const char *name, struct kf_elf_section *s)
{
	Elf_Scn *scn = NULL;

	memset(s, 0, sizeof(*s));
	while ((scn = elf_nextscn(f->elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *n;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh))
			continue;
		n = elf_strptr(f->elf, f->shstrndx, sh.sh_name);
		if (!n || strcmp(n, name) != 0)
			continue;
		s->index = elf_ndxscn(scn);
		s->size = sh.sh_size;
		d = sh.sh_type == SHT_NOBITS ? NULL : elf_getdata(scn, NULL);
		if (d && d->d_buf) {
			s->data = d->d_buf;
			s->data_size = d->d_size;
		}
		return 0;
	}
	return -1;
}

size_t kf_elf_symbols(struct kf_elf *f, void (*fn)(const struct kf_elf_sym *, void *),
		      void *arg)
{
	Elf_Scn *scn = NULL;
	size_t count = 0;

	while ((scn = elf_nextscn(f->elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			struct kf_elf_sym s;
			int t;

			if (!gelf_getsym(d, (int)i, &sym))
				continue;
			s.name = elf_strptr(f->elf, sh.sh_link, sym.st_name);
			if (!s.name || !*s.name)
				continue;
			t = GELF_ST_TYPE(sym.st_info);
			s.type = t == STT_FUNC ? KF_ELF_FUNC : t == STT_OBJECT ? KF_ELF_OBJECT
									 : KF_ELF_OTHER;
			s.value = sym.st_value;
			s.size = sym.st_size;
			s.shndx = sym.st_shndx;
			count++;
			fn(&s, arg);
		}
	}
	return count;
}
