// SPDX-License-Identifier: GPL-2.0
/* Unit tests for lib/elf.c, the one ELF reader, on this test's own binary:
 * its machine, its .comment (the compiler's ident), its symbols. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../lib/elf.h"

static const char *self = "/proc/self/exe";

struct seen {
	int main_func;
	size_t text_ndx, main_ndx;
};

static void on_sym(const struct kf_elf_sym *s, void *arg)
{
	struct seen *n = arg;

	if (!strcmp(s->name, "main") && s->type == KF_ELF_FUNC && s->size > 0) {
		n->main_func = 1;
		n->main_ndx = s->shndx;
	}
}

/* This binary: x86-64, gcc's ident in .comment, main a function in .text. */
static void test_self(void **state)
{
	struct kf_elf f;
	struct kf_elf_section sec;
	struct seen n = { 0, 0, 0 };
	char err[256];

	(void)state;
	assert_int_equal(kf_elf_open(&f, self, err, sizeof(err)), 0);
	assert_int_equal(f.machine, EM_X86_64);
	assert_int_equal(kf_elf_section(&f, ".comment", &sec), 0);
	assert_non_null(sec.data);
	assert_true(sec.data_size > 4);
	assert_non_null(memmem(sec.data, sec.data_size, "GCC", 3));
	assert_int_equal(kf_elf_section(&f, ".text", &sec), 0);
	assert_true(sec.size > 0);
	n.text_ndx = sec.index;
	assert_true(kf_elf_symbols(&f, on_sym, &n) > 10);
	assert_true(n.main_func);
	assert_int_equal(n.main_ndx, n.text_ndx);
	assert_int_equal(kf_elf_section(&f, ".no-such-section", &sec), -1);
	kf_elf_close(&f);
}

/* A missing file is -1 with errno; a file that is not ELF is -2, named. */
static void test_errors(void **state)
{
	struct kf_elf f;
	char err[256];

	(void)state;
	errno = 0;
	assert_int_equal(kf_elf_open(&f, "/nonexistent/vmlinux", err, sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "/nonexistent/vmlinux"));
	assert_int_equal(kf_elf_open(&f, "/proc/self/cmdline", err, sizeof(err)), -2);
	assert_non_null(strstr(err, "/proc/self/cmdline: not an ELF file"));
	kf_elf_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
