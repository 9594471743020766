// SPDX-License-Identifier: GPL-2.0
/*
 * bench: step 12, the shared cache (ccache_remote, docs/build.md "A shared
 * compiler cache"): Debian's redis-server in a network namespace on
 * farm_net (build/farm.sh cache) and four builds of the first flavour,
 * each on an empty out= with an empty local cache of its own:
 *   cold    the remote empty too: every compile misses both and fills them
 *   warm    the remote as cold left it: another machine's first build
 *   none    no ccache_remote: a build without the remote
 *   down    the server stopped (SIGSTOP: it accepts, never answers), the
 *           remote unreachable: build-progress's probe gives up (2 s) and
 *           the build uses the local cache only
 * warm / cold and down / none are the two ratios. The URL (and its
 * password) reaches make in the environment only, as a user's would.
 */
#include "bench.h"
#include "../lib/kf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The cache server's directory, taken down however bench ends. */
static char *cache_dir;
static void cache_down(void)
{
	if (cache_dir) {
		char *down[] = { "build/farm.sh", "down", cache_dir, NULL };
		struct kf_proc_opts o = { .log = "/dev/null", .dir = b.top };
		struct kf_proc p;
		int status;

		if (kf_proc_start(&p, down, &o) == 0)
			kf_proc_wait(&p, 60, &status, NULL);
		free(cache_dir);
		cache_dir = NULL;
	}
}

/* The first flavour on scratch out= NAME (configured, not timed), its
 * build timed with an empty local cache and ccache_remote=url (NULL: none);
 * its build.json's remote figures in *rem. */
static struct run remote_build(const char *name, const char *url, struct kf_ccache_remote *rem)
{
	char *log, *dir = scratch(name, &log), *cdir = kf_xasprintf("%s.ccache", dir);
	char *rm[] = { "rm", "-rf", cdir, NULL };
	char *cd = kf_xasprintf("CCACHE_DIR=%s", cdir);
	char *ur = url ? kf_xasprintf("ccache_remote=%s", url) : NULL;
	char *env[] = { cd, ur, NULL };
	struct kf_build_rec br;
	struct run r;

	run(log, NULL, rm);
	make_in(log, dir, "config", b.fl[0], NULL, NULL);
	r = make_in(log, dir, "build", b.fl[0], "1", env);
	br = build_json(dir, b.fl[0]);
	*rem = br.remote;
	rem->url = rem->off_because = NULL;	/* not kept: freed with br */
	say("  %s: %.0f s, %.0f s CPU, %lld compiled; ccache %lld hits / %lld misses%s", name, r.wall,
	    r.cpu, br.run.compiled, br.ccache_hits, br.ccache_misses,
	    !br.remote.has ? "" : br.remote.used == 1 ? ", shared cache used" : ", shared cache off");
	if (br.remote.has)
		say("  %s: shared cache %lld hits, %lld misses, %lld errors, %lld timeouts, %lld stored",
		    name, br.remote.hits, br.remote.misses, br.remote.errors, br.remote.timeouts,
		    br.remote.stored);
	kf_build_rec_free(&br);
	free(ur);
	free(cd);
	free(cdir);
	free(dir);
	free(log);
	return r;
}

/* 12: the shared cache, cold, warm, without it, and unreachable. */
void step_remote(void)
{
	char *log = xout("remote-server.log"), *sdir = xout("remote-server");
	char *up_sh = kf_xasprintf("build/farm.sh cache '%s' > /dev/null", sdir);
	char *up[] = { "sh", "-c", up_sh, NULL };
	char *stop[] = { "build/farm.sh", "stop", sdir, "1", NULL };
	char *rm[] = { "rm", "-rf", sdir, NULL };
	char *uf = kf_xasprintf("%s/url", sdir), *url = NULL;
	struct kf_ccache_remote r;

	if (geteuid() != 0) {
		say("step 12 skipped: the cache server in a network namespace needs root");
		goto out;
	}
	unlink(log);
	run(log, NULL, rm);
	cache_dir = kf_xstrdup(sdir);
	atexit(cache_down);
	say("the shared cache: build/farm.sh cache %s (log: %s)", sdir, log);
	run(log, NULL, up);
	url = kf_read_file(uf, NULL);
	if (!url)
		kf_die(2, "build/farm.sh cache wrote no %s; see %s", uf, log);
	kf_trim(url);

	m.rc_cold = remote_build("remote-cold", url, &r);
	m.rc_cold_stored = r.stored;
	if (r.used != 1 || r.stored <= 0)
		kf_die(2, "step 12: the cold build stored nothing in the shared cache; see %s",
		       b.bout);
	table();
	m.rc_warm = remote_build("remote-warm", url, &r);
	m.rc_warm_hits = r.hits;
	table();
	m.rc_none = remote_build("remote-none", NULL, &r);
	table();
	say("the shared cache stopped (SIGSTOP): unreachable");
	run(log, NULL, stop);
	m.rc_down = remote_build("remote-down", url, &r);
	if (r.used != 0)
		kf_die(2, "step 12: the build used a stopped shared cache; see %s", b.bout);
	cache_down();
out:
	free(url);
	free(uf);
	free(up_sh);
	free(sdir);
	free(log);
}
