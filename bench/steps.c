// SPDX-License-Identifier: GPL-2.0
/*
 * bench: steps 1-9, the builds, boots, no-ops, ccache, a fragment toggle,
 * raw Kbuild and a distro flavour (bench.c says what each measures).
 */
#include "bench.h"
#include "../lib/kf.h"
#include "../lib/policy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* 1: one make per flavour, one after another; returns its out=. */
char *step_seq(void)
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
char *step_first(void)
{
	char *log, *dir = scratch("first", &log);

	m.first = make_in(log, dir, NULL, NULL, "0", NULL);
	m.first_build = build_stage(dir, b.fl, b.nf);
	say("  first make: %.0f s, builds %.0f s", m.first.wall, m.first_build.wall);
	free(log);
	return dir;
}

/* 3: the matrix again from the built kernels of first. */
void step_matrix(const char *first)
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
void step_noop(const char *first)
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
void step_ccache(void)
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
void step_toggle(const char *seq)
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
void step_jobs(void)
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
void step_distro(const char *first)
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
