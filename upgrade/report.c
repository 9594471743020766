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
#include "../lib/page.h"

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

/* Item i of the array o[key], or NULL past its end. */
static json_t *item(json_t *o, const char *key, size_t i)
{
	return json_array_get(json_object_get(o, key), i);
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
	for (i = 0; (f = json_array_get(flavours, i)); i++)
		printf("  %-20s %11lld %9lld %5lld %7lld %13lld %10lld\n", str(f, "flavour"),
		       count(f, "new_prompts"), count(f, "undecided"), count(f, "gone"),
		       count(f, "changed"), count(f, "stop_applying"), count(f, "boot_differences"));
}

static void print_lines(json_t *a, const char *indent)
{
	size_t i;
	json_t *l;

	for (i = 0; (l = json_array_get(a, i)); i++)
		printf("%s%s\n", indent, json_string_value(l));
}

static void print_details(json_t *f)
{
	json_t *e, *sa = json_object_get(f, "stop_applying");
	size_t i;

	printf("\n== %s (linux %s)\n", str(f, "flavour"), str(f, "kernelversion"));
	printf("new prompts (%lld; the value is olddefconfig's):\n", count(f, "new_prompts"));
	for (i = 0; (e = item(f, "new_prompts", i)); i++)
		printf("  CONFIG_%s=%s  \"%s\" [%s]  %s%s%s%s\n", str(e, "symbol"), str(e, "value"),
		       str(e, "prompt"), str(e, "menu"),
		       json_is_string(json_object_get(e, "decided_by")) ? "decided by " : "needs a decision",
		       str(e, "decided_by"), json_is_string(json_object_get(e, "was")) ? "; was " : "",
		       str(e, "was"));
	printf("gone (%lld):\n", count(f, "gone"));
	for (i = 0; (e = item(f, "gone", i)); i++) {
		printf("  CONFIG_%s=%s -> %s: %s\n", str(e, "symbol"), str(e, "old"),
		       kf_json_str_or(e, "successor", "(no successor)"), str(e, "note"));
		print_lines(json_object_get(e, "requested_by"), "    requested by ");
	}
	printf("changed (%lld):\n", count(f, "changed"));
	for (i = 0; (e = item(f, "changed", i)); i++) {
		printf("  CONFIG_%s: %s -> %s (%s) %s\n", str(e, "symbol"), str(e, "old"),
		       str(e, "new"), str(e, "kind"), str(e, "reason"));
		print_lines(json_object_get(e, "detail"), "    ");
	}
	printf("fragments that stop applying (%lld):\n", count(f, "stop_applying"));
	if (json_is_null(json_object_get(sa, "ok")))
		printf("  (no audit of the new tree for this config)\n");
	print_lines(json_object_get(sa, "errors"), "  ");
	for (i = 0; (e = item(sa, "misses", i)); i++) {
		printf("  %s:%lld: CONFIG_%s=%s requested, final %s\n", str(e, "file"),
		       (long long)json_integer_value(json_object_get(e, "line")), str(e, "symbol"),
		       str(e, "requested"), kf_json_str_or(e, "final", "(not set)"));
		printf("    %s\n", str(e, "reason"));
		print_lines(json_object_get(e, "detail"), "    ");
		printf("    fix: %s\n", str(e, "fix"));
	}
	printf("boot (%zu CPU model(s) booted on both trees):\n",
	       json_array_size(json_object_get(f, "boot")));
	for (i = 0; (e = item(f, "boot", i)); i++) {
		json_t *d;
		size_t k;

		printf("  %s: verdict %s -> %s\n", str(e, "cpu"), str(e, "old_verdict"),
		       str(e, "new_verdict"));
		for (k = 0; (d = item(e, "facts", k)); k++)
			printf("    %s: %s -> %s\n", str(d, "fact"), kf_json_str_or(d, "old", "(none)"),
			       kf_json_str_or(d, "new", "(none)"));
	}
}

/* ---- HTML: report.html's page and style sheet (lib/page.c) -------- */

/* New prompts shown in full, grouped by menu; more are folded by menu. */
#define SCREEN 30

/* One cell: escaped text, or the text set in <code>. */
static void td(struct strbuf *sb, const char *s, int code)
{
	sb_wrap(sb, code ? "<td><code>" : "<td>", s, code ? "</code></td>" : "</td>");
}

/* A table's headings, NULL-terminated. */
static void table(struct strbuf *sb, const char *const *heads)
{
	sb_add(sb, "<table><tr>");
	for (; *heads; heads++)
		sb_wrap(sb, "<th>", *heads, "</th>");
	sb_add(sb, "</tr>\n");
}

/* A cell of 'first', then a JSON array's strings a line each, in grey. */
static void lines_td(struct strbuf *sb, json_t *a, const char *first)
{
	json_t *l;
	size_t i;

	sb_wrap(sb, "<td>", first, "");
	for (i = 0; (l = json_array_get(a, i)); i++)
		sb_wrap(sb, "<span class=\"frag\">", json_string_value(l), "</span>");
	sb_add(sb, "</td>");
}

/* A part of a flavour's section: open when it has anything. */
static void part(struct strbuf *sb, const char *what, long long n, const char *rest)
{
	sb_addf(sb, "<details%s><summary><span class=\"kind\">", n ? " open" : "");
	sb_wrap(sb, "", what, "</span>");
	sb_addf(sb, "%lld · ", n);
	sb_wrap(sb, "", rest, "</summary>\n");
}

static void prompt_row(struct strbuf *sb, json_t *e)
{
	const char *by = kf_json_str(e, "decided_by"), *was = kf_json_str(e, "was");

	sb_wrap(sb, "<tr><td><code>CONFIG_", str(e, "symbol"), "</code></td>");
	td(sb, str(e, "prompt"), 0);
	sb_wrap(sb, strcmp(str(e, "value"), "n") ? "<td class=\"val\"><code>" :
		"<td class=\"val n\"><code>", str(e, "value"), "</code></td><td>");
	if (by)
		sb_wrap(sb, "<span class=\"frag\">decided by ", by, "</span>");
	else
		sb_add(sb, "<span class=\"delta up\">needs a decision</span>");
	if (was)
		sb_wrap(sb, "<span class=\"frag\">was ", was, "</span>");
	sb_add(sb, "</td></tr>\n");
}

/* The new prompts by Kconfig menu, largest first: in full up to a screen,
 * else each menu folded (no script: <details>). */
static void html_prompts(struct strbuf *sb, json_t *np)
{
	static const char *const head[] = { "symbol", "prompt", "olddefconfig", "decision", NULL };
	size_t n = json_array_size(np), ng;
	char **menus = kf_xmalloc((n + 1) * sizeof(*menus));
	struct page_group *g = kf_xmalloc((n + 1) * sizeof(*g));

	for (size_t i = 0; i < n; i++)
		menus[i] = kf_xstrdup(str(json_array_get(np, i), "menu"));
	ng = page_groups((const char *const *)menus, n, g);
	if (!n)
		sb_add(sb, "<p class=\"missing\">none</p>\n");
	else if (n > SCREEN)
		sb_addf(sb, "<p class=\"note\">%zu new prompts, more than %d: folded by Kconfig "
			"menu, largest first.</p>\n", n, SCREEN);
	else
		table(sb, head);
	for (size_t k = 0; k < ng; k++) {
		if (n > SCREEN) {
			page_fold(sb, &g[k], "prompt");
			table(sb, head);
		} else {
			sb_wrap(sb, "<tr class=\"grp\"><td colspan=\"4\">", g[k].key, "</td></tr>\n");
		}
		for (size_t i = 0; i < n; i++)
			if (!strcmp(menus[i], g[k].key))
				prompt_row(sb, json_array_get(np, i));
		if (n > SCREEN)
			sb_add(sb, "</table></details>\n");
	}
	sb_add(sb, n && n <= SCREEN ? "</table></details>\n" : "</details>\n");
	for (size_t i = 0; i < n; i++)
		free(menus[i]);
	free(menus);
	free(g);
}

static void html_gone(struct strbuf *sb, json_t *a)
{
	static const char *const head[] = { "symbol", "old value", "successor", "note",
					    "requested by", NULL };
	json_t *e;
	size_t i;

	table(sb, head);
	for (i = 0; (e = json_array_get(a, i)); i++) {
		sb_wrap(sb, "<tr><td><code>CONFIG_", str(e, "symbol"), "</code></td>");
		td(sb, str(e, "old"), 1);
		td(sb, kf_json_str_or(e, "successor", "none known"), 1);
		td(sb, str(e, "note"), 0);
		lines_td(sb, json_object_get(e, "requested_by"), "");
		sb_add(sb, "</tr>\n");
	}
	sb_add(sb, "</table></details>\n");
}

static void html_changed(struct strbuf *sb, json_t *a)
{
	static const char *const head[] = { "symbol", "old", "new", "kind", "why", NULL };
	json_t *e;
	size_t i;

	table(sb, head);
	for (i = 0; (e = json_array_get(a, i)); i++) {
		sb_wrap(sb, "<tr><td><code>CONFIG_", str(e, "symbol"), "</code></td>");
		td(sb, str(e, "old"), 1);
		td(sb, str(e, "new"), 1);
		td(sb, str(e, "kind"), 0);
		lines_td(sb, json_object_get(e, "detail"), str(e, "reason"));
		sb_add(sb, "</tr>\n");
	}
	sb_add(sb, "</table></details>\n");
}

static void html_stop_applying(struct strbuf *sb, json_t *sa)
{
	static const char *const head[] = { "fragment line", "requested", "final", "why", "fix",
					    NULL };
	json_t *e, *a = json_object_get(sa, "errors");
	size_t i;

	if (json_is_null(json_object_get(sa, "ok")))
		sb_add(sb, "<p class=\"missing\">no audit of the new tree for this config</p>\n");
	for (i = 0; (e = json_array_get(a, i)); i++)
		sb_wrap(sb, "<p><code class=\"warn\">", json_string_value(e), "</code></p>\n");
	a = json_object_get(sa, "misses");
	table(sb, head);
	for (i = 0; (e = json_array_get(a, i)); i++) {
		sb_wrap(sb, "<tr><td>", str(e, "file"), "");
		sb_addf(sb, ":%lld: ", (long long)json_integer_value(json_object_get(e, "line")));
		sb_wrap(sb, "<code>CONFIG_", str(e, "symbol"), "</code></td>");
		td(sb, str(e, "requested"), 1);
		td(sb, kf_json_str_or(e, "final", "(not set)"), 1);
		lines_td(sb, json_object_get(e, "detail"), str(e, "reason"));
		td(sb, str(e, "fix"), 0);
		sb_add(sb, "</tr>\n");
	}
	sb_add(sb, "</table></details>\n");
}

static void html_boot(struct strbuf *sb, json_t *a)
{
	static const char *const head[] = { "CPU model", "verdict", "fact", "old", "new", NULL };
	json_t *e, *d;
	size_t i, k;

	table(sb, head);
	for (i = 0; (e = json_array_get(a, i)); i++) {
		json_t *facts = json_object_get(e, "facts");
		char *v = kf_xasprintf("%s → %s", str(e, "old_verdict"), str(e, "new_verdict"));

		for (k = 0; (d = json_array_get(facts, k)); k++) {
			sb_add(sb, "<tr>");
			td(sb, str(e, "cpu"), 0);
			td(sb, v, 0);
			td(sb, str(d, "fact"), 1);
			td(sb, kf_json_str_or(d, "old", "(none)"), 1);
			td(sb, kf_json_str_or(d, "new", "(none)"), 1);
			sb_add(sb, "</tr>\n");
		}
		if (!json_array_size(facts)) {
			sb_add(sb, "<tr>");
			td(sb, str(e, "cpu"), 0);
			td(sb, v, 0);
			sb_add(sb, "<td colspan=\"3\" class=\"missing\">no fact differs</td></tr>\n");
		}
		free(v);
	}
	sb_add(sb, "</table></details>\n");
}

/* One flavour's section: a heading and table per part, each with its count. */
static void html_flavour(struct strbuf *sb, json_t *f, size_t i)
{
	json_t *sa = json_object_get(f, "stop_applying");
	char *rest;

	sb_wrap(sb, "<section id=\"f-", str(f, "flavour"), "\">");
	sb_addf(sb, "<h2><span class=\"fl c%zu\"></span>", i % 6);
	sb_wrap(sb, "", str(f, "flavour"), " <span class=\"status\">linux ");
	sb_wrap(sb, "", str(f, "kernelversion"), "</span></h2><p class=\"note\">New prompts: "
		"the new tree's <code>listnewconfig</code> for the old config, with the value "
		"<code>olddefconfig</code> gives and the fragment line that decides it.</p>\n");
	rest = kf_xasprintf("undecided: %lld", count(f, "undecided"));
	part(sb, "new prompts", count(f, "new_prompts"), rest);
	free(rest);
	html_prompts(sb, json_object_get(f, "new_prompts"));
	part(sb, "gone", count(f, "gone"), "symbols the new tree does not define");
	html_gone(sb, json_object_get(f, "gone"));
	part(sb, "changed", count(f, "changed"), "symbols olddefconfig gives another value");
	html_changed(sb, json_object_get(f, "changed"));
	part(sb, "stop applying", count(f, "stop_applying"), "fragment lines the new tree's audit "
	     "misses");
	html_stop_applying(sb, sa);
	part(sb, "boot", count(f, "boot_differences"), "CPU models whose boots differ");
	html_boot(sb, json_object_get(f, "boot"));
	sb_add(sb, "</section>\n");
}

static char *html(json_t *flavours, const char *from, const char *to)
{
	static const char *const keys[] = { "new_prompts", "undecided", "gone", "changed",
					    "stop_applying", "boot_differences" };
	static const char *const head[] = { "flavour", "new prompts", "undecided", "gone",
					    "changed", "stop applying", "boot diffs", NULL };
	static const char *const pill[][2] = {
		{ "new prompt", "new prompts" }, { "needs a decision", "need a decision" },
		{ "gone", "gone" }, { "changed", "changed" }, { "stops applying", "stop applying" },
		{ "boot difference", "boot differences" },
	};
	size_t n = json_array_size(flavours), i;
	char *title = kf_xasprintf("kflavour upgrade %s → %s", from, to);
	char *sub = kf_xasprintf("out/upgrade/%s-%s · each flavour's final %s config carried "
				 "to the %s tree", from, to, from, to);
	struct strbuf sb = { 0 };
	json_t *f;

	page_begin(&sb, title, sub);
	page_pill(&sb, n, "flavour", "flavours");
	for (size_t k = 0; k < 6; k++) {
		long long sum = 0;

		for (i = 0; i < n; i++)
			sum += count(json_array_get(flavours, i), keys[k]);
		page_pill(&sb, (size_t)sum, pill[k][0], pill[k][1]);
	}
	page_main(&sb);
	sb_add(&sb, "<section id=\"upgrade\"><h2>Counts per flavour</h2><p class=\"note\">"
		"The new tree's new prompts and how many no fragment decides, symbols gone "
		"and changed, fragment lines that stop applying, CPU models whose boots differ "
		"(<code>docs/upgrade.md</code>).</p>\n");
	table(&sb, head);
	for (i = 0; i < n && (f = json_array_get(flavours, i)); i++) {
		sb_wrap(&sb, "<tr><td><a href=\"#f-", str(f, "flavour"), "\">");
		sb_wrap(&sb, "", str(f, "flavour"), "</a></td>");
		for (size_t k = 0; k < 6; k++)
			sb_addf(&sb, "<td class=\"num\">%lld</td>", count(f, keys[k]));
		sb_add(&sb, "</tr>\n");
	}
	sb_add(&sb, "</table></section>\n");
	for (i = 0; i < n && (f = json_array_get(flavours, i)); i++)
		html_flavour(&sb, f, i);
	page_end(&sb, "kflavour upgrade · one self-contained file, no scripts · data: "
		 "<code>upgrade.json</code> (schema <code>upgrade/upgrade.schema.json</code>)");
	free(title);
	free(sub);
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
