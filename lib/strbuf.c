// SPDX-License-Identifier: GPL-2.0
/*
 * strbuf.c - a growing, always NUL-terminated string: what the KTAP, JUnit,
 * HTML and SVG writers and the log normaliser build their output in.
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
