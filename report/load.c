// SPDX-License-Identifier: GPL-2.0
/*
 * load.c - read what the earlier stages left in out/<kver>/ into a struct
 * report: per flavour .config, config.failed, and config.json, build.json
 * boot/<cpu>.json, and the system stage's deb.json, image.json and
 * sysboot/<cpu>.json through lib/records.h's readers (their header check,
 * the current-boot rule), as the records have them: derive.c computes. One
 * function per record. Whatever is missing or unreadable stays missing
 * (NULL, -1, NAN); nothing here fails on a half-finished out/.
 */
#include "report.h"
#include "../lib/cpumodels.h"
#include "../lib/kf.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Append s (now owned by the vector) to a vector of strings. */
static void push(char ***v, size_t *n, char *s)
{
	*v = kf_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static const struct kf_build_run no_run = {
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

/* A flavour's description and CPU model from the config stage's record of
 * it (kdir/<f>/flavour.json, lib/records.h): the report reads no recipe. A
 * flavour without one (never configured, an out/ of an older kflavour)
 * shows neither. */
void report_read_flavours(struct report *r, const char *kdir)
{
	for (size_t i = 0; i < r->nfl; i++) {
		struct flavour *f = &r->fl[i];
		char *path = kf_xasprintf("%s/%s/flavour.json", kdir, f->name);
		struct kf_flavour_rec fr;

		if (!kf_flavour_rec_read(&fr, path, KF_QUIET, "run make config")) {
			f->description = fr.description ? kf_xstrdup(fr.description) : NULL;
			f->default_cpu = fr.model ? kf_xstrdup(fr.model) : NULL;
		}
		kf_flavour_rec_free(&fr);
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

/* ---- config ------------------------------------------------------------- */

static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The CPU choice's values, once each, for kc_classify. */
static void add_cpu_values(struct report *r, char *const *values, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (r->ncpu_values && bsearch(&values[i], r->cpu_values, r->ncpu_values,
					      sizeof(*r->cpu_values), by_str))
			continue;
		push(&r->cpu_values, &r->ncpu_values, kf_xstrdup(values[i]));
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
	struct kf_config_state st;

	kf_config_state_read(&st, dir);
	f->config_failed = st.failed;
	st.failed = NULL;
	kf_config_state_free(&st);
}

/* config.json, through lib/records.c. */
static void load_config_json(struct report *r, struct flavour *f, const char *dir)
{
	char *path = kf_xasprintf("%s/config.json", dir);
	struct kf_config_rec c;

	if (!kf_config_rec_read(&c, path, KF_QUIET, "treated as missing")) {
		if (c.ok >= 0)
			f->audit = c.ok ? "ok" : "failed";
		f->cpu_choice = c.cpu_choice ? kf_xstrdup(c.cpu_choice) : NULL;
		f->l1_cache_shift = (long)c.l1_cache_shift;
		add_cpu_values(r, c.cpu_choice_values, c.ncpu_choice_values);
		f->systemd = c.systemd;
		memset(&c.systemd, 0, sizeof(c.systemd));
		/* Fragment files from the audit when make passed none. */
		for (size_t i = 0, none = !f->nfragments; none && i < c.nfragments; i++)
			push(&f->fragments, &f->nfragments, kf_xstrdup(c.fragments[i]));
	}
	kf_config_rec_free(&c);
	free(path);
}

/* ---- build -------------------------------------------------------------- */

/* build.json, through lib/records.c: the flavour keeps the record. */
static void load_build(struct flavour *f, const char *kdir, const char *dir)
{
	char *path = kf_xasprintf("%s/build.json", dir);
	const struct kf_build_rec *b = &f->build_rec;

	f->has_build = !kf_build_rec_read(&f->build_rec, path, KF_QUIET, "treated as missing");
	free(path);
	if (!f->has_build)
		return;
	f->release = b->h.release;
	f->bzimage_bytes = b->bzimage_bytes;
	f->march = b->march;
	f->mtune = b->mtune;
	f->bzimage_sha256 = b->bzimage_sha256;
	f->code_bytes = b->code_bytes;
	f->build = b->run;
	f->full = b->last_full;
	f->has_full = b->has_last_full;
	f->sections = b->sections;
	f->nsections = b->nsections;
	f->build_log = present(kf_xasprintf("%s/build.log", f->name), kdir);
}

/* ---- boots -------------------------------------------------------------- */

/* The CPU model a boot record's file is named by: boot/<cpu>.json. */
static char *file_cpu(const struct kf_boot_rec *k)
{
	const char *base = strrchr(k->h.path, '/') + 1;

	return kf_xstrndup(base, strlen(base) - strlen(".json"));
}

/* A current boot record (the flavour keeps it), and whether its log is there. */
static void load_boot(struct flavour *f, const char *kdir, struct kf_boot_rec *k)
{
	char *stem = file_cpu(k);
	struct boot *b;

	f->boots = kf_xrealloc(f->boots, (f->nboots + 1) * sizeof(*f->boots));
	b = &f->boots[f->nboots++];
	memset(b, 0, sizeof(*b));
	if (!k->cpu)
		k->cpu = kf_xstrdup(stem);
	b->rec = k;
	b->cpu = k->cpu;
	b->cpu_string = k->cpu_string;
	b->verdict = k->verdict;
	b->expected = k->expected;
	b->wall_seconds = k->wall_seconds;
	b->guest_seconds = k->guest_seconds;
	b->qemu_version = k->qemu_version;
	b->release = k->h.release;
	b->ktap_passed = (long)k->ktap_passed;
	b->ktap_failed = (long)k->ktap_failed;
	b->ktap_skipped = (long)k->ktap_skipped;
	b->cases = k->cases;
	b->ncases = k->ncases;
	b->facts = k->facts;
	b->nfacts = k->nfacts;
	b->warnings = k->warnings;
	b->nwarnings = k->nwarnings;
	b->has_console = k->has_console;
	b->swiotlb_mapped = k->swiotlb_mapped > 0;
	b->end_marker = k->end_marker > 0;
	b->microcode_updated = k->microcode_updated > 0;
	b->hwalign = (long)k->hwalign;
	b->log = present(kf_xasprintf("%s/boot/%s.log", f->name, stem), kdir);
	free(stem);
}

/* Every boot record, split by lib/records.c's current-boot rule: a record
 * of an earlier bzImage is named, not shown. */
static void load_boots(struct report *r, struct flavour *f, const char *dir)
{
	kf_boots_load(&f->boot_recs, dir, f->has_build ? &f->build_rec : NULL, NULL, 0);
	for (size_t i = 0; i < f->boot_recs.ncur; i++)
		load_boot(f, r->kdir, &f->boot_recs.cur[i]);
	for (size_t i = 0; i < f->boot_recs.nstale; i++)
		push(&f->stale_boots, &f->nstale_boots, file_cpu(&f->boot_recs.stale[i]));
}

/* The comparison workload's c2c record: <f>/c2c/<cpu>.json of the c2c
 * machine (--c2c-cpu, make's c2c cpu), <workload>.<cpu>.json for another
 * workload than pipe (--c2c-workload); without a machine the flavour's CPU
 * model's first, else the first pipe record there. Either way report_load
 * keeps only the records of one machine. */
static void load_c2c(const struct report *r, struct flavour *f, const char *dir)
{
	const char *cpu = r->c2c_cpu ? r->c2c_cpu : f->default_cpu ? f->default_cpu : "";
	const char *w = r->c2c_workload && strcmp(r->c2c_workload, "pipe") != 0 ?
			r->c2c_workload : NULL;
	char *path = w ? kf_xasprintf("%s/c2c/%s.%s.json", dir, w, cpu) :
			 kf_xasprintf("%s/c2c/%s.json", dir, cpu);
	char *cdir = kf_xasprintf("%s/c2c", dir);
	DIR *d;

	if (!r->c2c_cpu && !w && access(path, R_OK) && (d = opendir(cdir))) {
		const struct dirent *e;
		char *best = NULL;

		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name);

			if (len > 5 && !strcmp(e->d_name + len - 5, ".json") &&
			    !memchr(e->d_name, '.', len - 5) &&
			    (!best || strcmp(e->d_name, best) < 0)) {
				free(best);
				best = kf_xstrdup(e->d_name);
			}
		}
		closedir(d);
		if (best) {
			free(path);
			path = kf_xasprintf("%s/%s", cdir, best);
			free(best);
		}
	}
	if (!access(path, R_OK))
		f->has_c2c = !kf_c2c_rec_read(&f->c2c, path, KF_WARN, "run make c2c again");
	free(path);
	free(cdir);
}

static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* ---- system ------------------------------------------------------------- */

static int by_sysboot_cpu(const void *a, const void *b)
{
	const struct kf_sysboot_rec *x = a, *y = b;

	return strcmp(x->b.cpu ? x->b.cpu : "", y->b.cpu ? y->b.cpu : "");
}

/* deb/deb.json, system/image.json and every sysboot/<cpu>.json, through
 * lib/records.c; the flavour keeps them. */
static void load_system(struct flavour *f, const char *dir)
{
	char *path = kf_xasprintf("%s/deb/deb.json", dir), *sdir;
	struct dirent *e;
	DIR *d;

	f->has_deb = !kf_deb_rec_read(&f->deb, path, KF_QUIET, "run make deb again");
	free(path);
	path = kf_xasprintf("%s/system/image.json", dir);
	f->has_image = !kf_image_rec_read(&f->image, path, KF_QUIET, "run make system again");
	free(path);
	sdir = kf_xasprintf("%s/sysboot", dir);
	d = opendir(sdir);
	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		struct kf_sysboot_rec s;

		if (n <= 5 || strcmp(e->d_name + n - 5, ".json") != 0)
			continue;
		path = kf_xasprintf("%s/%s", sdir, e->d_name);
		if (!kf_sysboot_rec_read(&s, path, KF_WARN, "run make sysboot again")) {
			if (!s.b.cpu)
				s.b.cpu = kf_xstrndup(e->d_name, n - 5);
			f->sysboots = kf_xrealloc(f->sysboots,
						  (f->nsysboots + 1) * sizeof(*f->sysboots));
			f->sysboots[f->nsysboots++] = s;
		}
		free(path);
	}
	if (d)
		closedir(d);
	free(sdir);
	if (f->nsysboots)
		qsort(f->sysboots, f->nsysboots, sizeof(*f->sysboots), by_sysboot_cpu);
}

/* A comparison holds the flavours of one machine (docs/c2c.md): a record
 * of another CPU model, memory or CPU count than the first flavour's is
 * said and left out. */
static void c2c_one_machine(struct report *r)
{
	const struct flavour *first = NULL;

	for (size_t i = 0; i < r->nfl; i++) {
		struct flavour *f = &r->fl[i];
		const struct kf_c2c_rec *a, *b = &f->c2c;

		if (!f->has_c2c)
			continue;
		if (!first) {
			first = f;
			continue;
		}
		a = &first->c2c;
		if (same(a->cpu, b->cpu) && same(a->cpu_string, b->cpu_string) &&
		    same(a->memory, b->memory) && a->smp == b->smp && same(a->workload, b->workload) &&
		    same(a->tcg, b->tcg))
			continue;
		kf_warn("%s: another machine, workload or TCG mode (%s, -m %s, -smp %lld, %s, tcg %s) "
			"than %s (%s, -m %s, -smp %lld, %s, tcg %s); left out of the c2c comparison. "
			"Run make c2c flavour=\"%s %s\" to run both on one machine", b->h.path,
			b->cpu ? b->cpu : "?", b->memory ? b->memory : "?", b->smp,
			b->workload ? b->workload : "?", b->tcg ? b->tcg : "?", a->h.path,
			a->cpu ? a->cpu : "?", a->memory ? a->memory : "?", a->smp,
			a->workload ? a->workload : "?", a->tcg ? a->tcg : "?", first->name, f->name);
		kf_c2c_rec_free(&f->c2c);
		f->has_c2c = 0;
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

		if (is_a(dir, S_IFDIR)) {
			load_dotconfig(f, dir);
			load_config_failed(f, dir);
			load_config_json(r, f, dir);
			load_build(f, kdir, dir);
			load_boots(r, f, dir);
			load_c2c(r, f, dir);
			load_system(f, dir);
		}
		free(dir);
	}
	c2c_one_machine(r);
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
	return kf_boot_fact(b->rec, key);
}

long long flavour_section(const struct flavour *f, const char *name)
{
	for (size_t i = 0; i < f->nsections; i++)
		if (!strcmp(f->sections[i].name, name))
			return f->sections[i].bytes;
	return -1;
}

/* ---- free --------------------------------------------------------------- */

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
		free(f->config_failed);
		kf_sysneeds_free(&f->systemd);
		kf_build_rec_free(&f->build_rec);
		free(f->build_log);
		free_strs(f->stale_boots, f->nstale_boots);
		for (size_t k = 0; k < f->nboots; k++)
			free(f->boots[k].log);
		free(f->boots);
		kf_boots_free(&f->boot_recs);
		kf_c2c_rec_free(&f->c2c);
		if (f->has_deb)
			kf_deb_rec_free(&f->deb);
		if (f->has_image)
			kf_image_rec_free(&f->image);
		for (size_t k = 0; k < f->nsysboots; k++)
			kf_sysboot_rec_free(&f->sysboots[k]);
		free(f->sysboots);
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
