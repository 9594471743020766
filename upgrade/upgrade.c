// SPDX-License-Identifier: GPL-2.0
/*
 * upgrade - what moving one flavour's config to a new kernel tree does.
 *
 *   upgrade --srctree NEW --flavour NAME --old OLD.config --carried CARRIED
 *           --newprompts LIST --json OUT.json [--undecided OUT.config]
 *           [--audit CONFIG.json] [--old-boot DIR --new-boot DIR]
 *           [--renames FILE] [--old-fragments "F..."] [FRAGMENT...]
 *
 * OLD is the flavour's final config on the old tree; CARRIED is what the new
 * tree's olddefconfig makes of it, and LIST what the new tree's own
 * listnewconfig printed for it (upgrade/carry.sh makes both). This tool
 * parses NEW's Kconfig with the tree's own kconfig (linked from the tree's
 * scripts/kconfig objects, as config/audit.c is), reads CARRIED with it and
 * writes one flavour's part of the upgrade report (upgrade/upgrade.schema.json,
 * "flavours" items):
 * - new prompts: LIST, each with its prompt, menu, CARRIED's value and the
 *   FRAGMENT line (new tree's fragments) that decides it, if any;
 * - gone: symbols set in OLD that NEW does not define, with the successor
 *   from fragments/renames and the fragment lines that request them;
 * - changed: symbols in OLD that NEW defines whose value CARRIED differs,
 *   with the reason kconfig gives (select, dependency, default, choice);
 * - stop applying: the new tree's audit (CONFIG.json), as the audit wrote it;
 * - boot: verdicts and probe facts that differ between OLD-BOOT/<cpu>.json
 *   and NEW-BOOT/<cpu>.json, current boots only (lib/records.h: a boot of
 *   an earlier bzImage than build.json's beside OLD-BOOT/NEW-BOOT is left out).
 * Exit 0 when the report was written, 2 on a usage or input error.
 */
#include "../lib/kf.h"
#include "../lib/records.h"
#include "../lib/fragment.h"
#include "../lib/renames.h"
#include "../lib/kconf.h"

#include <errno.h>
#include <getopt.h>
#include <fcntl.h>
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The tree's kconfig (-isystem $(src)/scripts/kconfig and scripts/include). */
#include <lkc.h>
#include <list.h>

struct opts {
	const char *srctree, *flavour, *old, *carried, *newprompts, *json;
	const char *undecided, *audit, *old_boot, *new_boot, *renames;
	const char *old_fragments;	/* space-separated */
	char **fragments;		/* the new tree's, NULL-terminated */
};

static void usage(void)
{
	kf_die(2, "usage: upgrade --srctree NEW --flavour NAME --old OLD.config --carried CARRIED.config\n"
	       "               --newprompts LIST --json OUT.json [--undecided OUT.config] [--audit CONFIG.json]\n"
	       "               [--old-boot DIR --new-boot DIR] [--renames FILE] [--old-fragments \"F...\"] [FRAGMENT...]");
}

/* ---- what kconfig knows of a symbol ---------------------------------- */

/* The first menu entry of sym with a prompt, or NULL. */
static struct menu *prompt_menu(struct symbol *sym)
{
	struct menu **v = kf_sym_menus(sym), **m, *found = NULL;

	for (m = v; *m && !found; m++)
		if ((*m)->prompt)
			found = *m;
	free(v);
	return found;
}

static json_t *lines_json(const char *text)
{
	json_t *a = json_array();
	const char *p;

	for (p = text; *p;) {
		size_t n = strcspn(p, "\n");

		json_array_append_new(a, json_stringn(p, n));
		p += n + (p[n] == '\n');
	}
	return a;
}

/* ---- the sections ---------------------------------------------------- */

struct ctx {
	const struct opts *o;
	struct kf_fragset old, carried, req, oldreq;
	struct kf_renames renames;
	size_t nundecided;
};

/* A config read as a fragment; a problem in it is an input error. */
static void read_config(struct kf_fragset *fs, const char *path, const char *what)
{
	if (access(path, R_OK) < 0)
		kf_die(2, "%s %s: %s", what, path, strerror(errno));
	kf_fragset_add(fs, path, NULL);
	if (fs->nerr)
		kf_die(2, "%s (%zu problem(s) in all); %s must be a config written by kconfig",
		       fs->err[0], fs->nerr, what);
}

/* A symbol's value in a config read as a fragment: "n" when absent. */
static const char *value_in(const struct kf_fragset *fs, const char *name)
{
	const struct kf_setting *s = kf_fragset_find(fs, name);

	return s ? s->value : "n";
}

static json_t *request_json(const struct kf_setting *s)
{
	char *setting = kf_setting_line(s->name, s->value);
	json_t *j = json_sprintf("%s:%d: %s", s->file, s->line, setting);

	free(setting);
	return j;
}

/* "PAGE_TABLE_ISOLATION=y": the old config's settings of the symbols that
 * fragments/renames names this one the successor of; NULL when none. */
static char *predecessors(const struct ctx *c, const char *name)
{
	struct strbuf sb = { 0 };
	size_t i;

	for (i = 0; i < c->renames.n; i++) {
		const struct kf_rename *r = &c->renames.v[i];
		const struct kf_setting *s = kf_fragset_find(&c->old, r->old);

		if (!r->succ || strcmp(r->succ, name) != 0 || !s)
			continue;
		sb_addf(&sb, "%s%s=%s", sb.s ? ", " : "", s->name, s->value);
	}
	return sb.s;
}

static json_t *new_prompts(struct ctx *c, struct strbuf *undecided)
{
	char *text = kf_read_file(c->o->newprompts, NULL), *line, *next, err[1024];
	json_t *a = json_array();
	int lineno = 0;
	struct kf_config menus;	/* CARRIED, for each prompt's menu */

	if (!text)
		kf_die(2, "--newprompts %s: %s", c->o->newprompts, strerror(errno));
	if (kf_config_read(&menus, c->o->carried, NULL, err, sizeof(err)) < 0)
		kf_die(2, "%s; --carried must be a config written by kconfig", err);
	for (line = text; line && *line; line = next) {
		const char *menu;
		char *name;
		struct kf_line l;
		struct symbol *sym;
		struct menu *pm;
		const struct kf_setting *dec;
		const char *value, *prompt;
		char *was;
		json_t *o;

		next = kf_cut_line(line);
		lineno++;
		if (kf_parse_line(line, &l, err, sizeof(err)) < 0)
			kf_die(2, "%s:%d: %s; it must be the output of the tree's make listnewconfig",
			       c->o->newprompts, lineno, err);
		if (l.kind != KF_LINE_SET && l.kind != KF_LINE_UNSET)
			continue;
		name = kf_xstrndup(l.name, l.name_len);
		sym = sym_find(name);
		pm = kf_sym_known(sym) ? prompt_menu(sym) : NULL;
		prompt = pm ? menu_get_prompt(pm) : "";
		menu = kf_config_menu(&menus, name);
		if (!menu)
			menu = "(not in the carried config)";
		value = value_in(&c->carried, name);
		dec = kf_fragset_find(&c->req, name);
		o = json_object();
		json_object_set_new(o, "symbol", json_string(name));
		json_object_set_new(o, "prompt", json_string(prompt));
		json_object_set_new(o, "menu", json_string(menu));
		json_object_set_new(o, "type", json_string(kf_sym_known(sym) ? sym_type_name(sym->type) : "unknown"));
		json_object_set_new(o, "value", json_string(value));
		json_object_set_new(o, "decided_by", dec ? request_json(dec) : json_null());
		was = predecessors(c, name);
		json_object_set_new(o, "was", was ? json_string(was) : json_null());
		json_array_append_new(a, o);
		if (!dec) {
			char *setting = kf_setting_line(name, value);

			c->nundecided++;
			sb_addf(undecided, "# %s [%s]\n", prompt, menu);
			if (was)
				sb_addf(undecided, "# the old config had %s (fragments/renames)\n", was);
			sb_addf(undecided, "%s\n", setting);
			free(setting);
		}
		free(was);
		free(name);
	}
	kf_config_free(&menus);
	free(text);
	return a;
}

static json_t *gone(struct ctx *c)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < c->old.nset; i++) {
		const struct kf_setting *s = &c->old.set[i];
		const struct kf_setting *r;
		const struct kf_rename *rn;
		json_t *o, *by;

		if (strcmp(s->value, "n") == 0 || kf_sym_known(sym_find(s->name)))
			continue;
		rn = kf_renames_find(&c->renames, s->name);
		o = json_object();
		by = json_array();
		r = kf_fragset_find(&c->oldreq, s->name);
		if (r)
			json_array_append_new(by, request_json(r));
		r = kf_fragset_find(&c->req, s->name);
		if (r)
			json_array_append_new(by, request_json(r));
		json_object_set_new(o, "symbol", json_string(s->name));
		json_object_set_new(o, "old", json_string(s->value));
		json_object_set_new(o, "successor", rn && rn->succ ? json_string(rn->succ) : json_null());
		json_object_set_new(o, "note", json_string(rn ? rn->why : "none known (no line in fragments/renames)"));
		json_object_set_new(o, "requested_by", by);
		json_array_append_new(a, o);
	}
	return a;
}

/* Why CARRIED's value of sym differs from old: kind and one-line reason,
 * kconfig's view in d. */
static const char *why_changed(struct symbol *sym, const char *old, enum kf_value_kind vkind,
			       const char *now, char **reason, struct gstr *d)
{
	struct menu *pm = prompt_menu(sym);

	sym_calc_value(sym);
	if (kf_sym_is_bool(sym) != (vkind == KF_VAL_TRI) ||
	    (sym->type == S_STRING && vkind != KF_VAL_STR)) {
		*reason = kf_xasprintf("now %s %s: the old value %s is not one of its values",
				       sym->type == S_INT ? "an" : "a", sym_type_name(sym->type), old);
		kf_explain_prompts(d, sym);
		kf_explain_defaults(d, sym);
		return "type";
	}
	if (kf_sym_is_bool(sym) && sym->rev_dep.tri > kf_tri_of(old)) {
		*reason = kf_xasprintf("now selected by an option that is on, which forces it to %s", now);
		kf_explain_selects(d, sym, 0);
		return "selected";
	}
	if (!pm) {
		*reason = kf_xasprintf("no prompt in the new tree: its defaults and selects give %s", now);
		kf_explain_defaults(d, sym);
		kf_explain_selects(d, sym, 0);
		return "default";
	}
	if (sym->visible == no || (kf_sym_is_bool(sym) && sym->visible < kf_tri_of(old))) {
		*reason = kf_xasprintf("its dependencies in the new tree are not met (below), so %s is %s",
				       sym->name, now);
		kf_explain_prompts(d, sym);
		if (!kf_sym_is_bool(sym))
			kf_explain_defaults(d, sym);
		return "depends";
	}
	if (sym_is_choice_value(sym)) {
		struct menu *ch = kf_choice_of(sym);
		struct symbol *w = ch ? kf_choice_winner(ch) : NULL;

		*reason = kf_xasprintf("a value of the choice \"%s\", which the new tree settles on %s [=y]",
				       ch ? menu_get_prompt(ch) : "?", w ? w->name : "none");
		kf_explain_prompts(d, sym);
		return "choice";
	}
	if (sym->type == S_INT || sym->type == S_HEX) {
		struct property *p = sym_get_range_prop(sym);

		if (p) {
			*reason = kf_xasprintf("%s is outside the new tree's range, so olddefconfig used %s",
					       old, now);
			kf_explain_dep(d, p->expr, "Range: ");
			kf_explain_defaults(d, sym);
			return "range";
		}
	}
	*reason = kf_xstrdup("kconfig gives no single reason: look at the symbol with make menuconfig kver=<to>");
	kf_explain_prompts(d, sym);
	kf_explain_defaults(d, sym);
	return "unknown";
}

static json_t *changed(struct ctx *c)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < c->old.nset; i++) {
		const struct kf_setting *s = &c->old.set[i];
		struct symbol *sym = sym_find(s->name);
		const struct kf_setting *cs;
		const char *now, *kind;
		struct gstr d;
		char *reason = NULL;
		json_t *o;

		if (!kf_sym_known(sym))
			continue;
		cs = kf_fragset_find(&c->carried, s->name);
		now = cs ? cs->value : kf_sym_is_bool(sym) ? "n" : "(not set)";
		if (strcmp(now, s->value) == 0)
			continue;
		d = str_new();
		kind = why_changed(sym, s->value, s->vkind, now, &reason, &d);
		o = json_object();
		json_object_set_new(o, "symbol", json_string(s->name));
		json_object_set_new(o, "old", json_string(s->value));
		json_object_set_new(o, "new", json_string(now));
		json_object_set_new(o, "kind", json_string(kind));
		json_object_set_new(o, "reason", json_string(reason));
		json_object_set_new(o, "detail", lines_json(str_get(&d)));
		json_array_append_new(a, o);
		str_free(&d);
		free(reason);
	}
	return a;
}

/* The new tree's audit, as config/audit.c wrote it; null when not run. */
static json_t *stop_applying(const struct opts *o)
{
	struct kf_config_rec audit;
	json_t *r, *errors = json_array(), *misses = json_array();

	/* None given (old=) or none written: every field missing, "ok" null. */
	kf_config_rec_read(&audit, o->audit ? o->audit : "",
			   o->audit && !access(o->audit, F_OK) ? KF_MUST : KF_QUIET,
			   "it must be the config.json the audit wrote");
	for (size_t i = 0; i < audit.nerrors; i++)
		json_array_append_new(errors, json_string(audit.errors[i]));
	for (size_t i = 0; i < audit.nmisses; i++)
		json_array_append_new(misses, kf_miss_json(&audit.misses[i]));
	r = json_pack("{s:o, s:o, s:o, s:o}", "audit", o->audit ? json_string(o->audit) : json_null(),
		      "ok", audit.ok < 0 ? json_null() : json_boolean(audit.ok),
		      "errors", errors, "misses", misses);
	kf_config_rec_free(&audit);
	return r;
}

static void add_fact(json_t *facts, const char *key, const char *old, const char *now)
{
	json_array_append_new(facts, json_pack("{s:s, s:s?, s:s?}", "fact", key, "old", old,
					       "new", now));
}

/* The probe facts of two boot records that differ, or one lacks. */
static json_t *facts_diff(const struct kf_boot_rec *ra, const struct kf_boot_rec *rb)
{
	json_t *facts = json_array();

	for (size_t i = 0; i < rb->nfacts; i++) {
		const char *x = kf_boot_fact(ra, rb->facts[i].key);

		if (!x || strcmp(x, rb->facts[i].val) != 0)
			add_fact(facts, rb->facts[i].key, x, rb->facts[i].val);
	}
	for (size_t i = 0; i < ra->nfacts; i++)
		if (!kf_boot_fact(rb, ra->facts[i].key))
			add_fact(facts, ra->facts[i].key, ra->facts[i].val, NULL);
	return facts;
}

/* The current boots (lib/records.h) of the flavour whose boot folder is
 * boot_dir (<flavour>/boot, its build.json in <flavour>). */
static void current_boots(struct kf_boots *bs, const char *boot_dir)
{
	char *dir = kf_xstrdup(boot_dir), *slash = strrchr(dir, '/'), *bp;
	struct kf_build_rec build;

	if (slash)
		*slash = '\0';
	bp = kf_xasprintf("%s/build.json", slash ? dir : ".");
	kf_build_rec_read(&build, bp, KF_QUIET, "treated as missing");
	kf_boots_load(bs, slash ? dir : ".", &build, NULL, 0);
	kf_build_rec_free(&build);
	free(bp);
	free(dir);
}

/* Verdict and probe facts of each CPU model booted on both trees. */
static json_t *boot_diff(const struct opts *o)
{
	json_t *a = json_array();
	struct kf_boots old, now;

	if (!o->old_boot || !o->new_boot)
		return a;
	current_boots(&old, o->old_boot);
	current_boots(&now, o->new_boot);
	for (size_t i = 0; i < now.ncur; i++) {
		const struct kf_boot_rec *rb = &now.cur[i], *ra = NULL;

		for (size_t k = 0; k < old.ncur && !ra; k++)
			if (rb->cpu && old.cur[k].cpu && !strcmp(rb->cpu, old.cur[k].cpu))
				ra = &old.cur[k];
		if (ra)
			json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:o}", "cpu", rb->cpu,
				"old_verdict", ra->verdict ? ra->verdict : "",
				"new_verdict", rb->verdict ? rb->verdict : "",
				"facts", facts_diff(ra, rb)));
	}
	kf_boots_free(&old);
	kf_boots_free(&now);
	return a;
}

/* A boot comparison that shows anything: verdict or a fact differs. */
static size_t boot_differences(json_t *boot)
{
	size_t i, n = 0;
	json_t *e;

	for (i = 0; i < json_array_size(boot) && (e = json_array_get(boot, i)); i++)
		if (strcmp(kf_json_str(e, "old_verdict"), kf_json_str(e, "new_verdict")) != 0 ||
		    json_array_size(json_object_get(e, "facts")))
			n++;
	return n;
}

static void parse_args(struct opts *o, int argc, char **argv)
{
	/* Every option takes a value; val indexes where it goes. */
	static const struct { struct option opt; size_t off; } opt[] = {
#define OPT(n, f) { { n, required_argument, NULL, 0 }, offsetof(struct opts, f) }
		OPT("srctree", srctree), OPT("flavour", flavour), OPT("old", old),
		OPT("carried", carried), OPT("newprompts", newprompts), OPT("json", json),
		OPT("undecided", undecided), OPT("audit", audit), OPT("old-boot", old_boot),
		OPT("new-boot", new_boot), OPT("renames", renames),
		OPT("old-fragments", old_fragments),
#undef OPT
	};
	struct option opts[sizeof(opt) / sizeof(opt[0]) + 1];
	size_t n = sizeof(opt) / sizeof(opt[0]);
	int k;

	for (size_t i = 0; i < n; i++) {
		opts[i] = opt[i].opt;
		opts[i].val = (int)i;
	}
	memset(&opts[n], 0, sizeof(opts[n]));
	while ((k = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		if (k < 0 || (size_t)k >= n)
			usage();
		*(const char **)((char *)o + opt[k].off) = optarg;
	}
	o->fragments = argv + optind;
	if (!o->srctree || !o->flavour || !o->old || !o->carried || !o->newprompts || !o->json)
		usage();
	if (!o->renames)
		o->renames = "fragments/renames";
}

int main(int argc, char **argv)
{
	struct opts o;
	struct ctx c;
	struct strbuf und = { 0 };
	json_t *root, *np, *g, *ch, *sa, *boot, *counts;
	char *kv, *list, *tok, *save = NULL;
	char **f;

	kf_prog = "upgrade";
	memset(&o, 0, sizeof(o));
	memset(&c, 0, sizeof(c));
	parse_args(&o, argc, argv);
	c.o = &o;
	kf_fragset_init(&c.old);
	kf_fragset_init(&c.carried);
	kf_fragset_init(&c.req);
	kf_fragset_init(&c.oldreq);
	read_config(&c.old, o.old, "--old");
	read_config(&c.carried, o.carried, "--carried");
	for (f = o.fragments; *f; f++)
		kf_fragset_add(&c.req, *f, NULL);
	list = kf_xstrdup(o.old_fragments ? o.old_fragments : "");
	for (tok = strtok_r(list, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		kf_fragset_add(&c.oldreq, tok, NULL);
	free(list);
	/* A fragment problem is the audit's to report (section 4), not ours. */
	kf_renames_read(&c.renames, o.renames, 1);
	kv = kf_kconfig_load(o.srctree, o.carried, NULL);

	sb_addf(&und, "# %s: new prompts of linux %s that no fragment decides (make upgrade write=1).\n"
		"# Each value is what olddefconfig gives; review, then move the lines into fragments/.\n",
		o.flavour, kv);
	np = new_prompts(&c, &und);
	g = gone(&c);
	ch = changed(&c);
	sa = stop_applying(&o);
	boot = boot_diff(&o);

	counts = json_object();
	json_object_set_new(counts, "new_prompts", json_integer((json_int_t)json_array_size(np)));
	json_object_set_new(counts, "undecided", json_integer((json_int_t)c.nundecided));
	json_object_set_new(counts, "gone", json_integer((json_int_t)json_array_size(g)));
	json_object_set_new(counts, "changed", json_integer((json_int_t)json_array_size(ch)));
	json_object_set_new(counts, "stop_applying",
			    json_integer((json_int_t)json_array_size(json_object_get(sa, "misses"))));
	json_object_set_new(counts, "boot_differences", json_integer((json_int_t)boot_differences(boot)));

	root = json_object();
	json_object_set_new(root, "flavour", json_string(o.flavour));
	json_object_set_new(root, "kernelversion", json_string(kv));
	json_object_set_new(root, "old_config", json_string(o.old));
	json_object_set_new(root, "carried_config", json_string(o.carried));
	json_object_set_new(root, "counts", counts);
	json_object_set_new(root, "new_prompts", np);
	json_object_set_new(root, "gone", g);
	json_object_set_new(root, "changed", ch);
	json_object_set_new(root, "stop_applying", sa);
	json_object_set_new(root, "boot", boot);
	if (kf_record_write(root, o.json))
		kf_die(2, "%s: %s", o.json, strerror(errno));
	json_decref(root);
	if (o.undecided && kf_write_atomic(o.undecided, und.s, strlen(und.s)) < 0)
		kf_die(2, "%s: %s", o.undecided, strerror(errno));
	free(und.s);
	free(kv);
	kf_renames_free(&c.renames);
	kf_fragset_free(&c.old);
	kf_fragset_free(&c.carried);
	kf_fragset_free(&c.req);
	kf_fragset_free(&c.oldreq);
	return 0;
}
