/* SPDX-License-Identifier: GPL-2.0 */
/*
 * records.h - the stage records as C structs, read in one place with the
 * rules their readers share (docs/architecture.md, "Records"):
 *
 *   <flavour>/config.json       struct kf_config_rec   kf_config_rec_read()
 *   <flavour>/build.json        struct kf_build_rec    kf_build_rec_read()
 *   <flavour>/boot/<cpu>.json   struct kf_boot_rec     kf_boot_rec_read()
 *   a flavour's boots, current and stale              kf_boots_load()
 *   <flavour>/c2c/<cpu>.json    struct kf_c2c_rec      kf_c2c_rec_read()
 *   rootfs/<suite>-<key>.json   struct kf_rootfs_rec   kf_rootfs_rec_read()
 *   <flavour>/system/image.json struct kf_image_rec    kf_image_rec_read()
 *   <flavour>/deb/deb.json      struct kf_deb_rec      kf_deb_rec_read()
 *   <flavour>/sysboot/<cpu>.json struct kf_sysboot_rec kf_sysboot_rec_read()
 *   <flavour>/flavour.json      struct kf_flavour_rec  kf_flavour_rec_read()
 *
 * lib/record.c stays the one JSON layer: every reader here goes through its
 * kf_record_load(). What a reader guarantees when it returns 0:
 *  - the file held a JSON object whose header names this kind of record
 *    ("record") in a format this kflavour reads ("format" from 1 to
 *    KF_RECORD_FORMAT). Otherwise it returns -1, having said (whatever need
 *    is, when the file is there) "path: what; fix": a newer format or none
 *    at all "remove it, or run make clean"; another kind or broken JSON the
 *    caller's fix. need says what a file that is not there means
 *    (lib/record.h: KF_QUIET nothing, KF_WARN a warning, KF_MUST exit 2).
 *  - every field below comes from the member of the same name (the schema
 *    beside the writer) when the member has the schema's type. A member
 *    that is absent, null or of another type stays missing: NULL for a
 *    string, -1 for an integer or a boolean (1 true, 0 false), NAN for
 *    seconds, no items for an array. Nothing is made up: the report shows
 *    what is missing.
 *  - arrays keep the record's order; an item of another type is left out
 *    (a string array's non-strings, a fact whose value is not a string).
 *  - strings are copies the struct owns: free it with its kind's _free(),
 *    which is safe after -1 too (the reader zeroes the struct first).
 * Members no tool reads are not kept: config.json's "base".
 */
#ifndef KF_RECORDS_H
#define KF_RECORDS_H

#include "record.h"

#include <stddef.h>

/* The header every record starts with (lib/record.h), and where it was. */
struct kf_rec_head {
	char *path;			/* the file read */
	long long format;		/* 1..KF_RECORD_FORMAT */
	char *flavour, *kver, *release;
};

/* ---- config.json (config/config.schema.json) ---------------------------- */

/* A requested value the final config does not have (the schema's "miss"). */
struct kf_miss {
	char *symbol, *file;
	long long line;
	char *requested, *final, *reason, *kind;
	char **detail;
	size_t ndetail;
	char *fix;
};

/* A value systemd needs that the config lacks ("systemd": the schema's "need"). */
struct kf_sysneed {
	char *symbol, *want, *final;
	int in_tree;			/* 1, 0, -1 missing */
	char *menu;			/* "General setup > Control Group support" */
	char *defined_at, *note;
};

/* "systemd": can the config boot systemd (config/sysreq.c)? */
struct kf_sysneeds {
	int checked;			/* 1: "systemd" is an object */
	char *init, *version;		/* "systemd", "252" */
	int ok;				/* no required value missing; -1 */
	struct kf_sysneed *missing, *recommended;
	size_t nmissing, nrecommended;
};

struct kf_config_rec {
	struct kf_rec_head h;
	char *config;			/* the merged config audited */
	char **fragments;		/* in merge order */
	size_t nfragments;
	long long requested;
	char **errors;			/* problems in the fragments themselves */
	size_t nerrors;
	struct kf_miss *misses;
	size_t nmisses;
	char *cpu_choice;		/* "MPSC", ... */
	char **cpu_choice_values;	/* every value of that choice */
	size_t ncpu_choice_values;
	long long l1_cache_shift;	/* line bytes = 1 << shift */
	int ok;				/* every requested value survived */
	struct kf_sysneeds systemd;	/* checked 0: not in the record */
};

int kf_config_rec_read(struct kf_config_rec *c, const char *path,
		       enum kf_need need, const char *fix);
void kf_config_rec_free(struct kf_config_rec *c);
/* Its "systemd" alone (a reader that took it from the record: zeroed). */
void kf_sysneeds_free(struct kf_sysneeds *d);
/* A miss as config.json has it (its members in the audit's order), for a
 * tool that passes misses on (upgrade.json). */
json_t *kf_miss_json(const struct kf_miss *m);

/* ---- build.json (build/build.schema.json) ------------------------------ */

/* One build's figures: build.json's own (this build) and last_full_build's. */
struct kf_build_run {
	long long compiled;		/* objects compiled; 0: a no-op rebuild */
	double wall_seconds, cpu_seconds;
	long long started, finished;	/* epoch seconds */
	long long warnings;
	char **warning_lines;		/* the first few */
	size_t nwarning_lines;
};

struct kf_section {
	char *name;			/* ".text", ... */
	long long bytes;
};

/*
 * build.json's "ccache"."remote": the shared cache (ccache_remote,
 * docs/build.md). has 1 when the record has one (an object); 0 when the
 * build had none (null) or the record is older than it (absent), its
 * figures then -1. url is ccache_remote as recorded, the password as ***.
 */
struct kf_ccache_remote {
	int has;
	char *url;
	int used;			/* 1; 0: off for the whole build (off_because); -1: none */
	char *off_because;		/* NULL when used */
	long long hits, misses, errors, timeouts, stored;
};

struct kf_build_rec {
	struct kf_rec_head h;
	struct kf_build_run run;	/* this build */
	int has_last_full;		/* 1: last_full_build is an object */
	struct kf_build_run last_full;	/* the last build that compiled */
	int ccache_enabled;
	long long ccache_hits, ccache_misses;
	struct kf_ccache_remote remote;	/* ccache.remote: the shared cache */
	char *distcc_hosts;
	/* build.json's "distcc": compiles run remote, here, redone here
	 * after a host failed; -1 without DISTCC_HOSTS or in older records */
	long long distcc_remote, distcc_local, distcc_fell_back;
	long long objects, bzimage_bytes;
	char *bzimage_sha256;
	struct kf_section *sections;	/* in the record's order */
	size_t nsections;
	long long code_bytes, text_span_bytes;
	char *march, *mtune, *flags_from;
};

int kf_build_rec_read(struct kf_build_rec *b, const char *path,
		      enum kf_need need, const char *fix);
void kf_build_rec_free(struct kf_build_rec *b);

/* ---- boot/<cpu>.json (boot/boot.schema.json) --------------------------- */

struct kf_ktap_case {
	char *suite, *name;
	int ok;
	char *directive;		/* "SKIP why", "TODO why" or NULL */
};

struct kf_rec_fact {
	char *key, *val;
};

struct kf_boot_rec {
	struct kf_rec_head h;
	char *cpu, *cpu_string, *qemu_version;
	char **command;			/* QEMU's argv */
	size_t ncommand;
	char *cmdline, *bzimage_sha256, *verdict, *expected;
	long long exit_status;
	double wall_seconds, guest_seconds;
	long long ktap_passed, ktap_failed, ktap_skipped;
	struct kf_ktap_case *cases;	/* "ktap": "results" */
	size_t ncases;
	char **warnings;
	size_t nwarnings;
	int has_console;		/* 1: "console" is an object */
	int swiotlb_mapped, microcode_updated, end_marker;
	long long hwalign;
	struct kf_rec_fact *facts;	/* in the record's order */
	size_t nfacts;
};

int kf_boot_rec_read(struct kf_boot_rec *b, const char *path,
		     enum kf_need need, const char *fix);
void kf_boot_rec_free(struct kf_boot_rec *b);
/* The value of fact key, or NULL. */
const char *kf_boot_fact(const struct kf_boot_rec *b, const char *key);

/*
 * The current-boot rule: a boot is current when it booted the flavour's
 * current bzImage, build.json's bzimage_sha256. 1 also when there is
 * nothing to compare (build NULL, or either SHA-256 missing); 0 for a boot
 * of an earlier build, which describes a kernel that is gone: no tool
 * counts or shows it as a boot (the report and results name it).
 */
int kf_boot_current(const struct kf_boot_rec *b, const struct kf_build_rec *build);

/* A flavour's boot records, split by kf_boot_current. */
struct kf_boots {
	struct kf_boot_rec *cur;	/* of the current bzImage */
	size_t ncur;
	struct kf_boot_rec *stale;	/* of an earlier one */
	size_t nstale;
};

/*
 * Every DIR/boot/<cpu>.json (DIR: the flavour's out/<kver>/<flavour>), split
 * against build (its build.json; NULL when it has none). Both lists are in
 * the CPU-model order of order[0..norder) when order is given (models not
 * in it after those that are), and by CPU model name after that. A record
 * that cannot be read is in neither, after a warning ("...; treated as
 * missing"). No boot directory: two empty lists.
 */
void kf_boots_load(struct kf_boots *bs, const char *dir, const struct kf_build_rec *build,
		   const char *const *order, size_t norder);
void kf_boots_free(struct kf_boots *bs);

/* ---- c2c/<cpu>.json, c2c/<workload>.<cpu>.json (c2c/c2c.schema.json) ---- */

/* One figure over a c2c record's runs; NAN when missing. */
struct kf_c2c_fig {
	double median, min, max, spread, per_iteration;
};

/* The figures of one line size ("figures": "64", "128"), in perf c2c's
 * terms (docs/c2c.md): load HITMs and stores to a modified line apart. */
struct kf_c2c_sizefigs {
	struct kf_c2c_fig loads, load_miss, load_hitm, load_hitm_true, load_hitm_false;
	struct kf_c2c_fig stores, store_miss, store_hitm, store_hitm_false;
	struct kf_c2c_fig invalidations, rmw;
	struct kf_c2c_fig lines;		/* distinct lines touched */
};

struct kf_c2c_recfn {
	char *name;
	double hitm;			/* HITMs per run */
};

struct kf_c2c_recline {
	long long size;			/* 64 or 128, -1 missing */
	char *addr, *pc;		/* "0x..." */
	struct kf_c2c_fig load_hitm, load_hitm_false, store_hitm, invalidations, loads, stores;
	char **objects;			/* kernel objects in the line */
	size_t nobjects_kept;
	long long nobjects;		/* all of them, -1 missing */
	long long percpu_cpu;		/* per-CPU objects: whose; -1 static/none */
	char *function;			/* of the last HITM's instruction */
	struct kf_c2c_recfn *functions;	/* of every HITM's instruction, most first */
	size_t nfunctions_kept;
	long long nfunctions;		/* all of them, -1 missing */
};

/* A 128-byte line with HITMs at 128 bytes only ("padding": "lines"). */
struct kf_c2c_padline {
	char *addr;
	struct kf_c2c_fig hitm_128_only, hitm_64_only;
	char **objects_low, **objects_high;	/* in each 64-byte half */
	size_t nobjects_low, nobjects_high;
	long long percpu_cpu;
	struct kf_c2c_recfn *functions, *functions_other;	/* this side, the other */
	size_t nfunctions, nfunctions_other;
};

struct kf_c2c_rec {
	struct kf_rec_head h;
	char *cpu, *cpu_string, *qemu_version, *workload, *count, *unit;
	char *tcg;			/* "single" or "multi" */
	char *memory;			/* QEMU's -m of the runs */
	long long smp;			/* QEMU's -smp of the runs; -1: missing */
	char *kernel_text_phys;		/* "0x...", NULL: lines not attributed */
	long long percpu_bytes;		/* the static per-CPU area; -1 missing */
	long long vcpus, iterations, runs;
	struct kf_c2c_sizefigs size64, size128;
	/* HITMs at 128 bytes that were none at 64, and the opposite. */
	struct kf_c2c_fig only128_load, only128_store, only64_load, only64_store;
	struct kf_c2c_fig insns_kernel, insns_user;
	struct kf_c2c_fig whole_insns, whole_accesses, whole_io, wall_seconds;
	struct kf_c2c_recline *lines;	/* in the record's order: most HITMs first */
	size_t nlines;
	struct kf_c2c_padline *padlines;	/* most HITMs at 128 only first */
	size_t npadlines;
};

int kf_c2c_rec_read(struct kf_c2c_rec *c, const char *path, enum kf_need need,
		    const char *fix);
void kf_c2c_rec_free(struct kf_c2c_rec *c);

/* ---- the Debian system (system/rootfs.schema.json, system/image.schema.json) */

/* The cached root filesystem (system/rootfs.sh, system/record.c). */
struct kf_rootfs_rec {
	struct kf_rec_head h;
	char *tar, *sha256, *key, *suite, *variant, *mmdebstrap;
	long long bytes, source_date_epoch;	/* -1: missing */
	char **include, **sources;
	size_t ninclude, nsources;
	double seconds;			/* NAN: not measured (a record made again) */
};

int kf_rootfs_rec_read(struct kf_rootfs_rec *r, const char *path, enum kf_need need,
		       const char *fix);
void kf_rootfs_rec_free(struct kf_rootfs_rec *r);

/* A file of the image's ("file" beside the record, "bytes", "sha256"). */
struct kf_sys_file {
	char *file, *sha256;
	long long bytes;		/* -1: missing */
};

/* A flavour's system image (system/image.sh, system/record.c): its package
 * installed in a copy of the root filesystem. The header's release is the
 * package's kernel release. */
struct kf_image_rec {
	struct kf_rec_head h;
	char *rootfs_tar, *rootfs_sha256;
	struct kf_sys_file package, kernel, initrd, image;
	char *package_name, *package_version;
	long long initrd_modules;	/* modules in the initrd; -1 missing */
	char *root_driver;		/* "virtio_blk" */
	char *root_driver_in;		/* "initrd", "builtin" or "missing" */
	char *uuid;			/* the ext4 file system's */
	char **extra_files, **extra_units;
	size_t nextra_files, nextra_units;
	double seconds;
};

int kf_image_rec_read(struct kf_image_rec *r, const char *path, enum kf_need need,
		      const char *fix);
void kf_image_rec_free(struct kf_image_rec *r);

/* ---- deb/deb.json (package/deb.schema.json): make deb's packages --------- */

struct kf_deb_pkg {
	char *name;			/* "linux-image-6.1.192-kf-tiny-systemd" */
	char *kind;			/* image, headers, libc-dev, dbg, other */
	char *version, *arch;
	char *file, *path;		/* the .deb's name; its absolute path */
	long long bytes;		/* -1: missing */
	char *sha256;
	long long installed_kib;	/* Installed-Size; -1: missing */
	long long modules;		/* .ko files; -1: missing or not the image */
	char **module_files;		/* relative to modules_dir, sorted */
	size_t nmodule_files;
	char *vmlinuz;			/* "/boot/vmlinuz-<release>"; NULL: not the image */
	char *modules_dir;		/* "/lib/modules/<release>"; NULL: none */
};

struct kf_deb_rec {
	struct kf_rec_head h;		/* release: the packaged kernel's (uname -r) */
	char *version, *source, *arch;
	char *dir;			/* where the packages and the record are */
	char *changes;			/* the .changes, in dir */
	long long source_date_epoch;	/* -1: missing */
	struct kf_deb_pkg *packages;	/* in the record's order */
	size_t npackages;
	char *image;			/* the image package's name */
};

int kf_deb_rec_read(struct kf_deb_rec *d, const char *path, enum kf_need need,
		    const char *fix);
void kf_deb_rec_free(struct kf_deb_rec *d);
/* The package the record's "image" names, or NULL. */
const struct kf_deb_pkg *kf_deb_image(const struct kf_deb_rec *d);
/* 1 when the image package holds a module of this file name ("virtio_blk.ko",
 * in any directory, also compressed: "virtio_blk.ko.xz"), else 0. */
int kf_deb_has_module(const struct kf_deb_pkg *p, const char *name);

/* ---- sysboot/<cpu>.json (boot/sysboot.schema.json): a system boot ------ */

/* A flavour's package booted to multi-user.target in its Debian system
 * (boot-runner --disk, docs/system-boot.md): a boot record's members (b,
 * its header's kind "sysboot") and the system boot's own. */
struct kf_sysboot_rec {
	struct kf_boot_rec b;
	char *initrd_sha256, *image, *image_record;
	char *cause;			/* the verdict's cause; NULL for a pass */
	int multi_user_reached;		/* 1, 0, -1 missing */
	double multi_user_seconds;	/* from the kernel's start; NAN: missing */
	double userspace_seconds;
	char *systemd_version, *system_state;
	char **failed_units, **modules, **systemd_lines;
	size_t nfailed_units, nmodules, nsystemd_lines;
	char *root_device;		/* "vda" */
	char **root_drivers, **root_modules;
	size_t nroot_drivers, nroot_modules;
	long long mem_total_kb, mem_used_kb;	/* -1: missing */
	char *no_root_line;
};

int kf_sysboot_rec_read(struct kf_sysboot_rec *s, const char *path, enum kf_need need,
			const char *fix);
void kf_sysboot_rec_free(struct kf_sysboot_rec *s);

/* ---- which audit is current: the config stage's rule (config-commit) ---- */

/* The files of the rule, in a flavour's O= directory: the one writer
 * (config/commit.c) and this reader name them from here. */
#define KF_CONFIG_JSON		"config.json"		/* the last good audit */
#define KF_CONFIG_FAILED_JSON	"config-failed.json"	/* a failed attempt's audit */
#define KF_CONFIG_FAILED	"config.failed"		/* why the last attempt failed */

/* A failed config attempt leaves .config and config.json (the last good
 * config's) alone, writes why into config.failed and, when it got as far
 * as the audit, that audit into config-failed.json; a passing attempt
 * removes both. So the current audit of the flavour in dir is
 * config-failed.json when there is one, else config.json (audit, the path;
 * NULL when neither is there), and failed is config.failed's first line
 * (NULL: the last attempt passed). Free with kf_config_state_free(). */
struct kf_config_state {
	char *audit;
	char *failed;
};
void kf_config_state_read(struct kf_config_state *s, const char *dir);
void kf_config_state_free(struct kf_config_state *s);

/* ---- flavour.json (config/flavour.schema.json): a flavour resolved ------ */

/* The config stage's record of a flavour resolved once for a tree
 * (config-flavours --record): the recipe it came from, its fragment files
 * for this kver in merge order, its base and that base's file, its CPU
 * model (name, QEMU's -cpu, the verdict it expects), QEMU's memory and
 * smp, the extra command line and the group. Later tools take this record
 * (or the flavour's name and out=) and never the recipe. */
struct kf_flavour_rec {
	struct kf_rec_head h;
	char *recipe, *description;
	char **fragments;
	size_t nfragments;
	char *base, *base_file;		/* base_file NULL for tinyconfig */
	char *model, *model_cpu, *model_expect;
	char *memory, *smp, *cmdline, *group;
};

int kf_flavour_rec_read(struct kf_flavour_rec *f, const char *path, enum kf_need need,
			const char *fix);
void kf_flavour_rec_free(struct kf_flavour_rec *f);

#endif /* KF_RECORDS_H */
