// SPDX-License-Identifier: GPL-2.0
/*
 * kf-bench - 'make bench': the build stage's speed, measured in one run.
 *
 *   kf-bench --top DIR --tree KDIR --out DIR --kver K --jobs N
 *            --flavours "generic k8 mpsc" [--report FILE]
 *
 * All builds are cold (fresh O= directories in scratch out= directories
 * under --out, sharing the prepared tree of KDIR by hard links) unless
 * said otherwise, and run one after another. Steps:
 *
 *   1. each flavour on its own: 'make build flavour=F CCACHE=0', one make
 *      (-jN) per flavour, one after another;
 *   2. all flavours under one jobserver: 'make build CCACHE=0';
 *   3. no-op: 'make build' again on step 2's out, and raw Kbuild's no-op
 *      ('make -C src O=... bzImage') on the same trees;
 *   4. raw Kbuild, cold, for the first flavour with step 1's .config:
 *      against step 1's time for it, our overhead;
 *   5. ccache, in a private cache: a cold build that fills it, then the same
 *      flavour in another out= (hits across out= directories).
 *
 * Wall time by the monotonic clock, CPU as user + system of the command's
 * process tree (wait4's rusage). Each command's output goes to a log under
 * --out; the table goes to stdout and --report.
 */
#include "../lib/kf.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct run {
	double wall;
	double cpu;
};

static const char *top, *bout, *kver;
static char *src_kdir;
static int step_no, bench_jobs;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run argv (NULL-terminated) with output appended to log; die on failure. */
static struct run run(const char *log, const char *const env[], char *const argv[])
{
	struct run r = { 0, 0 };
	struct rusage ru;
	int status, fd;
	double start = now();
	pid_t pid;

	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		kf_die(2, "cannot write %s: %s", log, strerror(errno));
	pid = fork();
	if (pid < 0)
		kf_die(2, "fork: %s", strerror(errno));
	if (pid == 0) {
		/*
		 * A make of its own, as a user's would start: none of the caller's
		 * make's flags, and not its KF_LOCKED=1 (exported as a command-line
		 * variable), with which the make skipped its own lock and its
		 * re-run under -j$(jobs), and built at -j1.
		 */
		unsetenv("MAKEFLAGS");
		unsetenv("MFLAGS");
		unsetenv("MAKELEVEL");
		unsetenv("MAKEOVERRIDES");
		unsetenv("KF_LOCKED");
		for (int i = 0; env && env[i]; i += 2)
			setenv(env[i], env[i + 1], 1);
		if (dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
			_exit(127);
		if (chdir(top) < 0)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "kf-bench: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd);
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR)
			kf_die(2, "wait4: %s", strerror(errno));
	}
	r.wall = now() - start;
	r.cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		kf_die(1, "'%s %s' failed; its output: %s", argv[0], argv[1] ? argv[1] : "", log);
	return r;
}

static char *xout(const char *name)
{
	return kf_xasprintf("%s/%s", bout, name);
}

/* A fresh scratch out= with the shared tree; its log. */
static char *scratch(const char *name, char **log)
{
	char *dir = xout(name), *kd = kf_xasprintf("%s/%s", dir, kver);
	char *rm[] = { "rm", "-rf", dir, NULL };
	char *link[] = { "build/linktree.sh", src_kdir, kd, NULL };

	*log = kf_xasprintf("%s/%s.log", bout, name);
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

static struct run make_in(const char *log, const char *out, const char *goal,
			  const char *flavour, const char *ccache, const char *const env[])
{
	char *o = kf_xasprintf("out=%s", out), *k = kf_xasprintf("kver=%s", kver);
	char *jb = kf_xasprintf("jobs=%d", bench_jobs), *f = NULL, *c = NULL;
	char *argv[9];
	int n = 0;
	struct run r;

	argv[n++] = "make";
	argv[n++] = (char *)goal;
	argv[n++] = o;
	argv[n++] = k;
	argv[n++] = jb;
	if (flavour)
		argv[n++] = f = kf_xasprintf("flavour=%s", flavour);
	if (ccache)
		argv[n++] = c = kf_xasprintf("CCACHE=%s", ccache);
	argv[n] = NULL;
	say("step %d: make %s %s%s%s (log: %s)", ++step_no, goal, flavour ? "flavour=" : "",
	    flavour ? flavour : "", ccache && strcmp(ccache, "0") == 0 ? " CCACHE=0" : "", log);
	r = run(log, env, argv);
	free(k);
	free(jb);
	free(o);
	free(f);
	free(c);
	return r;
}

/* Raw Kbuild in an O= directory, with the build stage's reproducibility env. */
static struct run kbuild(const char *log, const char *odir, int jobs)
{
	char *src = kf_xasprintf("%s/src", src_kdir), *o = kf_xasprintf("O=%s", odir);
	char *j = kf_xasprintf("-j%d", jobs), *mk = kf_xasprintf("%s/Makefile", src);
	char ts[128];
	struct stat st;
	struct tm tm;
	char *argv[] = { "make", j, "-C", src, o, "bzImage", NULL };
	/* build.mk's kbuild_env: a flag that differs (KCPPFLAGS) changes every
	 * recorded command, and the "no-op" on make build's trees rebuilds all. */
	const char *env[] = { "KBUILD_BUILD_TIMESTAMP", ts, "KBUILD_BUILD_USER", "kflavour",
			      "KBUILD_BUILD_HOST", "kflavour", "KBUILD_BUILD_VERSION", "1",
			      "KCPPFLAGS", "-fmacro-prefix-map=../src/=",
			      "CCACHE_DISABLE", "1", NULL };
	struct run r;

	if (stat(mk, &st) < 0)
		kf_die(2, "%s: %s", mk, strerror(errno));
	/* as build.mk: LC_ALL=C date -u -r src/Makefile */
	gmtime_r(&st.st_mtime, &tm);
	strftime(ts, sizeof(ts), "%a %b %e %H:%M:%S UTC %Y", &tm);
	r = run(log, env, argv);
	free(src);
	free(o);
	free(j);
	free(mk);
	return r;
}

static long json_int(const char *path, const char *key, const char *sub)
{
	json_error_t err;
	json_t *root = json_load_file(path, 0, &err), *v;
	long n = -1;

	if (!root)
		return -1;
	v = json_object_get(root, key);
	if (sub)
		v = json_object_get(v, sub);
	if (json_is_integer(v))
		n = (long)json_integer_value(v);
	json_decref(root);
	return n;
}

static void row(FILE *t, struct run r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void row(FILE *t, struct run r, const char *fmt, ...)
{
	char label[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(label, sizeof(label), fmt, ap);
	va_end(ap);
	fprintf(t, "%-58s %8.1f %8.1f\n", label, r.wall, r.cpu);
}

/* The 1-minute load average: the machine is shared, the numbers depend on it. */
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

static void usage(void)
{
	fprintf(stderr, "usage: kf-bench --top DIR --tree KDIR --out DIR --kver K --jobs N"
		" --flavours LIST [--report FILE]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *flavours = NULL, *report = NULL;
	int jobs = 0, nf = 0, i;
	char *fl[16], *fcopy, *tok, *save = NULL, *log, *dir;
	struct run seq[16], seq_total = { 0, 0 }, par, noop, raw_noop = { 0, 0 }, raw, cc_cold, cc_warm;
	double load_start, total;
	time_t start_time;
	char when[64];
	char *table;
	size_t tlen;
	FILE *t;

	kf_prog = "kf-bench";
	for (i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--top") == 0)
			top = argv[i + 1];
		else if (strcmp(argv[i], "--out") == 0)
			bout = argv[i + 1];
		else if (strcmp(argv[i], "--kver") == 0)
			kver = argv[i + 1];
		else if (strcmp(argv[i], "--jobs") == 0)
			jobs = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--flavours") == 0)
			flavours = argv[i + 1];
		else if (strcmp(argv[i], "--report") == 0)
			report = argv[i + 1];
		else if (strcmp(argv[i], "--tree") == 0)
			src_kdir = kf_xstrdup(argv[i + 1]);
		else
			usage();
	}
	if (i != argc || !top || !bout || !kver || jobs < 1 || !flavours)
		usage();
	fcopy = kf_xstrdup(flavours);
	for (tok = strtok_r(fcopy, " ", &save); tok && nf < 16; tok = strtok_r(NULL, " ", &save))
		fl[nf++] = tok;
	if (nf == 0)
		usage();
	if (!src_kdir)
		usage();
	bench_jobs = jobs;
	load_start = loadavg();
	start_time = time(NULL);
	if (mkdir(bout, 0755) < 0 && errno != EEXIST)
		kf_die(2, "cannot create %s: %s", bout, strerror(errno));

	/* 1. one make per flavour, one after another */
	dir = scratch("seq", &log);
	say("configuring %s (not timed)", dir);
	make_in(log, dir, "config", NULL, NULL, NULL);
	for (i = 0; i < nf; i++) {
		seq[i] = make_in(log, dir, "build", fl[i], "0", NULL);
		seq_total.wall += seq[i].wall;
		seq_total.cpu += seq[i].cpu;
		say("  %s: %.0f s", fl[i], seq[i].wall);
	}
	free(log);

	/* 2. all flavours, one jobserver */
	{
		char *pdir = scratch("par", &log);

		say("configuring %s (not timed)", pdir);
		make_in(log, pdir, "config", NULL, NULL, NULL);
		par = make_in(log, pdir, "build", NULL, "0", NULL);
		say("  all: %.0f s", par.wall);

		/* 3. no-op: ours (best of 3), then raw Kbuild's on the same trees */
		noop = make_in(log, pdir, "build", NULL, NULL, NULL);
		for (i = 0; i < 2; i++) {
			struct run r = make_in(log, pdir, "build", NULL, NULL, NULL);

			if (r.wall < noop.wall)
				noop = r;
		}
		for (i = 0; i < nf; i++) {
			char *od = kf_xasprintf("%s/%s/%s", pdir, kver, fl[i]);
			struct run r = kbuild(log, od, jobs);

			raw_noop.wall += r.wall;
			raw_noop.cpu += r.cpu;
			free(od);
		}
		free(pdir);
		free(log);
	}

	/* 4. raw Kbuild, cold, first flavour, same .config as step 1 */
	{
		char *rdir = xout("raw"), *cfg_from = kf_xasprintf("%s/%s/%s/.config", dir, kver, fl[0]);
		char *cfg_to = kf_xasprintf("%s/.config", rdir);
		char *rm[] = { "rm", "-rf", rdir, NULL };
		char *mk[] = { "mkdir", "-p", rdir, NULL };
		char *cp[] = { "cp", cfg_from, cfg_to, NULL };

		log = xout("raw.log");
		unlink(log);
		run(log, NULL, rm);
		run(log, NULL, mk);
		run(log, NULL, cp);
		say("step %d: raw Kbuild: make -j%d -C src O=%s bzImage (log: %s)", ++step_no, jobs, rdir, log);
		raw = kbuild(log, rdir, jobs);
		free(rdir);
		free(cfg_from);
		free(cfg_to);
		free(log);
	}

	/* 5. ccache: fill a private cache, then hit it from another out= */
	{
		char *cdir = xout("ccache-dir"), *c1, *c2, *j2;
		char *rm[] = { "rm", "-rf", cdir, NULL };
		const char *env[] = { "CCACHE_DIR", cdir, NULL };

		log = xout("ccache.log");
		unlink(log);
		run(log, NULL, rm);
		free(log);
		c1 = scratch("ccache1", &log);
		make_in(log, c1, "config", fl[0], NULL, env);
		cc_cold = make_in(log, c1, "build", fl[0], "1", env);
		free(log);
		c2 = scratch("ccache2", &log);
		make_in(log, c2, "config", fl[0], NULL, env);
		cc_warm = make_in(log, c2, "build", fl[0], "1", env);
		j2 = kf_xasprintf("%s/%s/%s/build.json", c2, kver, fl[0]);
		say("  warm: %.0f s, ccache %ld hits / %ld misses", cc_warm.wall,
		    json_int(j2, "ccache", "hits"), json_int(j2, "ccache", "misses"));
		free(j2);
		free(c1);
		free(c2);
		free(cdir);
		free(log);
	}

	/* the table */
	t = open_memstream(&table, &tlen);
	if (!t)
		kf_die(2, "out of memory");
	total = difftime(time(NULL), start_time);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", gmtime(&start_time));
	fprintf(t, "kflavour bench, kver %s, %d jobs, started %s, took %.0f min;"
		" load average %.1f at start, %.1f at end\n\n",
		kver, jobs, when, total / 60, load_start, loadavg());
	fprintf(t, "%-58s %8s %8s\n", "measurement", "wall s", "cpu s");
	for (i = 0; i < nf; i++)
		row(t, seq[i], "1. cold, own make -j%d: %s", jobs, fl[i]);
	fprintf(t, "%-58s %8.1f %8.1f\n", "1. cold, one make per flavour, in sequence: total",
		seq_total.wall, seq_total.cpu);
	fprintf(t, "%-58s %8.1f %8.1f\n", "2. cold, all flavours under one jobserver",
		par.wall, par.cpu);
	fprintf(t, "%-58s %8.2f %8.2f\n", "3. no-op make build, all flavours (best of 3)",
		noop.wall, noop.cpu);
	fprintf(t, "%-58s %8.2f %8.2f\n", "3. no-op raw Kbuild, all flavours, one after another",
		raw_noop.wall, raw_noop.cpu);
	row(t, raw, "4. cold raw Kbuild: %s", fl[0]);
	row(t, cc_cold, "5. cold with ccache (filling it): %s", fl[0]);
	row(t, cc_warm, "5. ccache-warm, in another out=: %s", fl[0]);
	fprintf(t, "\nratios\n");
	fprintf(t, "  in sequence / one jobserver (wall):        %.2f\n", seq_total.wall / par.wall);
	fprintf(t, "  CPU floor of step 2 on %d jobs (cpu/jobs):  %.0f s of %.0f s wall\n",
		jobs, par.cpu / jobs, par.wall);
	fprintf(t, "  raw Kbuild no-op / make build no-op:       %.1f\n", raw_noop.wall / noop.wall);
	fprintf(t, "  make build / raw Kbuild, cold %s:  %.3f (overhead %+.1f%%)\n", fl[0],
		seq[0].wall / raw.wall, (seq[0].wall / raw.wall - 1) * 100);
	fprintf(t, "  ccache filling / CCACHE=0, cold %s:  %.3f\n", fl[0], cc_cold.wall / seq[0].wall);
	fprintf(t, "  CCACHE=0 cold / ccache-warm, %s:     %.1f\n", fl[0], seq[0].wall / cc_warm.wall);
	fclose(t);
	fputs(table, stdout);
	if (report && kf_write_atomic(report, table, tlen) < 0)
		kf_die(2, "cannot write %s: %s", report, strerror(errno));
	free(table);
	free(fcopy);
	free(src_kdir);
	free(dir);
	return 0;
}
