// SPDX-License-Identifier: GPL-2.0
/* strbuf.c - a growing string for the HTML and SVG writers, with escaping. */
#include "report.h"
#include "../lib/kf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void grow(struct strbuf *sb, size_t n)
{
	if (sb->len + n + 1 <= sb->cap)
		return;
	sb->cap = (sb->len + n + 1) * 2;
	if (sb->cap < 4096)
		sb->cap = 4096;
	sb->s = kf_xrealloc(sb->s, sb->cap);
}

static void add_n(struct strbuf *sb, const char *s, size_t n)
{
	grow(sb, n);
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

void sb_add(struct strbuf *sb, const char *s)
{
	add_n(sb, s, strlen(s));
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	grow(sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

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
				add_n(sb, s, 1);
		}
	}
}
