// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - read what the earlier stages left in out/<kver>/ into a struct
 * report: per flavour .config, config.json, build.json and boot/<cpu>.json,
 * each in the one shape its schema gives (docs/architecture.md); the boot
 * logs only for the console diffs. Whatever is missing or unreadable stays
 * missing (NULL, -1, NAN); nothing here fails on a half-finished out/.
 */
#include "report.h"
#include "../boot/console.h"
#include "../lib/cpumodels.h"
#include "../lib/kf.h"
#include "../lib/record.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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

void report_add_flavour(struct report *r, const char *spec)
{
	const char *eq = strchr(spec, '=');
	struct flavour *f;

	r->fl = kf_xrealloc(r->fl, (r->nfl + 1) * sizeof(*r->fl));
	f = &r->fl[r->nfl++];
	memset(f, 0, sizeof(*f));
	f->name = eq ? kf_xstrndup(spec, (size_t)(eq - spec)) : kf_xstrdup(spec);
	f->l1_bytes = -1;
	f->smt = f->microcode = -1;
	f->bzimage_bytes = -1;
	f->build_seconds = NAN;
	f->warnings = -1;
	f->code_bytes = -1;
	f->compiled = f->full_compiled = f->alongside = -1;
	f->full_wall = f->full_cpu = NAN;
	f->full_started = f->full_finished = -1;
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

static long cpu_index(const struct report *r, const char *name)
{
	for (size_t i = 0; i < r->ncpus; i++)
		if (!strcmp(r->cpus[i].name, name))
			return (long)i;
	return -1;
}

/* A CPU model, unless it is there already. */
static void add_cpu(struct report *r, const char *name, const char *expect)
{
	if (cpu_index(r, name) >= 0)
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
		add_cpu(r, t.m[i].name, t.m[i].expect);
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

static json_t *load_json(const char *path)
{
	return is_a(path, S_IFREG) ? kf_record_read(path, KF_WARN, "treated as missing") : NULL;
}

static char *jstr(const json_t *o, const char *key)
{
	const char *s = kf_json_str(o, key);

	return s ? kf_xstrdup(s) : NULL;
}

/* A non-negative decimal, or -1. */
static long num(const char *s)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0)
		return -1;
	return v;
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

static void load_config(struct report *r, struct flavour *f, const char *dir)
{
	char *path = kf_xasprintf("%s/.config", dir), *text, err[1024];
	json_t *j;
	long long shift;

	text = kf_read_file(path, NULL);
	if (text && kf_config_read(&f->cfg, path, text, err, sizeof(err)) < 0) {
		kf_warn("%s; the report leaves this config out", err);
	} else if (text) {
		f->has_config = 1;
		f->smt = !strcmp(kf_config_value(&f->cfg, "SCHED_SMT"), "y");
		f->microcode = !strcmp(kf_config_value(&f->cfg, "MICROCODE"), "y");
	}
	free(text);
	free(path);

	/* config/merge.sh: the last attempt failed; .config is the last good. */
	path = kf_xasprintf("%s/config.failed", dir);
	text = kf_read_file(path, NULL);
	free(path);
	if (text) {
		text[strcspn(text, "\n")] = '\0';
		f->config_failed = text;
	}

	/* config.json: config/config.schema.json. */
	path = kf_xasprintf("%s/config.json", dir);
	j = load_json(path);
	free(path);
	if (!j)
		return;
	f->has_config_json = 1;
	if (json_is_boolean(json_object_get(j, "ok")))
		f->audit = kf_xstrdup(json_is_true(json_object_get(j, "ok")) ? "ok" : "failed");
	f->cpu_choice = jstr(j, "cpu_choice");
	shift = kf_json_int(j, "l1_cache_shift");
	if (shift >= 0 && shift < 16)
		f->l1_bytes = 1L << shift;
	add_cpu_values(r, json_object_get(j, "cpu_choice_values"));
	/* Fragment files from the audit when make passed none. */
	if (!f->nfragments)
		push_json(&f->fragments, &f->nfragments, json_object_get(j, "fragments"));
	json_decref(j);
}

/* ---- build -------------------------------------------------------------- */

static void load_build(struct flavour *f, const char *dir)
{
	char *path = kf_xasprintf("%s/build.json", dir);
	json_t *j = load_json(path), *secs, *v, *full, *warned;
	const char *key;

	free(path);
	if (!j)
		return;
	f->has_build = 1;
	f->release = jstr(j, "release");
	f->bzimage_bytes = kf_json_int(j, "bzimage_bytes");
	f->build_seconds = kf_json_num(j, "wall_seconds");
	f->march = jstr(j, "march");
	f->mtune = jstr(j, "mtune");
	f->bzimage_sha256 = jstr(j, "bzimage_sha256");
	f->code_bytes = kf_json_int(j, "code_bytes");
	f->compiled = (long)kf_json_int(j, "compiled");
	warned = j;
	full = json_object_get(j, "last_full_build");
	if (json_is_object(full)) {
		f->full_wall = kf_json_num(full, "wall_seconds");
		f->full_cpu = kf_json_num(full, "cpu_seconds");
		f->full_started = kf_json_int(full, "started");
		f->full_finished = kf_json_int(full, "finished");
		f->full_compiled = (long)kf_json_int(full, "compiled");
		/* After a no-op rebuild the warnings are the last full build's. */
		if (f->compiled == 0 && json_is_integer(json_object_get(full, "warnings")))
			warned = full;
	}
	f->warnings = (long)kf_json_int(warned, "warnings");
	push_json(&f->warning_lines, &f->nwarning_lines, json_object_get(warned, "warning_lines"));
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

static void set_fact(struct boot *b, const char *key, const char *val)
{
	if (boot_fact(b, key))
		return;
	b->facts = kf_xrealloc(b->facts, (b->nfacts + 1) * sizeof(*b->facts));
	b->facts[b->nfacts].key = kf_xstrdup(key);
	b->facts[b->nfacts].val = kf_xstrdup(val);
	b->nfacts++;
}

const char *boot_fact(const struct boot *b, const char *key)
{
	for (size_t i = 0; i < b->nfacts; i++)
		if (!strcmp(b->facts[i].key, key))
			return b->facts[i].val;
	return NULL;
}

const char *line_verdict_for(long kernel_bytes, long cpu_bytes)
{
	if (kernel_bytes <= 0 || cpu_bytes <= 0)
		return NULL;
	if (kernel_bytes == cpu_bytes)
		return "match";
	return kernel_bytes < cpu_bytes ? "too-small" : "too-large";
}

/* The probe prints "too-small: false sharing risk": the word before ':' counts. */
static const char *known_line_verdict(const char *s)
{
	static const char *const v[] = { "match", "too-small", "too-large" };

	for (size_t i = 0; s && i < 3; i++) {
		size_t n = strlen(v[i]);

		if (!strncmp(s, v[i], n) && (s[n] == '\0' || s[n] == ':'))
			return v[i];
	}
	return NULL;
}

/* 1, 0, or -1 for a fact value like "1", "yes", "on", "0", "off". */
static int truth(const char *s)
{
	static const char *const yes[] = { "1", "y", "yes", "on", "true", "active", "enabled" };
	static const char *const no[] = { "0", "n", "no", "off", "false", "inactive", "disabled" };

	for (size_t i = 0; s && i < sizeof(yes) / sizeof(*yes); i++) {
		if (!strcasecmp(s, yes[i]))
			return 1;
		if (!strcasecmp(s, no[i]))
			return 0;
	}
	return -1;
}

/*
 * Threads per core: the most CPUs one cpuN.thread_siblings_list names
 * ("0-1", "0,2", "3"), from sysfs topology, not /proc/cpuinfo's "siblings"
 * (which counts every CPU of the package, cores included).
 */
static long list_count(const char *s)
{
	long n = 0;

	while (s && *s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return -1;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				return -1;
		}
		n += b - a + 1;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return n > 0 ? n : -1;
}

static void derive_topology(struct boot *b)
{
	long online = 0;

	b->threads_per_core = -1;
	b->cores = -1;
	for (size_t i = 0; i < b->nfacts; i++) {
		const char *k = b->facts[i].key;
		size_t n = strlen(k);

		if (!strncmp(k, "cpu", 3) && n > 21 &&
		    !strcmp(k + n - 21, ".thread_siblings_list")) {
			long t = list_count(b->facts[i].val);

			online++;
			if (t > b->threads_per_core)
				b->threads_per_core = t;
		}
	}
	if (b->threads_per_core > 0 && online >= b->threads_per_core)
		b->cores = online / b->threads_per_core;
}

/* Whether two objects could share a line (see struct gdt_facts). */
static int gdt_gdt_share(const struct gdt_facts *g, long line)
{
	if (line <= 0 || g->distance < 0)
		return -1;
	return g->distance < line;
}

static int gdt_data_share(const struct gdt_facts *g, long line)
{
	if (line <= 0 || g->align <= 0 || g->size <= 0)
		return -1;
	return g->align < line || g->size % line != 0;
}

static void derive_gdt(struct boot *b, long kernel_l1)
{
	struct gdt_facts *g = &b->gdt;
	const char *d = boot_fact(b, "probe.gdt_distance");

	g->align = -1;
	for (size_t i = 0; i < b->nfacts; i++) {
		const char *k = b->facts[i].key;
		size_t n = strlen(k);

		if (!strncmp(k, "probe.cpu", 9) && n > 10 && !strcmp(k + n - 10, ".gdt_align")) {
			long a = num(b->facts[i].val);

			if (a > 0 && (g->align < 0 || a < g->align))
				g->align = a;
		}
	}
	g->distance = d && strcmp(d, "none") != 0 ? num(d) : -1;
	g->size = num(boot_fact(b, "probe.gdt_size"));
	g->limit = num(boot_fact(b, "probe.gdt_limit"));
	g->line_compiled = kernel_l1;
	g->line_cpu = b->cache_alignment;
	g->gdt_gdt_compiled = gdt_gdt_share(g, g->line_compiled);
	g->gdt_gdt_cpu = gdt_gdt_share(g, g->line_cpu);
	g->gdt_data_compiled = gdt_data_share(g, g->line_compiled);
	g->gdt_data_cpu = gdt_data_share(g, g->line_cpu);
}

/*
 * The microcode revision the guest kernel read from its CPU. Under QEMU
 * that is the emulated model's value (QEMU's, not a real CPU's) unless the
 * console shows an update being applied.
 */
static void derive_microcode(struct boot *b, int update_line)
{
	b->microcode = boot_fact(b, "probe.microcode");
	if (!b->microcode)
		b->microcode_source = NULL;
	else if (update_line)
		b->microcode_source = "update loaded at boot";
	else if (b->qemu_version)
		b->microcode_source = "emulated CPU (QEMU model), no update loaded";
	else
		b->microcode_source = "CPU as booted, no update loaded";
}

static void derive(struct boot *b, const struct flavour *f, const json_t *console)
{
	const char *lv = known_line_verdict(boot_fact(b, "probe.line_verdict"));
	long probe_l1 = num(boot_fact(b, "probe.l1_cache_bytes"));
	long kernel_l1 = f->l1_bytes > 0 ? f->l1_bytes : probe_l1;
	int swiotlb_line = 0, reached_end = 0, ucode_line = 0;

	/* What the runner read on the console beside the facts (boot record's
	 * "console"; boot/logparse.c). */
	if (console) {
		swiotlb_line = json_is_true(json_object_get(console, "swiotlb_mapped"));
		reached_end = json_is_true(json_object_get(console, "end_marker"));
		ucode_line = json_is_true(json_object_get(console, "microcode_updated"));
		b->hwalign = (long)kf_json_int(console, "hwalign");
	}
	b->cache_alignment = num(boot_fact(b, "cpu.cache_alignment"));
	derive_topology(b);
	derive_gdt(b, probe_l1 > 0 ? probe_l1 : kernel_l1);
	derive_microcode(b, ucode_line);
	b->idle = boot_fact(b, "probe.idle");
	b->swiotlb_bytes = num(boot_fact(b, "probe.swiotlb_bytes"));
	if (lv) {
		b->line_verdict = lv;
		b->line_verdict_source = LV_PROBE;
	} else if ((lv = line_verdict_for(kernel_l1, b->cache_alignment))) {
		b->line_verdict = lv;
		b->line_verdict_source = LV_COMPUTED;
	}
	b->swiotlb = truth(boot_fact(b, "probe.swiotlb"));
	if (b->swiotlb >= 0) {
		b->swiotlb_source = "probe";
	} else if (console && (swiotlb_line || reached_end ||
			       (b->verdict && (!strcmp(b->verdict, "pass") ||
					       !strcmp(b->verdict, "test-fail"))))) {
		b->swiotlb = swiotlb_line;
		b->swiotlb_source = "console";
	}
}

static void load_boot(struct flavour *f, const char *kdir, const char *file)
{
	char *path = kf_xasprintf("%s/%s/boot/%s", kdir, f->name, file);
	json_t *j = load_json(path), *facts, *v, *ktap, *console;
	char *stem = kf_xstrndup(file, strlen(file) - 5), *log;
	const char *key, *sha;
	struct boot *b;

	free(path);
	if (!j) {
		free(stem);
		return;
	}
	/* A record from before the last build describes a kernel that is gone:
	 * it is named, not shown. Records without the field are kept. */
	sha = kf_json_str(j, "bzimage_sha256");
	if (sha && f->bzimage_sha256 && strcmp(sha, f->bzimage_sha256) != 0) {
		push(&f->stale_boots, &f->nstale_boots, stem);
		json_decref(j);
		return;
	}
	f->boots = kf_xrealloc(f->boots, (f->nboots + 1) * sizeof(*f->boots));
	b = &f->boots[f->nboots++];
	memset(b, 0, sizeof(*b));
	b->cpu = jstr(j, "cpu");
	if (!b->cpu)
		b->cpu = kf_xstrdup(stem);
	b->verdict = jstr(j, "verdict");
	b->expected = jstr(j, "expected");
	b->wall_seconds = kf_json_num(j, "wall_seconds");
	b->guest_seconds = kf_json_num(j, "guest_seconds");
	b->qemu_version = jstr(j, "qemu_version");
	b->release = jstr(j, "release");
	b->ktap_passed = b->ktap_failed = b->ktap_skipped = -1;
	b->hwalign = -1;
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
	console = json_object_get(j, "console");
	derive(b, f, json_is_object(console) ? console : NULL);
	json_decref(j);

	log = kf_xasprintf("%s/boot/%s.log", f->name, stem);
	path = kf_xasprintf("%s/%s", kdir, log);
	if (is_a(path, S_IFREG))
		b->log = log;
	else
		free(log);
	free(path);
	free(stem);
}

static const struct report *sort_report;

static int by_cpu(const void *a, const void *b)
{
	const struct boot *x = a, *y = b;
	long i = cpu_index(sort_report, x->cpu), j = cpu_index(sort_report, y->cpu);

	if (i != j)
		return i < j ? -1 : 1;
	return strcmp(x->cpu, y->cpu);
}

static void load_boots(struct report *r, struct flavour *f)
{
	char *dir = kf_xasprintf("%s/%s/boot", r->kdir, f->name);
	size_t n;
	char **names = kf_dir_names(dir, ".json", &n);

	free(dir);
	for (size_t i = 0; i < n; i++) {
		load_boot(f, r->kdir, names[i]);
		free(names[i]);
	}
	free(names);
	for (size_t i = 0; i < f->nboots; i++)
		add_cpu(r, f->boots[i].cpu, NULL);
	sort_report = r;
	if (f->nboots)
		qsort(f->boots, f->nboots, sizeof(*f->boots), by_cpu);
}

/*
 * How many other flavours' last full builds overlapped each one's in time:
 * builds that share the machine's cores take longer in wall time, so the
 * report puts this count beside the wall and CPU seconds.
 */
static void builds_alongside(struct report *r)
{
	for (size_t i = 0; i < r->nfl; i++) {
		struct flavour *f = &r->fl[i];

		if (f->full_started < 0 || f->full_finished < 0)
			continue;
		f->alongside = 0;
		for (size_t k = 0; k < r->nfl; k++) {
			const struct flavour *g = &r->fl[k];

			if (k != i && g->full_started >= 0 && g->full_finished >= 0 &&
			    g->full_started < f->full_finished && f->full_started < g->full_finished)
				f->alongside++;
		}
	}
}

void report_load(struct report *r, const char *kdir)
{
	const char *base = strrchr(kdir, '/');

	r->kdir = kf_xstrdup(kdir);
	r->kver = kf_xstrdup(base ? base + 1 : kdir);
	for (size_t i = 0; i < r->nfl; i++) {
		struct flavour *f = &r->fl[i];
		char *dir = kf_xasprintf("%s/%s", kdir, f->name);

		f->has_dir = is_a(dir, S_IFDIR);
		if (f->has_dir) {
			load_config(r, f, dir);
			load_build(f, dir);
			load_boots(r, f);
		}
		free(dir);
	}
	builds_alongside(r);
	r->release = NULL;
	for (size_t i = 0; i < r->nfl && !r->release; i++)
		r->release = r->fl[i].release;
	for (size_t i = 0; i < r->nfl && !r->release; i++)
		for (size_t k = 0; k < r->fl[i].nboots && !r->release; k++)
			r->release = r->fl[i].boots[k].release;
	if (!r->release)
		r->release = r->kver;
}

/* ---- queries ------------------------------------------------------------ */

const struct boot *flavour_boot(const struct flavour *f, const char *cpu)
{
	for (size_t i = 0; i < f->nboots; i++)
		if (!strcmp(f->boots[i].cpu, cpu))
			return &f->boots[i];
	return NULL;
}

int report_cpu_shown(const struct report *r, const char *cpu)
{
	for (size_t i = 0; i < r->nfl; i++)
		if (flavour_boot(&r->fl[i], cpu) ||
		    (r->fl[i].default_cpu && !strcmp(r->fl[i].default_cpu, cpu)))
			return 1;
	return 0;
}

const char *flavour_status(const struct flavour *f)
{
	if (f->nboots)
		return "booted";
	if (f->has_build)
		return "built";
	if (f->has_config)
		return "configured";
	return "not configured";
}

long long flavour_section(const struct flavour *f, const char *name)
{
	for (size_t i = 0; i < f->nsections; i++)
		if (!strcmp(f->sections[i].name, name))
			return f->sections[i].bytes;
	return -1;
}

/* ---- comparisons -------------------------------------------------------- */

static int by_group(const void *a, const void *b)
{
	const struct cdiff_sym *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Each differing symbol's Kconfig menu, from the first .config that has it. */
static void config_diff_menus(struct report *r)
{
	for (size_t k = 0; k < r->ncdiff; k++) {
		const char *menu = NULL;

		for (size_t i = 0; i < r->nfl && !menu; i++)
			if (r->fl[i].has_config)
				menu = kf_config_menu(&r->fl[i].cfg, r->cdiff[k].name);
		r->cdiff[k].menu = kf_xstrdup(menu ? menu : "(top level)");
	}
}

static void config_diff(struct report *r)
{
	const char **names = NULL;
	size_t n = 0, configs = 0;

	for (size_t i = 0; i < r->nfl; i++) {
		const struct flavour *f = &r->fl[i];

		if (!f->has_config)
			continue;
		configs++;
		names = kf_xrealloc(names, (n + f->cfg.n + 1) * sizeof(*names));
		for (size_t k = 0; k < f->cfg.n; k++)
			names[n++] = f->cfg.sym[k].name;
	}
	if (configs < 2) {
		free(names);
		return;
	}
	qsort(names, n, sizeof(*names), by_str);
	for (size_t k = 0; k < n; k++) {
		const char *first = NULL;
		int differs = 0;

		if (k && !strcmp(names[k], names[k - 1]))
			continue;
		for (size_t i = 0; i < r->nfl; i++) {
			const char *v;

			if (!r->fl[i].has_config)
				continue;
			v = kf_config_value(&r->fl[i].cfg, names[k]);
			if (!first)
				first = v;
			else if (!kf_value_equal(first, v))
				differs = 1;
		}
		if (!differs)
			continue;
		r->cdiff = kf_xrealloc(r->cdiff, (r->ncdiff + 1) * sizeof(*r->cdiff));
		struct cdiff_sym *s = &r->cdiff[r->ncdiff++];

		s->name = names[k];
		s->group = kc_classify(names[k], r->cpu_values, r->ncpu_values);
		s->cell = kf_xmalloc(r->nfl * sizeof(*s->cell));
		s->menu = NULL;
		for (size_t i = 0; i < r->nfl; i++) {
			const struct flavour *f = &r->fl[i];
			struct cdiff_cell *c = &s->cell[i];

			memset(c, 0, sizeof(*c));
			if (!f->has_config)
				continue;
			c->value = kf_config_value(&f->cfg, names[k]);
			c->fragment = kc_fragment_for(names[k], f->fragments,
						      f->nfragments, &c->line);
			if (!c->fragment)
				c->fragment = "(default)";
		}
	}
	free(names);
	if (r->ncdiff)
		qsort(r->cdiff, r->ncdiff, sizeof(*r->cdiff), by_group);
	if (r->ncdiff > CDIFF_FOLD)
		config_diff_menus(r);
}

static int read_log(const struct report *r, const struct boot *b, struct ld_log *l)
{
	char *path, *text;

	if (!b || !b->log)
		return -1;
	path = kf_xasprintf("%s/%s", r->kdir, b->log);
	text = kf_read_file(path, NULL);
	free(path);
	if (!text)
		return -1;
	ld_log_parse(l, text);
	free(text);
	return 0;
}

static void add_logdiff(struct report *r, enum logdiff_kind kind,
			const struct flavour *fa, const struct boot *ba,
			const struct flavour *fb, const struct boot *bb, int context)
{
	struct logdiff *x;

	r->ldiff = kf_xrealloc(r->ldiff, (r->nldiff + 1) * sizeof(*r->ldiff));
	x = &r->ldiff[r->nldiff];
	memset(x, 0, sizeof(*x));
	if (read_log(r, ba, &x->la))
		return;
	if (read_log(r, bb, &x->lb)) {
		ld_log_free(&x->la);
		return;
	}
	x->kind = kind;
	x->fa = fa;
	x->fb = fb;
	x->ba = ba;
	x->bb = bb;
	ld_diff(&x->d, &x->la, &x->lb, context);
	r->nldiff++;
}

static void log_diffs(struct report *r, int context)
{
	if (!r->fl)
		return;
	/* Flavour against flavour, on each CPU model: against the first. */
	for (size_t c = 0; c < r->ncpus; c++) {
		const struct flavour *ref = NULL;
		const struct boot *rb = NULL;

		for (size_t i = 0; i < r->nfl; i++) {
			const struct boot *b = flavour_boot(&r->fl[i], r->cpus[c].name);

			if (!b || !b->log)
				continue;
			if (!ref) {
				ref = &r->fl[i];
				rb = b;
				continue;
			}
			add_logdiff(r, LDK_FLAVOURS, ref, rb, &r->fl[i], b, context);
		}
	}
	/* One flavour across CPU models: against its default model. */
	for (size_t i = 0; i < r->nfl; i++) {
		const struct flavour *f = &r->fl[i];
		const struct boot *rb = f->default_cpu ? flavour_boot(f, f->default_cpu) : NULL;

		if (!rb || !rb->log)
			for (size_t k = 0; k < f->nboots && (!rb || !rb->log); k++)
				rb = &f->boots[k];
		if (!rb || !rb->log)
			continue;
		for (size_t k = 0; k < f->nboots; k++)
			if (&f->boots[k] != rb && f->boots[k].log)
				add_logdiff(r, LDK_CPUS, f, rb, f, &f->boots[k], context);
	}
}

void report_compare(struct report *r, int context)
{
	config_diff(r);
	log_diffs(r, context);
}

/* ---- free --------------------------------------------------------------- */

static void free_boot(struct boot *b)
{
	free(b->cpu);
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
		free_strs(f->warning_lines, f->nwarning_lines);
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
