// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for bisect/cmdpaths.c, the seed's path move: the three forms
 * of an O= path (as given, resolved, relative as ccache writes it) moved in
 * one pass, a path only as a whole name ('/' or '=' after it), the logical
 * path as make's $(abspath) makes it, and the walk: the kernel's *.cmd
 * outside every tools directory and tools/' *.cmd and *.d moved with their
 * times kept, other files untouched.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define main cmdpaths_main
#include "../../bisect/cmdpaths.c" /* NOLINT(bugprone-suspicious-include): its statics are tested */
#undef main

static struct moves three(void)
{
	struct moves m = { 0 };

	add_form(&m, kf_xstrdup("/link/out/6.1/a"), kf_xstrdup("/link/out/6.1/b"), "/=");
	add_form(&m, kf_xstrdup("/real/out/6.1/a"), kf_xstrdup("/real/out/6.1/b"), "/=");
	add_form(&m, kf_xstrdup("../a/"), kf_xstrdup("../b/"), NULL);
	return m;
}

/* text moved by m, "(unchanged)" when nothing moved. */
static char *moved_text(const struct moves *m, const char *text)
{
	size_t len = 0;
	char *s = move_paths(m, text, strlen(text), &len);

	if (!s)
		return kf_xstrdup("(unchanged)");
	assert_int_equal(len, strlen(s));
	return s;
}

static void assert_moved(const struct moves *m, const char *text, const char *want)
{
	char *s = moved_text(m, text);

	assert_string_equal(s, want);
	free(s);
}

static void test_forms(void **state)
{
	struct moves m = three();

	(void)state;
	assert_moved(&m, "gcc -fdebug-prefix-map=/link/out/6.1/a=. -c x.c\n",
		     "gcc -fdebug-prefix-map=/link/out/6.1/b=. -c x.c\n");
	assert_moved(&m, "ld -o vmlinux /real/out/6.1/a/vmlinux.a /link/out/6.1/a/x.o\n",
		     "ld -o vmlinux /real/out/6.1/b/vmlinux.a /link/out/6.1/b/x.o\n");
	assert_moved(&m, "deps := ../../../a/tools/objtool/lib/inat-tables.c\n",
		     "deps := ../../../b/tools/objtool/lib/inat-tables.c\n");
	/* Only a whole name moves: not another flavour's directory, not a
	 * path at the end of the text with nothing after it. */
	assert_moved(&m, "/link/out/6.1/ab/x.o /real/out/6.1/a2=. ../ab/\n", "(unchanged)");
	assert_moved(&m, "/link/out/6.1/a", "(unchanged)");
	assert_moved(&m, "", "(unchanged)");
	moves_free(&m);
}

static void test_logical(void **state)
{
	char *s;

	(void)state;
	s = logical("/x/./y//z/../w/");
	assert_string_equal(s, "/x/y/w");
	free(s);
	s = logical("/..");
	assert_string_equal(s, "/");
	free(s);
	/* Relative: against the working directory. */
	assert_int_equal(chdir("/tmp"), 0);
	setenv("PWD", "/tmp", 1);
	s = logical("a/../b");
	assert_string_equal(s, "/tmp/b");
	free(s);
	/* A $PWD that is not the working directory is not believed. */
	setenv("PWD", "/nonexistent-kf", 1);
	s = logical("c");
	assert_non_null(strstr(s, "/c"));
	assert_null(strstr(s, "nonexistent"));
	free(s);
}

static void put(const char *path, const char *text, long mtime)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	if (mtime) {
		struct timespec ts[2] = { { mtime, 200 }, { mtime, 700 } };

		assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
	}
}

static char *text_of(const char *path)
{
	char *t = kf_read_file(path, NULL);

	assert_non_null(t);
	return t;
}

static void test_walk(void **state)
{
	char tmpl[] = "/tmp/kf-cmdpaths-XXXXXX", *d = mkdtemp(tmpl), *p;
	struct moves m = { 0 };
	struct stat st;
	const char *files[] = { "k/.x.o.cmd", "k/x.d", "arch/tools/.r.o.cmd",
				"tools/objtool/.c.o.cmd", "tools/objtool/.c.o.d", "tools/objtool/c.c" };

	(void)state;
	assert_non_null(d);
	add_form(&m, kf_xstrdup("/o/a"), kf_xstrdup("/o/b"), "/=");
	for (const char *dir = "k\0arch\0arch/tools\0tools\0tools/objtool\0"; *dir; dir += strlen(dir) + 1) {
		p = kf_xasprintf("%s/%s", d, dir);
		assert_int_equal(mkdir(p, 0755), 0);
		free(p);
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		p = kf_xasprintf("%s/%s", d, files[i]);
		put(p, "cmd := gcc /o/a/x.o\n", 1000000000);
		free(p);
	}
	assert_int_equal(walk(&m, d, 0), 1);
	p = kf_xasprintf("%s/tools", d);
	assert_int_equal(walk(&m, p, 1), 2);
	free(p);
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		/* moved: the kernel's .cmd, tools/' .cmd and .d */
		int want = i == 0 || i == 3 || i == 4;
		char *t;

		p = kf_xasprintf("%s/%s", d, files[i]);
		assert_int_equal(stat(p, &st), 0);	/* before a read sets its atime */
		t = text_of(p);
		assert_string_equal(t, want ? "cmd := gcc /o/b/x.o\n" : "cmd := gcc /o/a/x.o\n");
		assert_int_equal(st.st_mode & 0777, 0644 & ~0022);
		/* every file's times kept, to the nanosecond */
		assert_int_equal(st.st_mtim.tv_sec, 1000000000);
		assert_int_equal(st.st_mtim.tv_nsec, 700);
		assert_int_equal(st.st_atim.tv_nsec, 200);
		free(t);
		unlink(p);
		free(p);
	}
	for (const char *dir = "k\0arch/tools\0arch\0tools/objtool\0tools\0"; *dir; dir += strlen(dir) + 1) {
		p = kf_xasprintf("%s/%s", d, dir);
		assert_int_equal(rmdir(p), 0);
		free(p);
	}
	assert_int_equal(rmdir(d), 0);
	moves_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_logical),
		cmocka_unit_test(test_walk),
	};

	umask(022);
	kf_prog = "test_bisect_cmdpaths";
	return cmocka_run_group_tests(tests, NULL, NULL);
}
