/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kdiff.h - the config difference of two flavours, readable at distro scale
 * (config/kdiff.c; run by config-diff, config/diff.c). It needs no kernel
 * tree: the menus come from the configs' own comment blocks (lib/dotconfig.c).
 */
#ifndef KF_KDIFF_H
#define KF_KDIFF_H

#include <stddef.h>

/* Differences up to this many are listed one per symbol; more are
 * summarised by Kconfig menu with counts (every one is in the JSON). */
#define KF_DIFF_FULL_MAX 100

/*
 * Compare configs a and b (labelled la, lb); print to stdout; write every
 * difference to json when it is not NULL. full_max: list them all up to
 * this many. Returns the number of differences, or -1 when a file cannot be
 * read or has a bad line (message printed).
 */
long kf_kdiff(const char *a, const char *b, const char *la, const char *lb,
	      const char *json, size_t full_max);

#endif /* KF_KDIFF_H */
