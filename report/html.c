// SPDX-License-Identifier: GPL-2.0
/*
 * html.c - report.html: one self-contained file (inline CSS and SVG, no
 * script), written atomically. The flavour table, the flavour x CPU matrix
 * (each cell links to its console log, relative to out/<kver>/), bar charts,
 * the config diff and the console diffs. Every piece of text is escaped.
 */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Console diff lines shown per pair; the rest is counted. */
#define MAX_EDITS 160
#define NCOLOURS 6

/* Text and attribute values alike: & < > " ' and control characters. */
void sb_esc(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&': sb_add(sb, "&amp;"); break;
		case '<': sb_add(sb, "&lt;"); break;
		case '>': sb_add(sb, "&gt;"); break;
		case '"': sb_add(sb, "&quot;"); break;
		case '\'': sb_add(sb, "&#39;"); break;
		default:
			if (c < 0x20 && c != '\t' && c != '\n')
				sb_addf(sb, "&#x%x;", 0x2400 + c); /* control pictures */
			else
				sb_addn(sb, s, 1);
		}
	}
}

static const char css[] =
"*{box-sizing:border-box}\n"
"body{margin:0;background:#f4f6f8;color:#1f2328;font:14px/1.45 system-ui,-apple-system,'Segoe UI',"
"Roboto,'DejaVu Sans',sans-serif}\n"
"main{max-width:1220px;margin:0 auto;padding:24px 28px 40px}\n"
"header{background:linear-gradient(135deg,#0d2b4e,#1f4f82);color:#fff;padding:22px 28px}\n"
"header .in{max-width:1220px;margin:0 auto;padding:0 28px}\n"
"header h1{margin:0;font-size:24px;font-weight:650;letter-spacing:.2px}\n"
"header .sub{margin-top:4px;color:#c9d9ee}\n"
".pills{margin-top:12px;display:flex;gap:8px;flex-wrap:wrap}\n"
".pill{background:rgba(255,255,255,.13);border:1px solid rgba(255,255,255,.22);"
"border-radius:999px;padding:2px 11px;font-size:13px}\n"
"section{background:#fff;border:1px solid #d8dee4;border-radius:10px;padding:16px 20px 18px;"
"margin:18px 0;box-shadow:0 1px 2px rgba(31,35,40,.05)}\n"
"h2{font-size:17px;margin:0 0 4px}\n"
"h3{font-size:14px;margin:0 0 6px;color:#424a53}\n"
"p.note{color:#656d76;margin:0 0 12px;font-size:13px}\n"
"table{border-collapse:collapse;width:100%}\n"
"th,td{text-align:left;padding:6px 10px;border-bottom:1px solid #eaeef2;vertical-align:top}\n"
"th{font-weight:600;color:#424a53;background:#f6f8fa}\n"
"td.k{color:#57606a;white-space:nowrap;width:150px}\n"
"td.num,th.num{font-variant-numeric:tabular-nums}\n"
"table.runtime td,table.runtime th{font-size:12.5px;padding:3px 6px}\n"
"table.pair td{border:0;padding:0 6px 0 0}\n"
"td.share{color:#cf222e;font-weight:600}\n"
"code.warn{font-size:11.5px;color:#9a6700;white-space:pre-wrap}\n"
"code,.mono,pre{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:12.5px}\n"
".missing{color:#8c959f;font-style:italic}\n"
".delta{font-size:12px;margin-left:6px;padding:0 5px;border-radius:4px;background:#eef1f4;color:#57606a}\n"
".delta.up{background:#fff1e5;color:#9a4a00}.delta.down{background:#e6f4ea;color:#116329}\n"
".fl{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px;vertical-align:0}\n"
".c0{fill:#2f6feb;background:#2f6feb}.c1{fill:#d4761c;background:#d4761c}"
".c2{fill:#8250df;background:#8250df}.c3{fill:#1a7f37;background:#1a7f37}"
".c4{fill:#bf3989;background:#bf3989}.c5{fill:#0a7ea4;background:#0a7ea4}\n"
".status{font-size:12px;border-radius:999px;padding:1px 8px;border:1px solid #d0d7de;color:#57606a}\n"
".status.booted{background:#dafbe1;border-color:#aceebb;color:#116329}\n"
".status.built{background:#ddf4ff;border-color:#b6e3ff;color:#0550ae}\n"
"table.matrix td.cell{padding:0;border:3px solid #fff;border-radius:8px;width:auto}\n"
"table.matrix th.cpu{text-align:center}\n"
"table.matrix th.cpu small{display:block;font-weight:400;color:#8c959f}\n"
".cell a,.cell .box{display:block;padding:8px 10px;color:inherit;text-decoration:none;min-height:64px}\n"
".cell a:hover{filter:brightness(.96)}\n"
".cell .verdict{display:block;font-weight:650;font-size:14px}\n"
".cell .secs{font-size:12px;opacity:.85}\n"
".cell .ktap{font-size:12px;opacity:.85;margin-left:8px}\n"
".cell .tag{float:right;font-size:10.5px;text-transform:uppercase;letter-spacing:.4px;opacity:.7}\n"
".lv{display:inline-block;margin-top:4px;font-size:11.5px;padding:0 6px;border-radius:4px;"
"background:rgba(255,255,255,.7);border:1px solid rgba(0,0,0,.12)}\n"
".lv-match{color:#116329}.lv-too-small{color:#9a4a00}.lv-too-large{color:#6639ba}\n"
".verdict-pass{background:#dafbe1;color:#0f5323}\n"
".verdict-test-fail{background:#fff1c2;color:#6f4400}\n"
".verdict-panic,.verdict-oops{background:#ffd8d3;color:#8a0c20}\n"
".verdict-hang{background:#ffe2cc;color:#7a2e00}\n"
".verdict-refused{background:#ddf4ff;color:#0a3f8a}\n"
".verdict-qemu-error,.verdict-unknown{background:#e7ebef;color:#424a53}\n"
".verdict-none{background:repeating-linear-gradient(135deg,#f6f8fa 0 8px,#eef1f4 8px 16px);color:#8c959f}\n"
".cell.unexpected{box-shadow:inset 0 0 0 2px #cf222e}\n"
".legend{display:flex;gap:8px;flex-wrap:wrap;margin:0 0 10px;font-size:12px}\n"
".legend span{padding:2px 8px;border-radius:5px}\n"
".charts{display:grid;grid-template-columns:1fr 1fr;gap:14px 36px}\n"
"div.chart{margin-bottom:14px}\n"
"svg.chart{width:100%;height:auto;display:block}\n"
"svg text{font:12px system-ui,'DejaVu Sans',sans-serif;fill:#424a53}\n"
"svg text.group{font-weight:600;fill:#1f2328}\n"
"svg text.value{fill:#57606a}\n"
"svg text.missing{fill:#8c959f;font-style:italic}\n"
"svg line.axis{stroke:#d0d7de}\n"
"svg rect.bar{opacity:.9}\n"
"tr.grp td{background:#f6f8fa;font-weight:600;color:#424a53;text-transform:uppercase;"
"font-size:11.5px;letter-spacing:.5px}\n"
"td .frag{display:block;font-size:11.5px;color:#8c959f}\n"
"table.cdiff td:first-child{width:34%}\n"
"td.val code{font-weight:600}\n"
"td.val.n code{color:#8c959f;font-weight:400}\n"
"details{border:1px solid #d8dee4;border-radius:8px;margin:8px 0;background:#fff}\n"
"summary{cursor:pointer;padding:8px 12px;list-style-position:inside}\n"
"summary .kind{font-size:11px;text-transform:uppercase;letter-spacing:.4px;color:#8c959f;margin-right:6px}\n"
".add{color:#116329}.del{color:#a40e26}\n"
"pre.diff{margin:0;padding:8px 0;border-top:1px solid #eaeef2;overflow-x:auto;background:#fbfcfd}\n"
"pre.diff span{display:block;padding:0 12px;white-space:pre}\n"
"pre.diff .d{background:#ffebe9}\n"
"pre.diff .a{background:#e6ffec}\n"
"pre.diff .h{color:#0550ae;background:#f1f8ff}\n"
"pre.diff .s{color:#57606a}\n"
"footer{color:#8c959f;font-size:12px;text-align:center;margin-top:8px}\n";

static void esc(struct strbuf *sb, const char *s)
{
	sb_esc(sb, s);
}

static void missing(struct strbuf *sb, const char *what)
{
	sb_add(sb, "<span class=\"missing\">");
	esc(sb, what);
	sb_add(sb, "</span>");
}

static const char *verdict_class(const char *v)
{
	static const char *const known[] = {
		"pass", "test-fail", "panic", "oops", "refused", "hang", "qemu-error",
	};

	for (size_t i = 0; v && i < sizeof(known) / sizeof(*known); i++)
		if (!strcmp(v, known[i]))
			return known[i];
	return "unknown";
}

static void header(struct strbuf *sb, const struct report *r)
{
	size_t built = 0, boots = 0, pass = 0, unexpected = 0;

	for (size_t i = 0; i < r->nfl; i++) {
		built += r->fl[i].has_build;
		boots += r->fl[i].nboots;
		for (size_t k = 0; k < r->fl[i].nboots; k++) {
			const struct boot *b = &r->fl[i].boots[k];

			pass += b->verdict && !strcmp(b->verdict, "pass");
			unexpected += b->verdict && b->expected && strcmp(b->verdict, b->expected) != 0;
		}
	}
	sb_add(sb, "<header><div class=\"in\"><h1>kflavour report — Linux ");
	esc(sb, r->release);
	sb_add(sb, "</h1><div class=\"sub\">out/");
	esc(sb, r->kver);
	sb_add(sb, " · flavours compared side by side: configuration, build, boots on emulated CPU models</div>"
		   "<div class=\"pills\">");
	sb_addf(sb, "<span class=\"pill\">%zu flavour%s</span>", r->nfl, r->nfl == 1 ? "" : "s");
	sb_addf(sb, "<span class=\"pill\">%zu built</span>", built);
	sb_addf(sb, "<span class=\"pill\">%zu boot%s</span>", boots, boots == 1 ? "" : "s");
	sb_addf(sb, "<span class=\"pill\">%zu pass</span>", pass);
	sb_addf(sb, "<span class=\"pill\">%zu unexpected verdict%s</span>", unexpected,
		unexpected == 1 ? "" : "s");
	sb_addf(sb, "<span class=\"pill\">%zu config symbol%s differ</span>", r->ncdiff,
		r->ncdiff == 1 ? "" : "s");
	sb_add(sb, "</div></div></header>\n<main>\n");
}

static void size_td(struct strbuf *sb, const struct report *r, size_t i,
		    const char *section, const char *absent)
{
	long long v, ref = -1;

	for (size_t k = 0; k < r->nfl; k++) {
		ref = section ? flavour_section(&r->fl[k], section) : r->fl[k].bzimage_bytes;
		if (ref >= 0) {
			if (k == i)
				ref = -1;	/* this is the reference */
			break;
		}
	}
	v = section ? flavour_section(&r->fl[i], section) : r->fl[i].bzimage_bytes;
	sb_add(sb, "<td class=\"num\">");
	if (v < 0) {
		missing(sb, r->fl[i].has_build ? "—" : absent);
	} else {
		char a[32];

		sb_addf(sb, "%lld", v);
		fmt_size(a, sizeof(a), v);
		sb_add(sb, " <span class=\"missing\">(");
		esc(sb, a);
		sb_add(sb, ")</span>");
		if (ref >= 0) {
			char d[32];

			fmt_delta(d, sizeof(d), v - ref);
			sb_addf(sb, "<span class=\"delta%s\">", v > ref ? " up" : v < ref ? " down" : "");
			esc(sb, d);
			sb_add(sb, "</span>");
		}
	}
	sb_add(sb, "</td>");
}

static void code_td(struct strbuf *sb, const struct report *r, size_t i);

static void flavour_table(struct strbuf *sb, const struct report *r)
{
	sb_add(sb, "<section id=\"flavours\"><h2>Flavours</h2>"
		   "<p class=\"note\">Facts from each flavour's final <code>.config</code>, "
		   "<code>build.json</code> and boot records. Sizes show the difference "
		   "to the first flavour that has one.</p><table class=\"facts\"><tr><th></th>");
	for (size_t i = 0; i < r->nfl; i++) {
		sb_addf(sb, "<th><span class=\"fl c%zu\"></span>", i % NCOLOURS);
		esc(sb, r->fl[i].name);
		sb_addf(sb, " <span class=\"status %s\">", r->fl[i].nboots ? "booted" :
			r->fl[i].has_build ? "built" : "none");
		esc(sb, flavour_status(&r->fl[i]));
		sb_add(sb, "</span>");
		if (r->fl[i].config_failed) {
			sb_add(sb, "<br><span class=\"status none\">last config attempt failed: ");
			esc(sb, r->fl[i].config_failed);
			sb_add(sb, "</span>");
		}
		sb_add(sb, "</th>");
	}
	sb_add(sb, "</tr>\n<tr><td class=\"k\">description</td>");
	for (size_t i = 0; i < r->nfl; i++) {
		sb_add(sb, "<td>");
		if (r->fl[i].description)
			esc(sb, r->fl[i].description);
		else
			missing(sb, "—");
		sb_add(sb, "</td>");
	}
	sb_add(sb, "</tr>\n<tr><td class=\"k\">CPU choice</td>");
	for (size_t i = 0; i < r->nfl; i++) {
		const struct flavour *f = &r->fl[i];

		sb_add(sb, "<td>");
		if (!f->has_config) {
			missing(sb, "— (not configured)");
		} else {
			sb_add(sb, "<code>");
			esc(sb, f->cpu_choice ? f->cpu_choice : "(none)");
			sb_add(sb, "</code>");
		}
		sb_add(sb, "</td>");
	}
	sb_add(sb, "</tr>\n<tr><td class=\"k\">-march</td>");
	for (size_t i = 0; i < r->nfl; i++) {
		const struct flavour *f = &r->fl[i];

		sb_add(sb, "<td>");
		if (!f->has_build) {
			missing(sb, "not built");
		} else if (f->march) {
			sb_add(sb, "<code>-march=");
			esc(sb, f->march);
			sb_add(sb, "</code>");
		} else {
			sb_add(sb, "<span class=\"missing\">none</span>");
			if (f->mtune) {
				sb_add(sb, " <code>-mtune=");
				esc(sb, f->mtune);
				sb_add(sb, "</code>");
			}
		}
		sb_add(sb, "</td>");
	}
	sb_add(sb, "</tr>\n<tr><td class=\"k\">L1 line bytes</td>");
	for (size_t i = 0; i < r->nfl; i++) {
		sb_add(sb, "<td class=\"num\">");
		if (r->fl[i].l1_bytes > 0)
			sb_addf(sb, "%ld", r->fl[i].l1_bytes);
		else
			missing(sb, "—");
		sb_add(sb, "</td>");
	}
	sb_add(sb, "</tr>\n<tr><td class=\"k\">SMT</td>");
	for (size_t i = 0; i < r->nfl; i++) {
		sb_add(sb, "<td>");
		if (r->fl[i].smt < 0)
			missing(sb, "—");
		else
			sb_add(sb, r->fl[i].smt ? "<code>SCHED_SMT=y</code>" : "<code>n</code>");
		sb_add(sb, "</td>");
	}
	sb_add(sb, "</tr>\n<tr><td class=\"k\">microcode</td>");
	for (size_t i = 0; i < r->nfl; i++) {
		const struct flavour *f = &r->fl[i];

		sb_add(sb, "<td>");
		if (f->microcode < 0) {
			missing(sb, "—");
		} else {
			sb_addf(sb, "<code>MICROCODE=%s</code>", f->microcode ? "y" : "n");
			if (!strcmp(kf_config_value(&f->cfg, "MICROCODE_INTEL"), "y"))
				sb_add(sb, " intel");
			if (!strcmp(kf_config_value(&f->cfg, "MICROCODE_AMD"), "y"))
				sb_add(sb, " amd");
		}
		sb_add(sb, "</td>");
	}
	sb_add(sb, "</tr>\n<tr><td class=\"k\">bzImage bytes</td>");
	for (size_t i = 0; i < r->nfl; i++)
		size_td(sb, r, i, NULL, "not built");
	static const char *const secs[] = { ".text", ".data", ".data..percpu" };

	for (size_t s = 0; s < 3; s++) {
		sb_add(sb, "</tr>\n<tr><td class=\"k\"><code>");
		esc(sb, secs[s]);
		sb_add(sb, "</code></td>");
		for (size_t i = 0; i < r->nfl; i++)
			size_td(sb, r, i, secs[s], "not built");
	}
	sb_add(sb, "</tr>\n<tr><td class=\"k\">code bytes</td>");
	for (size_t i = 0; i < r->nfl; i++)
		code_td(sb, r, i);
	sb_add(sb, "</tr>\n<tr><td class=\"k\">build seconds</td>");
	for (size_t i = 0; i < r->nfl; i++) {
		const struct flavour *f = &r->fl[i];

		sb_add(sb, "<td class=\"num\">");
		if (!isnan(f->full_wall)) {
			sb_addf(sb, "%.1f wall, %.1f CPU", f->full_wall, f->full_cpu);
			if (f->alongside >= 0)
				sb_addf(sb, " <span class=\"missing\">(%ld other build%s "
					"alongside)</span>", f->alongside, f->alongside == 1 ? "" : "s");
			if (f->compiled == 0)
				sb_add(sb, " <span class=\"missing\">(the last build since "
					   "was a no-op)</span>");
		} else if (isnan(f->build_seconds)) {
			missing(sb, f->has_build ? "—" : "not built");
		} else {
			sb_addf(sb, "%.1f wall", f->build_seconds);
		}
		sb_add(sb, "</td>");
	}
	sb_add(sb, "</tr>\n<tr><td class=\"k\">build warnings</td>");
	for (size_t i = 0; i < r->nfl; i++) {
		const struct flavour *f = &r->fl[i];

		sb_add(sb, "<td>");
		if (f->warnings < 0) {
			missing(sb, f->has_build ? "—" : "not built");
		} else {
			sb_addf(sb, "%ld", f->warnings);
			for (size_t k = 0; k < f->nwarning_lines; k++) {
				sb_add(sb, "<br><code class=\"warn\">");
				esc(sb, f->warning_lines[k]);
				sb_add(sb, "</code>");
			}
		}
		sb_add(sb, "</td>");
	}
	sb_add(sb, "</tr></table><p class=\"note\"><b>code bytes</b>: the sizes of the "
		   "function symbols in <code>.text</code> (vmlinux's symbol table), which "
		   "<code>.text</code>'s own size hides: the linker aligns the entry text "
		   "to 2 MiB inside it. <b>build seconds</b>: the last build that compiled "
		   "objects (a no-op rebuild keeps it), wall and CPU time, and how many "
		   "other flavours' builds shared the machine meanwhile.</p></section>\n");
}

static void code_td(struct strbuf *sb, const struct report *r, size_t i)
{
	long long ref = -1, v = r->fl[i].code_bytes;

	for (size_t k = 0; k < r->nfl; k++)
		if (r->fl[k].code_bytes >= 0) {
			ref = k == i ? -1 : r->fl[k].code_bytes;
			break;
		}
	sb_add(sb, "<td class=\"num\">");
	if (v < 0) {
		missing(sb, r->fl[i].has_build ? "—" : "not built");
	} else {
		sb_addf(sb, "%lld", v);
		if (ref >= 0) {
			char d[32];

			fmt_delta(d, sizeof(d), v - ref);
			sb_addf(sb, "<span class=\"delta%s\">", v > ref ? " up" : v < ref ? " down" : "");
			esc(sb, d);
			sb_add(sb, "</span>");
		}
	}
	sb_add(sb, "</td>");
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
	if (!s) {
		sb_add(sb, "<td class=\"missing\">—</td>");
		return;
	}
	sb_add(sb, "<td>");
	esc(sb, s);
	sb_add(sb, "</td>");
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
		   "<th>line</th><th>kernel/CPU line</th><th>GDT align</th><th>GDT distance</th>"
		   "<th>size/limit</th><th>2 GDTs share (kernel/CPU line)</th>"
		   "<th>GDT + data share (kernel/CPU line)</th><th>cores x threads/core</th>"
		   "<th>idle</th><th>SWIOTLB</th><th>pool bytes</th><th>microcode</th></tr>\n");
	for (size_t i = 0; i < r->nfl; i++) {
		const struct flavour *f = &r->fl[i];

		for (size_t k = 0; k < f->nboots; k++) {
			const struct boot *b = &f->boots[k];
			const struct gdt_facts *g = &b->gdt;

			sb_addf(sb, "<tr><td><span class=\"fl c%zu\"></span>", i % NCOLOURS);
			esc(sb, f->name);
			sb_add(sb, "</td>");
			text_td(sb, b->cpu);
			text_td(sb, b->line_verdict);
			sb_add(sb, "<td class=\"num\">");
			if (g->line_compiled > 0 && b->cache_alignment > 0)
				sb_addf(sb, "%ld/%ld", g->line_compiled, b->cache_alignment);
			else
				missing(sb, "—");
			sb_add(sb, "</td>");
			num_td(sb, g->align);
			num_td(sb, g->distance);
			sb_add(sb, "<td class=\"num\">");
			if (g->size >= 0)
				sb_addf(sb, "%ld/%ld", g->size, g->limit);
			else
				missing(sb, "—");
			sb_add(sb, "</td>");
			sb_add(sb, "<td><table class=\"pair\"><tr>");
			tri_td(sb, g->gdt_gdt_compiled);
			tri_td(sb, g->gdt_gdt_cpu);
			sb_add(sb, "</tr></table></td><td><table class=\"pair\"><tr>");
			tri_td(sb, g->gdt_data_compiled);
			tri_td(sb, g->gdt_data_cpu);
			sb_add(sb, "</tr></table></td><td class=\"num\">");
			if (b->threads_per_core > 0)
				sb_addf(sb, "%ld x %ld", b->cores, b->threads_per_core);
			else
				missing(sb, "—");
			sb_add(sb, "</td>");
			text_td(sb, b->idle);
			text_td(sb, b->swiotlb < 0 ? NULL : b->swiotlb ? "active" : "inactive");
			num_td(sb, b->swiotlb_bytes);
			sb_add(sb, "<td>");
			if (b->microcode) {
				sb_add(sb, "<code>");
				esc(sb, b->microcode);
				sb_add(sb, "</code> <span class=\"missing\">");
				esc(sb, b->microcode_source ? b->microcode_source : "");
				sb_add(sb, "</span>");
			} else {
				missing(sb, "—");
			}
			sb_add(sb, "</td></tr>\n");
		}
	}
	sb_add(sb, "</table></section>\n");
}

static void matrix_cell(struct strbuf *sb, const struct flavour *f, const char *cpu,
			const char *expect)
{
	const struct boot *b = flavour_boot(f, cpu);
	int dflt = f->default_cpu && !strcmp(f->default_cpu, cpu);
	const char *want;

	if (!b) {
		sb_add(sb, "<td class=\"cell verdict-none\"><div class=\"box\">");
		if (dflt)
			sb_add(sb, "<span class=\"tag\">default</span>");
		sb_add(sb, "<span class=\"verdict\">not booted</span></div></td>");
		return;
	}
	want = b->expected ? b->expected : expect;
	sb_addf(sb, "<td class=\"cell verdict-%s%s\">", verdict_class(b->verdict),
		b->verdict && want && strcmp(b->verdict, want) != 0 ? " unexpected" : "");
	if (b->log) {
		sb_add(sb, "<a href=\"");
		esc(sb, b->log);
		sb_add(sb, "\" title=\"console log: ");
		esc(sb, b->log);
		sb_add(sb, "\">");
	} else {
		sb_add(sb, "<div class=\"box\" title=\"no console log\">");
	}
	if (dflt)
		sb_add(sb, "<span class=\"tag\">default</span>");
	sb_add(sb, "<span class=\"verdict\">");
	esc(sb, b->verdict ? b->verdict : "no verdict");
	sb_add(sb, "</span><span class=\"secs\">");
	if (isnan(b->wall_seconds))
		sb_add(sb, "— s");
	else
		sb_addf(sb, "%.1f s", b->wall_seconds);
	sb_add(sb, "</span>");
	if (b->ktap_passed >= 0)
		sb_addf(sb, "<span class=\"ktap\">KTAP %ld/%ld</span>", b->ktap_passed,
			b->ktap_passed + (b->ktap_failed > 0 ? b->ktap_failed : 0));
	if (b->verdict && want && strcmp(b->verdict, want) != 0) {
		sb_add(sb, "<span class=\"secs\"> · expected ");
		esc(sb, want);
		sb_add(sb, "</span>");
	}
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
	static const char *const legend[] = {
		"pass", "test-fail", "panic", "oops", "hang", "refused", "qemu-error",
	};

	sb_add(sb, "<section id=\"matrix\"><h2>Boot matrix</h2><p class=\"note\">Each "
		   "flavour on each emulated CPU model (QEMU TCG). A cell links to its "
		   "console log. <b>line</b> compares the kernel's L1 line size with the "
		   "CPU's <code>cache_alignment</code> (kernel/CPU bytes). A red frame marks "
		   "a verdict other than the expected one.</p><div class=\"legend\">");
	for (size_t i = 0; i < sizeof(legend) / sizeof(*legend); i++) {
		sb_addf(sb, "<span class=\"verdict-%s\">", legend[i]);
		esc(sb, legend[i]);
		sb_add(sb, "</span>");
	}
	sb_add(sb, "<span class=\"verdict-none\">not booted</span></div>"
		   "<table class=\"matrix\"><tr><th>flavour</th>");
	for (size_t c = 0; c < r->ncpus; c++) {
		sb_add(sb, "<th class=\"cpu\">");
		esc(sb, r->cpus[c].name);
		if (r->cpus[c].expect) {
			sb_add(sb, "<small>expect ");
			esc(sb, r->cpus[c].expect);
			sb_add(sb, "</small>");
		}
		sb_add(sb, "</th>");
	}
	sb_add(sb, "</tr>\n");
	for (size_t i = 0; i < r->nfl; i++) {
		sb_addf(sb, "<tr><th><span class=\"fl c%zu\"></span>", i % NCOLOURS);
		esc(sb, r->fl[i].name);
		sb_add(sb, "</th>");
		for (size_t c = 0; c < r->ncpus; c++)
			matrix_cell(sb, &r->fl[i], r->cpus[c].name, r->cpus[c].expect);
		sb_add(sb, "</tr>\n");
	}
	if (!r->ncpus)
		sb_add(sb, "<tr><td class=\"missing\">no CPU models known and nothing booted</td></tr>");
	sb_add(sb, "</table>");
	for (size_t i = 0; i < r->nfl; i++) {
		if (!r->fl[i].nstale_boots)
			continue;
		sb_add(sb, "<p class=\"note\">Left out, boots of an earlier ");
		esc(sb, r->fl[i].name);
		sb_add(sb, " bzImage on:");
		for (size_t k = 0; k < r->fl[i].nstale_boots; k++) {
			sb_add(sb, " ");
			esc(sb, r->fl[i].stale_boots[k]);
		}
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

	sb_add(sb, "<div class=\"chart\"><h3>");
	if (section) {
		sb_add(sb, "<code>");
		esc(sb, section);
		sb_add(sb, "</code> bytes");
	} else {
		sb_add(sb, "bzImage bytes");
	}
	sb_add(sb, "</h3>");
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

static void config_diff(struct strbuf *sb, const struct report *r)
{
	int group = -1;

	sb_add(sb, "<section id=\"config\"><h2>Config differences</h2><p class=\"note\">"
		   "Symbols whose final value is not the same in every configured flavour, "
		   "with the fragment that set it (<i>(default)</i>: no fragment does; "
		   "Kconfig chose it). Absent symbols read as <code>n</code>.</p>");
	if (!r->ncdiff) {
		missing(sb, "no differences (fewer than two flavours configured, or identical configs)");
		sb_add(sb, "</section>\n");
		return;
	}
	sb_add(sb, "<table class=\"cdiff\"><tr><th>symbol</th>");
	for (size_t i = 0; i < r->nfl; i++) {
		sb_addf(sb, "<th><span class=\"fl c%zu\"></span>", i % NCOLOURS);
		esc(sb, r->fl[i].name);
		sb_add(sb, "</th>");
	}
	sb_add(sb, "</tr>\n");
	for (size_t k = 0; k < r->ncdiff; k++) {
		const struct cdiff_sym *s = &r->cdiff[k];

		if ((int)s->group != group) {
			group = (int)s->group;
			sb_addf(sb, "<tr class=\"grp\"><td colspan=\"%zu\">", r->nfl + 1);
			esc(sb, kc_group_names[s->group]);
			sb_add(sb, "</td></tr>\n");
		}
		sb_add(sb, "<tr><td><code>CONFIG_");
		esc(sb, s->name);
		sb_add(sb, "</code></td>");
		for (size_t i = 0; i < r->nfl; i++) {
			const struct cdiff_cell *c = &s->cell[i];

			if (!c->value) {
				sb_add(sb, "<td class=\"val\">");
				missing(sb, "— (not configured)");
				sb_add(sb, "</td>");
				continue;
			}
			sb_addf(sb, "<td class=\"val%s\"><code>", strcmp(c->value, "n") != 0 ? "" : " n");
			esc(sb, c->value);
			sb_add(sb, "</code><span class=\"frag\" title=\"");
			esc(sb, c->fragment);
			if (c->line > 0)
				sb_addf(sb, ":%d", c->line);
			sb_add(sb, "\">");
			esc(sb, base(c->fragment));
			sb_add(sb, "</span></td>");
		}
		sb_add(sb, "</tr>\n");
	}
	sb_add(sb, "</table></section>\n");
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
		if (x->kind == LDK_FLAVOURS) {
			sb_add(sb, "<b>");
			esc(sb, x->fa->name);
			sb_add(sb, "</b> vs <b>");
			esc(sb, x->fb->name);
			sb_add(sb, "</b> on <b>");
			esc(sb, x->ba->cpu);
			sb_add(sb, "</b>");
		} else {
			sb_add(sb, "<b>");
			esc(sb, x->fa->name);
			sb_add(sb, "</b>: <b>");
			esc(sb, x->ba->cpu);
			sb_add(sb, "</b> vs <b>");
			esc(sb, x->bb->cpu);
			sb_add(sb, "</b>");
		}
		sb_addf(sb, " &nbsp;<span class=\"del\">−%zu</span> <span class=\"add\">+%zu</span>"
			" &nbsp;<a href=\"", x->d.removed, x->d.added);
		esc(sb, x->ba->log);
		sb_add(sb, "\">a</a> · <a href=\"");
		esc(sb, x->bb->log);
		sb_add(sb, "\">b</a></summary>");
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
			if (e->op != LD_HUNK) {
				char op[2] = { (char)e->op, '\0' };

				sb_add(sb, op);
			}
			esc(sb, e->text);
			sb_add(sb, "</span>");
		}
		if (n < x->d.n)
			sb_addf(sb, "<span class=\"h\">… %zu more lines: make logdiff</span>", x->d.n - n);
		sb_add(sb, "</pre></details>\n");
	}
	sb_add(sb, "</section>\n");
}

int html_write(const struct report *r, const char *path)
{
	struct strbuf sb = { 0 };
	int rc;

	sb_add(&sb, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		    "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
		    "<title>kflavour report — Linux ");
	esc(&sb, r->release);
	sb_add(&sb, "</title><style>\n");
	sb_add(&sb, css);
	sb_add(&sb, "</style></head><body>\n");
	header(&sb, r);
	flavour_table(&sb, r);
	matrix(&sb, r);
	runtime(&sb, r);
	charts(&sb, r);
	config_diff(&sb, r);
	log_diffs(&sb, r);
	sb_add(&sb, "<footer>kflavour report · one self-contained file, no scripts · "
		    "data: <code>report.json</code> (schema <code>report/report.schema.json</code>)"
		    "</footer></main></body></html>\n");
	rc = kf_write_atomic(path, sb.s, sb.len);
	free(sb.s);
	return rc;
}
