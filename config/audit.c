// SPDX-License-Identifier: GPL-2.0
/*
 * audit - check that every value the fragments request is in the final config.
 *
 *   audit --srctree SRC --config FINAL [--json OUT] [--renames FILE]
 *         [--base BASE [--verbose]] [--olddefconfig LOG] FRAGMENT...
 *   audit --srctree SRC --diff A B [--json OUT] [--full N]
 *   audit --srctree SRC --config FINAL --prompts SYMBOL...
 *
 * --prompts prints a JSON object, for each SYMBOL (without CONFIG_): its
 * first prompt (null when it has none: defaults and selects set it) and
 * where it is defined; make bisect names its culprits with it.
 *
 * The fragments alone (their lines, conflicts between them) are checked
 * first, without a tree, by config/lint.c; the audit reports the same
 * problems if it is given such fragments.
 *
 * The full audit also parses SRC's Kconfig with the tree's own kconfig
 * (linked from the tree's scripts/kconfig objects, so it always matches the
 * tree) and reads FINAL with it. Each effective request is compared with the
 * value FINAL's text holds (n, "is not set" and absent are the same); the
 * parsed tree explains the misses, with each symbol's value as kconfig
 * computes it from FINAL. Each request that
 * did not survive gets a block on stderr saying why, in kconfig's terms:
 * unknown symbol (with the fragments/renames hint), no prompt (set by
 * defaults and selects only), the dependency that blocked it, the choice
 * value that won, the select that forced it. Exit 0 when all survived,
 * 1 on a fragment error or a miss, 2 on a usage or I/O error.
 *
 * --olddefconfig first writes FINAL back as 'make olddefconfig' would (the
 * same kconfig: read it, compute every symbol, write it; byte-identical),
 * then audits that: the tree's Kconfig is parsed once per flavour, not
 * twice. Its $(shell,...) macros run the compiler some 60 times per parse,
 * the larger part of a distro flavour's config stage. What kconfig says
 * while reading FINAL ("override: X changes choice state") goes to LOG, as
 * make olddefconfig's output did.
 *
 * --base names the full config the fragments were merged onto (a distro's,
 * recipe key 'base'). Its thousands of values are not requests: a value the
 * fragments do not set again and that did not survive is explained, in
 * the same kconfig terms, but counted, not failed: one summary line per
 * cause on stdout, every value in the JSON's "base" object (and on stderr
 * with --verbose). Values Kconfig computes (no prompt: the toolchain's
 * CC_VERSION_TEXT, GCC_VERSION, PAHOLE_VERSION, ...) are one of the causes.
 *
 * --diff compares two configs (make diffconfig, config/kdiff.c): in full up
 * to N (default KF_DIFF_FULL_MAX) differences, else by Kconfig menu.
 */
#include "../lib/kf.h"
#include "../lib/record.h"
#include "fragment.h"
#include "kconf.h"
#include "kdiff.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The tree's kconfig (-isystem $(src)/scripts/kconfig and scripts/include). */
#include <lkc.h>
#include <list.h>

#define DEFAULT_RENAMES "fragments/renames"

enum why {
	WHY_UNKNOWN,
	WHY_BAD_VALUE,
	WHY_RANGE,
	WHY_NO_PROMPT,
	WHY_CHOICE,
	WHY_SELECTED,
	WHY_DEPENDS,
	WHY_NOT_APPLIED,
};

static const char *const why_names[] = {
	[WHY_UNKNOWN] = "unknown-symbol",
	[WHY_BAD_VALUE] = "bad-value",
	[WHY_RANGE] = "out-of-range",
	[WHY_NO_PROMPT] = "no-prompt",
	[WHY_CHOICE] = "choice",
	[WHY_SELECTED] = "selected",
	[WHY_DEPENDS] = "depends",
	[WHY_NOT_APPLIED] = "not-applied",
};

struct miss {
	const struct kf_setting *req;
	size_t order;		/* index of req->file among the fragments */
	char *final;		/* FINAL's value; NULL when absent (non-bool) */
	enum why why;
	char *reason;		/* one line */
	char *detail;		/* kconfig's view, lines ending in \n; may be "" */
	char *fix;
};

struct audit {
	const char *srctree, *config, *json, *renames_path, *base_path, *diff_b;
	long full_max;
	int verbose;
	struct kf_fragset req;		/* what the fragments request */
	struct kf_fragset base;		/* the base config's values (--base) */
	struct miss *lost;		/* base values not kept, nor set by fragments */
	size_t nlost, noverridden;
	struct kf_fragset final;	/* FINAL, read as a fragment */
	struct kf_renames renames;
	struct miss *miss;
	size_t nmiss;
	char *kernelversion;		/* e.g. 6.1.192 */
	char *kver;			/* e.g. 6.1 (fragments/<kver>/) */
};

static void usage(void)
{
	kf_die(2, "usage: audit --srctree SRC --config FINAL [--json OUT.json] [--renames FILE]\n"
	       "             [--base BASE [--verbose]] [--olddefconfig LOG] FRAGMENT...\n"
	       "       audit --srctree SRC --diff A B [--json OUT.json] [--full N]\n"
	       "       audit --srctree SRC --config FINAL --prompts SYMBOL...");
}

/* ---- comparing one request with FINAL -------------------------------- */

/* The tree's version, then its Kconfig with FINAL read into it. */
static void load_tree(struct audit *a)
{
	a->kernelversion = kf_tree_version(a->srctree, &a->kver);
	kf_kconfig_load(a->srctree, a->kernelversion, a->config);
}

/* --olddefconfig: load the tree with FINAL, write FINAL back normalised;
 * kconfig's messages meanwhile on LOG, not on the user's terminal. */
static void write_olddefconfig(struct audit *a, const char *log)
{
	int saved, fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0)
		kf_die(2, "--olddefconfig %s: %s", log, strerror(errno));
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	if (saved < 0 || dup2(fd, STDERR_FILENO) < 0)
		kf_die(2, "cannot send kconfig's messages to %s: %s", log, strerror(errno));
	close(fd);
	load_tree(a);
	conf_set_message_callback(NULL);
	fd = conf_write(a->config);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	if (fd)
		kf_die(2, "%s: cannot write it back (olddefconfig): %s", a->config,
		       strerror(errno));
}

static void print_block(const struct miss *m);

static int parse_num(const char *s, int base, long long *v)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	if (base == 16)
		*v = (long long)strtoull(s, &end, 16);
	else
		*v = strtoll(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/* Does FINAL's value (absent: n) satisfy the request r of symbol sym? Values
 * compare as every tool compares them (lib/dotconfig.c); a string symbol of
 * this tree wants a quoted string. */
static int survived(const struct audit *a, const struct kf_setting *r,
		    struct symbol *sym)
{
	const struct kf_setting *f = kf_fragset_find(&a->final, r->name);

	if (!f || strcmp(f->value, "n") == 0)
		return strcmp(r->value, "n") == 0;
	if (kf_sym_known(sym) && sym->type == S_STRING && r->vkind != KF_VAL_STR)
		return 0;
	return kf_value_equal(r->value, f->value);
}

static int has_prompt(struct symbol *sym)
{
	struct menu **v = kf_sym_menus(sym), **m;
	int any = 0;

	for (m = v; *m; m++)
		any |= (*m)->prompt != NULL;
	free(v);
	return any;
}

static const char *type_article(enum symbol_type t)
{
	return t == S_INT ? "an" : "a";
}

static const char *base_name(const char *path)
{
	const char *p = strrchr(path, '/');

	return p ? p + 1 : path;
}

/* Fill m->why, reason, detail and fix for a request that did not survive. */
static void explain(struct audit *a, struct miss *m, struct symbol *sym)
{
	const struct kf_setting *r = m->req;
	struct gstr d = str_new();
	char *reason = NULL, *fix = NULL;
	const char *name = r->name, *type;
	struct menu *choice;
	int up;

	if (!kf_sym_known(sym)) {
		const struct kf_rename *rn = kf_renames_find(&a->renames, name);
		struct symbol *succ = rn && rn->succ ? sym_find(rn->succ) : NULL;

		m->why = WHY_UNKNOWN;
		reason = kf_xasprintf("unknown symbol: the Kconfig of linux %s (ARCH=%s) has no %s",
				      a->kernelversion, getenv("SRCARCH"), name);
		if (rn)
			str_printf(&d, "%s -> %s: %s\n", rn->old,
				   rn->succ ? rn->succ : "(no successor)", rn->why);
		if (rn && rn->succ && kf_sym_known(succ))
			fix = kf_xasprintf("request CONFIG_%s instead (now %s), or drop the line; a change for this tree only goes in fragments/%s/%s",
					   rn->succ, sym_get_string_value(succ), a->kver, base_name(r->file));
		else if (rn)
			fix = kf_xasprintf("drop the line; a change for this tree only goes in fragments/%s/%s",
					   a->kver, base_name(r->file));
		else
			fix = kf_xasprintf("check the spelling (grep -rn '^config %s' in the tree's Kconfig files) or drop the line; if it was renamed, add 'OLD SUCCESSOR WHY' to %s",
					   name, a->renames_path);
		goto out;
	}

	sym_calc_value(sym);
	type = sym_type_name(sym->type);
	kf_explain_defined_at(&d, sym);

	/* A value of the wrong type: kconfig ignored it with a warning. */
	if ((kf_sym_is_bool(sym) && r->vkind != KF_VAL_TRI) ||
	    (sym->type == S_BOOLEAN && strcmp(r->value, "m") == 0) ||
	    (sym->type == S_INT && r->vkind != KF_VAL_DEC && strcmp(r->value, "n") != 0) ||
	    (sym->type == S_HEX && r->vkind != KF_VAL_HEX && r->vkind != KF_VAL_DEC &&
	     strcmp(r->value, "n") != 0) ||
	    (sym->type == S_STRING && r->vkind != KF_VAL_STR && strcmp(r->value, "n") != 0)) {
		m->why = WHY_BAD_VALUE;
		reason = kf_xasprintf("%s is %s %s: %s is not one of its values, so kconfig ignored it",
				      name, type_article(sym->type), type, r->value);
		fix = kf_xstrdup(sym->type == S_BOOLEAN ? "use y or n" :
				 sym->type == S_TRISTATE ? "use y, m or n" :
				 sym->type == S_INT ? "use a decimal number" :
				 sym->type == S_HEX ? "use a 0x hex number" :
				 "put the value in double quotes");
		goto out;
	}
	if (!kf_sym_is_bool(sym) && strcmp(r->value, "n") == 0) {
		m->why = WHY_BAD_VALUE;
		reason = kf_xasprintf("%s is %s %s: 'is not set' only turns off a bool or tristate; %s is written whenever its dependencies are met",
				      name, type_article(sym->type), type, name);
		fix = kf_xstrdup("request the value it should have, or drop the line");
		goto out;
	}
	if (sym->type == S_TRISTATE && strcmp(r->value, "m") == 0 &&
	    modules_sym && sym_get_tristate_value(modules_sym) == no) {
		m->why = WHY_DEPENDS;
		reason = kf_xasprintf("m needs loadable modules, and MODULES is off: a tristate is y or n without them");
		fix = kf_xstrdup("request y, or CONFIG_MODULES=y in an earlier fragment");
		goto out;
	}
	if (sym->type == S_INT || sym->type == S_HEX) {
		struct property *p = sym_get_range_prop(sym);
		int base = sym->type == S_HEX ? 16 : 10;
		long long v, lo, hi;

		if (p && !parse_num(r->value, base, &v) &&
		    !parse_num(sym_get_string_value(p->expr->left.sym), base, &lo) &&
		    !parse_num(sym_get_string_value(p->expr->right.sym), base, &hi) &&
		    (v < lo || v > hi)) {
			m->why = WHY_RANGE;
			reason = kf_xasprintf("%s is outside the range of %s", r->value, name);
			kf_explain_dep(&d, p->expr, "Range : ");
			fix = kf_xstrdup("request a value in the range");
			goto out;
		}
	}

	up = kf_sym_is_bool(sym) && kf_tri_of(r->value) > sym_get_tristate_value(sym);
	if (!has_prompt(sym)) {
		m->why = WHY_NO_PROMPT;
		reason = kf_xasprintf("%s has no prompt: its value comes from defaults/selects, so a fragment cannot set it",
				      name);
		kf_explain_defaults(&d, sym);
		kf_explain_selects(&d, sym, up);
		fix = kf_sym_is_bool(sym) && !up
			? kf_xstrdup("drop the line: kconfig decides this value; change what selects it or its defaults' conditions instead")
			: kf_xstrdup("it follows from other options: request what selects it or what its defaults depend on (above), or drop the line");
		goto out;
	}

	choice = kf_choice_of(sym);
	if (choice) {
		struct symbol *csym = choice->sym, *w;
		const char *prompt = menu_get_prompt(choice);

		sym_calc_value(csym);
		w = kf_choice_winner(choice);
		m->why = WHY_CHOICE;
		if (csym->visible == no) {
			reason = kf_xasprintf("%s is a value of the choice \"%s\", which is not available: its dependencies are not met",
					      name, prompt);
			kf_explain_dep(&d, choice->dep, "Choice depends on: ");
			fix = kf_xstrdup("request what the choice depends on, or drop the line");
		} else if (sym->visible == no) {
			m->why = WHY_DEPENDS;
			reason = kf_xasprintf("%s is a value of the choice \"%s\" but its own dependencies are not met",
					      name, prompt);
			kf_explain_prompts(&d, sym);
			fix = kf_xstrdup("request what it depends on, or another value of the choice");
		} else if (kf_tri_of(r->value) == yes && w && w != sym) {
			const struct kf_setting *ws = kf_fragset_find(&a->req, w->name);

			reason = ws
				? kf_xasprintf("the choice \"%s\" has one value y, and %s [=y] won: %s:%d requests it too",
					       prompt, w->name, ws->file, ws->line)
				: kf_xasprintf("the choice \"%s\" went to %s [=y], its default, instead",
					       prompt, w->name);
			fix = ws ? kf_xasprintf("request one value of \"%s\" only", prompt)
				 : kf_xstrdup("look at the choice's dependencies and defaults with make menuconfig");
		} else if (kf_tri_of(r->value) == no && w == sym) {
			reason = kf_xasprintf("the choice \"%s\" always has one value y, and with no other value requested it stays %s",
					      prompt, name);
			fix = kf_xasprintf("request the value of \"%s\" that should win instead of turning %s off",
					   prompt, name);
		} else {
			reason = kf_xasprintf("%s is a value of the choice \"%s\" (now %s [=y])",
					      name, prompt, w ? w->name : "none");
			kf_explain_prompts(&d, sym);
			fix = kf_xstrdup("look at the choice with make menuconfig");
		}
		goto out;
	}

	if (kf_sym_is_bool(sym) && sym->rev_dep.tri > kf_tri_of(r->value)) {
		m->why = WHY_SELECTED;
		reason = kf_xasprintf("%s is selected by an option that is on, which forces it to %s",
				      name, sym->rev_dep.tri == yes ? "y" : "m");
		kf_explain_selects(&d, sym, 0);
		fix = kf_xstrdup("drop the line, or turn off what selects it (above)");
		goto out;
	}
	if (sym->visible == no || (kf_sym_is_bool(sym) && sym->visible < kf_tri_of(r->value))) {
		m->why = WHY_DEPENDS;
		reason = sym->visible == no
			? kf_xasprintf("%s is blocked by its dependencies: they are not met (below), so its prompt is hidden and kconfig ignores the request%s",
				       name, kf_tri_of(r->value) == no ? " and uses its default" : "")
			: kf_xasprintf("%s is limited to m by its dependencies", name);
		kf_explain_prompts(&d, sym);
		if (kf_tri_of(r->value) == no || !kf_sym_is_bool(sym))
			kf_explain_defaults(&d, sym);
		if (up)
			kf_explain_selects(&d, sym, 1);
		fix = kf_xstrdup("request what it depends on too (in this or an earlier fragment), or drop the line");
		goto out;
	}
	m->why = WHY_NOT_APPLIED;
	reason = kf_xasprintf("kconfig can set %s to %s here, but the merged config has it %s",
			      name, r->value, m->final ? m->final : "unset");
	kf_explain_prompts(&d, sym);
	kf_explain_selects(&d, sym, up);
	fix = kf_xstrdup("look at the merge log (config.log next to the config) and the symbol with make menuconfig");
out:
	m->reason = reason;
	m->fix = fix;
	m->detail = kf_xstrdup(str_get(&d));
	str_free(&d);
}

/* FINAL's value of a request's symbol: NULL when absent (n for a bool). */
static char *final_value(const struct audit *a, struct symbol *sym,
			 const char *name)
{
	const struct kf_setting *f = kf_fragset_find(&a->final, name);

	if (f)
		return kf_xstrdup(f->value);
	if (!kf_sym_known(sym) || kf_sym_is_bool(sym))
		return kf_xstrdup("n");
	return NULL;
}

/* Misses in fragment order, then line order: the order a reader edits. */
static int by_place(const void *x, const void *y)
{
	const struct miss *a = x, *b = y;

	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	return (a->req->line > b->req->line) - (a->req->line < b->req->line);
}

/* r did not survive: append it to v, explained. */
static struct miss *add_miss(struct audit *a, struct miss **v, size_t *n,
			     const struct kf_setting *r, struct symbol *sym)
{
	struct miss *m;

	*v = kf_xrealloc(*v, (*n + 1) * sizeof(**v));
	m = &(*v)[(*n)++];
	*m = (struct miss){ .req = r, .final = final_value(a, sym, r->name) };
	explain(a, m, sym);
	return m;
}

/*
 * The base's values the fragments do not set: each one that did not
 * survive is explained like a miss, into a->lost. Computed symbols and the
 * toolchain's values are among them; none fails the audit.
 */
static void audit_base(struct audit *a)
{
	size_t i;

	for (i = 0; i < a->base.nset; i++) {
		const struct kf_setting *r = &a->base.set[i];
		struct symbol *sym = sym_find(r->name);

		if (kf_fragset_find(&a->req, r->name)) {
			a->noverridden++;
			continue;
		}
		if (kf_sym_known(sym))
			sym_calc_value(sym);
		if (!survived(a, r, sym))
			add_miss(a, &a->lost, &a->nlost, r, sym);
	}
}

/* One line per cause: what a reader of a distro config needs to know. */
static const char *const base_causes[] = {
	[WHY_NO_PROMPT] = "computed by Kconfig (no prompt: toolchain versions, values that follow from other options)",
	[WHY_UNKNOWN] = "not symbols of this tree",
	[WHY_DEPENDS] = "blocked by dependencies the final config does not meet",
	[WHY_SELECTED] = "forced up by a select",
	[WHY_CHOICE] = "choice values another value won",
	[WHY_RANGE] = "outside their range here",
	[WHY_BAD_VALUE] = "values of the wrong type",
	[WHY_NOT_APPLIED] = "changed by olddefconfig",
};

static size_t base_count(const struct audit *a, enum why w)
{
	size_t i, n = 0;

	for (i = 0; i < a->nlost; i++)
		n += a->lost[i].why == w;
	return n;
}

static void print_base_summary(const struct audit *a, const char *flavour)
{
	size_t kept = a->base.nset - a->noverridden - a->nlost;
	unsigned int w;

	printf("  BASE    %s: %zu of %zu base values kept, %zu set by the fragments, %zu not kept%s\n",
	       flavour, kept, a->base.nset, a->noverridden, a->nlost,
	       a->nlost ? " (details: \"base\" in config.json)" : "");
	for (w = 0; w < sizeof(base_causes) / sizeof(base_causes[0]); w++) {
		size_t n = base_count(a, (enum why)w), i, shown = 0;

		if (!n)
			continue;
		printf("  BASE    %5zu %s, e.g.", n, base_causes[w]);
		for (i = 0; i < a->nlost && shown < 3; i++)
			if (a->lost[i].why == (enum why)w) {
				printf(" %s", a->lost[i].req->name);
				shown++;
			}
		printf("%s\n", n > shown ? " ..." : "");
	}
	if (a->verbose)
		for (size_t i = 0; i < a->nlost; i++)
			print_block(&a->lost[i]);
}

static void audit_all(struct audit *a)
{
	size_t i;

	for (i = 0; i < a->req.nset; i++) {
		const struct kf_setting *r = &a->req.set[i];
		struct symbol *sym = sym_find(r->name);
		struct miss *m;

		if (kf_sym_known(sym))
			sym_calc_value(sym);
		if (survived(a, r, sym)) {
			if (!kf_sym_known(sym)) {
				const struct kf_rename *rn = kf_renames_find(&a->renames, r->name);
				char *hint = !rn ? kf_xstrdup("")
					: rn->succ ? kf_xasprintf(" (%s -> %s: %s)", rn->old, rn->succ, rn->why)
					: kf_xasprintf(" (%s: %s)", rn->old, rn->why);

				kf_warn("%s:%d: CONFIG_%s is not a symbol of linux %s, so 'is not set' holds trivially%s; drop the line",
					r->file, r->line, r->name, a->kernelversion, hint);
				free(hint);
			}
			continue;
		}
		m = add_miss(a, &a->miss, &a->nmiss, r, sym);
		while (m->order < a->req.nfiles && a->req.files[m->order] != r->file)
			m->order++;
	}
	qsort(a->miss, a->nmiss, sizeof(*a->miss), by_place);
}

/* ---- output -------------------------------------------------------- */

static void print_block(const struct miss *m)
{
	const char *p;

	fprintf(stderr, "%s: %s:%d: CONFIG_%s=%s requested, final %s%s\n", kf_prog,
		m->req->file, m->req->line, m->req->name, m->req->value,
		m->final ? m->final : "(not set)",
		m->why == WHY_UNKNOWN ? " (no such symbol)" : "");
	fprintf(stderr, "    %s\n", m->reason);
	for (p = m->detail; *p;) {
		size_t n = strcspn(p, "\n");

		fprintf(stderr, "    %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	fprintf(stderr, "    fix: %s\n", m->fix);
}

static json_t *jstr_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *miss_json(const struct miss *m)
{
	json_t *o = json_object(), *detail = json_array();
	const char *p;

	for (p = m->detail; *p;) {
		size_t n = strcspn(p, "\n");

		json_array_append_new(detail, json_stringn(p, n));
		p += n + (p[n] == '\n');
	}
	json_object_set_new(o, "symbol", json_string(m->req->name));
	json_object_set_new(o, "file", json_string(m->req->file));
	json_object_set_new(o, "line", json_integer(m->req->line));
	json_object_set_new(o, "requested", json_string(m->req->value));
	json_object_set_new(o, "final", jstr_or_null(m->final));
	json_object_set_new(o, "reason", json_string(m->reason));
	json_object_set_new(o, "kind", json_string(why_names[m->why]));
	json_object_set_new(o, "detail", detail);
	json_object_set_new(o, "fix", json_string(m->fix));
	return o;
}

/* "base": the base's values and, per cause and one by one, those not kept. */
static json_t *base_json(const struct audit *a)
{
	json_t *o = json_object(), *lost = json_array(), *causes = json_object();
	size_t i;
	unsigned int w;

	for (i = 0; i < a->nlost; i++)
		json_array_append_new(lost, miss_json(&a->lost[i]));
	for (w = 0; w < sizeof(base_causes) / sizeof(base_causes[0]); w++)
		if (base_count(a, (enum why)w))
			json_object_set_new(causes, why_names[w],
					    json_integer((json_int_t)base_count(a, (enum why)w)));
	json_object_set_new(o, "file", json_string(a->base_path));
	json_object_set_new(o, "values", json_integer((json_int_t)a->base.nset));
	json_object_set_new(o, "set_by_fragments", json_integer((json_int_t)a->noverridden));
	json_object_set_new(o, "kept", json_integer((json_int_t)(a->base.nset - a->noverridden - a->nlost)));
	json_object_set_new(o, "not_kept_by_cause", causes);
	json_object_set_new(o, "not_kept", lost);
	return o;
}

/*
 * The CPU the config builds for, from the tree's kconfig when 'loaded'
 * (else null, [] and null): the value set in the "Processor family" choice
 * (found through GENERIC_CPU, one of its values in every tree kflavour
 * knows), all values of that choice (the report groups them as "cpu"),
 * and X86_L1_CACHE_SHIFT.
 */
#define CPU_CHOICE_ANCHOR "GENERIC_CPU"

static void add_name(struct symbol *sym, void *arg)
{
	if (sym->name)
		json_array_append_new(arg, json_string(sym->name));
}

static void cpu_json(json_t *root, int loaded)
{
	struct symbol *anchor = loaded ? sym_find(CPU_CHOICE_ANCHOR) : NULL, *w = NULL;
	struct symbol *shift = loaded ? sym_find("X86_L1_CACHE_SHIFT") : NULL;
	struct menu *choice = anchor ? kf_choice_of(anchor) : NULL;
	json_t *values = json_array(), *jshift = json_null();

	if (choice) {
		w = kf_choice_winner(choice);
		kf_choice_values(choice, add_name, values);
	}
	if (shift && kf_sym_known(shift)) {
		char *end;
		long v;

		sym_calc_value(shift);
		v = strtol(sym_get_string_value(shift), &end, 10);
		if (!*end && end != sym_get_string_value(shift))
			jshift = json_integer(v);
	}
	json_object_set_new(root, "cpu_choice", w && w->name ? json_string(w->name) : json_null());
	json_object_set_new(root, "cpu_choice_values", values);
	json_object_set_new(root, "l1_cache_shift", jshift);
}

/* config.json (config/config.schema.json); the tree loaded when 'loaded'. */
static void write_json(const struct audit *a, const char *flavour, int ok, int loaded)
{
	json_t *root, *frags = json_array(), *misses = json_array(),
	       *errors = json_array();
	size_t i;

	for (i = 0; i < a->req.nfiles; i++)
		json_array_append_new(frags, json_string(a->req.files[i]));
	for (i = 0; i < a->req.nerr; i++)
		json_array_append_new(errors, json_string(a->req.err[i]));
	for (i = 0; i < a->nmiss; i++)
		json_array_append_new(misses, miss_json(&a->miss[i]));
	root = kf_record_new("config", flavour, a->kver, a->kernelversion);
	json_object_set_new(root, "config", json_string(a->config));
	json_object_set_new(root, "fragments", frags);
	json_object_set_new(root, "requested", json_integer((json_int_t)a->req.nset));
	json_object_set_new(root, "errors", errors);
	json_object_set_new(root, "misses", misses);
	json_object_set_new(root, "base", a->base_path ? base_json(a) : json_null());
	cpu_json(root, loaded);
	json_object_set_new(root, "ok", json_boolean(ok));
	if (kf_record_write(root, a->json) < 0)
		kf_die(2, "%s: %s", a->json, strerror(errno));
	json_decref(root);
}

/* basename(dirname(path)): out/6.1/mpsc/.config -> mpsc */
static char *flavour_of(const char *path)
{
	const char *end = strrchr(path, '/'), *start;

	if (!end)
		return kf_xstrdup(".");
	while (end > path && end[-1] == '/')
		end--;
	for (start = end; start > path && start[-1] != '/'; start--)
		;
	return end > start ? kf_xasprintf("%.*s", (int)(end - start), start)
			   : kf_xstrdup("/");
}

static void misses_free(struct miss *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].final);
		free(v[i].reason);
		free(v[i].detail);
		free(v[i].fix);
	}
	free(v);
}

static void audit_free(struct audit *a)
{
	misses_free(a->miss, a->nmiss);
	misses_free(a->lost, a->nlost);
	kf_fragset_free(&a->base);
	kf_fragset_free(&a->req);
	kf_fragset_free(&a->final);
	kf_renames_free(&a->renames);
	free(a->kernelversion);
	free(a->kver);
}

/* --prompts: each symbol's first prompt and definition, as JSON on stdout. */
static int print_prompts(char **names, int n)
{
	json_t *all = json_object();
	char *text;

	for (int i = 0; i < n; i++) {
		struct symbol *sym = sym_find(names[i]);
		struct menu **v, **m;
		const char *prompt = NULL, *file = NULL;
		int line = 0;

		if (!kf_sym_known(sym)) {
			json_object_set_new(all, names[i], json_null());
			continue;
		}
		v = kf_sym_menus(sym);
		for (m = v; *m; m++) {	/* the first definition with a prompt, else the first */
			if (file && (prompt || !(*m)->prompt))
				continue;
			file = MENU_FILE(*m);
			line = (*m)->lineno;
			if ((*m)->prompt)
				prompt = (*m)->prompt->text;
		}
		free(v);
		json_object_set_new(all, names[i], json_pack("{s:o, s:o}",
			"prompt", prompt ? json_string(prompt) : json_null(),
			"defined_at", file ? json_sprintf("%s:%d", file, line) : json_null()));
	}
	text = kf_record_text(all);
	json_decref(all);
	if (!text)
		kf_die(2, "cannot format JSON");
	fputs(text, stdout);
	free(text);
	return 0;
}

/* --diff A B: A is read as --config, so kconfig_load reads it too. */
static int diff_main(struct audit *a)
{
	char *la = flavour_of(a->config), *lb = flavour_of(a->diff_b);
	long n;

	if (!a->srctree)
		usage();
	if (access(a->config, R_OK) < 0 || access(a->diff_b, R_OK) < 0)
		kf_die(2, "--diff %s %s: %s; give two configs to compare", a->config,
		       a->diff_b, strerror(errno));
	load_tree(a);
	n = kf_kdiff(a->config, a->diff_b, la, lb, a->json,
		     a->full_max > 0 ? (size_t)a->full_max : KF_DIFF_FULL_MAX);
	free(la);
	free(lb);
	audit_free(a);
	return n < 0 ? 2 : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "prompts", no_argument, NULL, 'p' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "srctree", required_argument, NULL, 's' },
		{ "config", required_argument, NULL, 'c' },
		{ "json", required_argument, NULL, 'j' },
		{ "renames", required_argument, NULL, 'r' },
		{ "base", required_argument, NULL, 'b' },
		{ "full", required_argument, NULL, 'f' },
		{ "olddefconfig", required_argument, NULL, 'o' },
		{ "diff", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	struct audit a;
	int prompts = 0, i, first, ok, c;
	const char *olddefconfig = NULL;
	char *flavour;
	size_t k;

	kf_prog = "audit";
	memset(&a, 0, sizeof(a));
	kf_fragset_init(&a.req);
	kf_fragset_init(&a.final);
	kf_fragset_init(&a.base);
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'p': prompts = 1; break;
		case 'v': a.verbose = 1; break;
		case 's': a.srctree = optarg; break;
		case 'c': a.config = optarg; break;
		case 'j': a.json = optarg; break;
		case 'r': a.renames_path = optarg; break;
		case 'b': a.base_path = optarg; break;
		case 'f': a.full_max = strtol(optarg, NULL, 10); break;
		case 'o': olddefconfig = optarg; break;
		case 'd':	/* --diff A B: B is the next argument */
			if (optind >= argc)
				usage();
			a.config = optarg;
			a.diff_b = argv[optind++];
			break;
		default: usage();
		}
	}
	first = optind;
	if (a.diff_b)
		return diff_main(&a);
	if (first >= argc || (olddefconfig && prompts) || !a.srctree || !a.config)
		usage();
	if (prompts) {
		if (a.json || a.renames_path)
			usage();
		if (access(a.config, R_OK) < 0)
			kf_die(2, "--config %s: %s", a.config, strerror(errno));
		load_tree(&a);
		ok = print_prompts(argv + first, argc - first);
		audit_free(&a);
		return ok;
	}

	for (i = first; i < argc; i++)
		kf_fragset_add(&a.req, argv[i], NULL);
	for (k = 0; k < a.req.nerr; k++)
		fprintf(stderr, "%s: %s\n", kf_prog, a.req.err[k]);
	if (a.req.nerr) {
		fprintf(stderr, "%s: %zu problem%s in the fragments; nothing was merged\n",
			kf_prog, a.req.nerr, a.req.nerr == 1 ? "" : "s");
		if (a.json) {
			/* The record's header names the tree. */
			a.kernelversion = kf_tree_version(a.srctree, &a.kver);
			write_json(&a, "", 0, 0);
		}
		audit_free(&a);
		return 1;
	}
	kf_renames_read(&a.renames, a.renames_path ? a.renames_path : DEFAULT_RENAMES,
		     a.renames_path != NULL);
	if (!a.renames_path)
		a.renames_path = DEFAULT_RENAMES;
	if (access(a.config, R_OK) < 0)
		kf_die(2, "--config %s: %s; give the merged config to audit",
		       a.config, strerror(errno));
	if (olddefconfig)
		write_olddefconfig(&a, olddefconfig);
	kf_fragset_add(&a.final, a.config, NULL);
	if (a.final.nerr)
		kf_die(2, "%s (%zu problem(s) in all); --config must be a config written by kconfig",
		       a.final.err[0], a.final.nerr);
	if (a.base_path) {
		kf_fragset_add(&a.base, a.base_path, NULL);
		if (a.base.nerr)
			kf_die(2, "%s (%zu problem(s) in all); --base must be a full config (.config)",
			       a.base.err[0], a.base.nerr);
	}
	if (!olddefconfig)
		load_tree(&a);
	audit_all(&a);
	audit_base(&a);

	flavour = flavour_of(a.config);
	ok = a.nmiss == 0;
	for (k = 0; k < a.nmiss; k++)
		print_block(&a.miss[k]);
	if (a.json)
		write_json(&a, flavour, ok, 1);
	if (ok)
		printf("  AUDIT   %s: %zu requested values, all present\n",
		       flavour, a.req.nset);
	else
		fprintf(stderr, "%s: %s: %zu of %zu requested values did not survive the merge (above)\n",
			kf_prog, flavour, a.nmiss, a.req.nset);
	if (a.base_path)
		print_base_summary(&a, flavour);
	free(flavour);
	audit_free(&a);
	return ok ? 0 : 1;
}
