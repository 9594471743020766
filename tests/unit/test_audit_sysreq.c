// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for config/sysreq.c: the needs file (fragments/systemd.needs)
 * read line by line, and the check of a small .config text against it,
 * with config.json's "systemd" object and the audit's SYSTEMD line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kf.h"
#include "../../config/sysreq.h"

static const char needs[] =
	"# a comment\n"
	"init systemd 252\n"
	"\n"
	"required CGROUPS y systemd's units are cgroups\n"
	"required UNIX y,m\n"
	"required SYSFS_DEPRECATED n udev fails\n"
	"  # indented comment\n"
	"recommended UEVENT_HELPER_PATH \"\" legacy hotplug\n"
	"recommended IPV6 y,m\n";

static void read_needs(struct kf_sysreqs *r)
{
	assert_int_equal(kf_sysreqs_read(r, "fragments/systemd.needs", needs), 0);
}

static void final_of(struct kf_fragset *fs, const char *text)
{
	kf_fragset_init(fs);
	assert_int_equal(kf_fragset_add(fs, "out/6.1/x/.config", text), 0);
}

static void reads_init_levels_values_notes(void **state)
{
	struct kf_sysreqs r;
	char *want;

	(void)state;
	read_needs(&r);
	assert_string_equal(r.init, "systemd");
	assert_string_equal(r.version, "252");
	assert_int_equal(r.n, 5);
	assert_string_equal(r.v[0].name, "CGROUPS");
	assert_true(r.v[0].required);
	assert_int_equal(r.v[0].line, 4);
	assert_string_equal(r.v[0].note, "systemd's units are cgroups");
	assert_int_equal(r.v[1].nvalues, 2);
	assert_string_equal(r.v[1].note, "");
	want = kf_sysreq_want(&r.v[1]);
	assert_string_equal(want, "y or m");
	free(want);
	assert_false(r.v[3].required);
	assert_string_equal(r.v[3].values[0], "\"\"");
	kf_sysreqs_free(&r);
}

static void bad_lines_are_named(void **state)
{
	struct kf_sysreqs r;

	(void)state;
	assert_int_equal(kf_sysreqs_read(&r, "n", "init systemd\nneeded CGROUPS y\n"
					 "required CONFIG_CGROUPS y\nrequired UNIX q\n"
					 "required NET\n"), 6);
	assert_non_null(strstr(r.err[0], "n:1: 'init' wants a name and a version"));
	assert_non_null(strstr(r.err[1], "n:2: 'needed' is not a level"));
	assert_non_null(strstr(r.err[2], "n:3: 'CONFIG_CGROUPS' is not a symbol name"));
	assert_non_null(strstr(r.err[3], "n:4: UNIX: value 'q' is none of"));
	assert_non_null(strstr(r.err[4], "n:5: 'required' wants a symbol and its values"));
	assert_non_null(strstr(r.err[5], "no 'init NAME VERSION' line"));	/* line 1's was bad */
	kf_sysreqs_free(&r);
	assert_int_equal(kf_sysreqs_read(&r, "n", "required NET y\n"), 1);
	assert_non_null(strstr(r.err[0], "no 'init NAME VERSION' line"));
	kf_sysreqs_free(&r);
	assert_int_equal(kf_sysreqs_read(&r, "/nonexistent/needs", NULL), 1);
	assert_non_null(strstr(r.err[0], "/nonexistent/needs:0: No such file"));
	kf_sysreqs_free(&r);
}

static void check_a_small_config(void **state)
{
	struct kf_sysreqs r;
	struct kf_fragset fs;

	(void)state;
	read_needs(&r);
	/* A tiny flavour: no cgroups, UNIX as a module, no sysfs layout. */
	final_of(&fs, "# CONFIG_CGROUPS is not set\nCONFIG_UNIX=m\nCONFIG_IPV6=y\n");
	assert_false(kf_sysreq_met(&r.v[0], &fs));
	assert_string_equal(kf_sysreq_final(&r.v[0], &fs), "n");
	assert_true(kf_sysreq_met(&r.v[1], &fs));
	assert_true(kf_sysreq_met(&r.v[2], &fs));	/* absent is n */
	assert_true(kf_sysreq_met(&r.v[3], &fs));	/* absent is "" */
	assert_int_equal(kf_sysreqs_missing(&r, &fs), 1);
	kf_fragset_free(&fs);
	/* Every way to get it wrong. */
	final_of(&fs, "CONFIG_SYSFS_DEPRECATED=y\nCONFIG_UEVENT_HELPER_PATH=\"/sbin/hotplug\"\n");
	assert_false(kf_sysreq_met(&r.v[2], &fs));
	assert_false(kf_sysreq_met(&r.v[3], &fs));
	assert_false(kf_sysreq_met(&r.v[4], &fs));
	assert_int_equal(kf_sysreqs_missing(&r, &fs), 3);
	kf_fragset_free(&fs);
	final_of(&fs, "CONFIG_CGROUPS=y\nCONFIG_UNIX=y\nCONFIG_UEVENT_HELPER_PATH=\"\"\n");
	assert_int_equal(kf_sysreqs_missing(&r, &fs), 0);
	assert_true(kf_sysreq_met(&r.v[3], &fs));
	kf_fragset_free(&fs);
	kf_sysreqs_free(&r);
}

/* What the tree would say (the audit asks the loaded kconfig). */
static struct kf_sym_where where(const char *name, void *arg)
{
	struct kf_sym_where w = { 1, NULL, NULL };

	(*(int *)arg)++;
	if (!strcmp(name, "CGROUPS")) {
		w.menu = kf_xstrdup("General setup > Control Group support");
		w.defined_at = kf_xstrdup("init/Kconfig:946");
	} else if (!strcmp(name, "UNIX")) {
		w.known = 0;
	}
	return w;
}

static void record_and_line(void **state)
{
	struct kf_sysreqs r;
	struct kf_fragset fs;
	json_t *rec, *m;
	int asked = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	read_needs(&r);
	final_of(&fs, "# CONFIG_CGROUPS is not set\n");
	rec = kf_sysreqs_record(&r, &fs, where, &asked);
	assert_int_equal(asked, 3);	/* the misses only: CGROUPS, UNIX, IPV6 */
	assert_true(json_is_false(json_object_get(rec, "ok")));
	assert_string_equal(json_string_value(json_object_get(rec, "init")), "systemd");
	assert_int_equal(json_integer_value(json_object_get(rec, "checked")), 5);
	assert_int_equal(json_array_size(json_object_get(rec, "missing")), 2);
	m = json_array_get(json_object_get(rec, "missing"), 0);
	assert_string_equal(json_string_value(json_object_get(m, "symbol")), "CGROUPS");
	assert_string_equal(json_string_value(json_object_get(m, "menu")),
			    "General setup > Control Group support");
	assert_string_equal(json_string_value(json_object_get(m, "defined_at")), "init/Kconfig:946");
	assert_string_equal(json_string_value(json_object_get(m, "final")), "n");
	m = json_array_get(json_object_get(rec, "missing"), 1);
	assert_string_equal(json_string_value(json_object_get(m, "want")), "y or m");
	assert_true(json_is_false(json_object_get(m, "in_tree")));
	assert_true(json_is_null(json_object_get(m, "menu")));
	m = json_array_get(json_object_get(rec, "recommended_missing"), 0);
	assert_string_equal(json_string_value(json_object_get(m, "symbol")), "IPV6");

	f = open_memstream(&text, &len);
	assert_non_null(f);
	kf_sysreqs_print(f, rec, "tiny");
	fclose(f);
	assert_string_equal(text, "  SYSTEMD tiny: cannot boot systemd 252, missing CGROUPS, UNIX "
			    "(menu paths: config.json \"systemd\"); 1 recommended not set\n");
	free(text);
	json_decref(rec);
	kf_fragset_free(&fs);

	/* Without a tree: nothing asked, menus null, all in the tree. */
	final_of(&fs, "CONFIG_CGROUPS=y\nCONFIG_UNIX=y\nCONFIG_IPV6=m\n");
	rec = kf_sysreqs_record(&r, &fs, NULL, NULL);
	assert_true(json_is_true(json_object_get(rec, "ok")));
	assert_int_equal(json_array_size(json_object_get(rec, "recommended_missing")), 0);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	kf_sysreqs_print(f, rec, "small");
	fclose(f);
	assert_string_equal(text, "  SYSTEMD small: has what systemd 252 requires of the kernel\n");
	free(text);
	json_decref(rec);
	kf_fragset_free(&fs);
	kf_sysreqs_free(&r);
}

/* The file the audit reads: it parses, and names the README's list. */
static void repo_needs_file_parses(void **state)
{
	static const char *const must[] = { "DEVTMPFS", "CGROUPS", "INOTIFY_USER", "SIGNALFD",
		"TIMERFD", "EPOLL", "NET", "UNIX", "SYSFS", "PROC_FS", "FHANDLE", "SYSFS_DEPRECATED" };
	struct kf_sysreqs r;
	size_t nreq = 0;

	(void)state;
	assert_int_equal(kf_sysreqs_read(&r, "fragments/systemd.needs", NULL), 0);
	assert_string_equal(r.init, "systemd");
	for (size_t i = 0; i < r.n; i++)
		nreq += (size_t)r.v[i].required;
	assert_int_equal(nreq, sizeof(must) / sizeof(*must));
	for (size_t k = 0; k < sizeof(must) / sizeof(*must); k++) {
		size_t i = 0;

		while (i < r.n && strcmp(r.v[i].name, must[k]) != 0)
			i++;
		assert_true(i < r.n && r.v[i].required);
	}
	kf_sysreqs_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_init_levels_values_notes),
		cmocka_unit_test(bad_lines_are_named),
		cmocka_unit_test(check_a_small_config),
		cmocka_unit_test(record_and_line),
		cmocka_unit_test(repo_needs_file_parses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
