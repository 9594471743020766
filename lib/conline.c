// SPDX-License-Identifier: GPL-2.0
/*
 * conline.c - boot console lines (conline.h).
 */
#include "conline.h"
#include "kf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

size_t kf_con_prefix(const char *l, int *note)
{
	const char *p = l;

	*note = 0;
	if (p[0] != '[' || p[1] != '+')
		return 0;
	p += 2;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	if (*p++ != ']')
		return 0;
	*note = *p == '!';
	if (*p == '!' || *p == ' ')
		p++;
	if (*note && *p == ' ')
		p++;
	return (size_t)(p - l);
}

char *kf_con_clean(const char *line, int flags)
{
	char *s = kf_xmalloc(strlen(line) + 1), *d = s;

	for (const unsigned char *p = (const unsigned char *)line; *p; p++) {
		if (*p == 0x1b) {		/* ESC [ params final, or ESC x */
			if (p[1] == '[') {
				p += 2;
				while (*p && !(*p >= 0x40 && *p <= 0x7e))
					p++;
				if (!*p)
					break;
			} else if (p[1]) {
				p++;
			}
			continue;
		}
		if (*p == '\t')
			*d++ = flags & KF_CON_TAB_SPACE ? ' ' : '\t';
		else if (*p >= 0x20 && *p != 0x7f)
			*d++ = (char)*p;
	}
	*d = '\0';

	/* "[    1.234567] " from CONFIG_PRINTK_TIME */
	if (s[0] == '[') {
		char *p = s + 1;

		while (*p == ' ')
			p++;
		if (isdigit((unsigned char)*p)) {
			while (isdigit((unsigned char)*p) || *p == '.')
				p++;
			if (p[0] == ']') {
				p += p[1] == ' ' ? 2 : 1;
				memmove(s, p, strlen(p) + 1);
			}
		}
	}
	return s;
}

void kf_con_lines(const char *text,
		  void (*fn)(size_t lineno, int note, const char *line, void *arg), void *arg)
{
	const char *l = text;
	size_t lineno = 0;

	while (l && *l) {
		size_t len = strcspn(l, "\n");
		char *line = kf_xstrndup(l, len);
		int note;
		size_t skip = kf_con_prefix(line, &note);

		fn(++lineno, note, line + skip, arg);
		free(line);
		l += len;
		if (*l)
			l++;
	}
}
