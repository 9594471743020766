// SPDX-License-Identifier: GPL-2.0
/*
 * explain.c - the audit's kconfig half (audit.h): each request compared
 * with the final config, and each one that did not survive explained in
 * kconfig's terms: unknown symbol (with the fragments/renames hint), no
 * prompt (set by defaults and selects only), the dependency that blocked
 * it, the choice value that won, the select that forced it. Needs the
 * tree's Kconfig parsed and FINAL read (kf_kconfig_load).
 */
#include "../lib/kf.h"
#include "../lib/renames.h"
#include "audit.h"
#include "../lib/kconf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static void explain(struct kf_audit *a, struct kf_miss *m, struct symbol *sym)
{
	const struct kf_setting *r = m->req;
	struct gstr d = str_new();
	char *reason = NULL, *fix = NULL;
	const char *name = r->name, *type;
	struct menu *choice;
	int up;

	if (!kf_sym_known(sym)) {
		const struct kf_rename *rn = kf_renames_find(a->renames, name);
		struct symbol *succ = rn && rn->succ ? sym_find(rn->succ) : NULL;

		m->why = KF_WHY_UNKNOWN;
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
		m->why = KF_WHY_BAD_VALUE;
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
		m->why = KF_WHY_BAD_VALUE;
		reason = kf_xasprintf("%s is %s %s: 'is not set' only turns off a bool or tristate; %s is written whenever its dependencies are met",
				      name, type_article(sym->type), type, name);
		fix = kf_xstrdup("request the value it should have, or drop the line");
		goto out;
	}
	if (sym->type == S_TRISTATE && strcmp(r->value, "m") == 0 &&
	    modules_sym && sym_get_tristate_value(modules_sym) == no) {
		m->why = KF_WHY_DEPENDS;
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
			m->why = KF_WHY_RANGE;
			reason = kf_xasprintf("%s is outside the range of %s", r->value, name);
			kf_explain_dep(&d, p->expr, "Range : ");
			fix = kf_xstrdup("request a value in the range");
			goto out;
		}
	}

	up = kf_sym_is_bool(sym) && kf_tri_of(r->value) > sym_get_tristate_value(sym);
	if (!has_prompt(sym)) {
		m->why = KF_WHY_NO_PROMPT;
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
		m->why = KF_WHY_CHOICE;
		if (csym->visible == no) {
			reason = kf_xasprintf("%s is a value of the choice \"%s\", which is not available: its dependencies are not met",
					      name, prompt);
			kf_explain_dep(&d, choice->dep, "Choice depends on: ");
			fix = kf_xstrdup("request what the choice depends on, or drop the line");
		} else if (sym->visible == no) {
			m->why = KF_WHY_DEPENDS;
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
		m->why = KF_WHY_SELECTED;
		reason = kf_xasprintf("%s is selected by an option that is on, which forces it to %s",
				      name, sym->rev_dep.tri == yes ? "y" : "m");
		kf_explain_selects(&d, sym, 0);
		fix = kf_xstrdup("drop the line, or turn off what selects it (above)");
		goto out;
	}
	if (sym->visible == no || (kf_sym_is_bool(sym) && sym->visible < kf_tri_of(r->value))) {
		m->why = KF_WHY_DEPENDS;
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
	m->why = KF_WHY_NOT_APPLIED;
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
static char *final_value(const struct kf_audit *a, struct symbol *sym,
			 const char *name)
{
	const struct kf_setting *f = kf_fragset_find(&a->final, name);

	if (f)
		return kf_xstrdup(f->value);
	if (!kf_sym_known(sym) || kf_sym_is_bool(sym))
		return kf_xstrdup("n");
	return NULL;
}

/* r did not survive: append it to v, explained. */
static void add_miss(struct kf_audit *a, struct kf_miss **v, size_t *n,
		     const struct kf_setting *r, struct symbol *sym)
{
	explain(a, kf_miss_add(v, n, r, final_value(a, sym, r->name)), sym);
}

/* r's symbol (NULL when no Kconfig names it), its value computed; and
 * whether FINAL holds what r asks of it. */
static struct symbol *sym_of(const struct kf_setting *r)
{
	struct symbol *sym = sym_find(r->name);

	if (kf_sym_known(sym))
		sym_calc_value(sym);
	return sym;
}

static int survived(const struct kf_audit *a, const struct kf_setting *r, struct symbol *sym)
{
	return kf_survived(&a->final, r, kf_sym_known(sym) && sym->type == S_STRING);
}

/*
 * The base's values the fragments do not set: each one that did not
 * survive is explained like a miss, into a->lost. Computed symbols and the
 * toolchain's values are among them; none fails the audit.
 */
void kf_audit_base(struct kf_audit *a)
{
	for (size_t i = 0; i < a->base.nset; i++) {
		const struct kf_setting *r = &a->base.set[i];
		struct symbol *sym;

		if (kf_fragset_find(&a->req, r->name)) {
			a->noverridden++;
			continue;
		}
		sym = sym_of(r);
		if (!survived(a, r, sym))
			add_miss(a, &a->lost, &a->nlost, r, sym);
	}
}

void kf_audit_requests(struct kf_audit *a)
{
	for (size_t i = 0; i < a->req.nset; i++) {
		const struct kf_setting *r = &a->req.set[i];
		struct symbol *sym = sym_of(r);

		if (!survived(a, r, sym)) {
			add_miss(a, &a->miss, &a->nmiss, r, sym);
		} else if (!kf_sym_known(sym)) {
			const struct kf_rename *rn = kf_renames_find(a->renames, r->name);
			char *hint;

			/*
			 * fragments/renames says the symbol is gone, with no
			 * successor: the line is for the trees that still have
			 * it (a fragment 6.1 and 6.12 share), not a misspelling.
			 */
			if (rn && !rn->succ)
				continue;
			hint = rn ? kf_xasprintf(" (%s -> %s: %s)", rn->old, rn->succ, rn->why)
				  : kf_xstrdup("");
			kf_warn("%s:%d: CONFIG_%s is not a symbol of linux %s, so 'is not set' holds trivially%s; drop the line",
				r->file, r->line, r->name, a->kernelversion, hint);
			free(hint);
		}
	}
	kf_misses_sort(a);
}
