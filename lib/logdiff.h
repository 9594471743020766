/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdiff.h - compare two boot consoles (logdiff.c): each log's lines read
 * by lib/conline.c, normalised (what differs on every boot hidden), then an
 * LCS line diff. The report's console diffs and bisect's log difference.
 */
#ifndef KF_LOGDIFF_H
#define KF_LOGDIFF_H

#include <stddef.h>
#include <stdio.h>

/* A console log split into normalised lines. */
struct ld_line {
	char *text;	/* normalised text */
	int lineno;	/* 1-based line number in the raw log */
};

struct ld_log {
	struct ld_line *line;
	size_t n;
};

/*
 * Normalise one console line (no newline): strip the printk timestamp, hide
 * what differs on every boot (addresses, calibration values, memory sizes,
 * the nonce...). Returns a new string, or NULL when the whole line is noise
 * (memory map, e820, timing lines) and must be dropped.
 */
char *ld_normalise(const char *raw);
/* Split and normalise a whole log (CR and ANSI noise removed). */
void ld_log_parse(struct ld_log *log, const char *text);
/* The same of a file: 0, or -1 (errno set) when it cannot be read. */
int ld_log_read(struct ld_log *log, const char *path);
void ld_log_free(struct ld_log *log);

enum ld_op { LD_SAME = ' ', LD_DEL = '-', LD_ADD = '+', LD_HUNK = '@' };

struct ld_edit {
	enum ld_op op;
	const char *text;	/* points into an ld_log, or the hunk header */
	int a_line, b_line;	/* raw line numbers; 0 when not on that side */
};

struct ld_diff {
	struct ld_edit *e;	/* hunks with 'context' lines around changes */
	size_t n;
	size_t added, removed;
	char **headers;		/* storage for LD_HUNK texts */
	size_t nheaders;
};

/* Diff two normalised logs (LCS), keeping 'context' lines around changes. */
void ld_diff(struct ld_diff *d, const struct ld_log *a, const struct ld_log *b,
	     int context);
void ld_diff_free(struct ld_diff *d);
/* Print as a unified-style diff with the two labels. */
void ld_diff_print(FILE *f, const struct ld_diff *d, const char *la,
		   const char *lb);

#endif /* KF_LOGDIFF_H */
