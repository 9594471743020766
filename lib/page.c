// SPDX-License-Identifier: GPL-2.0
/*
 * page.c - the page frame of report.html and upgrade.html (page.h).
 */
#include "page.h"

#include <stdlib.h>
#include <string.h>

/*
 * The style sheet is report/report.css, embedded when the tool is built (no
 * file is read at run time): the assembler copies its bytes here, then a NUL.
 */
__asm__(".pushsection .rodata\n"
	".globl kf_report_css\n"
	".hidden kf_report_css\n"
	"kf_report_css:\n"
	".incbin \"report/report.css\"\n"
	".byte 0\n"
	".popsection\n");
extern const char kf_report_css[];

void page_begin(struct strbuf *sb, const char *title, const char *sub)
{
	sb_wrap(sb, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		"<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
		"<title>", title, "</title><style>\n");
	sb_add(sb, kf_report_css);
	sb_wrap(sb, "</style></head><body>\n<header><div class=\"in\"><h1>", title, "</h1>");
	sb_wrap(sb, "<div class=\"sub\">", sub, "</div><div class=\"pills\">");
}

void page_pill(struct strbuf *sb, size_t n, const char *one, const char *many)
{
	sb_addf(sb, "<span class=\"pill\">%zu ", n);
	sb_wrap(sb, "", n == 1 ? one : many, "</span>");
}

void page_main(struct strbuf *sb)
{
	sb_add(sb, "</div></div></header>\n<main>\n");
}

void page_end(struct strbuf *sb, const char *footer)
{
	sb_add(sb, "<footer>");
	sb_add(sb, footer);
	sb_add(sb, "</footer></main></body></html>\n");
}

static int by_count(const void *a, const void *b)
{
	const struct page_group *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->key, y->key);
}

size_t page_groups(const char *const *keys, size_t n, struct page_group *out)
{
	size_t ng = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < ng && strcmp(out[j].key, keys[i]) != 0; j++)
			;
		if (j == ng)
			out[ng++] = (struct page_group){ keys[i], 0 };
		out[j].n++;
	}
	if (ng)
		qsort(out, ng, sizeof(*out), by_count);
	return ng;
}

void page_fold(struct strbuf *sb, const struct page_group *g, const char *noun)
{
	sb_addf(sb, "<details><summary><span class=\"kind\">%zu %s%s</span>", g->n, noun,
		g->n == 1 ? "" : "s");
	sb_wrap(sb, "", g->key, "</summary>");
}
