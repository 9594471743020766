// SPDX-License-Identifier: GPL-2.0
/*
 * kdiff.c - the config difference of two flavours (make diffconfig).
 *
 * A few dozen differences (debian-cloud against debian-cloud-mpsc) are
 * listed in full, in the format of the tree's scripts/diffconfig:
 *   -SYM old        only in a      +SYM new        only in b
 *    SYM old -> new                changed
 * Thousands (a tiny flavour against debian-amd64) would be a wall of text:
 * they are summarised by Kconfig menu, two levels deep ("Device Drivers >
 * Network device support"), with counts, largest first; the JSON has every
 * symbol with its menu. A value "is not set" and an absent one are the same
 * (n), as for the audit.
 */
#include "../lib/kf.h"
#include "../lib/record.h"
#include "fragment.h"
#include "kdiff.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lkc.h>
#include <list.h>

#define MENU_DEPTH 2
#define MENU_ROWS 25	/* menus shown; the rest are one line (all in the JSON) */

struct diff {
	const char *name;
	const char *va, *vb;	/* as written: "n" for "is not set"; NULL: absent */
	int on_a, on_b;		/* set to something other than n */
	char *menu;
};

struct count {
	char *menu;
	size_t n, removed, added, changed;
};

static const char *raw(const struct kf_fragset *fs, const char *name)
{
	const struct kf_setting *s = kf_fragset_find(fs, name);

	return s ? s->value : NULL;
}

static int on(const char *v)
{
	return v && strcmp(v, "n") != 0;
}

/* Different once "is not set" and absent count as the same n. */
static int differ(const char *va, const char *vb)
{
	if (!on(va) || !on(vb))
		return on(va) != on(vb);
	return !kf_value_equal(va, vb);
}

/* The symbol's first definition's menus (real menus and menuconfig
 * symbols), the outermost MENU_DEPTH of them, joined with " > ". */
static char *menu_path(const char *name)
{
	struct symbol *sym = sym_find(name);
	struct menu *m = NULL, *p;
	const char *chain[64];
	size_t n = 0, i;
	struct strbuf sb = { 0 };

	if (!sym)
		return kf_xstrdup("(not a symbol of this tree)");
#ifdef KF_SYM_MENUS
	if (!list_empty(&sym->menus))
		m = list_first_entry(&sym->menus, struct menu, link);
#else
	{
		struct property *prop;

		for_all_properties(sym, prop, P_SYMBOL) {
			m = prop->menu;
			break;
		}
	}
#endif
	if (!m)
		return kf_xstrdup("(not a symbol of this tree)");
	for (p = m->parent; p && p != &rootmenu; p = p->parent)
		if (p->prompt && p->prompt->type == P_MENU && n < 64)
			chain[n++] = p->prompt->text;
	if (!n)
		return kf_xstrdup("(top level)");
	for (i = 0; i < n && i < MENU_DEPTH; i++) {
		if (i)
			sb_add(&sb, " > ");
		sb_add(&sb, chain[n - 1 - i]);
	}
	return sb.s;
}

static int by_name(const void *x, const void *y)
{
	return strcmp(((const struct diff *)x)->name, ((const struct diff *)y)->name);
}

static int by_count(const void *x, const void *y)
{
	const struct count *a = x, *b = y;

	if (a->n != b->n)
		return a->n < b->n ? 1 : -1;
	return strcmp(a->menu, b->menu);
}

static void add_diff(struct diff **v, size_t *n, const char *name,
		     const char *va, const char *vb)
{
	*v = kf_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = (struct diff){ .name = name, .va = va, .vb = vb,
				      .on_a = on(va), .on_b = on(vb), .menu = menu_path(name) };
}

static struct count *count_by_menu(const struct diff *d, size_t nd, size_t *nc)
{
	struct count *c = NULL;
	size_t i, j;

	*nc = 0;
	for (i = 0; i < nd; i++) {
		for (j = 0; j < *nc && strcmp(c[j].menu, d[i].menu) != 0; j++)
			;
		if (j == *nc) {
			c = kf_xrealloc(c, (*nc + 1) * sizeof(*c));
			c[(*nc)++] = (struct count){ .menu = d[i].menu };
		}
		c[j].n++;
		if (!d[i].on_b)
			c[j].removed++;
		else if (!d[i].on_a)
			c[j].added++;
		else
			c[j].changed++;
	}
	if (c)
		qsort(c, *nc, sizeof(*c), by_count);
	return c;
}

static void print_one(const struct diff *d)
{
	if (!d->vb)
		printf("-%s %s\n", d->name, d->va);
	else if (!d->va)
		printf("+%s %s\n", d->name, d->vb);
	else
		printf(" %s %s -> %s\n", d->name, d->va, d->vb);
}

static int write_json(const char *path, const char *la, const char *lb,
		      const struct diff *d, size_t nd, const struct count *c, size_t nc)
{
	json_t *root = json_object(), *menus = json_array(), *syms = json_array();
	size_t i;
	int rc;

	for (i = 0; i < nc; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "menu", json_string(c[i].menu));
		json_object_set_new(o, "count", json_integer((json_int_t)c[i].n));
		json_object_set_new(o, "removed", json_integer((json_int_t)c[i].removed));
		json_object_set_new(o, "added", json_integer((json_int_t)c[i].added));
		json_object_set_new(o, "changed", json_integer((json_int_t)c[i].changed));
		json_array_append_new(menus, o);
	}
	for (i = 0; i < nd; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "symbol", json_string(d[i].name));
		json_object_set_new(o, "a", d[i].va ? json_string(d[i].va) : json_null());
		json_object_set_new(o, "b", d[i].vb ? json_string(d[i].vb) : json_null());
		json_object_set_new(o, "change", json_string(!d[i].on_b ? "-" : !d[i].on_a ? "+" : "changed"));
		json_object_set_new(o, "menu", json_string(d[i].menu));
		json_array_append_new(syms, o);
	}
	json_object_set_new(root, "a", json_string(la));
	json_object_set_new(root, "b", json_string(lb));
	json_object_set_new(root, "differences", json_integer((json_int_t)nd));
	json_object_set_new(root, "by_menu", menus);
	json_object_set_new(root, "symbols", syms);
	rc = kf_record_write(root, path);
	json_decref(root);
	return rc;
}

long kf_kdiff(const char *a, const char *b, const char *la, const char *lb,
	      const char *json, size_t full_max)
{
	struct kf_fragset fa, fb;
	struct diff *d = NULL;
	struct count *c;
	size_t nd = 0, nc, i;
	long rc;

	kf_fragset_init(&fa);
	kf_fragset_init(&fb);
	kf_fragset_add(&fa, a, NULL);
	kf_fragset_add(&fb, b, NULL);
	if (fa.nerr || fb.nerr) {
		kf_warn("%s; both must be configs written by kconfig",
			fa.nerr ? fa.err[0] : fb.err[0]);
		kf_fragset_free(&fa);
		kf_fragset_free(&fb);
		return -1;
	}
	for (i = 0; i < fa.nset; i++) {
		const char *vb = raw(&fb, fa.set[i].name);

		if (differ(fa.set[i].value, vb))
			add_diff(&d, &nd, fa.set[i].name, fa.set[i].value, vb);
	}
	for (i = 0; i < fb.nset; i++)
		if (!raw(&fa, fb.set[i].name) && on(fb.set[i].value))
			add_diff(&d, &nd, fb.set[i].name, NULL, fb.set[i].value);
	if (d)
		qsort(d, nd, sizeof(*d), by_name);
	c = count_by_menu(d, nd, &nc);
	if (nd <= full_max) {
		for (i = 0; i < nd; i++)
			print_one(&d[i]);
		printf("# %zu difference%s\n", nd, nd == 1 ? "" : "s");
	} else {
		printf("# %zu differences, more than %zu: by Kconfig menu (-: on in %s only, +: on in %s only, changed value)%s%s\n",
		       nd, full_max, la, lb, json ? "; every symbol: " : "", json ? json : "");
		printf("%7s %7s %7s %7s  %s\n", "count", "-", "+", "changed", "menu");
		size_t rest = 0;

		for (i = 0; i < nc; i++)
			if (i < MENU_ROWS)
				printf("%7zu %7zu %7zu %7zu  %s\n", c[i].n, c[i].removed,
				       c[i].added, c[i].changed, c[i].menu);
			else
				rest += c[i].n;
		if (nc > MENU_ROWS)
			printf("%7zu %23s  (%zu more menus, each smaller)\n", rest, "", nc - MENU_ROWS);
	}
	rc = (long)nd;
	if (json && write_json(json, la, lb, d, nd, c, nc) < 0) {
		kf_warn("%s: %s", json, strerror(errno));
		rc = -1;
	}
	for (i = 0; i < nd; i++)
		free(d[i].menu);
	free(d);
	free(c);
	kf_fragset_free(&fa);
	kf_fragset_free(&fb);
	return rc;
}
