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

struct kf_c2c_size {
	unsigned line;			/* 64 or 128 */
	uint64_t accesses, stores, hitm, hitm_false, inval;
};

struct kf_c2c_line {
	unsigned size;			/* line size */
	uint64_t addr, pc;		/* guest-physical; last HITM's insn */
	uint64_t accesses, stores, hitm, hitm_false, inval;
};

/* One instruction's HITMs on one line (a line has one per instruction
 * that made a HITM on it; raw files before 2026-12-06 have none). */
struct kf_c2c_hitpc {
	unsigned size;
	uint64_t addr, pc, hitm;
};

struct kf_c2c_raw {
	int count_kernel;		/* 1: kernel accesses counted, 0: user */
	int vcpus;
	unsigned opens, closes;		/* window markers executed */
	uint64_t insns, mem, mem_io, mem_high;
	uint64_t kernel[KF_C2C_MAXCPUS], user[KF_C2C_MAXCPUS];
	uint64_t win_kernel[KF_C2C_MAXCPUS], win_user[KF_C2C_MAXCPUS];
	struct kf_c2c_size size[KF_C2C_NSIZES];
	struct kf_c2c_line *lines;
	size_t nlines;
	struct kf_c2c_hitpc *hitpcs;
	size_t nhitpcs;
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
