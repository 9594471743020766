/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render.h - the renderers of struct report (report.h), which only read it:
 *
 *   rows.c        what they share: the flavour rows, the verdicts and their
 *                 colours, the boot cells, number formats
 *   svg.c         inline SVG bar charts (html.c's)
 *   table.c       the terminal table (100 columns)
 *   json.c        report.json (jansson)
 *   html.c        report.html (inline CSS, no script)
 *   kcidb.c       kcidb.json, and the report-kcidb command line
 *   ktap.c        results.ktap (and the boots both CI files list)
 *   junit.c       junit.xml; report/results.c is their command line,
 *                 report-results
 *
 * A flavour row is data: its label, where its value comes from and the one
 * text it shows when the value is missing (rows.c). The table and the HTML
 * only lay rows out and format their values.
 */
#ifndef KF_REPORT_RENDER_H
#define KF_REPORT_RENDER_H

#include "report.h"

#include <jansson.h>

enum row_id {
	ROW_STATUS,		/* table row; report.html's column heading */
	ROW_DESCRIPTION,	/* report.html only: too wide for a terminal */
	ROW_CPU,
	ROW_MARCH,
	ROW_L1,
	ROW_SMT,
	ROW_MICROCODE,
	ROW_BZIMAGE,
	ROW_TEXT,
	ROW_CODE,
	ROW_DATA,
	ROW_PERCPU,
	ROW_BUILD_WALL,		/* the table splits the build times in two rows, */
	ROW_BUILD_CPU,
	ROW_BUILD_SECONDS,	/* report.html shows them in one */
	ROW_CCACHE,		/* build.json's ccache */
	ROW_CCACHE_REMOTE,	/* its shared cache's (the table: when any has one) */
	ROW_WARNINGS,
	ROW_SYSTEMD,		/* can it boot systemd: config.json's check */
	ROW_NR
};

/* How a value is shaped; each renderer formats each kind its own way. */
enum row_kind {
	RK_TEXT,	/* text */
	RK_CODE,	/* text that is a Kconfig value or symbol */
	RK_NUMBER,	/* num */
	RK_SIZE,	/* num bytes against ref (-1: this flavour is the reference) */
	RK_BYTES,	/* the same, without a rounded size beside it */
	RK_MARCH,	/* text: -march, or NULL (then mtune, or NULL) */
	RK_MICROCODE,	/* num: MICROCODE y (1) or n (0); intel, amd */
	RK_SECONDS,	/* wall, cpu (NAN: unknown), seconds, alongside, compiled */
	RK_WARNINGS,	/* num warnings; the flavour's lines */
	RK_SYSTEMD,	/* num required values missing; the flavour's systemd */
	RK_CCACHE,	/* ccache: its hits of calls, and the shared cache's (fmt_ccache) */
};

struct row_value {
	const char *missing;	/* the row's text for a missing value, or NULL */
	const char *text;
	const char *mtune;
	long long num, ref;
	int intel, amd;
	double wall, cpu;	/* the last build that compiled; NAN: unknown */
	double seconds;		/* wall seconds of the last build of any kind */
	long alongside, compiled;
	const struct kf_build_rec *build;	/* RK_CCACHE: the flavour's build.json */
};

struct row {
	const char *label;
	const char *html_label;	/* NULL: the same as label */
	enum row_kind kind;
	const char *section;	/* RK_SIZE, RK_BYTES: the ELF section, NULL: other */
};

extern const struct row report_rows[ROW_NR];

/* Row 'id' of flavour i. */
struct row_value row_value(const struct report *r, size_t i, enum row_id id);

/* Boot verdicts (boot/boot.schema.json) in the legend's order, each with
 * its terminal colour (SGR); report.css colours class verdict-<name>. */
struct verdict {
	const char *name;
	const char *sgr;
};
#define NR_VERDICTS	7
extern const struct verdict report_verdicts[NR_VERDICTS];
/* v's entry, or NULL for NULL or an unknown verdict. */
const struct verdict *verdict_of(const char *v);

/* Flavour i on CPU model c: the table's "boot <cpu>" row, report.html's
 * matrix cell. */
struct boot_cell {
	const struct boot *b;	/* NULL: not booted */
	int is_default;		/* c is the flavour's default model */
	const char *want;	/* the record's expected verdict, else the model's */
	int unexpected;		/* b's verdict is not 'want' */
};
struct boot_cell boot_cell(const struct report *r, size_t i, size_t c);

/* A boot's run-time facts in groups: the table's rows under a "boot <cpu>"
 * row, report.html's columns in its run-time table. */
enum boot_row_id { BR_GDT, BR_SHARE, BR_CPU, BR_IO, BR_NR };
struct boot_row {
	const char *label;		/* the table's */
	const char *columns[4];		/* report.html's, NULL-terminated */
};
extern const struct boot_row boot_rows[BR_NR];

/* "+10.2K", "-512", "±0" into buf. */
void fmt_delta(char *buf, size_t len, long long delta);
/* "1.18M", "48.2K", "912" into buf. */
void fmt_size(char *buf, size_t len, long long bytes);
/* A build's ccache figures, the table's and report.html's words: "off", or
 * "812/1018 hits" (hits of the calls that compile, the shared cache's among
 * them). */
void fmt_ccache(char *buf, size_t len, const struct kf_build_rec *b);
/* Its shared cache's (ccache_remote): "800 hits" (of the hits above),
 * ", 3 failed" (lookups and stores: errors and timeouts), or "off" (not used
 * for the build); "" without one. Never the URL. */
void fmt_ccache_remote(char *buf, size_t len, const struct kf_build_rec *b);

/* The "System boot" block (rows.c): the flavour's package installed in its
 * Debian system and booted to multi-user.target, on the flavour's CPU model
 * when it has such a boot, else the first. Each row's text is the table's
 * and report.html's. */
enum sys_row { SYS_VERDICT, SYS_MULTI_USER, SYS_FAILED, SYS_MODULES, SYS_ROOT,
	       SYS_PACKAGE, SYS_INITRD, SYS_MEMORY, SYS_NR };
extern const char *const sys_row_labels[SYS_NR];
/* The system boot the block shows, or NULL. */
const struct kf_sysboot_rec *flavour_sysboot(const struct flavour *f);
/* 1 when some flavour has a package, an image or a system boot. */
int report_has_system(const struct report *r);
/* Row id of flavour f into buf ("—" when unknown, "not packaged" ...). */
void sys_row_text(char *buf, size_t len, const struct flavour *f, enum sys_row id);

void table_print(FILE *f, const struct report *r, int width);
/* Returns 0, or -1 with errno set. */
int json_write(const struct report *r, const char *path);
/* json.c: a value of the model in JSON, null when missing (NULL, -1, NAN). */
json_t *jstr_or_null(const char *s);
json_t *jint_or_null(long long v);
json_t *jnum_or_null(double v);
json_t *jstr_array(char *const *v, size_t n);
int html_write(const struct report *r, const char *path);

/* ktap.c, junit.c: a boot as results.ktap and junit.xml show it, from its
 * record (the model's flavours' boot_recs, current and stale). */
struct result {
	const struct kf_boot_rec *b;
	const char *path, *flavour, *kver, *cpu, *verdict, *expected;
	double wall;		/* 0 when unknown */
	int as_expected;
	/* 1: a system boot (sysboot/<cpu>.json, named "<cpu>.system"), its
	 * verdict's cause or NULL; 0: a boot of the static init */
	int system;
	const char *cause;
};
/* What names a left-out boot of an earlier bzImage (then its path). */
#define RESULTS_GONE "left out, a boot of an earlier %s bzImage than build.json's: "
/* The current boots and the left-out ones of every flavour of r, each by
 * record path (as a glob of <kdir>/<flavour>/boot/<cpu>.json lists them),
 * the system boots (sysboot/<cpu>.json) among the current ones; free both
 * arrays. */
void results_list(const struct report *r, struct result **cur, size_t *ncur,
		  struct result **gone, size_t *ngone);
/* Both return 0, or -1 with errno set; written atomically. */
int ktap_write(const struct report *r, const char *path);
int junit_write(const struct report *r, const char *path);

/* svg.c: a horizontal bar chart. A value < 0 is missing: its text, or the
 * chart's "missing" text when NULL, stands where its bar would be. */
struct bar {
	const char *label;
	const char *group;	/* NULL: no group heading */
	double value;		/* < 0: missing */
	const char *text;	/* value text */
	const char *cls;	/* CSS class of the bar */
};

void svg_bars(struct strbuf *sb, const char *title, const struct bar *bars,
	      size_t n, const char *missing);

#endif /* KF_REPORT_RENDER_H */
