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
 * Character devices"), with counts, largest first; the JSON has every
 * symbol with its menu. The menu is the one lib/dotconfig.c reads from the
 * configs' own comment blocks (a's, or b's for a symbol only b lists), as
 * the report shows it. A value "is not set" and an absent one are the same
 * (n), as for the audit.
 */
#include "../lib/dotconfig.h"
#include "../lib/kf.h"
#include "../lib/record.h"
#include "kdiff.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MENU_ROWS 25	/* menus shown; the rest are one line (all in the JSON) */

struct diff {
	const char *name;
	const char *va, *vb;	/* as written: "n" for "is not set"; NULL: absent */
	int on_a, on_b;		/* set to something other than n */
	const char *menu;
};

struct count {
	const char *menu;
	size_t n, removed, added, changed;
};

/* Read a config; a problem is printed as every reader's "file:line: what; fix". */
static int read_config(struct kf_config *c, const char *path)
{
	char err[1024];

	if (kf_config_read(c, path, NULL, err, sizeof(err)) == 0)
		return 0;
	kf_warn("%s; both must be configs written by kconfig", err);
	return -1;
}

/* Setting i is the one that counts: no later line sets the symbol again. */
static int last(const struct kf_config *c, size_t i)
{
	return kf_config_find(c, c->sym[i].name) == &c->sym[i];
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
		     const char *va, const char *vb, const char *menu)
{
	*v = kf_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = (struct diff){ .name = name, .va = va, .vb = vb,
				      .on_a = on(va), .on_b = on(vb), .menu = menu };
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
	struct kf_config ca, cb;
	struct diff *d = NULL;
	struct count *c;
	size_t nd = 0, nc, i;
	long rc;

	if (read_config(&ca, a) < 0)
		return -1;
	if (read_config(&cb, b) < 0) {
		kf_config_free(&ca);
		return -1;
	}
	for (i = 0; i < ca.n; i++) {
		const char *name = ca.sym[i].name, *vb = kf_config_get(&cb, name);

		if (last(&ca, i) && differ(ca.sym[i].value, vb))
			add_diff(&d, &nd, name, ca.sym[i].value, vb, kf_config_menu(&ca, name));
	}
	for (i = 0; i < cb.n; i++)
		if (last(&cb, i) && !kf_config_get(&ca, cb.sym[i].name) && on(cb.sym[i].value))
			add_diff(&d, &nd, cb.sym[i].name, NULL, cb.sym[i].value,
				 kf_config_menu(&cb, cb.sym[i].name));
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
	free(d);
	free(c);
	kf_config_free(&ca);
	kf_config_free(&cb);
	return rc;
}
