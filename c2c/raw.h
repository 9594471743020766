/* SPDX-License-Identifier: GPL-2.0 */
/*
 * raw.h - the TCG plugin's raw output (c2c/plugin.c) read into a struct,
 * and the median and spread of N runs' figures (c2c/record.c; unit tests
 * in tests/unit/test_c2c_raw.c).
 */
#ifndef KF_C2C_RAW_H
#define KF_C2C_RAW_H

#include <stddef.h>
#include <stdint.h>

#define KF_C2C_NSIZES	2		/* 64- and 128-byte lines */
#define KF_C2C_MAXCPUS	8

/* perf c2c's columns, per line size or per line (docs/c2c.md): loads,
 * those that missed, load HITMs and their false-sharing part; stores,
 * those that missed, stores to a line another vCPU held modified and their
 * false-sharing part; invalidations; read-modify-writes (one load each). */
struct kf_c2c_figs {
	uint64_t loads, load_miss, load_hitm, load_hitm_false;
	uint64_t stores, store_miss, store_hitm, store_hitm_false, inval, rmw;
};

struct kf_c2c_size {
	unsigned line;			/* 64 or 128 */
	struct kf_c2c_figs f;
	uint64_t lines;			/* distinct lines with a counted access */
};

/* A line with a HITM (64 or 128) or, at 128, a HITM at one size only. */
struct kf_c2c_line {
	unsigned size;			/* line size */
	uint64_t addr, pc;		/* guest-physical; last HITM's insn */
	struct kf_c2c_figs f;
	/* 128 only: HITMs at 128 bytes that were none at 64, and the opposite,
	 * by loads [0] and stores [1]. */
	uint64_t only128[2], only64[2];
};

/* One instruction's HITMs (loads and stores) on one line. */
struct kf_c2c_hitpc {
	unsigned size;
	uint64_t addr, pc, hitm;
};

/* HITMs at 128 bytes only on one line, by the instruction that made them
 * (pc) and the last store to the other half (pc2): the two sides. */
struct kf_c2c_sides {
	uint64_t addr, pc, pc2, n;
};

struct kf_c2c_raw {
	int count_kernel;		/* 1: kernel accesses counted, 0: user */
	int tcg_multi;			/* 1: -accel tcg,thread=multi */
	int vcpus;
	unsigned opens, closes;		/* window markers executed */
	uint64_t insns, mem, mem_io, mem_high;
	uint64_t kernel[KF_C2C_MAXCPUS], user[KF_C2C_MAXCPUS];
	uint64_t win_kernel[KF_C2C_MAXCPUS], win_user[KF_C2C_MAXCPUS];
	uint64_t win_loads[KF_C2C_MAXCPUS], win_stores[KF_C2C_MAXCPUS];
	struct kf_c2c_size size[KF_C2C_NSIZES];
	uint64_t only128[2], only64[2];	/* loads [0], stores [1] */
	struct kf_c2c_line *lines;
	size_t nlines;
	struct kf_c2c_hitpc *hitpcs;
	size_t nhitpcs;
	struct kf_c2c_sides *sides;
	size_t nsides;
	uint64_t hitpc_dropped;		/* pairs the plugin's table had no room for */
};

/*
 * Parse the text of one raw file. 0, or -1 with "line N: what" in err
 * (the caller adds the file name). A file without its last line ("end")
 * is refused: the plugin was cut off.
 */
int kf_c2c_raw_parse(struct kf_c2c_raw *r, const char *text, char *err, size_t errsize);
void kf_c2c_raw_free(struct kf_c2c_raw *r);

/* Median of n values (sorts v); the mean of the middle two for even n. */
double kf_c2c_median(double *v, size_t n);
/* Spread: (max - min) / median, 0 when the median is 0 (and all are). */
double kf_c2c_spread(const double *v, size_t n, double median);

#endif /* KF_C2C_RAW_H */
