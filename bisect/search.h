/* SPDX-License-Identifier: GPL-2.0 */
/*
 * search.h - make bisect's good/bad/skip search (ktest's config_bisect),
 * with no build or boot: callbacks settle a candidate (bisect: olddefconfig)
 * and test it (build and boot), so a unit test drives it from a table.
 *
 * Each step tests the first split of what differs between the good config G
 * and the bad config B (split_candidate()'s order) that, settled, is neither
 * G nor B nor a config tested before. Good makes it G, bad makes it B, skip
 * tries the next split. It ends when no split gives a new config (what
 * still differs is the answer) or a test fails.
 */
#ifndef KF_BISECT_SEARCH_H
#define KF_BISECT_SEARCH_H

#include "split.h"

enum bs_outcome { BS_GOOD, BS_BAD, BS_SKIP, BS_ERROR };

/* A candidate to test, and how it was made. */
struct bs_step {
	size_t number;				/* 1, 2, ... */
	const struct kf_config *good, *bad;	/* the current G and B */
	const char **diff;			/* kconf_diff(G, B) */
	size_t ndiff;
	const char **subset;			/* the symbols meant to take B's values */
	size_t nsub;
	int from_bad;				/* made from B with the others' good values */
	size_t tried;				/* splits tried to find it */
	struct kf_config config;		/* the candidate, settled */
	char id[65];				/* its identity from settle */
};

struct bs_ops {
	/* Text -> the config Kconfig makes of it, and an id for it. */
	void (*settle)(void *ctx, const char *text, struct kf_config *out, char id[65]);
	/* BS_GOOD, BS_BAD, BS_SKIP; or BS_ERROR with why in why[len]. */
	enum bs_outcome (*test)(void *ctx, const struct bs_step *s, char *why, size_t len);
	/* Optional: after the test moved G or B (s->good, s->bad are the new
	 * ones); 'left' symbols still differ. */
	void (*stepped)(void *ctx, const struct bs_step *s, size_t left);
	void *ctx;
};

enum bs_end {
	BS_FOUND,	/* what differs is the answer */
	BS_UNDECIDED,	/* a skipped config blocked a split: maybe not minimal */
	BS_FAILED,	/* a test failed: why */
};

struct bs_result {
	enum bs_end end;
	struct kf_config good, bad;	/* the last good and bad configs */
	char good_id[65], bad_id[65];
	size_t steps, skipped;
	char why[1024];			/* BS_UNDECIDED, BS_FAILED */
};

/*
 * Search between good and bad (ids good_id, bad_id; both count as tested).
 * Takes the two configs over: they end in res, freed by bs_result_free.
 */
enum bs_end bs_search(struct kf_config *good, const char *good_id, struct kf_config *bad,
		      const char *bad_id, const struct bs_ops *ops, struct bs_result *res);
void bs_result_free(struct bs_result *res);

#endif /* KF_BISECT_SEARCH_H */
