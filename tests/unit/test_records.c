// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/records.c: the typed readers of config.json,
 * build.json and boot/<cpu>.json (every field, missing ones missing), the
 * header check (another kind, no format, a newer format: each error names
 * the file and the fix), the current-boot rule and kf_boots_load's split
 * and order; and the real records of tests/data/report.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../lib/kf.h"
#include "../../lib/records.h"

#define FIXTURE "tests/data/report/out/6.1"
#define SHA_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define SHA_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

static char dir[] = "/tmp/kf-records-XXXXXX";

/* dir/name holding text (subfolders made); the path, to free. */
static char *put(const char *name, const char *text)
{
	char *path = kf_xasprintf("%s/%s", dir, name), *slash = strrchr(path, '/');
	FILE *f;

	*slash = '\0';
	kf_mkdir_p(path);
	*slash = '/';
	f = fopen(path, "w");
	if (!f)
		kf_die(2, "%s: cannot write it", path);
	fputs(text, f);
	fclose(f);
	return path;
}

/* ---- what a reader says, from a child (it may exit) ----------------------- */

static const char *child_path;
static enum kf_need child_need;

/* Read child_path as a boot record; exit 10 when read, 11 when not. */
static void read_boot(void)
{
	struct kf_boot_rec b;
	int rc = kf_boot_rec_read(&b, child_path, child_need, "the fix");

	kf_boot_rec_free(&b);
	fflush(stderr);
	_exit(rc ? 11 : 10);
}

/* What fn writes to stderr in a child, and the child's exit status. */
static char *said_by(void (*fn)(void), int *exit_status)
{
	char err[sizeof(dir) + 8], *text;
	pid_t pid;
	int status;

	snprintf(err, sizeof(err), "%s/stderr", dir);
	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (!freopen(err, "w", stderr))
			_exit(3);
		fn();
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	*exit_status = WEXITSTATUS(status);
	text = kf_read_file(err, NULL);
	assert_non_null(text);
	unlink(err);
	return text;
}

static char *said_reading(const char *path, enum kf_need need, int *exit_status)
{
	child_path = path;
	child_need = need;
	return said_by(read_boot, exit_status);
}

/* ---- boot records ------------------------------------------------------------ */

static const char boot_text[] =
	"{\"record\": \"boot\", \"format\": 1, \"flavour\": \"mpsc\", \"kver\": \"6.1\",\n"
	" \"release\": \"6.1.192\", \"cpu\": \"nocona\", \"cpu_string\": \"qemu64,+pni\",\n"
	" \"qemu_version\": null, \"command\": [\"qemu-system-x86_64\", 7, \"-m\"],\n"
	" \"cmdline\": \"console=ttyS0\", \"bzimage_sha256\": \"" SHA_A "\",\n"
	" \"verdict\": \"test-fail\", \"expected\": \"pass\", \"exit_status\": 33,\n"
	" \"wall_seconds\": 3.1, \"guest_seconds\": null,\n"
	" \"ktap\": {\"passed\": 1, \"failed\": 1, \"skipped\": 0, \"results\": [\n"
	"   {\"suite\": \"x86_flavour\", \"name\": \"a\", \"ok\": true},\n"
	"   {\"suite\": \"x86_flavour\", \"name\": \"b\", \"ok\": false, \"directive\": \"SKIP no\"}]},\n"
	" \"warnings\": [\"BUG: x\"],\n"
	" \"console\": {\"swiotlb_mapped\": true, \"hwalign\": 128, \"microcode_updated\": false,\n"
	"             \"end_marker\": true},\n"
	" \"facts\": {\"uname.release\": \"6.1.192\", \"bad\": 6, \"probe.l1_cache_bytes\": \"128\"}}\n";

/* Every field of a full record; a fact or command word of another type is left out. */
static void test_boot_reads_every_field(void **state)
{
	char *path = put("full/boot/nocona.json", boot_text);
	struct kf_boot_rec b;

	(void)state;
	assert_int_equal(kf_boot_rec_read(&b, path, KF_MUST, "unused"), 0);
	assert_string_equal(b.h.path, path);
	assert_int_equal(b.h.format, 1);
	assert_string_equal(b.h.flavour, "mpsc");
	assert_string_equal(b.h.kver, "6.1");
	assert_string_equal(b.h.release, "6.1.192");
	assert_string_equal(b.cpu, "nocona");
	assert_string_equal(b.cpu_string, "qemu64,+pni");
	assert_null(b.qemu_version);
	assert_int_equal(b.ncommand, 2);
	assert_string_equal(b.command[1], "-m");
	assert_string_equal(b.cmdline, "console=ttyS0");
	assert_string_equal(b.bzimage_sha256, SHA_A);
	assert_string_equal(b.verdict, "test-fail");
	assert_string_equal(b.expected, "pass");
	assert_int_equal(b.exit_status, 33);
	assert_true(b.wall_seconds == 3.1);
	assert_true(isnan(b.guest_seconds));
	assert_int_equal(b.ktap_passed, 1);
	assert_int_equal(b.ktap_failed, 1);
	assert_int_equal(b.ktap_skipped, 0);
	assert_int_equal(b.ncases, 2);
	assert_string_equal(b.cases[0].name, "a");
	assert_int_equal(b.cases[0].ok, 1);
	assert_null(b.cases[0].directive);
	assert_int_equal(b.cases[1].ok, 0);
	assert_string_equal(b.cases[1].directive, "SKIP no");
	assert_int_equal(b.nwarnings, 1);
	assert_string_equal(b.warnings[0], "BUG: x");
	assert_int_equal(b.has_console, 1);
	assert_int_equal(b.swiotlb_mapped, 1);
	assert_int_equal(b.microcode_updated, 0);
	assert_int_equal(b.end_marker, 1);
	assert_int_equal(b.hwalign, 128);
	assert_int_equal(b.nfacts, 2);
	assert_string_equal(b.facts[0].key, "uname.release");
	assert_string_equal(kf_boot_fact(&b, "probe.l1_cache_bytes"), "128");
	assert_null(kf_boot_fact(&b, "bad"));
	kf_boot_rec_free(&b);
	assert_null(b.cpu);
	unlink(path);
	free(path);
}

/* A header and nothing else, or members of another type: all missing. */
static void test_boot_missing_stays_missing(void **state)
{
	char *path = put("bare.json", "{\"record\": \"boot\", \"format\": 1, \"cpu\": 5,\n"
			 " \"wall_seconds\": \"3\", \"ktap\": [], \"console\": null, \"facts\": []}\n");
	struct kf_boot_rec b;

	(void)state;
	assert_int_equal(kf_boot_rec_read(&b, path, KF_MUST, "unused"), 0);
	assert_null(b.h.flavour);
	assert_null(b.cpu);
	assert_null(b.verdict);
	assert_null(b.bzimage_sha256);
	assert_int_equal(b.ncommand, 0);
	assert_int_equal(b.exit_status, -1);
	assert_true(isnan(b.wall_seconds));
	assert_int_equal(b.ktap_passed, -1);
	assert_int_equal(b.ncases, 0);
	assert_int_equal(b.has_console, 0);
	assert_int_equal(b.swiotlb_mapped, -1);
	assert_int_equal(b.hwalign, -1);
	assert_int_equal(b.nfacts, 0);
	kf_boot_rec_free(&b);
	/* no file: -1, and every field missing too */
	assert_int_equal(kf_boot_rec_read(&b, "/nonexistent/boot/x.json", KF_QUIET, NULL), -1);
	assert_null(b.h.path);
	assert_int_equal(b.exit_status, -1);
	assert_true(isnan(b.wall_seconds));
	assert_int_equal(b.end_marker, -1);
	kf_boot_rec_free(&b);
	unlink(path);
	free(path);
}

/* ---- c2c records ---------------------------------------------------------------- */

/* A real record of 5 pipe runs (tests/data/c2c/README), then one with
 * members missing or of another type: missing, nothing made up. */
static void test_c2c_record(void **state)
{
	struct kf_c2c_rec c;
	char *path;

	(void)state;
	assert_int_equal(kf_c2c_rec_read(&c, "tests/data/c2c/pipe-generic.json", KF_MUST, ""), 0);
	assert_string_equal(c.h.flavour, "generic");
	assert_string_equal(c.workload, "pipe");
	assert_string_equal(c.count, "kernel");
	assert_string_equal(c.cpu, "nocona");
	assert_int_equal(c.runs, 5);
	assert_int_equal(c.iterations, 2000);
	assert_int_equal(c.vcpus, 2);
	assert_string_equal(c.memory, "1G");
	assert_int_equal(c.smp, 2);
	assert_string_equal(c.tcg, "multi");
	assert_true(c.size64.load_hitm.median > 0);
	assert_true(c.size64.load_hitm.min <= c.size64.load_hitm.median &&
		    c.size64.load_hitm.median <= c.size64.load_hitm.max);
	assert_true(fabs(c.size128.load_hitm.per_iteration * 2000 - c.size128.load_hitm.median) < 1e-6);
	assert_true(c.size128.load_hitm_true.median + c.size128.load_hitm_false.median > 0);
	assert_true(c.size128.store_hitm.median > 0 && c.size128.rmw.median > 0);
	/* fewer distinct lines of 128 bytes than of 64 */
	assert_true(c.size128.lines.median < c.size64.lines.median);
	assert_true(c.only128_load.median > 0 && c.only64_load.median > 0);
	assert_true(c.insns_kernel.median > 0 && !isnan(c.wall_seconds.median));
	assert_true(c.nlines > 10);
	assert_true(c.lines[0].size == 64 || c.lines[0].size == 128);
	assert_true(!strncmp(c.lines[0].addr, "0x", 2) && !strncmp(c.lines[0].pc, "0x", 2));
	/* most HITMs first */
	assert_true(c.lines[0].load_hitm.median + c.lines[0].store_hitm.median >=
		    c.lines[c.nlines - 1].load_hitm.median + c.lines[c.nlines - 1].store_hitm.median);
	/* the lines with HITMs at 128 bytes only: most first, both sides named */
	assert_true(c.npadlines > 0);
	assert_true(c.padlines[0].hitm_128_only.median >=
		    c.padlines[c.npadlines - 1].hitm_128_only.median);
	assert_true(c.padlines[0].nfunctions > 0 && c.padlines[0].nfunctions_other > 0);
	assert_non_null(c.padlines[0].addr);
	kf_c2c_rec_free(&c);

	path = put("c2c/bare.json", "{\"record\": \"c2c\", \"format\": 1, \"runs\": \"5\",\n"
		   " \"figures\": {\"64\": {\"load_hitm\": {\"median\": 3}}}, \"lines\": [1, {\"size\": 64}]}\n");
	assert_int_equal(kf_c2c_rec_read(&c, path, KF_MUST, "unused"), 0);
	assert_null(c.workload);
	assert_null(c.memory);
	assert_int_equal(c.smp, -1);
	assert_int_equal(c.runs, -1);
	assert_true(c.size64.load_hitm.median == 3);
	assert_true(isnan(c.size64.load_hitm.spread));
	assert_true(isnan(c.size128.load_hitm.median));
	assert_true(isnan(c.only128_load.median));
	assert_int_equal(c.npadlines, 0);
	assert_null(c.tcg);
	assert_true(isnan(c.insns_kernel.median));
	assert_int_equal(c.nlines, 1);
	assert_int_equal(c.lines[0].size, 64);
	assert_null(c.lines[0].addr);
	assert_int_equal(c.lines[0].nobjects, -1);
	assert_int_equal(c.lines[0].percpu_cpu, -1);
	assert_int_equal(c.lines[0].nobjects_kept, 0);
	assert_null(c.kernel_text_phys);
	assert_int_equal(c.lines[0].nfunctions_kept, 0);
	assert_int_equal(c.lines[0].nfunctions, -1);
	kf_c2c_rec_free(&c);
	unlink(path);
	free(path);
	/* A line's functions (every HITM's instruction): a nameless one and a
	 * number are skipped, the rest kept in order. */
	path = put("c2c/fns.json", "{\"record\": \"c2c\", \"format\": 1, \"lines\": [{\"size\": 128,\n"
		   " \"functions\": [{\"name\": \"pipe_write\", \"hitm\": 1000}, {\"hitm\": 3}, 7,\n"
		   " {\"name\": \"pipe_read\", \"hitm\": 7.5}], \"nfunctions\": 9}]}\n");
	assert_int_equal(kf_c2c_rec_read(&c, path, KF_MUST, "unused"), 0);
	assert_int_equal(c.nlines, 1);
	assert_int_equal(c.lines[0].nfunctions, 9);
	assert_int_equal(c.lines[0].nfunctions_kept, 2);
	assert_string_equal(c.lines[0].functions[0].name, "pipe_write");
	assert_true(c.lines[0].functions[0].hitm == 1000);
	assert_string_equal(c.lines[0].functions[1].name, "pipe_read");
	assert_true(c.lines[0].functions[1].hitm == 7.5);
	kf_c2c_rec_free(&c);
	/* a boot record is not a c2c record */
	assert_int_equal(kf_c2c_rec_read(&c, FIXTURE "/generic/boot/nocona.json", KF_QUIET, ""), -1);
	kf_c2c_rec_free(&c);
	unlink(path);
	free(path);
}

/* ---- the header check ---------------------------------------------------------- */

/* Another kind, no format, a newer format: -1, and "path: what; fix" said
 * with every need (KF_MUST: exit 2); a missing file is said only when asked. */
static void test_header_errors(void **state)
{
	static const struct {
		const char *name, *text, *what, *fix;
	} bad[] = {
		{ "kind.json", "{\"record\": \"build\", \"format\": 1}",
		  "a \"build\" record where a \"boot\" record belongs", "the fix" },
		{ "noformat.json", "{\"record\": \"boot\", \"cpu\": \"nocona\"}",
		  "no \"format\" in its header (a record from before formats, or not kflavour's)",
		  "remove it, or run make clean" },
		{ "newer.json", "{\"record\": \"boot\", \"format\": 2}",
		  "written by a newer kflavour (format 2, this one reads 1)",
		  "remove it, or run make clean" },
	};
	static const enum kf_need needs[] = { KF_QUIET, KF_WARN, KF_MUST };
	char *missing = kf_xasprintf("%s/none.json", dir), *said, *path, *want;
	int rc;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		path = put(bad[i].name, bad[i].text);
		want = kf_xasprintf("test_records: %s: %s; %s\n", path, bad[i].what, bad[i].fix);

		for (size_t k = 0; k < 3; k++) {
			said = said_reading(path, needs[k], &rc);
			assert_int_equal(rc, needs[k] == KF_MUST ? 2 : 11);
			assert_string_equal(said, want);
			free(said);
		}
		free(want);
		unlink(path);
		free(path);
	}
	/* broken JSON is said with KF_QUIET too: the file is there */
	path = put("broken.json", "{\"record\": \"boot\",\n");
	said = said_reading(path, KF_QUIET, &rc);
	assert_int_equal(rc, 11);
	want = kf_xasprintf("test_records: %s:2: ", path);
	assert_non_null(strstr(said, want));
	assert_non_null(strstr(said, "; the fix\n"));
	free(want);
	free(said);
	unlink(path);
	free(path);
	said = said_reading(missing, KF_QUIET, &rc);
	assert_int_equal(rc, 11);
	assert_string_equal(said, "");
	free(said);
	said = said_reading(missing, KF_WARN, &rc);
	assert_int_equal(rc, 11);
	assert_non_null(strstr(said, missing));
	assert_non_null(strstr(said, "; the fix\n"));
	free(said);
	free(missing);
}

/* ---- build.json and config.json ------------------------------------------------- */

static void test_build_reads_every_field(void **state)
{
	char *path = put("build.json",
		"{\"record\": \"build\", \"format\": 1, \"flavour\": \"mpsc\", \"kver\": \"6.1\",\n"
		" \"release\": null, \"wall_seconds\": 2.5, \"cpu_seconds\": 4.0, \"started\": 100,\n"
		" \"finished\": 103, \"compiled\": 0, \"last_full_build\": {\"compiled\": 987,\n"
		" \"wall_seconds\": 201.4, \"cpu_seconds\": null, \"started\": 1, \"finished\": 202,\n"
		" \"warnings\": 1, \"warning_lines\": [\"w.c:1: warning: x\"]},\n"
		" \"ccache\": {\"enabled\": true, \"hits\": 9, \"misses\": 1, \"remote\": {\n"
		"  \"url\": \"redis://:***@198.51.100.2:6379\", \"used\": true, \"off_because\": null,\n"
		"  \"hits\": 7, \"misses\": 3, \"errors\": 2, \"timeouts\": 1, \"stored\": 3}},\n"
		" \"distcc_hosts\": \"a b\", \"distcc\": {\"remote\": 600, \"local\": 84,\n"
		" \"fell_back\": 2, \"hosts\": {}}, \"warnings\": 0, \"warning_lines\": [], \"objects\": 987,\n"
		" \"bzimage_bytes\": 1234, \"bzimage_sha256\": \"" SHA_A "\",\n"
		" \"sections\": {\".text\": 4096, \".bss\": null}, \"code_bytes\": 2000,\n"
		" \"text_span_bytes\": null, \"march\": \"nocona\", \"mtune\": null,\n"
		" \"flags_from\": \"init/.main.o.cmd\"}\n");
	struct kf_build_rec b;

	(void)state;
	assert_int_equal(kf_build_rec_read(&b, path, KF_MUST, "unused"), 0);
	assert_string_equal(b.h.flavour, "mpsc");
	assert_null(b.h.release);
	assert_true(b.run.wall_seconds == 2.5);
	assert_true(b.run.cpu_seconds == 4.0);
	assert_int_equal(b.run.started, 100);
	assert_int_equal(b.run.finished, 103);
	assert_int_equal(b.run.compiled, 0);
	assert_int_equal(b.run.warnings, 0);
	assert_int_equal(b.run.nwarning_lines, 0);
	assert_int_equal(b.has_last_full, 1);
	assert_int_equal(b.last_full.compiled, 987);
	assert_true(b.last_full.wall_seconds == 201.4);
	assert_true(isnan(b.last_full.cpu_seconds));
	assert_int_equal(b.last_full.started, 1);
	assert_int_equal(b.last_full.warnings, 1);
	assert_int_equal(b.last_full.nwarning_lines, 1);
	assert_string_equal(b.last_full.warning_lines[0], "w.c:1: warning: x");
	assert_int_equal(b.ccache_enabled, 1);
	assert_int_equal(b.ccache_hits, 9);
	assert_int_equal(b.ccache_misses, 1);
	assert_int_equal(b.remote.has, 1);
	assert_string_equal(b.remote.url, "redis://:***@198.51.100.2:6379");
	assert_int_equal(b.remote.used, 1);
	assert_null(b.remote.off_because);
	assert_int_equal(b.remote.hits, 7);
	assert_int_equal(b.remote.misses, 3);
	assert_int_equal(b.remote.errors, 2);
	assert_int_equal(b.remote.timeouts, 1);
	assert_int_equal(b.remote.stored, 3);
	assert_string_equal(b.distcc_hosts, "a b");
	assert_int_equal(b.distcc_remote, 600);
	assert_int_equal(b.distcc_local, 84);
	assert_int_equal(b.distcc_fell_back, 2);
	assert_int_equal(b.objects, 987);
	assert_int_equal(b.bzimage_bytes, 1234);
	assert_string_equal(b.bzimage_sha256, SHA_A);
	assert_int_equal(b.nsections, 2);
	assert_string_equal(b.sections[0].name, ".text");
	assert_int_equal(b.sections[0].bytes, 4096);
	assert_int_equal(b.sections[1].bytes, -1);
	assert_int_equal(b.code_bytes, 2000);
	assert_int_equal(b.text_span_bytes, -1);
	assert_string_equal(b.march, "nocona");
	assert_null(b.mtune);
	assert_string_equal(b.flags_from, "init/.main.o.cmd");
	kf_build_rec_free(&b);
	unlink(path);
	free(path);
}

/* ccache.remote: off for the build (a refused password), null (no
 * ccache_remote) and absent (a record from before it): typed, -1 when none. */
static void test_build_remote_off_null_absent(void **state)
{
	static const char *const cc[] = {
		"{\"enabled\": true, \"hits\": 0, \"misses\": 5, \"remote\": {\"url\":"
		" \"redis://:***@h:6379\", \"used\": false, \"off_because\": \"refuses the password\","
		" \"hits\": 0, \"misses\": 0, \"errors\": 0, \"timeouts\": 0, \"stored\": 0}}",
		"{\"enabled\": true, \"hits\": 0, \"misses\": 5, \"remote\": null}",
		"{\"enabled\": true, \"hits\": 0, \"misses\": 5}",
		"{\"enabled\": true, \"hits\": 0, \"misses\": 5, \"remote\": \"redis://x\"}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cc) / sizeof(*cc); i++) {
		char *text = kf_xasprintf("{\"record\": \"build\", \"format\": 1, \"flavour\": \"g\","
					  " \"kver\": \"6.1\", \"ccache\": %s}\n", cc[i]);
		char *path = put("build.json", text);
		struct kf_build_rec b;

		assert_int_equal(kf_build_rec_read(&b, path, KF_MUST, "unused"), 0);
		assert_int_equal(b.ccache_misses, 5);
		assert_int_equal(b.remote.has, i == 0);
		if (i == 0) {
			assert_string_equal(b.remote.url, "redis://:***@h:6379");
			assert_int_equal(b.remote.used, 0);
			assert_string_equal(b.remote.off_because, "refuses the password");
			assert_int_equal(b.remote.hits, 0);
			assert_int_equal(b.remote.stored, 0);
		} else {
			assert_null(b.remote.url);
			assert_int_equal(b.remote.used, -1);
			assert_null(b.remote.off_because);
			assert_int_equal(b.remote.hits, -1);
			assert_int_equal(b.remote.misses, -1);
			assert_int_equal(b.remote.errors, -1);
			assert_int_equal(b.remote.timeouts, -1);
			assert_int_equal(b.remote.stored, -1);
		}
		kf_build_rec_free(&b);
		unlink(path);
		free(path);
		free(text);
	}
}

static const char miss_text[] =
	"{\"symbol\": \"SMP\", \"file\": \"fragments/smt.config\", \"line\": 3,"
	" \"requested\": \"y\", \"final\": null, \"reason\": \"needs X\", \"kind\": \"depends\","
	" \"detail\": [\"a\", \"b\"], \"fix\": \"set X\"}";

/* Every field; a miss passed on is the miss read. */
static void test_config_reads_every_field(void **state)
{
	char *text = kf_xasprintf(
		"{\"record\": \"config\", \"format\": 1, \"flavour\": \"mpsc\", \"kver\": \"6.1\",\n"
		" \"release\": \"6.1.192\", \"config\": \"out/.config\", \"fragments\": [\"f/a\", \"f/b\"],\n"
		" \"requested\": 33, \"errors\": [\"e\"], \"misses\": [%s], \"base\": null,\n"
		" \"cpu_choice\": \"MPSC\", \"cpu_choice_values\": [\"MK8\", \"MPSC\"],\n"
		" \"l1_cache_shift\": 7, \"ok\": false}\n", miss_text);
	char *path = put("config.json", text);
	json_t *want = json_loads(miss_text, 0, NULL), *got;
	struct kf_config_rec c;

	(void)state;
	assert_int_equal(kf_config_rec_read(&c, path, KF_MUST, "unused"), 0);
	assert_string_equal(c.h.release, "6.1.192");
	assert_string_equal(c.config, "out/.config");
	assert_int_equal(c.nfragments, 2);
	assert_string_equal(c.fragments[1], "f/b");
	assert_int_equal(c.requested, 33);
	assert_int_equal(c.nerrors, 1);
	assert_int_equal(c.nmisses, 1);
	assert_string_equal(c.misses[0].symbol, "SMP");
	assert_int_equal(c.misses[0].line, 3);
	assert_null(c.misses[0].final);
	assert_int_equal(c.misses[0].ndetail, 2);
	assert_string_equal(c.cpu_choice, "MPSC");
	assert_int_equal(c.ncpu_choice_values, 2);
	assert_int_equal(c.l1_cache_shift, 7);
	assert_int_equal(c.ok, 0);
	got = kf_miss_json(&c.misses[0]);
	assert_true(json_equal(got, want));
	json_decref(got);
	json_decref(want);
	kf_config_rec_free(&c);
	/* no file: -1, and the struct's fields missing */
	assert_int_equal(kf_config_rec_read(&c, "/nonexistent/config.json", KF_QUIET, NULL), -1);
	assert_int_equal(c.ok, -1);
	assert_int_equal(c.l1_cache_shift, -1);
	kf_config_rec_free(&c);
	unlink(path);
	free(path);
	free(text);
}

/* The records a real make wrote (tests/data/report) read as they are. */
static void test_real_records(void **state)
{
	struct kf_config_rec c;
	struct kf_build_rec b;
	struct kf_boot_rec r;

	(void)state;
	assert_int_equal(kf_config_rec_read(&c, FIXTURE "/mpsc/config.json", KF_MUST, ""), 0);
	assert_string_equal(c.cpu_choice, "MPSC");
	assert_int_equal(c.l1_cache_shift, 7);
	assert_int_equal(c.ok, 1);
	kf_config_rec_free(&c);
	assert_int_equal(kf_build_rec_read(&b, FIXTURE "/generic/build.json", KF_MUST, ""), 0);
	assert_int_equal(b.bzimage_bytes, 1692672);
	assert_int_equal(b.nsections, 5);
	assert_string_equal(b.mtune, "generic");
	assert_null(b.march);
	/* built without DISTCC_HOSTS: no distcc counts */
	assert_int_equal(b.distcc_remote, -1);
	assert_int_equal(b.distcc_local, -1);
	assert_int_equal(kf_boot_rec_read(&r, FIXTURE "/generic/boot/nocona.json", KF_MUST, ""), 0);
	assert_string_equal(r.cpu, "nocona");
	assert_int_equal(kf_boot_current(&r, &b), 1);
	kf_boot_rec_free(&r);
	kf_build_rec_free(&b);
	assert_int_equal(kf_boot_rec_read(&r, FIXTURE "/mpsc/boot/i686.json", KF_MUST, ""), 0);
	assert_string_equal(r.verdict, "refused");
	assert_string_equal(r.expected, "refused");
	kf_boot_rec_free(&r);
}

/* ---- the current-boot rule and kf_boots_load ------------------------------------ */

static char *boot_of(const char *cpu, const char *sha)
{
	return kf_xasprintf("{\"record\": \"boot\", \"format\": 1, \"cpu\": \"%s\"%s%s%s}\n", cpu,
			    sha ? ", \"bzimage_sha256\": \"" : "", sha ? sha : "", sha ? "\"" : "");
}

static const char *const split_order[] = { "nocona", "opteron", "qemu64" };
static char *split_dir;

static void make_flavour(void)
{
	static const struct { const char *cpu, *sha; } boots[] = {
		{ "qemu64", SHA_A }, { "nocona", SHA_B }, { "opteron", SHA_A },
		{ "i686", NULL }, { "core2", SHA_B },
	};

	for (size_t i = 0; i < sizeof(boots) / sizeof(*boots); i++) {
		char *name = kf_xasprintf("split/boot/%s.json", boots[i].cpu);
		char *text = boot_of(boots[i].cpu, boots[i].sha);

		free(put(name, text));
		free(name);
		free(text);
	}
	free(put("split/boot/broken.json", "{\"record\": \"boot\", "));
	free(put("split/build.json", "{\"record\": \"build\", \"format\": 1, "
		 "\"bzimage_sha256\": \"" SHA_A "\"}\n"));
	split_dir = kf_xasprintf("%s/split", dir);
}

static void cpus(const struct kf_boot_rec *b, size_t n, char *out, size_t len)
{
	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(out + strlen(out), len - strlen(out), "%s%s", i ? " " : "", b[i].cpu);
}

/* The split, in CPU-model order when given (others after, by name), into
 * dir/split.out. */
static void split_in_child(void)
{
	struct kf_build_rec build;
	struct kf_boots bs;
	char *bp = kf_xasprintf("%s/build.json", split_dir), got[128];
	char *op = kf_xasprintf("%s/split.out", dir);
	FILE *f = fopen(op, "w");

	if (!f || kf_build_rec_read(&build, bp, KF_MUST, ""))
		_exit(3);
	kf_boots_load(&bs, split_dir, &build, split_order, 3);
	cpus(bs.cur, bs.ncur, got, sizeof(got));
	fprintf(f, "current: %s\n", got);
	cpus(bs.stale, bs.nstale, got, sizeof(got));
	fprintf(f, "stale: %s\n", got);
	kf_boots_free(&bs);
	kf_boots_load(&bs, split_dir, &build, NULL, 0);
	cpus(bs.cur, bs.ncur, got, sizeof(got));
	fprintf(f, "by name: %s\n", got);
	kf_boots_free(&bs);
	kf_boots_load(&bs, split_dir, NULL, NULL, 0);
	cpus(bs.cur, bs.ncur, got, sizeof(got));
	fprintf(f, "no build: %s (stale %zu)\n", got, bs.nstale);
	kf_boots_free(&bs);
	kf_build_rec_free(&build);
	free(bp);
	free(op);
	fclose(f);
	fflush(stderr);
	_exit(0);
}

static void test_current_and_stale(void **state)
{
	char *out = kf_xasprintf("%s/split.out", dir), *printed, *said, *want;
	int rc;

	(void)state;
	make_flavour();
	said = said_by(split_in_child, &rc);
	assert_int_equal(rc, 0);
	printed = kf_read_file(out, NULL);
	assert_non_null(printed);
	assert_string_equal(printed,
			    "current: opteron qemu64 i686\n"
			    "stale: nocona core2\n"
			    "by name: i686 opteron qemu64\n"
			    "no build: core2 i686 nocona opteron qemu64 (stale 0)\n");
	/* the broken record: in neither list, and said */
	want = kf_xasprintf("%s/boot/broken.json:1:", split_dir);
	assert_non_null(strstr(said, want));
	assert_non_null(strstr(said, "; treated as missing\n"));
	free(want);
	free(printed);
	free(said);
	unlink(out);
	free(out);
}

static void test_current_rule(void **state)
{
	struct kf_boot_rec b = { .bzimage_sha256 = (char *)SHA_A }, none = { 0 };
	struct kf_build_rec same = { .bzimage_sha256 = (char *)SHA_A };
	struct kf_build_rec other = { .bzimage_sha256 = (char *)SHA_B }, unknown = { 0 };

	(void)state;
	assert_int_equal(kf_boot_current(&b, &same), 1);
	assert_int_equal(kf_boot_current(&b, &other), 0);
	assert_int_equal(kf_boot_current(&b, &unknown), 1);
	assert_int_equal(kf_boot_current(&b, NULL), 1);
	assert_int_equal(kf_boot_current(&none, &other), 1);
}

/* ---- deb/deb.json ----------------------------------------------------------- */

static const char deb_text[] =
	"{\"record\": \"deb\", \"format\": 1, \"flavour\": \"tiny-systemd\", \"kver\": \"6.1\",\n"
	" \"release\": \"6.1.192-kf-tiny-systemd\", \"version\": \"6.1.192-kf-tiny-systemd-1\",\n"
	" \"source\": \"linux-kf-tiny-systemd\", \"arch\": \"amd64\", \"dir\": \"/o/deb\",\n"
	" \"changes\": \"linux-kf-tiny-systemd_6.1.192-kf-tiny-systemd-1_amd64.changes\",\n"
	" \"source_date_epoch\": 1700000000, \"packages\": [\n"
	"  {\"name\": \"linux-headers-6.1.192-kf-tiny-systemd\", \"kind\": \"headers\",\n"
	"   \"version\": \"6.1.192-kf-tiny-systemd-1\", \"arch\": \"amd64\", \"file\": \"h.deb\",\n"
	"   \"path\": \"/o/deb/h.deb\", \"bytes\": 10, \"sha256\": \"" SHA_B "\",\n"
	"   \"installed_kib\": null, \"modules\": null, \"module_files\": null, \"vmlinuz\": null,\n"
	"   \"modules_dir\": null},\n"
	"  7,\n"
	"  {\"name\": \"linux-image-6.1.192-kf-tiny-systemd\", \"kind\": \"image\",\n"
	"   \"version\": \"6.1.192-kf-tiny-systemd-1\", \"arch\": \"amd64\", \"file\": \"i.deb\",\n"
	"   \"path\": \"/o/deb/i.deb\", \"bytes\": 2048, \"sha256\": \"" SHA_A "\",\n"
	"   \"installed_kib\": 5000, \"modules\": 2,\n"
	"   \"module_files\": [\"kernel/drivers/block/virtio_blk.ko\", \"kernel/fs/x.ko.xz\", 3],\n"
	"   \"vmlinuz\": \"/boot/vmlinuz-6.1.192-kf-tiny-systemd\",\n"
	"   \"modules_dir\": \"/lib/modules/6.1.192-kf-tiny-systemd\"}],\n"
	" \"image\": \"linux-image-6.1.192-kf-tiny-systemd\"}\n";

/* Every field; a package that is no object left out; the image found by
 * name; modules found by file name, compressed too; missing stays missing. */
static void test_deb_record(void **state)
{
	char *path = put("deb/deb.json", deb_text);
	const struct kf_deb_pkg *img;
	struct kf_deb_rec d;

	(void)state;
	assert_int_equal(kf_deb_rec_read(&d, path, KF_MUST, "unused"), 0);
	assert_string_equal(d.h.flavour, "tiny-systemd");
	assert_string_equal(d.h.release, "6.1.192-kf-tiny-systemd");
	assert_string_equal(d.version, "6.1.192-kf-tiny-systemd-1");
	assert_string_equal(d.source, "linux-kf-tiny-systemd");
	assert_string_equal(d.arch, "amd64");
	assert_string_equal(d.dir, "/o/deb");
	assert_string_equal(d.changes, "linux-kf-tiny-systemd_6.1.192-kf-tiny-systemd-1_amd64.changes");
	assert_int_equal(d.source_date_epoch, 1700000000);
	assert_int_equal(d.npackages, 2);
	assert_string_equal(d.packages[0].kind, "headers");
	assert_int_equal(d.packages[0].installed_kib, -1);
	assert_int_equal(d.packages[0].modules, -1);
	assert_int_equal(d.packages[0].nmodule_files, 0);
	assert_null(d.packages[0].vmlinuz);
	img = kf_deb_image(&d);
	assert_ptr_equal(img, &d.packages[1]);
	assert_string_equal(img->path, "/o/deb/i.deb");
	assert_int_equal(img->bytes, 2048);
	assert_string_equal(img->sha256, SHA_A);
	assert_int_equal(img->installed_kib, 5000);
	assert_int_equal(img->modules, 2);
	assert_int_equal(img->nmodule_files, 2);
	assert_string_equal(img->vmlinuz, "/boot/vmlinuz-6.1.192-kf-tiny-systemd");
	assert_string_equal(img->modules_dir, "/lib/modules/6.1.192-kf-tiny-systemd");
	assert_true(kf_deb_has_module(img, "virtio_blk.ko"));
	assert_true(kf_deb_has_module(img, "x.ko"));
	assert_false(kf_deb_has_module(img, "virtio.ko"));
	assert_false(kf_deb_has_module(img, "blk.ko"));
	assert_false(kf_deb_has_module(&d.packages[0], "virtio_blk.ko"));
	assert_false(kf_deb_has_module(NULL, "virtio_blk.ko"));
	kf_deb_rec_free(&d);
	/* KF_QUIET reads it the same */
	assert_int_equal(kf_deb_rec_read(&d, path, KF_QUIET, "fix"), 0);
	kf_deb_rec_free(&d);
	free(path);
	path = put("deb/other.json", "{\"record\": \"build\", \"format\": 1}\n");
	assert_int_equal(kf_deb_rec_read(&d, path, KF_QUIET, "fix"), -1);
	assert_null(kf_deb_image(&d));
	assert_int_equal(d.source_date_epoch, -1);
	kf_deb_rec_free(&d);
	unlink(path);
	free(path);
	/* no file */
	assert_int_equal(kf_deb_rec_read(&d, "/nonexistent/deb.json", KF_QUIET, NULL), -1);
	kf_deb_rec_free(&d);
}

/* ---- the Debian system: rootfs/<key>.json, <flavour>/system/image.json ---- */

/* Real records (tests/data/system/): every field; then one with nothing
 * but its header, whose fields stay missing. */
static void test_system_records(void **state)
{
	struct kf_rootfs_rec r;
	struct kf_image_rec m;
	char *path;

	(void)state;
	assert_int_equal(kf_rootfs_rec_read(&r, "tests/data/system/rootfs-bookworm.json", KF_MUST, ""), 0);
	assert_null(r.h.flavour);
	assert_null(r.h.kver);
	assert_string_equal(r.key, "40eba6ac8958a393");
	assert_string_equal(r.sha256, "100294a01f1686608196ff09288b762cad870fee1e85ebd37f3e57bbd2a7a846");
	assert_string_equal(r.suite, "bookworm");
	assert_string_equal(r.variant, "minbase");
	assert_string_equal(r.mmdebstrap, "mmdebstrap 1.3.5");
	assert_int_equal(r.source_date_epoch, 1747699200);
	assert_true(r.bytes > 200000000);
	assert_int_equal(r.ninclude, 6);
	assert_string_equal(r.include[0], "systemd-sysv");
	assert_string_equal(r.include[5], "zstd");
	assert_int_equal(r.nsources, 3);
	assert_string_equal(r.sources[0], "deb http://deb.debian.org/debian bookworm main");
	assert_true(r.seconds > 100);
	kf_rootfs_rec_free(&r);

	assert_int_equal(kf_image_rec_read(&m, "tests/data/system/image-tiny-systemd.json", KF_MUST, ""), 0);
	assert_string_equal(m.h.flavour, "tiny-systemd");
	assert_string_equal(m.h.release, "6.1.192-kf-tiny-systemd");
	assert_string_equal(m.rootfs_sha256, "100294a01f1686608196ff09288b762cad870fee1e85ebd37f3e57bbd2a7a846");
	assert_string_equal(m.package_name, "linux-image-6.1.192-kf-tiny-systemd");
	assert_string_equal(m.package_version, "6.1.192-kf-tiny-systemd-1");
	assert_int_equal(m.kernel.bytes, 2073600);
	assert_string_equal(m.kernel.file, "vmlinuz");
	assert_int_equal(m.initrd.bytes, 5234993);
	assert_int_equal(m.initrd_modules, 1);
	assert_string_equal(m.root_driver, "virtio_blk");
	assert_string_equal(m.root_driver_in, "initrd");
	assert_string_equal(m.image.file, "image.raw");
	assert_int_equal(m.image.bytes, 603979776);
	assert_string_equal(m.uuid, "e95d2b2b-d52d-838b-f985-945dacef37e2");
	assert_int_equal(m.nextra_files, 2);
	assert_string_equal(m.extra_units[0], "kflavour-sysfacts.service");
	assert_true(fabs(m.seconds - 16.5) < 0.01);
	kf_image_rec_free(&m);

	path = put("system/image.json", "{\"record\": \"image\", \"format\": 1, \"initrd\": {\"modules\": \"x\"}}\n");
	assert_int_equal(kf_image_rec_read(&m, path, KF_MUST, ""), 0);
	assert_null(m.package_name);
	assert_null(m.root_driver_in);
	assert_int_equal(m.initrd_modules, -1);
	assert_int_equal(m.image.bytes, -1);
	assert_true(isnan(m.seconds));
	kf_image_rec_free(&m);
	/* an image record is no root filesystem record */
	assert_int_equal(kf_rootfs_rec_read(&r, path, KF_QUIET, "fix"), -1);
	assert_int_equal(r.bytes, -1);
	kf_rootfs_rec_free(&r);
	unlink(path);
	free(path);
}

/* The record make deb wrote (tests/data/package/deb.json). */
static void test_deb_real_record(void **state)
{
	const struct kf_deb_pkg *img;
	struct kf_deb_rec d;

	(void)state;
	assert_int_equal(kf_deb_rec_read(&d, "tests/data/package/deb.json", KF_MUST, "unused"), 0);
	assert_string_equal(d.h.release, "6.1.192-kf-tiny-systemd");
	assert_int_equal(d.npackages, 3);
	img = kf_deb_image(&d);
	assert_non_null(img);
	assert_string_equal(img->kind, "image");
	assert_int_equal(img->modules, 1);
	assert_true(kf_deb_has_module(img, "virtio_blk.ko"));
	assert_string_equal(img->vmlinuz, "/boot/vmlinuz-6.1.192-kf-tiny-systemd");
	assert_int_equal(strlen(img->sha256), 64);
	assert_true(img->bytes > 0);
	for (size_t i = 0; i < d.npackages; i++)
		if (&d.packages[i] != img)
			assert_int_equal(d.packages[i].modules, -1);
	kf_deb_rec_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boot_reads_every_field),
		cmocka_unit_test(test_boot_missing_stays_missing),
		cmocka_unit_test(test_header_errors),
		cmocka_unit_test(test_build_reads_every_field),
		cmocka_unit_test(test_build_remote_off_null_absent),
		cmocka_unit_test(test_config_reads_every_field),
		cmocka_unit_test(test_real_records),
		cmocka_unit_test(test_c2c_record),
		cmocka_unit_test(test_current_rule),
		cmocka_unit_test(test_current_and_stale),
		cmocka_unit_test(test_deb_record),
		cmocka_unit_test(test_deb_real_record),
		cmocka_unit_test(test_system_records),
	};
	char *rm[] = { "rm", "-rf", dir, NULL };
	int failed;

	kf_prog = "test_records";
	if (!mkdtemp(dir))
		return 1;
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	free(split_dir);
	if (fork() == 0) {
		execvp(rm[0], rm);
		_exit(127);
	}
	wait(NULL);
	return failed;
}
