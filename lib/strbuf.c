// SPDX-License-Identifier: GPL-2.0
/*
 * strbuf.c - a growing, always NUL-terminated string: what the KTAP, JUnit,
 * HTML and SVG writers and the log normaliser build their output in; and the
 * one HTML escaper (report.html, its SVG, upgrade.html).
 */
#include "kf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void grow(struct strbuf *sb, size_t n)
{
	if (sb->len + n + 1 <= sb->cap)
		return;
	sb->cap = (sb->len + n + 1) * 2;
	if (sb->cap < 256)
		sb->cap = 256;
	sb->s = kf_xrealloc(sb->s, sb->cap);
}

void sb_addn(struct strbuf *sb, const char *s, size_t n)
{
	grow(sb, n);
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

void sb_add(struct strbuf *sb, const char *s)
{
	sb_addn(sb, s, strlen(s));
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		kf_die(1, "bad format string \"%s\"", fmt);
	grow(sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

/*
 * Text and attribute values alike: & < > " ' as entities; a control
 * character (tab and newline apart) as its Unicode control picture, so it
 * shows instead of breaking the page.
 */
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
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
				sb_addf(sb, "&#x%x;", c == 0x7f ? 0x2421 : 0x2400 + c);
			else
				sb_addn(sb, s, 1);
		}
	}
}

void sb_wrap(struct strbuf *sb, const char *pre, const char *s, const char *post)
{
	sb_add(sb, pre);
	sb_esc(sb, s);
	sb_add(sb, post);
}
