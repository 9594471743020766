// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - the Debian system's records, and why making it failed
 * (docs/system-boot.md, "The Debian system").
 *
 *   system-record --rootfs --out REC --tar TAR --suite S --variant V
 *       --include A,B --mmdebstrap VERSION --epoch N --key K --sources FILE
 *       [--seconds N] [--log LOG]
 *	the cached root filesystem's record (system/rootfs.schema.json)
 *   system-record --image --out REC --flavour F --kver K --rootfs-record REC
 *       --deb DEB --package NAME --version V --release R --vmlinuz FILE
 *       --initrd FILE --initrd-list FILE --builtin FILE --root-driver M
 *       --image-file FILE --uuid U [--extra PATH]... [--unit UNIT]... [--seconds N]
 *	a flavour's system image record (system/image.schema.json)
 *   system-record --explain LOG --what WHAT [--dir DIR] [--user U]
 *	one line: what failed, why (system/explain.c) and the fix; exit 0
 *   system-record --deb-image DEBREC
 *	the path of the kernel image package make deb recorded in DEBREC
 *	(<flavour>/deb/deb.json, package/deb.schema.json)
 *
 * Records are written atomically (lib/record.c); --image reads the root
 * filesystem's record through lib/records.c.
 */
#include "explain.h"
#include "../lib/kf.h"
#include "../lib/records.h"

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>



enum { O_ROOTFS = 256, O_IMAGE, O_EXPLAIN, O_OUT, O_TAR, O_SUITE, O_VARIANT, O_INCLUDE,
	O_MMDEB, O_EPOCH, O_KEY, O_SOURCES, O_SECONDS, O_LOG, O_FLAVOUR, O_KVER, O_RFS,
	O_DEB, O_PACKAGE, O_VERSION, O_RELEASE, O_VMLINUZ, O_INITRD, O_ILIST, O_BUILTIN,
	O_ROOTDRV, O_IMAGEF, O_UUID, O_EXTRA, O_UNIT, O_WHAT, O_DIR, O_USER, O_DEBIMG };

static const struct option opts[] = {
	{ "rootfs", no_argument, NULL, O_ROOTFS }, { "image", no_argument, NULL, O_IMAGE },
	{ "explain", required_argument, NULL, O_EXPLAIN }, { "out", required_argument, NULL, O_OUT },
	{ "tar", required_argument, NULL, O_TAR }, { "suite", required_argument, NULL, O_SUITE },
	{ "variant", required_argument, NULL, O_VARIANT },
	{ "include", required_argument, NULL, O_INCLUDE },
	{ "mmdebstrap", required_argument, NULL, O_MMDEB },
	{ "epoch", required_argument, NULL, O_EPOCH }, { "key", required_argument, NULL, O_KEY },
	{ "sources", required_argument, NULL, O_SOURCES },
	{ "seconds", required_argument, NULL, O_SECONDS }, { "log", required_argument, NULL, O_LOG },
	{ "flavour", required_argument, NULL, O_FLAVOUR }, { "kver", required_argument, NULL, O_KVER },
	{ "rootfs-record", required_argument, NULL, O_RFS }, { "deb", required_argument, NULL, O_DEB },
	{ "package", required_argument, NULL, O_PACKAGE },
	{ "version", required_argument, NULL, O_VERSION },
	{ "release", required_argument, NULL, O_RELEASE },
	{ "vmlinuz", required_argument, NULL, O_VMLINUZ },
	{ "initrd", required_argument, NULL, O_INITRD },
	{ "initrd-list", required_argument, NULL, O_ILIST },
	{ "builtin", required_argument, NULL, O_BUILTIN },
	{ "root-driver", required_argument, NULL, O_ROOTDRV },
	{ "image-file", required_argument, NULL, O_IMAGEF }, { "uuid", required_argument, NULL, O_UUID },
	{ "extra", required_argument, NULL, O_EXTRA }, { "unit", required_argument, NULL, O_UNIT },
	{ "what", required_argument, NULL, O_WHAT }, { "dir", required_argument, NULL, O_DIR },
	{ "user", required_argument, NULL, O_USER },
	{ "deb-image", required_argument, NULL, O_DEBIMG },
	{ NULL, 0, NULL, 0 }
};

struct args {
	int mode;
	const char *opt[O_DEBIMG + 1];
	const char **extras, **units;
	size_t nextras, nunits;
};

static const char *need(const struct args *a, int o)
{
	if (!a->opt[o])
		kf_die(2, "missing --%s (usage: see system/record.c)", opts[o - O_ROOTFS].name);
	return a->opt[o];
}

static json_t *num_or_null(const char *s)
{
	char *end;
	double d;

	if (!s)
		return json_null();
	d = strtod(s, &end);
	if (end == s || *end || !isfinite(d))
		kf_die(2, "not a number: '%s'", s);
	return json_real(round(d * 10) / 10);
}

/* {"file", "bytes", "sha256"} of path: the file's base name, its size and
 * hash (an image's files sit beside its record). */
static json_t *file_json(const char *path)
{
	char hex[65];
	long long n = kf_sha256_file(path, hex);
	char *copy = kf_xstrdup(path);
	json_t *o = json_object();

	if (n < 0)
		kf_die(2, "cannot read %s: %s", path, strerror(errno));
	json_object_set_new(o, "file", json_string(basename(copy)));
	json_object_set_new(o, "bytes", json_integer(n));
	json_object_set_new(o, "sha256", json_string(hex));
	free(copy);
	return o;
}

/* The lines of a file, empty ones left out. */
static json_t *lines_json(const char *path)
{
	char *text = kf_read_file(path, NULL), *l, *next;
	json_t *a = json_array();

	if (!text)
		kf_die(2, "cannot read %s: %s", path, strerror(errno));
	for (l = text; l; l = next) {
		next = kf_cut_line(l);
		if (*kf_trim(l))
			json_array_append_new(a, json_string(kf_trim(l)));
	}
	free(text);
	return a;
}

static void write_or_die(json_t *rec, const char *path)
{
	if (kf_record_write(rec, path))
		kf_die(2, "cannot write %s: %s", path, strerror(errno));
	json_decref(rec);
}

static int rootfs(const struct args *a)
{
	json_t *rec = kf_record_new("rootfs", NULL, NULL, NULL), *inc = json_array();
	const char *tar = need(a, O_TAR);
	char *list = kf_xstrdup(need(a, O_INCLUDE)), *save = NULL;
	json_t *f = file_json(tar);

	for (char *p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save))
		json_array_append_new(inc, json_string(p));
	free(list);
	json_object_set_new(rec, "tar", json_string(tar));
	json_object_set(rec, "bytes", json_object_get(f, "bytes"));
	json_object_set(rec, "sha256", json_object_get(f, "sha256"));
	json_decref(f);
	json_object_set_new(rec, "key", json_string(need(a, O_KEY)));
	json_object_set_new(rec, "suite", json_string(need(a, O_SUITE)));
	json_object_set_new(rec, "variant", json_string(need(a, O_VARIANT)));
	json_object_set_new(rec, "include", inc);
	json_object_set_new(rec, "mmdebstrap", json_string(need(a, O_MMDEB)));
	json_object_set_new(rec, "source_date_epoch", json_integer(atoll(need(a, O_EPOCH))));
	json_object_set_new(rec, "sources", lines_json(need(a, O_SOURCES)));
	json_object_set_new(rec, "seconds", num_or_null(a->opt[O_SECONDS]));
	json_object_set_new(rec, "log", a->opt[O_LOG] ? json_string(a->opt[O_LOG]) : json_null());
	write_or_die(rec, need(a, O_OUT));
	return 0;
}

/* Does a line of list end in "/NAME.ko" (or .ko.xz, .ko.zst, .ko.gz)? */
static int has_module(const char *text, const char *name)
{
	char *want = kf_xasprintf("/%s.ko", name);
	const char *p = text;
	int found = 0;

	while (!found && (p = strstr(p, want))) {
		const char *e = p + strlen(want);

		found = *e == '\n' || *e == '\0' || (*e == '.' && strchr("xzg", e[1]));
		p = e;
	}
	free(want);
	return found;
}

static long long count_modules(const char *text)
{
	long long n = 0;

	for (const char *p = text; (p = strstr(p, ".ko")); p += 3) {
		const char *e = p + 3;

		if (*e == '\n' || *e == '\0' || (*e == '.' && strchr("xzg", e[1])))
			n++;
	}
	return n;
}

static int image(const struct args *a)
{
	struct kf_rootfs_rec rf;
	const char *drv = need(a, O_ROOTDRV);
	char *ilist = kf_read_file(need(a, O_ILIST), NULL);
	char *builtin = kf_read_file(need(a, O_BUILTIN), NULL);
	json_t *rec, *o, *ex = json_array(), *un = json_array();
	const char *in;

	if (!ilist)
		kf_die(2, "cannot read %s: %s", a->opt[O_ILIST], strerror(errno));
	if (kf_rootfs_rec_read(&rf, need(a, O_RFS), KF_MUST, "make it again: make rootfs"))
		return 2;
	rec = kf_record_new("image", need(a, O_FLAVOUR), need(a, O_KVER), need(a, O_RELEASE));
	o = json_object();
	json_object_set_new(o, "tar", json_string(rf.tar ? rf.tar : ""));
	json_object_set_new(o, "sha256", rf.sha256 ? json_string(rf.sha256) : json_null());
	json_object_set_new(o, "key", rf.key ? json_string(rf.key) : json_null());
	json_object_set_new(rec, "rootfs", o);
	kf_rootfs_rec_free(&rf);

	o = file_json(need(a, O_DEB));
	json_object_set_new(o, "name", json_string(need(a, O_PACKAGE)));
	json_object_set_new(o, "version", json_string(need(a, O_VERSION)));
	json_object_set_new(rec, "package", o);
	json_object_set_new(rec, "kernel", file_json(need(a, O_VMLINUZ)));

	o = file_json(need(a, O_INITRD));
	json_object_set_new(o, "modules", json_integer(count_modules(ilist)));
	json_object_set_new(o, "root_driver", json_string(drv));
	/* The root disk's driver: a module the initrd carries, built into the
	 * kernel (modules.builtin), or neither: then the root device is never
	 * found. */
	in = has_module(ilist, drv) ? "initrd" : builtin && has_module(builtin, drv) ? "builtin" : "missing";
	json_object_set_new(o, "root_driver_in", json_string(in));
	json_object_set_new(rec, "initrd", o);

	o = file_json(need(a, O_IMAGEF));
	json_object_set_new(o, "fs", json_string("ext4"));
	json_object_set_new(o, "uuid", json_string(need(a, O_UUID)));
	json_object_set_new(rec, "image", o);

	for (size_t i = 0; i < a->nextras; i++)
		json_array_append_new(ex, json_string(a->extras[i]));
	for (size_t i = 0; i < a->nunits; i++)
		json_array_append_new(un, json_string(a->units[i]));
	o = json_object();
	json_object_set_new(o, "files", ex);
	json_object_set_new(o, "units", un);
	json_object_set_new(rec, "extras", o);
	json_object_set_new(rec, "seconds", num_or_null(a->opt[O_SECONDS]));
	write_or_die(rec, need(a, O_OUT));
	printf("initrd: %lld modules, %s %s\n", count_modules(ilist), drv, in);
	free(ilist);
	free(builtin);
	return 0;
}

static int explain(const struct args *a)
{
	const char *log = a->opt[O_EXPLAIN], *dir = a->opt[O_DIR];
	char *text = kf_read_file(log, NULL);
	const char *user = a->opt[O_USER], *u;
	struct kf_sys_why why;

	kf_sys_explain(text ? text : "", &why);
	u = user ? strstr(why.fix, "USER") : NULL;

	fprintf(stderr, "kflavour: %s failed (%s): %s; ", need(a, O_WHAT),
		kf_sys_fail_name(why.kind), why.cause);
	/* The fix's USER is the user who ran it. */
	if (u)
		fprintf(stderr, "%.*s%s%s", (int)(u - why.fix), why.fix, user, u + 4);
	else
		fputs(why.fix, stderr);
	if (why.kind == KF_SYS_DISK_FULL && dir)
		fprintf(stderr, " (df %s)", dir);
	fprintf(stderr, "; log: %s\n", log);
	kf_sys_why_free(&why);
	free(text);
	return 0;
}

static int deb_image(const struct args *a)
{
	struct kf_deb_rec d;
	const struct kf_deb_pkg *p;
	const char *rec = a->opt[O_DEBIMG];

	if (kf_deb_rec_read(&d, rec, KF_MUST, "make it again: make deb flavour=<flavour>"))
		return 2;
	p = kf_deb_image(&d);
	if (!p || !p->path) {
		kf_deb_rec_free(&d);
		kf_die(2, "%s: no kernel image package in the record; make it again: make deb flavour=%s",
		       rec, d.h.flavour ? d.h.flavour : "<flavour>");
	}
	printf("%s\n", p->path);
	kf_deb_rec_free(&d);
	return 0;
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	int c;

	kf_prog = "system-record";

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c < O_ROOTFS || c > O_DEBIMG)
			kf_die(2, "usage: see system/record.c");
		if (c == O_ROOTFS || c == O_IMAGE || c == O_EXPLAIN || c == O_DEBIMG)
			a.mode = c;
		if (c == O_EXTRA) {
			a.extras = kf_xrealloc(a.extras, (a.nextras + 1) * sizeof(*a.extras));
			a.extras[a.nextras++] = optarg;
		} else if (c == O_UNIT) {
			a.units = kf_xrealloc(a.units, (a.nunits + 1) * sizeof(*a.units));
			a.units[a.nunits++] = optarg;
		} else {
			a.opt[c] = optarg;
		}
	}
	c = a.mode == O_ROOTFS ? rootfs(&a) : a.mode == O_IMAGE ? image(&a) :
	    a.mode == O_EXPLAIN ? explain(&a) : a.mode == O_DEBIMG ? deb_image(&a) :
	    (kf_die(2, "give --rootfs, --image, --explain or --deb-image"), 2);
	free(a.extras);
	free(a.units);
	return c;
}
