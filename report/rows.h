/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rows.h - the flavour rows of the report, shared by the terminal table
 * (table.c) and report.html (html.c). A row is data: its label, where its
 * value comes from and the one text it shows when the value is missing
 * (rows.c). The renderers only lay rows out and format their values.
 */
#ifndef KF_REPORT_ROWS_H
#define KF_REPORT_ROWS_H

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

#endif /* KF_REPORT_ROWS_H */
