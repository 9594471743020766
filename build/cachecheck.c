// SPDX-License-Identifier: GPL-2.0
/*
 * cache-check - ccache_remote, the shared compiler cache, checked
 * (docs/build.md "A shared compiler cache"). The URL comes from the
 * environment (KF_CCACHE_REMOTE, build.mk's export), never the command
 * line: the password stays out of ps; every message shows it as ***.
 *
 *   cache-check --form [--quiet]   the URL's form and a ccache with Redis
 *                                  support: what build.mk runs before any
 *                                  build (exit 2 naming the fix)
 *   cache-check [--timeout S]      make cache-check: that, then whether the
 *                                  server answers, accepts the password and
 *                                  stores, then ccache itself: a probe
 *                                  compiled with an empty private cache
 *                                  (a remote miss and write), and again with
 *                                  another empty one and remote_only (a
 *                                  remote hit: the same object back)
 *
 * The ccache is /usr/lib/ccache/gcc's (the one Kbuild runs), or KF_CCACHE.
 * Exit 0 when all pass, 2 (make's) on the first failure. Its scratch
 * directory ($TMPDIR/kf-cache-check.XXXXXX: the probe, two private caches)
 * is removed however it ends: a pass, a failure (atexit: kf_die exits), or
 * SIGINT, SIGTERM, SIGHUP (forwarded to the ccache running, then removed,
 * then the tool dies of the signal as make expects).
 */
#include "../lib/kf.h"
#include "../lib/proc.h"
#include "ccremote.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The scratch directory, NULL before mkdtemp and once removed. */
static char *tmp_dir;

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	if (remove(path) < 0 && errno != ENOENT)
		kf_warn("cannot remove %s: %s", path, strerror(errno));
	return 0;
}

static void tmp_remove(void)
{
	if (!tmp_dir)
		return;
	nftw(tmp_dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(tmp_dir);
	tmp_dir = NULL;
}

/* After each step that may have taken a signal: the directory removed,
 * then death by that signal. */
static void signalled(void)
{
	if (kf_proc_signal) {
		tmp_remove();
		kf_proc_die_of(kf_proc_signal);
	}
}

/* The last line of ccache's output in dir/log-NAME, for a failure's message. */
static char *last_line(const char *dir, const char *name)
{
	char *log = kf_xasprintf("%s/log-%s", dir, name);
	char *text = kf_read_file(log, NULL), *line = NULL, *p, *r;

	free(log);
	if (!text)
		return kf_xstrdup("no output");
	for (p = text; p; p = kf_cut_line(p))
		if (*kf_trim(p))
			line = p;
	r = kf_xstrdup(line ? kf_trim(line) : "no output");
	free(text);
	return r;
}

static const char *ccache_bin(char *buf, size_t n)
{
	const char *e = getenv("KF_CCACHE");
	char rp[PATH_MAX];

	if (e && *e)
		return e;
	if (realpath("/usr/lib/ccache/gcc", rp)) {
		snprintf(buf, n, "%s", rp);
		return buf;
	}
	return "ccache";
}

/* Run argv with env, output to log; its exit status, -1 when it did not run. */
static int run(char *const argv[], char *const env[], const char *dir, const char *log,
	       double secs)
{
	struct kf_proc p;
	struct kf_proc_opts o = { .log = log, .env = env, .dir = dir, .null_in = 1 };
	int st;

	if (kf_proc_start(&p, argv, &o) < 0)
		return -1;
	if (kf_proc_wait(&p, secs, &st, NULL) <= 0) {
		kf_proc_stop(&p, 1, &st);
		return -1;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void form(const char *url, struct ccr_url *u, const char *ccache, const char *tmp)
{
	char err[1024], *argv[] = { (char *)ccache, "--version", NULL }, *log, *text;
	int rc;

	if (!url)
		kf_die(2, "ccache_remote is not set; give it, e.g. make cache-check "
		       "ccache_remote=redis://:PASSWORD@HOST:6379");
	if (ccr_parse(url, u, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
	log = kf_xasprintf("%s/version", tmp);
	rc = run(argv, NULL, NULL, log, 10);
	signalled();
	text = kf_read_file(log, NULL);
	if (rc != 0 || !text)
		kf_die(2, "ccache_remote needs ccache, and '%s --version' failed; apt-get install ccache", ccache);
	if (!ccr_ccache_has_redis(text))
		kf_die(2, "ccache_remote needs a ccache with Redis support ('redis-storage' in the "
		       "Features line of '%s --version'; Debian 12's ccache 4.7 has it): "
		       "apt-get install ccache, or drop ccache_remote", ccache);
	free(text);
	unlink(log);
	free(log);
}

/* One probe compile through ccache in tmp; its stats log's remote counts and text. */
static int compile(const char *ccache, const char *tmp, const char *name, const char *value,
		   int remote_only, struct ccr_counts *c, char **stats)
{
	char *cdir = kf_xasprintf("%s/cache-%s", tmp, name), *obj = kf_xasprintf("%s.o", name);
	char *sl = kf_xasprintf("%s/stats-%s", tmp, name), *log = kf_xasprintf("%s/log-%s", tmp, name);
	char *e_dir = kf_xasprintf("CCACHE_DIR=%s", cdir), *e_sl = kf_xasprintf("CCACHE_STATSLOG=%s", sl);
	char *e_rs = kf_xasprintf("CCACHE_REMOTE_STORAGE=%s", value);
	char *env[] = { e_dir, e_sl, e_rs, "CCACHE_DEPEND=1", "CCACHE_NODISABLE=1",
			remote_only ? "CCACHE_REMOTE_ONLY=true" : "CCACHE_NOREMOTE_ONLY=true", NULL };
	char *argv[] = { (char *)ccache, "gcc", "-c", "probe.c", "-o", obj, NULL };
	int rc = run(argv, env, tmp, log, 60);

	signalled();
	*stats = kf_read_file(sl, NULL);
	ccr_count(*stats, c);
	free(cdir); free(obj); free(sl); free(log); free(e_dir); free(e_sl); free(e_rs);
	return rc;
}

int main(int argc, char **argv)
{
	const char *url = getenv(CCR_ENV), *ccache, *tmpdir;
	char cbuf[PATH_MAX], red[512], msg[1024], value[1024], *tmpl;
	char *tmp, *stats = NULL, *src, *a, *b, *why;
	int form_only = 0, quiet = 0, timeout = 5;
	struct ccr_url u;
	struct ccr_counts c;
	enum ccr_status st;

	kf_prog = "kflavour: cache-check";
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--form") == 0)
			form_only = 1;
		else if (strcmp(argv[i], "--quiet") == 0)
			quiet = 1;
		else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc)
			timeout = atoi(argv[++i]);
		else
			kf_die(2, "usage: cache-check [--form [--quiet]] [--timeout SECONDS] "
			       "(the URL in $%s)", CCR_ENV);
	}
	if (timeout < 1)
		timeout = 1;
	if (url && !*url)
		url = NULL;
	tmpdir = getenv("TMPDIR");
	tmpl = kf_xasprintf("%s/kf-cache-check.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	kf_proc_forward_signals();
	atexit(tmp_remove);
	tmp = mkdtemp(tmpl);
	if (!tmp)
		kf_die(2, "cannot make a directory %s: %s", tmpl, strerror(errno));
	tmp_dir = kf_xstrdup(tmp);
	signalled();
	ccache = ccache_bin(cbuf, sizeof(cbuf));
	form(url, &u, ccache, tmp);
	ccr_redacted(&u, red, sizeof(red));
	if (form_only) {
		tmp_remove();
		free(tmpl);
		if (!quiet)
			printf("  CACHE   ccache_remote=%s: a Redis URL, and %s has Redis support\n", red, ccache);
		return 0;
	}

	st = ccr_probe(&u, timeout * 1000, 1, msg, sizeof(msg));
	signalled();	/* a signal ends the probe's poll early: no verdict */
	if (st != CCR_OK)
		kf_die(2, "%s", msg);
	printf("  CACHE   %s\n", msg);

	/* ccache itself: a probe no cache can hold yet (a nonce), twice */
	ccr_ccache_value(&u, value, sizeof(value));
	src = kf_xasprintf("%s/probe.c", tmp);
	{
		char *text = kf_xasprintf("/* kflavour cache-check */\nint kf_cache_check_probe(void)\n"
					  "{\n\treturn %ld;\n}\n", (long)time(NULL) ^ ((long)getpid() << 16));

		if (kf_write_atomic(src, text, strlen(text)) < 0)
			kf_die(2, "cannot write %s: %s", src, strerror(errno));
		free(text);
	}
	if (compile(ccache, tmp, "a", value, 0, &c, &stats) != 0 || c.errors || c.timeouts ||
	    !stats || !strstr(stats, "remote_storage_write")) {
		why = last_line(tmp, "a");
		kf_die(2, "%s answers, but ccache could not store an object there (its stats: %ld "
		       "errors, %ld timeouts%s; its output: %s)", red, c.errors, c.timeouts,
		       stats && strstr(stats, "remote_storage_write") ? "" : ", no remote write", why);
	}
	free(stats);
	if (compile(ccache, tmp, "b", value, 1, &c, &stats) != 0 || c.hits != 1) {
		why = last_line(tmp, "b");
		kf_die(2, "%s took the object but did not return it to an empty local cache (its "
		       "stats: %ld hits, %ld misses, %ld errors, %ld timeouts; its output: %s)", red,
		       c.hits, c.misses, c.errors, c.timeouts, why);
	}
	free(stats);
	a = kf_xasprintf("%s/a.o", tmp);
	b = kf_xasprintf("%s/b.o", tmp);
	{
		char ha[65], hb[65];

		if (kf_sha256_file(a, ha) < 0 || kf_sha256_file(b, hb) < 0 || strcmp(ha, hb) != 0)
			kf_die(2, "%s returned another object than ccache stored", red);
	}
	printf("  CACHE   ccache stored a probe object there and got it back, byte for byte, "
	       "into an empty local cache\n");
	tmp_remove();
	printf("kflavour: cache-check: %s is usable as the shared cache\n", red);
	free(src);
	free(a);
	free(b);
	free(tmpl);
	return 0;
}
