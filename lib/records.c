// SPDX-License-Identifier: GPL-2.0
/*
 * records.c - the stage records read into C structs, and the rules their
 * readers share (records.h says what each reader guarantees).
 */
#include "records.h"
#include "kf.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- members, each missing when absent or of another type ---------------- */

static char *str(const json_t *o, const char *key)
{
	const char *s = kf_json_str(o, key);

	return s ? kf_xstrdup(s) : NULL;
}

/* 1 or 0 for a boolean member, -1 otherwise. */
static int boolean(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_boolean(v) ? json_is_true(v) : -1;
}

/* The strings of an array member, in its order; *n = 0 and NULL for none. */
static char **strs(const json_t *o, const char *key, size_t *n)
{
	const json_t *a = json_object_get(o, key), *v;
	char **s = NULL;
	size_t i;

	*n = 0;
	json_array_foreach(a, i, v)
		if (json_is_string(v)) {
			s = kf_xrealloc(s, (*n + 1) * sizeof(*s));
			s[(*n)++] = kf_xstrdup(json_string_value(v));
		}
	return s;
}

static void free_strs(char **s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i]);
	free(s);
}

/* The record's object, its header read into h; NULL when path holds no such
 * record (h then holds nothing). */
static json_t *load(struct kf_rec_head *h, const char *path, const char *kind,
		    enum kf_need need, const char *fix)
{
	json_t *j = kf_record_load(path, kind, need, fix);

	if (!j)
		return NULL;
	h->path = kf_xstrdup(path);
	h->format = kf_json_int(j, "format");
	h->flavour = str(j, "flavour");
	h->kver = str(j, "kver");
	h->release = str(j, "release");
	return j;
}

static void free_head(struct kf_rec_head *h)
{
	free(h->path);
	free(h->flavour);
	free(h->kver);
	free(h->release);
}

/* ---- config.json ----------------------------------------------------------- */

static void read_miss(struct kf_miss *m, const json_t *o)
{
	m->symbol = str(o, "symbol");
	m->file = str(o, "file");
	m->line = kf_json_int(o, "line");
	m->requested = str(o, "requested");
	m->final = str(o, "final");
	m->reason = str(o, "reason");
	m->kind = str(o, "kind");
	m->detail = strs(o, "detail", &m->ndetail);
	m->fix = str(o, "fix");
}

/* The needs of an array member, in its order (non-objects left out). */
static struct kf_sysneed *read_needs(const json_t *o, const char *key, size_t *n)
{
	const json_t *a = json_object_get(o, key), *v;
	struct kf_sysneed *s = NULL;
	size_t i;

	*n = 0;
	json_array_foreach(a, i, v)
		if (json_is_object(v)) {
			struct kf_sysneed *q;

			s = kf_xrealloc(s, (*n + 1) * sizeof(*s));
			q = &s[(*n)++];
			q->symbol = str(v, "symbol");
			q->want = str(v, "want");
			q->final = str(v, "final");
			q->in_tree = boolean(v, "in_tree");
			q->menu = str(v, "menu");
			q->defined_at = str(v, "defined_at");
			q->note = str(v, "note");
		}
	return s;
}

static void read_systemd(struct kf_sysneeds *d, const json_t *o)
{
	d->ok = -1;
	if (!json_is_object(o))
		return;
	d->checked = 1;
	d->init = str(o, "init");
	d->version = str(o, "version");
	d->ok = boolean(o, "ok");
	d->missing = read_needs(o, "missing", &d->nmissing);
	d->recommended = read_needs(o, "recommended_missing", &d->nrecommended);
}

static void free_needs(struct kf_sysneed *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].symbol);
		free(s[i].want);
		free(s[i].final);
		free(s[i].menu);
		free(s[i].defined_at);
		free(s[i].note);
	}
	free(s);
}

void kf_sysneeds_free(struct kf_sysneeds *d)
{
	free(d->init);
	free(d->version);
	free_needs(d->missing, d->nmissing);
	free_needs(d->recommended, d->nrecommended);
	memset(d, 0, sizeof(*d));
	d->ok = -1;
}

int kf_config_rec_read(struct kf_config_rec *c, const char *path,
		       enum kf_need need, const char *fix)
{
	json_t *j, *misses, *m;
	size_t i;

	memset(c, 0, sizeof(*c));
	c->requested = c->l1_cache_shift = -1;
	c->ok = c->systemd.ok = -1;
	j = load(&c->h, path, "config", need, fix);
	if (!j)
		return -1;
	c->config = str(j, "config");
	c->fragments = strs(j, "fragments", &c->nfragments);
	c->requested = kf_json_int(j, "requested");
	c->errors = strs(j, "errors", &c->nerrors);
	misses = json_object_get(j, "misses");
	json_array_foreach(misses, i, m)
		if (json_is_object(m)) {
			c->misses = kf_xrealloc(c->misses, (c->nmisses + 1) * sizeof(*c->misses));
			read_miss(&c->misses[c->nmisses++], m);
		}
	c->cpu_choice = str(j, "cpu_choice");
	c->cpu_choice_values = strs(j, "cpu_choice_values", &c->ncpu_choice_values);
	c->l1_cache_shift = kf_json_int(j, "l1_cache_shift");
	c->ok = boolean(j, "ok");
	read_systemd(&c->systemd, json_object_get(j, "systemd"));
	json_decref(j);
	return 0;
}

void kf_config_rec_free(struct kf_config_rec *c)
{
	free_head(&c->h);
	free(c->config);
	free_strs(c->fragments, c->nfragments);
	free_strs(c->errors, c->nerrors);
	for (size_t i = 0; i < c->nmisses; i++) {
		struct kf_miss *m = &c->misses[i];

		free(m->symbol);
		free(m->file);
		free(m->requested);
		free(m->final);
		free(m->reason);
		free(m->kind);
		free_strs(m->detail, m->ndetail);
		free(m->fix);
	}
	free(c->misses);
	free(c->cpu_choice);
	free_strs(c->cpu_choice_values, c->ncpu_choice_values);
	kf_sysneeds_free(&c->systemd);
	memset(c, 0, sizeof(*c));
}

static json_t *str_json(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *kf_miss_json(const struct kf_miss *m)
{
	json_t *detail = json_array();

	for (size_t i = 0; i < m->ndetail; i++)
		json_array_append_new(detail, json_string(m->detail[i]));
	return json_pack("{s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "symbol", str_json(m->symbol), "file", str_json(m->file),
			 "line", (json_int_t)m->line, "requested", str_json(m->requested),
			 "final", str_json(m->final), "reason", str_json(m->reason),
			 "kind", str_json(m->kind), "detail", detail, "fix", str_json(m->fix));
}

/* ---- build.json ------------------------------------------------------------ */

static void read_run(struct kf_build_run *r, const json_t *o)
{
	r->compiled = kf_json_int(o, "compiled");
	r->wall_seconds = kf_json_num(o, "wall_seconds");
	r->cpu_seconds = kf_json_num(o, "cpu_seconds");
	r->started = kf_json_int(o, "started");
	r->finished = kf_json_int(o, "finished");
	r->warnings = kf_json_int(o, "warnings");
	r->warning_lines = strs(o, "warning_lines", &r->nwarning_lines);
}

/* ccache.remote: an object, or null/absent (has 0, figures -1). */
static void read_remote(struct kf_ccache_remote *r, const json_t *o)
{
	r->has = json_is_object(o);
	r->url = str(o, "url");
	r->used = boolean(o, "used");
	r->off_because = str(o, "off_because");
	r->hits = kf_json_int(o, "hits");
	r->misses = kf_json_int(o, "misses");
	r->errors = kf_json_int(o, "errors");
	r->timeouts = kf_json_int(o, "timeouts");
	r->stored = kf_json_int(o, "stored");
}

int kf_build_rec_read(struct kf_build_rec *b, const char *path,
		      enum kf_need need, const char *fix)
{
	const json_t *full, *cc, *dc, *v;
	const char *key;
	json_t *j;

	memset(b, 0, sizeof(*b));
	read_run(&b->run, NULL);	/* from no object: every figure missing */
	read_run(&b->last_full, NULL);
	b->ccache_enabled = -1;
	b->ccache_hits = b->ccache_misses = b->objects = b->bzimage_bytes = -1;
	read_remote(&b->remote, NULL);
	b->code_bytes = b->text_span_bytes = -1;
	j = load(&b->h, path, "build", need, fix);
	if (!j)
		return -1;
	read_run(&b->run, j);
	full = json_object_get(j, "last_full_build");
	b->has_last_full = json_is_object(full);
	read_run(&b->last_full, full);
	cc = json_object_get(j, "ccache");
	b->ccache_enabled = boolean(cc, "enabled");
	b->ccache_hits = kf_json_int(cc, "hits");
	b->ccache_misses = kf_json_int(cc, "misses");
	read_remote(&b->remote, json_object_get(cc, "remote"));
	b->distcc_hosts = str(j, "distcc_hosts");
	dc = json_object_get(j, "distcc");
	b->distcc_remote = kf_json_int(dc, "remote");
	b->distcc_local = kf_json_int(dc, "local");
	b->distcc_fell_back = kf_json_int(dc, "fell_back");
	b->objects = kf_json_int(j, "objects");
	b->bzimage_bytes = kf_json_int(j, "bzimage_bytes");
	b->bzimage_sha256 = str(j, "bzimage_sha256");
	json_object_foreach(json_object_get(j, "sections"), key, v) {
		b->sections = kf_xrealloc(b->sections, (b->nsections + 1) * sizeof(*b->sections));
		b->sections[b->nsections].name = kf_xstrdup(key);
		b->sections[b->nsections++].bytes = json_is_integer(v) ? json_integer_value(v) : -1;
	}
	b->code_bytes = kf_json_int(j, "code_bytes");
	b->text_span_bytes = kf_json_int(j, "text_span_bytes");
	b->march = str(j, "march");
	b->mtune = str(j, "mtune");
	b->flags_from = str(j, "flags_from");
	json_decref(j);
	return 0;
}

void kf_build_rec_free(struct kf_build_rec *b)
{
	free_head(&b->h);
	free_strs(b->run.warning_lines, b->run.nwarning_lines);
	free_strs(b->last_full.warning_lines, b->last_full.nwarning_lines);
	free(b->remote.url);
	free(b->remote.off_because);
	free(b->distcc_hosts);
	free(b->bzimage_sha256);
	for (size_t i = 0; i < b->nsections; i++)
		free(b->sections[i].name);
	free(b->sections);
	free(b->march);
	free(b->mtune);
	free(b->flags_from);
	memset(b, 0, sizeof(*b));
}

/* ---- boot/<cpu>.json ------------------------------------------------------- */

static void read_ktap(struct kf_boot_rec *b, const json_t *ktap)
{
	const json_t *r;
	size_t i;

	b->ktap_passed = kf_json_int(ktap, "passed");
	b->ktap_failed = kf_json_int(ktap, "failed");
	b->ktap_skipped = kf_json_int(ktap, "skipped");
	json_array_foreach(json_object_get(ktap, "results"), i, r) {
		struct kf_ktap_case *c;

		if (!json_is_object(r))
			continue;
		b->cases = kf_xrealloc(b->cases, (b->ncases + 1) * sizeof(*b->cases));
		c = &b->cases[b->ncases++];
		c->suite = str(r, "suite");
		c->name = str(r, "name");
		c->ok = boolean(r, "ok");
		c->directive = str(r, "directive");
	}
}

static void boot_init(struct kf_boot_rec *b)
{
	memset(b, 0, sizeof(*b));
	b->exit_status = b->ktap_passed = b->ktap_failed = b->ktap_skipped = b->hwalign = -1;
	b->wall_seconds = b->guest_seconds = NAN;
	b->swiotlb_mapped = b->microcode_updated = b->end_marker = -1;
}

/* A boot record's members, which a system boot's record has too. */
static void boot_fill(struct kf_boot_rec *b, const json_t *j)
{
	const json_t *console, *v;
	const char *key;

	b->cpu = str(j, "cpu");
	b->cpu_string = str(j, "cpu_string");
	b->qemu_version = str(j, "qemu_version");
	b->command = strs(j, "command", &b->ncommand);
	b->cmdline = str(j, "cmdline");
	b->bzimage_sha256 = str(j, "bzimage_sha256");
	b->verdict = str(j, "verdict");
	b->expected = str(j, "expected");
	b->exit_status = kf_json_int(j, "exit_status");
	b->wall_seconds = kf_json_num(j, "wall_seconds");
	b->guest_seconds = kf_json_num(j, "guest_seconds");
	read_ktap(b, json_object_get(j, "ktap"));
	b->warnings = strs(j, "warnings", &b->nwarnings);
	console = json_object_get(j, "console");
	b->has_console = json_is_object(console);
	b->swiotlb_mapped = boolean(console, "swiotlb_mapped");
	b->microcode_updated = boolean(console, "microcode_updated");
	b->end_marker = boolean(console, "end_marker");
	b->hwalign = kf_json_int(console, "hwalign");
	json_object_foreach(json_object_get(j, "facts"), key, v)
		if (json_is_string(v)) {
			b->facts = kf_xrealloc(b->facts, (b->nfacts + 1) * sizeof(*b->facts));
			b->facts[b->nfacts].key = kf_xstrdup(key);
			b->facts[b->nfacts++].val = kf_xstrdup(json_string_value(v));
		}
}

int kf_boot_rec_read(struct kf_boot_rec *b, const char *path,
		     enum kf_need need, const char *fix)
{
	json_t *j;

	boot_init(b);
	j = load(&b->h, path, "boot", need, fix);
	if (!j)
		return -1;
	boot_fill(b, j);
	json_decref(j);
	return 0;
}

void kf_boot_rec_free(struct kf_boot_rec *b)
{
	free_head(&b->h);
	free(b->cpu);
	free(b->cpu_string);
	free(b->qemu_version);
	free_strs(b->command, b->ncommand);
	free(b->cmdline);
	free(b->bzimage_sha256);
	free(b->verdict);
	free(b->expected);
	for (size_t i = 0; i < b->ncases; i++) {
		free(b->cases[i].suite);
		free(b->cases[i].name);
		free(b->cases[i].directive);
	}
	free(b->cases);
	free_strs(b->warnings, b->nwarnings);
	for (size_t i = 0; i < b->nfacts; i++) {
		free(b->facts[i].key);
		free(b->facts[i].val);
	}
	free(b->facts);
	memset(b, 0, sizeof(*b));
}

const char *kf_boot_fact(const struct kf_boot_rec *b, const char *key)
{
	for (size_t i = 0; i < b->nfacts; i++)
		if (!strcmp(b->facts[i].key, key))
			return b->facts[i].val;
	return NULL;
}

/* ---- the rules ------------------------------------------------------------- */

int kf_boot_current(const struct kf_boot_rec *b, const struct kf_build_rec *build)
{
	return !build || !build->bzimage_sha256 || !b->bzimage_sha256 ||
	       !strcmp(b->bzimage_sha256, build->bzimage_sha256);
}

/* The order kf_boots_load sorts by (qsort has no argument for it). */
static struct {
	const char *const *names;
	size_t n;
} order_of;

static size_t model_index(const struct kf_boot_rec *b)
{
	for (size_t i = 0; b->cpu && i < order_of.n; i++)
		if (!strcmp(order_of.names[i], b->cpu))
			return i;
	return order_of.n;
}

static int by_model(const void *x, const void *y)
{
	const struct kf_boot_rec *a = x, *b = y;
	size_t i = model_index(a), k = model_index(b);

	if (i != k)
		return i < k ? -1 : 1;
	return strcmp(a->cpu ? a->cpu : "", b->cpu ? b->cpu : "");
}

static void push(struct kf_boot_rec **v, size_t *n, const struct kf_boot_rec *b)
{
	*v = kf_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = *b;
}

void kf_boots_load(struct kf_boots *bs, const char *dir, const struct kf_build_rec *build,
		   const char *const *order, size_t norder)
{
	char *bdir = kf_xasprintf("%s/boot", dir);
	size_t n;
	char **names = kf_dir_names(bdir, ".json", &n);

	memset(bs, 0, sizeof(*bs));
	for (size_t i = 0; i < n; i++) {
		char *path = kf_xasprintf("%s/%s", bdir, names[i]);
		struct kf_boot_rec b;

		if (!kf_boot_rec_read(&b, path, KF_WARN, "treated as missing")) {
			if (kf_boot_current(&b, build))
				push(&bs->cur, &bs->ncur, &b);
			else
				push(&bs->stale, &bs->nstale, &b);
		}
		free(path);
		free(names[i]);
	}
	free(names);
	free(bdir);
	order_of.names = order;
	order_of.n = order ? norder : 0;
	if (bs->ncur)
		qsort(bs->cur, bs->ncur, sizeof(*bs->cur), by_model);
	if (bs->nstale)
		qsort(bs->stale, bs->nstale, sizeof(*bs->stale), by_model);
}

void kf_boots_free(struct kf_boots *bs)
{
	for (size_t i = 0; i < bs->ncur; i++)
		kf_boot_rec_free(&bs->cur[i]);
	for (size_t i = 0; i < bs->nstale; i++)
		kf_boot_rec_free(&bs->stale[i]);
	free(bs->cur);
	free(bs->stale);
	memset(bs, 0, sizeof(*bs));
}

/* ---- c2c/<cpu>.json ---------------------------------------------------------- */

static void read_fig(struct kf_c2c_fig *f, const json_t *o)
{
	f->median = kf_json_num(o, "median");
	f->min = kf_json_num(o, "min");
	f->max = kf_json_num(o, "max");
	f->spread = kf_json_num(o, "spread");
	f->per_iteration = kf_json_num(o, "per_iteration");
}

static void read_sizefigs(struct kf_c2c_sizefigs *s, const json_t *o)
{
	static const struct { const char *key; size_t off; } f[] = {
#define F(x) { #x, offsetof(struct kf_c2c_sizefigs, x) }
		F(loads), F(load_miss), F(load_hitm), F(load_hitm_true), F(load_hitm_false),
		F(stores), F(store_miss), F(store_hitm), F(store_hitm_false), F(invalidations),
		F(rmw), F(lines),
#undef F
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		read_fig((struct kf_c2c_fig *)((char *)s + f[i].off), json_object_get(o, f[i].key));
}

/* A "functions" array: name and HITMs per run each. */
static struct kf_c2c_recfn *read_fns(const json_t *a, size_t *n)
{
	struct kf_c2c_recfn *fs = NULL;
	const json_t *fv;
	size_t k;

	*n = 0;
	json_array_foreach(a, k, fv) {
		char *name = str(fv, "name");

		if (!name)
			continue;
		fs = kf_xrealloc(fs, (*n + 1) * sizeof(*fs));
		fs[(*n)++] = (struct kf_c2c_recfn){ name, kf_json_num(fv, "hitm") };
	}
	return fs;
}

static void read_padding(struct kf_c2c_rec *c, const json_t *p)
{
	const json_t *v;
	size_t i;

	read_fig(&c->only128_load, json_object_get(p, "hitm_128_only_load"));
	read_fig(&c->only128_store, json_object_get(p, "hitm_128_only_store"));
	read_fig(&c->only64_load, json_object_get(p, "hitm_64_only_load"));
	read_fig(&c->only64_store, json_object_get(p, "hitm_64_only_store"));
	json_array_foreach(json_object_get(p, "lines"), i, v) {
		struct kf_c2c_padline *l;

		if (!json_is_object(v))
			continue;
		c->padlines = kf_xrealloc(c->padlines, (c->npadlines + 1) * sizeof(*c->padlines));
		l = &c->padlines[c->npadlines++];
		memset(l, 0, sizeof(*l));
		l->addr = str(v, "addr");
		read_fig(&l->hitm_128_only, json_object_get(v, "hitm_128_only"));
		read_fig(&l->hitm_64_only, json_object_get(v, "hitm_64_only"));
		l->objects_low = strs(v, "objects_low", &l->nobjects_low);
		l->objects_high = strs(v, "objects_high", &l->nobjects_high);
		l->percpu_cpu = kf_json_int(v, "percpu_cpu");
		l->functions = read_fns(json_object_get(v, "functions"), &l->nfunctions);
		l->functions_other = read_fns(json_object_get(v, "functions_other"),
					      &l->nfunctions_other);
	}
}

int kf_c2c_rec_read(struct kf_c2c_rec *c, const char *path, enum kf_need need,
		    const char *fix)
{
	const json_t *figs, *insns, *whole, *v;
	size_t i;
	json_t *j;

	memset(c, 0, sizeof(*c));
	c->vcpus = c->iterations = c->runs = c->smp = c->percpu_bytes = -1;
	/* From no object: every figure NAN. */
	read_sizefigs(&c->size64, NULL);
	read_sizefigs(&c->size128, NULL);
	read_padding(c, NULL);
	read_fig(&c->insns_kernel, NULL);
	read_fig(&c->insns_user, NULL);
	read_fig(&c->whole_insns, NULL);
	read_fig(&c->whole_accesses, NULL);
	read_fig(&c->whole_io, NULL);
	read_fig(&c->wall_seconds, NULL);
	j = load(&c->h, path, "c2c", need, fix);
	if (!j)
		return -1;
	c->cpu = str(j, "cpu");
	c->cpu_string = str(j, "cpu_string");
	c->qemu_version = str(j, "qemu_version");
	c->workload = str(j, "workload");
	c->count = str(j, "count");
	c->tcg = str(j, "tcg");
	c->unit = str(j, "unit");
	c->memory = str(j, "memory");
	c->smp = kf_json_int(j, "smp");
	c->kernel_text_phys = str(json_object_get(j, "attribution"), "kernel_text_phys");
	c->percpu_bytes = kf_json_int(json_object_get(j, "attribution"), "percpu_bytes");
	c->vcpus = kf_json_int(j, "vcpus");
	c->iterations = kf_json_int(j, "iterations");
	c->runs = kf_json_int(j, "runs");
	figs = json_object_get(j, "figures");
	read_sizefigs(&c->size64, json_object_get(figs, "64"));
	read_sizefigs(&c->size128, json_object_get(figs, "128"));
	read_padding(c, json_object_get(j, "padding"));
	insns = json_object_get(j, "insns");
	read_fig(&c->insns_kernel, json_object_get(insns, "kernel"));
	read_fig(&c->insns_user, json_object_get(insns, "user"));
	whole = json_object_get(j, "whole_run");
	read_fig(&c->whole_insns, json_object_get(whole, "insns"));
	read_fig(&c->whole_accesses, json_object_get(whole, "accesses"));
	read_fig(&c->whole_io, json_object_get(whole, "io_accesses"));
	read_fig(&c->wall_seconds, json_object_get(whole, "wall_seconds"));
	json_array_foreach(json_object_get(j, "lines"), i, v) {
		struct kf_c2c_recline *l;

		if (!json_is_object(v))
			continue;
		c->lines = kf_xrealloc(c->lines, (c->nlines + 1) * sizeof(*c->lines));
		l = &c->lines[c->nlines++];
		memset(l, 0, sizeof(*l));
		l->size = kf_json_int(v, "size");
		l->addr = str(v, "addr");
		l->pc = str(v, "pc");
		read_fig(&l->load_hitm, json_object_get(v, "load_hitm"));
		read_fig(&l->load_hitm_false, json_object_get(v, "load_hitm_false"));
		read_fig(&l->store_hitm, json_object_get(v, "store_hitm"));
		read_fig(&l->invalidations, json_object_get(v, "invalidations"));
		read_fig(&l->loads, json_object_get(v, "loads"));
		read_fig(&l->stores, json_object_get(v, "stores"));
		l->objects = strs(v, "objects", &l->nobjects_kept);
		l->nobjects = kf_json_int(v, "nobjects");
		l->percpu_cpu = kf_json_int(v, "percpu_cpu");
		l->function = str(v, "function");
		l->nfunctions = kf_json_int(v, "nfunctions");
		l->functions = read_fns(json_object_get(v, "functions"), &l->nfunctions_kept);
	}
	json_decref(j);
	return 0;
}

static void free_fns(struct kf_c2c_recfn *f, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(f[k].name);
	free(f);
}

void kf_c2c_rec_free(struct kf_c2c_rec *c)
{
	free_head(&c->h);
	free(c->cpu);
	free(c->cpu_string);
	free(c->qemu_version);
	free(c->workload);
	free(c->count);
	free(c->tcg);
	free(c->unit);
	free(c->memory);
	free(c->kernel_text_phys);
	for (size_t i = 0; i < c->nlines; i++) {
		free(c->lines[i].addr);
		free(c->lines[i].pc);
		free_strs(c->lines[i].objects, c->lines[i].nobjects_kept);
		free(c->lines[i].function);
		free_fns(c->lines[i].functions, c->lines[i].nfunctions_kept);
	}
	free(c->lines);
	for (size_t i = 0; i < c->npadlines; i++) {
		struct kf_c2c_padline *l = &c->padlines[i];

		free(l->addr);
		free_strs(l->objects_low, l->nobjects_low);
		free_strs(l->objects_high, l->nobjects_high);
		free_fns(l->functions, l->nfunctions);
		free_fns(l->functions_other, l->nfunctions_other);
	}
	free(c->padlines);
	memset(c, 0, sizeof(*c));
}

/* ---- the Debian system ---------------------------------------------------- */

int kf_rootfs_rec_read(struct kf_rootfs_rec *r, const char *path, enum kf_need need,
		       const char *fix)
{
	json_t *j;

	memset(r, 0, sizeof(*r));
	r->bytes = r->source_date_epoch = -1;
	r->seconds = NAN;
	j = load(&r->h, path, "rootfs", need, fix);
	if (!j)
		return -1;
	r->tar = str(j, "tar");
	r->sha256 = str(j, "sha256");
	r->key = str(j, "key");
	r->suite = str(j, "suite");
	r->variant = str(j, "variant");
	r->mmdebstrap = str(j, "mmdebstrap");
	r->bytes = kf_json_int(j, "bytes");
	r->source_date_epoch = kf_json_int(j, "source_date_epoch");
	r->include = strs(j, "include", &r->ninclude);
	r->sources = strs(j, "sources", &r->nsources);
	r->seconds = kf_json_num(j, "seconds");
	json_decref(j);
	return 0;
}

void kf_rootfs_rec_free(struct kf_rootfs_rec *r)
{
	free_head(&r->h);
	free(r->tar);
	free(r->sha256);
	free(r->key);
	free(r->suite);
	free(r->variant);
	free(r->mmdebstrap);
	free_strs(r->include, r->ninclude);
	free_strs(r->sources, r->nsources);
	memset(r, 0, sizeof(*r));
}

static void read_sys_file(struct kf_sys_file *f, const json_t *o)
{
	f->file = str(o, "file");
	f->sha256 = str(o, "sha256");
	f->bytes = kf_json_int(o, "bytes");
}

static void free_sys_file(struct kf_sys_file *f)
{
	free(f->file);
	free(f->sha256);
}

int kf_image_rec_read(struct kf_image_rec *r, const char *path, enum kf_need need,
		      const char *fix)
{
	const json_t *o;
	json_t *j;

	memset(r, 0, sizeof(*r));
	r->package.bytes = r->kernel.bytes = r->initrd.bytes = r->image.bytes = -1;
	r->initrd_modules = -1;
	r->seconds = NAN;
	j = load(&r->h, path, "image", need, fix);
	if (!j)
		return -1;
	o = json_object_get(j, "rootfs");
	r->rootfs_tar = str(o, "tar");
	r->rootfs_sha256 = str(o, "sha256");
	o = json_object_get(j, "package");
	read_sys_file(&r->package, o);
	r->package_name = str(o, "name");
	r->package_version = str(o, "version");
	read_sys_file(&r->kernel, json_object_get(j, "kernel"));
	o = json_object_get(j, "initrd");
	read_sys_file(&r->initrd, o);
	r->initrd_modules = kf_json_int(o, "modules");
	r->root_driver = str(o, "root_driver");
	r->root_driver_in = str(o, "root_driver_in");
	o = json_object_get(j, "image");
	read_sys_file(&r->image, o);
	r->uuid = str(o, "uuid");
	o = json_object_get(j, "extras");
	r->extra_files = strs(o, "files", &r->nextra_files);
	r->extra_units = strs(o, "units", &r->nextra_units);
	r->seconds = kf_json_num(j, "seconds");
	json_decref(j);
	return 0;
}

void kf_image_rec_free(struct kf_image_rec *r)
{
	free_head(&r->h);
	free(r->rootfs_tar);
	free(r->rootfs_sha256);
	free_sys_file(&r->package);
	free_sys_file(&r->kernel);
	free_sys_file(&r->initrd);
	free_sys_file(&r->image);
	free(r->package_name);
	free(r->package_version);
	free(r->root_driver);
	free(r->root_driver_in);
	free(r->uuid);
	free_strs(r->extra_files, r->nextra_files);
	free_strs(r->extra_units, r->nextra_units);
	memset(r, 0, sizeof(*r));
}

/* ---- deb/deb.json ------------------------------------------------------------ */

static void read_deb_pkg(struct kf_deb_pkg *p, const json_t *o)
{
	p->name = str(o, "name");
	p->kind = str(o, "kind");
	p->version = str(o, "version");
	p->arch = str(o, "arch");
	p->file = str(o, "file");
	p->path = str(o, "path");
	p->bytes = kf_json_int(o, "bytes");
	p->sha256 = str(o, "sha256");
	p->installed_kib = kf_json_int(o, "installed_kib");
	p->modules = kf_json_int(o, "modules");
	p->module_files = strs(o, "module_files", &p->nmodule_files);
	p->vmlinuz = str(o, "vmlinuz");
	p->modules_dir = str(o, "modules_dir");
}

int kf_deb_rec_read(struct kf_deb_rec *d, const char *path, enum kf_need need,
		    const char *fix)
{
	const json_t *v;
	json_t *j;
	size_t i;

	memset(d, 0, sizeof(*d));
	d->source_date_epoch = -1;
	j = load(&d->h, path, "deb", need, fix);
	if (!j)
		return -1;
	d->version = str(j, "version");
	d->source = str(j, "source");
	d->arch = str(j, "arch");
	d->dir = str(j, "dir");
	d->changes = str(j, "changes");
	d->source_date_epoch = kf_json_int(j, "source_date_epoch");
	json_array_foreach(json_object_get(j, "packages"), i, v)
		if (json_is_object(v)) {
			d->packages = kf_xrealloc(d->packages, (d->npackages + 1) * sizeof(*d->packages));
			read_deb_pkg(&d->packages[d->npackages++], v);
		}
	d->image = str(j, "image");
	json_decref(j);
	return 0;
}

const struct kf_deb_pkg *kf_deb_image(const struct kf_deb_rec *d)
{
	for (size_t i = 0; d->image && i < d->npackages; i++)
		if (d->packages[i].name && !strcmp(d->packages[i].name, d->image))
			return &d->packages[i];
	return NULL;
}

int kf_deb_has_module(const struct kf_deb_pkg *p, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; p && i < p->nmodule_files; i++) {
		const char *f = p->module_files[i], *base = strrchr(f, '/');

		base = base ? base + 1 : f;
		if (!strncmp(base, name, n) && (!base[n] || !strcmp(base + n, ".xz") ||
						 !strcmp(base + n, ".gz") || !strcmp(base + n, ".zst")))
			return 1;
	}
	return 0;
}

void kf_deb_rec_free(struct kf_deb_rec *d)
{
	free_head(&d->h);
	free(d->version);
	free(d->source);
	free(d->arch);
	free(d->dir);
	free(d->changes);
	for (size_t i = 0; i < d->npackages; i++) {
		struct kf_deb_pkg *p = &d->packages[i];

		free(p->name);
		free(p->kind);
		free(p->version);
		free(p->arch);
		free(p->file);
		free(p->path);
		free(p->sha256);
		free_strs(p->module_files, p->nmodule_files);
		free(p->vmlinuz);
		free(p->modules_dir);
	}
	free(d->packages);
	free(d->image);
	memset(d, 0, sizeof(*d));
	d->source_date_epoch = -1;
}

/* ---- sysboot/<cpu>.json ----------------------------------------------- */

int kf_sysboot_rec_read(struct kf_sysboot_rec *s, const char *path, enum kf_need need,
			const char *fix)
{
	const json_t *sys, *root, *mem;
	json_t *j;

	memset(s, 0, sizeof(*s));
	boot_init(&s->b);
	s->multi_user_reached = -1;
	s->multi_user_seconds = s->userspace_seconds = NAN;
	s->mem_total_kb = s->mem_used_kb = -1;
	j = load(&s->b.h, path, "sysboot", need, fix);
	if (!j)
		return -1;
	boot_fill(&s->b, j);
	s->initrd_sha256 = str(j, "initrd_sha256");
	s->image = str(j, "image");
	s->image_record = str(j, "image_record");
	s->cause = str(j, "cause");
	sys = json_object_get(j, "system");
	s->multi_user_reached = boolean(sys, "multi_user_reached");
	s->multi_user_seconds = kf_json_num(sys, "multi_user_seconds");
	s->userspace_seconds = kf_json_num(sys, "userspace_seconds");
	s->systemd_version = str(sys, "systemd_version");
	s->system_state = str(sys, "system_state");
	s->failed_units = strs(sys, "failed_units", &s->nfailed_units);
	s->modules = strs(sys, "modules", &s->nmodules);
	root = json_object_get(sys, "root");
	s->root_device = str(root, "device");
	s->root_drivers = strs(root, "drivers", &s->nroot_drivers);
	s->root_modules = strs(root, "modules", &s->nroot_modules);
	mem = json_object_get(sys, "memory");
	s->mem_total_kb = kf_json_int(mem, "total_kb");
	s->mem_used_kb = kf_json_int(mem, "used_kb");
	s->systemd_lines = strs(sys, "systemd_lines", &s->nsystemd_lines);
	s->no_root_line = str(sys, "no_root_line");
	json_decref(j);
	return 0;
}

void kf_sysboot_rec_free(struct kf_sysboot_rec *s)
{
	kf_boot_rec_free(&s->b);
	free(s->initrd_sha256);
	free(s->image);
	free(s->image_record);
	free(s->cause);
	free(s->systemd_version);
	free(s->system_state);
	free_strs(s->failed_units, s->nfailed_units);
	free_strs(s->modules, s->nmodules);
	free(s->root_device);
	free_strs(s->root_drivers, s->nroot_drivers);
	free_strs(s->root_modules, s->nroot_modules);
	free_strs(s->systemd_lines, s->nsystemd_lines);
	free(s->no_root_line);
	memset(s, 0, sizeof(*s));
	boot_init(&s->b);
	s->multi_user_seconds = s->userspace_seconds = NAN;
}

/* ---- which audit is current ---------------------------------------------- */

void kf_config_state_read(struct kf_config_state *s, const char *dir)
{
	char *failed_json = kf_xasprintf("%s/" KF_CONFIG_FAILED_JSON, dir);
	char *good_json = kf_xasprintf("%s/" KF_CONFIG_JSON, dir);
	char *reason = kf_xasprintf("%s/" KF_CONFIG_FAILED, dir);
	char *text = kf_read_file(reason, NULL);

	memset(s, 0, sizeof(*s));
	if (!access(failed_json, F_OK)) {
		s->audit = failed_json;
		failed_json = NULL;
	} else if (!access(good_json, F_OK)) {
		s->audit = good_json;
		good_json = NULL;
	}
	if (text) {
		text[strcspn(text, "\n")] = '\0';
		s->failed = text;
	}
	free(failed_json);
	free(good_json);
	free(reason);
}

void kf_config_state_free(struct kf_config_state *s)
{
	free(s->audit);
	free(s->failed);
	memset(s, 0, sizeof(*s));
}

/* ---- flavour.json -------------------------------------------------------- */

int kf_flavour_rec_read(struct kf_flavour_rec *f, const char *path, enum kf_need need,
			const char *fix)
{
	json_t *j, *base, *model;

	memset(f, 0, sizeof(*f));
	j = load(&f->h, path, "flavour", need, fix);
	if (!j)
		return -1;
	f->recipe = str(j, "recipe");
	f->description = str(j, "description");
	f->fragments = strs(j, "fragments", &f->nfragments);
	base = json_object_get(j, "base");
	f->base = str(base, "name");
	f->base_file = str(base, "file");
	model = json_object_get(j, "model");
	f->model = str(model, "name");
	f->model_cpu = str(model, "cpu");
	f->model_expect = str(model, "expect");
	f->memory = str(j, "memory");
	f->smp = str(j, "smp");
	f->cmdline = str(j, "cmdline");
	f->group = str(j, "group");
	json_decref(j);
	return 0;
}

void kf_flavour_rec_free(struct kf_flavour_rec *f)
{
	free_head(&f->h);
	free(f->recipe);
	free(f->description);
	free_strs(f->fragments, f->nfragments);
	free(f->base);
	free(f->base_file);
	free(f->model);
	free(f->model_cpu);
	free(f->model_expect);
	free(f->memory);
	free(f->smp);
	free(f->cmdline);
	free(f->group);
	memset(f, 0, sizeof(*f));
}
