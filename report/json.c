// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - report.json, built with jansson and written atomically. The
 * shape is report/report.schema.json (docs/report.md); what is missing is
 * null, never 0.
 */
#include "render.h"
#include "../lib/kf.h"
#include "../lib/record.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Edits per log diff kept in the report; the rest is counted. */
#define MAX_EDITS 400

/* A JSON string even from a console's invalid UTF-8 (bytes become '?'). */
static json_t *jtext(const char *s)
{
	json_t *j = json_string(s);
	char *t;

	if (j)
		return j;
	t = kf_xstrdup(s);
	for (char *p = t; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(t);
	free(t);
	return j;
}

json_t *str_or_null(const char *s)
{
	return s ? jtext(s) : json_null();
}

json_t *int_or_null(long long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *tri(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *str_array(char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, jtext(v[i]));
	return a;
}

static json_t *config_obj(const struct flavour *f)
{
	json_t *c;

	if (!f->has_config)
		return json_null();
	c = json_object();
	json_object_set_new(c, "cpu", str_or_null(f->cpu_choice));
	json_object_set_new(c, "l1_cache_bytes", int_or_null(f->l1_bytes));
	json_object_set_new(c, "smt", tri(f->smt));
	json_object_set_new(c, "microcode", tri(f->microcode));
	json_object_set_new(c, "audit", str_or_null(f->audit));
	json_object_set_new(c, "last_attempt_failed", str_or_null(f->config_failed));
	return c;
}

static json_t *build_obj(const struct flavour *f)
{
	json_t *b, *s;

	if (!f->has_build)
		return json_null();
	b = json_object();
	json_object_set_new(b, "release", str_or_null(f->release));
	json_object_set_new(b, "bzimage_bytes", int_or_null(f->bzimage_bytes));
	s = json_object();
	for (size_t i = 0; i < f->nsections; i++)
		json_object_set_new(s, f->sections[i].name,
				    int_or_null(f->sections[i].bytes));
	json_object_set_new(b, "sections", s);
	json_object_set_new(b, "wall_seconds", num_or_null(f->build.wall_seconds));
	json_object_set_new(b, "march", str_or_null(f->march));
	json_object_set_new(b, "mtune", str_or_null(f->mtune));
	json_object_set_new(b, "warnings", int_or_null(f->warned->warnings));
	json_object_set_new(b, "warning_lines", str_array(f->warned->warning_lines, f->warned->nwarning_lines));
	json_object_set_new(b, "code_bytes", int_or_null(f->code_bytes));
	json_object_set_new(b, "compiled", int_or_null(f->build.compiled));
	if (isnan(f->full.wall_seconds)) {
		json_object_set_new(b, "last_full_build", json_null());
	} else {
		json_t *full = json_object();

		json_object_set_new(full, "compiled", int_or_null(f->full.compiled));
		json_object_set_new(full, "wall_seconds", num_or_null(f->full.wall_seconds));
		json_object_set_new(full, "cpu_seconds", num_or_null(f->full.cpu_seconds));
		json_object_set_new(full, "builds_alongside", int_or_null(f->alongside));
		json_object_set_new(b, "last_full_build", full);
	}
	return b;
}

/* Per line size: can two GDTs / a GDT and other data share one line? */
static json_t *share_obj(long line, int gdt_gdt, int gdt_data)
{
	if (line <= 0)
		return json_null();
	return json_pack("{s:I, s:o, s:o}", "line_bytes", (json_int_t)line,
			 "two_gdts", tri(gdt_gdt), "gdt_and_data", tri(gdt_data));
}

static json_t *gdt_obj(const struct gdt_facts *g)
{
	json_t *o;

	if (g->align < 0 && g->size < 0)
		return json_null();
	o = json_object();
	json_object_set_new(o, "align", int_or_null(g->align));
	json_object_set_new(o, "distance", int_or_null(g->distance));
	json_object_set_new(o, "size", int_or_null(g->size));
	json_object_set_new(o, "limit", int_or_null(g->limit));
	json_object_set_new(o, "at_compiled_line",
			    share_obj(g->line_compiled, g->gdt_gdt_compiled, g->gdt_data_compiled));
	json_object_set_new(o, "at_cpu_line",
			    share_obj(g->line_cpu, g->gdt_gdt_cpu, g->gdt_data_cpu));
	return o;
}

static json_t *boot_obj(const struct flavour *f, const struct boot *b)
{
	json_t *o = json_object(), *facts = json_object();
	static const char *const lv_source[] = {
		[LV_NONE] = NULL, [LV_PROBE] = "probe", [LV_COMPUTED] = "computed",
	};

	json_object_set_new(o, "cpu", jtext(b->cpu));
	json_object_set_new(o, "default", json_boolean(f->default_cpu &&
						       !strcmp(f->default_cpu, b->cpu)));
	json_object_set_new(o, "verdict", str_or_null(b->verdict));
	json_object_set_new(o, "expected", str_or_null(b->expected));
	json_object_set_new(o, "as_expected", b->verdict && b->expected ?
			    json_boolean(!strcmp(b->verdict, b->expected)) : json_null());
	json_object_set_new(o, "cache_alignment", int_or_null(b->cache_alignment));
	json_object_set_new(o, "line_verdict", str_or_null(b->line_verdict));
	json_object_set_new(o, "line_verdict_source",
			    str_or_null(lv_source[b->line_verdict_source]));
	json_object_set_new(o, "threads_per_core", int_or_null(b->threads_per_core));
	json_object_set_new(o, "cores", int_or_null(b->cores));
	json_object_set_new(o, "gdt", gdt_obj(&b->gdt));
	json_object_set_new(o, "idle", str_or_null(b->idle));
	json_object_set_new(o, "swiotlb", tri(b->swiotlb));
	json_object_set_new(o, "swiotlb_source", str_or_null(b->swiotlb_source));
	json_object_set_new(o, "swiotlb_bytes", int_or_null(b->swiotlb_bytes));
	json_object_set_new(o, "microcode", str_or_null(b->microcode));
	json_object_set_new(o, "microcode_source", str_or_null(b->microcode_source));
	json_object_set_new(o, "hwalign", int_or_null(b->hwalign));
	json_object_set_new(o, "boot_seconds", num_or_null(b->wall_seconds));
	json_object_set_new(o, "guest_seconds", num_or_null(b->guest_seconds));
	if (b->ktap_passed >= 0 || b->ktap_failed >= 0) {
		json_t *k = json_object();

		json_object_set_new(k, "passed", int_or_null(b->ktap_passed));
		json_object_set_new(k, "failed", int_or_null(b->ktap_failed));
		json_object_set_new(k, "skipped", int_or_null(b->ktap_skipped));
		json_object_set_new(o, "ktap", k);
	} else {
		json_object_set_new(o, "ktap", json_null());
	}
	json_object_set_new(o, "warnings", str_array(b->warnings, b->nwarnings));
	for (size_t i = 0; i < b->nfacts; i++)
		json_object_set_new(facts, b->facts[i].key, jtext(b->facts[i].val));
	json_object_set_new(o, "facts", facts);
	json_object_set_new(o, "log", str_or_null(b->log));
	return o;
}

static json_t *flavour_obj(const struct flavour *f)
{
	json_t *o = json_object(), *boots = json_array();

	json_object_set_new(o, "name", jtext(f->name));
	json_object_set_new(o, "description", str_or_null(f->description));
	json_object_set_new(o, "default_cpu", str_or_null(f->default_cpu));
	json_object_set_new(o, "status", jtext(flavour_status(f)));
	json_object_set_new(o, "fragments", str_array(f->fragments, f->nfragments));
	json_object_set_new(o, "config", config_obj(f));
	json_object_set_new(o, "build", build_obj(f));
	for (size_t i = 0; i < f->nboots; i++)
		json_array_append_new(boots, boot_obj(f, &f->boots[i]));
	json_object_set_new(o, "boots", boots);
	json_object_set_new(o, "stale_boots", str_array(f->stale_boots, f->nstale_boots));
	return o;
}

static json_t *config_diff_arr(const struct report *r)
{
	json_t *a = json_array();

	for (size_t k = 0; k < r->ncdiff; k++) {
		const struct cdiff_sym *s = &r->cdiff[k];
		json_t *o = json_object(), *vals = json_object();

		json_object_set_new(o, "symbol", jtext(s->name));
		json_object_set_new(o, "group", jtext(kc_group_names[s->group]));
		for (size_t i = 0; i < r->nfl; i++) {
			const struct cdiff_cell *c = &s->cell[i];

			json_object_set_new(vals, r->fl[i].name, json_pack("{s:o, s:o, s:o}",
				"value", str_or_null(c->value),
				"fragment", str_or_null(c->fragment),
				"line", c->line > 0 ? json_integer(c->line) : json_null()));
		}
		json_object_set_new(o, "flavours", vals);
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *side(const struct flavour *f, const struct boot *b)
{
	return json_pack("{s:o, s:o, s:o}", "flavour", jtext(f->name), "cpu", jtext(b->cpu),
			 "log", jtext(b->log));
}

static json_t *log_diffs_arr(const struct report *r)
{
	json_t *a = json_array();

	for (size_t k = 0; k < r->nldiff; k++) {
		const struct logdiff *x = &r->ldiff[k];
		json_t *o = json_object(), *lines = json_array();
		size_t n = x->d.n;

		if (n > MAX_EDITS)
			n = MAX_EDITS;
		json_object_set_new(o, "kind", jtext(x->kind == LDK_FLAVOURS ?
							   "flavours" : "cpus"));
		json_object_set_new(o, "a", side(x->fa, x->ba));
		json_object_set_new(o, "b", side(x->fb, x->bb));
		json_object_set_new(o, "removed", json_integer((json_int_t)x->d.removed));
		json_object_set_new(o, "added", json_integer((json_int_t)x->d.added));
		for (size_t i = 0; i < n; i++) {
			char op[2] = { (char)x->d.e[i].op, '\0' };

			json_array_append_new(lines, json_pack("{s:s, s:o}", "op", op,
							       "text", jtext(x->d.e[i].text)));
		}
		json_object_set_new(o, "lines", lines);
		json_object_set_new(o, "truncated", json_integer((json_int_t)(x->d.n - n)));
		json_array_append_new(a, o);
	}
	return a;
}

int json_write(const struct report *r, const char *path)
{
	json_t *root = kf_record_new("report", NULL, r->kver, r->release),
	       *fl = json_array(), *cpus = json_array();
	int rc, e;

	for (size_t i = 0; i < r->ncpus; i++)
		json_array_append_new(cpus, json_pack("{s:o, s:o}", "name", jtext(r->cpus[i].name),
						      "expect", str_or_null(r->cpus[i].expect)));
	json_object_set_new(root, "cpu_models", cpus);
	for (size_t i = 0; i < r->nfl; i++)
		json_array_append_new(fl, flavour_obj(&r->fl[i]));
	json_object_set_new(root, "flavours", fl);
	json_object_set_new(root, "config_diff", config_diff_arr(r));
	json_object_set_new(root, "log_diffs", log_diffs_arr(r));
	rc = kf_record_write(root, path);
	e = errno;
	json_decref(root);
	errno = e;
	return rc;
}
