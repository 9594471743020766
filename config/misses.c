// SPDX-License-Identifier: GPL-2.0
/*
 * misses.c - what the audit found, without the tree (audit.h): requests
 * compared with the final config, misses sorted, counted, printed on
 * stderr and written as config.json. Its kconfig half is explain.c.
 */
#include "../lib/kf.h"
#include "../lib/record.h"
#include "audit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const why_names[KF_NR_WHY] = {
	[KF_WHY_UNKNOWN] = "unknown-symbol",
	[KF_WHY_BAD_VALUE] = "bad-value",
	[KF_WHY_RANGE] = "out-of-range",
	[KF_WHY_NO_PROMPT] = "no-prompt",
	[KF_WHY_CHOICE] = "choice",
	[KF_WHY_SELECTED] = "selected",
	[KF_WHY_DEPENDS] = "depends",
	[KF_WHY_NOT_APPLIED] = "not-applied",
};

/* One line per cause: what a reader of a distro config needs to know. */
static const char *const base_causes[KF_NR_WHY] = {
	[KF_WHY_NO_PROMPT] = "computed by Kconfig (no prompt: toolchain versions, values that follow from other options)",
	[KF_WHY_UNKNOWN] = "not symbols of this tree",
	[KF_WHY_DEPENDS] = "blocked by dependencies the final config does not meet",
	[KF_WHY_SELECTED] = "forced up by a select",
	[KF_WHY_CHOICE] = "choice values another value won",
	[KF_WHY_RANGE] = "outside their range here",
	[KF_WHY_BAD_VALUE] = "values of the wrong type",
	[KF_WHY_NOT_APPLIED] = "changed by olddefconfig",
};

void kf_audit_init(struct kf_audit *a)
{
	memset(a, 0, sizeof(*a));
	kf_fragset_init(&a->req);
	kf_fragset_init(&a->final);
	kf_fragset_init(&a->base);
}

static void misses_free(struct kf_miss *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].final);
		free(v[i].reason);
		free(v[i].detail);
		free(v[i].fix);
	}
	free(v);
}

void kf_audit_free(struct kf_audit *a)
{
	misses_free(a->miss, a->nmiss);
	misses_free(a->lost, a->nlost);
	kf_fragset_free(&a->base);
	kf_fragset_free(&a->req);
	kf_fragset_free(&a->final);
	free(a->kernelversion);
	free(a->kver);
}

int kf_survived(const struct kf_fragset *final, const struct kf_setting *r, int is_string)
{
	const struct kf_setting *f = kf_fragset_find(final, r->name);

	if (!f || strcmp(f->value, "n") == 0)
		return strcmp(r->value, "n") == 0;
	if (is_string && r->vkind != KF_VAL_STR)
		return 0;
	return kf_value_equal(r->value, f->value);
}

struct kf_miss *kf_miss_add(struct kf_miss **v, size_t *n, const struct kf_setting *r,
			    char *final)
{
	*v = kf_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n] = (struct kf_miss){ .req = r, .final = final };
	return &(*v)[(*n)++];
}

static int by_place(const void *x, const void *y)
{
	const struct kf_miss *a = x, *b = y;

	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	return (a->req->line > b->req->line) - (a->req->line < b->req->line);
}

void kf_misses_sort(struct kf_audit *a)
{
	for (size_t i = 0; i < a->nmiss; i++) {
		struct kf_miss *m = &a->miss[i];

		for (m->order = 0; m->order < a->req.nfiles &&
		     a->req.files[m->order] != m->req->file; m->order++)
			;
	}
	qsort(a->miss, a->nmiss, sizeof(*a->miss), by_place);
}

/* fn(line, length, arg) for each line of a miss's detail. */
static void detail_lines(const char *p, void (*fn)(const char *, int, void *), void *arg)
{
	while (*p) {
		size_t n = strcspn(p, "\n");

		fn(p, (int)n, arg);
		p += n + (p[n] == '\n');
	}
}

static void print_line(const char *s, int n, void *arg)
{
	fprintf(arg, "    %.*s\n", n, s);
}

void kf_miss_print(FILE *f, const struct kf_miss *m)
{
	fprintf(f, "%s: %s:%d: CONFIG_%s=%s requested, final %s%s\n", kf_prog,
		m->req->file, m->req->line, m->req->name, m->req->value,
		m->final ? m->final : "(not set)",
		m->why == KF_WHY_UNKNOWN ? " (no such symbol)" : "");
	fprintf(f, "    %s\n", m->reason);
	detail_lines(m->detail, print_line, f);
	fprintf(f, "    fix: %s\n", m->fix);
}

static size_t base_count(const struct kf_audit *a, enum kf_why w)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nlost; i++)
		n += a->lost[i].why == w;
	return n;
}

static size_t base_kept(const struct kf_audit *a)
{
	return a->base.nset - a->noverridden - a->nlost;
}

void kf_base_summary(FILE *f, const struct kf_audit *a, const char *flavour)
{
	fprintf(f, "  BASE    %s: %zu of %zu base values kept, %zu set by the fragments, %zu not kept%s\n",
	       flavour, base_kept(a), a->base.nset, a->noverridden, a->nlost,
	       a->nlost ? " (details: \"base\" in config.json)" : "");
	for (int w = 0; w < KF_NR_WHY; w++) {
		size_t n = base_count(a, (enum kf_why)w), shown = 0;

		if (!n)
			continue;
		fprintf(f, "  BASE    %5zu %s, e.g.", n, base_causes[w]);
		for (size_t i = 0; i < a->nlost && shown < 3; i++)
			if (a->lost[i].why == (enum kf_why)w) {
				fprintf(f, " %s", a->lost[i].req->name);
				shown++;
			}
		fprintf(f, "%s\n", n > shown ? " ..." : "");
	}
}

static void append_line(const char *s, int n, void *arg)
{
	json_array_append_new(arg, json_stringn(s, (size_t)n));
}

static json_t *miss_json(const struct kf_miss *m)
{
	json_t *detail = json_array();

	detail_lines(m->detail, append_line, detail);
	return json_pack("{s:s, s:s, s:i, s:s, s:s?, s:s, s:s, s:o, s:s}",
			 "symbol", m->req->name, "file", m->req->file, "line", m->req->line,
			 "requested", m->req->value, "final", m->final, "reason", m->reason,
			 "kind", why_names[m->why], "detail", detail, "fix", m->fix);
}

/* "base": the base's values and, per cause and one by one, those not kept. */
static json_t *base_json(const struct kf_audit *a)
{
	json_t *lost = json_array(), *causes = json_object();

	for (size_t i = 0; i < a->nlost; i++)
		json_array_append_new(lost, miss_json(&a->lost[i]));
	for (int w = 0; w < KF_NR_WHY; w++)
		if (base_count(a, (enum kf_why)w))
			json_object_set_new(causes, why_names[w],
					    json_integer((json_int_t)base_count(a, (enum kf_why)w)));
	return json_pack("{s:s, s:I, s:I, s:I, s:o, s:o}", "file", a->base_path,
			 "values", (json_int_t)a->base.nset,
			 "set_by_fragments", (json_int_t)a->noverridden,
			 "kept", (json_int_t)base_kept(a),
			 "not_kept_by_cause", causes, "not_kept", lost);
}

json_t *kf_audit_record(const struct kf_audit *a, const char *flavour, json_t *cpu, int ok)
{
	json_t *root = kf_record_new("config", flavour, a->kver, a->kernelversion);
	json_t *frags = json_array(), *misses = json_array(), *errors = json_array();

	for (size_t i = 0; i < a->req.nfiles; i++)
		json_array_append_new(frags, json_string(a->req.files[i]));
	for (size_t i = 0; i < a->req.nerr; i++)
		json_array_append_new(errors, json_string(a->req.err[i]));
	for (size_t i = 0; i < a->nmiss; i++)
		json_array_append_new(misses, miss_json(&a->miss[i]));
	json_object_set_new(root, "config", json_string(a->config));
	json_object_set_new(root, "fragments", frags);
	json_object_set_new(root, "requested", json_integer((json_int_t)a->req.nset));
	json_object_set_new(root, "errors", errors);
	json_object_set_new(root, "misses", misses);
	json_object_set_new(root, "base", a->base_path ? base_json(a) : json_null());
	json_object_update(root, cpu);
	json_decref(cpu);
	json_object_set_new(root, "ok", json_boolean(ok));
	return root;
}
