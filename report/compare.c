// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - the differences between the loaded flavours: the config diff
 * (each symbol whose value is not the same in every configured flavour,
 * grouped, with the fragment that set it, and its Kconfig menu when there
 * are too many to read) and the console diffs (flavour against flavour on
 * a CPU model, and one flavour across models), read from the boot logs.
 */
#include "report.h"
#include "../lib/kf.h"

#include <stdlib.h>
#include <string.h>

static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int by_group(const void *a, const void *b)
{
	const struct cdiff_sym *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Each differing symbol's Kconfig menu, from the first .config that has it. */
static void config_diff_menus(struct report *r)
{
	for (size_t k = 0; k < r->ncdiff; k++) {
		const char *menu = NULL;

		for (size_t i = 0; i < r->nfl && !menu; i++)
			if (r->fl[i].has_config)
				menu = kf_config_menu(&r->fl[i].cfg, r->cdiff[k].name);
		r->cdiff[k].menu = kf_xstrdup(menu ? menu : "(top level)");
	}
}

static void config_diff(struct report *r)
{
	const char **names = NULL;
	size_t n = 0, configs = 0;

	for (size_t i = 0; i < r->nfl; i++) {
		const struct flavour *f = &r->fl[i];

		if (!f->has_config)
			continue;
		configs++;
		names = kf_xrealloc(names, (n + f->cfg.n + 1) * sizeof(*names));
		for (size_t k = 0; k < f->cfg.n; k++)
			names[n++] = f->cfg.sym[k].name;
	}
	if (configs < 2) {
		free(names);
		return;
	}
	qsort(names, n, sizeof(*names), by_str);
	for (size_t k = 0; k < n; k++) {
		const char *first = NULL;
		int differs = 0;

		if (k && !strcmp(names[k], names[k - 1]))
			continue;
		for (size_t i = 0; i < r->nfl; i++) {
			const char *v;

			if (!r->fl[i].has_config)
				continue;
			v = kf_config_value(&r->fl[i].cfg, names[k]);
			if (!first)
				first = v;
			else if (!kf_value_equal(first, v))
				differs = 1;
		}
		if (!differs)
			continue;
		r->cdiff = kf_xrealloc(r->cdiff, (r->ncdiff + 1) * sizeof(*r->cdiff));
		struct cdiff_sym *s = &r->cdiff[r->ncdiff++];

		s->name = names[k];
		s->group = kc_classify(names[k], r->cpu_values, r->ncpu_values);
		s->cell = kf_xmalloc(r->nfl * sizeof(*s->cell));
		s->menu = NULL;
		for (size_t i = 0; i < r->nfl; i++) {
			const struct flavour *f = &r->fl[i];
			struct cdiff_cell *c = &s->cell[i];

			memset(c, 0, sizeof(*c));
			if (!f->has_config)
				continue;
			c->value = kf_config_value(&f->cfg, names[k]);
			c->fragment = kc_fragment_for(names[k], f->fragments,
						      f->nfragments, &c->line);
			if (!c->fragment)
				c->fragment = "(default)";
		}
	}
	free(names);
	if (r->ncdiff)
		qsort(r->cdiff, r->ncdiff, sizeof(*r->cdiff), by_group);
	if (r->ncdiff > CDIFF_FOLD)
		config_diff_menus(r);
}

static int read_log(const struct report *r, const struct boot *b, struct ld_log *l)
{
	char *path = kf_xasprintf("%s/%s", r->kdir, b->log);
	int rc = ld_log_read(l, path);

	free(path);
	return rc;
}

static void add_logdiff(struct report *r, enum logdiff_kind kind,
			const struct flavour *fa, const struct boot *ba,
			const struct flavour *fb, const struct boot *bb, int context)
{
	struct logdiff *x;

	r->ldiff = kf_xrealloc(r->ldiff, (r->nldiff + 1) * sizeof(*r->ldiff));
	x = &r->ldiff[r->nldiff];
	memset(x, 0, sizeof(*x));
	if (read_log(r, ba, &x->la))
		return;
	if (read_log(r, bb, &x->lb)) {
		ld_log_free(&x->la);
		return;
	}
	x->kind = kind;
	x->fa = fa;
	x->fb = fb;
	x->ba = ba;
	x->bb = bb;
	ld_diff(&x->d, &x->la, &x->lb, context);
	r->nldiff++;
}

static void log_diffs(struct report *r, int context)
{
	if (!r->fl)
		return;
	/* Flavour against flavour, on each CPU model: against the first. */
	for (size_t c = 0; c < r->ncpus; c++) {
		const struct flavour *ref = NULL;
		const struct boot *rb = NULL;

		for (size_t i = 0; i < r->nfl; i++) {
			const struct boot *b = flavour_boot(&r->fl[i], r->cpus[c].name);

			if (!b || !b->log)
				continue;
			if (!ref) {
				ref = &r->fl[i];
				rb = b;
				continue;
			}
			add_logdiff(r, LDK_FLAVOURS, ref, rb, &r->fl[i], b, context);
		}
	}
	/* One flavour across CPU models: against its default model. */
	for (size_t i = 0; i < r->nfl; i++) {
		const struct flavour *f = &r->fl[i];
		const struct boot *rb = f->default_cpu ? flavour_boot(f, f->default_cpu) : NULL;

		if (!rb || !rb->log)
			for (size_t k = 0; k < f->nboots && (!rb || !rb->log); k++)
				rb = &f->boots[k];
		if (!rb || !rb->log)
			continue;
		for (size_t k = 0; k < f->nboots; k++)
			if (&f->boots[k] != rb && f->boots[k].log)
				add_logdiff(r, LDK_CPUS, f, rb, f, &f->boots[k], context);
	}
}

void report_compare(struct report *r, int context)
{
	config_diff(r);
	log_diffs(r, context);
}
