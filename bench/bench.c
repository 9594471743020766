// SPDX-License-Identifier: GPL-2.0
/*
 * bench - 'make bench': the pipeline's speed, measured in one run.
 *
 *   bench --top DIR --tree KDIR --out DIR --kver K --jobs N
 *            --flavours "generic k8 mpsc" [--distro FLAVOUR] [--steps "N ..."]
 *            [--report FILE]
 *
 * Every out= is a fresh scratch directory under --out that shares the
 * prepared tree of KDIR by hard links (build/linktree.sh), so "cold" means
 * no object of the flavour exists yet; the tree itself is never timed.
 * Steps, one after another:
 *
 *   1. seq: each flavour on its own, 'make build flavour=F CCACHE=0', one
 *      make (-jN) per flavour (configured first, not timed);
 *   2. first: a whole first 'make CCACHE=0' on an empty out=: config, all
 *      builds under one jobserver, the boot matrix, the report. Its build
 *      stage (build.json's started..finished) is what step 1 is compared
 *      with; the whole make with its CPU floor (CPU seconds / jobs);
 *   3. boots: the matrix again from built kernels ('make matrix'), and
 *      each boot's own wall time from its record;
 *   4. no-op: 'make' (every stage) and 'make build' on step 2's out=, best
 *      of 3, and raw Kbuild's no-op on the same trees;
 *   5. ccache in a private, empty cache: a cold build that fills it, then
 *      the same flavour in another out= (hits across out= directories);
 *   6. a fragment toggle: the first flavour without its microcode fragment,
 *      from a scratch copy of the checkout, rebuilt on step 1's out=;
 *   7. raw Kbuild, cold, for the first flavour with step 1's .config;
 *   8. with --distro: that flavour's first 'make config' and 'make' on step
 *      2's out= (beside the tiny flavours, so one report has them all), and
 *      raw Kbuild cold on its .config;
 *   9. jobs: 'make build CCACHE=0', every flavour in one make under one
 *      jobserver on an empty out= (configured first, not timed): step 1's
 *      work and nothing else. Step 2's build stage is not that: the boots
 *      of the flavours built first run inside its window.
 *  10. farm (root; build/farm.sh): the first flavour cold, CCACHE=0,
 *      through three distccd in network namespaces on this machine
 *      (DISTCC_HOSTS, 2 jobs each, make -j8): the build's own CPU is what
 *      this machine spends per object when every compile is remote (the
 *      servers are daemons, not the build's children); then one object
 *      deleted and raw Kbuild run again: the serial part (compile one,
 *      link, modpost, kallsyms, vmlinux, bzImage). docs/build.md's farm
 *      model is made of these rows and step 8's.
 *  11. c2c (docs/c2c.md): on step 2's out= (its kernels built first when
 *      missing, not timed, nor the c2c plugins and the initramfs), 'make
 *      c2c' of every flavour, runs=5, on a fresh c2c state (each flavour's
 *      c2c/ removed): the 3 minutes for the three tiny flavours.
 *      Then the first flavour's run 1 again, QEMU's own command from its
 *      boot record, with the plugin and without it (the same boot, the
 *      plugin's -plugin and -d plugin taken out), alternated, 3 times each:
 *      the median walls' ratio is the plugin's cost (at most 5x).
 *
 * The steps run in the order of what the goals need most, so a run cut
 * short still answers the first questions; --steps "4 5" runs only some,
 * on the seq and first directories an earlier run left.
 *
 * Wall time by the monotonic clock, CPU as user + system of the command's
 * process tree (wait4's rusage). Each command's output goes to a log under
 * --out. The table is rewritten after every step (an interrupted run keeps
 * what it measured) to --report, and printed at the end.
 */
#include "../lib/kf.h"
#include "../lib/policy.h"
#include "../lib/proc.h"
#include "../lib/records.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_FLAVOURS 16
#define C2C_RUNS 5		/* step 11: make c2c runs= */
#define C2C_ROUNDS 3		/* step 11: boots with and without the plugin, each (odd) */

/* A measurement; wall < 0 until it was taken. */
struct run {
	double wall;
	double cpu;
};

static const struct run none = { -1, -1 };

static struct {
	const char *top, *bout, *kver, *distro, *report;
	const char *kcppflags;		/* build.mk's kbuild_cppflags */
	const char *flavour_arg;	/* --flavours as given */
	char *src_kdir, *flavours;	/* b.fl points into flavours, a copy */
	const char *steps;		/* --steps "4 5": only these (default all) */
	int jobs, run_no, nf;	/* run_no: make runs so far, in the log lines */
	char *fl[MAX_FLAVOURS];
	double load_start;
	time_t start_time;
} b;

/* Everything measured so far; the table prints what is there. */
static struct {
	struct run seq[MAX_FLAVOURS], seq_total;
	struct run jobs;		/* every build in one make */
	struct run first, first_build;	/* whole make; its build stage (wall from records) */
	struct run matrix;
	double boot_max, boot_median;
	int boots;
	struct run noop_all, noop_build, raw_noop, raw;
	struct run cc_cold, cc_warm;
	long cc_hits, cc_misses;
	struct run toggle;
	long toggle_compiled, cold_compiled;
	struct run d_config, d_make, d_build, d_raw;
	long d_compiled;
	struct run farm, serial;
	long farm_compiled, farm_remote, farm_local;
	struct run c2c_make, c2c_plugin, c2c_plain;	/* step 11 */
} m;

/* Run argv (NULL-terminated) with o, waiting at most timeout seconds (-1:
 * no limit); its exit status in *status. The one place a step's figures
 * are measured: wall from here, CPU from the process tree's rusage. */
static struct run measure(const struct kf_proc_opts *o, char *const argv[], int timeout,
			  int *status)
{
	double start = kf_now();
	struct kf_proc p;
	struct rusage ru;
	struct run r;

	if (kf_proc_start(&p, argv, o))
		kf_die(2, "cannot run %s (log %s): %s", argv[0], o->log, strerror(errno));
	if (!kf_proc_wait(&p, timeout, status, &ru)) {
		kf_proc_stop(&p, 5, status);
		kf_die(1, "%s did not end within %d s; its output: %s", argv[0], timeout, o->log);
	}
	r.wall = kf_now() - start;
	r.cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	if (kf_proc_signal)
		kf_proc_die_of(kf_proc_signal);
	return r;
}

/* Run argv (NULL-terminated) in dir with env's NAME=VALUE strings, output
 * appended to log; die on failure. */
static struct run run_in(const char *dir, const char *log, char *const env[],
			 char *const argv[])
{
	struct kf_proc_opts o = { .log = log, .append = 1, .dir = dir, .env = env };
	int status;
	struct run r = measure(&o, argv, -1, &status);

	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		kf_die(1, "'%s %s' failed; its output: %s", argv[0], argv[1] ? argv[1] : "", log);
	return r;
}

static struct run run(const char *log, char *const env[], char *const argv[])
{
	return run_in(b.top, log, env, argv);
}

static char *xout(const char *name)
{
	return kf_xasprintf("%s/%s", b.bout, name);
}

/* A fresh scratch out= with the shared tree; its log (appended to). */
static char *scratch(const char *name, char **log)
{
	char *dir = xout(name), *kd = kf_xasprintf("%s/%s", dir, b.kver);
	char *rm[] = { "rm", "-rf", dir, NULL };
	char *link[] = { "build/linktree.sh", b.src_kdir, kd, NULL };

	*log = kf_xasprintf("%s/%s.log", b.bout, name);
	unlink(*log);
	run(*log, NULL, rm);
	run(*log, NULL, link);
	free(kd);
	return dir;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	printf("  BENCH   ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* make [goal] out=OUT kver= jobs= [flavour=F] [CCACHE=C], from top (or dir). */
static struct run make_from(const char *dir, const char *log, const char *out,
			    const char *goal, const char *flavour, const char *ccache,
			    char *const env[])
{
	char *o = kf_xasprintf("out=%s", out), *k = kf_xasprintf("kver=%s", b.kver);
	char *jb = kf_xasprintf("jobs=%d", b.jobs), *f = NULL, *c = NULL;
	char *argv[9];
	int n = 0;
	struct run r;

	argv[n++] = "make";
	if (goal)
		argv[n++] = (char *)goal;
	argv[n++] = o;
	argv[n++] = k;
	argv[n++] = jb;
	if (flavour)
		argv[n++] = f = kf_xasprintf("flavour=%s", flavour);
	if (ccache)
		argv[n++] = c = kf_xasprintf("CCACHE=%s", ccache);
	argv[n] = NULL;
	say("run %d: make %s%s%s%s (log: %s)", ++b.run_no, goal ? goal : "(all)",
	    flavour ? " flavour=" : "", flavour ? flavour : "",
	    ccache && strcmp(ccache, "0") == 0 ? " CCACHE=0" : "", log);
	r = run_in(dir, log, env, argv);
	free(k);
	free(jb);
	free(o);
	free(f);
	free(c);
	return r;
}

static struct run make_in(const char *log, const char *out, const char *goal,
			  const char *flavour, const char *ccache, char *const env[])
{
	return make_from(b.top, log, out, goal, flavour, ccache, env);
}

/*
 * Raw Kbuild in an O= directory from the tree KDIR/src, with the build
 * stage's reproducibility env. For a no-op on a make build tree, KDIR must
 * be that out='s own <out>/<kver>: Kbuild records the tree's path in every
 * command, and another path (even of hard links to the same files) is
 * another command, so Kbuild rebuilds everything.
 */
static struct run kbuild(const char *log, const char *kdir, const char *odir)
{
	char *src = kf_xasprintf("%s/src", kdir), *o = kf_xasprintf("O=%s", odir);
	char *j = kf_xasprintf("-j%d", b.jobs), *mk = kf_xasprintf("%s/Makefile", src);
	char ts[128];
	struct stat st;
	struct tm tm;
	char *argv[] = { "make", j, "-C", src, o, "bzImage", NULL };
	/* build.mk's kbuild_env: a flag that differs (KCPPFLAGS) changes every
	 * recorded command, and the "no-op" on make build's trees rebuilds all.
	 * So: its kbuild_cppflags (--kcppflags) and its kbuild_debugmap, the
	 * O= directory (absolute, as build.mk's $(abspath)) mapped to '.'. */
	char *cppflags = kf_xasprintf("KCPPFLAGS=%s -fdebug-prefix-map=%s=.", b.kcppflags, odir);
	char *env[] = { ts, "KBUILD_BUILD_USER=kflavour", "KBUILD_BUILD_HOST=kflavour",
			"KBUILD_BUILD_VERSION=1", cppflags, "CCACHE_DISABLE=1", NULL };
	struct run r;

	if (stat(mk, &st) < 0)
		kf_die(2, "%s: %s", mk, strerror(errno));
	/* as build.mk: LC_ALL=C date -u -r src/Makefile */
	gmtime_r(&st.st_mtime, &tm);
	strftime(ts, sizeof(ts), "KBUILD_BUILD_TIMESTAMP=%a %b %e %H:%M:%S UTC %Y", &tm);
	r = run(log, env, argv);
	free(cppflags);
	free(src);
	free(o);
	free(j);
	free(mk);
	return r;
}

/* Raw Kbuild, cold, in a fresh O= of its own with a copy of config. */
static struct run kbuild_cold(const char *name, const char *config)
{
	char *rdir = xout(name), *log = kf_xasprintf("%s/%s.log", b.bout, name);
	char *cfg_to = kf_xasprintf("%s/.config", rdir);
	char *rm[] = { "rm", "-rf", rdir, NULL };
	char *cp[] = { "cp", (char *)config, cfg_to, NULL };
	struct run r;

	unlink(log);
	run(log, NULL, rm);
	kf_mkdir_p(rdir);
	run(log, NULL, cp);
	say("run %d: raw Kbuild: make -j%d -C src O=%s bzImage (log: %s)", ++b.run_no,
	    b.jobs, rdir, log);
	r = kbuild(log, b.src_kdir, rdir);
	free(rdir);
	free(log);
	free(cfg_to);
	return r;
}

/* The flavour's build.json in out; free it with kf_build_rec_free. */
static struct kf_build_rec build_json(const char *out, const char *flavour)
{
	char *path = kf_xasprintf("%s/%s/%s/build.json", out, b.kver, flavour);
	struct kf_build_rec r;

	kf_build_rec_read(&r, path, KF_MUST, "see the log of the step that writes it");
	free(path);
	return r;
}

/* How many objects the flavour's last build in out compiled. */
static long compiled(const char *out, const char *flavour)
{
	struct kf_build_rec br = build_json(out, flavour);
	long n = (long)br.run.compiled;

	kf_build_rec_free(&br);
	return n;
}

/* The build stage of several flavours of one out=: first start to last end. */
static struct run build_stage(const char *out, char *const fl[], int nf)
{
	struct run r = { 0, 0 };
	long lo = -1, hi = -1;

	for (int i = 0; i < nf; i++) {
		struct kf_build_rec br = build_json(out, fl[i]);

		if (br.run.started < 0 || br.run.finished < 0)
			kf_die(2, "%s/%s/%s/build.json: no started/finished times", out, b.kver, fl[i]);
		if (lo < 0 || br.run.started < lo)
			lo = br.run.started;
		if (br.run.finished > hi)
			hi = br.run.finished;
		if (!isnan(br.run.cpu_seconds))
			r.cpu += br.run.cpu_seconds;
		kf_build_rec_free(&br);
	}
	r.wall = (double)(hi - lo);
	return r;
}

static int cmp_double(const void *a, const void *b2)
{
	double x = *(const double *)a, y = *(const double *)b2;

	return (x > y) - (x < y);
}

/* Each current boot record's wall time, over the flavours of out. */
static void boot_walls(const char *out)
{
	double w[256];
	int n = 0;

	for (int i = 0; i < b.nf; i++) {
		char *dir = kf_xasprintf("%s/%s/%s", out, b.kver, b.fl[i]);
		struct kf_build_rec br = build_json(out, b.fl[i]);
		struct kf_boots bs;

		kf_boots_load(&bs, dir, &br, NULL, 0);
		for (size_t k = 0; k < bs.ncur; k++)
			if (!isnan(bs.cur[k].wall_seconds) && n < 256)
				w[n++] = bs.cur[k].wall_seconds;
		kf_boots_free(&bs);
		kf_build_rec_free(&br);
		free(dir);
	}
	if (n == 0)
		kf_die(2, "no boot records with wall_seconds under %s", out);
	qsort(w, (size_t)n, sizeof(w[0]), cmp_double);
	m.boots = n;
	m.boot_max = w[n - 1];
	m.boot_median = n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
}

/* Take fragment 'word' off the recipe at path (lib/recipe.c's writer). */
static void drop_fragment(const char *path, const char *word)
{
	struct kf_recipe r;
	struct strbuf sb = { 0 };
	char err[1024];
	size_t n = strlen(word);
	int found = 0;

	if (kf_recipe_read(path, &r, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
	for (const char *p = r.value[KF_FRAGMENTS]; *p;) {
		size_t w;

		p += strspn(p, " \t");
		w = strcspn(p, " \t");
		if (w == n && !strncmp(p, word, n))
			found = 1;
		else if (w)
			sb_addf(&sb, "%s%.*s", sb.s ? " " : "", (int)w, p);
		p += w;
	}
	if (!found)
		kf_die(2, "%s: no fragment '%s' to toggle", path, word);
	kf_recipe_set(&r, KF_FRAGMENTS, sb.s ? sb.s : "");
	if (kf_recipe_write(path, &r, NULL, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
	kf_recipe_free(&r);
	free(sb.s);
}

/* Drop fragments/policy's rules for symbol sym (lib/policy.c): the toggle
 * turns off what the policy requires. */
static void drop_policy(const char *path, const char *sym)
{
	char err[1024];

	if (kf_policy_drop(path, sym, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
}

static double loadavg(void)
{
	double l = -1;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = -1;
		fclose(f);
	}
	return l;
}

static void row(FILE *t, const char *fmt_num, struct run r, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void row(FILE *t, const char *fmt_num, struct run r, const char *fmt, ...)
{
	char label[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(label, sizeof(label), fmt, ap);
	va_end(ap);
	if (r.wall < 0) {
		fprintf(t, "%-60s %17s\n", label, "not measured");
		return;
	}
	fprintf(t, "%-60s ", label);
	fprintf(t, fmt_num, r.wall, r.cpu);
	fputc('\n', t);
}

/* A ratio line with its goal; "n/a" until both sides were measured. */
static void ratio(FILE *t, const char *label, double num, double den, const char *goal)
{
	if (num < 0 || den <= 0)
		fprintf(t, "  %-56s %8s   %s\n", label, "n/a", goal);
	else
		fprintf(t, "  %-56s %8.3f   %s\n", label, num / den, goal);
}

static void table(void)
{
	char *text, when[64];
	size_t len;
	FILE *t = open_memstream(&text, &len);
	const char *f0 = b.fl[0];
	double floor_first = m.first.cpu / b.jobs;

	if (!t)
		kf_die(2, "out of memory");
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", gmtime(&b.start_time));
	fprintf(t, "kflavour bench, kver %s, %d jobs, started %s, %.0f min so far;"
		" load average %.1f at start, %.1f now\n\n", b.kver, b.jobs, when,
		difftime(time(NULL), b.start_time) / 60, b.load_start, loadavg());
	fprintf(t, "%-60s %8s %8s\n", "measurement", "wall s", "cpu s");
	for (int i = 0; i < b.nf; i++)
		row(t, "%8.1f %8.1f", m.seq[i], "1. cold build, own make -j%d: %s", b.jobs, b.fl[i]);
	row(t, "%8.1f %8.1f", m.seq_total, "1. cold builds, one make per flavour: total");
	row(t, "%8.1f %8.1f", m.first, "2. first make on an empty out= (all stages)");
	row(t, "%8.1f %8.1f", m.first_build, "2. its build stage (records; boots run inside)");
	row(t, "%8.1f %8.1f", m.matrix, "3. boot matrix, %d boots", m.boots);
	if (m.boots)
		fprintf(t, "%-60s %8.1f\n%-60s %8.1f\n", "3. one boot, median of the matrix",
			m.boot_median, "3. one boot, slowest of the matrix", m.boot_max);
	row(t, "%8.2f %8.2f", m.noop_all, "4. no-op make, every stage (best of 3)");
	row(t, "%8.2f %8.2f", m.noop_build, "4. no-op make build (best of 3)");
	row(t, "%8.2f %8.2f", m.raw_noop, "4. no-op raw Kbuild, one flavour after another");
	row(t, "%8.1f %8.1f", m.cc_cold, "5. cold with ccache (filling it): %s", f0);
	row(t, "%8.1f %8.1f", m.cc_warm, "5. ccache-warm, in another out=: %s", f0);
	if (m.cc_warm.wall >= 0)
		fprintf(t, "%-60s %ld hits, %ld misses\n", "5. warm build's ccache", m.cc_hits,
			m.cc_misses);
	row(t, "%8.1f %8.1f", m.toggle, "6. rebuild after dropping microcode: %s", f0);
	if (m.toggle.wall >= 0)
		fprintf(t, "%-60s %ld of %ld\n", "6. objects compiled by it, of a cold build",
			m.toggle_compiled, m.cold_compiled);
	row(t, "%8.1f %8.1f", m.raw, "7. cold raw Kbuild: %s", f0);
	if (b.distro) {
		row(t, "%8.1f %8.1f", m.d_config, "8. make config: %s", b.distro);
		row(t, "%8.1f %8.1f", m.d_make, "8. make (build, boots, report): %s", b.distro);
		row(t, "%8.1f %8.1f", m.d_build, "8. its build stage (record), %ld objects", m.d_compiled);
		row(t, "%8.1f %8.1f", m.d_raw, "8. cold raw Kbuild: %s", b.distro);
	}
	row(t, "%8.1f %8.1f", m.jobs, "9. cold builds, all in one make (one jobserver)");
	row(t, "%8.1f %8.1f", m.farm, "10. cold through 3 distccd (-j8, CCACHE=0): %s", f0);
	if (m.farm.wall >= 0)
		fprintf(t, "%-60s %8ld %8ld\n", "10. its compiles: remote, here", m.farm_remote,
			m.farm_local);
	row(t, "%8.1f %8.1f", m.serial, "10. serial part: one object deleted, raw Kbuild");
	row(t, "%8.1f %8.1f", m.c2c_make, "11. make c2c, %d flavours x %d runs, fresh c2c state", b.nf,
	    C2C_RUNS);
	row(t, "%8.1f %8.1f", m.c2c_plugin, "11. one c2c boot (pipe) with the plugin, median of %d",
	    C2C_ROUNDS);
	row(t, "%8.1f %8.1f", m.c2c_plain, "11. the same boot without it, median of %d", C2C_ROUNDS);
	fprintf(t, "\nratios (goal beside each)\n");
	ratio(t, "one jobserver / one make per flavour (wall)", m.jobs.wall, m.seq_total.wall,
	      "<= 1");
	ratio(t, "first make / its CPU floor (cpu / jobs)", m.first.wall, floor_first, "<= 1.05");
	ratio(t, "builds under one jobserver / their CPU floor", m.jobs.wall, m.jobs.cpu / b.jobs,
	      "(step 9)");
	ratio(t, "slowest boot, seconds", m.boot_max, 1, "<= 2");
	ratio(t, "boot matrix, seconds", m.matrix.wall, 1, "<= 20");
	ratio(t, "no-op make, every stage, seconds", m.noop_all.wall, 1, "< 3");
	ratio(t, "make build / raw Kbuild, cold (wall)", m.seq[0].wall, m.raw.wall, "~1");
	ratio(t, "ccache filling / CCACHE=0, cold (wall)", m.cc_cold.wall, m.seq[0].wall, "<= 1.05");
	ratio(t, "ccache-warm / CCACHE=0 cold (wall)", m.cc_warm.wall, m.seq[0].wall, "<= 0.25");
	ratio(t, "fragment toggle / cold build (wall)", m.toggle.wall, m.seq[0].wall, "<= 0.10");
	ratio(t, "farm: CPU here per object, all compiles remote",
	      m.farm.wall < 0 ? -1 : m.farm.cpu - m.serial.cpu, (double)m.farm_compiled, "(model)");
	ratio(t, "CPU per object, all compiled here (step 7)",
	      m.farm.wall < 0 || m.raw.wall < 0 ? -1 : m.raw.cpu - m.serial.cpu,
	      (double)m.farm_compiled, "(model)");
	ratio(t, "raw Kbuild no-op / make build no-op (wall)", m.raw_noop.wall, m.noop_build.wall,
	      "(> 1: ours is faster)");
	ratio(t, "c2c: boot with the plugin / without it (wall)", m.c2c_plugin.wall,
	      m.c2c_plain.wall, "<= 5");
	ratio(t, "c2c: make c2c, every flavour x 5 runs, seconds", m.c2c_make.wall, 1,
	      "<= 180 (3 tiny flavours)");
	if (b.distro) {
		ratio(t, "distro: build stage / raw Kbuild, cold (wall)", m.d_build.wall,
		      m.d_raw.wall, "~1");
		/* a sum is n/a until both of its parts were measured */
		ratio(t, "distro: first make / its CPU floor",
		      m.d_make.wall < 0 ? -1 : m.d_config.wall + m.d_make.wall,
		      (m.d_config.cpu + m.d_make.cpu) / b.jobs, "<= 1.05");
		ratio(t, "distro: make config, seconds", m.d_config.wall, 1, "<= 15");
	}
	fclose(t);
	if (b.report && kf_write_atomic(b.report, text, len) < 0)
		kf_die(2, "cannot write %s: %s", b.report, strerror(errno));
	free(text);
}

static void usage(void)
{
	fprintf(stderr, "usage: bench --top DIR --tree KDIR --out DIR --kver K --jobs N"
		" --flavours LIST --kcppflags FLAGS [--distro FLAVOUR] [--steps \"N ...\"]"
		" [--report FILE]\n");
	exit(2);
}

/* Is step n selected? --steps "4 5 6" runs those only, on the scratch
 * out= directories an earlier run left (seq, first). */
static int step(int n)
{
	char want[12];
	const char *p;

	if (!b.steps)
		return 1;
	size_t wl;

	snprintf(want, sizeof(want), "%d", n);
	wl = strlen(want);	/* step 10 is two digits: "1" must not match it */
	for (p = b.steps; (p = strstr(p, want)); p++)
		if ((p == b.steps || p[-1] == ' ') && (p[wl] == ' ' || !p[wl]))
			return 1;
	return 0;
}

static void parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, 't' },
		{ "out", required_argument, NULL, 'o' },
		{ "kver", required_argument, NULL, 'k' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "flavours", required_argument, NULL, 'f' },
		{ "report", required_argument, NULL, 'r' },
		{ "steps", required_argument, NULL, 's' },
		{ "distro", required_argument, NULL, 'd' },
		{ "tree", required_argument, NULL, 'T' },
		{ "kcppflags", required_argument, NULL, 'K' },
		{ NULL, 0, NULL, 0 },
	};
	const char *flavours = NULL;
	char *tok, *save = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't': b.top = optarg; break;
		case 'o': b.bout = optarg; break;
		case 'k': b.kver = optarg; break;
		case 'j': b.jobs = atoi(optarg); break;
		case 'f': flavours = optarg; break;
		case 'r': b.report = optarg; break;
		case 's': b.steps = *optarg ? optarg : NULL; break;
		case 'd': b.distro = *optarg ? optarg : NULL; break;
		case 'T': free(b.src_kdir); b.src_kdir = kf_xstrdup(optarg); break;
		case 'K': b.kcppflags = optarg; break;
		default: usage();
		}
	}
	if (optind != argc || !b.top || !b.bout || !b.kver || b.jobs < 1 || !flavours ||
	    !b.src_kdir || !b.kcppflags)
		usage();
	b.flavour_arg = flavours;
	b.flavours = kf_xstrdup(flavours);
	for (tok = strtok_r(b.flavours, " ", &save); tok && b.nf < MAX_FLAVOURS;
	     tok = strtok_r(NULL, " ", &save))
		b.fl[b.nf++] = tok;
	if (b.nf == 0)
		usage();
}

/* 1: one make per flavour, one after another; returns its out=. */
static char *step_seq(void)
{
	char *log, *dir = scratch("seq", &log);

	say("configuring %s (not timed)", dir);
	make_in(log, dir, "config", NULL, NULL, NULL);
	m.seq_total = (struct run){ 0, 0 };
	for (int i = 0; i < b.nf; i++) {
		m.seq[i] = make_in(log, dir, "build", b.fl[i], "0", NULL);
		m.seq_total.wall += m.seq[i].wall;
		m.seq_total.cpu += m.seq[i].cpu;
		say("  %s: %.0f s", b.fl[i], m.seq[i].wall);
	}
	m.cold_compiled = compiled(dir, b.fl[0]);
	free(log);
	return dir;
}

/* 2: the first make on an empty out=; returns its out=. */
static char *step_first(void)
{
	char *log, *dir = scratch("first", &log);

	m.first = make_in(log, dir, NULL, NULL, "0", NULL);
	m.first_build = build_stage(dir, b.fl, b.nf);
	say("  first make: %.0f s, builds %.0f s", m.first.wall, m.first_build.wall);
	free(log);
	return dir;
}

/* 3: the matrix again from the built kernels of first. */
static void step_matrix(const char *first)
{
	char *log = xout("first.log"), *rm = kf_xasprintf("rm -rf %s/%s/*/boot", first, b.kver);
	char *sh[] = { "sh", "-c", rm, NULL };

	run(log, NULL, sh);
	m.matrix = make_in(log, first, "matrix", NULL, NULL, NULL);
	boot_walls(first);
	say("  matrix: %.1f s, slowest boot %.1f s", m.matrix.wall, m.boot_max);
	free(rm);
	free(log);
}

/* 4: no-ops on first: every stage, the build stage, raw Kbuild. */
static void step_noop(const char *first)
{
	char *log = xout("first.log"), *kdir = kf_xasprintf("%s/%s", first, b.kver);

	for (int i = 0; i < 3; i++) {
		struct run all = make_in(log, first, NULL, NULL, "0", NULL);
		struct run bld = make_in(log, first, "build", NULL, "0", NULL);

		if (m.noop_all.wall < 0 || all.wall < m.noop_all.wall)
			m.noop_all = all;
		if (m.noop_build.wall < 0 || bld.wall < m.noop_build.wall)
			m.noop_build = bld;
	}
	m.raw_noop = (struct run){ 0, 0 };
	for (int i = 0; i < b.nf; i++) {
		char *od = kf_xasprintf("%s/%s", kdir, b.fl[i]);
		struct run r = kbuild(log, kdir, od);

		m.raw_noop.wall += r.wall;
		m.raw_noop.cpu += r.cpu;
		free(od);
	}
	free(kdir);
	free(log);
}

/* 5: ccache, a private cache filled by one out= and hit from another. */
static void step_ccache(void)
{
	char *cdir = xout("ccache-dir"), *log = xout("ccache.log"), *c1, *c2;
	char *rm[] = { "rm", "-rf", cdir, NULL };
	char *cd = kf_xasprintf("CCACHE_DIR=%s", cdir), *env[] = { cd, NULL };
	struct kf_build_rec br;

	unlink(log);
	run(log, NULL, rm);
	free(log);
	c1 = scratch("ccache1", &log);
	make_in(log, c1, "config", b.fl[0], NULL, env);
	m.cc_cold = make_in(log, c1, "build", b.fl[0], "1", env);
	free(log);
	c2 = scratch("ccache2", &log);
	make_in(log, c2, "config", b.fl[0], NULL, env);
	m.cc_warm = make_in(log, c2, "build", b.fl[0], "1", env);
	br = build_json(c2, b.fl[0]);
	m.cc_hits = br.ccache_hits;
	m.cc_misses = br.ccache_misses;
	kf_build_rec_free(&br);
	say("  warm: %.0f s, ccache %ld hits / %ld misses", m.cc_warm.wall, m.cc_hits, m.cc_misses);
	free(c1);
	free(c2);
	free(cdir);
	free(cd);
	free(log);
}

/* 6: drop the microcode fragment of the first flavour, rebuild on seq. */
static void step_toggle(const char *seq)
{
	char *copy = xout("toggle-top"), *log = xout("toggle.log");
	char *tar = kf_xasprintf("rm -rf '%s' && mkdir -p '%s' && tar -C '%s' --exclude=./out "
				 "--exclude=./.git -cf - . | tar -C '%s' -xf -", copy, copy, b.top,
				 copy);
	char *sh[] = { "sh", "-c", tar, NULL };
	char *recipe = kf_xasprintf("%s/flavours/%s.flavour", copy, b.fl[0]);
	char *policy = kf_xasprintf("%s/fragments/policy", copy);
	char *cfg = kf_xasprintf("%s/%s/%s/.config", seq, b.kver, b.fl[0]), *keep = xout("cold.config");
	char *cp[] = { "cp", cfg, keep, NULL };

	unlink(log);
	run(log, NULL, cp);	/* the cold build's .config, for step 7 */
	run(log, NULL, sh);
	drop_fragment(recipe, "microcode");
	drop_policy(policy, "MICROCODE");
	make_from(copy, log, seq, "config", b.fl[0], NULL, NULL);
	m.toggle = make_from(copy, log, seq, "build", b.fl[0], "0", NULL);
	m.toggle_compiled = compiled(seq, b.fl[0]);
	say("  toggle: %.0f s, %ld objects compiled", m.toggle.wall, m.toggle_compiled);
	free(cfg);
	free(keep);
	free(copy);
	free(log);
	free(tar);
	free(recipe);
	free(policy);
}

/* 9: every flavour's build in one make, one jobserver, nothing else. */
static void step_jobs(void)
{
	char *log, *dir = scratch("jobs", &log);

	say("configuring %s (not timed)", dir);
	make_in(log, dir, "config", NULL, NULL, NULL);
	m.jobs = make_in(log, dir, "build", NULL, "0", NULL);
	say("  all builds: %.0f s", m.jobs.wall);
	free(dir);
	free(log);
}

/* 8: a distro flavour's first make beside the tiny ones, and raw Kbuild. */
static void step_distro(const char *first)
{
	char *log = xout("distro.log"), *cfg, *all;
	char *fl[] = { (char *)b.distro };

	unlink(log);
	m.d_config = make_in(log, first, "config", b.distro, NULL, NULL);
	table();
	m.d_make = make_in(log, first, NULL, b.distro, "0", NULL);
	m.d_build = build_stage(first, fl, 1);
	m.d_compiled = compiled(first, b.distro);
	say("  %s: config %.1f s, make %.0f s", b.distro, m.d_config.wall, m.d_make.wall);
	table();
	/* the report of the tiny flavours and the distro one side by side (a
	 * report covers the flavours flavour= selects, by default the tiny ones) */
	all = kf_xasprintf("%s %s", b.flavour_arg, b.distro);
	make_in(log, first, "report", all, NULL, NULL);
	free(all);
	cfg = kf_xasprintf("%s/%s/%s/.config", first, b.kver, b.distro);
	m.d_raw = kbuild_cold("distro-raw", cfg);
	free(cfg);
	free(log);
}

/* The farm step's servers, taken down however bench ends (kf_die exits). */
static char *farm_dir;
static void farm_down(void)
{
	if (farm_dir) {
		char *down[] = { "build/farm.sh", "down", farm_dir, NULL };
		struct kf_proc_opts o = { .log = "/dev/null", .dir = b.top };
		struct kf_proc p;
		int status;

		if (kf_proc_start(&p, down, &o) == 0)
			kf_proc_wait(&p, 60, &status, NULL);
		free(farm_dir);
		farm_dir = NULL;
	}
}

/* 10: a farm of three distccd on this machine; the serial part. */
static void step_farm(void)
{
	char *log, *dir = scratch("farm", &log), *fdir = xout("farm-servers");
	char *up_sh = kf_xasprintf("farm_jobs=2 build/farm.sh up '%s' ok ok ok", fdir);
	char *up[] = { "sh", "-c", up_sh, NULL };
	char *rm[] = { "rm", "-rf", fdir, NULL };
	char *hf = kf_xasprintf("%s/hosts", fdir), *hosts, *ddir = xout("farm-distcc");
	char *o = kf_xasprintf("out=%s", dir), *k = kf_xasprintf("kver=%s", b.kver);
	char *f = kf_xasprintf("flavour=%s", b.fl[0]), *dh, *dd = kf_xasprintf("DISTCC_DIR=%s", ddir);
	char *kd = kf_xasprintf("%s/%s", dir, b.kver), *od = kf_xasprintf("%s/%s", kd, b.fl[0]);
	char *obj = kf_xasprintf("%s/init/main.o", od);
	struct kf_build_rec br;

	if (geteuid() != 0) {
		say("step 10 skipped: a farm in network namespaces needs root");
		goto out;
	}
	run(log, NULL, rm);
	kf_mkdir_p(ddir);
	farm_dir = kf_xstrdup(fdir);
	atexit(farm_down);
	run(log, NULL, up);
	hosts = kf_read_file(hf, NULL);
	if (!hosts)
		kf_die(2, "build/farm.sh wrote no %s; see %s", hf, log);
	dh = kf_xasprintf("DISTCC_HOSTS=%s", kf_trim(hosts));
	{
		char *argv[] = { "make", "config", o, k, f, NULL };
		char *argv2[] = { "make", "build", o, k, f, "CCACHE=0", "-j8", dh, NULL };
		char *env[] = { dd, NULL };

		say("configuring %s (not timed)", dir);
		run(log, NULL, argv);
		say("run %d: make build %s CCACHE=0 -j8 %s (log: %s)", ++b.run_no, f, dh, log);
		m.farm = run(log, env, argv2);
	}
	br = build_json(dir, b.fl[0]);
	m.farm_compiled = (long)br.run.compiled;
	kf_build_rec_free(&br);
	{
		/* build.json's distcc counts; the typed reader does not carry them */
		char *bj = kf_xasprintf("%s/build.json", od);
		char *q = kf_xasprintf("jq -r '\"\\(.distcc.remote) \\(.distcc.local)\"' '%s' > '%s.counts'",
				       bj, bj);
		char *sh[] = { "sh", "-c", q, NULL };
		char *cnt = kf_xasprintf("%s.counts", bj), *text;

		run(log, NULL, sh);
		text = kf_read_file(cnt, NULL);
		if (!text || sscanf(text, "%ld %ld", &m.farm_remote, &m.farm_local) != 2)
			kf_die(2, "%s: no distcc counts", bj);
		free(text);
		free(cnt);
		free(q);
		free(bj);
	}
	say("  farm: %.0f s, %.0f s CPU here, %ld compiled (%ld remote)", m.farm.wall, m.farm.cpu,
	    m.farm_compiled, m.farm_remote);
	farm_down();
	table();
	if (unlink(obj) < 0)
		kf_die(2, "%s: %s", obj, strerror(errno));
	say("run %d: raw Kbuild after deleting %s (log: %s)", ++b.run_no, obj, log);
	m.serial = kbuild(log, kd, od);
	say("  serial part: %.1f s", m.serial.wall);
	free(dh);
	free(hosts);
out:
	free(obj);
	free(od);
	free(kd);
	free(dd);
	free(f);
	free(k);
	free(o);
	free(ddir);
	free(hf);
	free(up_sh);
	free(fdir);
	free(dir);
	free(log);
}

/* One QEMU run of argv (a boot record's command), its output appended to
 * log; it must end by itself within 300 s with the exit status want (the
 * boot's own, from its record: the guest's isa-debug-exit). */
static struct run qemu_once(const char *log, char *const argv[], long long want)
{
	struct kf_proc_opts o = { .log = log, .append = 1, .dir = b.top, .null_in = 1,
				  .group = 1 };
	int status;
	struct run r = measure(&o, argv, 300, &status);

	if (!WIFEXITED(status) || WEXITSTATUS(status) != want)
		kf_die(1, "QEMU ended with status %d, its boot record says %lld; its output: %s",
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1, want, log);
	return r;
}

/* The median of step 11's C2C_ROUNDS runs (an odd number), wall and CPU
 * each on its own. */
static struct run median(const struct run *r)
{
	double w[C2C_ROUNDS], c[C2C_ROUNDS];

	for (int i = 0; i < C2C_ROUNDS; i++) {
		w[i] = r[i].wall;
		c[i] = r[i].cpu;
	}
	qsort(w, C2C_ROUNDS, sizeof(w[0]), cmp_double);
	qsort(c, C2C_ROUNDS, sizeof(c[0]), cmp_double);
	return (struct run){ w[C2C_ROUNDS / 2], c[C2C_ROUNDS / 2] };
}

/* A plugin's argument with its out=FILE replaced by out=raw. */
static char *plugin_arg(const char *arg, const char *raw)
{
	struct strbuf sb = { 0 };
	char *copy = kf_xstrdup(arg), *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (!strncmp(tok, "out=", 4))
			sb_addf(&sb, "%sout=%s", sb.s ? "," : "", raw);
		else
			sb_addf(&sb, "%s%s", sb.s ? "," : "", tok);
	free(copy);
	return sb.s ? sb.s : kf_xstrdup("");
}

/* 11: make c2c on a fresh c2c state; a c2c boot with and without the plugin. */
static void step_c2c(const char *first)
{
	char *log = xout("c2c.log"), *kd = kf_xasprintf("%s/%s", first, b.kver);
	char *o = kf_xasprintf("out=%s", first), *k = kf_xasprintf("kver=%s", b.kver);
	char *j = kf_xasprintf("jobs=%d", b.jobs), *f = kf_xasprintf("flavour=%s", b.flavour_arg);
	char *rn = kf_xasprintf("runs=%d", C2C_RUNS), *raw = xout("c2c-bench.raw");
	char *link[] = { "build/linktree.sh", b.src_kdir, kd, NULL };
	char *cp = kf_xasprintf("mkdir -p '%s/qemu-src' && for d in '%s'/../qemu-src/*/; do "
				"[ -f \"$d/VERSION\" ] && cp -an \"${d%%/}\" '%s/qemu-src/'; done; true",
				first, b.src_kdir, first);
	char *qsrc[] = { "sh", "-c", cp, NULL };
	char *prep[] = { "make", "build", "c2c-plugins", "initramfs", o, k, j, f, NULL };
	char *c2c[] = { "make", "c2c", o, k, j, f, rn, NULL };
	/* c2c/c2c.mk: workload pipe, cpu nocona by default, run 1 */
	char *rec = kf_xasprintf("%s/%s/c2c/runs/pipe/nocona/1/nocona.json", kd, b.fl[0]);
	struct run with[C2C_ROUNDS], without[C2C_ROUNDS];
	struct kf_boot_rec br;
	char **pa, **na;
	size_t np = 0, nn = 0;

	unlink(log);
	run(log, NULL, link);
	/* The qemu source files the plugins are built from, as this out= has
	 * them (c2c/qemu-src.mk's cache): a fresh out= would download Debian's
	 * qemu source package again. Not its apt lists; none when it has none. */
	run(log, NULL, qsrc);
	say("preparing %s: kernels, c2c plugins, initramfs (not timed; log: %s)", first, log);
	run(log, NULL, prep);
	for (int i = 0; i < b.nf; i++) {
		char *dir = kf_xasprintf("%s/%s/c2c", kd, b.fl[i]);
		char *rm[] = { "rm", "-rf", dir, NULL };

		run(log, NULL, rm);
		free(dir);
	}
	say("run %d: make c2c %s %s (log: %s)", ++b.run_no, f, rn, log);
	m.c2c_make = run(log, NULL, c2c);
	say("  make c2c: %.0f s", m.c2c_make.wall);
	table();

	kf_boot_rec_read(&br, rec, KF_MUST, "make c2c should have written it; see its log");
	if (br.ncommand == 0)
		kf_die(2, "%s: no QEMU command", rec);
	pa = calloc(br.ncommand + 1, sizeof(*pa));
	na = calloc(br.ncommand + 1, sizeof(*na));
	if (!pa || !na)
		kf_die(2, "out of memory");
	for (size_t i = 0; i < br.ncommand; i++) {
		const char *a = br.command[i], *next = i + 1 < br.ncommand ? br.command[i + 1] : NULL;

		if (!a)
			kf_die(2, "%s: its command has a word that is not a string", rec);
		if (!strcmp(a, "-plugin") && next) {
			/* the plugin's raw output goes to the bench's file, not the run's */
			pa[np++] = kf_xstrdup(a);
			pa[np++] = plugin_arg(next, raw);
			i++;
		} else if (!strcmp(a, "-d") && next && !strcmp(next, "plugin")) {
			pa[np++] = kf_xstrdup(a);
			pa[np++] = kf_xstrdup(next);
			i++;
		} else {
			pa[np++] = kf_xstrdup(a);
			na[nn++] = kf_xstrdup(a);
		}
	}
	if (np == nn)
		kf_die(2, "%s: its QEMU command loads no plugin", rec);
	/* as boot/runner.c starts QEMU: without transparent huge pages */
	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	say("run %d: %s's c2c boot with and without the plugin, %d times each (log: %s)",
	    ++b.run_no, b.fl[0], C2C_ROUNDS, log);
	for (int i = 0; i < C2C_ROUNDS; i++) {
		with[i] = qemu_once(log, pa, br.exit_status);
		without[i] = qemu_once(log, na, br.exit_status);
	}
	m.c2c_plugin = median(with);
	m.c2c_plain = median(without);
	say("  with the plugin %.1f s, without %.1f s", m.c2c_plugin.wall, m.c2c_plain.wall);
	unlink(raw);
	for (size_t i = 0; i < np; i++)
		free(pa[i]);
	for (size_t i = 0; i < nn; i++)
		free(na[i]);
	free(pa);
	free(na);
	kf_boot_rec_free(&br);
	free(cp);
	free(rec);
	free(raw);
	free(rn);
	free(f);
	free(j);
	free(k);
	free(o);
	free(kd);
	free(log);
}

int main(int argc, char **argv)
{
	char *seq, *first, *cfg;

	kf_prog = "bench";
	parse_args(argc, argv);
	/*
	 * Each make it starts is a make of its own, as a user's would start:
	 * none of the calling make's flags (-j without its jobserver,
	 * command-line variables). The lock token names the out= it locks, so
	 * the scratch out= directories take their own locks.
	 */
	unsetenv("MAKEFLAGS");
	unsetenv("MFLAGS");
	unsetenv("MAKELEVEL");
	unsetenv("MAKEOVERRIDES");
	kf_proc_forward_signals();
	for (int i = 0; i < MAX_FLAVOURS; i++)
		m.seq[i] = none;
	m.seq_total = m.jobs = m.first = m.first_build = m.matrix = none;
	m.noop_all = m.noop_build = m.raw_noop = m.raw = none;
	m.cc_cold = m.cc_warm = m.toggle = none;
	m.d_config = m.d_make = m.d_build = m.d_raw = none;
	m.farm = m.serial = none;
	m.c2c_make = m.c2c_plugin = m.c2c_plain = none;
	m.boot_max = m.boot_median = -1;
	b.load_start = loadavg();
	b.start_time = time(NULL);
	kf_mkdir_p(b.bout);

	seq = step(1) ? step_seq() : xout("seq");
	table();
	first = step(2) ? step_first() : xout("first");
	table();
	if (step(3))
		step_matrix(first);
	table();
	if (step(4))
		step_noop(first);
	table();
	if (step(5))
		step_ccache();
	table();
	/* step 1's configuration, kept before step 6 turns microcode off */
	cfg = xout("cold.config");
	if (step(6))
		step_toggle(seq);
	table();
	if (step(7))
		m.raw = kbuild_cold("raw", cfg);
	table();
	if (b.distro && step(8)) {
		step_distro(first);
		table();
	}
	if (step(9))
		step_jobs();
	table();
	if (step(10))
		step_farm();
	table();
	if (step(11))
		step_c2c(first);
	table();
	if (b.report) {
		size_t len;
		char *text = kf_read_file(b.report, &len);

		if (text)
			fputs(text, stdout);
		free(text);
	}
	free(cfg);
	free(seq);
	free(first);
	free(b.src_kdir);
	free(b.flavours);
	return 0;
}
