// SPDX-License-Identifier: GPL-2.0
/*
 * report-kcidb - out/<kver>/kcidb.json: the builds and boots of one kernel
 * version in KernelCI's KCIDB I/O format, version 5.3 (the schema is
 * ../shared/kcidb/kcidb.v5.3.schema.json beside the checkout; make check
 * validates against it), so a CI database can read what kflavour measured.
 *
 *   report-kcidb --kdir KDIR --kver KVER [--compiler FILE] [--out FILE] FLAVOUR...
 *
 * checkouts: one, the tree (Debian's linux-source-KVER with patches/KVER).
 * builds:    one per FLAVOUR with a build.json: architecture, compiler (the
 *            first line of FILE, the build stage's toolchain stamp), config
 *            name, duration, status, log and config as file:// URLs.
 * tests:     one per boot record of such a build ("boot"), and one per KTAP
 *            case of that boot ("boot.<suite>.<case>"); the CPU model is in
 *            each test's environment.
 * Every id is "kflavour:..." and origin is "kflavour". Boot records of an
 * earlier bzImage (another bzimage_sha256) are left out, as in the report.
 * Written with jansson, atomically. Exit 0, or 2 on a usage or write error.
 */
#include "../lib/kf.h"
#include "../lib/record.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#define ORIGIN "kflavour"

/* RFC 3339 UTC time of an epoch second. */
static json_t *when(long long t)
{
	char buf[32];
	time_t tt = (time_t)t;
	struct tm tm;

	if (t < 0 || !gmtime_r(&tt, &tm))
		return NULL;
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S+00:00", &tm);
	return json_string(buf);
}

/* Leave the key out when v is NULL: when(-1), json_real(NAN), file_url() of
 * a missing file. */
static void set_opt(json_t *o, const char *key, json_t *v)
{
	if (v)
		json_object_set_new(o, key, v);
}

static json_t *file_url(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return NULL;
	return json_sprintf("file://%s", path);
}

/* A KCIDB path segment: [a-zA-Z0-9_-]+; anything else becomes '_'. */
static char *segment(const char *s)
{
	char *p = kf_xstrdup(*s ? s : "_");

	for (char *c = p; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_' || *c == '-'))
			*c = '_';
	return p;
}

static json_t *environment(const json_t *rec)
{
	const char *cpu = kf_json_str(rec, "cpu"), *cs = kf_json_str(rec, "cpu_string");
	const char *qv = kf_json_str(rec, "qemu_version");
	json_t *env = json_object(), *misc = json_object();

	json_object_set_new(env, "comment", json_sprintf("QEMU %s (TCG), CPU model %s: -cpu %s",
				qv ? qv : "?", cpu ? cpu : "?", cs ? cs : "?"));
	json_object_set_new(misc, "cpu_model", json_string(cpu ? cpu : "?"));
	if (cs)
		json_object_set_new(misc, "qemu_cpu", json_string(cs));
	if (qv)
		json_object_set_new(misc, "qemu_version", json_string(qv));
	json_object_set_new(env, "misc", misc);
	return env;
}

/* The boot's verdict against the expected one: KCIDB's status. */
static const char *boot_status(const char *verdict, const char *expected)
{
	if (!verdict)
		return "MISS";
	if (expected && !strcmp(verdict, expected))
		return "PASS";
	if (!strcmp(verdict, "qemu-error"))
		return "MISS";
	return "FAIL";
}

static void add_boot(json_t *tests, const char *kdir, const char *flavour,
		     const char *build_id, const char *file, const char *build_sha)
{
	char *path = kf_xasprintf("%s/%s/boot/%s", kdir, flavour, file);
	json_t *rec = kf_record_read(path, KF_QUIET, NULL), *t, *misc, *res, *r;
	const char *cpu, *sha, *verdict, *expected;
	char *id, *logp;
	size_t i;

	free(path);
	if (!rec)
		return;
	sha = kf_json_str(rec, "bzimage_sha256");
	cpu = kf_json_str(rec, "cpu");
	if (!cpu || (sha && build_sha && strcmp(sha, build_sha) != 0)) {
		json_decref(rec);
		return;
	}
	verdict = kf_json_str(rec, "verdict");
	expected = kf_json_str(rec, "expected");
	id = kf_xasprintf("%s:%s.%s", ORIGIN, build_id + strlen(ORIGIN ":"), cpu);
	logp = kf_xasprintf("%s/%s/boot/%s.log", kdir, flavour, cpu);

	t = json_pack("{s:s, s:s, s:s, s:s, s:s}", "id", id, "build_id", build_id,
		      "origin", ORIGIN, "path", "boot",
		      "status", boot_status(verdict, expected));
	json_object_set_new(t, "environment", environment(rec));
	set_opt(t, "log_url", file_url(logp));
	set_opt(t, "duration", json_real(kf_json_num(rec, "wall_seconds")));
	json_object_set_new(t, "comment", json_sprintf("%s on %s: %s, expected %s", flavour, cpu,
				verdict ? verdict : "none", expected ? expected : "pass"));
	misc = json_pack("{s:s?, s:s?}", "verdict", verdict, "expected", expected);
	json_object_set_new(t, "misc", misc);
	json_array_append_new(tests, t);

	res = json_object_get(json_object_get(rec, "ktap"), "results");
	json_array_foreach(res, i, r) {
		const char *dir = kf_json_str(r, "directive");
		int ok = json_is_true(json_object_get(r, "ok"));
		char *suite = segment(kf_json_str_or(r, "suite", ""));
		char *name = segment(kf_json_str_or(r, "name", ""));
		const char *status = dir && !strncasecmp(dir, "skip", 4) ? "SKIP" :
				     dir ? "DONE" : ok ? "PASS" : "FAIL";
		char *cid = kf_xasprintf("%s.%zu", id, i + 1);
		char *cpath = kf_xasprintf("boot.%s.%s", suite, name);
		json_t *c = json_pack("{s:s, s:s, s:s, s:s}", "build_id", build_id,
				      "origin", ORIGIN, "status", status, "id", cid);

		json_object_set_new(c, "path", json_string(cpath));
		json_object_set_new(c, "environment", environment(rec));
		set_opt(c, "log_url", file_url(logp));
		if (dir)
			json_object_set_new(c, "comment", json_sprintf("# %s", dir));
		json_array_append_new(tests, c);
		free(cid);
		free(cpath);
		free(suite);
		free(name);
	}
	free(logp);
	free(id);
	json_decref(rec);
}

static char *first_line(const char *path)
{
	char *text = path ? kf_read_file(path, NULL) : NULL;

	if (!text)
		return NULL;
	text[strcspn(text, "\n")] = '\0';
	return text;
}

/* One build per flavour with a build.json; its boots and their KTAP cases. */
static void add_flavour(json_t *builds, json_t *tests, const char *kdir,
			const char *checkout_id, const char *flavour, const char *compiler)
{
	char *dir = kf_xasprintf("%s/%s", kdir, flavour);
	char *path = kf_xasprintf("%s/build.json", dir), *p, *id;
	json_t *bj = kf_record_read(path, KF_QUIET, NULL), *b, *misc, *full;
	const char *sha, *release;
	char **names;
	size_t n;

	free(path);
	if (!bj) {
		free(dir);
		return;
	}
	sha = kf_json_str(bj, "bzimage_sha256");
	release = kf_json_str(bj, "release");
	/* The image's hash names the build: a rebuild is another build. */
	id = kf_xasprintf("%s:%s.%s.%.12s", ORIGIN, release ? release : "unknown", flavour,
			  sha ? sha : "0");
	b = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "id", id, "checkout_id", checkout_id,
		      "origin", ORIGIN, "architecture", "x86_64", "config_name", flavour,
		      "status", "PASS");
	if (compiler)
		json_object_set_new(b, "compiler", json_string(compiler));
	full = json_object_get(bj, "last_full_build");
	set_opt(b, "duration", json_real(kf_json_num(bj, "wall_seconds")));
	set_opt(b, "start_time", when(kf_json_int(bj, "started")));
	p = kf_xasprintf("%s/build.log", dir);
	set_opt(b, "log_url", file_url(p));
	free(p);
	p = kf_xasprintf("%s/.config", dir);
	set_opt(b, "config_url", file_url(p));
	free(p);
	json_object_set_new(b, "command", json_sprintf("make -C <linux-source-%s> O=%s bzImage",
				kf_json_str_or(bj, "kver", "?"), dir));
	misc = json_object();
	json_object_set(misc, "cpu_seconds", json_object_get(bj, "cpu_seconds"));
	json_object_set(misc, "warnings", json_object_get(bj, "warnings"));
	json_object_set(misc, "bzimage_bytes", json_object_get(bj, "bzimage_bytes"));
	json_object_set(misc, "bzimage_sha256", json_object_get(bj, "bzimage_sha256"));
	json_object_set(misc, "code_bytes", json_object_get(bj, "code_bytes"));
	json_object_set(misc, "march", json_object_get(bj, "march"));
	if (full)
		json_object_set(misc, "last_full_build", full);
	json_object_set_new(b, "misc", misc);
	{
		json_t *wl = json_object_get(bj, "warning_lines"), *w;
		struct strbuf ex = { 0 };
		size_t i;

		json_array_foreach(wl, i, w)
			if (json_string_value(w)) {
				sb_add(&ex, json_string_value(w));
				sb_add(&ex, "\n");
			}
		if (ex.len)
			json_object_set_new(b, "log_excerpt", json_string(ex.s));
		free(ex.s);
	}
	json_array_append_new(builds, b);

	p = kf_xasprintf("%s/boot", dir);
	names = kf_dir_names(p, ".json", &n);
	free(p);
	for (size_t i = 0; i < n; i++) {
		add_boot(tests, kdir, flavour, id, names[i], sha);
		free(names[i]);
	}
	free(names);
	free(id);
	free(dir);
	json_decref(bj);
}

static void usage(void)
{
	fprintf(stderr, "usage: report-kcidb --kdir KDIR --kver KVER [--compiler FILE] [--out FILE] FLAVOUR...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kdir", required_argument, NULL, 'd' },
		{ "kver", required_argument, NULL, 'v' },
		{ "compiler", required_argument, NULL, 'c' },
		{ "out", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	const char *kdir = NULL, *kver = NULL, *compiler_file = NULL, *out = NULL;
	json_t *root, *checkout, *builds, *tests;
	char *compiler, *checkout_id, *path, *release = NULL;
	struct stat st;
	int c;

	kf_prog = "report-kcidb";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': kdir = optarg; break;
		case 'v': kver = optarg; break;
		case 'c': compiler_file = optarg; break;
		case 'o': out = optarg; break;
		default: usage();
		}
	}
	if (!kdir || !kver)
		usage();
	compiler = first_line(compiler_file);

	/* The tree: its release from any flavour's build, else the kver. */
	for (int i = optind; i < argc && !release; i++) {
		json_t *bj;

		path = kf_xasprintf("%s/%s/build.json", kdir, argv[i]);
		bj = kf_record_read(path, KF_QUIET, NULL);
		free(path);
		if (bj && kf_json_str(bj, "release"))
			release = kf_xstrdup(kf_json_str(bj, "release"));
		json_decref(bj);
	}
	checkout_id = kf_xasprintf("%s:linux-source-%s.%s", ORIGIN, kver, release ? release : kver);
	checkout = json_pack("{s:s, s:s, s:s, s:b}", "id", checkout_id, "origin", ORIGIN,
			     "tree_name", "debian-linux-source", "valid", 1);
	json_object_set_new(checkout, "comment", json_sprintf(
		"Debian's linux-source-%s%s%s with kflavour's patches/%s (probe, KUnit suite)",
		kver, release ? ", release " : "", release ? release : "", kver));
	path = kf_xasprintf("%s/src/Makefile", kdir);
	if (!stat(path, &st))
		set_opt(checkout, "start_time", when((long long)st.st_mtime));
	free(path);
	json_object_set_new(checkout, "misc", json_pack("{s:s}", "kver", kver));

	builds = json_array();
	tests = json_array();
	for (int i = optind; i < argc; i++)
		add_flavour(builds, tests, kdir, checkout_id, argv[i], compiler);

	root = json_pack("{s:{s:i, s:i}, s:[o], s:o, s:o}", "version", "major", 5, "minor", 3,
			 "checkouts", checkout, "builds", builds, "tests", tests);
	path = out ? kf_xstrdup(out) : kf_xasprintf("%s/kcidb.json", kdir);
	if (kf_record_write(root, path))
		kf_die(2, "%s: %s; is out/ writable?", path, strerror(errno));
	json_decref(root);
	free(path);
	free(checkout_id);
	free(compiler);
	free(release);
	return 0;
}
