// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/recipe.c: every error names file, line and a fix, and
 * the one writer keeps what it does not change and writes nothing bad.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/kf.h"

/* The recipe is written as <tmpdir>/<name>.flavour: its name is checked. */
static int read_named(const char *name, const char *text, struct kf_recipe *r,
		      char *err, size_t n)
{
	char dir[] = "/tmp/kf-recipe-XXXXXX";
	char *path;
	FILE *f;
	int rc;

	assert_non_null(mkdtemp(dir));
	path = kf_xasprintf("%s/%s.flavour", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	rc = kf_recipe_read(path, r, err, n);
	unlink(path);
	rmdir(dir);
	free(path);
	return rc;
}

static const char *good =
	"# comment\n"
	"description = Test flavour\n"
	"fragments   = base cpu-k8\n"
	"cpu         = opteron\n"
	"memory      = 512M\n"
	"smp         = 2\n"
	"cmdline     =\n"
	"base        = tinyconfig\n"
	"group       = default\n";

static int read_text(const char *text, struct kf_recipe *r, char *err, size_t n)
{
	return read_named("test", text, r, err, n);
}

static void reads_every_key(void **state)
{
	struct kf_recipe r;
	char err[512];

	(void)state;
	assert_int_equal(read_text(good, &r, err, sizeof(err)), 0);
	assert_string_equal(r.value[KF_FRAGMENTS], "base cpu-k8");
	assert_string_equal(r.value[KF_CPU], "opteron");
	assert_string_equal(r.value[KF_CMDLINE], "");
	assert_int_equal(r.line[KF_MEMORY], 5);
	kf_recipe_free(&r);
}

static void unknown_key_names_line(void **state)
{
	struct kf_recipe r;
	char err[512], *text = kf_xasprintf("%smemroy = 1G\n", good);

	(void)state;
	assert_int_equal(read_text(text, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":10: unknown key 'memroy'"));
	assert_non_null(strstr(err, "description, fragments"));
	free(text);
}

static void missing_key_is_error(void **state)
{
	struct kf_recipe r;
	char err[512];

	(void)state;
	assert_int_equal(read_text("description = x\nfragments = base\n", &r, err,
				   sizeof(err)), -1);
	assert_non_null(strstr(err, "required key 'cpu' is missing"));
}

static void line_without_equals(void **state)
{
	struct kf_recipe r;
	char err[512];

	(void)state;
	assert_int_equal(read_text("description = x\nfragments base\n", &r, err,
				   sizeof(err)), -1);
	assert_non_null(strstr(err, ":2: 'fragments base' is not 'key = value'"));
}

static void duplicate_key(void **state)
{
	struct kf_recipe r;
	char err[512], *text = kf_xasprintf("%scpu = qemu64\n", good);

	(void)state;
	assert_int_equal(read_text(text, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":10: 'cpu' set again (first on line 4)"));
	free(text);
}

/* good with its base line (line 8) replaced by 'base = <b>'. */
static int read_base(const char *b, struct kf_recipe *r, char *err, size_t n)
{
	char *text = kf_xstrdup(good), *line = strstr(text, "base        = tinyconfig");
	char *rest, *mod;
	int rc;

	assert_non_null(line);
	rest = strchr(line, '\n');
	mod = kf_xasprintf("%.*sbase = %s%s", (int)(line - text), text, b, rest);
	rc = read_text(mod, r, err, n);
	free(mod);
	free(text);
	return rc;
}

static void bases(void **state)
{
	static const char *const fine[] = { "debian:amd64_none_cloud-amd64", "file:configs/team.config" };
	static const char *const bad[] = { "debian:", "file:/etc/x.config", "file:../x.config",
					   "tinyconf", "debian:a/b" };
	struct kf_recipe r;
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++) {
		assert_int_equal(read_base(fine[i], &r, err, sizeof(err)), 0);
		assert_string_equal(r.value[KF_BASE], fine[i]);
		kf_recipe_free(&r);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(read_base(bad[i], &r, err, sizeof(err)), -1);
		assert_non_null(strstr(err, ":8: base '"));
		assert_non_null(strstr(err, "is not tinyconfig, debian:<name>"));
	}
}

static void group_is_one_word(void **state)
{
	struct kf_recipe r;
	char err[512], *text = kf_xstrdup(good);

	(void)state;
	assert_int_equal(read_text(text, &r, err, sizeof(err)), 0);
	assert_string_equal(r.value[KF_GROUP], "default");
	kf_recipe_free(&r);
	strcpy(strstr(text, "group       = default"), "group = two words\n");
	assert_int_equal(read_text(text, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":9: group 'two words' is not one word"));
	free(text);
}

/* The good recipe with another memory value (it is "512M" on line 5). */
static int read_memory(const char *value, struct kf_recipe *r, char *err, size_t n)
{
	const char *m = strstr(good, "512M\n");
	char *text = kf_xasprintf("%.*s%s%s", (int)(m - good), good, value, m + 4);
	int rc = read_text(text, r, err, n);

	free(text);
	return rc;
}

/* memory: QEMU's -m as written, or "<below 4G>+<above 4G>" that we check. */
static void memory_forms(void **state)
{
	static const char *const bad[] = { "1G+", "+256M", "1G+256K", "x+1G", "1G+0", "1G+2G+3G" };
	unsigned long low = 0, high = 0;
	struct kf_recipe r;
	char err[512];

	(void)state;
	assert_int_equal(kf_recipe_memory_split("5G", &low, &high), 0);
	assert_int_equal(kf_recipe_memory_split("1G+256M", &low, &high), 1);
	assert_int_equal(low, 1024);
	assert_int_equal(high, 256);
	assert_int_equal(kf_recipe_memory_split("768+1g", &low, &high), 1);
	assert_int_equal(low, 768);
	assert_int_equal(high, 1024);
	assert_int_equal(read_memory("1G+256M", &r, err, sizeof(err)), 0);
	kf_recipe_free(&r);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(kf_recipe_memory_split(bad[i], &low, &high), -1);
		assert_int_equal(read_memory(bad[i], &r, err, sizeof(err)), -1);
		assert_non_null(strstr(err, ":5: memory '"));
		assert_non_null(strstr(err, "e.g. 'memory = 1G+256M'"));
	}
	/* more below 4 GiB than QEMU's pc machine puts there */
	assert_int_equal(read_memory("3585M+1G", &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":5: memory '3585M+1G': at most 3G fit below 4 GiB"));
}

/* The file name is the flavour name, and follows the one rule (lib/recipe.c). */
static void name_follows_the_rule(void **state)
{
	struct kf_recipe r;
	char err[512];

	(void)state;
	assert_int_equal(read_named("k8-lowlat_2", good, &r, err, sizeof(err)), 0);
	assert_string_equal(r.name, "k8-lowlat_2");
	kf_recipe_free(&r);
	assert_int_equal(read_named("Core2", good, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/Core2.flavour: 'Core2' is not a flavour name: use lowercase"));
	assert_non_null(strstr(err, "rename the file"));
	assert_int_equal(read_named("_x", good, &r, err, sizeof(err)), -1);
	assert_true(kf_flavour_name_ok("core2"));
	assert_false(kf_flavour_name_ok("a b"));
	assert_false(kf_flavour_name_ok("abcdefghijklmnopqrstuvwxyz0123456"));	/* 33 */
}

/* A name comes from a recipe's path only (issue 47): any other path, a file
 * of a flavour's O= directory among them, gives no folder's name. */
static void name_of_a_recipe_path(void **state)
{
	static const char *const cases[][2] = {
		{ "flavours/mpsc.flavour", "mpsc" },
		{ "/x/y/generic.flavour", "generic" },
		{ "k8.flavour", "k8" },
		{ "out/6.1/mpsc/.config", ".config" },
		{ "out/6.1/mpsc/", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *name = kf_flavour_of(cases[i][0]);

		assert_string_equal(name, cases[i][1]);
		free(name);
	}
}

/* A scratch directory for recipes written by kf_recipe_write. */
struct scratch {
	char dir[32];
	char *path;
};

static void scratch_open(struct scratch *s, const char *name, const char *text)
{
	strcpy(s->dir, "/tmp/kf-recipe-XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	s->path = kf_xasprintf("%s/%s.flavour", s->dir, name);
	if (text)
		assert_int_equal(kf_write_atomic(s->path, text, strlen(text)), 0);
}

static void scratch_close(struct scratch *s)
{
	unlink(s->path);
	rmdir(s->dir);
	free(s->path);
}

/* The file now is want. */
static void file_is(const struct scratch *s, const char *want)
{
	char *now = kf_read_file(s->path, NULL);

	assert_non_null(now);
	assert_string_equal(now, want);
	free(now);
}

/* An edit changes the value of a key and nothing else. */
static void edit_keeps_other_lines(void **state)
{
	static const char text[] =
		"# k8: a comment\n"
		"\n"
		"description=AMD K8\n"
		"fragments   = base cpu-k8 microcode\n"
		"  # indented comment\n"
		"cpu         = opteron\n"
		"memory      = 512M\n"
		"smp         = 2\n"
		"cmdline     =\n"
		"base        = tinyconfig\n"
		"group  =  default";
	struct scratch s;
	struct kf_recipe r;
	char err[512];

	(void)state;
	scratch_open(&s, "k8", text);
	assert_int_equal(kf_recipe_read(s.path, &r, err, sizeof(err)), 0);
	kf_recipe_set(&r, KF_FRAGMENTS, "base cpu-k8");
	kf_recipe_set(&r, KF_CMDLINE, "quiet");
	kf_recipe_set(&r, KF_DESCRIPTION, "AMD K8, edited");
	assert_int_equal(kf_recipe_write(s.path, &r, "# ignored: the recipe exists\n", err, sizeof(err)), 0);
	file_is(&s,
		"# k8: a comment\n"
		"\n"
		"description= AMD K8, edited\n"
		"fragments   = base cpu-k8\n"
		"  # indented comment\n"
		"cpu         = opteron\n"
		"memory      = 512M\n"
		"smp         = 2\n"
		"cmdline     = quiet\n"
		"base        = tinyconfig\n"
		"group  =  default");
	/* Back to empty: no blank after '='. */
	kf_recipe_set(&r, KF_CMDLINE, "");
	assert_int_equal(kf_recipe_write(s.path, &r, NULL, err, sizeof(err)), 0);
	kf_recipe_free(&r);
	assert_int_equal(kf_recipe_read(s.path, &r, err, sizeof(err)), 0);
	assert_string_equal(r.value[KF_CMDLINE], "");
	assert_int_equal(r.line[KF_CMDLINE], 9);
	assert_string_equal(r.value[KF_FRAGMENTS], "base cpu-k8");
	kf_recipe_free(&r);
	{
		char *now = kf_read_file(s.path, NULL);

		assert_non_null(strstr(now, "\ncmdline     =\nbase"));
		free(now);
	}
	scratch_close(&s);
}

/* A new recipe: the header, then every key aligned as the shipped ones. */
static void writes_a_new_recipe(void **state)
{
	struct scratch s;
	struct kf_recipe r = { 0 };
	char err[512];
	static const char *const v[KF_NR_KEYS] = { "Test flavour", "base cpu-k8", "opteron",
						   "512M", "2", "", "tinyconfig", "default" };

	(void)state;
	scratch_open(&s, "test", NULL);
	for (int k = 0; k < KF_NR_KEYS; k++)
		kf_recipe_set(&r, k, v[k]);
	assert_int_equal(kf_recipe_write(s.path, &r, "# comment\n", err, sizeof(err)), 0);
	file_is(&s, good);
	kf_recipe_free(&r);
	scratch_close(&s);
}

/* What a reader would refuse is not written: the error names the line. */
static void refuses_what_readers_refuse(void **state)
{
	struct scratch s;
	struct kf_recipe r;
	char err[512];

	(void)state;
	scratch_open(&s, "test", good);
	assert_int_equal(kf_recipe_read(s.path, &r, err, sizeof(err)), 0);
	kf_recipe_set(&r, KF_MEMORY, "4G+1G");
	assert_int_equal(kf_recipe_write(s.path, &r, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/test.flavour:5: memory '4G+1G': at most 3G fit below 4 GiB"));
	kf_recipe_set(&r, KF_MEMORY, "512M");
	kf_recipe_set(&r, KF_CMDLINE, "a\nb");	/* a second line: not 'key = value' */
	assert_int_equal(kf_recipe_write(s.path, &r, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/test.flavour:8: 'b' is not 'key = value'"));
	kf_recipe_set(&r, KF_CMDLINE, "");
	kf_recipe_set(&r, KF_GROUP, "");
	assert_int_equal(kf_recipe_write(s.path, &r, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":9: 'group' is empty; give it a value"));
	file_is(&s, good);
	kf_recipe_free(&r);
	/* A broken recipe on disk is not edited. */
	assert_int_equal(kf_write_atomic(s.path, "description = x\n", 16), 0);
	assert_int_equal(kf_recipe_read(s.path, &r, err, sizeof(err)), -1);
	{
		struct kf_recipe w = { 0 };

		kf_recipe_set(&w, KF_CPU, "qemu64");
		assert_int_equal(kf_recipe_write(s.path, &w, NULL, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "/test.flavour:2: required key 'fragments' is missing"));
		kf_recipe_free(&w);
	}
	file_is(&s, "description = x\n");
	scratch_close(&s);
	/* A new recipe under a name that is no flavour name is not written. */
	scratch_open(&s, "Core2", NULL);
	{
		struct kf_recipe w = { 0 };

		kf_recipe_set(&w, KF_CPU, "qemu64");
		assert_int_equal(kf_recipe_write(s.path, &w, NULL, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "'Core2' is not a flavour name"));
		kf_recipe_free(&w);
	}
	assert_int_equal(access(s.path, F_OK), -1);
	scratch_close(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_every_key),
		cmocka_unit_test(unknown_key_names_line),
		cmocka_unit_test(missing_key_is_error),
		cmocka_unit_test(line_without_equals),
		cmocka_unit_test(duplicate_key),
		cmocka_unit_test(bases),
		cmocka_unit_test(group_is_one_word),
		cmocka_unit_test(memory_forms),
		cmocka_unit_test(name_follows_the_rule),
		cmocka_unit_test(name_of_a_recipe_path),
		cmocka_unit_test(edit_keeps_other_lines),
		cmocka_unit_test(writes_a_new_recipe),
		cmocka_unit_test(refuses_what_readers_refuse),
	};

	return cmocka_run_group_tests_name("recipe", tests, NULL, NULL);
}
