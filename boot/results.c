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
 *
 * A RECORD of an earlier bzImage than its flavour's build.json names
 * (<flavour>/boot/<cpu>.json beside <flavour>/build.json; the current-boot
 * rule of lib/records.h) describes a kernel that is gone: as in the report,
 * it is neither a subtest nor a testcase, and is named instead: a "# left
 * out" line after results.ktap's plan, a line of junit.xml's testsuite
 * <system-out>. To --check it is a boot not as expected.
 */
#include "../lib/kf.h"
#include "../lib/records.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
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
	struct kf_boot_rec b;
	const char *path, *flavour, *kver, *cpu, *verdict, *expected;
	double wall;
	int as_expected, current;
};

/* The record's flavour's build.json: <flavour>/boot/<cpu>.json's
 * <flavour>/build.json; NULL when the record lies elsewhere. */
static char *build_json_of(const char *record)
{
	const char *end = strrchr(record, '/'), *start = end;

	while (start && start > record && start[-1] != '/')
		start--;
	if (!end || end - start != 4 || strncmp(start, "boot", 4) != 0)
		return NULL;
	return kf_xasprintf("%.*sbuild.json", (int)(start - record), record);
}

static int load(const char *path, struct rec *r)
{
	struct kf_build_rec build = { 0 };
	char *bp;

	memset(r, 0, sizeof(*r));
	if (kf_boot_rec_read(&r->b, path, KF_WARN, "remove it, and make boots again"))
		return -1;
	r->path = path;
	r->flavour = r->b.h.flavour ? r->b.h.flavour : "?";
	r->kver = r->b.h.kver ? r->b.h.kver : "?";
	r->cpu = r->b.cpu ? r->b.cpu : "?";
	r->verdict = r->b.verdict ? r->b.verdict : "?";
	r->expected = r->b.expected ? r->b.expected : "pass";
	r->wall = isnan(r->b.wall_seconds) ? 0 : r->b.wall_seconds;
	r->as_expected = !strcmp(r->verdict, r->expected);
	bp = build_json_of(path);
	r->current = !bp || kf_build_rec_read(&build, bp, KF_QUIET, "treated as missing") ||
		     kf_boot_current(&r->b, &build);
	kf_build_rec_free(&build);
	free(bp);
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

/* What names a left-out boot of an earlier bzImage (its path: put_ktap or put_xml). */
#define GONE "left out, a boot of an earlier %s bzImage than build.json's: "

static void write_ktap(const char *path, const struct rec *recs, size_t n,
		       const struct rec *gone, size_t ngone)
{
	struct strbuf b = { 0 };

	sb_addf(&b, "KTAP version 1\n1..%zu\n", n);
	for (size_t i = 0; i < ngone; i++) {
		sb_addf(&b, "# " GONE, gone[i].flavour);
		put_ktap(&b, gone[i].path, "\n\r", ' ');
		sb_add(&b, "\n");
	}
	for (size_t i = 0; i < n; i++) {
		const struct rec *r = &recs[i];

		sb_add(&b, "    KTAP version 1\n    # Subtest: ");
		put_ktap_name(&b, r->flavour, r->cpu);
		sb_addf(&b, "\n    1..%zu\n", r->b.ncases + 1);
		sb_addf(&b, "    # %s: verdict %s, expected %s\n", r->path, r->verdict, r->expected);
		sb_addf(&b, "    %s 1 verdict_is_%s\n", r->as_expected ? "ok" : "not ok", r->expected);
		for (size_t k = 0; k < r->b.ncases; k++) {
			const struct kf_ktap_case *t = &r->b.cases[k];
			int ok = t->ok == 1;
			const char *dir = t->directive;

			/* The boot's own directive, as its console had it: a
			 * TODO test is one that failed ("not ok ... # TODO"). */
			if (dir && !strncasecmp(dir, "todo", 4))
				ok = 0;
			sb_addf(&b, "    %s %zu ", ok ? "ok" : "not ok", k + 2);
			put_ktap_name(&b, t->suite ? t->suite : "", t->name ? t->name : "?");
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

static void write_junit(const char *path, const struct rec *recs, size_t n,
			const struct rec *gone, size_t ngone)
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
		const struct rec *r = &recs[i];

		sb_add(&b, "    <testcase classname=\"");
		put_xml(&b, r->kver, 1);
		sb_add(&b, ".");
		put_xml(&b, r->flavour, 1);
		sb_add(&b, "\" name=\"");
		put_xml(&b, r->cpu, 1);
		sb_addf(&b, "\" time=\"%.2f\">\n", r->wall);
		if (!r->as_expected) {
			char *tail = log_tail(r->path, 40);

			sb_add(&b, "      <failure type=\"");
			put_xml(&b, r->verdict, 1);
			sb_add(&b, "\" message=\"verdict ");
			put_xml(&b, r->verdict, 1);
			sb_add(&b, ", expected ");
			put_xml(&b, r->expected, 1);
			sb_add(&b, "\">");
			for (size_t k = 0; k < r->b.nwarnings; k++) {
				put_xml(&b, r->b.warnings[k], 0);
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
	for (size_t i = 0; i < ngone; i++) {
		sb_addf(&b, "%s" GONE, i ? "\n" : "    <system-out>", gone[i].flavour);
		put_xml(&b, gone[i].path, 0);
	}
	sb_add(&b, ngone ? "</system-out>\n" : "");
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
	size_t nr_check = 0, n = 0, ngone = 0;
	struct rec *recs, *gone, r;
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
	gone = kf_xmalloc((size_t)(argc - optind) * sizeof(*gone));
	for (int i = optind; i < argc; i++)
		if (!load(argv[i], &r)) {
			if (r.current)
				recs[n++] = r;
			else
				gone[ngone++] = r;
		}
	if (ktap)
		write_ktap(ktap, recs, n, gone, ngone);
	if (junit)
		write_junit(junit, recs, n, gone, ngone);

	if (nr_check) {
		size_t bad = 0;

		for (size_t i = 0; i < nr_check; i++) {
			if (load(check[i], &r)) {
				printf("          %s: no boot record\n", check[i]);
				bad++;
				continue;
			}
			if (!r.current) {
				printf("          %s on %s: booted an earlier bzImage than build.json's; make boots it again (%s)\n",
				       r.flavour, r.cpu, r.path);
				bad++;
			} else if (!r.as_expected) {
				char *lp = log_path(r.path);

				printf("          %s on %s: %s, expected %s; see %s\n", r.flavour,
				       r.cpu, r.verdict, r.expected, lp);
				free(lp);
				bad++;
			}
			kf_boot_rec_free(&r.b);
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
		kf_boot_rec_free(&recs[i].b);
	for (size_t i = 0; i < ngone; i++)
		kf_boot_rec_free(&gone[i].b);
	free(recs);
	free(gone);
	free(check);
	return rc;
}
