// SPDX-License-Identifier: GPL-2.0
/*
 * junit.c - junit.xml, a renderer of struct report (render.h): one testcase
 * per current boot (ktap.c's results_list), a failure with the boot's
 * warnings and the end of its log when the verdict is not the expected
 * one; a boot of an earlier bzImage is in no testcase, named in the
 * testsuite's <system-out>.
 */
#include "render.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Bytes [p, p+n) of valid UTF-8 starting at p, or 0 if p starts a bad sequence. */
static size_t utf8_len(const unsigned char *p)
{
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0 && p[0] >= 0xc2)
		n = 2;
	else if ((p[0] & 0xf0) == 0xe0)
		n = 3;
	else if ((p[0] & 0xf8) == 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/*
 * XML 1.0 text or attribute value: the five special characters as entities,
 * tab/newline kept (as &#10; etc. inside attributes so they survive attribute
 * normalisation), other control characters and bad UTF-8 as U+FFFD.
 */
static void put_xml(struct strbuf *b, const char *s, int attr)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; ) {
		size_t n;

		switch (*p) {
		case '&': sb_addn(b, "&amp;", 5); p++; continue;
		case '<': sb_addn(b, "&lt;", 4); p++; continue;
		case '>': sb_addn(b, "&gt;", 4); p++; continue;
		case '"': sb_addn(b, "&quot;", 6); p++; continue;
		case '\'': sb_addn(b, "&apos;", 6); p++; continue;
		case '\t': case '\n': case '\r':
			if (attr)
				sb_addf(b, "&#%d;", *p);
			else
				sb_addn(b, (const char *)p, 1);
			p++;
			continue;
		default:
			break;
		}
		n = *p < 0x20 || *p == 0x7f ? 0 : utf8_len(p);
		/* U+FFFE and U+FFFF are not XML characters either */
		if (!n || (n == 3 && p[0] == 0xef && p[1] == 0xbf &&
			   (p[2] == 0xbe || p[2] == 0xbf)))
			sb_addn(b, "\xef\xbf\xbd", 3);
		else
			sb_addn(b, (const char *)p, n);
		p += n ? n : 1;
	}
}

/* The last 'want' lines of the boot log beside a record (<cpu>.json ->
 * <cpu>.log), for a failure's message body; NULL without one. */
static char *log_tail(const char *json, int want)
{
	char *lp = kf_xstrdup(json), *text, *p;
	size_t n = strlen(lp);
	int lines = 0;

	if (n > 5 && !strcmp(lp + n - 5, ".json"))
		strcpy(lp + n - 5, ".log");
	text = kf_read_file(lp, NULL);
	free(lp);
	if (!text)
		return NULL;
	p = text + strlen(text);
	if (p > text && p[-1] == '\n')
		p--;
	while (p > text) {
		if (p[-1] == '\n' && ++lines == want)
			break;
		p--;
	}
	memmove(text, p, strlen(p) + 1);
	return text;
}

int junit_write(const struct report *r, const char *path)
{
	struct strbuf b = { 0 };
	struct result *recs, *gone;
	size_t n, ngone, failures = 0;
	double total = 0;
	int rc;

	results_list(r, &recs, &n, &gone, &ngone);
	for (size_t i = 0; i < n; i++) {
		failures += !recs[i].as_expected;
		total += recs[i].wall;
	}
	sb_add(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	sb_addf(&b, "<testsuites name=\"kflavour boot\" tests=\"%zu\" failures=\"%zu\" time=\"%.2f\">\n",
		n, failures, total);
	sb_addf(&b, "  <testsuite name=\"boot\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\" time=\"%.2f\">\n",
		n, failures, total);
	for (size_t i = 0; i < n; i++) {
		const struct result *t = &recs[i];

		sb_add(&b, "    <testcase classname=\"");
		put_xml(&b, t->kver, 1);
		sb_add(&b, ".");
		put_xml(&b, t->flavour, 1);
		sb_add(&b, "\" name=\"");
		put_xml(&b, t->cpu, 1);
		sb_add(&b, t->system ? ".system" : "");
		sb_addf(&b, "\" time=\"%.2f\">\n", t->wall);
		if (!t->as_expected) {
			char *tail = log_tail(t->path, 40);

			sb_add(&b, "      <failure type=\"");
			put_xml(&b, t->verdict, 1);
			sb_add(&b, "\" message=\"verdict ");
			put_xml(&b, t->verdict, 1);
			sb_add(&b, ", expected ");
			put_xml(&b, t->expected, 1);
			sb_add(&b, "\">");
			if (t->cause) {
				put_xml(&b, t->cause, 0);
				sb_add(&b, "\n");
			}
			for (size_t k = 0; k < t->b->nwarnings; k++) {
				put_xml(&b, t->b->warnings[k], 0);
				sb_add(&b, "\n");
			}
			if (tail) {
				sb_add(&b, "--- end of the boot log ---\n");
				put_xml(&b, tail, 0);
				free(tail);
			}
			sb_add(&b, "</failure>\n");
		}
		sb_add(&b, "      <system-out>record: ");
		put_xml(&b, t->path, 0);
		sb_add(&b, "\nverdict: ");
		put_xml(&b, t->verdict, 0);
		sb_add(&b, "\nexpected: ");
		put_xml(&b, t->expected, 0);
		sb_add(&b, "</system-out>\n    </testcase>\n");
	}
	for (size_t i = 0; i < ngone; i++) {
		sb_addf(&b, "%s" RESULTS_GONE, i ? "\n" : "    <system-out>", gone[i].flavour);
		put_xml(&b, gone[i].path, 0);
	}
	sb_add(&b, ngone ? "</system-out>\n" : "");
	sb_add(&b, "  </testsuite>\n</testsuites>\n");
	rc = kf_write_atomic(path, b.s, b.len);
	free(b.s);
	free(recs);
	free(gone);
	return rc;
}
