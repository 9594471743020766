// SPDX-License-Identifier: GPL-2.0
/*
 * package-record - collect the packages make deb built and write their
 * record, deb.json (package/deb.schema.json, docs/system-boot.md "Packages").
 *
 *   package-record --flavour F --kver K --changes FILE --to DIR --dir FINAL
 *                  --source-date-epoch N [--log FILE] [--quiet]
 *
 * The tree's bindeb-pkg writes its packages beside the Kbuild O= directory
 * (dpkg-buildpackage's ".."), with the .changes that lists them. This tool
 * reads that .changes (Source, Version, Architecture, Checksums-Sha256),
 * moves every file it lists and the .changes itself into DIR (a temporary
 * directory make renames to FINAL once the record is there), checks each
 * file's SHA-256 and size against the .changes, and reads each .deb with
 * dpkg-deb: its control fields (Package, Version, Architecture,
 * Installed-Size) and, for the kernel image package, its contents: the
 * modules under /lib/modules/<release>/ and /boot/vmlinuz-<release>. The
 * record names FINAL's paths, and the wall and CPU seconds bindeb-pkg took,
 * from the trailer build-progress wrote to its log (--log, deb.log; null
 * without one). Then one line on stdout:
 *   "  DEB     F: linux-image-R (N modules, S KiB) + 2 more in FINAL".
 * Any problem is one line naming the file and the fix, exit 2; nothing is
 * written to DIR's record then (make removes DIR).
 */
#include "../lib/kf.h"
#include "../lib/proc.h"
#include "../lib/record.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct changed {
	char *sha256, *file;
	long long bytes;
};

struct changes {
	char *source, *version, *arch;
	struct changed *files;
	size_t nfiles;
};

/* The value of "Key: value" when line is that field, else NULL. */
static const char *field(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) != 0 || line[n] != ':')
		return NULL;
	line += n + 1;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

static void read_changes(struct changes *c, const char *path)
{
	char *text = kf_read_file(path, NULL), *line, *next;
	int in_sha = 0, lineno = 0;
	const char *v;

	if (!text)
		kf_die(2, "%s: cannot read it (%s); bindeb-pkg did not finish: see the flavour's deb.log",
		       path, strerror(errno));
	memset(c, 0, sizeof(*c));
	for (line = text; line; line = next) {
		next = kf_cut_line(line);
		lineno++;
		if (in_sha && (line[0] == ' ' || line[0] == '\t')) {
			char sha[65], name[256];
			long long bytes;
			struct changed *f;

			if (sscanf(line, " %64s %lld %255s", sha, &bytes, name) != 3)
				kf_die(2, "%s:%d: not a Checksums-Sha256 line ('SHA256 SIZE FILE'); remove the file and run make deb again",
				       path, lineno);
			c->files = kf_xrealloc(c->files, (c->nfiles + 1) * sizeof(*c->files));
			f = &c->files[c->nfiles++];
			f->sha256 = kf_xstrdup(sha);
			f->file = kf_xstrdup(name);
			f->bytes = bytes;
			if (strchr(name, '/'))
				kf_die(2, "%s:%d: file '%s' is not a plain name; remove the file and run make deb again",
				       path, lineno, name);
			continue;
		}
		in_sha = 0;
		if ((v = field(line, "Source")))
			c->source = kf_xstrdup(v);
		else if ((v = field(line, "Version")))
			c->version = kf_xstrdup(v);
		else if ((v = field(line, "Architecture")))
			c->arch = kf_xstrdup(v);
		else if (field(line, "Checksums-Sha256"))
			in_sha = 1;
	}
	free(text);
	if (!c->source || !c->version || !c->arch || !c->nfiles)
		kf_die(2, "%s: no %s field; not a .changes of dpkg-buildpackage: remove it and run make deb again",
		       path, !c->source ? "Source" : !c->version ? "Version" : !c->arch ? "Architecture" :
		       "Checksums-Sha256");
}

/* The whole stdout of argv; dies, naming what, when it fails. */
static char *output_of(char *const argv[], const char *what)
{
	const struct kf_proc_opts how = { .pipe_out = 1, .null_in = 1 };
	struct strbuf sb = { 0 };
	struct kf_proc p;
	char buf[65536];
	ssize_t n;
	int status;

	if (kf_proc_start(&p, argv, &how) < 0)
		kf_die(2, "cannot run %s (%s); apt-get install dpkg", argv[0], strerror(errno));
	while ((n = read(p.out, buf, sizeof(buf))) > 0)
		sb_addn(&sb, buf, (size_t)n);
	close(p.out);
	kf_proc_wait(&p, -1, &status, NULL);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		kf_die(2, "%s: %s failed (exit %d); the .deb is broken: run make deb again",
		       what, argv[0], WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	if (!sb.s)
		sb_add(&sb, "");
	return sb.s;
}

struct deb {
	char *name, *kind, *version, *arch, *file, *path, *sha256;
	long long bytes, installed_kib;
	char **modules;			/* image only: relative to modules_dir */
	size_t nmodules;
	char *vmlinuz, *modules_dir;
	int is_image;
};

static const char *kind_of(const char *name)
{
	size_t n = strlen(name);

	if (!strcmp(name, "linux-libc-dev"))
		return "libc-dev";
	if (!strncmp(name, "linux-image-", 12))
		return n > 4 && !strcmp(name + n - 4, "-dbg") ? "dbg" : "image";
	if (!strncmp(name, "linux-headers-", 14))
		return "headers";
	return "other";
}

static int is_module(const char *p)
{
	static const char *const ends[] = { ".ko", ".ko.xz", ".ko.gz", ".ko.zst" };
	size_t n = strlen(p);

	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		size_t e = strlen(ends[i]);

		if (n > e && !strcmp(p + n - e, ends[i]))
			return 1;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The image package's contents (dpkg-deb --contents: tar -tv lines). */
static void read_image(struct deb *d, const char *release)
{
	char *argv[] = { "dpkg-deb", "--contents", d->path, NULL };
	char *text = output_of(argv, d->path), *line, *next;
	char *mdir = kf_xasprintf("lib/modules/%s/", release);
	char *vmlinuz = kf_xasprintf("boot/vmlinuz-%s", release);
	size_t mlen = strlen(mdir);

	for (line = text; line; line = next) {
		char *p = line, *arrow;
		int i;

		next = kf_cut_line(line);
		/* mode owner/group size date time NAME[ -> TARGET] */
		for (i = 0; i < 5 && *p; i++) {
			p += strcspn(p, " \t");
			p += strspn(p, " \t");
		}
		if (i < 5 || !*p)
			continue;
		if (line[0] == 'l' && (arrow = strstr(p, " -> ")))
			*arrow = '\0';
		if (!strncmp(p, "./", 2))
			p += 2;
		if (!strcmp(p, vmlinuz))
			d->vmlinuz = kf_xasprintf("/%s", vmlinuz);
		if (!strncmp(p, mdir, mlen)) {
			if (!d->modules_dir)
				d->modules_dir = kf_xasprintf("/lib/modules/%s", release);
			if (line[0] == '-' && is_module(p)) {
				d->modules = kf_xrealloc(d->modules, (d->nmodules + 1) * sizeof(*d->modules));
				d->modules[d->nmodules++] = kf_xstrdup(p + mlen);
			}
		}
	}
	free(text);
	if (d->nmodules)
		qsort(d->modules, d->nmodules, sizeof(*d->modules), cmp_str);
	if (!d->vmlinuz)
		kf_die(2, "%s: no /%s in the package; the tree's builddeb changed: see docs/system-boot.md, Packages",
		       d->path, vmlinuz);
	free(mdir);
	free(vmlinuz);
}

/* Package, Version, Architecture, Installed-Size from the control file. */
static void read_control(struct deb *d)
{
	char *argv[] = { "dpkg-deb", "--field", d->path, "Package", "Version", "Architecture",
			 "Installed-Size", NULL };
	char *text = output_of(argv, d->path), *line, *next;

	d->installed_kib = -1;
	for (line = text; line; line = next) {
		const char *v;

		next = kf_cut_line(line);
		if ((v = field(line, "Package")))
			d->name = kf_xstrdup(v);
		else if ((v = field(line, "Version")))
			d->version = kf_xstrdup(v);
		else if ((v = field(line, "Architecture")))
			d->arch = kf_xstrdup(v);
		else if ((v = field(line, "Installed-Size")))
			d->installed_kib = strtoll(v, NULL, 10);
	}
	free(text);
	if (!d->name || !d->version || !d->arch)
		kf_die(2, "%s: its control file has no Package, Version or Architecture; run make deb again", d->path);
	d->kind = kf_xstrdup(kind_of(d->name));
	d->is_image = !strcmp(d->kind, "image");
}

/* Move dir_from/name to dir_to/name. */
static void move(const char *from_dir, const char *to_dir, const char *name)
{
	char *from = kf_xasprintf("%s/%s", from_dir, name), *to = kf_xasprintf("%s/%s", to_dir, name);

	if (rename(from, to))
		kf_die(2, "cannot move %s to %s: %s; run make deb again", from, to_dir, strerror(errno));
	free(from);
	free(to);
}

/* The seconds of build-progress's trailer in log ("kflavour: wall_seconds=W
 * cpu_seconds=C exit=S"), the last one; NAN when there is none. */
static void log_seconds(const char *log, double *wall, double *cpu)
{
	char *text = log ? kf_read_file(log, NULL) : NULL, *line, *next;

	*wall = *cpu = NAN;
	for (line = text; line; line = next) {
		double w, c;

		next = kf_cut_line(line);
		if (sscanf(line, "kflavour: wall_seconds=%lf cpu_seconds=%lf", &w, &c) == 2) {
			*wall = w;
			*cpu = c;
		}
	}
	free(text);
}

static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *deb_json(const struct deb *d)
{
	json_t *mods = json_null();

	if (d->is_image) {
		mods = json_array();
		for (size_t i = 0; i < d->nmodules; i++)
			json_array_append_new(mods, json_string(d->modules[i]));
	}
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:s, s:o, s:o, s:o, s:o, s:o}",
			 "name", d->name, "kind", d->kind, "version", d->version, "arch", d->arch,
			 "file", d->file, "path", d->path, "bytes", (json_int_t)d->bytes,
			 "sha256", d->sha256,
			 "installed_kib", d->installed_kib >= 0 ? json_integer(d->installed_kib) : json_null(),
			 "modules", d->is_image ? json_integer((json_int_t)d->nmodules) : json_null(),
			 "module_files", mods, "vmlinuz", str_or_null(d->vmlinuz),
			 "modules_dir", str_or_null(d->modules_dir));
}

static void usage(void)
{
	fprintf(stderr, "usage: %s --flavour F --kver K --changes FILE --to DIR --dir FINAL "
		"--source-date-epoch N [--log FILE] [--quiet]\n", kf_prog);
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "flavour", required_argument, NULL, 'f' },
		{ "kver", required_argument, NULL, 'k' },
		{ "changes", required_argument, NULL, 'c' },
		{ "to", required_argument, NULL, 't' },
		{ "dir", required_argument, NULL, 'd' },
		{ "source-date-epoch", required_argument, NULL, 's' },
		{ "log", required_argument, NULL, 'l' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	const char *flavour = NULL, *kver = NULL, *changes_path = NULL, *to = NULL, *final = NULL;
	const char *sde_arg = NULL, *image = NULL, *release = NULL, *log = NULL;
	char *changes_dir, *changes_name, *slash, *json_path, *end;
	struct changes ch;
	struct deb *debs = NULL;
	size_t ndebs = 0;
	long long sde, total = 0;
	double wall, cpu;
	json_t *rec, *pkgs;
	int c, quiet = 0;

	kf_prog = "package-record";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f': flavour = optarg; break;
		case 'k': kver = optarg; break;
		case 'c': changes_path = optarg; break;
		case 't': to = optarg; break;
		case 'd': final = optarg; break;
		case 's': sde_arg = optarg; break;
		case 'l': log = optarg; break;
		case 'q': quiet = 1; break;
		default: usage();
		}
	}
	if (optind != argc || !flavour || !kver || !changes_path || !to || !final || !sde_arg ||
	    final[0] != '/')
		usage();
	errno = 0;
	sde = strtoll(sde_arg, &end, 10);
	if (errno || *end || end == sde_arg || sde < 0)
		kf_die(2, "--source-date-epoch %s: not seconds since the epoch", sde_arg);

	read_changes(&ch, changes_path);
	changes_dir = kf_xstrdup(changes_path);
	slash = strrchr(changes_dir, '/');
	changes_name = kf_xstrdup(slash ? slash + 1 : changes_path);
	if (slash)
		*slash = '\0';
	else
		strcpy(changes_dir, ".");

	for (size_t i = 0; i < ch.nfiles; i++) {
		const struct changed *f = &ch.files[i];
		char hex[65], *at;
		long long bytes;
		size_t n = strlen(f->file);

		move(changes_dir, to, f->file);
		at = kf_xasprintf("%s/%s", to, f->file);
		bytes = kf_sha256_file(at, hex);
		if (bytes < 0 || bytes != f->bytes || strcmp(hex, f->sha256) != 0)
			kf_die(2, "%s: size or SHA-256 is not what %s lists; run make deb again", at, changes_path);
		if (n > 4 && !strcmp(f->file + n - 4, ".deb")) {
			struct deb *d;

			debs = kf_xrealloc(debs, (ndebs + 1) * sizeof(*debs));
			d = &debs[ndebs++];
			memset(d, 0, sizeof(*d));
			d->file = kf_xstrdup(f->file);
			d->path = at;
			d->bytes = bytes;
			d->sha256 = kf_xstrdup(hex);
			read_control(d);
			if (d->is_image) {
				if (image)
					kf_die(2, "%s: two kernel image packages (%s, %s); one flavour makes one",
					       changes_path, image, d->name);
				image = d->name;
				release = d->name + strlen("linux-image-");
				read_image(d, release);
			}
			/* the record names the final place */
			d->path = kf_xasprintf("%s/%s", final, d->file);
			free(at);
		} else {
			free(at);
		}
	}
	if (!image)
		kf_die(2, "%s: no linux-image-* package among its files; see the flavour's deb.log", changes_path);
	move(changes_dir, to, changes_name);

	rec = kf_record_new("deb", flavour, kver, release);
	pkgs = json_array();
	for (size_t i = 0; i < ndebs; i++) {
		json_array_append_new(pkgs, deb_json(&debs[i]));
		total += debs[i].bytes;
	}
	json_object_set_new(rec, "version", json_string(ch.version));
	json_object_set_new(rec, "source", json_string(ch.source));
	json_object_set_new(rec, "arch", json_string(ch.arch));
	json_object_set_new(rec, "dir", json_string(final));
	json_object_set_new(rec, "changes", json_string(changes_name));
	json_object_set_new(rec, "source_date_epoch", json_integer(sde));
	json_object_set_new(rec, "packages", pkgs);
	json_object_set_new(rec, "image", json_string(image));
	log_seconds(log, &wall, &cpu);
	json_object_set_new(rec, "wall_seconds", num_or_null(wall));
	json_object_set_new(rec, "cpu_seconds", num_or_null(cpu));
	json_path = kf_xasprintf("%s/deb.json", to);
	if (kf_record_write(rec, json_path))
		kf_die(2, "%s: cannot write it: %s", json_path, strerror(errno));
	if (!quiet)
		for (size_t i = 0; i < ndebs; i++)
			if (debs[i].is_image)
				printf("  DEB     %s: %s (%zu modules, %lld KiB) and %zu more packages, %lld KiB in all, in %s\n",
				       flavour, debs[i].name, debs[i].nmodules, (debs[i].bytes + 1023) / 1024,
				       ndebs - 1, (total + 1023) / 1024, final);
	json_decref(rec);
	for (size_t i = 0; i < ndebs; i++) {
		struct deb *d = &debs[i];

		free(d->name);
		free(d->kind);
		free(d->version);
		free(d->arch);
		free(d->file);
		free(d->path);
		free(d->sha256);
		for (size_t j = 0; j < d->nmodules; j++)
			free(d->modules[j]);
		free(d->modules);
		free(d->vmlinuz);
		free(d->modules_dir);
	}
	free(debs);
	for (size_t i = 0; i < ch.nfiles; i++) {
		free(ch.files[i].sha256);
		free(ch.files[i].file);
	}
	free(ch.files);
	free(ch.source);
	free(ch.version);
	free(ch.arch);
	free(changes_dir);
	free(changes_name);
	free(json_path);
	return 0;
}
