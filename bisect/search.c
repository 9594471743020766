// SPDX-License-Identifier: GPL-2.0
/* search.c - make bisect's good/bad/skip search (search.h). */
#include "search.h"
#include "../lib/kf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The configs tested or given, by id; skipped: the test said skip. */
struct seen {
	struct { char id[65]; int skipped; } *c;
	size_t n;
};

static void add_seen(struct seen *t, const char *id, int skipped)
{
	t->c = kf_xrealloc(t->c, (t->n + 1) * sizeof(*t->c));
	snprintf(t->c[t->n].id, sizeof(t->c[t->n].id), "%s", id);
	t->c[t->n++].skipped = skipped;
}

/*
 * The first split of s->diff that settles to a new config, into s; 0 when
 * none does (*blocked: one was a skipped config).
 */
static int next_step(const struct bs_ops *ops, const struct seen *t, struct bs_step *s,
		     int *blocked)
{
	size_t start, len;

	for (size_t i = 0; split_candidate(s->ndiff, i, &start, &len, &s->from_bad); i++) {
		char *text = s->from_bad ? kconf_with(s->bad, s->good, s->diff + start, len)
					 : kconf_with(s->good, s->bad, s->diff + start, len);
		size_t k = 0;

		ops->settle(ops->ctx, text, &s->config, s->id);
		free(text);
		while (k < t->n && strcmp(t->c[k].id, s->id) != 0)
			k++;
		/* Equal to G, B or a config tested before: nothing new. */
		if (kconf_equal(&s->config, s->good) || kconf_equal(&s->config, s->bad) || k < t->n) {
			*blocked |= k < t->n && t->c[k].skipped;
			kf_config_free(&s->config);
			continue;
		}
		s->tried = i + 1;
		/* The subset: the chunk onto G, or everything but it (onto B). */
		s->subset = kf_xmalloc(s->ndiff * sizeof(*s->subset));
		s->nsub = 0;
		for (size_t j = 0; j < s->ndiff; j++)
			if ((j >= start && j < start + len) != s->from_bad)
				s->subset[s->nsub++] = s->diff[j];
		return 1;
	}
	return 0;
}

/*
 * Move the tested config into G or B; *old gets what it replaced (or the
 * config, on a skip), to free once s (whose names point into B) is done.
 * Returns how many symbols still differ.
 */
static size_t take(struct bs_result *res, struct bs_step *s, enum bs_outcome o,
		   struct kf_config *old)
{
	struct kf_config *side = o == BS_GOOD ? &res->good : o == BS_BAD ? &res->bad : NULL;
	const char **diff;
	size_t left;

	*old = s->config;
	if (side) {
		*old = *side;
		*side = s->config;
		snprintf(o == BS_GOOD ? res->good_id : res->bad_id, sizeof(res->good_id), "%s", s->id);
	}
	left = kconf_diff(&res->good, &res->bad, &diff);
	free(diff);
	return left;
}

enum bs_end bs_search(struct kf_config *good, const char *good_id, struct kf_config *bad,
		      const char *bad_id, const struct bs_ops *ops, struct bs_result *res)
{
	struct seen t = { 0 };
	int blocked = 0;

	*res = (struct bs_result){ .end = BS_FOUND, .good = *good, .bad = *bad };
	memset(good, 0, sizeof(*good));
	memset(bad, 0, sizeof(*bad));
	snprintf(res->good_id, sizeof(res->good_id), "%s", good_id);
	snprintf(res->bad_id, sizeof(res->bad_id), "%s", bad_id);
	add_seen(&t, good_id, 0);
	add_seen(&t, bad_id, 0);
	for (;;) {
		struct bs_step s = { .number = res->steps + 1, .good = &res->good, .bad = &res->bad };
		enum bs_outcome o;
		struct kf_config old;

		blocked = 0;
		s.ndiff = kconf_diff(&res->good, &res->bad, &s.diff);
		if (!next_step(ops, &t, &s, &blocked)) {
			free(s.diff);
			break;
		}
		o = ops->test(ops->ctx, &s, res->why, sizeof(res->why));
		if (o == BS_ERROR) {
			res->end = BS_FAILED;
			old = s.config;
		} else {
			res->steps++;
			res->skipped += o == BS_SKIP;
			add_seen(&t, s.id, o == BS_SKIP);
			size_t left = take(res, &s, o, &old);

			if (ops->stepped)
				ops->stepped(ops->ctx, &s, left);
		}
		kf_config_free(&old);
		free(s.subset);
		free(s.diff);
		if (o == BS_ERROR)
			break;
	}
	if (res->end == BS_FOUND && blocked) {
		res->end = BS_UNDECIDED;
		snprintf(res->why, sizeof(res->why),
			 "%zu of %zu steps skipped, and a split of what still differs was one of them: the culprit is among these symbols, maybe fewer",
			 res->skipped, res->steps);
	}
	free(t.c);
	return res->end;
}

void bs_result_free(struct bs_result *res)
{
	kf_config_free(&res->good);
	kf_config_free(&res->bad);
}
