// SPDX-License-Identifier: GPL-2.0
/*
 * build-facts - write a built flavour's build.json (docs/architecture.md).
 *
 *   build-facts --flavour F --kver K --odir DIR [--json FILE] [--ccache 0|1]
 *            [--ccache-log FILE] [--distcc-hosts HOSTS]
 *            [--distcc-log FILE] [--ccache-remote-state FILE] [--quiet]
 *   build-facts --from-compiler --odir DIR
 *
 * Everything comes from what the build left in DIR (the Kbuild O=):
 * build.log (warnings; wall and CPU seconds from build-progress's trailer),
 * include/config/kernel.release, arch/x86/boot/bzImage (size, SHA-256),
 * vmlinux (section sizes, with libelf; vmlinux.o for input sections the
 * linker script merges into others; code bytes: the function symbols' sizes), init/.main.o.cmd (-march, -mtune as
 * gcc really got them), the kernel objects' .cmd files (how many objects the
 * kernel has), ccache's stats log of this build (hits, misses) and distcc's
 * client log (where each compile ran, kb_distcc_count); with ccache_remote,
 * the shared cache's URL (redacted) and whether it was used (build-progress's
 * --remote-state FILE) and its hits, misses, errors and timeouts from the same
 * stats log (ccr_count); a build whose remote failed gets one warning line on
 * stderr. The JSON
 * is built with jansson and written atomically; then one line goes to
 * stdout: "  BUILD   F: done in 201 s (1012 objects, ccache 0 hits / 1012 misses)".
 *
 * --from-compiler exits 0 when every object in DIR came from the compiler:
 * no ccache hit in any build of DIR (check-repro reuses such a build).
 */
#include "../lib/elf.h"
#include "../lib/kf.h"
#include "../lib/records.h"
#include "ccremote.h"
#include "kbuild.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <ftw.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const section_names[] = {
	".text", ".data", ".bss", ".data..percpu", ".data..cacheline_aligned",
};
#define N_SECTIONS (sizeof(section_names) / sizeof(section_names[0]))

/* The .cmd the compiler flags are read from, relative to the O= dir. */
#define FLAGS_FROM "init/.main.o.cmd"

static char *path_in(const char *dir, const char *rel)
{
	return kf_xasprintf("%s/%s", dir, rel);
}

/*
 * Sizes of the sections of an ELF file that are still -1 in size[]; the
 * others are left alone. -1 stays for a section the file does not have.
 */
static int read_sections(const char *path, long long size[N_SECTIONS], char *err, size_t es)
{
	struct kf_elf f;

	if (kf_elf_open(&f, path, err, es) != 0)
		return -1;
	for (size_t i = 0; i < N_SECTIONS; i++) {
		struct kf_elf_section sec;

		if (size[i] < 0 && kf_elf_section(&f, section_names[i], &sec) == 0)
			size[i] = (long long)sec.size;
	}
	kf_elf_close(&f);
	return 0;
}

struct code_sum {
	size_t text_ndx;
	long long sum;
	unsigned long long text_sym, etext_sym;	/* 0 when not found */
};

static void code_sym(const struct kf_elf_sym *s, void *arg)
{
	struct code_sum *c = arg;

	if (!strcmp(s->name, "_text"))
		c->text_sym = s->value;
	else if (!strcmp(s->name, "_etext"))
		c->etext_sym = s->value;
	if (s->type == KF_ELF_FUNC && s->shndx == c->text_ndx)
		c->sum += (long long)s->size;
}

/*
 * Code bytes without the linker's padding: the .text section of x86-64
 * vmlinux holds the entry text between two 2 MiB (PMD_SIZE) alignments, so
 * its size moves in 2 MiB steps. The sum of the st_size of the function
 * symbols (STT_FUNC) in .text, read from vmlinux's .symtab, moves with the
 * code itself. *span gets _etext - _text (padding included) for reference.
 */
static long long code_bytes(const char *path, long long *span)
{
	struct kf_elf f;
	struct kf_elf_section text;
	struct code_sum c = { 0 };
	char err[256];

	*span = -1;
	if (kf_elf_open(&f, path, err, sizeof(err)) != 0)
		return -1;
	if (kf_elf_section(&f, ".text", &text) == 0 && text.index) {
		c.text_ndx = text.index;
		if (!kf_elf_symbols(&f, code_sym, &c))
			c.sum = -1;
	} else {
		c.sum = -1;
	}
	if (c.text_sym && c.etext_sym > c.text_sym)
		*span = (long long)(c.etext_sym - c.text_sym);
	kf_elf_close(&f);
	return c.sum > 0 ? c.sum : -1;
}

/* The build's first warning lines, for the report (the count is separate). */
#define MAX_WARNING_LINES 5

static json_t *str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static json_t *int_or_null(long long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

static json_t *real_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

/*
 * The last build that compiled something, carried over from the previous
 * build.json when this one compiled nothing (a no-op rebuild: Kbuild found
 * every object up to date), so its time is never replaced by a few seconds.
 */
static json_t *last_full_build(const char *odir, long compiled, double wall,
			       double cpu, long long started, long long finished,
			       long warnings, json_t *wlines)
{
	struct kf_build_rec prev;
	const struct kf_build_run *r = &prev.last_full;
	json_t *last = NULL;
	char *p;

	/* Its warnings too: a no-op rebuild's log has none of them. */
	if (compiled > 0)
		return json_pack("{s:I, s:f, s:f, s:I, s:I, s:I, s:O}", "compiled", (json_int_t)compiled,
				 "wall_seconds", wall, "cpu_seconds", cpu,
				 "started", (json_int_t)started, "finished", (json_int_t)finished,
				 "warnings", (json_int_t)warnings, "warning_lines", wlines);
	p = path_in(odir, ".build.json.prev");
	if (!kf_build_rec_read(&prev, p, KF_QUIET, "its last full build is not carried over") &&
	    prev.has_last_full) {
		json_t *lines = json_array();

		for (size_t i = 0; i < r->nwarning_lines; i++)
			json_array_append_new(lines, json_string(r->warning_lines[i]));
		last = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "compiled", int_or_null(r->compiled),
				 "wall_seconds", real_or_null(r->wall_seconds),
				 "cpu_seconds", real_or_null(r->cpu_seconds),
				 "started", int_or_null(r->started), "finished", int_or_null(r->finished),
				 "warnings", int_or_null(r->warnings), "warning_lines", lines);
	}
	kf_build_rec_free(&prev);
	free(p);
	return last ? last : json_null();
}

/*
 * Kernel objects: ".X.o.cmd" files whose command defines __KERNEL__ (a CC
 * or AS of kernel code; host tools and "ld -r" links do not). The same
 * objects build-progress counts as "CC/AS x.o" lines in a full build.
 */
static long n_objects;

static int count_cmd(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *base = path + ftw->base;
	size_t bl = strlen(base);
	char line[8192];
	FILE *f;

	(void)st;
	if (type != FTW_F || bl < 7 || base[0] != '.' || strcmp(base + bl - 6, ".o.cmd") != 0)
		return 0;
	f = fopen(path, "r");
	if (!f)
		return 0;
	/* the command is on the first line; a long one is cut, -D__KERNEL__ comes early */
	if (fgets(line, sizeof(line), f) && strstr(line, " -D__KERNEL__"))
		n_objects++;
	fclose(f);
	return 0;
}

static long count_objects(const char *odir)
{
	n_objects = 0;
	if (nftw(odir, count_cmd, 32, FTW_PHYS) != 0)
		return -1;
	return n_objects;
}

static double round1(double v)
{
	return (double)(long long)(v * 10 + 0.5) / 10;
}

static void usage(void)
{
	fprintf(stderr, "usage: build-facts --flavour F --kver K --odir DIR [--json FILE]"
		" [--ccache 0|1] [--ccache-log FILE] [--distcc-hosts HOSTS]"
		" [--distcc-log FILE] [--ccache-remote-state FILE] [--quiet]\n"
		"       build-facts --from-compiler --odir DIR\n");
	exit(2);
}

/*
 * 0 when every object in DIR came from the compiler: a finished build
 * (build.json) and no ccache hit in any build of DIR. ccache.log is the last
 * build's stats log; each build first appends the one before to
 * ccache-history.log, so a build killed before build-facts ran counts too.
 */
static int from_compiler(const char *odir)
{
	static const char *const logs[] = { "ccache.log", "ccache-history.log" };
	char *p = path_in(odir, "build.json");
	int ok = access(p, R_OK) == 0;

	free(p);
	for (size_t i = 0; ok && i < sizeof(logs) / sizeof(logs[0]); i++) {
		struct kb_ccache c;
		char *text;

		p = path_in(odir, logs[i]);
		text = kf_read_file(p, NULL);
		free(p);
		if (!text)
			continue;
		kb_ccache_count(text, &c);
		free(text);
		ok = c.hits == 0;
	}
	return ok ? 0 : 1;
}

/* build.json's "distcc": where this run's compiles ran (kbuild.h). */
static json_t *distcc_json(const struct kb_distcc *d)
{
	json_t *hosts = json_object();

	for (size_t i = 0; i < d->n_hosts; i++)
		json_object_set_new(hosts, d->hosts[i].name, json_pack("{s:I, s:I}",
				    "compiled", (json_int_t)d->hosts[i].compiled,
				    "failed", (json_int_t)d->hosts[i].failed));
	return json_pack("{s:I, s:I, s:I, s:o}", "remote", (json_int_t)d->remote,
			 "local", (json_int_t)d->local, "fell_back", (json_int_t)d->fell_back,
			 "hosts", hosts);
}

/* Hosts that compiled something; *failed: the failed attempts of all. */
static size_t distcc_hosts_used(const struct kb_distcc *d, long *failed)
{
	size_t n = 0;

	*failed = 0;
	for (size_t i = 0; i < d->n_hosts; i++) {
		n += d->hosts[i].compiled > 0;
		*failed += d->hosts[i].failed;
	}
	return n;
}

int main(int argc, char **argv)
{
	const char *flavour = NULL, *kver = NULL, *odir = NULL, *json_path = NULL;
	const char *ccache_log = NULL, *distcc = NULL, *distcc_log = NULL, *remote_state = NULL;
	char *remote = NULL;	/* the state file's text: "on URL" or "off URL WHY" */
	struct ccr_counts rc = { 0, 0, 0, 0, 0 };
	json_t *jcc;
	static const struct option opts[] = {
		{ "from-compiler", no_argument, NULL, 'C' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "flavour", required_argument, NULL, 'f' },
		{ "kver", required_argument, NULL, 'k' },
		{ "odir", required_argument, NULL, 'o' },
		{ "json", required_argument, NULL, 'j' },
		{ "ccache", required_argument, NULL, 'c' },
		{ "ccache-log", required_argument, NULL, 'l' },
		{ "distcc-hosts", required_argument, NULL, 'd' },
		{ "distcc-log", required_argument, NULL, 'D' },
		{ "ccache-remote-state", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	int ccache_on = 0, quiet = 0, from_cc = 0, c;
	char *p, *text, *release = NULL, sha[65], march[64], mtune[64], err[512];
	long long sections[N_SECTIONS], bz_bytes;
	struct kb_times times = { 0, 0, -1 };
	struct kb_ccache cc = { 0, 0 };
	static struct kb_distcc dc;
	long warnings = 0, objects, compiled = 0;
	json_t *wlines = json_array();
	long long code, span, started, finished;
	struct stat lst;
	json_t *root, *jsec;
	int have_flags;

	kf_prog = "build-facts";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'C': from_cc = 1; break;
		case 'q': quiet = 1; break;
		case 'f': flavour = optarg; break;
		case 'k': kver = optarg; break;
		case 'o': odir = optarg; break;
		case 'j': json_path = optarg; break;
		case 'c': ccache_on = strcmp(optarg, "1") == 0; break;
		case 'l': ccache_log = optarg; break;
		case 'd': distcc = optarg; break;
		case 'D': distcc_log = optarg; break;
		case 'R': remote_state = optarg; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	if (from_cc) {
		if (!odir)
			usage();
		return from_compiler(odir);
	}
	if (!flavour || !kver || !odir)
		usage();

	/* build.log: warnings, and the timing trailer */
	p = path_in(odir, "build.log");
	text = kf_read_file(p, NULL);
	if (!text)
		kf_die(2, "cannot read %s: %s; run 'make build' first", p, strerror(errno));
	for (char *l = text; l && *l;) {
		char *nl = strchr(l, '\n');

		if (nl)
			*nl = '\0';
		if (kb_is_warning_line(l) && warnings++ < MAX_WARNING_LINES)
			json_array_append_new(wlines, json_string(l));
		if (kb_is_object_line(l))
			compiled++;
		if (strncmp(l, KB_TRAILER, strlen(KB_TRAILER)) == 0) {
			struct kb_times t;

			if (kb_parse_trailer(l, &t))
				times = t;
		}
		l = nl ? nl + 1 : NULL;
	}
	free(text);
	/* build.log's last write is the trailer: when Kbuild ended. */
	finished = stat(p, &lst) == 0 ? (long long)lst.st_mtime : -1;
	started = finished >= 0 ? finished - (long long)(times.wall + 0.5) : -1;
	free(p);
	if (times.exit_status != 0)
		kf_die(2, "%s/build.log does not record a successful build", odir);

	/* release */
	p = path_in(odir, "include/config/kernel.release");
	text = kf_read_file(p, NULL);
	if (text)
		release = kf_xstrdup(kf_trim(text));
	free(text);
	free(p);

	/* bzImage and vmlinux */
	p = path_in(odir, "arch/x86/boot/bzImage");
	bz_bytes = kf_sha256_file(p, sha);
	if (bz_bytes < 0)
		kf_die(2, "cannot read %s: %s", p, strerror(errno));
	free(p);
	/*
	 * vmlinux first. The linker script merges some input sections into
	 * output ones (x86: .data..cacheline_aligned into .data); their size
	 * comes from vmlinux.o, the relocatable link of every built-in object,
	 * which keeps each input section whole.
	 */
	for (size_t s = 0; s < N_SECTIONS; s++)
		sections[s] = -1;
	p = path_in(odir, "vmlinux");
	if (read_sections(p, sections, err, sizeof(err)) < 0)
		kf_die(2, "cannot read ELF sections: %s", err);
	code = code_bytes(p, &span);
	free(p);
	p = path_in(odir, "vmlinux.o");
	read_sections(p, sections, err, sizeof(err));
	free(p);

	/* the compiler flags of a real compile */
	p = path_in(odir, FLAGS_FROM);
	text = kf_read_file(p, NULL);
	have_flags = text != NULL;
	march[0] = mtune[0] = '\0';
	if (text) {
		kb_cmd_flag(text, "march", march, sizeof(march));
		kb_cmd_flag(text, "mtune", mtune, sizeof(mtune));
	}
	free(text);
	free(p);

	objects = count_objects(odir);

	if (ccache_on && ccache_log) {
		text = kf_read_file(ccache_log, NULL);
		if (text)
			kb_ccache_count(text, &cc);
		ccr_count(text, &rc);
		free(text);
	}
	if (ccache_on && remote_state) {
		remote = kf_read_file(remote_state, NULL);
		if (remote)
			kf_trim(remote);
		if (remote && strncmp(remote, "on ", 3) != 0 && strncmp(remote, "off ", 4) != 0) {
			free(remote);
			remote = NULL;
		}
	}

	if (distcc && *distcc && distcc_log) {
		text = kf_read_file(distcc_log, NULL);
		kb_distcc_count(text, &dc);
		free(text);
	}

	root = kf_record_new("build", flavour, kver, release);
	json_object_set_new(root, "wall_seconds", json_real(round1(times.wall)));
	json_object_set_new(root, "cpu_seconds", json_real(round1(times.cpu)));
	json_object_set_new(root, "started", int_or_null(started));
	json_object_set_new(root, "finished", int_or_null(finished));
	json_object_set_new(root, "compiled", json_integer(compiled));
	json_object_set_new(root, "last_full_build", last_full_build(odir, compiled,
			    round1(times.wall), round1(times.cpu), started, finished,
			    warnings, wlines));
	jcc = json_pack("{s:b, s:I, s:I}", "enabled", ccache_on, "hits", (json_int_t)cc.hits,
			"misses", (json_int_t)cc.misses);
	if (remote) {
		int on = remote[1] == 'n';
		char *url = remote + (on ? 3 : 4), *why = strchr(url, ' ');

		if (why)
			*why++ = '\0';
		json_object_set_new(jcc, "remote", json_pack("{s:s, s:b, s:s?, s:I, s:I, s:I, s:I, s:I}",
				    "url", url, "used", on, "off_because", on ? NULL : why,
				    "hits", (json_int_t)rc.hits, "misses", (json_int_t)rc.misses,
				    "errors", (json_int_t)rc.errors, "timeouts", (json_int_t)rc.timeouts,
				    "stored", (json_int_t)rc.stored));
	} else {
		json_object_set_new(jcc, "remote", json_null());
	}
	json_object_set_new(root, "ccache", jcc);
	json_object_set_new(root, "distcc_hosts", str_or_null(distcc));
	json_object_set_new(root, "distcc", distcc && *distcc ? distcc_json(&dc) : json_null());
	json_object_set_new(root, "warnings", json_integer(warnings));
	json_object_set_new(root, "warning_lines", wlines);
	json_object_set_new(root, "objects", int_or_null(objects));
	json_object_set_new(root, "bzimage_bytes", json_integer(bz_bytes));
	json_object_set_new(root, "bzimage_sha256", json_string(sha));
	jsec = json_object();
	for (size_t s = 0; s < N_SECTIONS; s++)
		json_object_set_new(jsec, section_names[s], int_or_null(sections[s]));
	json_object_set_new(root, "sections", jsec);
	json_object_set_new(root, "code_bytes", int_or_null(code));
	json_object_set_new(root, "text_span_bytes", int_or_null(span));
	json_object_set_new(root, "march", str_or_null(march));
	json_object_set_new(root, "mtune", str_or_null(mtune));
	json_object_set_new(root, "flags_from", have_flags ? json_string(FLAGS_FROM) : json_null());

	p = json_path ? kf_xstrdup(json_path) : path_in(odir, "build.json");
	if (kf_record_write(root, p) < 0)
		kf_die(2, "cannot write %s: %s", p, strerror(errno));
	json_decref(root);
	free(p);

	if (!quiet) {
		char ccs[96];

		char rcs[160] = "";

		if (ccache_on)
			snprintf(ccs, sizeof(ccs), "ccache %ld hits / %ld misses", cc.hits, cc.misses);
		else
			snprintf(ccs, sizeof(ccs), "ccache off");
		if (remote && remote[1] == 'n' && (rc.errors || rc.timeouts))
			snprintf(rcs, sizeof(rcs), ", remote %ld hits / %ld misses, %ld errors, %ld timeouts",
				 rc.hits, rc.misses, rc.errors, rc.timeouts);
		else if (remote && remote[1] == 'n')
			snprintf(rcs, sizeof(rcs), ", remote %ld hits / %ld misses, %ld stored", rc.hits,
				 rc.misses, rc.stored);
		else if (remote)
			snprintf(rcs, sizeof(rcs), ", remote off");
		char dcs[160] = "";
		long failed;

		if (distcc && *distcc) {
			size_t used = distcc_hosts_used(&dc, &failed);

			snprintf(dcs, sizeof(dcs), ", distcc %ld remote on %zu hosts, %ld here, "
				 "%ld failed attempts redone", dc.remote, used, dc.local, failed);
		}
		printf("  BUILD   %s: done in %.0f s (%ld objects, %s%s%s)\n", flavour,
		       times.wall, objects, ccs, rcs, dcs);
		if (remote && remote[1] == 'n' && (rc.errors || rc.timeouts))
			fprintf(stderr, "kflavour: warning: %s: the shared cache %s failed %ld compiles' "
				"lookups or stores (%ld errors, %ld timeouts): those used the local cache "
				"only; make cache-check tells why\n", flavour, remote + 3,
				rc.errors + rc.timeouts, rc.errors, rc.timeouts);
	}
	free(release);
	free(remote);
	return 0;
}
