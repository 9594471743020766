/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page.h - the frame report.html and upgrade.html share (page.c): one
 * self-contained page with report/report.css built in (no script, no
 * external resource), a header of counts, sections, groups folded by
 * Kconfig menu. Text arguments are HTML-escaped here.
 */
#ifndef KF_REPORT_PAGE_H
#define KF_REPORT_PAGE_H

#include "kf.h"

#include <stddef.h>

/* The head (title, style sheet) and the header's title and sub-title; the
 * header's pills (page_pill) follow, then page_main. */
void page_begin(struct strbuf *sb, const char *title, const char *sub);
/* "3 flavours", "1 flavour": a count in the header. */
void page_pill(struct strbuf *sb, size_t n, const char *one, const char *many);
/* The end of the header; the sections follow. */
void page_main(struct strbuf *sb);
/* The footer (HTML) and the end of the page. */
void page_end(struct strbuf *sb, const char *footer);

/* Groups of items by key (a Kconfig menu), as a long list is folded. */
struct page_group {
	const char *key;
	size_t n;
};
/* The distinct keys of keys[n] with their counts, largest first, then by
 * key: out[] (room for n) and their number. */
size_t page_groups(const char *const *keys, size_t n, struct page_group *out);
/* A folded group: <details> whose summary is "N <noun>s" and the key; the
 * caller writes its content and "</details>". */
void page_fold(struct strbuf *sb, const struct page_group *g, const char *noun);

#endif /* KF_REPORT_PAGE_H */
