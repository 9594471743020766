// SPDX-License-Identifier: GPL-2.0
/*
 * bench: step 13, the system boot (docs/system-boot.md) against the
 * static-init boot of the same kernel.
 */
#include "bench.h"
#include "../lib/kf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

/* A record's QEMU command as a NULL-terminated argv (its strings). */
static char **argv_of(const struct kf_boot_rec *r, const char *path)
{
	char **argv = calloc(r->ncommand + 1, sizeof(*argv));

	if (!argv)
		kf_die(2, "out of memory");
	if (r->ncommand == 0)
		kf_die(2, "%s: no QEMU command", path);
	for (size_t i = 0; i < r->ncommand; i++) {
		if (!r->command[i])
			kf_die(2, "%s: its command has a word that is not a string", path);
		argv[i] = r->command[i];
	}
	return argv;
}

/*
 * 13: on step 2's out= (first), the small systemd-capable flavour packaged,
 * installed in the Debian system and booted both ways by one make (not
 * timed: a cold build with its modules, the image): make deb's build is
 * the kernel both boot. Then each record's own QEMU command again,
 * alternated, C2C_ROUNDS times each: to multi-user.target from the
 * package's initrd on the image (snapshot=on: never written), and to the
 * static init's end from the cpio. The root filesystem is the main out='s
 * cache (rootfs=), made there once.
 */
void step_sysboot(const char *first)
{
	const char *f = b.sysboot, *cpu = "qemu64";
	char *log = xout("sysboot.log"), *kd = kf_xasprintf("%s/%s", first, b.kver);
	char *o = kf_xasprintf("out=%s", first), *k = kf_xasprintf("kver=%s", b.kver);
	char *j = kf_xasprintf("jobs=%d", b.jobs), *fl = kf_xasprintf("flavour=%s", f);
	char *c = kf_xasprintf("cpu=%s", cpu), *rf = kf_xasprintf("rootfs=%s", b.rootfs);
	char *sysrec = kf_xasprintf("%s/%s/sysboot/%s.json", kd, f, cpu);
	char *bootrec = kf_xasprintf("%s/%s/boot/%s.json", kd, f, cpu);
	char *dirs = kf_xasprintf("%s/%s/sysboot %s/%s/boot", kd, f, kd, f);
	char *rm[] = { "sh", "-c", kf_xasprintf("rm -rf %s", dirs), NULL };
	char *prep[] = { "make", "deb", "system", "sysboot", "boot", o, k, j, fl, c, rf, NULL };
	struct run sys[C2C_ROUNDS], stat[C2C_ROUNDS];
	struct kf_sysboot_rec sr;
	struct kf_boot_rec br;
	char **sa, **ba;

	unlink(log);
	run(log, NULL, rm);
	say("preparing %s on %s: make deb system sysboot boot (not timed; log: %s)", f, first, log);
	run(log, NULL, prep);
	kf_sysboot_rec_read(&sr, sysrec, KF_MUST, "make sysboot should have written it; see its log");
	kf_boot_rec_read(&br, bootrec, KF_MUST, "make boot should have written it; see its log");
	if (!sr.b.bzimage_sha256 || !br.bzimage_sha256 ||
	    strcmp(sr.b.bzimage_sha256, br.bzimage_sha256) != 0)
		kf_die(1, "%s and %s booted different kernels; the comparison needs one (log: %s)",
		       sysrec, bootrec, log);
	sa = argv_of(&sr.b, sysrec);
	ba = argv_of(&br, bootrec);
	/* as boot/runner.c starts QEMU: without transparent huge pages */
	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	say("run %d: %s's system boot and its static-init boot, %d times each (log: %s)",
	    ++b.run_no, f, C2C_ROUNDS, log);
	for (int i = 0; i < C2C_ROUNDS; i++) {
		sys[i] = qemu_once(log, sa, sr.b.exit_status);
		stat[i] = qemu_once(log, ba, br.exit_status);
	}
	m.sysboot = median_of_rounds(sys);
	m.sysboot_static = median_of_rounds(stat);
	m.sysboot_mu = sr.multi_user_seconds;
	say("  system boot %.1f s, static init %.1f s", m.sysboot.wall, m.sysboot_static.wall);
	free(sa);
	free(ba);
	kf_sysboot_rec_free(&sr);
	kf_boot_rec_free(&br);
	free(rm[2]);
	free(dirs);
	free(bootrec);
	free(sysrec);
	free(rf);
	free(c);
	free(fl);
	free(j);
	free(k);
	free(o);
	free(kd);
	free(log);
}
