// SPDX-License-Identifier: GPL-2.0
/*
 * bench: step 11, make c2c's wall time, and one c2c boot with the plugin
 * against the same boot without it.
 */
#include "bench.h"
#include "../lib/kf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

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
void step_c2c(const char *first)
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
	m.c2c_plugin = median_of_rounds(with);
	m.c2c_plain = median_of_rounds(without);
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
