// SPDX-License-Identifier: GPL-2.0
/*
 * c2c.c - the model's "Cache-line contention (emulated)" rows, from each
 * flavour's c2c record (docs/c2c.md); the table, report.json and the HTML
 * render them.
 */
#include "report.h"

#include <math.h>
#include <stdio.h>

static const struct {
	const char *label;
} rows[C2C_NR] = {
	[C2C_HITM128] = { "HITMs, 128-byte lines" },
	[C2C_FALSE128] = { "  false sharing" },
	[C2C_MULTI128] = { "  on lines of 2+ objects" },
	[C2C_HITM64] = { "HITMs, 64-byte lines" },
	[C2C_FALSE64] = { "  false sharing" },
	[C2C_MULTI64] = { "  on lines of 2+ objects" },
	[C2C_INSN_KERNEL] = { "kernel instructions" },
	[C2C_INSN_USER] = { "user instructions" },
};

const char *c2c_row_label(enum c2c_row id)
{
	return rows[id].label;
}

const struct kf_c2c_fig *c2c_row_fig(const struct kf_c2c_rec *c, enum c2c_row id)
{
	switch (id) {
	case C2C_HITM128: return &c->size128.hitm;
	case C2C_FALSE128: return &c->size128.hitm_false;
	case C2C_MULTI128: return &c->size128.hitm_multi_object;
	case C2C_HITM64: return &c->size64.hitm;
	case C2C_FALSE64: return &c->size64.hitm_false;
	case C2C_MULTI64: return &c->size64.hitm_multi_object;
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

size_t c2c_shared_lines(const struct kf_c2c_rec *c, const struct kf_c2c_recline **out,
			size_t max)
{
	size_t n = 0;

	/* The record keeps its lines most HITMs first. */
	for (size_t i = 0; i < c->nlines; i++)
		if (c->lines[i].size == 128 && c->lines[i].nobjects >= 2) {
			if (n < max)
				out[n] = &c->lines[i];
			n++;
		}
	return n;
}

void c2c_fmt(char *buf, size_t len, double v)
{
	snprintf(buf, len, v >= 1000 ? "%.0f" : "%.4g", v);
}
