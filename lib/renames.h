/* SPDX-License-Identifier: GPL-2.0 */
/*
 * renames.h - fragments/renames, the successor table the audit and upgrade
 * explain a vanished symbol with: "OLD SUCCESSOR WHY...", one per line,
 * '#' comments; a bad line is an error naming the file and line.
 */
#ifndef KF_RENAMES_H
#define KF_RENAMES_H

#include <stddef.h>

/* fragments/renames: "OLD SUCCESSOR WHY...", '-' when there is none. */
struct kf_rename {
	char *old, *succ, *why;	/* succ NULL for '-' */
};

struct kf_renames {
	struct kf_rename *v;
	size_t n;
};

/* A missing file is an error only when must_exist; bad lines always are. */
void kf_renames_read(struct kf_renames *r, const char *path, int must_exist);
const struct kf_rename *kf_renames_find(const struct kf_renames *r, const char *old);
void kf_renames_free(struct kf_renames *r);

#endif /* KF_RENAMES_H */
