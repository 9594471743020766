// SPDX-License-Identifier: GPL-2.0
/*
 * results.c - boot records (out/<kver>/<flavour>/boot/<cpu>.json) into
 * results.ktap and junit.xml for CI, and the boot summary of a make run.
 *
 *   boot-results [--ktap FILE] [--junit FILE] [--check RECORD]... RECORD...
 *
 * --ktap / --junit: one subtest / testcase per RECORD. Its first test is the
 * boot's verdict against the expected one; then the boot's own KTAP results.
 * --check: the records of this make run: prints a summary and exits 1 if
 * any has a verdict other than the expected one (a missing record counts).
 * Both files are written atomically.
 */
#include "../lib/kf.h"
#include "../lib/record.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* s with each character of 'bad' written as 'repl'. */
static void put_ktap(struct strbuf *b, const char *s, const char *bad, char repl)
{
	for (; *s; s++) {
		char c = strchr(bad, *s) ? repl : *s;

		sb_addn(b, &c, 1);
	}
}

/* A KTAP test name "first.second": one line, no '#' (which would start a directive). */
static void put_ktap_name(struct strbuf *b, const char *first, const char *second)
{
	put_ktap(b, first, "#\n\r", '_');
	sb_add(b, ".");
	put_ktap(b, second, "#\n\r", '_');
}

struct rec {
	const char *path;
	json_t *j;
	const char *flavour, *kver, *cpu, *verdict, *expected;
	double wall;
	int as_expected;
};

static int load(const char *path, struct rec *r)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	r->j = kf_record_read(path, KF_WARN, "remove it, and make boots again");
	if (!r->j)
		return -1;
	r->flavour = kf_json_str_or(r->j, "flavour", "?");
	r->kver = kf_json_str_or(r->j, "kver", "?");
	r->cpu = kf_json_str_or(r->j, "cpu", "?");
	r->verdict = kf_json_str_or(r->j, "verdict", "?");
	r->expected = kf_json_str_or(r->j, "expected", "pass");
	r->wall = json_number_value(json_object_get(r->j, "wall_seconds"));
	r->as_expected = !strcmp(r->verdict, r->expected);
	return 0;
}

/* The boot log next to a record: <cpu>.json -> <cpu>.log. */
static char *log_path(const char *json)
{
	char *p = kf_xstrdup(json);
	size_t n = strlen(p);

	if (n > 5 && !strcmp(p + n - 5, ".json"))
		strcpy(p + n - 5, ".log");
	return p;
}

/* The last 'want' lines of the boot log, for a failure's message body. */
static char *log_tail(const char *json, int want)
{
	char *lp = log_path(json), *text = kf_read_file(lp, NULL), *p;
	int lines = 0;

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

static void write_ktap(const char *path, struct rec *recs, size_t n)
{
	struct strbuf b = { 0 };

	sb_addf(&b, "KTAP version 1\n1..%zu\n", n);
	for (size_t i = 0; i < n; i++) {
		struct rec *r = &recs[i];
		json_t *results = json_object_get(json_object_get(r->j, "ktap"), "results");
		size_t nres = json_array_size(results), k;
		json_t *t;

		sb_add(&b, "    KTAP version 1\n    # Subtest: ");
		put_ktap_name(&b, r->flavour, r->cpu);
		sb_addf(&b, "\n    1..%zu\n", nres + 1);
		sb_addf(&b, "    # %s: verdict %s, expected %s\n", r->path, r->verdict, r->expected);
		sb_addf(&b, "    %s 1 verdict_is_%s\n", r->as_expected ? "ok" : "not ok", r->expected);
		json_array_foreach(results, k, t) {
			int ok = json_is_true(json_object_get(t, "ok"));
			const char *dir = kf_json_str(t, "directive");

			/* The boot's own directive, as its console had it: a
			 * TODO test is one that failed ("not ok ... # TODO"). */
			if (dir && !strncasecmp(dir, "todo", 4))
				ok = 0;
			sb_addf(&b, "    %s %zu ", ok ? "ok" : "not ok", k + 2);
			put_ktap_name(&b, kf_json_str_or(t, "suite", ""),
				      kf_json_str_or(t, "name", "?"));
			if (dir) {
				/* a directive's text: one line */
				sb_add(&b, " # ");
				put_ktap(&b, dir, "\n\r", ' ');
			} else if (!ok && strcmp(r->expected, "pass") != 0) {
				/* A failure the boot was expected to show (test-fail
				 * expected) is TAP's TODO: not counted against it. */
				sb_addf(&b, " # TODO the boot is expected to give %s", r->expected);
			}
			sb_add(&b, "\n");
		}
		sb_addf(&b, "%s %zu ", r->as_expected ? "ok" : "not ok", i + 1);
		put_ktap_name(&b, r->flavour, r->cpu);
		sb_add(&b, "\n");
	}
	if (kf_write_atomic(path, b.s, b.len))
		kf_die(2, "%s: %s", path, strerror(errno));
	free(b.s);
}

static void write_junit(const char *path, struct rec *recs, size_t n)
{
	struct strbuf b = { 0 };
	size_t failures = 0;
	double total = 0;

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
		struct rec *r = &recs[i];

		sb_add(&b, "    <testcase classname=\"");
		put_xml(&b, r->kver, 1);
		sb_add(&b, ".");
		put_xml(&b, r->flavour, 1);
		sb_add(&b, "\" name=\"");
		put_xml(&b, r->cpu, 1);
		sb_addf(&b, "\" time=\"%.2f\">\n", r->wall);
		if (!r->as_expected) {
			char *tail = log_tail(r->path, 40);
			json_t *w = json_object_get(r->j, "warnings"), *t;
			size_t k;

			sb_add(&b, "      <failure type=\"");
			put_xml(&b, r->verdict, 1);
			sb_add(&b, "\" message=\"verdict ");
			put_xml(&b, r->verdict, 1);
			sb_add(&b, ", expected ");
			put_xml(&b, r->expected, 1);
			sb_add(&b, "\">");
			json_array_foreach(w, k, t) {
				put_xml(&b, json_string_value(t) ? json_string_value(t) : "", 0);
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
		put_xml(&b, r->path, 0);
		sb_add(&b, "\nverdict: ");
		put_xml(&b, r->verdict, 0);
		sb_add(&b, "\nexpected: ");
		put_xml(&b, r->expected, 0);
		sb_add(&b, "</system-out>\n    </testcase>\n");
	}
	sb_add(&b, "  </testsuite>\n</testsuites>\n");
	if (kf_write_atomic(path, b.s, b.len))
		kf_die(2, "%s: %s", path, strerror(errno));
	free(b.s);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ktap", required_argument, NULL, 'k' },
		{ "junit", required_argument, NULL, 'j' },
		{ "check", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	const char *ktap = NULL, *junit = NULL;
	const char **check = NULL;
	size_t nr_check = 0, n = 0;
	struct rec *recs;
	int c, rc = 0;

	kf_prog = "boot-results";
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'k': ktap = optarg; break;
		case 'j': junit = optarg; break;
		case 'c':
			check = kf_xrealloc(check, (nr_check + 1) * sizeof(*check));
			check[nr_check++] = optarg;
			break;
		default:
			fprintf(stderr, "usage: boot-results [--ktap FILE] [--junit FILE] [--check RECORD]... RECORD...\n");
			return 2;
		}
	}
	recs = kf_xmalloc((size_t)(argc - optind) * sizeof(*recs));
	for (int i = optind; i < argc; i++)
		if (!load(argv[i], &recs[n]))
			n++;
	if (ktap)
		write_ktap(ktap, recs, n);
	if (junit)
		write_junit(junit, recs, n);

	if (nr_check) {
		size_t bad = 0;

		for (size_t i = 0; i < nr_check; i++) {
			struct rec r;

			if (load(check[i], &r)) {
				printf("          %s: no boot record\n", check[i]);
				bad++;
				continue;
			}
			if (!r.as_expected) {
				char *lp = log_path(r.path);

				printf("          %s on %s: %s, expected %s; see %s\n", r.flavour,
				       r.cpu, r.verdict, r.expected, lp);
				free(lp);
				bad++;
			}
			json_decref(r.j);
		}
		if (bad) {
			printf("  BOOTS   %zu of %zu boots not as expected (listed above)\n",
			       bad, nr_check);
			rc = 1;
		} else {
			printf("  BOOTS   %zu of %zu boots as expected\n", nr_check, nr_check);
		}
	}
	for (size_t i = 0; i < n; i++)
		json_decref(recs[i].j);
	free(recs);
	free(check);
	return rc;
}
