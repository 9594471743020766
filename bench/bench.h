/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench: what its files share. bench.c parses the arguments and runs the
 * steps in order; run.c runs and measures commands (make, raw Kbuild) and
 * reads the records they leave; steps.c is steps 1-9, farm.c step 10, c2c.c
 * step 11, remote.c step 12, sysboot.c step 13; table.c prints what was
 * measured.
 */
#ifndef KF_BENCH_H
#define KF_BENCH_H

#include "../lib/proc.h"
#include "../lib/records.h"

#include <time.h>

#define MAX_FLAVOURS 16
#define C2C_RUNS 5		/* step 11: make c2c runs= */
#define C2C_ROUNDS 3		/* step 11: boots with and without the plugin, each (odd) */

/* A measurement; wall < 0 until it was taken. */
struct run {
	double wall;
	double cpu;
};

/* The arguments, and the run's own state. */
struct bench {
	const char *top, *bout, *kver, *distro, *report;
	const char *kcppflags;		/* build.mk's kbuild_cppflags */
	const char *flavour_arg;	/* --flavours as given */
	char *src_kdir, *flavours;	/* b.fl points into flavours, a copy */
	const char *steps;		/* --steps "4 5": only these (default all) */
	const char *sysboot, *rootfs;	/* step 13's flavour; the Debian system's cache */
	int jobs, run_no, nf;	/* run_no: make runs so far, in the log lines */
	char *fl[MAX_FLAVOURS];
	double load_start;
	time_t start_time;
};
extern struct bench b;

/* Everything measured so far; the table prints what is there. */
struct figures {
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
	struct run rc_cold, rc_warm, rc_none, rc_down;	/* step 12 */
	long long rc_cold_stored, rc_warm_hits;
	struct run sysboot, sysboot_static;	/* step 13, medians */
	double sysboot_mu;		/* its record's time to multi-user.target */
};
extern struct figures m;

/* run.c */
struct run measure(const struct kf_proc_opts *o, char *const argv[], int timeout, int *status);
struct run run(const char *log, char *const env[], char *const argv[]);
char *xout(const char *name);
char *scratch(const char *name, char **log);
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
struct run make_from(const char *dir, const char *log, const char *out, const char *goal,
		     const char *flavour, const char *ccache, char *const env[]);
struct run make_in(const char *log, const char *out, const char *goal, const char *flavour,
		   const char *ccache, char *const env[]);
struct run kbuild(const char *log, const char *kdir, const char *odir);
struct run kbuild_cold(const char *name, const char *config);
struct kf_build_rec build_json(const char *out, const char *flavour);
long compiled(const char *out, const char *flavour);
struct run build_stage(const char *out, char *const fl[], int nf);
int cmp_double(const void *a, const void *b2);
struct run qemu_once(const char *log, char *const argv[], long long want);
struct run median_of_rounds(const struct run *r);
double loadavg(void);

/* steps.c, farm.c, c2c.c: each step fills its figures in m. */
char *step_seq(void);
char *step_first(void);
void step_matrix(const char *first);
void step_noop(const char *first);
void step_ccache(void);
void step_toggle(const char *seq);
void step_jobs(void);
void step_distro(const char *first);
void step_farm(void);
void step_c2c(const char *first);
void step_remote(void);
void step_sysboot(const char *first);

/* table.c: the table of m, to --report. */
void table(void);

#endif
