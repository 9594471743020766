// SPDX-License-Identifier: GPL-2.0
/*
 * load.c - read what the earlier stages left in out/<kver>/ into a struct
 * report: per flavour .config, config.failed, config.json, build.json and
 * boot/<cpu>.json, each in the one shape its schema gives
 * (docs/architecture.md), as the record has it: derive.c computes. One
 * function per record. Whatever is missing or unreadable stays missing
 * (NULL, -1, NAN); nothing here fails on a half-finished out/.
 */
#include "report.h"
#include "../lib/cpumodels.h"
#include "../lib/kf.h"
#include "../lib/record.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Append s (now owned by the vector) to a vector of strings. */
static void push(char ***v, size_t *n, char *s)
{
	*v = kf_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

/* Append a copy of each string of a JSON array (anything else: skipped). */
static void push_json(char ***v, size_t *n, const json_t *array)
{
	const json_t *e;
	size_t i;

	json_array_foreach(array, i, e)
		if (json_is_string(e))
			push(v, n, kf_xstrdup(json_string_value(e)));
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static const struct build_run no_run = {
	.compiled = -1, .wall_seconds = NAN, .cpu_seconds = NAN,
	.started = -1, .finished = -1, .warnings = -1,
};

void report_add_flavour(struct report *r, const char *spec)
{
	const char *eq = strchr(spec, '=');
	struct flavour *f;

	r->fl = kf_xrealloc(r->fl, (r->nfl + 1) * sizeof(*r->fl));
	f = &r->fl[r->nfl++];
	memset(f, 0, sizeof(*f));
	f->name = eq ? kf_xstrndup(spec, (size_t)(eq - spec)) : kf_xstrdup(spec);
	f->l1_cache_shift = f->l1_bytes = -1;
	f->smt = f->microcode = -1;
	f->bzimage_bytes = -1;
	f->code_bytes = -1;
	f->build = f->full = no_run;
	f->alongside = -1;
	if (!eq)
		return;
	for (const char *p = eq + 1; *p;) {
		size_t n = strcspn(p, ", ");

		if (n)
			push(&f->fragments, &f->nfragments, kf_xstrndup(p, n));
		p += n;
		while (*p == ',' || *p == ' ')
			p++;
	}
}

void report_add_cpu(struct report *r, const char *name, const char *expect)
{
	for (size_t i = 0; i < r->ncpus; i++)
		if (!strcmp(r->cpus[i].name, name))
			return;
	r->cpus = kf_xrealloc(r->cpus, (r->ncpus + 1) * sizeof(*r->cpus));
	r->cpus[r->ncpus].name = kf_xstrdup(name);
	r->cpus[r->ncpus].expect = expect ? kf_xstrdup(expect) : NULL;
	r->ncpus++;
}

void report_read_cpu_models(struct report *r, const char *path)
{
	struct kf_cpu_models t;
	char err[1024];

	if (kf_cpu_models_read(&t, path, err, sizeof(err)) < 0) {
		kf_warn("%s; showing only the CPU models that were booted", err);
		return;
	}
	for (size_t i = 0; i < t.n; i++)
		report_add_cpu(r, t.m[i].name, t.m[i].expect);
	kf_cpu_models_free(&t);
}

void report_read_recipes(struct report *r, const char *dir)
{
	for (size_t i = 0; i < r->nfl; i++) {
		struct flavour *f = &r->fl[i];
		char *path = kf_xasprintf("%s/%s.flavour", dir, f->name);
		struct kf_recipe rec;
		char err[512];

		if (!kf_recipe_read(path, &rec, err, sizeof(err))) {
			f->description = kf_xstrdup(rec.value[KF_DESCRIPTION]);
			f->default_cpu = kf_xstrdup(rec.value[KF_CPU]);
			kf_recipe_free(&rec);
		}
		free(path);
	}
}

/* ---- small readers ------------------------------------------------------ */

/* Is path there and of this type (S_IFDIR, S_IFREG)? */
static int is_a(const char *path, mode_t type)
{
	struct stat st;

	return !stat(path, &st) && (st.st_mode & S_IFMT) == type;
}

/* rel (a path relative to kdir, now owned here) when that file is there. */
static char *present(char *rel, const char *kdir)
{
	char *path = kf_xasprintf("%s/%s", kdir, rel);

	if (!is_a(path, S_IFREG)) {
		free(rel);
		rel = NULL;
	}
	free(path);
	return rel;
}

static json_t *load_json(const char *path)
{
	return is_a(path, S_IFREG) ? kf_record_read(path, KF_WARN, "treated as missing") : NULL;
}

static char *jstr(const json_t *o, const char *key)
{
	const char *s = kf_json_str(o, key);

	return s ? kf_xstrdup(s) : NULL;
}

/* ---- config ------------------------------------------------------------- */

static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The CPU choice's values, once each, for kc_classify. */
static void add_cpu_values(struct report *r, const json_t *values)
{
	const json_t *v;
	size_t i;

	json_array_foreach(values, i, v) {
		const char *name = json_string_value(v);

		if (!name || (r->ncpu_values &&
			      bsearch(&name, r->cpu_values, r->ncpu_values,
				      sizeof(*r->cpu_values), by_str)))
			continue;
		push(&r->cpu_values, &r->ncpu_values, kf_xstrdup(name));
		qsort(r->cpu_values, r->ncpu_values, sizeof(*r->cpu_values), by_str);
	}
}

/* .config, through the one reader (lib/dotconfig.c). */
static void load_dotconfig(struct flavour *f, const char *dir)
{
	char *path = kf_xasprintf("%s/.config", dir), *text, err[1024];

	text = kf_read_file(path, NULL);
	if (text && kf_config_read(&f->cfg, path, text, err, sizeof(err)) < 0)
		kf_warn("%s; the report leaves this config out", err);
	else if (text)
		f->has_config = 1;
	free(text);
	free(path);
}

/* config/merge.sh: the last attempt failed; .config is the last good. */
static void load_config_failed(struct flavour *f, const char *dir)
{
	char *path = kf_xasprintf("%s/config.failed", dir);
	char *text = kf_read_file(path, NULL);

	free(path);
	if (text) {
		text[strcspn(text, "\n")] = '\0';
		f->config_failed = text;
	}
}

/* config.json: config/config.schema.json. */
static void load_config_json(struct report *r, struct flavour *f, const char *dir)
{
	char *path = kf_xasprintf("%s/config.json", dir);
	json_t *j = load_json(path);

	free(path);
	if (!j)
		return;
	if (json_is_boolean(json_object_get(j, "ok")))
		f->audit = kf_xstrdup(json_is_true(json_object_get(j, "ok")) ? "ok" : "failed");
	f->cpu_choice = jstr(j, "cpu_choice");
	f->l1_cache_shift = (long)kf_json_int(j, "l1_cache_shift");
	add_cpu_values(r, json_object_get(j, "cpu_choice_values"));
	/* Fragment files from the audit when make passed none. */
	if (!f->nfragments)
		push_json(&f->fragments, &f->nfragments, json_object_get(j, "fragments"));
	json_decref(j);
}

/* ---- build -------------------------------------------------------------- */

static void load_run(struct build_run *run, const json_t *o)
{
	run->recorded = 1;
	run->compiled = (long)kf_json_int(o, "compiled");
	run->wall_seconds = kf_json_num(o, "wall_seconds");
	run->cpu_seconds = kf_json_num(o, "cpu_seconds");
	run->started = kf_json_int(o, "started");
	run->finished = kf_json_int(o, "finished");
	run->warnings = (long)kf_json_int(o, "warnings");
	push_json(&run->warning_lines, &run->nwarning_lines, json_object_get(o, "warning_lines"));
}

static void load_build(struct flavour *f, const char *kdir, const char *dir)
{
	char *path = kf_xasprintf("%s/build.json", dir);
	json_t *j = load_json(path), *secs, *v, *full;
	const char *key;

	free(path);
	if (!j)
		return;
	f->has_build = 1;
	f->release = jstr(j, "release");
	f->bzimage_bytes = kf_json_int(j, "bzimage_bytes");
	f->march = jstr(j, "march");
	f->mtune = jstr(j, "mtune");
	f->bzimage_sha256 = jstr(j, "bzimage_sha256");
	f->code_bytes = kf_json_int(j, "code_bytes");
	load_run(&f->build, j);
	full = json_object_get(j, "last_full_build");
	if (json_is_object(full))
		load_run(&f->full, full);
	f->build_log = present(kf_xasprintf("%s/build.log", f->name), kdir);
	secs = json_object_get(j, "sections");
	json_object_foreach(secs, key, v) {
		struct section *s;

		f->sections = kf_xrealloc(f->sections,
					  (f->nsections + 1) * sizeof(*f->sections));
		s = &f->sections[f->nsections++];
		s->name = kf_xstrdup(key);
		s->bytes = json_is_integer(v) ? json_integer_value(v) : -1;
	}
	json_decref(j);
}

/* ---- boots -------------------------------------------------------------- */

/*
 * A boot record of the flavour's current bzImage: a record from before the
 * last build describes a kernel that is gone, and is named, not shown.
 * Records (or builds) without the field are kept.
 */
static int boot_current(const struct flavour *f, const json_t *rec)
{
	const char *sha = kf_json_str(rec, "bzimage_sha256");

	return !sha || !f->bzimage_sha256 || !strcmp(sha, f->bzimage_sha256);
}

static void set_fact(struct boot *b, const char *key, const char *val)
{
	if (boot_fact(b, key))
		return;
	b->facts = kf_xrealloc(b->facts, (b->nfacts + 1) * sizeof(*b->facts));
	b->facts[b->nfacts].key = kf_xstrdup(key);
	b->facts[b->nfacts].val = kf_xstrdup(val);
	b->nfacts++;
}

/* The record's "console": what the runner read beside the facts. */
static void load_console(struct boot *b, const json_t *console)
{
	b->hwalign = -1;
	if (!json_is_object(console))
		return;
	b->has_console = 1;
	b->swiotlb_mapped = json_is_true(json_object_get(console, "swiotlb_mapped"));
	b->end_marker = json_is_true(json_object_get(console, "end_marker"));
	b->microcode_updated = json_is_true(json_object_get(console, "microcode_updated"));
	b->hwalign = (long)kf_json_int(console, "hwalign");
}

static void load_ktap_cases(struct boot *b, const json_t *results)
{
	const json_t *c;
	size_t i;

	json_array_foreach(results, i, c) {
		struct ktap_case *k;

		b->cases = kf_xrealloc(b->cases, (b->ncases + 1) * sizeof(*b->cases));
		k = &b->cases[b->ncases++];
		k->suite = kf_xstrdup(kf_json_str_or(c, "suite", ""));
		k->name = kf_xstrdup(kf_json_str_or(c, "name", ""));
		k->directive = jstr(c, "directive");
		k->ok = json_is_true(json_object_get(c, "ok"));
	}
}

/* boot/<stem>.json (boot/boot.schema.json), and whether its log is there. */
static void load_boot(struct flavour *f, const char *kdir, const char *stem)
{
	char *path = kf_xasprintf("%s/%s/boot/%s.json", kdir, f->name, stem);
	json_t *j = load_json(path), *facts, *v, *ktap;
	const char *key;
	struct boot *b;

	free(path);
	if (!j)
		return;
	if (!boot_current(f, j)) {
		push(&f->stale_boots, &f->nstale_boots, kf_xstrdup(stem));
		json_decref(j);
		return;
	}
	f->boots = kf_xrealloc(f->boots, (f->nboots + 1) * sizeof(*f->boots));
	b = &f->boots[f->nboots++];
	memset(b, 0, sizeof(*b));
	b->cpu = jstr(j, "cpu");
	if (!b->cpu)
		b->cpu = kf_xstrdup(stem);
	b->cpu_string = jstr(j, "cpu_string");
	b->verdict = jstr(j, "verdict");
	b->expected = jstr(j, "expected");
	b->wall_seconds = kf_json_num(j, "wall_seconds");
	b->guest_seconds = kf_json_num(j, "guest_seconds");
	b->qemu_version = jstr(j, "qemu_version");
	b->release = jstr(j, "release");
	b->ktap_passed = b->ktap_failed = b->ktap_skipped = -1;
	ktap = json_object_get(j, "ktap");
	if (json_is_object(ktap)) {
		b->ktap_passed = (long)kf_json_int(ktap, "passed");
		b->ktap_failed = (long)kf_json_int(ktap, "failed");
		b->ktap_skipped = (long)kf_json_int(ktap, "skipped");
	}
	push_json(&b->warnings, &b->nwarnings, json_object_get(j, "warnings"));
	facts = json_object_get(j, "facts");
	json_object_foreach(facts, key, v)
		if (json_is_string(v))
			set_fact(b, key, json_string_value(v));
	load_console(b, json_object_get(j, "console"));
	load_ktap_cases(b, json_object_get(ktap, "results"));
	json_decref(j);
	b->log = present(kf_xasprintf("%s/boot/%s.log", f->name, stem), kdir);
}

static void load_boots(struct report *r, struct flavour *f)
{
	char *dir = kf_xasprintf("%s/%s/boot", r->kdir, f->name);
	size_t n;
	char **names = kf_dir_names(dir, ".json", &n);

	free(dir);
	for (size_t i = 0; i < n; i++) {
		names[i][strlen(names[i]) - 5] = '\0';
		load_boot(f, r->kdir, names[i]);
	}
	free_strs(names, n);
}

void report_load(struct report *r, const char *kdir)
{
	const char *base = strrchr(kdir, '/');

	r->kdir = kf_xstrdup(kdir);
	r->kver = kf_xstrdup(base ? base + 1 : kdir);
	for (size_t i = 0; i < r->nfl; i++) {
		struct flavour *f = &r->fl[i];
		char *dir = kf_xasprintf("%s/%s", kdir, f->name);

		if (is_a(dir, S_IFDIR)) {
			load_dotconfig(f, dir);
			load_config_failed(f, dir);
			load_config_json(r, f, dir);
			load_build(f, kdir, dir);
			load_boots(r, f);
		}
		free(dir);
	}
}

/* ---- queries ------------------------------------------------------------ */

const struct boot *flavour_boot(const struct flavour *f, const char *cpu)
{
	for (size_t i = 0; i < f->nboots; i++)
		if (!strcmp(f->boots[i].cpu, cpu))
			return &f->boots[i];
	return NULL;
}

const char *boot_fact(const struct boot *b, const char *key)
{
	for (size_t i = 0; i < b->nfacts; i++)
		if (!strcmp(b->facts[i].key, key))
			return b->facts[i].val;
	return NULL;
}

long long flavour_section(const struct flavour *f, const char *name)
{
	for (size_t i = 0; i < f->nsections; i++)
		if (!strcmp(f->sections[i].name, name))
			return f->sections[i].bytes;
	return -1;
}

/* ---- free --------------------------------------------------------------- */

static void free_boot(struct boot *b)
{
	free(b->cpu);
	free(b->cpu_string);
	for (size_t i = 0; i < b->ncases; i++) {
		free(b->cases[i].suite);
		free(b->cases[i].name);
		free(b->cases[i].directive);
	}
	free(b->cases);
	free(b->verdict);
	free(b->expected);
	for (size_t i = 0; i < b->nfacts; i++) {
		free(b->facts[i].key);
		free(b->facts[i].val);
	}
	free(b->facts);
	free_strs(b->warnings, b->nwarnings);
	free(b->log);
	free(b->qemu_version);
	free(b->release);
}

void report_free(struct report *r)
{
	for (size_t i = 0; i < r->nldiff; i++) {
		ld_diff_free(&r->ldiff[i].d);
		ld_log_free(&r->ldiff[i].la);
		ld_log_free(&r->ldiff[i].lb);
	}
	free(r->ldiff);
	for (size_t i = 0; i < r->ncdiff; i++) {
		free(r->cdiff[i].cell);
		free(r->cdiff[i].menu);
	}
	free(r->cdiff);
	for (size_t i = 0; i < r->nfl; i++) {
		struct flavour *f = &r->fl[i];

		free(f->name);
		free(f->description);
		free(f->default_cpu);
		free_strs(f->fragments, f->nfragments);
		kf_config_free(&f->cfg);
		free(f->cpu_choice);
		free(f->audit);
		free(f->config_failed);
		free(f->release);
		for (size_t k = 0; k < f->nsections; k++)
			free(f->sections[k].name);
		free(f->sections);
		free(f->march);
		free(f->mtune);
		free(f->bzimage_sha256);
		free(f->build_log);
		free_strs(f->build.warning_lines, f->build.nwarning_lines);
		free_strs(f->full.warning_lines, f->full.nwarning_lines);
		free_strs(f->stale_boots, f->nstale_boots);
		for (size_t k = 0; k < f->nboots; k++)
			free_boot(&f->boots[k]);
		free(f->boots);
	}
	free(r->fl);
	for (size_t i = 0; i < r->ncpus; i++) {
		free(r->cpus[i].name);
		free(r->cpus[i].expect);
	}
	free(r->cpus);
	free_strs(r->cpu_values, r->ncpu_values);
	free(r->kdir);
	free(r->kver);
	memset(r, 0, sizeof(*r));
}
