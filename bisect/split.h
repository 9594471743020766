/* SPDX-License-Identifier: GPL-2.0 */
/*
 * split.h - the config side of make bisect: the symbols two configs set differently, configs made of one with
 * some values of the other, and the order in which ktest's config_bisect
 * tries the halves of the differences (tools/testing/ktest/config-bisect.pl).
 *
 * Needs no kernel tree and runs no command: the unit test links it alone.
 */
#ifndef KF_BISECT_SPLIT_H
#define KF_BISECT_SPLIT_H

#include <stddef.h>

#include "../lib/dotconfig.h"

/* A .config is a struct kf_config (lib/dotconfig.h): in file order,
 * Kconfig's menu order, where related symbols adjoin. */
/* Same symbols with the same values (order aside, kf_value_equal())? */
int kconf_equal(const struct kf_config *a, const struct kf_config *b);

/*
 * The symbols both configs mention with different values, in b's order
 * (ktest's diff_config_vals: a symbol only one of them mentions follows
 * from the others' dependencies). Returns the count; *names is malloc'ed,
 * its strings point into b.
 */
size_t kconf_diff(const struct kf_config *a, const struct kf_config *b, const char ***names);

/*
 * .config text: base, with each of names[] set to src's value (the
 * config-bisect.pl make_half). malloc'ed.
 */
char *kconf_with(const struct kf_config *base, const struct kf_config *src,
		 const char *const *names, size_t n);

/*
 * Candidate number i (0, 1, ...) for splitting n differences. ktest tries
 * the top half onto the good config, the top half of the good values onto
 * the bad config, then the same with the bottom half; when none of those
 * makes a new config to test (dependencies undo them, or a step with that
 * config was skipped), this goes on with quarters, eighths... down to
 * single symbols. The chunk is [*start, *start + *len) of the differences;
 * *from_bad says the candidate starts from the bad config and takes the
 * chunk's good values. Returns 0 when there is no candidate i.
 */
int split_candidate(size_t n, size_t i, size_t *start, size_t *len, int *from_bad);

#endif /* KF_BISECT_SPLIT_H */
