/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - the report stage's model of out/<kver>/: struct report, loaded,
 * derived and compared in three steps; render.h has what only reads it. One
 * file per job, each calling only files above it in this list:
 *
 *   kconfig.c     the config diff's groups, the fragment that set a symbol
 *   load.c        read out/<kver>/<flavour>/... into struct report, as the
 *                 records have it (nothing computed), through lib/records.h
 *                 (whose current-boot rule leaves out an earlier bzImage's)
 *   derive.c      what the report computes from that: line verdicts,
 *                 topology, GDT sharing, microcode and SWIOTLB sources,
 *                 builds alongside, boots in CPU model order
 *   compare.c     the config diff and the console diffs (lib/logdiff.h)
 *   (render.h)    rows.c, svg.c, table.c, json.c, html.c, kcidb.c
 *   report.c      command line
 *
 * Anything missing on disk is represented as missing (NULL, -1, NAN), never
 * as zero, so the renderers can say "not built" / "not booted" / "—".
 */
#ifndef KF_REPORT_H
#define KF_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "../lib/dotconfig.h"
#include "../lib/kf.h"
#include "../lib/logdiff.h"
#include "../lib/records.h"

/* ---- kconfig.c ---------------------------------------------------------- */

/* A .config is a struct kf_config (lib/dotconfig.h, the one reader). */

enum kc_group { KC_CPU, KC_CACHE, KC_SMT, KC_MICROCODE, KC_OTHER, KC_NR_GROUPS };
extern const char *const kc_group_names[KC_NR_GROUPS];
/* cpu_values: the values of the "Processor family" choice. */
enum kc_group kc_classify(const char *name, char *const *cpu_values, size_t ncpu_values);

/*
 * The fragment (of 'files', in merge order) that sets 'name' last, as
 * given in files[], or NULL. '*line' gets its line number when non-NULL.
 */
const char *kc_fragment_for(const char *name, char *const *files, size_t nfiles,
			    int *line);

/* ---- struct report ------------------------------------------------------- */

struct cpu_model {
	char *name;
	char *expect;	/* verdict any x86-64 kernel must give */
};

enum line_verdict_source { LV_NONE, LV_PROBE, LV_COMPUTED };

/*
 * The per-CPU GDTs as the probe saw them, and whether a cache line could
 * hold two GDTs, or a GDT and other (hot) data: at the kernel's compiled
 * line (L1_CACHE_BYTES) and at the CPU's (cache_alignment). -1: unknown.
 * Two GDTs share a line when they are less than a line apart; a GDT shares
 * one with other data when it may start inside a line (alignment < line) or
 * ends inside one (size not a multiple of the line). docs/report.md.
 */
struct gdt_facts {
	long align;		/* smallest cpuN.gdt_align */
	long long distance;	/* gdt_distance; -1 unknown or one CPU */
	long size, limit;	/* gdt_size, gdt_limit */
	long line_compiled, line_cpu;	/* the two line sizes checked */
	int gdt_gdt_compiled, gdt_gdt_cpu;	/* 1, 0, -1 */
	int gdt_data_compiled, gdt_data_cpu;
};

struct boot {
	/* load.c: the boot record (lib/records.h), which the flavour's
	 * boot_recs own; the fields below point into it */
	const struct kf_boot_rec *rec;
	const char *cpu;	/* the record's, else its file's name */
	const char *cpu_string;	/* QEMU's -cpu, or NULL */
	const char *verdict;	/* NULL: record has none */
	const char *expected;
	double wall_seconds;	/* NAN when unknown */
	double guest_seconds;
	long ktap_passed, ktap_failed, ktap_skipped;	/* -1 when unknown */
	const struct kf_ktap_case *cases;	/* ok: 1, 0, -1 unknown */
	size_t ncases;
	const struct kf_rec_fact *facts;
	size_t nfacts;
	char *const *warnings;
	size_t nwarnings;
	const char *qemu_version;	/* the record's, or NULL */
	const char *release;	/* the record's header (the guest's uname), or NULL */
	/* What the runner read on the console beside the facts (the record's
	 * "console", boot/logparse.c): has_console 0 when it has none. */
	int has_console, swiotlb_mapped, end_marker, microcode_updated;
	long hwalign;		/* SLUB HWalign= from the console, -1 */
	char *log;		/* "<f>/boot/<cpu>.log" relative to kdir, or NULL */
	/* derive.c (see docs/report.md for their sources) */
	long cache_alignment;	/* -1 */
	const char *line_verdict;	/* "match" "too-small" "too-large" or NULL */
	enum line_verdict_source line_verdict_source;
	long threads_per_core;	/* most CPUs in one thread_siblings_list, -1 */
	long cores;		/* online CPUs / threads_per_core, -1 */
	int swiotlb;		/* 1 on, 0 off, -1 unknown */
	const char *swiotlb_source;	/* "probe" "console" or NULL */
	long long swiotlb_bytes;	/* the default pool (probe), -1 */
	const char *idle;	/* probe.idle: "halt" "mwait" ... or NULL */
	const char *microcode;	/* probe.microcode: "0x1", or NULL */
	const char *microcode_source;	/* where that revision comes from */
	struct gdt_facts gdt;
};

struct flavour {
	char *name;
	char *description;	/* from flavours/<name>.flavour, or NULL */
	char *default_cpu;
	char **fragments;	/* fragment files, merge order */
	size_t nfragments;

	/* config stage */
	int has_config;
	struct kf_config cfg;
	char *cpu_choice;	/* "MPSC"... (config.json), or NULL */
	long l1_cache_shift;	/* X86_L1_CACHE_SHIFT (config.json), -1 */
	const char *audit;	/* "ok", "failed", or NULL */
	char *config_failed;	/* config.failed: why the last attempt failed, or NULL */
	/* config.json's "systemd": can it boot systemd (checked 0: no such
	 * check in the record) */
	struct kf_sysneeds systemd;
	/* build stage: build.json (lib/records.h), which build_rec owns; the
	 * fields below point into it. build: this build (perhaps a no-op);
	 * full: the last that compiled something (has_full 0: null). */
	int has_build;
	struct kf_build_rec build_rec;
	const char *release;
	long long bzimage_bytes;	/* -1 */
	const struct kf_section *sections;
	size_t nsections;
	const char *march;
	const char *mtune;
	long long code_bytes;	/* function symbols' sizes in .text, -1 */
	const char *bzimage_sha256;
	char *build_log;	/* "<f>/build.log" relative to kdir, or NULL */
	struct kf_build_run build, full;
	int has_full;
	/* boot stage: the current records, which boot_recs owns */
	struct kf_boots boot_recs;
	struct boot *boots;	/* by CPU model name; derive.c: cpu-model order */
	size_t nboots;
	/* CPUs whose boot record names another bzImage than build.json: boots
	 * of an earlier build, left out of boots[] (make matrix redoes them). */
	char **stale_boots;
	size_t nstale_boots;

	/* c2c stage: <f>/c2c/<cpu>.json, the comparison workload's record
	 * (docs/c2c.md); has_c2c 0: none */
	int has_c2c;
	struct kf_c2c_rec c2c;

	/* system stage (docs/system-boot.md): the flavour's packages
	 * (deb/deb.json), its Debian system image (system/image.json) and its
	 * system boots (sysboot/<cpu>.json, by CPU model name); has_* 0: none */
	int has_deb, has_image;
	struct kf_deb_rec deb;
	struct kf_image_rec image;
	struct kf_sysboot_rec *sysboots;
	size_t nsysboots;

	/* derive.c */
	long l1_bytes;		/* 1 << l1_cache_shift, -1 */
	int smt;		/* SCHED_SMT: 1, 0, -1 unknown */
	int microcode;		/* MICROCODE: 1, 0, -1 */
	/* The run whose warnings the report shows: a no-op rebuild compiled
	 * nothing and warned of nothing, so after one, the last full build. */
	const struct kf_build_run *warned;
	/* How many other flavours' last full builds overlapped this one's in
	 * time (0: it ran alone; -1: unknown). */
	long alongside;
};

struct cdiff_cell {
	const char *value;	/* NULL: the flavour has no config */
	const char *fragment;	/* NULL: no config; "(default)" when none sets it */
	int line;
};

struct cdiff_sym {
	const char *name;
	enum kc_group group;
	struct cdiff_cell *cell;	/* one per flavour */
	char *menu;	/* Kconfig menu, only set when more than CDIFF_FOLD differ */
};

/*
 * More config differences than this (config/kdiff.c's limit too) are too
 * many to read: report.html folds those of the "other" group by Kconfig
 * menu. report.json has every one either way.
 */
#define CDIFF_FOLD	100

enum logdiff_kind { LDK_FLAVOURS, LDK_CPUS };

struct logdiff {
	enum logdiff_kind kind;
	const struct flavour *fa, *fb;
	const struct boot *ba, *bb;
	struct ld_log la, lb;
	struct ld_diff d;
};

struct report {
	char *kdir;
	char *kver;
	const char *release;	/* kernel release, or kver when unknown (derive.c) */
	char **cpu_values;	/* the CPU choice's values (config.json), sorted */
	size_t ncpu_values;
	struct flavour *fl;
	size_t nfl;
	struct cpu_model *cpus;	/* boot/cpu-models, plus booted ones (derive.c) */
	size_t ncpus;
	struct cdiff_sym *cdiff;	/* symbols that differ, grouped */
	size_t ncdiff;
	struct logdiff *ldiff;
	size_t nldiff;
	const char *c2c_cpu;	/* --c2c-cpu: the machine of the c2c comparison */
	const char *c2c_workload;	/* --c2c-workload: its workload; NULL: pipe */
};

/* ---- load.c -------------------------------------------------------------- */

/* Which flavours: "NAME" or "NAME=FRAGMENT,FRAGMENT,...". */
void report_add_flavour(struct report *r, const char *spec);
/* Read boot/cpu-models (missing file: no models). */
void report_read_cpu_models(struct report *r, const char *path);
/* Every flavour's description and CPU model: kdir/<name>/flavour.json (none:
 * no description). */
void report_read_flavours(struct report *r, const char *kdir);
/* Read everything under kdir; never fails on missing pieces. */
void report_load(struct report *r, const char *kdir);
/* A CPU model, unless it is there already. */
void report_add_cpu(struct report *r, const char *name, const char *expect);
void report_free(struct report *r);

const struct boot *flavour_boot(const struct flavour *f, const char *cpu);
const char *boot_fact(const struct boot *b, const char *key);
/* Section size, or -1. */
long long flavour_section(const struct flavour *f, const char *name);

/* ---- derive.c ------------------------------------------------------------ */

/* The derived facts of every flavour and boot (needs report_load). */
void report_derive(struct report *r);
/* Status word of a flavour: "booted", "built", "configured", "not configured". */
const char *flavour_status(const struct flavour *f);
/* The line verdict for a kernel line size and a CPU's cache alignment. */
const char *line_verdict_for(long kernel_bytes, long cpu_bytes);

/* ---- c2c.c: the "Cache-line contention (emulated)" rows ---------------- */

enum c2c_row {
	C2C_ONLY128_LOAD, C2C_ONLY128_STORE, C2C_ONLY64_LOAD, C2C_ONLY64_STORE,
	C2C_LOAD128, C2C_FALSE128, C2C_STORE128, C2C_LOAD64, C2C_FALSE64, C2C_STORE64,
	C2C_LINES128, C2C_LINES64, C2C_INSN_KERNEL, C2C_INSN_USER, C2C_NR
};
/* The first four rows are the headline: what the 128-byte line changes. */
#define C2C_HEADLINE_ROWS 4
/* The row's label, its report.json key; its figure of a record. */
const char *c2c_row_label(enum c2c_row id);
const char *c2c_row_key(enum c2c_row id);
const struct kf_c2c_fig *c2c_row_fig(const struct kf_c2c_rec *c, enum c2c_row id);
/* The value the table shows: per iteration, or per run for the lines
 * touched (a working set). */
double c2c_row_value(const struct kf_c2c_rec *c, enum c2c_row id);
/* What the padding costs each CPU: the static per-CPU area's bytes of
 * each flavour, against the first's; nothing without the probe's fact. */
void c2c_cost(struct strbuf *sb, const struct report *r);
/* Whether row id of two records differs by more than its spread: |a - b|
 * exceeds both max - min ranges; never with fewer than 2 runs a record
 * (no spread to judge by). */
int c2c_differs(const struct kf_c2c_rec *a, const struct kf_c2c_rec *b, enum c2c_row id);
/* The section's verdict in words: each row that differs from the first
 * flavour's beyond both spreads, or that none does. */
void c2c_words(struct strbuf *sb, const struct report *r);
/* A figure per iteration as the table and the HTML show it: whole numbers
 * from 1000 up, 4 significant digits below. */
void c2c_fmt(char *buf, size_t len, double v);

/* ---- compare.c ----------------------------------------------------------- */

/* The config diff and the log diffs (needs report_derive). */
void report_compare(struct report *r, int context);

#endif /* KF_REPORT_H */
