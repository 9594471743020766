/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render.h - the renderers of struct report (report.h), which only read it:
 *
 *   rows.c        what they share: the flavour rows, number formats
 *   svg.c         inline SVG bar charts (html.c's)
 *   table.c       the terminal table (100 columns)
 *   json.c        report.json (jansson)
 *   html.c        report.html (inline CSS, no script)
 *   kcidb.c       kcidb.json, and the report-kcidb command line
 *
 * A flavour row is data: its label, where its value comes from and the one
 * text it shows when the value is missing (rows.c). The table and the HTML
 * only lay rows out and format their values.
 */
#ifndef KF_REPORT_RENDER_H
#define KF_REPORT_RENDER_H

#include "report.h"

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
	ROW_WARNINGS,
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

/* "+10.2K", "-512", "±0" into buf. */
void fmt_delta(char *buf, size_t len, long long delta);
/* "1.18M", "48.2K", "912" into buf. */
void fmt_size(char *buf, size_t len, long long bytes);

void table_print(FILE *f, const struct report *r, int width);
/* Returns 0, or -1 with errno set. */
int json_write(const struct report *r, const char *path);
int html_write(const struct report *r, const char *path);

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
