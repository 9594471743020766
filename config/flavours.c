// SPDX-License-Identifier: GPL-2.0
/*
 * flavours - read every recipe in flavours/, check it, and print what make
 * needs: the flavour list and each flavour's fragment files and boot settings.
 *
 *   flavours KVER            make variables, for out/<kver>/flavours.mk
 *                            (also <f>_base_file and group_<g>, the
 *                            flavours of each group; and boot/cpu-models
 *                            as cpu_names and cpu_model_<name>)
 *   flavours --list KVER     one line per flavour, for 'make list'
 *   flavours --fragments KVER FLAVOUR   its fragment files for KVER, one
 *                            line (make upgrade: both trees' lists)
 *   flavours --suggest NAME FLAVOUR...   the FLAVOURs near NAME (a typo)
 *
 * A broken recipe (bad syntax, or naming a fragment or CPU model that does
 * not exist) blocks only itself: it is left out of all_flavours and listed
 * in broken_flavours with its error (file, line, fix) as <name>_broken, so
 * make names it and every other flavour still works.
 */
#include "../lib/cpumodels.h"
#include "../lib/kf.h"
#include "../lib/records.h"

#include <dirent.h>
#include <getopt.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted list of flavours/<name>.flavour paths. */
static char **recipe_paths(size_t *n)
{
	DIR *d = opendir("flavours");
	struct dirent *e;
	char **v = NULL;

	*n = 0;
	if (!d)
		kf_die(2, "flavours/: %s; run make from the top of the kflavour checkout",
		       strerror(errno));
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len <= 8 || strcmp(e->d_name + len - 8, ".flavour") != 0)
			continue;
		v = kf_xrealloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = kf_xasprintf("flavours/%s", e->d_name);
	}
	closedir(d);
	if (v)
		qsort(v, *n, sizeof(*v), by_name);
	return v;
}

/* fragments/<kver>/<name>.config wins over fragments/<name>.config. */
static char *fragment_path(const char *kver, const char *name)
{
	char *p = kf_xasprintf("fragments/%s/%s.config", kver, name);

	if (!access(p, R_OK))
		return p;
	free(p);
	p = kf_xasprintf("fragments/%s.config", name);
	if (!access(p, R_OK))
		return p;
	free(p);
	return NULL;
}

/* Check what one recipe points at; on a problem "file:line: ...; fix" in
 * err and -1. */
static int check_refs(const struct kf_recipe *r, const char *kver,
		      const struct kf_cpu_models *models, char *err, size_t errlen)
{
	char *list = kf_xstrdup(r->value[KF_FRAGMENTS]), *save = NULL;
	int rc = 0;

	for (char *f = strtok_r(list, " \t", &save); f && !rc;
	     f = strtok_r(NULL, " \t", &save)) {
		char *p = fragment_path(kver, f);

		if (!p) {
			snprintf(err, errlen, "%s:%d: fragment '%s' not found: no fragments/%s.config "
				 "(nor fragments/%s/%s.config); fix the name or add the file",
				 r->path, r->line[KF_FRAGMENTS], f, f, kver, f);
			rc = -1;
		}
		free(p);
	}
	free(list);
	if (!rc && !strncmp(r->value[KF_BASE], "file:", 5) &&
	    access(r->value[KF_BASE] + 5, R_OK)) {
		snprintf(err, errlen, "%s:%d: base file '%s' not found (%s); the path is relative to the checkout",
			 r->path, r->line[KF_BASE], r->value[KF_BASE] + 5, strerror(errno));
		rc = -1;
	}
	if (!rc && !kf_cpu_model_find(models, r->value[KF_CPU])) {
		snprintf(err, errlen, "%s:%d: cpu model '%s' is not in %s; use one listed there",
			 r->path, r->line[KF_CPU], r->value[KF_CPU], KF_CPU_MODELS);
		rc = -1;
	}
	return rc;
}

/* Make-safe: recipes are ours, but '$' and '#' would still surprise make. */
static void put_make_value(const char *s)
{
	for (; *s; s++) {
		if (*s == '$')
			fputs("$$", stdout);
		else if (*s == '#')
			fputs("\\#", stdout);
		else
			putchar(*s);
	}
}

/*
 * The config file a base names: debian:<name> is Debian's config for this
 * tree from the linux-config-<kver> package (checked when the config stage
 * runs, so a missing package does not break every other make goal);
 * tinyconfig has none.
 */
static char *base_file(const struct kf_recipe *r, const char *kver)
{
	const char *b = r->value[KF_BASE];

	if (!strncmp(b, "debian:", 7))
		return kf_xasprintf("/usr/src/linux-config-%s/config.%s.xz", kver, b + 7);
	if (!strncmp(b, "file:", 5))
		return kf_xstrdup(b + 5);
	return kf_xstrdup("");
}

/* "fragments/a.config fragments/<kver>/b.config ...": checked by check_refs. */
static void print_fragment_files(const struct kf_recipe *r, const char *kver)
{
	char *list = kf_xstrdup(r->value[KF_FRAGMENTS]), *save = NULL;
	const char *sep = "";

	for (char *f = strtok_r(list, " \t", &save); f;
	     f = strtok_r(NULL, " \t", &save), sep = " ") {
		char *p = fragment_path(kver, f);

		printf("%s%s", sep, p);
		free(p);
	}
	putchar('\n');
	free(list);
}

static void print_make(const struct kf_recipe *r, const char *kver)
{
	char *base = base_file(r, kver);

	printf("%s_fragment_files := ", r->name);
	print_fragment_files(r, kver);
	for (int k = 0; k < KF_NR_KEYS; k++) {
		printf("%s_%s := ", r->name, kf_recipe_keys[k]);
		put_make_value(r->value[k]);
		putchar('\n');
	}
	printf("%s_base_file := ", r->name);
	put_make_value(base);
	printf("\ngroup_%s += %s\nall_groups += %s\n", r->value[KF_GROUP], r->name,
	       r->value[KF_GROUP]);
	free(base);
}

/*
 * --record KVER FLAVOUR FILE: the flavour resolved once for KVER, the config
 * stage's record (config/flavour.schema.json, read by lib/records.c's
 * kf_flavour_rec_read()). FILE is left alone when it already says the
 * same (Kbuild's filechk): a make that rewrote flavours.mk for another
 * recipe re-boots nothing.
 */
static void record(const char *kver, const char *name, const struct kf_cpu_models *models,
		   const char *out)
{
	char *path = kf_xasprintf("flavours/%s.flavour", name), err[1024], *base, *text, *old;
	char *list, *save = NULL;
	const struct kf_cpu_model *m;
	struct kf_recipe r;
	json_t *rec, *frags = json_array();

	if (kf_recipe_read(path, &r, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
	if (check_refs(&r, kver, models, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
	m = kf_cpu_model_find(models, r.value[KF_CPU]);
	list = kf_xstrdup(r.value[KF_FRAGMENTS]);
	for (char *f = strtok_r(list, " \t", &save); f; f = strtok_r(NULL, " \t", &save)) {
		char *p = fragment_path(kver, f);

		json_array_append_new(frags, json_string(p));
		free(p);
	}
	free(list);
	base = base_file(&r, kver);
	rec = kf_record_new("flavour", r.name, kver, NULL);
	json_object_set_new(rec, "recipe", json_string(path));
	json_object_set_new(rec, "description", json_string(r.value[KF_DESCRIPTION]));
	json_object_set_new(rec, "fragments", frags);
	json_object_set_new(rec, "base", json_pack("{s:s, s:o}", "name", r.value[KF_BASE], "file",
						   *base ? json_string(base) : json_null()));
	json_object_set_new(rec, "model", json_pack("{s:s, s:s, s:s}", "name", m->name,
						    "cpu", m->cpu_string, "expect", m->expect));
	json_object_set_new(rec, "memory", json_string(r.value[KF_MEMORY]));
	json_object_set_new(rec, "smp", json_string(r.value[KF_SMP]));
	json_object_set_new(rec, "cmdline", json_string(r.value[KF_CMDLINE]));
	json_object_set_new(rec, "group", json_string(r.value[KF_GROUP]));
	text = kf_record_text(rec);
	old = kf_read_file(out, NULL);
	if (!text)
		kf_die(2, "out of memory");
	if ((!old || strcmp(old, text) != 0) && kf_write_atomic(out, text, strlen(text)))
		kf_die(2, "%s: %s; is out/ writable?", out, strerror(errno));
	free(old);
	free(text);
	free(base);
	json_decref(rec);
	kf_recipe_free(&r);
	free(path);
}

/* --audit DIR: the current audit of the flavour in DIR (out/<kver>/<f>), as
 * lib/records.c's kf_config_state_read() says: make upgrade's. */
static int current_audit(const char *dir)
{
	struct kf_config_state st;

	kf_config_state_read(&st, dir);
	/* neither there: config.json, which the reader then says is missing */
	if (st.audit)
		printf("%s\n", st.audit);
	else
		printf("%s/config.json\n", dir);
	kf_config_state_free(&st);
	return 0;
}

/* --suggest NAME FLAVOUR...: print the FLAVOURs near NAME, space-separated. */
static int suggest(const char *name, int argc, char **argv)
{
	const char *sep = "";

	for (int i = 0; i < argc; i++)
		if (kf_near(name, argv[i])) {
			printf("%s%s", sep, argv[i]);
			sep = " ";
		}
	putchar('\n');
	return 0;
}

/* --fragments KVER FLAVOUR: the flavour's fragment files for KVER. */
static void fragments(const char *kver, const char *name, const struct kf_cpu_models *models)
{
	char *path = kf_xasprintf("flavours/%s.flavour", name), err[1024];
	struct kf_recipe r;

	if (kf_recipe_read(path, &r, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
	if (check_refs(&r, kver, models, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
	print_fragment_files(&r, kver);
	kf_recipe_free(&r);
	free(path);
}

/* The CPU models as make variables: cpu_names, and each model's line as
 * written as cpu_model_<name> (boot/boot.mk's per-model stamp). */
static void print_models(const struct kf_cpu_models *t)
{
	char *names = kf_cpu_model_names(t, NULL);

	printf("cpu_names := %s\n", names);
	for (size_t i = 0; i < t->n; i++)
		printf("cpu_model_%s := %s\n", t->m[i].name, t->m[i].text);
	free(names);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "suggest", required_argument, NULL, 's' },
		{ "fragments", no_argument, NULL, 'f' },
		{ "record", no_argument, NULL, 'r' },
		{ "audit", required_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	const char *kver, *near = NULL, *usage =
		"usage: flavours [--list] KVER | --fragments KVER FLAVOUR | --record KVER FLAVOUR FILE | --audit DIR | --suggest NAME FLAVOUR...";
	struct kf_cpu_models models;
	struct kf_recipe *r;
	char **paths, **errs, merr[1024];
	size_t n;
	int list = 0, frags = 0, rec = 0, c;

	kf_prog = "flavours";
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		if (c == 'l')
			list = 1;
		else if (c == 's')
			near = optarg;
		else if (c == 'f')
			frags = 1;
		else if (c == 'r')
			rec = 2;
		else if (c == 'a')
			return current_audit(optarg);
		else
			kf_die(2, "%s", usage);
	}
	if (near)
		return suggest(near, argc - optind, argv + optind);
	if (optind + 1 + frags + rec != argc || (frags && rec))
		kf_die(2, "%s", usage);
	kver = argv[optind];
	if (kf_cpu_models_read(&models, KF_CPU_MODELS, merr, sizeof(merr)) < 0)
		kf_die(2, "%s", merr);
	if (rec) {
		record(kver, argv[optind + 1], &models, argv[optind + 2]);
		kf_cpu_models_free(&models);
		return 0;
	}
	if (frags) {
		fragments(kver, argv[optind + 1], &models);
		kf_cpu_models_free(&models);
		return 0;
	}
	paths = recipe_paths(&n);
	if (!n)
		kf_die(2, "flavours/: no *.flavour recipe; add one (see docs/guide.md)");
	r = kf_xmalloc(n * sizeof(*r));
	errs = kf_xmalloc(n * sizeof(*errs));
	for (size_t i = 0; i < n; i++) {
		char err[1024];

		errs[i] = NULL;
		if (kf_recipe_read(paths[i], &r[i], err, sizeof(err)) < 0) {
			errs[i] = kf_xstrdup(err);
		} else if (check_refs(&r[i], kver, &models, err, sizeof(err)) < 0) {
			errs[i] = kf_xstrdup(err);
			kf_recipe_free(&r[i]);
		}
	}
	if (!list) {
		printf("# Generated from flavours/*.flavour by config/flavours.c.\nall_flavours :=");
		for (size_t i = 0; i < n; i++)
			if (!errs[i])
				printf(" %s", r[i].name);
		printf("\nbroken_flavours :=");
		for (size_t i = 0; i < n; i++)
			if (errs[i]) {
				char *name = kf_flavour_of(paths[i]);

				printf(" %s", name);
				free(name);
			}
		putchar('\n');
		print_models(&models);
	}
	for (size_t i = 0; i < n; i++) {
		char *name = kf_flavour_of(paths[i]);

		if (errs[i] && list) {
			printf("%-18s BROKEN   %s\n", name, errs[i]);
		} else if (errs[i]) {
			printf("%s_broken := ", name);
			put_make_value(errs[i]);
			putchar('\n');
		} else if (list) {
			printf("%-18s %-8s %s\n%-18s fragments: %s (on %s; group %s)\n", r[i].name,
			       r[i].value[KF_CPU], r[i].value[KF_DESCRIPTION], "",
			       r[i].value[KF_FRAGMENTS], r[i].value[KF_BASE], r[i].value[KF_GROUP]);
		} else {
			print_make(&r[i], kver);
		}
		if (!errs[i])
			kf_recipe_free(&r[i]);
		free(errs[i]);
		free(name);
		free(paths[i]);
	}
	free(r);
	free(errs);
	free(paths);
	kf_cpu_models_free(&models);
	return 0;
}
