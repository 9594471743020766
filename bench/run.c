// SPDX-License-Identifier: GPL-2.0
/*
 * bench: running and measuring its commands (make, raw Kbuild, anything in
 * a scratch out=), and reading the records they leave.
 */
#include "bench.h"
#include "../lib/kf.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Run argv (NULL-terminated) with o, waiting at most timeout seconds (-1:
 * no limit); its exit status in *status. The one place a step's figures
 * are measured: wall from here, CPU from the process tree's rusage. */
struct run measure(const struct kf_proc_opts *o, char *const argv[], int timeout,
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

struct run run(const char *log, char *const env[], char *const argv[])
{
	return run_in(b.top, log, env, argv);
}

char *xout(const char *name)
{
	return kf_xasprintf("%s/%s", b.bout, name);
}

/* A fresh scratch out= with the shared tree; its log (appended to). */
char *scratch(const char *name, char **log)
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

void say(const char *fmt, ...)
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
struct run make_from(const char *dir, const char *log, const char *out,
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

struct run make_in(const char *log, const char *out, const char *goal,
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
struct run kbuild(const char *log, const char *kdir, const char *odir)
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
struct run kbuild_cold(const char *name, const char *config)
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
struct kf_build_rec build_json(const char *out, const char *flavour)
{
	char *path = kf_xasprintf("%s/%s/%s/build.json", out, b.kver, flavour);
	struct kf_build_rec r;

	kf_build_rec_read(&r, path, KF_MUST, "see the log of the step that writes it");
	free(path);
	return r;
}

/* How many objects the flavour's last build in out compiled. */
long compiled(const char *out, const char *flavour)
{
	struct kf_build_rec br = build_json(out, flavour);
	long n = (long)br.run.compiled;

	kf_build_rec_free(&br);
	return n;
}

/* The build stage of several flavours of one out=: first start to last end. */
struct run build_stage(const char *out, char *const fl[], int nf)
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

int cmp_double(const void *a, const void *b2)
{
	double x = *(const double *)a, y = *(const double *)b2;

	return (x > y) - (x < y);
}

double loadavg(void)
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

/* One QEMU run of argv (a boot record's command), its output appended to
 * log; it must end by itself within 300 s with the exit status want (the
 * boot's own, from its record: the guest's isa-debug-exit). */
struct run qemu_once(const char *log, char *const argv[], long long want)
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

/* The median of C2C_ROUNDS runs (an odd number: steps 11 and 13), wall
 * and CPU each on its own. */
struct run median_of_rounds(const struct run *r)
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
