// SPDX-License-Identifier: GPL-2.0
/*
 * table.c - the terminal table: one column per flavour, at most 'width'
 * columns wide (more flavours than fit: several tables). Missing pieces read
 * "—" (no config), "not built", "not booted".
 */
#include "report.h"
#include "../lib/kf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LABEL	17
#define MAXCOL	28
#define MINCOL	14
#define CELL	96

void fmt_size(char *buf, size_t len, long long bytes)
{
	if (bytes < 0)
		snprintf(buf, len, "—");
	else if (bytes >= 1024LL * 1024)
		snprintf(buf, len, "%.2fM", bytes / (1024.0 * 1024.0));
	else if (bytes >= 1024)
		snprintf(buf, len, "%.1fK", bytes / 1024.0);
	else
		snprintf(buf, len, "%lld", bytes);
}

void fmt_delta(char *buf, size_t len, long long delta)
{
	long long a = delta < 0 ? -delta : delta;
	const char *sign = delta < 0 ? "-" : "+";

	if (!delta)
		snprintf(buf, len, "±0");
	else if (a >= 1024LL * 1024)
		snprintf(buf, len, "%s%.1fM", sign, a / (1024.0 * 1024.0));
	else if (a >= 1024)
		snprintf(buf, len, "%s%.1fK", sign, a / 1024.0);
	else
		snprintf(buf, len, "%s%lld", sign, a);
}

/* Display width of UTF-8 text: one column per code point. */
static int cols(const char *s)
{
	int n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

static int colour;

static const char *verdict_colour(const char *v)
{
	if (!v)
		return "2";
	if (!strcmp(v, "pass"))
		return "32";
	if (!strcmp(v, "refused"))
		return "36";
	if (!strcmp(v, "test-fail"))
		return "33";
	return "31";
}

/* Print s in w columns: cut with "…" when longer, pad when shorter. */
static void cell(FILE *f, const char *s, int w, const char *sgr)
{
	int n = cols(s);

	if (colour && sgr)
		fprintf(f, "\033[%sm", sgr);
	if (n <= w - 1) {
		fputs(s, f);
		if (colour && sgr)
			fputs("\033[0m", f);
		fprintf(f, "%*s", w - n, "");
		return;
	}
	/* Cut at w - 2 code points, then the ellipsis and one blank. */
	for (int k = 0; *s && k < w - 2; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80)
			k++;
		fputc(*s, f);
		while ((((unsigned char)s[1]) & 0xc0) == 0x80)
			fputc(*++s, f);
	}
	fputs("… ", f);
	if (colour && sgr)
		fputs("\033[0m", f);
}

static void rule(FILE *f, int w)
{
	for (int i = 0; i < w; i++)
		fputs("─", f);
	fputc('\n', f);
}

/* Size with the difference to the first flavour that has one. */
static void size_cell(char *buf, long long v, long long ref, int is_ref,
		      const char *missing)
{
	char a[32], d[32];

	if (v < 0) {
		snprintf(buf, CELL, "%s", missing);
		return;
	}
	snprintf(a, sizeof(a), "%lld", v);
	if (is_ref || ref < 0) {
		snprintf(buf, CELL, "%s", a);
		return;
	}
	fmt_delta(d, sizeof(d), v - ref);
	snprintf(buf, CELL, "%s (%s)", a, d);
}

static long long first_value(const struct report *r, const char *section,
			     size_t *at)
{
	for (size_t i = 0; i < r->nfl; i++) {
		long long v = section ? flavour_section(&r->fl[i], section) :
			      r->fl[i].bzimage_bytes;

		if (v >= 0) {
			*at = i;
			return v;
		}
	}
	*at = (size_t)-1;
	return -1;
}

static void fill(const struct report *r, size_t i, const char *what, char *out,
		 const char **sgr)
{
	const struct flavour *f = &r->fl[i];
	size_t at;
	long long ref;

	*sgr = NULL;
	if (!strcmp(what, "status")) {
		snprintf(out, CELL, "%s", flavour_status(f));
		*sgr = f->nboots ? "1" : "2";
	} else if (!strcmp(what, "cpu")) {
		snprintf(out, CELL, "%s", !f->has_config ? "—" :
			 f->cpu_choice ? f->cpu_choice : "(none)");
	} else if (!strcmp(what, "march")) {
		if (!f->has_build)
			snprintf(out, CELL, "not built");
		else if (f->march)
			snprintf(out, CELL, "%s", f->march);
		else
			snprintf(out, CELL, "none%s%s", f->mtune ? ", mtune=" : "",
				 f->mtune ? f->mtune : "");
	} else if (!strcmp(what, "l1")) {
		if (f->l1_bytes > 0)
			snprintf(out, CELL, "%ld", f->l1_bytes);
		else
			snprintf(out, CELL, "—");
	} else if (!strcmp(what, "smt")) {
		snprintf(out, CELL, "%s", f->smt < 0 ? "—" : f->smt ? "SCHED_SMT=y" : "n");
	} else if (!strcmp(what, "microcode")) {
		if (f->microcode < 0) {
			snprintf(out, CELL, "—");
		} else {
			int in = !strcmp(kc_value(&f->cfg, "MICROCODE_INTEL"), "y");
			int am = !strcmp(kc_value(&f->cfg, "MICROCODE_AMD"), "y");

			snprintf(out, CELL, "%s%s%s%s", f->microcode ? "y" : "n",
				 in || am ? " (" : "", in ? (am ? "intel amd" : "intel") :
				 am ? "amd" : "", in || am ? ")" : "");
		}
	} else if (!strcmp(what, "bzimage")) {
		ref = first_value(r, NULL, &at);
		size_cell(out, f->bzimage_bytes, ref, at == i, "not built");
	} else if (what[0] == '.') {
		ref = first_value(r, what, &at);
		size_cell(out, flavour_section(f, what), ref, at == i,
			  f->has_build ? "—" : "not built");
	} else if (!strcmp(what, "build_s")) {
		if (isnan(f->build_seconds))
			snprintf(out, CELL, "%s", f->has_build ? "—" : "not built");
		else
			snprintf(out, CELL, "%.1f s", f->build_seconds);
	} else {
		/* "boot:<cpu>" */
		const struct boot *b = flavour_boot(f, what + 5);
		char t[32] = "";

		if (!b) {
			snprintf(out, CELL, "not booted");
			*sgr = "2";
			return;
		}
		if (!isnan(b->wall_seconds))
			snprintf(t, sizeof(t), " %.1fs", b->wall_seconds);
		snprintf(out, CELL, "%s%s%s%s", b->verdict ? b->verdict : "?", t,
			 b->line_verdict ? " " : "", b->line_verdict ? b->line_verdict : "");
		*sgr = verdict_colour(b->verdict);
	}
}

static void print_chunk(FILE *f, const struct report *r, size_t from, size_t to,
			int colw)
{
	static const struct {
		const char *label, *what;
	} rows[] = {
		{ "status", "status" },
		{ "cpu choice", "cpu" },
		{ "-march", "march" },
		{ "L1 line bytes", "l1" },
		{ "SMT", "smt" },
		{ "microcode", "microcode" },
		{ "bzImage bytes", "bzimage" },
		{ ".text", ".text" },
		{ ".data", ".data" },
		{ ".data..percpu", ".data..percpu" },
		{ "build seconds", "build_s" },
	};
	int width = LABEL + colw * (int)(to - from);
	char buf[CELL];
	const char *sgr;

	cell(f, "", LABEL, NULL);
	for (size_t i = from; i < to; i++)
		cell(f, r->fl[i].name, colw, "1");
	fputc('\n', f);
	rule(f, width - 1);
	for (size_t k = 0; k < sizeof(rows) / sizeof(*rows); k++) {
		cell(f, rows[k].label, LABEL, NULL);
		for (size_t i = from; i < to; i++) {
			fill(r, i, rows[k].what, buf, &sgr);
			cell(f, buf, colw, sgr);
		}
		fputc('\n', f);
	}
	/* A row per CPU model that was booted or is a flavour's default. */
	int any = 0;

	for (size_t c = 0; c < r->ncpus; c++) {
		char label[64], what[80];

		if (!report_cpu_shown(r, r->cpus[c].name))
			continue;
		if (!any++)
			rule(f, width - 1);
		snprintf(label, sizeof(label), "boot %s", r->cpus[c].name);
		cell(f, label, LABEL, NULL);
		snprintf(what, sizeof(what), "boot:%s", r->cpus[c].name);
		for (size_t i = from; i < to; i++) {
			fill(r, i, what, buf, &sgr);
			cell(f, buf, colw, sgr);
		}
		fputc('\n', f);
	}
	if (!any) {
		cell(f, "boots", LABEL, NULL);
		for (size_t i = from; i < to; i++)
			cell(f, "not booted", colw, "2");
		fputc('\n', f);
	}
}

void table_print(FILE *f, const struct report *r, int width)
{
	int per;

	colour = isatty(fileno(f)) && !getenv("NO_COLOR");
	if (width < LABEL + MINCOL)
		width = LABEL + MINCOL;
	per = (width - LABEL) / MINCOL;
	if (per < 1)
		per = 1;
	fprintf(f, "kflavour report: Linux %s (%s), %zu flavour%s\n", r->release,
		r->kdir, r->nfl, r->nfl == 1 ? "" : "s");
	for (size_t from = 0; from < r->nfl; from += (size_t)per) {
		size_t to = from + (size_t)per < r->nfl ? from + (size_t)per : r->nfl;

		int colw = (width - LABEL) / (int)(to - from);

		if (colw > MAXCOL)
			colw = MAXCOL;
		if (from)
			fputc('\n', f);
		print_chunk(f, r, from, to, colw);
	}
	if (r->nfl)
		fprintf(f, "boot cells: verdict, wall seconds, L1 line verdict "
			"(kernel line vs CPU cache_alignment)\n");
	for (size_t i = 0; i < r->nfl; i++)
		if (r->fl[i].config_failed)
			fprintf(f, "%s: last config attempt failed: %s (the columns show the last good config)\n",
				r->fl[i].name, r->fl[i].config_failed);
	for (size_t i = 0; i < r->nfl; i++) {
		const struct flavour *fl = &r->fl[i];

		if (!fl->nstale_boots)
			continue;
		fprintf(f, "left out, boots of an earlier %s bzImage on:", fl->name);
		for (size_t k = 0; k < fl->nstale_boots; k++)
			fprintf(f, " %s", fl->stale_boots[k]);
		fputc('\n', f);
	}
}
