// SPDX-License-Identifier: GPL-2.0
/*
 * bench: step 10, a cold build through three distccd in network namespaces
 * on this machine (build/farm.sh), and the serial part of a build.
 */
#include "bench.h"
#include "../lib/kf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
void step_farm(void)
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
	m.farm_remote = (long)br.distcc_remote;
	m.farm_local = (long)br.distcc_local;
	kf_build_rec_free(&br);
	if (m.farm_remote < 0 || m.farm_local < 0)
		kf_die(2, "%s/%s/%s/build.json: no distcc counts", dir, b.kver, b.fl[0]);
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
