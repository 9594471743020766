// SPDX-License-Identifier: GPL-2.0
/*
 * svg.c - inline SVG horizontal bar charts for report.html. A bar per value,
 * optionally under group headings; a missing value (< 0) is written out as
 * text where its bar would be (the bar's text, else 'missing': "not built",
 * "not booted"), never as a zero bar.
 */
#include "render.h"

#include <stddef.h>
#include <string.h>

#define W	560	/* viewBox width */
#define LABEL	96	/* label column */
#define VALUE	132	/* room right of the longest bar for its text */
#define ROW	24
#define HEAD	22

void svg_bars(struct strbuf *sb, const char *title, const struct bar *bars,
	      size_t n, const char *missing)
{
	double max = 0;
	size_t groups = 0;
	int h, y = 4;
	const char *group = NULL;

	for (size_t i = 0; i < n; i++) {
		if (bars[i].value > max)
			max = bars[i].value;
		if (bars[i].group && (!group || strcmp(bars[i].group, group) != 0))
			groups++;
		group = bars[i].group;
	}
	h = 8 + (int)n * ROW + (int)groups * HEAD;
	sb_addf(sb, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
		"viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"",
		W, h, W, h);
	sb_wrap(sb, "", title, "\"><title>");
	sb_wrap(sb, "", title, "</title>\n");
	/* Axis line. */
	group = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct bar *b = &bars[i];

		if (b->group && (!group || strcmp(b->group, group) != 0)) {
			sb_addf(sb, "<text class=\"group\" x=\"0\" y=\"%d\">", y + 15);
			sb_wrap(sb, "", b->group, "</text>\n");
			y += HEAD;
		}
		group = b->group;
		sb_addf(sb, "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"end\">",
			LABEL - 8, y + 16);
		sb_wrap(sb, "", b->label, "</text>\n");
		if (b->value < 0 || max <= 0) {
			sb_addf(sb, "<text class=\"missing\" x=\"%d\" y=\"%d\">", LABEL + 4, y + 16);
			sb_wrap(sb, "", b->text ? b->text : missing, "</text>\n");
		} else {
			double w = (W - LABEL - VALUE) * b->value / max;

			if (w < 2)
				w = 2;
			sb_addf(sb, "<rect class=\"bar %s\" x=\"%d\" y=\"%d\" width=\"%.1f\" "
				"height=\"%d\" rx=\"3\"><title>", b->cls ? b->cls : "",
				LABEL, y + 3, w, ROW - 6);
			sb_wrap(sb, "", b->label, ": ");
			sb_wrap(sb, "", b->text, "</title></rect>\n");
			sb_addf(sb, "<text class=\"value\" x=\"%.1f\" y=\"%d\">", LABEL + w + 6, y + 16);
			sb_wrap(sb, "", b->text, "</text>\n");
		}
		y += ROW;
	}
	sb_addf(sb, "<line class=\"axis\" x1=\"%d\" y1=\"2\" x2=\"%d\" y2=\"%d\"/>\n",
		LABEL, LABEL, h - 2);
	sb_add(sb, "</svg>\n");
}
