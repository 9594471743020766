/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elf.h - the one ELF reader of the host tools (libelf, link with -lelf):
 * an object's machine, a section by name (its index, size and bytes) and
 * its symbol table. build-facts (vmlinux's section sizes and code bytes),
 * c2c-record (vmlinux's symbols for attribution) and farm-check (an
 * object's .comment and machine) read ELF through it and nothing else.
 */
#ifndef KF_ELF_H
#define KF_ELF_H

#include <stddef.h>
#include <stdint.h>

struct kf_elf {
	int fd;
	void *elf;		/* Elf *, opaque to the callers */
	size_t shstrndx;
	int machine;		/* e_machine, -1 if the header cannot be read */
};

/* kf_elf_open: 0; -1 the file cannot be opened (errno set); -2 not an ELF
 * file (or libelf failed): err says why, naming the file. */
int kf_elf_open(struct kf_elf *f, const char *path, char *err, size_t errsize);
void kf_elf_close(struct kf_elf *f);

struct kf_elf_section {
	size_t index;		/* section index (a symbol's st_shndx) */
	uint64_t size;		/* sh_size */
	const void *data;	/* its bytes, NULL for SHT_NOBITS or unreadable */
	size_t data_size;
};

/* The first section called name: 0, or -1 when there is none. */
int kf_elf_section(struct kf_elf *f, const char *name, struct kf_elf_section *s);

enum kf_elf_sym_type { KF_ELF_OTHER, KF_ELF_FUNC, KF_ELF_OBJECT };

struct kf_elf_sym {
	const char *name;	/* never NULL; valid during the call only */
	uint64_t value, size;
	size_t shndx;
	enum kf_elf_sym_type type;
};

/* Calls fn for every named symbol of every SHT_SYMTAB section; returns how
 * many there were. */
size_t kf_elf_symbols(struct kf_elf *f, void (*fn)(const struct kf_elf_sym *, void *),
		      void *arg);

#endif /* KF_ELF_H */
