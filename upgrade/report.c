// SPDX-License-Identifier: GPL-2.0
/*
 * upgrade-report - the upgrade report of several flavours, from the part
 * each 'upgrade' run wrote: upgrade.json (upgrade/upgrade.schema.json),
 * upgrade.html, and on stdout the counts per flavour first, then the details.
 *
 *   upgrade-report --from 6.1 --to 6.12 --json OUT.json --html OUT.html FLAVOUR.json...
 *
 * Exit 0 when both files were written, 2 on a usage or input error.
 */
#include "../lib/kf.h"
#include "../lib/record.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(void)
{
	kf_die(2, "usage: upgrade-report --from KVER --to KVER --json OUT.json --html OUT.html FLAVOUR.json...");
}

static const char *str(json_t *o, const char *key)
{
	return kf_json_str_or(o, key, "");
}

static long long count(json_t *f, const char *key)
{
	return (long long)json_integer_value(json_object_get(json_object_get(f, "counts"), key));
}

/* ---- terminal ------------------------------------------------------- */

static void print_counts(json_t *flavours, const char *from, const char *to)
{
	size_t i;
	json_t *f;

	printf("upgrade %s -> %s\n", from, to);
	printf("  %-20s %11s %9s %5s %7s %13s %10s\n", "flavour", "new-prompts",
	       "undecided", "gone", "changed", "stop-applying", "boot-diffs");
	for (i = 0; i < json_array_size(flavours) && (f = json_array_get(flavours, i)); i++)
		printf("  %-20s %11lld %9lld %5lld %7lld %13lld %10lld\n", str(f, "flavour"),
		       count(f, "new_prompts"), count(f, "undecided"), count(f, "gone"),
		       count(f, "changed"), count(f, "stop_applying"), count(f, "boot_differences"));
}

static void print_lines(json_t *a, const char *indent)
{
	size_t i;
	json_t *l;

	for (i = 0; i < json_array_size(a) && (l = json_array_get(a, i)); i++)
		printf("%s%s\n", indent, json_string_value(l));
}

static void print_details(json_t *f)
{
	json_t *e, *sa = json_object_get(f, "stop_applying");
	size_t i;

	printf("\n== %s (linux %s)\n", str(f, "flavour"), str(f, "kernelversion"));
	printf("new prompts (%lld; the value is olddefconfig's):\n", count(f, "new_prompts"));
	for (i = 0; i < json_array_size(json_object_get(f, "new_prompts")) && (e = json_array_get(json_object_get(f, "new_prompts"), i)); i++)
		printf("  CONFIG_%s=%s  \"%s\" [%s]  %s%s%s%s\n", str(e, "symbol"), str(e, "value"),
		       str(e, "prompt"), str(e, "menu"),
		       json_is_string(json_object_get(e, "decided_by")) ? "decided by " : "needs a decision",
		       str(e, "decided_by"), json_is_string(json_object_get(e, "was")) ? "; was " : "",
		       str(e, "was"));
	printf("gone (%lld):\n", count(f, "gone"));
	for (i = 0; i < json_array_size(json_object_get(f, "gone")) && (e = json_array_get(json_object_get(f, "gone"), i)); i++) {
		printf("  CONFIG_%s=%s -> %s: %s\n", str(e, "symbol"), str(e, "old"),
		       kf_json_str_or(e, "successor", "(no successor)"), str(e, "note"));
		print_lines(json_object_get(e, "requested_by"), "    requested by ");
	}
	printf("changed (%lld):\n", count(f, "changed"));
	for (i = 0; i < json_array_size(json_object_get(f, "changed")) && (e = json_array_get(json_object_get(f, "changed"), i)); i++) {
		printf("  CONFIG_%s: %s -> %s (%s) %s\n", str(e, "symbol"), str(e, "old"),
		       str(e, "new"), str(e, "kind"), str(e, "reason"));
		print_lines(json_object_get(e, "detail"), "    ");
	}
	printf("fragments that stop applying (%lld):\n", count(f, "stop_applying"));
	if (json_is_null(json_object_get(sa, "ok")))
		printf("  (no audit of the new tree for this config)\n");
	print_lines(json_object_get(sa, "errors"), "  ");
	for (i = 0; i < json_array_size(json_object_get(sa, "misses")) && (e = json_array_get(json_object_get(sa, "misses"), i)); i++) {
		printf("  %s:%lld: CONFIG_%s=%s requested, final %s\n", str(e, "file"),
		       (long long)json_integer_value(json_object_get(e, "line")), str(e, "symbol"),
		       str(e, "requested"), kf_json_str_or(e, "final", "(not set)"));
		printf("    %s\n", str(e, "reason"));
		print_lines(json_object_get(e, "detail"), "    ");
		printf("    fix: %s\n", str(e, "fix"));
	}
	printf("boot (%zu CPU model(s) booted on both trees):\n",
	       json_array_size(json_object_get(f, "boot")));
	for (i = 0; i < json_array_size(json_object_get(f, "boot")) && (e = json_array_get(json_object_get(f, "boot"), i)); i++) {
		json_t *d;
		size_t k;

		printf("  %s: verdict %s -> %s\n", str(e, "cpu"), str(e, "old_verdict"),
		       str(e, "new_verdict"));
		for (k = 0; k < json_array_size(json_object_get(e, "facts")) && (d = json_array_get(json_object_get(e, "facts"), k)); k++)
			printf("    %s: %s -> %s\n", str(d, "fact"), kf_json_str_or(d, "old", "(none)"),
			       kf_json_str_or(d, "new", "(none)"));
	}
}

/* ---- HTML ----------------------------------------------------------- */

/* <tr><td>..</td>...</tr> of the given cells, escaped. */
static void row(struct strbuf *sb, const char *tag, int n, const char *const *cells)
{
	int i;

	sb_add(sb, "<tr>");
	for (i = 0; i < n; i++) {
		sb_addf(sb, "<%s>", tag);
		sb_esc(sb, cells[i]);
		sb_addf(sb, "</%s>", tag);
	}
	sb_add(sb, "</tr>\n");
}

static char *joined(json_t *a, const char *sep)
{
	struct strbuf sb = { 0 };
	size_t i;
	json_t *l;

	sb_add(&sb, "");
	for (i = 0; i < json_array_size(a) && (l = json_array_get(a, i)); i++) {
		if (i)
			sb_add(&sb, sep);
		sb_add(&sb, json_string_value(l) ? json_string_value(l) : "");
	}
	return sb.s;
}

static void html_flavour(struct strbuf *sb, json_t *f)
{
	static const char *const np_head[] = { "symbol", "prompt", "menu", "value", "decision" };
	static const char *const gone_head[] = { "symbol", "old value", "successor", "note", "requested by" };
	static const char *const ch_head[] = { "symbol", "old", "new", "why", "kconfig" };
	static const char *const sa_head[] = { "fragment line", "requested", "final", "why", "fix" };
	static const char *const boot_head[] = { "cpu", "verdict", "fact", "old", "new" };
	json_t *e;
	size_t i;

	sb_add(sb, "<h3>");
	sb_esc(sb, str(f, "flavour"));
	sb_add(sb, "</h3>\n<h4>New prompts</h4>\n<table>\n");
	row(sb, "th", 5, np_head);
	for (i = 0; i < json_array_size(json_object_get(f, "new_prompts")) && (e = json_array_get(json_object_get(f, "new_prompts"), i)); i++) {
		char *dec = kf_xasprintf("%s%s%s", kf_json_str_or(e, "decided_by", "needs a decision"),
					 json_is_string(json_object_get(e, "was")) ? "; was " : "", str(e, "was"));
		const char *c[] = { str(e, "symbol"), str(e, "prompt"), str(e, "menu"), str(e, "value"), dec };

		row(sb, "td", 5, c);
		free(dec);
	}
	sb_add(sb, "</table>\n<h4>Gone</h4>\n<table>\n");
	row(sb, "th", 5, gone_head);
	for (i = 0; i < json_array_size(json_object_get(f, "gone")) && (e = json_array_get(json_object_get(f, "gone"), i)); i++) {
		char *by = joined(json_object_get(e, "requested_by"), "; ");
		const char *c[] = { str(e, "symbol"), str(e, "old"), kf_json_str_or(e, "successor", "none known"),
				    str(e, "note"), by };

		row(sb, "td", 5, c);
		free(by);
	}
	sb_add(sb, "</table>\n<h4>Changed</h4>\n<table>\n");
	row(sb, "th", 5, ch_head);
	for (i = 0; i < json_array_size(json_object_get(f, "changed")) && (e = json_array_get(json_object_get(f, "changed"), i)); i++) {
		char *d = joined(json_object_get(e, "detail"), "\n");
		const char *c[] = { str(e, "symbol"), str(e, "old"), str(e, "new"), str(e, "reason"), d };

		row(sb, "td", 5, c);
		free(d);
	}
	sb_add(sb, "</table>\n<h4>Fragments that stop applying</h4>\n<table>\n");
	row(sb, "th", 5, sa_head);
	for (i = 0; i < json_array_size(json_object_get(json_object_get(f, "stop_applying"), "misses")) && (e = json_array_get(json_object_get(json_object_get(f, "stop_applying"), "misses"), i)); i++) {
		char *where = kf_xasprintf("%s:%lld: CONFIG_%s", str(e, "file"),
					   (long long)json_integer_value(json_object_get(e, "line")),
					   str(e, "symbol"));
		char *d = joined(json_object_get(e, "detail"), "\n");
		char *why = kf_xasprintf("%s\n%s", str(e, "reason"), d);
		const char *c[] = { where, str(e, "requested"), kf_json_str_or(e, "final", "(not set)"), why,
				    str(e, "fix") };

		row(sb, "td", 5, c);
		free(where);
		free(d);
		free(why);
	}
	sb_add(sb, "</table>\n<h4>Boot</h4>\n<table>\n");
	row(sb, "th", 5, boot_head);
	for (i = 0; i < json_array_size(json_object_get(f, "boot")) && (e = json_array_get(json_object_get(f, "boot"), i)); i++) {
		char *v = kf_xasprintf("%s -> %s", str(e, "old_verdict"), str(e, "new_verdict"));
		json_t *d;
		size_t k;

		for (k = 0; k < json_array_size(json_object_get(e, "facts")) && (d = json_array_get(json_object_get(e, "facts"), k)); k++) {
			const char *c[] = { str(e, "cpu"), v, str(d, "fact"), kf_json_str_or(d, "old", "(none)"),
					    kf_json_str_or(d, "new", "(none)") };

			row(sb, "td", 5, c);
		}
		if (!json_array_size(json_object_get(e, "facts"))) {
			const char *c[] = { str(e, "cpu"), v, "(no fact differs)", "", "" };

			row(sb, "td", 5, c);
		}
		free(v);
	}
	sb_add(sb, "</table>\n");
}

static char *html(json_t *flavours, const char *from, const char *to)
{
	static const char *const head[] = { "flavour", "new prompts", "undecided", "gone",
					    "changed", "stop applying", "boot diffs" };
	struct strbuf sb = { 0 };
	json_t *f;
	size_t i;

	sb_add(&sb, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>kflavour upgrade ");
	sb_esc(&sb, from);
	sb_add(&sb, " to ");
	sb_esc(&sb, to);
	sb_add(&sb, "</title>\n<style>body{font-family:sans-serif}table{border-collapse:collapse;margin-bottom:1em}"
	       "td,th{border:1px solid #999;padding:2px 6px;vertical-align:top;white-space:pre-wrap;font-size:90%}"
	       "th{background:#eee}</style></head><body>\n<section id=\"upgrade\">\n<h2>Upgrade ");
	sb_esc(&sb, from);
	sb_add(&sb, " &rarr; ");
	sb_esc(&sb, to);
	sb_add(&sb, "</h2>\n<table>\n");
	row(&sb, "th", 7, head);
	for (i = 0; i < json_array_size(flavours) && (f = json_array_get(flavours, i)); i++) {
		char n[6][24];
		const char *keys[] = { "new_prompts", "undecided", "gone", "changed",
				       "stop_applying", "boot_differences" };
		const char *c[7];
		int k;

		c[0] = str(f, "flavour");
		for (k = 0; k < 6; k++) {
			snprintf(n[k], sizeof(n[k]), "%lld", count(f, keys[k]));
			c[k + 1] = n[k];
		}
		row(&sb, "td", 7, c);
	}
	sb_add(&sb, "</table>\n");
	for (i = 0; i < json_array_size(flavours) && (f = json_array_get(flavours, i)); i++)
		html_flavour(&sb, f);
	sb_add(&sb, "</section>\n</body></html>\n");
	return sb.s;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "json", required_argument, NULL, 'j' },
		{ "html", required_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *from = NULL, *to = NULL, *jpath = NULL, *hpath = NULL;
	json_t *root, *flavours = json_array();
	char *page;
	size_t k;
	int i, c;

	kf_prog = "upgrade-report";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f': from = optarg; break;
		case 't': to = optarg; break;
		case 'j': jpath = optarg; break;
		case 'h': hpath = optarg; break;
		default: usage();
		}
	}
	i = optind;
	if (!from || !to || !jpath || !hpath || i >= argc)
		usage();
	for (; i < argc; i++)
		json_array_append_new(flavours, kf_record_read(argv[i], KF_MUST, "rerun make upgrade"));
	print_counts(flavours, from, to);
	for (k = 0; k < json_array_size(flavours); k++)
		print_details(json_array_get(flavours, k));

	root = json_object();
	json_object_set_new(root, "from", json_string(from));
	json_object_set_new(root, "to", json_string(to));
	json_object_set_new(root, "flavours", json_incref(flavours));
	if (kf_record_write(root, jpath))
		kf_die(2, "%s: %s", jpath, strerror(errno));
	page = html(flavours, from, to);
	if (kf_write_atomic(hpath, page, strlen(page)) < 0)
		kf_die(2, "%s: %s", hpath, strerror(errno));
	free(page);
	json_decref(root);
	json_decref(flavours);
	printf("\n  UPGRADE %s\n  UPGRADE %s\n", jpath, hpath);
	return 0;
}
