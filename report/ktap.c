// SPDX-License-Identifier: GPL-2.0
/*
 * ktap.c - results.ktap, a renderer of struct report (render.h): one
 * subtest per current boot of the model's flavours, its first test the
 * boot's verdict against the expected one, then the boot's own KTAP
 * results. A boot of an earlier bzImage (the current-boot rule, lib/records.h)
 * is no subtest: a "# left out" line after the plan names it. A system boot
 * (sysboot/<cpu>.json) is the subtest "<flavour>.<cpu>.system", its cause
 * in a comment. Also the list
 * of boots junit.c renders: every record by its path, as a glob lists them.
 */
#include "render.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int by_path(const void *a, const void *b)
{
	const struct result *x = a, *y = b;

	return strcmp(x->path, y->path);
}

void results_list(const struct report *r, struct result **cur, size_t *ncur,
		  struct result **gone, size_t *ngone)
{
	*cur = *gone = NULL;
	*ncur = *ngone = 0;
	for (size_t i = 0; i < r->nfl; i++) {
		const struct flavour *f = &r->fl[i];
		const struct kf_boots *bs = &f->boot_recs;

		for (size_t k = 0; k < bs->ncur + bs->nstale; k++) {
			const struct kf_boot_rec *b = k < bs->ncur ? &bs->cur[k] : &bs->stale[k - bs->ncur];
			struct result *v;

			if (k < bs->ncur) {
				*cur = kf_xrealloc(*cur, (*ncur + 1) * sizeof(**cur));
				v = &(*cur)[(*ncur)++];
			} else {
				*gone = kf_xrealloc(*gone, (*ngone + 1) * sizeof(**gone));
				v = &(*gone)[(*ngone)++];
			}
			v->b = b;
			v->path = b->h.path;
			v->flavour = b->h.flavour ? b->h.flavour : "?";
			v->kver = b->h.kver ? b->h.kver : "?";
			v->cpu = b->cpu ? b->cpu : "?";
			v->verdict = b->verdict ? b->verdict : "?";
			v->expected = b->expected ? b->expected : "pass";
			v->wall = isnan(b->wall_seconds) ? 0 : b->wall_seconds;
			v->as_expected = !strcmp(v->verdict, v->expected);
			v->system = 0;
			v->cause = NULL;
		}
		for (size_t k = 0; k < f->nsysboots; k++) {
			const struct kf_sysboot_rec *s = &f->sysboots[k];
			struct result *v;

			*cur = kf_xrealloc(*cur, (*ncur + 1) * sizeof(**cur));
			v = &(*cur)[(*ncur)++];
			v->b = &s->b;
			v->path = s->b.h.path;
			v->flavour = s->b.h.flavour ? s->b.h.flavour : f->name;
			v->kver = s->b.h.kver ? s->b.h.kver : "?";
			v->cpu = s->b.cpu ? s->b.cpu : "?";
			v->verdict = s->b.verdict ? s->b.verdict : "?";
			v->expected = s->b.expected ? s->b.expected : "pass";
			v->wall = isnan(s->b.wall_seconds) ? 0 : s->b.wall_seconds;
			v->as_expected = !strcmp(v->verdict, v->expected);
			v->system = 1;
			v->cause = s->cause;
		}
	}
	if (*ncur)
		qsort(*cur, *ncur, sizeof(**cur), by_path);
	if (*ngone)
		qsort(*gone, *ngone, sizeof(**gone), by_path);
}

/* s with each character of 'bad' written as 'repl'. */
static void put_ktap(struct strbuf *b, const char *s, const char *bad, char repl)
{
	for (; *s; s++) {
		char c = strchr(bad, *s) ? repl : *s;

		sb_addn(b, &c, 1);
	}
}

/* A KTAP test name "first.second": one line, no '#' (which would start a directive). */
static void put_ktap_name(struct strbuf *b, const char *first, const char *second)
{
	put_ktap(b, first, "#\n\r", '_');
	sb_add(b, ".");
	put_ktap(b, second, "#\n\r", '_');
}

/* A boot's name: "<flavour>.<cpu>", a system boot's "<flavour>.<cpu>.system". */
static void put_result_name(struct strbuf *b, const struct result *t)
{
	put_ktap_name(b, t->flavour, t->cpu);
	if (t->system)
		sb_add(b, ".system");
}

int ktap_write(const struct report *r, const char *path)
{
	struct strbuf b = { 0 };
	struct result *recs, *gone;
	size_t n, ngone;
	int rc;

	results_list(r, &recs, &n, &gone, &ngone);
	sb_addf(&b, "KTAP version 1\n1..%zu\n", n);
	for (size_t i = 0; i < ngone; i++) {
		sb_addf(&b, "# " RESULTS_GONE, gone[i].flavour);
		put_ktap(&b, gone[i].path, "\n\r", ' ');
		sb_add(&b, "\n");
	}
	for (size_t i = 0; i < n; i++) {
		const struct result *t = &recs[i];

		sb_add(&b, "    KTAP version 1\n    # Subtest: ");
		put_result_name(&b, t);
		sb_addf(&b, "\n    1..%zu\n", t->b->ncases + 1);
		sb_addf(&b, "    # %s: verdict %s, expected %s\n", t->path, t->verdict, t->expected);
		if (t->cause) {
			sb_add(&b, "    # cause: ");
			put_ktap(&b, t->cause, "\n\r", ' ');
			sb_add(&b, "\n");
		}
		sb_addf(&b, "    %s 1 verdict_is_%s\n", t->as_expected ? "ok" : "not ok", t->expected);
		for (size_t k = 0; k < t->b->ncases; k++) {
			const struct kf_ktap_case *c = &t->b->cases[k];
			int ok = c->ok == 1;
			const char *dir = c->directive;

			/* The boot's own directive, as its console had it: a
			 * TODO test is one that failed ("not ok ... # TODO"). */
			if (dir && !strncasecmp(dir, "todo", 4))
				ok = 0;
			sb_addf(&b, "    %s %zu ", ok ? "ok" : "not ok", k + 2);
			if (c->suite && *c->suite)
				put_ktap_name(&b, c->suite, c->name ? c->name : "?");
			else	/* a system boot's facts unit: no suite */
				put_ktap(&b, c->name ? c->name : "?", "#\n\r", '_');
			if (dir) {
				/* a directive's text: one line */
				sb_add(&b, " # ");
				put_ktap(&b, dir, "\n\r", ' ');
			} else if (!ok && strcmp(t->expected, "pass") != 0) {
				/* A failure the boot was expected to show (test-fail
				 * expected) is TAP's TODO: not counted against it. */
				sb_addf(&b, " # TODO the boot is expected to give %s", t->expected);
			}
			sb_add(&b, "\n");
		}
		sb_addf(&b, "%s %zu ", t->as_expected ? "ok" : "not ok", i + 1);
		put_result_name(&b, t);
		sb_add(&b, "\n");
	}
	rc = kf_write_atomic(path, b.s, b.len);
	free(b.s);
	free(recs);
	free(gone);
	return rc;
}
