// SPDX-License-Identifier: GPL-2.0
/*
 * html.c - report.html: one self-contained file (inline CSS from
 * report/report.css and SVG, no script), written atomically. The flavour
 * table, the flavour x CPU matrix (each cell links to its console log,
 * relative to out/<kver>/), bar charts, the config diff and the console
 * diffs. Every piece of text is escaped.
 */
#include "../lib/page.h"
#include "render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Console diff lines shown per pair; the rest is counted. */
#define MAX_EDITS 160
#define NCOLOURS 6

static void missing(struct strbuf *sb, const char *what)
{
	sb_wrap(sb, "<span class=\"missing\">", what, "</span>");
}

/* The page's head and the header's counts. */
static void header(struct strbuf *sb, const struct report *r)
{
	size_t built = 0, boots = 0, pass = 0, unexpected = 0;
	char *title, *sub;

	for (size_t i = 0; i < r->nfl; i++) {
		built += r->fl[i].has_build;
		boots += r->fl[i].nboots;
		for (size_t k = 0; k < r->fl[i].nboots; k++) {
			const struct boot *b = &r->fl[i].boots[k];

			pass += b->verdict && !strcmp(b->verdict, "pass");
			unexpected += b->verdict && b->expected && strcmp(b->verdict, b->expected) != 0;
		}
	}
	title = kf_xasprintf("kflavour report — Linux %s", r->release);
	sub = kf_xasprintf("out/%s · flavours compared side by side: configuration, build, "
			   "boots on emulated CPU models", r->kver);
	page_begin(sb, title, sub);
	page_pill(sb, r->nfl, "flavour", "flavours");
	page_pill(sb, built, "built", "built");
	page_pill(sb, boots, "boot", "boots");
	page_pill(sb, pass, "pass", "pass");
	page_pill(sb, unexpected, "unexpected verdict", "unexpected verdicts");
	page_pill(sb, r->ncdiff, "config symbol differ", "config symbols differ");
	page_main(sb);
	free(title);
	free(sub);
}

/* ok, or each required value missing with its menu path; then how many
 * recommended ones are not set, named in a tooltip. */
static void systemd_td(struct strbuf *sb, const struct kf_sysneeds *d)
{
	if (!d->nmissing)
		sb_add(sb, "ok");
	else
		sb_addf(sb, "<span class=\"warn\">cannot boot %s %s</span>",
			d->init ? d->init : "?", d->version ? d->version : "?");
	for (size_t k = 0; k < d->nmissing; k++) {
		const struct kf_sysneed *q = &d->missing[k];

		sb_wrap(sb, "<br><code>CONFIG_", q->symbol ? q->symbol : "?", "=");
		sb_wrap(sb, "", q->want ? q->want : "?", "</code>");
		sb_wrap(sb, " <span class=\"missing\">", q->menu ? q->menu :
			q->in_tree == 0 ? "not in this tree" : "no prompt", "</span>");
	}
	if (!d->nrecommended)
		return;
	sb_add(sb, "<br><span class=\"missing\" title=\"");
	for (size_t k = 0; k < d->nrecommended; k++) {
		sb_esc(sb, d->recommended[k].symbol ? d->recommended[k].symbol : "?");
		sb_add(sb, k + 1 < d->nrecommended ? " " : "");
	}
	sb_addf(sb, "\">%zu recommended not set</span>", d->nrecommended);
}

/* A flavour row's cell (rows.c has the value and its missing text). */
static void row_td(struct strbuf *sb, const struct report *r, size_t i, enum row_id id)
{
	const struct row_value v = row_value(r, i, id);
	enum row_kind kind = report_rows[id].kind;
	int num = kind == RK_NUMBER || kind == RK_SIZE || kind == RK_BYTES ||
		  kind == RK_SECONDS;
	char a[64];

	sb_add(sb, num ? "<td class=\"num\">" : "<td>");
	if (v.missing) {
		missing(sb, v.missing);
		sb_add(sb, "</td>");
		return;
	}
	switch (kind) {
	case RK_TEXT:
		sb_esc(sb, v.text);
		break;
	case RK_CODE:
		sb_wrap(sb, "<code>", v.text, "</code>");
		break;
	case RK_NUMBER:
		sb_addf(sb, "%lld", v.num);
		break;
	case RK_SIZE:
	case RK_BYTES:
		sb_addf(sb, "%lld", v.num);
		if (kind == RK_SIZE) {
			fmt_size(a, sizeof(a), v.num);
			sb_wrap(sb, " <span class=\"missing\">(", a, ")</span>");
		}
		if (v.ref >= 0) {
			fmt_delta(a, sizeof(a), v.num - v.ref);
			sb_addf(sb, "<span class=\"delta%s\">", v.num > v.ref ? " up" :
				v.num < v.ref ? " down" : "");
			sb_wrap(sb, "", a, "</span>");
		}
		break;
	case RK_MARCH:
		if (v.text) {
			sb_wrap(sb, "<code>-march=", v.text, "</code>");
			break;
		}
		sb_add(sb, "<span class=\"missing\">none</span>");
		if (v.mtune)
			sb_wrap(sb, " <code>-mtune=", v.mtune, "</code>");
		break;
	case RK_MICROCODE:
		sb_addf(sb, "<code>MICROCODE=%s</code>%s%s", v.num ? "y" : "n",
			v.intel ? " intel" : "", v.amd ? " amd" : "");
		break;
	case RK_SECONDS:
		if (isnan(v.wall)) {
			sb_addf(sb, "%.1f wall", v.seconds);
			break;
		}
		sb_addf(sb, "%.1f wall, %.1f CPU", v.wall, v.cpu);
		if (v.alongside >= 0)
			sb_addf(sb, " <span class=\"missing\">(%ld other build%s "
				"alongside)</span>", v.alongside, v.alongside == 1 ? "" : "s");
		if (v.compiled == 0)
			sb_add(sb, " <span class=\"missing\">(the last build since "
				   "was a no-op)</span>");
		break;
	case RK_WARNINGS:
		sb_addf(sb, "%lld", v.num);
		for (size_t k = 0; k < r->fl[i].warned->nwarning_lines; k++)
			sb_wrap(sb, "<br><code class=\"warn\">", r->fl[i].warned->warning_lines[k],
				"</code>");
		break;
	case RK_SYSTEMD:
		systemd_td(sb, &r->fl[i].systemd);
		break;
	case RK_CCACHE:
		fmt_ccache(a, sizeof(a), v.build);
		sb_esc(sb, a);
		if (!v.build->remote.has)
			break;
		fmt_ccache_remote(a, sizeof(a), v.build);
		sb_wrap(sb, ", shared cache: ", a, "");
		if (v.build->remote.used == 0 && v.build->remote.off_because)
			sb_wrap(sb, " <span class=\"missing\">(", v.build->remote.off_because, ")</span>");
		break;
	}
	sb_add(sb, "</td>");
}

static void flavour_table(struct strbuf *sb, const struct report *r)
{
	/* The flavour rows (rows.c) in this table's order. */
	static const enum row_id rows[] = {
		ROW_DESCRIPTION, ROW_CPU, ROW_MARCH, ROW_L1, ROW_SMT, ROW_MICROCODE,
		ROW_BZIMAGE, ROW_TEXT, ROW_DATA, ROW_PERCPU, ROW_CODE,
		ROW_BUILD_SECONDS, ROW_CCACHE, ROW_WARNINGS, ROW_SYSTEMD,
	};

	sb_add(sb, "<section id=\"flavours\"><h2>Flavours</h2>"
		   "<p class=\"note\">Facts from each flavour's final <code>.config</code>, "
		   "<code>build.json</code> and boot records. Sizes show the difference "
		   "to the first flavour that has one.</p><table class=\"facts\"><tr><th></th>");
	for (size_t i = 0; i < r->nfl; i++) {
		sb_addf(sb, "<th><span class=\"fl c%zu\"></span>", i % NCOLOURS);
		sb_esc(sb, r->fl[i].name);
		sb_addf(sb, " <span class=\"status %s\">", r->fl[i].nboots ? "booted" :
			r->fl[i].has_build ? "built" : "none");
		sb_wrap(sb, "", row_value(r, i, ROW_STATUS).text, "</span>");
		if (r->fl[i].config_failed)
			sb_wrap(sb, "<br><span class=\"status none\">last config attempt failed: ",
				r->fl[i].config_failed, "</span>");
		sb_add(sb, "</th>");
	}
	for (size_t k = 0; k < sizeof(rows) / sizeof(*rows); k++) {
		const struct row *row = &report_rows[rows[k]];

		sb_add(sb, "</tr>\n<tr><td class=\"k\">");
		sb_wrap(sb, row->section ? "<code>" : "",
			row->html_label ? row->html_label : row->label,
			row->section ? "</code></td>" : "</td>");
		for (size_t i = 0; i < r->nfl; i++)
			row_td(sb, r, i, rows[k]);
	}
	sb_add(sb, "</tr></table><p class=\"note\"><b>code bytes</b>: the sizes of the "
		   "function symbols in <code>.text</code> (vmlinux's symbol table), which "
		   "<code>.text</code>'s own size hides: the linker aligns the entry text "
		   "to 2 MiB inside it. <b>build seconds</b>: the last build that compiled "
		   "objects (a no-op rebuild keeps it), wall and CPU time, and how many "
		   "other flavours' builds shared the machine meanwhile. <b>systemd needs</b>: "
		   "what systemd requires of the kernel and the final <code>.config</code> "
		   "lacks, checked at config time, each with its menu path "
		   "(docs/system-boot.md).</p></section>\n");
}

static void tri_td(struct strbuf *sb, int v)
{
	sb_add(sb, v < 0 ? "<td class=\"missing\">—</td>" :
		   v ? "<td class=\"share\">yes</td>" : "<td>no</td>");
}

static void num_td(struct strbuf *sb, long long v)
{
	if (v < 0)
		sb_add(sb, "<td class=\"num missing\">—</td>");
	else
		sb_addf(sb, "<td class=\"num\">%lld</td>", v);
}

static void text_td(struct strbuf *sb, const char *s)
{
	if (!s)
		sb_add(sb, "<td class=\"missing\">—</td>");
	else
		sb_wrap(sb, "<td>", s, "</td>");
}

/* "a/b" or "a x b", when known. */
static void ratio_td(struct strbuf *sb, int known, long a, const char *sep, long b)
{
	sb_add(sb, "<td class=\"num\">");
	if (known)
		sb_addf(sb, "%ld%s%ld", a, sep, b);
	else
		missing(sb, "—");
	sb_add(sb, "</td>");
}

/* The run-time facts of one group (rows.c's boot_rows), a column each. */
static void runtime_tds(struct strbuf *sb, const struct boot *b, enum boot_row_id id)
{
	const struct gdt_facts *g = &b->gdt;

	switch (id) {
	case BR_GDT:
		num_td(sb, g->align);
		num_td(sb, g->distance);
		ratio_td(sb, g->size >= 0, g->size, "/", g->limit);
		break;
	case BR_SHARE:
		sb_add(sb, "<td><table class=\"pair\"><tr>");
		tri_td(sb, g->gdt_gdt_compiled);
		tri_td(sb, g->gdt_gdt_cpu);
		sb_add(sb, "</tr></table></td><td><table class=\"pair\"><tr>");
		tri_td(sb, g->gdt_data_compiled);
		tri_td(sb, g->gdt_data_cpu);
		sb_add(sb, "</tr></table></td>");
		break;
	case BR_CPU:
		ratio_td(sb, b->threads_per_core > 0, b->cores, " x ", b->threads_per_core);
		text_td(sb, b->idle);
		break;
	case BR_IO:
	case BR_NR:
		text_td(sb, b->swiotlb < 0 ? NULL : b->swiotlb ? "active" : "inactive");
		num_td(sb, b->swiotlb_bytes);
		sb_add(sb, "<td>");
		if (b->microcode) {
			sb_wrap(sb, "<code>", b->microcode, "</code> ");
			sb_wrap(sb, "<span class=\"missing\">", b->microcode_source, "</span>");
		} else {
			missing(sb, "—");
		}
		sb_add(sb, "</td>");
	}
}

/* Per flavour x model: what the probe and the guest's sysfs measured. */
static void runtime(struct strbuf *sb, const struct report *r)
{
	sb_add(sb, "<section id=\"runtime\"><h2>Run-time facts</h2><p class=\"note\">"
		   "What the in-kernel probe and the guest's sysfs reported on each boot. "
		   "<b>GDT</b>: the smallest alignment of a CPU's GDT, the distance between "
		   "two CPUs' GDTs, GDT size and the limit read back with SGDT. "
		   "<b>Could share a line</b> at the kernel's compiled line "
		   "(<code>L1_CACHE_BYTES</code>) and at the CPU's "
		   "(<code>cache_alignment</code>): two GDTs when they are less than a line "
		   "apart; a GDT and other hot data when the GDT may start or end inside a "
		   "line. <b>Threads per core</b> from "
		   "<code>thread_siblings_list</code>. The microcode revision is the one the "
		   "guest kernel read; under QEMU it is the emulated model's.</p>"
		   "<table class=\"runtime\"><tr><th>flavour</th><th>CPU model</th>"
		   "<th>line</th><th>kernel/CPU line</th>");
	for (size_t k = 0; k < BR_NR; k++)
		for (const char *const *c = boot_rows[k].columns; *c; c++)
			sb_wrap(sb, "<th>", *c, "</th>");
	sb_add(sb, "</tr>\n");
	for (size_t i = 0; i < r->nfl; i++) {
		const struct flavour *f = &r->fl[i];

		for (size_t k = 0; k < f->nboots; k++) {
			const struct boot *b = &f->boots[k];

			sb_addf(sb, "<tr><td><span class=\"fl c%zu\"></span>", i % NCOLOURS);
			sb_wrap(sb, "", f->name, "</td>");
			text_td(sb, b->cpu);
			text_td(sb, b->line_verdict);
			ratio_td(sb, b->gdt.line_compiled > 0 && b->cache_alignment > 0,
				 b->gdt.line_compiled, "/", b->cache_alignment);
			for (size_t id = 0; id < BR_NR; id++)
				runtime_tds(sb, b, (enum boot_row_id)id);
			sb_add(sb, "</tr>\n");
		}
	}
	sb_add(sb, "</table></section>\n");
}

static void matrix_cell(struct strbuf *sb, const struct report *r, size_t i, size_t c)
{
	const struct boot_cell x = boot_cell(r, i, c);
	const struct flavour *f = &r->fl[i];
	const struct boot *b = x.b;
	const struct verdict *v;

	if (!b) {
		sb_add(sb, "<td class=\"cell verdict-none\"><div class=\"box\">");
		if (x.is_default)
			sb_add(sb, "<span class=\"tag\">default</span>");
		sb_add(sb, "<span class=\"verdict\">not booted</span></div></td>");
		return;
	}
	v = verdict_of(b->verdict);
	sb_addf(sb, "<td class=\"cell verdict-%s%s\">", v ? v->name : "unknown",
		x.unexpected ? " unexpected" : "");
	if (b->log) {
		sb_wrap(sb, "<a href=\"", b->log, "\" title=\"console log: ");
		sb_wrap(sb, "", b->log, "\">");
	} else {
		sb_add(sb, "<div class=\"box\" title=\"no console log\">");
	}
	if (x.is_default)
		sb_add(sb, "<span class=\"tag\">default</span>");
	sb_wrap(sb, "<span class=\"verdict\">", b->verdict ? b->verdict : "no verdict",
		"</span><span class=\"secs\">");
	if (isnan(b->wall_seconds))
		sb_add(sb, "— s");
	else
		sb_addf(sb, "%.1f s", b->wall_seconds);
	sb_add(sb, "</span>");
	if (b->ktap_passed >= 0)
		sb_addf(sb, "<span class=\"ktap\">KTAP %ld/%ld</span>", b->ktap_passed,
			b->ktap_passed + (b->ktap_failed > 0 ? b->ktap_failed : 0));
	if (x.unexpected)
		sb_wrap(sb, "<span class=\"secs\"> · expected ", x.want, "</span>");
	if (b->line_verdict) {
		sb_addf(sb, "<br><span class=\"lv lv-%s\">line %s", b->line_verdict,
			b->line_verdict);
		if (f->l1_bytes > 0 && b->cache_alignment > 0)
			sb_addf(sb, " %ld/%ld", f->l1_bytes, b->cache_alignment);
		sb_add(sb, "</span>");
	}
	sb_add(sb, b->log ? "</a></td>" : "</div></td>");
}

static void matrix(struct strbuf *sb, const struct report *r)
{
	sb_add(sb, "<section id=\"matrix\"><h2>Boot matrix</h2><p class=\"note\">Each "
		   "flavour on each emulated CPU model (QEMU TCG). A cell links to its "
		   "console log. <b>line</b> compares the kernel's L1 line size with the "
		   "CPU's <code>cache_alignment</code> (kernel/CPU bytes). A red frame marks "
		   "a verdict other than the expected one.</p><div class=\"legend\">");
	for (size_t i = 0; i < NR_VERDICTS; i++) {
		sb_addf(sb, "<span class=\"verdict-%s\">", report_verdicts[i].name);
		sb_wrap(sb, "", report_verdicts[i].name, "</span>");
	}
	sb_add(sb, "<span class=\"verdict-none\">not booted</span></div>"
		   "<table class=\"matrix\"><tr><th>flavour</th>");
	for (size_t c = 0; c < r->ncpus; c++) {
		sb_wrap(sb, "<th class=\"cpu\">", r->cpus[c].name, "");
		if (r->cpus[c].expect)
			sb_wrap(sb, "<small>expect ", r->cpus[c].expect, "</small>");
		sb_add(sb, "</th>");
	}
	sb_add(sb, "</tr>\n");
	for (size_t i = 0; i < r->nfl; i++) {
		sb_addf(sb, "<tr><th><span class=\"fl c%zu\"></span>", i % NCOLOURS);
		sb_wrap(sb, "", r->fl[i].name, "</th>");
		for (size_t c = 0; c < r->ncpus; c++)
			matrix_cell(sb, r, i, c);
		sb_add(sb, "</tr>\n");
	}
	if (!r->ncpus)
		sb_add(sb, "<tr><td class=\"missing\">no CPU models known and nothing booted</td></tr>");
	sb_add(sb, "</table>");
	for (size_t i = 0; i < r->nfl; i++) {
		if (!r->fl[i].nstale_boots)
			continue;
		sb_wrap(sb, "<p class=\"note\">Left out, boots of an earlier ", r->fl[i].name,
			" bzImage on:");
		for (size_t k = 0; k < r->fl[i].nstale_boots; k++)
			sb_wrap(sb, " ", r->fl[i].stale_boots[k], "");
		sb_add(sb, " (<code>make matrix</code> boots them again).</p>");
	}
	sb_add(sb, "</section>\n");
}

static char cls[NCOLOURS][8];

static const char *colour_of(size_t i)
{
	snprintf(cls[i % NCOLOURS], sizeof(cls[0]), "c%zu", i % NCOLOURS);
	return cls[i % NCOLOURS];
}

/* One chart of a size per flavour, with the difference to the first. */
static void size_chart(struct strbuf *sb, const struct report *r, const char *section,
		       struct bar *bars, char (*txt)[64])
{
	long long ref = -1;

	if (section)
		sb_wrap(sb, "<div class=\"chart\"><h3><code>", section, "</code> bytes</h3>");
	else
		sb_add(sb, "<div class=\"chart\"><h3>bzImage bytes</h3>");
	for (size_t i = 0; i < r->nfl; i++) {
		long long v = section ? flavour_section(&r->fl[i], section) :
			      r->fl[i].bzimage_bytes;
		char a[24];

		fmt_size(a, sizeof(a), v);
		if (v >= 0 && ref >= 0) {
			char d[24];

			fmt_delta(d, sizeof(d), v - ref);
			snprintf(txt[i], sizeof(txt[i]), "%s (%s)", a, d);
		} else {
			snprintf(txt[i], sizeof(txt[i]), "%s", a);
		}
		if (v >= 0 && ref < 0)
			ref = v;
		bars[i] = (struct bar){ r->fl[i].name, NULL, (double)v, v >= 0 ? txt[i] : NULL,
					colour_of(i) };
	}
	svg_bars(sb, section ? section : "bzImage bytes", bars, r->nfl, "not built");
	sb_add(sb, "</div>");
}

static void charts(struct strbuf *sb, const struct report *r)
{
	struct bar *bars = kf_xmalloc((r->nfl * (r->ncpus + 1) + 1) * sizeof(*bars));
	char (*txt)[64] = kf_xmalloc((r->nfl * (r->ncpus + 1) + 1) * sizeof(*txt));
	static const char *const secs[] = { ".text", ".data", ".data..percpu" };
	size_t n = 0;

	sb_add(sb, "<section id=\"charts\"><h2>Sizes and times</h2><p class=\"note\">"
		   "Bars start at zero; the text gives the difference to the first flavour.</p>"
		   "<div class=\"charts\"><div>");
	size_chart(sb, r, NULL, bars, txt);
	for (size_t s = 0; s < 3; s++)
		size_chart(sb, r, secs[s], bars, txt);
	sb_add(sb, "</div><div class=\"chart\"><h3>Boot seconds (wall, per CPU model)</h3>");
	for (size_t c = 0; c < r->ncpus; c++) {
		size_t booted = 0;

		for (size_t i = 0; i < r->nfl; i++)
			booted += flavour_boot(&r->fl[i], r->cpus[c].name) != NULL;
		if (!booted)
			continue;
		for (size_t i = 0; i < r->nfl; i++) {
			const struct boot *b = flavour_boot(&r->fl[i], r->cpus[c].name);
			double v = b && !isnan(b->wall_seconds) ? b->wall_seconds : -1;

			if (b && v >= 0)
				snprintf(txt[n], sizeof(txt[n]), "%.1f s %s", v,
					 b->verdict ? b->verdict : "");
			else if (b)
				snprintf(txt[n], sizeof(txt[n]), "%s, no time",
					 b->verdict ? b->verdict : "no verdict");
			bars[n] = (struct bar){ r->fl[i].name, r->cpus[c].name, v,
						b ? txt[n] : NULL, colour_of(i) };
			n++;
		}
	}
	if (n)
		svg_bars(sb, "boot seconds per CPU model and flavour", bars, n, "not booted");
	else
		missing(sb, "nothing booted yet");
	sb_add(sb, "</div></div></section>\n");
	free(bars);
	free(txt);
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void cdiff_head(struct strbuf *sb, const struct report *r)
{
	sb_add(sb, "<table class=\"cdiff\"><tr><th>symbol</th>");
	for (size_t i = 0; i < r->nfl; i++) {
		sb_addf(sb, "<th><span class=\"fl c%zu\"></span>", i % NCOLOURS);
		sb_wrap(sb, "", r->fl[i].name, "</th>");
	}
	sb_add(sb, "</tr>\n");
}

static void cdiff_row(struct strbuf *sb, const struct report *r, const struct cdiff_sym *s)
{
	sb_wrap(sb, "<tr><td><code>CONFIG_", s->name, "</code></td>");
	for (size_t i = 0; i < r->nfl; i++) {
		const struct cdiff_cell *c = &s->cell[i];

		if (!c->value) {
			sb_add(sb, "<td class=\"val\">");
			missing(sb, "— (not configured)");
			sb_add(sb, "</td>");
			continue;
		}
		sb_addf(sb, "<td class=\"val%s\"><code>", strcmp(c->value, "n") != 0 ? "" : " n");
		sb_wrap(sb, "", c->value, "</code><span class=\"frag\" title=\"");
		sb_esc(sb, c->fragment);
		if (c->line > 0)
			sb_addf(sb, ":%d", c->line);
		sb_wrap(sb, "\">", base(c->fragment), "</span></td>");
	}
	sb_add(sb, "</tr>\n");
}

/* The rows of the groups shown in full (all of them, or all but "other"). */
static void cdiff_groups(struct strbuf *sb, const struct report *r, int with_other)
{
	int group = -1;

	cdiff_head(sb, r);
	for (size_t k = 0; k < r->ncdiff; k++) {
		const struct cdiff_sym *s = &r->cdiff[k];

		if (s->group == KC_OTHER && !with_other)
			continue;
		if ((int)s->group != group) {
			group = (int)s->group;
			sb_addf(sb, "<tr class=\"grp\"><td colspan=\"%zu\">", r->nfl + 1);
			sb_wrap(sb, "", kc_group_names[s->group], "</td></tr>\n");
		}
		cdiff_row(sb, r, s);
	}
	sb_add(sb, "</table>");
}

static const char *cdiff_menu(const struct cdiff_sym *s)
{
	return s->menu ? s->menu : "(top level)";
}

/* Too many to read: the "other" group folded by Kconfig menu, largest first. */
static void cdiff_folded(struct strbuf *sb, const struct report *r)
{
	const char **menus = kf_xmalloc(r->ncdiff * sizeof(*menus));
	struct page_group *m = kf_xmalloc(r->ncdiff * sizeof(*m));
	size_t nm, other = 0;

	for (size_t k = 0; k < r->ncdiff; k++)
		if (r->cdiff[k].group == KC_OTHER)
			menus[other++] = cdiff_menu(&r->cdiff[k]);
	nm = page_groups(menus, other, m);
	sb_addf(sb, "<p class=\"note\">%zu symbols differ, more than %d: the groups "
		"cpu, cache, smt and microcode in full, the %zu others folded by Kconfig "
		"menu (largest first). <code>report.json</code> has every one; "
		"<code>make diffconfig</code> counts them by menu too.</p>",
		r->ncdiff, CDIFF_FOLD, other);
	if (other < r->ncdiff)
		cdiff_groups(sb, r, 0);
	for (size_t j = 0; j < nm; j++) {
		page_fold(sb, &m[j], "symbol");
		cdiff_head(sb, r);
		for (size_t k = 0; k < r->ncdiff; k++)
			if (r->cdiff[k].group == KC_OTHER && !strcmp(cdiff_menu(&r->cdiff[k]), m[j].key))
				cdiff_row(sb, r, &r->cdiff[k]);
		sb_add(sb, "</table></details>\n");
	}
	free(menus);
	free(m);
}

static void config_diff(struct strbuf *sb, const struct report *r)
{
	sb_add(sb, "<section id=\"config\"><h2>Config differences</h2><p class=\"note\">"
		   "Symbols whose final value is not the same in every configured flavour, "
		   "with the fragment that set it (<i>(default)</i>: no fragment does; "
		   "Kconfig chose it). Absent symbols read as <code>n</code>.</p>");
	if (!r->ncdiff) {
		missing(sb, "no differences (fewer than two flavours configured, or identical configs)");
		sb_add(sb, "</section>\n");
		return;
	}
	if (r->ncdiff > CDIFF_FOLD)
		cdiff_folded(sb, r);
	else
		cdiff_groups(sb, r, 1);
	sb_add(sb, "</section>\n");
}

static void log_diffs(struct strbuf *sb, const struct report *r)
{
	sb_add(sb, "<section id=\"logs\"><h2>Console differences</h2><p class=\"note\">"
		   "Boot consoles after normalisation (timestamps, addresses, calibration "
		   "values, memory sizes, the memory map and the nonce hidden): flavour "
		   "against flavour on one CPU model, and one flavour across CPU models "
		   "against its default model. <code>make logdiff a=… b=… cpu=…</code> "
		   "prints the same.</p>");
	if (!r->nldiff)
		missing(sb, "no pairs of console logs yet");
	for (size_t k = 0; k < r->nldiff; k++) {
		const struct logdiff *x = &r->ldiff[k];
		size_t n = x->d.n;

		if (n > MAX_EDITS)
			n = MAX_EDITS;
		sb_addf(sb, "<details%s><summary><span class=\"kind\">%s</span>",
			k == 0 ? " open" : "", x->kind == LDK_FLAVOURS ? "flavours" : "cpu models");
		sb_wrap(sb, "<b>", x->fa->name, "</b>");
		if (x->kind == LDK_FLAVOURS) {
			sb_wrap(sb, " vs <b>", x->fb->name, "</b>");
			sb_wrap(sb, " on <b>", x->ba->cpu, "</b>");
		} else {
			sb_wrap(sb, ": <b>", x->ba->cpu, "</b>");
			sb_wrap(sb, " vs <b>", x->bb->cpu, "</b>");
		}
		sb_addf(sb, " &nbsp;<span class=\"del\">−%zu</span> <span class=\"add\">+%zu</span>"
			" &nbsp;<a href=\"", x->d.removed, x->d.added);
		sb_wrap(sb, "", x->ba->log, "\">a</a> · <a href=\"");
		sb_wrap(sb, "", x->bb->log, "\">b</a></summary>");
		if (!x->d.n) {
			sb_add(sb, "<pre class=\"diff\"><span class=\"s\">(no difference after normalisation)</span></pre></details>\n");
			continue;
		}
		sb_add(sb, "<pre class=\"diff\">");
		for (size_t i = 0; i < n; i++) {
			const struct ld_edit *e = &x->d.e[i];
			const char *c = e->op == LD_DEL ? "d" : e->op == LD_ADD ? "a" :
					e->op == LD_HUNK ? "h" : "s";

			sb_addf(sb, "<span class=\"%s\">", c);
			if (e->op != LD_HUNK)
				sb_addf(sb, "%c", e->op);
			sb_wrap(sb, "", e->text, "</span>");
		}
		if (n < x->d.n)
			sb_addf(sb, "<span class=\"h\">… %zu more lines: make logdiff</span>", x->d.n - n);
		sb_add(sb, "</pre></details>\n");
	}
	sb_add(sb, "</section>\n");
}

/* "System boot": the flavour's package installed in its Debian system and
 * booted to multi-user.target (rows.c's rows; every module loaded, where the
 * table cuts the list); nothing without a package, image or system boot. */
static void system_section(struct strbuf *sb, const struct report *r)
{
	char buf[4096];

	if (!report_has_system(r))
		return;
	sb_add(sb, "<section id=\"system\"><h2>System boot</h2><p class=\"note\">Each "
		   "flavour's package (<code>make deb</code>) installed in a Debian 12 system "
		   "and booted to <code>multi-user.target</code> (<code>make sysboot</code>), "
		   "on the flavour's CPU model; seconds from the kernel's start, as systemd "
		   "counts them (docs/system-boot.md).</p><table class=\"facts\"><tr><th></th>");
	for (size_t i = 0; i < r->nfl; i++) {
		sb_addf(sb, "<th><span class=\"fl c%zu\"></span>", i % NCOLOURS);
		sb_esc(sb, r->fl[i].name);
		sb_add(sb, "</th>");
	}
	for (int k = 0; k < SYS_NR; k++) {
		sb_wrap(sb, "</tr>\n<tr><td class=\"k\">", sys_row_labels[k], "</td>");
		for (size_t i = 0; i < r->nfl; i++) {
			const struct kf_sysboot_rec *s = flavour_sysboot(&r->fl[i]);

			sys_row_text(buf, sizeof(buf), &r->fl[i], (enum sys_row)k);
			if (k == SYS_VERDICT && s && s->b.verdict)
				/* the schema's enum: names safe in a class */
				sb_addf(sb, "<td class=\"verdict-%s\">", s->b.verdict);
			else
				sb_add(sb, "<td>");
			sb_wrap(sb, "", buf, "</td>");
		}
	}
	sb_add(sb, "</tr></table></section>\n");
}

/* "Cache-line contention (emulated)": the c2c rows (report/c2c.c) per
 * flavour, the verdict in words, a chart of load HITMs at 128 bytes only,
 * and the lines with HITMs at 128 bytes only, both sides named. Nothing
 * without a c2c record. */
static void c2c_section(struct strbuf *sb, const struct report *r)
{
	const struct kf_c2c_rec *first = NULL;
	struct bar *bars;
	char (*txt)[64], num[32];

	for (size_t i = 0; i < r->nfl && !first; i++)
		if (r->fl[i].has_c2c)
			first = &r->fl[i].c2c;
	if (!first)
		return;
	sb_add(sb, "<section id=\"c2c\"><h2>Cache-line contention (emulated)</h2><p class=\"note\">"
		   "A QEMU TCG plugin modelled cache-line ownership across the two vCPUs at 64 "
		   "and 128 bytes at once while the guest ran <code>");
	sb_esc(sb, first->workload ? first->workload : "?");
	sb_add(sb, "</code> on one machine (<code>");
	sb_esc(sb, first->cpu ? first->cpu : "?");
	if (first->memory && first->smp > 0) {
		sb_add(sb, "</code>, <code>-m ");
		sb_esc(sb, first->memory);
		sb_addf(sb, "</code>, <code>-smp %lld", first->smp);
	}
	sb_addf(sb, "</code>, TCG <code>%s", first->tcg ? first->tcg : "?");
	sb_add(sb, "</code>) for every flavour: per ");
	sb_esc(sb, first->unit ? first->unit : "iteration");
	sb_add(sb, ", the median of the runs and its spread; <b>*</b> where a flavour differs "
		   "from the first by more than both spreads. A load HITM is a load of a line "
		   "another vCPU holds modified (perf c2c's HITM), a store HITM a store to one; "
		   "false sharing when the bytes touched do not overlap what it wrote. The first "
		   "rows are what a 128-byte line changes: HITMs at 128 bytes that a 64-byte line "
		   "would not make (the other half was written by the other vCPU), and the "
		   "opposite. No eviction, no prefetch, no timing (docs/c2c.md).</p>"
		   "<table class=\"runtime\"><tr><th></th>");
	for (size_t i = 0; i < r->nfl; i++) {
		sb_addf(sb, "<th><span class=\"fl c%zu\"></span>", i % NCOLOURS);
		sb_wrap(sb, "", r->fl[i].name, "</th>");
	}
	sb_add(sb, "</tr>\n");
	for (int id = 0; id < C2C_NR; id++) {
		sb_wrap(sb, id < C2C_HEADLINE_ROWS ? "<tr><td><b>" : "<tr><td>",
			c2c_row_label((enum c2c_row)id), id < C2C_HEADLINE_ROWS ? "</b></td>" : "</td>");
		for (size_t i = 0; i < r->nfl; i++) {
			const struct kf_c2c_fig *g;

			if (!r->fl[i].has_c2c) {
				sb_add(sb, "<td class=\"none\">no record</td>");
				continue;
			}
			g = c2c_row_fig(&r->fl[i].c2c, (enum c2c_row)id);
			c2c_fmt(num, sizeof(num), c2c_row_value(&r->fl[i].c2c, (enum c2c_row)id));
			sb_addf(sb, "<td>%s <small>(%.0f%%)</small>%s</td>", num, 100 * g->spread,
				c2c_differs(&r->fl[i].c2c, first, (enum c2c_row)id) ? " <b>*</b>" : "");
		}
		sb_add(sb, "</tr>\n");
	}
	sb_add(sb, "</table>");
	{
		struct strbuf w = { 0 };

		c2c_words(&w, r);
		sb_wrap(sb, "<p class=\"verdict\">", w.s ? w.s : "", "</p>");
		free(w.s);
		w = (struct strbuf){ 0 };
		c2c_cost(&w, r);
		if (w.s)
			sb_wrap(sb, "<p class=\"note\">", w.s, ".</p>");
		free(w.s);
	}
	bars = kf_xmalloc(r->nfl * sizeof(*bars));
	txt = kf_xmalloc(r->nfl * sizeof(*txt));
	for (size_t i = 0; i < r->nfl; i++) {
		double v = r->fl[i].has_c2c ? r->fl[i].c2c.only128_load.per_iteration : -1;

		snprintf(txt[i], sizeof(txt[i]), "%.4g", v);
		bars[i] = (struct bar){ r->fl[i].name, NULL, v, v >= 0 ? txt[i] : NULL, colour_of(i) };
	}
	sb_add(sb, "<div class=\"chart\"><h3>Load HITMs at 128 bytes only</h3>");
	svg_bars(sb, "Load HITMs at 128 bytes only, per iteration", bars, r->nfl, "no record");
	sb_add(sb, "</div>");
	free(bars);
	free(txt);
	for (size_t i = 0; i < r->nfl; i++) {
		const struct kf_c2c_rec *c = &r->fl[i].c2c;

		if (!r->fl[i].has_c2c)
			continue;
		sb_wrap(sb, "<h3>", r->fl[i].name, "");
		sb_addf(sb, ": %zu 128-byte line%s with HITMs at 128 bytes only</h3>", c->npadlines,
			c->npadlines == 1 ? "" : "s");
		if (!c->npadlines)
			continue;
		sb_add(sb, "<table class=\"runtime\"><tr><th>line</th><th>HITMs at 128 only</th>"
			   "<th>first 64 bytes</th><th>second 64 bytes</th><th>per-CPU unit</th>"
			   "<th>HITMs in (per run)</th><th>against the other half's store in</th></tr>\n");
		for (size_t k = 0; k < c->npadlines && k < 10; k++) {
			const struct kf_c2c_padline *l = &c->padlines[k];

			sb_wrap(sb, "<tr><td><code>", l->addr ? l->addr : "?", "</code></td>");
			sb_addf(sb, "<td>%.0f</td><td>", l->hitm_128_only.median);
			for (size_t o = 0; o < l->nobjects_low; o++)
				sb_wrap(sb, o ? " + <code>" : "<code>", l->objects_low[o], "</code>");
			sb_add(sb, "</td><td>");
			for (size_t o = 0; o < l->nobjects_high; o++)
				sb_wrap(sb, o ? " + <code>" : "<code>", l->objects_high[o], "</code>");
			if (l->percpu_cpu >= 0)
				sb_addf(sb, "</td><td>CPU %lld</td><td>", l->percpu_cpu);
			else
				sb_add(sb, "</td><td>static</td><td>");
			for (size_t fi = 0; fi < l->nfunctions; fi++) {
				sb_wrap(sb, fi ? ", <code>" : "<code>", l->functions[fi].name, "</code>");
				sb_addf(sb, " %.3g", l->functions[fi].hitm);
			}
			sb_add(sb, "</td><td>");
			for (size_t fi = 0; fi < l->nfunctions_other; fi++) {
				sb_wrap(sb, fi ? ", <code>" : "<code>", l->functions_other[fi].name, "</code>");
				sb_addf(sb, " %.3g", l->functions_other[fi].hitm);
			}
			sb_add(sb, "</td></tr>\n");
		}
		sb_add(sb, "</table>");
	}
	sb_add(sb, "</section>\n");
}

int html_write(const struct report *r, const char *path)
{
	struct strbuf sb = { 0 };
	int rc;

	header(&sb, r);
	flavour_table(&sb, r);
	matrix(&sb, r);
	runtime(&sb, r);
	system_section(&sb, r);
	c2c_section(&sb, r);
	charts(&sb, r);
	config_diff(&sb, r);
	log_diffs(&sb, r);
	page_end(&sb, "kflavour report · one self-contained file, no scripts · data: "
		 "<code>report.json</code> (schema <code>report/report.schema.json</code>)");
	rc = kf_write_atomic(path, sb.s, sb.len);
	free(sb.s);
	return rc;
}
