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
 *            case of that boot ("boot.<suite>.<case>"); one per system boot
 *            of its package ("boot.system", "boot.system.<case>"); the CPU
 *            model is in each test's environment.
 * Every id is "kflavour:..." and origin is "kflavour". The records are read
 * as the report reads them (load.c, through lib/records.h, which leaves out
 * the boot records of an earlier bzImage); this file only renders struct
 * report. Written with jansson, atomically. Exit 0, or 2 on a usage or
 * write error.
 */
#include "render.h"
#include "../lib/kf.h"
#include "../lib/record.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

/* file://KDIR/REL of a file the model found (REL), or NULL. */
static json_t *file_url(const struct report *r, const char *rel)
{
	return rel ? json_sprintf("file://%s/%s", r->kdir, rel) : NULL;
}

/* A KCIDB path segment: [a-zA-Z0-9_-]+; anything else (or none) becomes '_'. */
static char *segment(const char *s)
{
	char *p = kf_xstrdup(s && *s ? s : "_");

	for (char *c = p; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_' || *c == '-'))
			*c = '_';
	return p;
}

static json_t *environment(const struct boot *b)
{
	const char *cs = b->cpu_string, *qv = b->qemu_version;
	json_t *env = json_object(), *misc = json_object();

	json_object_set_new(env, "comment", json_sprintf("QEMU %s (TCG), CPU model %s: -cpu %s",
				qv ? qv : "?", b->cpu, cs ? cs : "?"));
	json_object_set_new(misc, "cpu_model", json_string(b->cpu));
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

/* A boot ("boot") and its KTAP cases ("boot.<suite>.<case>"). */
static void add_boot(json_t *tests, const struct report *r, const struct flavour *f,
		     const char *build_id, const struct boot *b)
{
	char *id = kf_xasprintf("%s:%s.%s", ORIGIN, build_id + strlen(ORIGIN ":"), b->cpu);
	json_t *t = json_pack("{s:s, s:s, s:s, s:s, s:s}", "id", id, "build_id", build_id,
			      "origin", ORIGIN, "path", "boot",
			      "status", boot_status(b->verdict, b->expected));

	json_object_set_new(t, "environment", environment(b));
	set_opt(t, "log_url", file_url(r, b->log));
	set_opt(t, "duration", json_real(b->wall_seconds));
	json_object_set_new(t, "comment", json_sprintf("%s on %s: %s, expected %s", f->name,
				b->cpu, b->verdict ? b->verdict : "none",
				b->expected ? b->expected : "pass"));
	json_object_set_new(t, "misc", json_pack("{s:s?, s:s?}", "verdict", b->verdict,
						 "expected", b->expected));
	json_array_append_new(tests, t);

	for (size_t i = 0; i < b->ncases; i++) {
		const struct kf_ktap_case *k = &b->cases[i];
		const char *dir = k->directive;
		const char *status = dir && !strncasecmp(dir, "skip", 4) ? "SKIP" :
				     dir ? "DONE" : k->ok > 0 ? "PASS" : "FAIL";
		char *suite = segment(k->suite), *name = segment(k->name);
		char *cid = kf_xasprintf("%s.%zu", id, i + 1);
		json_t *c = json_pack("{s:s, s:s, s:s, s:s}", "build_id", build_id,
				      "origin", ORIGIN, "status", status, "id", cid);

		json_object_set_new(c, "path", json_sprintf("boot.%s.%s", suite, name));
		json_object_set_new(c, "environment", environment(b));
		set_opt(c, "log_url", file_url(r, b->log));
		if (dir)
			json_object_set_new(c, "comment", json_sprintf("# %s", dir));
		json_array_append_new(tests, c);
		free(cid);
		free(suite);
		free(name);
	}
	free(id);
}

/* A system boot ("boot.system", docs/system-boot.md) and its KTAP cases
 * ("boot.system.<case>"): the build's package installed in its Debian system
 * and booted to multi-user.target. */
static void add_sysboot(json_t *tests, const struct report *r, const struct flavour *f,
			const char *build_id, const struct kf_sysboot_rec *s)
{
	char *id = kf_xasprintf("%s:%s.system.%s", ORIGIN, build_id + strlen(ORIGIN ":"),
				s->b.cpu);
	struct boot b = { .cpu = s->b.cpu, .cpu_string = s->b.cpu_string,
			  .qemu_version = s->b.qemu_version };
	char *log = kf_xasprintf("%s/sysboot/%s.log", f->name, s->b.cpu);
	char *path = kf_xasprintf("%s/%s", r->kdir, log);
	const char *rel = access(path, R_OK) ? NULL : log;
	json_t *t = json_pack("{s:s, s:s, s:s, s:s, s:s}", "id", id, "build_id", build_id,
			      "origin", ORIGIN, "path", "boot.system",
			      "status", boot_status(s->b.verdict, s->b.expected));

	json_object_set_new(t, "environment", environment(&b));
	set_opt(t, "log_url", file_url(r, rel));
	set_opt(t, "duration", json_real(s->b.wall_seconds));
	json_object_set_new(t, "comment", json_sprintf("%s's package booted to multi-user.target on %s: %s%s%s",
				f->name, s->b.cpu, s->b.verdict ? s->b.verdict : "none",
				s->cause ? ", " : "", s->cause ? s->cause : ""));
	json_object_set_new(t, "misc", json_pack("{s:s?, s:s?, s:o, s:o, s:o}",
		"verdict", s->b.verdict, "cause", s->cause,
		"multi_user_seconds", jnum_or_null(s->multi_user_seconds),
		"failed_units", jstr_array(s->failed_units, s->nfailed_units),
		"modules", jstr_array(s->modules, s->nmodules)));
	json_array_append_new(tests, t);
	for (size_t i = 0; i < s->b.ncases; i++) {
		const struct kf_ktap_case *k = &s->b.cases[i];
		const char *dir = k->directive;
		const char *status = dir && !strncasecmp(dir, "skip", 4) ? "SKIP" :
				     dir ? "DONE" : k->ok > 0 ? "PASS" : "FAIL";
		char *name = segment(k->name), *cid = kf_xasprintf("%s.%zu", id, i + 1);
		json_t *c = json_pack("{s:s, s:s, s:s, s:s}", "build_id", build_id,
				      "origin", ORIGIN, "status", status, "id", cid);

		json_object_set_new(c, "path", json_sprintf("boot.system.%s", name));
		json_object_set_new(c, "environment", environment(&b));
		set_opt(c, "log_url", file_url(r, rel));
		if (dir)
			json_object_set_new(c, "comment", json_sprintf("# %s", dir));
		json_array_append_new(tests, c);
		free(cid);
		free(name);
	}
	free(path);
	free(log);
	free(id);
}

/* build.json's last_full_build, as it has it. */
static json_t *last_full(const struct flavour *f)
{
	const struct kf_build_run *run = &f->full;

	if (!f->has_full)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "compiled", jint_or_null(run->compiled),
			 "wall_seconds", jnum_or_null(run->wall_seconds),
			 "cpu_seconds", jnum_or_null(run->cpu_seconds),
			 "started", jint_or_null(run->started),
			 "finished", jint_or_null(run->finished),
			 "warnings", jint_or_null(run->warnings),
			 "warning_lines", jstr_array(run->warning_lines, run->nwarning_lines));
}

/* One build per flavour with a build.json; its boots and their KTAP cases. */
static void add_flavour(json_t *builds, json_t *tests, const struct report *r,
			const struct flavour *f, const char *checkout_id, const char *kver,
			const char *compiler)
{
	const char *sha = f->bzimage_sha256;
	struct strbuf ex = { 0 };
	char *id, *config;
	json_t *b;

	if (!f->has_build)
		return;
	/* The image's hash names the build: a rebuild is another build. */
	id = kf_xasprintf("%s:%s.%s.%.12s", ORIGIN, f->release ? f->release : "unknown",
			  f->name, sha ? sha : "0");
	b = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "id", id, "checkout_id", checkout_id,
		      "origin", ORIGIN, "architecture", "x86_64", "config_name", f->name,
		      "status", "PASS");
	if (compiler)
		json_object_set_new(b, "compiler", json_string(compiler));
	set_opt(b, "duration", json_real(f->build.wall_seconds));
	set_opt(b, "start_time", when(f->build.started));
	set_opt(b, "log_url", file_url(r, f->build_log));
	config = f->has_config ? kf_xasprintf("%s/.config", f->name) : NULL;
	set_opt(b, "config_url", file_url(r, config));
	free(config);
	json_object_set_new(b, "command", json_sprintf("make -C <linux-source-%s> O=%s/%s bzImage",
				kver, r->kdir, f->name));
	json_object_set_new(b, "misc", json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"cpu_seconds", jnum_or_null(f->build.cpu_seconds),
		"warnings", jint_or_null(f->build.warnings),
		"bzimage_bytes", jint_or_null(f->bzimage_bytes),
		"bzimage_sha256", jstr_or_null(sha), "code_bytes", jint_or_null(f->code_bytes),
		"march", jstr_or_null(f->march), "last_full_build", last_full(f)));
	for (size_t i = 0; i < f->build.nwarning_lines; i++) {
		sb_add(&ex, f->build.warning_lines[i]);
		sb_add(&ex, "\n");
	}
	if (ex.len)
		json_object_set_new(b, "log_excerpt", json_string(ex.s));
	free(ex.s);
	json_array_append_new(builds, b);
	for (size_t i = 0; i < f->nboots; i++)
		add_boot(tests, r, f, id, &f->boots[i]);
	for (size_t i = 0; i < f->nsysboots; i++)
		add_sysboot(tests, r, f, id, &f->sysboots[i]);
	free(id);
}

static json_t *checkout(const struct report *r, const char *id, const char *kver,
			const char *release)
{
	json_t *c = json_pack("{s:s, s:s, s:s, s:b}", "id", id, "origin", ORIGIN,
			      "tree_name", "debian-linux-source", "valid", 1);
	char *path = kf_xasprintf("%s/src/Makefile", r->kdir);
	struct stat st;

	json_object_set_new(c, "comment", json_sprintf(
		"Debian's linux-source-%s%s%s with kflavour's patches/%s (probe, KUnit suite)",
		kver, release ? ", release " : "", release ? release : "", kver));
	if (!stat(path, &st))
		set_opt(c, "start_time", when((long long)st.st_mtime));
	free(path);
	json_object_set_new(c, "misc", json_pack("{s:s}", "kver", kver));
	return c;
}

static char *first_line(const char *path)
{
	char *text = path ? kf_read_file(path, NULL) : NULL;

	if (!text)
		return NULL;
	text[strcspn(text, "\n")] = '\0';
	return text;
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
	const char *release = NULL;
	struct report r = { 0 };
	json_t *root, *builds = json_array(), *tests = json_array();
	char *compiler, *checkout_id, *path;
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
	for (int i = optind; i < argc; i++)
		report_add_flavour(&r, argv[i]);
	report_load(&r, kdir);

	/* The tree: its release from any flavour's build, else the kver. */
	for (size_t i = 0; i < r.nfl && !release; i++)
		release = r.fl[i].has_build ? r.fl[i].release : NULL;
	checkout_id = kf_xasprintf("%s:linux-source-%s.%s", ORIGIN, kver, release ? release : kver);
	for (size_t i = 0; i < r.nfl; i++)
		add_flavour(builds, tests, &r, &r.fl[i], checkout_id, kver, compiler);

	root = json_pack("{s:{s:i, s:i}, s:[o], s:o, s:o}", "version", "major", 5, "minor", 3,
			 "checkouts", checkout(&r, checkout_id, kver, release), "builds", builds,
			 "tests", tests);
	path = out ? kf_xstrdup(out) : kf_xasprintf("%s/kcidb.json", kdir);
	if (kf_record_write(root, path))
		kf_die(2, "%s: %s; is out/ writable?", path, strerror(errno));
	json_decref(root);
	free(path);
	free(checkout_id);
	free(compiler);
	report_free(&r);
	return 0;
}
