// SPDX-License-Identifier: GPL-2.0
/*
 * c2c.c - the model's "Cache-line contention (emulated)" rows, from each
 * flavour's c2c record (docs/c2c.md); the table, report.json and the HTML
 * render them. The headline is what a 128-byte line changes over a 64-byte
 * one (HITMs at one size only), then the totals in perf c2c's terms.
 */
#include "report.h"

#include <math.h>
#include <stdio.h>

static const struct {
	const char *label, *key;
} rows[C2C_NR] = {
	[C2C_ONLY128_LOAD] = { "load HITMs at 128 B only", "hitm_128_only_load" },
	[C2C_ONLY128_STORE] = { "store HITMs at 128 B only", "hitm_128_only_store" },
	[C2C_ONLY64_LOAD] = { "load HITMs at 64 B only", "hitm_64_only_load" },
	[C2C_ONLY64_STORE] = { "store HITMs at 64 B only", "hitm_64_only_store" },
	[C2C_LOAD128] = { "load HITMs, 128-byte lines", "load_hitm_128" },
	[C2C_FALSE128] = { "  false sharing", "load_hitm_false_128" },
	[C2C_STORE128] = { "store HITMs, 128-byte lines", "store_hitm_128" },
	[C2C_LOAD64] = { "load HITMs, 64-byte lines", "load_hitm_64" },
	[C2C_FALSE64] = { "  false sharing", "load_hitm_false_64" },
	[C2C_STORE64] = { "store HITMs, 64-byte lines", "store_hitm_64" },
	[C2C_LINES128] = { "128 B lines touched a run", "lines_128" },
	[C2C_LINES64] = { "64 B lines touched a run", "lines_64" },
	[C2C_INSN_KERNEL] = { "kernel instructions", "insns_kernel" },
	[C2C_INSN_USER] = { "user instructions", "insns_user" },
};

const char *c2c_row_label(enum c2c_row id)
{
	return rows[id].label;
}

const char *c2c_row_key(enum c2c_row id)
{
	return rows[id].key;
}

/* Distinct lines touched are a whole window's working set: shown per run
 * (the median), not divided by the iterations. */
double c2c_row_value(const struct kf_c2c_rec *c, enum c2c_row id)
{
	const struct kf_c2c_fig *g = c2c_row_fig(c, id);

	return id == C2C_LINES128 || id == C2C_LINES64 ? g->median : g->per_iteration;
}

const struct kf_c2c_fig *c2c_row_fig(const struct kf_c2c_rec *c, enum c2c_row id)
{
	switch (id) {
	case C2C_ONLY128_LOAD: return &c->only128_load;
	case C2C_ONLY128_STORE: return &c->only128_store;
	case C2C_ONLY64_LOAD: return &c->only64_load;
	case C2C_ONLY64_STORE: return &c->only64_store;
	case C2C_LOAD128: return &c->size128.load_hitm;
	case C2C_FALSE128: return &c->size128.load_hitm_false;
	case C2C_STORE128: return &c->size128.store_hitm;
	case C2C_LOAD64: return &c->size64.load_hitm;
	case C2C_FALSE64: return &c->size64.load_hitm_false;
	case C2C_STORE64: return &c->size64.store_hitm;
	case C2C_LINES128: return &c->size128.lines;
	case C2C_LINES64: return &c->size64.lines;
	case C2C_INSN_KERNEL: return &c->insns_kernel;
	case C2C_INSN_USER:
	default: return &c->insns_user;
	}
}

int c2c_differs(const struct kf_c2c_rec *ra, const struct kf_c2c_rec *rb, enum c2c_row id)
{
	const struct kf_c2c_fig *a = c2c_row_fig(ra, id), *b = c2c_row_fig(rb, id);
	double d = fabs(a->median - b->median);

	if (ra == rb || ra->runs < 2 || rb->runs < 2)
		return 0;
	if (isnan(d) || isnan(a->max - a->min) || isnan(b->max - b->min))
		return 0;
	return d > a->max - a->min && d > b->max - b->min;
}

/* The first flavour with a record: the one the others are compared with. */
static const struct flavour *c2c_first(const struct report *r)
{
	for (size_t i = 0; i < r->nfl; i++)
		if (r->fl[i].has_c2c)
			return &r->fl[i];
	return NULL;
}

void c2c_words(struct strbuf *sb, const struct report *r)
{
	const struct flavour *first = c2c_first(r);
	int any = 0, others = 0, single = 0;

	if (!first)
		return;
	for (size_t i = 0; i < r->nfl; i++) {
		const struct flavour *f = &r->fl[i];

		if (!f->has_c2c || f == first)
			continue;
		others++;
		single |= f->c2c.runs < 2 || first->c2c.runs < 2;
		for (int id = 0; id < C2C_NR; id++) {
			char a[32], b[32];

			if (!c2c_differs(&f->c2c, &first->c2c, (enum c2c_row)id))
				continue;
			double va = c2c_row_value(&f->c2c, (enum c2c_row)id);
			double vb = c2c_row_value(&first->c2c, (enum c2c_row)id);

			c2c_fmt(a, sizeof(a), va);
			c2c_fmt(b, sizeof(b), vb);
			/* the size beside the fact: a difference beyond two narrow
			 * ranges may still be a small one */
			sb_addf(sb, "%s%s: %s %s against %s's %s", any ? "; " : "Beyond both spreads: ",
				f->name, c2c_row_label((enum c2c_row)id) + (rows[id].label[0] == ' ' ?
				2 : 0), a, first->name, b);
			if (vb > 0)
				sb_addf(sb, " (%+.0f%%)", 100 * (va - vb) / vb);
			any = 1;
		}
	}
	if (any)
		sb_add(sb, ".");
	else if (!others)
		sb_addf(sb, "One flavour (%s): nothing to compare.", first->name);
	else if (single)
		sb_add(sb, "A record of one run has no spread: no difference is claimed (make c2c "
			   "runs=5 gives one).");
	else
		sb_addf(sb, "No figure differs from %s's by more than both spreads: at run time "
			"the flavours do the same here.", first->name);
}

void c2c_cost(struct strbuf *sb, const struct report *r)
{
	const struct flavour *first = c2c_first(r);

	if (!first || first->c2c.percpu_bytes <= 0)
		return;
	sb_add(sb, "static per-CPU area, bytes each CPU pays (the probe's):");
	for (size_t i = 0; i < r->nfl; i++) {
		const struct flavour *f = &r->fl[i];

		if (!f->has_c2c || f->c2c.percpu_bytes <= 0)
			continue;
		sb_addf(sb, "%s %s %lld", f == first ? "" : ",", f->name, f->c2c.percpu_bytes);
		if (f != first)
			sb_addf(sb, " (%+lld)", f->c2c.percpu_bytes - first->c2c.percpu_bytes);
	}
}

void c2c_fmt(char *buf, size_t len, double v)
{
	snprintf(buf, len, v >= 1000 ? "%.0f" : "%.4g", v);
}
