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

json_t *jstr_or_null(const char *s)
{
	return s ? jtext(s) : json_null();
}

json_t *jint_or_null(long long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

json_t *jnum_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *tri(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

json_t *jstr_array(char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, jtext(v[i]));
	return a;
}

/* config.json's check of what systemd needs; null when it has none. */
static json_t *systemd_obj(const struct kf_sysneeds *d)
{
	json_t *missing = json_array(), *recommended = json_array();

	if (!d->checked) {
		json_decref(missing);
		json_decref(recommended);
		return json_null();
	}
	for (size_t k = 0; k < d->nmissing; k++) {
		const struct kf_sysneed *q = &d->missing[k];

		json_array_append_new(missing, json_pack("{s:o, s:o, s:o, s:o}",
			"symbol", jstr_or_null(q->symbol), "want", jstr_or_null(q->want),
			"final", jstr_or_null(q->final), "menu", jstr_or_null(q->menu)));
	}
	for (size_t k = 0; k < d->nrecommended; k++)
		json_array_append_new(recommended, jstr_or_null(d->recommended[k].symbol));
	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "init", jstr_or_null(d->init),
			 "version", jstr_or_null(d->version), "ok", tri(d->ok),
			 "missing", missing, "recommended_missing", recommended);
}

static json_t *config_obj(const struct flavour *f)
{
	if (!f->has_config)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "cpu", jstr_or_null(f->cpu_choice),
			 "l1_cache_bytes", jint_or_null(f->l1_bytes), "smt", tri(f->smt),
			 "microcode", tri(f->microcode), "audit", jstr_or_null(f->audit),
			 "last_attempt_failed", jstr_or_null(f->config_failed),
			 "systemd", systemd_obj(&f->systemd));
}

/* build.json's ccache, the shared cache's figures without its URL. */
static json_t *ccache_obj(const struct kf_build_rec *b)
{
	const struct kf_ccache_remote *r = &b->remote;
	json_t *remote = !r->has ? json_null() :
		json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "used", tri(r->used),
			  "off_because", jstr_or_null(r->off_because), "hits", jint_or_null(r->hits),
			  "misses", jint_or_null(r->misses), "errors", jint_or_null(r->errors),
			  "timeouts", jint_or_null(r->timeouts), "stored", jint_or_null(r->stored));

	return json_pack("{s:o, s:o, s:o, s:o}", "enabled", tri(b->ccache_enabled),
			 "hits", jint_or_null(b->ccache_hits), "misses", jint_or_null(b->ccache_misses),
			 "remote", remote);
}

static json_t *build_obj(const struct flavour *f)
{
	const struct kf_build_run *w = f->warned;
	json_t *s, *full;

	if (!f->has_build)
		return json_null();
	s = json_object();
	for (size_t i = 0; i < f->nsections; i++)
		json_object_set_new(s, f->sections[i].name, jint_or_null(f->sections[i].bytes));
	full = isnan(f->full.wall_seconds) ? json_null() :
	       json_pack("{s:o, s:o, s:o, s:o}", "compiled", jint_or_null(f->full.compiled),
			 "wall_seconds", jnum_or_null(f->full.wall_seconds),
			 "cpu_seconds", jnum_or_null(f->full.cpu_seconds),
			 "builds_alongside", jint_or_null(f->alongside));
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "release", jstr_or_null(f->release),
			 "bzimage_bytes", jint_or_null(f->bzimage_bytes), "sections", s,
			 "wall_seconds", jnum_or_null(f->build.wall_seconds),
			 "march", jstr_or_null(f->march), "mtune", jstr_or_null(f->mtune),
			 "warnings", jint_or_null(w->warnings),
			 "warning_lines", jstr_array(w->warning_lines, w->nwarning_lines),
			 "code_bytes", jint_or_null(f->code_bytes),
			 "compiled", jint_or_null(f->build.compiled), "last_full_build", full,
			 "ccache", ccache_obj(&f->build_rec));
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
	if (g->align < 0 && g->size < 0)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "align", jint_or_null(g->align),
			 "distance", jint_or_null(g->distance), "size", jint_or_null(g->size),
			 "limit", jint_or_null(g->limit), "at_compiled_line",
			 share_obj(g->line_compiled, g->gdt_gdt_compiled, g->gdt_data_compiled),
			 "at_cpu_line", share_obj(g->line_cpu, g->gdt_gdt_cpu, g->gdt_data_cpu));
}

static json_t *boot_obj(const struct flavour *f, const struct boot *b)
{
	static const char *const lv_source[] = {
		[LV_NONE] = NULL, [LV_PROBE] = "probe", [LV_COMPUTED] = "computed",
	};
	json_t *facts = json_object(), *ktap = json_null();

	if (b->ktap_passed >= 0 || b->ktap_failed >= 0)
		ktap = json_pack("{s:o, s:o, s:o}", "passed", jint_or_null(b->ktap_passed),
				 "failed", jint_or_null(b->ktap_failed),
				 "skipped", jint_or_null(b->ktap_skipped));
	for (size_t i = 0; i < b->nfacts; i++)
		json_object_set_new(facts, b->facts[i].key, jtext(b->facts[i].val));
	return json_pack("{s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
			 " s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"cpu", jtext(b->cpu), "default", f->default_cpu && !strcmp(f->default_cpu, b->cpu),
		"verdict", jstr_or_null(b->verdict), "expected", jstr_or_null(b->expected),
		"as_expected", b->verdict && b->expected ?
			json_boolean(!strcmp(b->verdict, b->expected)) : json_null(),
		"cache_alignment", jint_or_null(b->cache_alignment),
		"line_verdict", jstr_or_null(b->line_verdict),
		"line_verdict_source", jstr_or_null(lv_source[b->line_verdict_source]),
		"threads_per_core", jint_or_null(b->threads_per_core),
		"cores", jint_or_null(b->cores), "gdt", gdt_obj(&b->gdt),
		"idle", jstr_or_null(b->idle), "swiotlb", tri(b->swiotlb),
		"swiotlb_source", jstr_or_null(b->swiotlb_source),
		"swiotlb_bytes", jint_or_null(b->swiotlb_bytes),
		"microcode", jstr_or_null(b->microcode),
		"microcode_source", jstr_or_null(b->microcode_source),
		"hwalign", jint_or_null(b->hwalign), "boot_seconds", jnum_or_null(b->wall_seconds),
		"guest_seconds", jnum_or_null(b->guest_seconds), "ktap", ktap,
		"warnings", jstr_array(b->warnings, b->nwarnings), "facts", facts,
		"log", jstr_or_null(b->log));
}

static json_t *fig_obj(const struct kf_c2c_fig *g)
{
	return json_pack("{s:o, s:o, s:o}", "per_iteration", jnum_or_null(g->per_iteration),
			 "median", jnum_or_null(g->median), "spread", jnum_or_null(g->spread));
}

static json_t *fns_arr(const struct kf_c2c_recfn *f, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:o, s:o}", "name", jtext(f[i].name),
						   "hitm", jnum_or_null(f[i].hitm)));
	return a;
}

/* The c2c rows (report/c2c.c) and the 128-byte lines with HITMs at 128
 * bytes only (the caller leaves the key out without a c2c record:
 * report.json of a make without make c2c stays as it was). */
static json_t *c2c_obj(const struct flavour *f)
{
	json_t *o, *lines = json_array();

	o = json_pack("{s:o, s:o, s:o, s:o, s:o}", "workload", jstr_or_null(f->c2c.workload),
		      "cpu", jstr_or_null(f->c2c.cpu), "unit", jstr_or_null(f->c2c.unit),
		      "runs", jint_or_null(f->c2c.runs), "record", jstr_or_null(f->c2c.h.path));
	/* the machine, the same for every flavour of the section (load.c) */
	json_object_set_new(o, "cpu_string", jstr_or_null(f->c2c.cpu_string));
	json_object_set_new(o, "memory", jstr_or_null(f->c2c.memory));
	json_object_set_new(o, "smp", jint_or_null(f->c2c.smp));
	json_object_set_new(o, "tcg", jstr_or_null(f->c2c.tcg));
	json_object_set_new(o, "percpu_bytes", f->c2c.percpu_bytes > 0 ?
			    json_integer(f->c2c.percpu_bytes) : json_null());
	for (int id = 0; id < C2C_NR; id++)
		json_object_set_new(o, c2c_row_key((enum c2c_row)id),
				    fig_obj(c2c_row_fig(&f->c2c, (enum c2c_row)id)));
	for (size_t k = 0; k < f->c2c.npadlines && k < 10; k++) {
		const struct kf_c2c_padline *l = &f->c2c.padlines[k];

		json_array_append_new(lines, json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			"addr", jstr_or_null(l->addr),
			"hitm_128_only", jnum_or_null(l->hitm_128_only.median),
			"objects_low", jstr_array(l->objects_low, l->nobjects_low),
			"objects_high", jstr_array(l->objects_high, l->nobjects_high),
			"percpu_cpu", l->percpu_cpu >= 0 ? json_integer(l->percpu_cpu) : json_null(),
			"functions", fns_arr(l->functions, l->nfunctions),
			"functions_other", fns_arr(l->functions_other, l->nfunctions_other)));
	}
	json_object_set_new(o, "lines_128_only", lines);
	return o;
}

/* The system stage (docs/system-boot.md): the image package, the system
 * image, and every system boot with systemd's facts (the caller leaves the
 * key out when the flavour has none of them). */
static json_t *system_obj(const struct flavour *f)
{
	const struct kf_deb_pkg *p = f->has_deb ? kf_deb_image(&f->deb) : NULL;
	const struct kf_sysboot_rec *shown = flavour_sysboot(f);
	json_t *boots = json_array();

	for (size_t i = 0; i < f->nsysboots; i++) {
		const struct kf_sysboot_rec *s = &f->sysboots[i];

		json_array_append_new(boots, json_pack(
			"{s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			"cpu", jtext(s->b.cpu), "shown", s == shown,
			"verdict", jstr_or_null(s->b.verdict), "expected", jstr_or_null(s->b.expected),
			"cause", jstr_or_null(s->cause),
			"multi_user_reached", s->multi_user_reached < 0 ? json_null() :
				json_boolean(s->multi_user_reached),
			"multi_user_seconds", jnum_or_null(s->multi_user_seconds),
			"failed_units", jstr_array(s->failed_units, s->nfailed_units),
			"modules", jstr_array(s->modules, s->nmodules),
			"root_device", jstr_or_null(s->root_device),
			"root_modules", jstr_array(s->root_modules, s->nroot_modules),
			"mem_used_kb", jint_or_null(s->mem_used_kb),
			"boot_seconds", jnum_or_null(s->b.wall_seconds),
			"release", jstr_or_null(s->b.h.release), "record", jstr_or_null(s->b.h.path)));
	}
	return json_pack("{s:o, s:o, s:o}",
		"package", !p ? json_null() : json_pack("{s:o, s:o, s:o, s:o, s:o}",
			"name", jstr_or_null(p->name), "version", jstr_or_null(p->version),
			"bytes", jint_or_null(p->bytes), "sha256", jstr_or_null(p->sha256),
			"modules", jint_or_null(p->modules)),
		"image", !f->has_image ? json_null() : json_pack("{s:o, s:o, s:o, s:o, s:o}",
			"initrd_bytes", jint_or_null(f->image.initrd.bytes),
			"initrd_modules", jint_or_null(f->image.initrd_modules),
			"root_driver", jstr_or_null(f->image.root_driver),
			"root_driver_in", jstr_or_null(f->image.root_driver_in),
			"rootfs_sha256", jstr_or_null(f->image.rootfs_sha256)),
		"boots", boots);
}

static json_t *flavour_obj(const struct flavour *f)
{
	json_t *boots = json_array();

	for (size_t i = 0; i < f->nboots; i++)
		json_array_append_new(boots, boot_obj(f, &f->boots[i]));
	json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "name", jtext(f->name),
			 "description", jstr_or_null(f->description),
			 "default_cpu", jstr_or_null(f->default_cpu),
			 "status", jtext(flavour_status(f)),
			 "fragments", jstr_array(f->fragments, f->nfragments),
			 "config", config_obj(f), "build", build_obj(f), "boots", boots,
			 "stale_boots", jstr_array(f->stale_boots, f->nstale_boots));

	if (f->has_c2c)
		json_object_set_new(o, "c2c", c2c_obj(f));
	if (f->has_deb || f->has_image || f->nsysboots)
		json_object_set_new(o, "system", system_obj(f));
	return o;
}

static json_t *config_diff_arr(const struct report *r)
{
	json_t *a = json_array();

	for (size_t k = 0; k < r->ncdiff; k++) {
		const struct cdiff_sym *s = &r->cdiff[k];
		json_t *vals = json_object();

		for (size_t i = 0; i < r->nfl; i++) {
			const struct cdiff_cell *c = &s->cell[i];

			json_object_set_new(vals, r->fl[i].name, json_pack("{s:o, s:o, s:o}",
				"value", jstr_or_null(c->value),
				"fragment", jstr_or_null(c->fragment),
				"line", c->line > 0 ? json_integer(c->line) : json_null()));
		}
		json_array_append_new(a, json_pack("{s:o, s:o, s:o}", "symbol", jtext(s->name),
						   "group", jtext(kc_group_names[s->group]),
						   "flavours", vals));
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
		json_t *lines = json_array();
		size_t n = x->d.n;

		if (n > MAX_EDITS)
			n = MAX_EDITS;

		for (size_t i = 0; i < n; i++) {
			char op[2] = { (char)x->d.e[i].op, '\0' };

			json_array_append_new(lines, json_pack("{s:s, s:o}", "op", op,
							       "text", jtext(x->d.e[i].text)));
		}
		json_array_append_new(a, json_pack("{s:s, s:o, s:o, s:I, s:I, s:o, s:I}",
			"kind", x->kind == LDK_FLAVOURS ? "flavours" : "cpus",
			"a", side(x->fa, x->ba), "b", side(x->fb, x->bb),
			"removed", (json_int_t)x->d.removed, "added", (json_int_t)x->d.added,
			"lines", lines, "truncated", (json_int_t)(x->d.n - n)));
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
						      "expect", jstr_or_null(r->cpus[i].expect)));
	json_object_set_new(root, "cpu_models", cpus);
	for (size_t i = 0; i < r->nfl; i++)
		json_array_append_new(fl, flavour_obj(&r->fl[i]));
	json_object_set_new(root, "flavours", fl);
	{
		/* The c2c section's verdict in words (report/c2c.c); left
		 * out without a c2c record, as the section is. */
		struct strbuf w = { 0 };

		c2c_words(&w, r);
		if (w.s)
			json_object_set_new(root, "c2c_verdict", json_string(w.s));
		free(w.s);
	}
	json_object_set_new(root, "config_diff", config_diff_arr(r));
	json_object_set_new(root, "log_diffs", log_diffs_arr(r));
	rc = kf_record_write(root, path);
	e = errno;
	json_decref(root);
	errno = e;
	return rc;
}
