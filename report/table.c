// SPDX-License-Identifier: GPL-2.0
/*
 * table.c - the terminal table: one column per flavour, at most 'width'
 * columns wide (more flavours than fit: several tables). The flavour rows
 * and their missing texts are rows.c's; this file lays them out in columns,
 * then a row per CPU model ("not booted" where a flavour was not).
 */
#include "render.h"
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

/* A warning line without its build-directory path prefix. */
static const char *warning_text(const char *l)
{
	const char *w = strstr(l, "warning:");
	const char *colon;

	/* "path/x.o: warning: ..." -> "x.o: warning: ..." */
	if (w && (colon = memrchr(l, '/', (size_t)(w - l))))
		return colon + 1;
	return l;
}

/* "1M" for 1048576, "4096" for 4096: a GDT figure in a narrow cell. */
static void fmt_bytes(char *buf, size_t len, long long v)
{
	if (v < 0)
		snprintf(buf, len, "?");
	else if (v >= 1024LL * 1024 && v % (1024LL * 1024) == 0)
		snprintf(buf, len, "%lldM", v / (1024LL * 1024));
	else if (v >= 1024 && v % 1024 == 0)
		snprintf(buf, len, "%lldK", v / 1024);
	else
		snprintf(buf, len, "%lld", v);
}

/* Who may share a line: "none at 64/128", "2 GDTs at 128", ... */
static void share_text(char *out, const struct gdt_facts *g)
{
	char parts[2][48];
	const long line[2] = { g->line_compiled, g->line_cpu };
	const int gg[2] = { g->gdt_gdt_compiled, g->gdt_gdt_cpu };
	const int gd[2] = { g->gdt_data_compiled, g->gdt_data_cpu };
	int any = 0, unknown = 0;

	for (int k = 0; k < 2; k++) {
		parts[k][0] = '\0';
		if (gg[k] < 0 && gd[k] < 0) {
			unknown = 1;
			continue;
		}
		if (gg[k] > 0 || gd[k] > 0) {
			snprintf(parts[k], sizeof(parts[k]), "%s%s%s@%ld",
				 gg[k] > 0 ? "2 GDTs" : "", gg[k] > 0 && gd[k] > 0 ? "+" : "",
				 gd[k] > 0 ? "data" : "", line[k]);
			any = 1;
		}
	}
	if (unknown && !any)
		snprintf(out, CELL, "?");
	else if (!any)
		snprintf(out, CELL, "none at %ld/%ld", line[0], line[1]);
	else
		snprintf(out, CELL, "%s%s%s", parts[0], *parts[0] && *parts[1] ? " " : "",
			 parts[1]);
}

/* The rows of run-time facts under a "boot <cpu>" row (rows.c's groups). */
static void boot_detail(char *out, const struct boot *b, enum boot_row_id id)
{
	char a[24], d[24];

	switch (id) {
	case BR_GDT:
		if (b->gdt.align < 0) {
			snprintf(out, CELL, "no probe");
			return;
		}
		fmt_bytes(a, sizeof(a), b->gdt.align);
		fmt_bytes(d, sizeof(d), b->gdt.distance);
		snprintf(out, CELL, "al %s, gap %s, %ld/%ld", a,
			 b->gdt.distance < 0 ? "-" : d, b->gdt.size, b->gdt.limit);
		break;
	case BR_SHARE:
		if (b->gdt.align < 0)
			snprintf(out, CELL, "—");
		else
			share_text(out, &b->gdt);
		break;
	case BR_CPU:
		if (b->threads_per_core < 0)
			snprintf(out, CELL, "—%s%s", b->idle ? ", " : "", b->idle ? b->idle : "");
		else
			snprintf(out, CELL, "%ldc x %ldt, %s", b->cores, b->threads_per_core,
				 b->idle ? b->idle : "idle ?");
		break;
	case BR_IO:
	case BR_NR:
		fmt_bytes(a, sizeof(a), b->swiotlb_bytes);

		snprintf(out, CELL, "%s%s%s, uc %s", b->swiotlb < 0 ? "?" : b->swiotlb ? "on" : "off",
			 b->swiotlb > 0 && b->swiotlb_bytes > 0 ? " " : "",
			 b->swiotlb > 0 && b->swiotlb_bytes > 0 ? a : "",
			 b->microcode ? b->microcode : "?");
	}
}

/* Is 'cpu' booted by any flavour, or a flavour's default? */
static int cpu_shown(const struct report *r, const char *cpu)
{
	for (size_t i = 0; i < r->nfl; i++)
		if (flavour_boot(&r->fl[i], cpu) ||
		    (r->fl[i].default_cpu && !strcmp(r->fl[i].default_cpu, cpu)))
			return 1;
	return 0;
}

/* "ok", or "2 missing: CGROUPS, FHANDLE" (the cell cuts it to its width;
 * report.html has each with its menu path). */
static void systemd_text(char *out, const struct kf_sysneeds *d)
{
	size_t len;

	if (!d->nmissing) {
		snprintf(out, CELL, "ok");
		return;
	}
	len = (size_t)snprintf(out, CELL, "%zu missing:", d->nmissing);
	for (size_t k = 0; k < d->nmissing && len < CELL; k++)
		len += (size_t)snprintf(out + len, CELL - len, "%s %s", k ? "," : "",
					d->missing[k].symbol ? d->missing[k].symbol : "?");
}

/* A flavour row's cell (rows.c has the value and its missing text). */
static void row_cell(const struct report *r, size_t i, enum row_id id, char *out,
		     const char **sgr)
{
	const struct row_value v = row_value(r, i, id);
	char d[32];

	*sgr = NULL;
	if (id == ROW_STATUS)
		*sgr = r->fl[i].nboots ? "1" : "2";
	if (id == ROW_WARNINGS && v.num > 0)
		*sgr = "33";
	if (id == ROW_SYSTEMD && !v.missing)
		*sgr = v.num ? "31" : "32";
	if (v.missing) {
		snprintf(out, CELL, "%s", v.missing);
		return;
	}
	switch (report_rows[id].kind) {
	case RK_TEXT:
	case RK_CODE:
		snprintf(out, CELL, "%s", v.text);
		break;
	case RK_NUMBER:
		snprintf(out, CELL, "%lld", v.num);
		break;
	case RK_SIZE:
	case RK_BYTES:
		if (v.ref < 0) {
			snprintf(out, CELL, "%lld", v.num);
			break;
		}
		fmt_delta(d, sizeof(d), v.num - v.ref);
		snprintf(out, CELL, "%lld (%s)", v.num, d);
		break;
	case RK_MARCH:
		if (v.text)
			snprintf(out, CELL, "%s", v.text);
		else
			snprintf(out, CELL, "none%s%s", v.mtune ? ", mtune=" : "",
				 v.mtune ? v.mtune : "");
		break;
	case RK_MICROCODE:
		snprintf(out, CELL, "%s%s%s%s", v.num ? "y" : "n",
			 v.intel || v.amd ? " (" : "", v.intel ? (v.amd ? "intel amd" : "intel") :
			 v.amd ? "amd" : "", v.intel || v.amd ? ")" : "");
		break;
	case RK_SECONDS:
		if (id == ROW_BUILD_CPU)
			snprintf(out, CELL, "%.1f s", v.cpu);
		else if (v.alongside >= 0)
			snprintf(out, CELL, "%.1f s (%ld alongside)",
				 isnan(v.wall) ? v.seconds : v.wall, v.alongside);
		else
			snprintf(out, CELL, "%.1f s", isnan(v.wall) ? v.seconds : v.wall);
		break;
	case RK_WARNINGS:
		if (!v.num || !r->fl[i].warned->nwarning_lines)
			snprintf(out, CELL, "%lld", v.num);
		else
			snprintf(out, CELL, "%lld: %s", v.num,
				 warning_text(r->fl[i].warned->warning_lines[0]));
		break;
	case RK_SYSTEMD:
		systemd_text(out, &r->fl[i].systemd);
		break;
	case RK_CCACHE:
		if (id == ROW_CCACHE_REMOTE)
			fmt_ccache_remote(out, CELL, v.build);
		else
			fmt_ccache(out, CELL, v.build);
		break;
	}
}

/* Flavour i on CPU model c: row 0 is its "boot <cpu>" row, row k > 0 the
 * run-time facts of boot_rows[k - 1]. */
static void boot_text(const struct report *r, size_t i, size_t c, size_t k, char *out,
		      const char **sgr)
{
	const struct boot *b = boot_cell(r, i, c).b;
	const struct verdict *v;
	char t[32] = "";

	*sgr = NULL;
	if (!b) {
		snprintf(out, CELL, "%s", k ? "·" : "not booted");
		*sgr = "2";
	} else if (k) {
		boot_detail(out, b, (enum boot_row_id)(k - 1));
	} else {
		if (!isnan(b->wall_seconds))
			snprintf(t, sizeof(t), " %.1fs", b->wall_seconds);
		snprintf(out, CELL, "%s%s%s%s", b->verdict ? b->verdict : "?", t,
			 b->line_verdict ? " " : "", b->line_verdict ? b->line_verdict : "");
		v = verdict_of(b->verdict);
		*sgr = !b->verdict ? "2" : v ? v->sgr : "31";
	}
}

/* Did any flavour's build use a shared cache (ccache_remote)? Its row then. */
static int any_remote(const struct report *r)
{
	for (size_t i = 0; i < r->nfl; i++)
		if (r->fl[i].has_build && r->fl[i].build_rec.remote.has)
			return 1;
	return 0;
}

static void print_chunk(FILE *f, const struct report *r, size_t from, size_t to,
			int colw)
{
	/* The flavour rows (rows.c) in the table's order. */
	static const enum row_id rows[] = {
		ROW_STATUS, ROW_CPU, ROW_MARCH, ROW_L1, ROW_SMT, ROW_MICROCODE,
		ROW_BZIMAGE, ROW_TEXT, ROW_CODE, ROW_DATA, ROW_PERCPU,
		ROW_BUILD_WALL, ROW_BUILD_CPU, ROW_CCACHE, ROW_CCACHE_REMOTE, ROW_WARNINGS,
		ROW_SYSTEMD,
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
		if (rows[k] == ROW_CCACHE_REMOTE && !any_remote(r))
			continue;
		cell(f, report_rows[rows[k]].label, LABEL, NULL);
		for (size_t i = from; i < to; i++) {
			row_cell(r, i, rows[k], buf, &sgr);
			cell(f, buf, colw, sgr);
		}
		fputc('\n', f);
	}
	/* The system boot's rows, once some flavour was packaged. */
	for (int k = 0; report_has_system(r) && k < SYS_NR; k++) {
		if (!k)
			rule(f, width - 1);
		cell(f, sys_row_labels[k], LABEL, NULL);
		for (size_t i = from; i < to; i++) {
			const struct kf_sysboot_rec *s = flavour_sysboot(&r->fl[i]);

			sgr = NULL;
			/* a verdict of the static init's in its colour, the
			 * system boot's own failures red */
			if (k == SYS_VERDICT && s) {
				const struct verdict *v = verdict_of(s->b.verdict);

				sgr = v ? v->sgr : "31";
			}
			sys_row_text(buf, sizeof(buf), &r->fl[i], (enum sys_row)k);
			cell(f, buf, colw, sgr);
		}
		fputc('\n', f);
	}
	/* A row per CPU model that was booted or is a flavour's default. */
	int any = 0;

	for (size_t c = 0; c < r->ncpus; c++) {
		const char *cpu = r->cpus[c].name;
		size_t nrows = 1;
		char label[64];

		if (!cpu_shown(r, cpu))
			continue;
		if (!any++)
			rule(f, width - 1);
		snprintf(label, sizeof(label), "boot %s", cpu);
		/* Its verdicts, then the run-time facts when one booted. */
		for (size_t i = from; i < to; i++)
			if (flavour_boot(&r->fl[i], cpu))
				nrows = 1 + BR_NR;
		for (size_t k = 0; k < nrows; k++) {
			cell(f, k ? boot_rows[k - 1].label : label, LABEL, NULL);
			for (size_t i = from; i < to; i++) {
				boot_text(r, i, c, k, buf, &sgr);
				cell(f, buf, colw, sgr);
			}
			fputc('\n', f);
		}
	}
	if (!any) {
		cell(f, "boots", LABEL, NULL);
		for (size_t i = from; i < to; i++)
			cell(f, "not booted", colw, "2");
		fputc('\n', f);
	}
}

/* text on lines of at most width columns, broken at blanks. */
static void wrapped(FILE *f, const char *text, int width)
{
	while (*text) {
		int n = (int)strlen(text), cut = n;

		if (n > width) {
			for (cut = width; cut > 0 && text[cut] != ' '; cut--)
				;
			if (!cut)
				cut = width;
		}
		fprintf(f, "%.*s\n", cut, text);
		text += cut;
		while (*text == ' ')
			text++;
	}
}

/* A 128-byte line with HITMs at 128 bytes only, on one line cut to the
 * table's width: its HITMs per run, the objects in each half, the
 * functions on each side. */
static void pad_line(FILE *f, const struct kf_c2c_padline *l, int width)
{
	struct strbuf sb = { 0 };

	sb_addf(&sb, "  %.0f on ", l->hitm_128_only.median);
	for (size_t o = 0; o < l->nobjects_low; o++)
		sb_addf(&sb, "%s%s", o ? "+" : "", l->objects_low[o]);
	sb_add(&sb, l->nobjects_low ? " | " : "(no object) | ");
	for (size_t o = 0; o < l->nobjects_high; o++)
		sb_addf(&sb, "%s%s", o ? "+" : "", l->objects_high[o]);
	if (!l->nobjects_high)
		sb_add(&sb, "(no object)");
	if (l->percpu_cpu >= 0)
		sb_addf(&sb, " (CPU %lld)", l->percpu_cpu);
	if (l->nfunctions && l->nfunctions_other)
		sb_addf(&sb, ": %s against %s", l->functions[0].name, l->functions_other[0].name);
	fprintf(f, "%.*s\n", width, sb.s);
	free(sb.s);
}

/* "Cache-line contention (emulated)": per flavour, each row's median per
 * iteration and spread; "*" where it differs from the first flavour's by
 * more than both spreads; the verdict in words; then each flavour's lines
 * with HITMs at 128 bytes only. */
static void c2c_print(FILE *f, const struct report *r, int width)
{
	const struct kf_c2c_rec *first = NULL;
	struct strbuf words = { 0 };
	char buf[64], num[32];

	for (size_t i = 0; i < r->nfl && !first; i++)
		if (r->fl[i].has_c2c)
			first = &r->fl[i].c2c;
	if (!first)
		return;
	snprintf(buf, sizeof(buf), " (-m %s, -smp %lld, tcg %s)", first->memory ? first->memory : "?",
		 first->smp, first->tcg ? first->tcg : "?");
	/* two lines: with the machine, one would pass the table's 100 columns */
	fprintf(f, "\nCache-line contention (emulated): %s on %s%s,\nper %s, median (spread) "
		"of the runs\n%-28s", first->workload ? first->workload : "?",
		first->cpu ? first->cpu : "?", buf, first->unit ? first->unit : "iteration", "");
	for (size_t i = 0; i < r->nfl; i++)
		fprintf(f, " %-18.18s", r->fl[i].name);
	fputc('\n', f);
	for (int id = 0; id < C2C_NR; id++) {
		fprintf(f, "%-28s", c2c_row_label((enum c2c_row)id));
		for (size_t i = 0; i < r->nfl; i++) {
			const struct kf_c2c_fig *g;

			if (!r->fl[i].has_c2c) {
				fprintf(f, " %-18s", "-");
				continue;
			}
			g = c2c_row_fig(&r->fl[i].c2c, (enum c2c_row)id);
			c2c_fmt(num, sizeof(num), c2c_row_value(&r->fl[i].c2c, (enum c2c_row)id));
			snprintf(buf, sizeof(buf), "%s (%.0f%%)%s", num, 100 * g->spread,
				 c2c_differs(&r->fl[i].c2c, first, (enum c2c_row)id) ? " *" : "");
			fprintf(f, " %-18s", buf);
		}
		fputc('\n', f);
		if (id == C2C_HEADLINE_ROWS - 1)
			fputc('\n', f);
	}
	fprintf(f, "HITM: a load (store HITM: a store) of a line another vCPU holds modified;\n"
		"at 128 B only: the other 64-byte half was written; * beyond both spreads\n");
	c2c_words(&words, r);
	wrapped(f, words.s ? words.s : "", width);
	free(words.s);
	words = (struct strbuf){ 0 };
	c2c_cost(&words, r);
	wrapped(f, words.s ? words.s : "", width);
	free(words.s);
	for (size_t i = 0; i < r->nfl; i++) {
		const struct kf_c2c_rec *c = &r->fl[i].c2c;

		if (!r->fl[i].has_c2c)
			continue;
		fprintf(f, "%s: %zu%s 128-byte line%s with HITMs at 128 B only%s\n", r->fl[i].name,
			c->npadlines, c->npadlines >= 40 ? "+" : "", c->npadlines == 1 ? "" : "s",
			c->npadlines ? ", most first (low half | high half):" : "");
		for (size_t k = 0; k < c->npadlines && k < 3; k++)
			pad_line(f, &c->padlines[k], width);
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
			"(kernel line vs CPU cache_alignment)\n"
			"GDT: alignment, distance between two CPUs' GDTs, size/limit; "
			"line shared by: at the\n"
			"kernel's/the CPU's line bytes; cores x threads per core "
			"(thread_siblings_list)\n"
			"code bytes: function symbols in .text (no 2 MiB padding); build: "
			"last build that\ncompiled (no-op rebuilds keep it), alongside: "
			"other builds at the same time\n"
			"build ccache: hits of the latest build's compiles; shared cache: of "
			"them, from ccache_remote\n"
			"systemd needs: what systemd requires of the kernel and the .config "
			"lacks (config time;\nmenu paths in report.html, docs/system-boot.md)\n");
	if (r->nfl && report_has_system(r))
		fprintf(f, "system boot: the flavour's package installed in Debian 12 and booted "
			"to multi-user.target\n(make sysboot); multi-user.target: seconds from "
			"the kernel's start (docs/system-boot.md)\n");
	c2c_print(f, r, width);
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
