/* SPDX-License-Identifier: GPL-2.0 */
/*
 * audit.h - the audit of one merged config (config-audit, config/audit.c)
 * in two halves: config/explain.c checks each request against the final
 * config and explains each miss in the tree's kconfig terms; config/misses.c
 * sorts, counts, prints and writes them as config.json, and needs no tree
 * (the unit tests link it alone).
 */
#ifndef KF_AUDIT_H
#define KF_AUDIT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "../lib/fragment.h"

enum kf_why {
	KF_WHY_UNKNOWN,
	KF_WHY_BAD_VALUE,
	KF_WHY_RANGE,
	KF_WHY_NO_PROMPT,
	KF_WHY_CHOICE,
	KF_WHY_SELECTED,
	KF_WHY_DEPENDS,
	KF_WHY_NOT_APPLIED,
	KF_NR_WHY
};

/* A request (or base value) the final config does not hold. */
struct kf_miss {
	const struct kf_setting *req;
	size_t order;		/* index of req->file among the fragments */
	char *final;		/* FINAL's value; NULL when absent (non-bool) */
	enum kf_why why;
	char *reason;		/* one line */
	char *detail;		/* kconfig's view, lines ending in \n; may be "" */
	char *fix;
};

struct kf_renames;		/* lib/renames.h: fragments/renames */

struct kf_audit {
	const char *config, *renames_path, *base_path;
	struct kf_fragset req;		/* what the fragments request */
	struct kf_fragset base;		/* the base config's values (--base) */
	struct kf_fragset final;	/* FINAL, read as a fragment */
	const struct kf_renames *renames;
	struct kf_miss *miss, *lost;	/* lost: base values not kept, nor set by fragments */
	size_t nmiss, nlost, noverridden;
	char *kernelversion;		/* e.g. 6.1.192 */
	char *kver;			/* e.g. 6.1 (fragments/<kver>/) */
};

/* explain.c: every request into a->miss, every base value the fragments
 * do not set into a->lost, explained; needs the tree's kconfig loaded. */
void kf_audit_requests(struct kf_audit *a);
void kf_audit_base(struct kf_audit *a);

/* misses.c */
void kf_audit_init(struct kf_audit *a);
void kf_audit_free(struct kf_audit *a);
/* Does FINAL's value (absent: n) satisfy request r? A string symbol
 * (is_string) wants a quoted string; values compare as kf_value_equal(). */
int kf_survived(const struct kf_fragset *final, const struct kf_setting *r, int is_string);
/* A new miss of r at the end of *v, with FINAL's value final (taken). */
struct kf_miss *kf_miss_add(struct kf_miss **v, size_t *n, const struct kf_setting *r,
			    char *final);
/* a->miss in fragment order, then line order: the order a reader edits. */
void kf_misses_sort(struct kf_audit *a);
/* The block (for stderr) that says why one request did not survive. */
void kf_miss_print(FILE *f, const struct kf_miss *m);
/* The "  BASE" lines (for stdout): how many base values were kept, how
 * many were not for each cause, with three of them. */
void kf_base_summary(FILE *f, const struct kf_audit *a, const char *flavour);
/* config.json (config/config.schema.json); cpu: an object of its
 * cpu_choice, cpu_choice_values and l1_cache_shift keys (taken). */
json_t *kf_audit_record(const struct kf_audit *a, const char *flavour, json_t *cpu, int ok);

#endif /* KF_AUDIT_H */
