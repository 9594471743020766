/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logparse.h - read a boot's console: KTAP results, the guest init's facts,
 * kernel problems, and the verdict (docs/boot.md).
 *
 * Shared by the runner (fed line by line while QEMU runs), its --parse and
 * --replay modes, and the unit tests; the report reads what it found from
 * the boot record. No I/O except kf_log_parse_file().
 *
 * A boot log written by the runner has one line per console line:
 *     "[+   1.234] text"      console text, host seconds since QEMU started
 *     "[+   1.234]! note"     a note of the runner (QEMU's exit, a timeout...)
 * A file without these prefixes is read as raw console text.
 */
#ifndef KF_LOGPARSE_H
#define KF_LOGPARSE_H

#include <stddef.h>

#include "console.h"	/* the init's lines: facts, end marker, exit status */

enum kf_verdict {
	KF_PASS,
	KF_TEST_FAIL,
	KF_PANIC,
	KF_OOPS,
	KF_REFUSED,
	KF_HANG,
	KF_QEMU_ERROR,
	KF_NR_VERDICTS
};

/* "pass", "test-fail", ...; kf_verdict_from_name returns -1 if unknown. */
const char *kf_verdict_name(enum kf_verdict v);
int kf_verdict_from_name(const char *name);

/* Runner notes ("]! " lines) the parser understands; the runner writes them. */
#define KF_NOTE_NONCE	"nonce "		/* + the nonce it passed */
#define KF_NOTE_EXIT	"qemu exit status "	/* + QEMU's exit status */
#define KF_NOTE_KILLED	"qemu killed: "		/* + why; QEMU did not exit itself */
#define KF_NOTE_HANG	"hang: "		/* + no output for N s */
#define KF_NOTE_TIMEOUT	"timeout: "		/* + the boot took longer than N s */
#define KF_NOTE_NOSTART	"qemu did not start: "	/* + why */

/* The kernel's console lines that decide a verdict. */
#define KF_REFUSED_TEXT	"This kernel requires an x86-64 CPU"
#define KF_PANIC_TEXT	"Kernel panic - not syncing"

#define KF_MAX_WARNINGS	32

struct kf_ktap_result {
	char *suite;		/* top-level subtest (suite) name, "" if none */
	char *name;		/* test name; nested subtests joined with '.' */
	int ok;			/* 1 ok (or skipped), 0 not ok */
	int skipped;		/* a SKIP or TODO directive */
	char *directive;	/* "SKIP why", "TODO why" as the line had it, or NULL */
};

struct kf_fact {
	char *key;		/* without KF_FACT_PREFIX */
	char *value;
};

struct kf_ktap_frame {
	int indent;
	char *name;		/* "# Subtest:" name, or NULL */
};

struct kf_log {
	/* What the runner knows (or the log's notes say); set before parsing. */
	char *nonce;		/* expected nonce; NULL: from the command line */
	int exit_known;		/* QEMU exited by itself with exit_status */
	int exit_status;
	int killed;		/* the runner ended QEMU */
	int hang;		/* no console output for too long */
	int timeout;		/* whole boot too long */
	int nostart;		/* QEMU could not start */

	/* What the console said. */
	size_t lines;
	int refused, panic, oops;	/* counts of such lines */
	int end_seen;			/* end marker with the right nonce */
	int end_wrong_nonce;
	double guest_seconds;		/* from KF_UPTIME, -1 if none */
	char *cmdline_nonce;		/* KF_NONCE_PARAM= of "Command line:" */
	/* Console lines the report shows, read here once (the boot record's
	 * "console" object, docs/boot.md). */
	int swiotlb_mapped;		/* "software IO TLB: mapped" */
	long hwalign;			/* SLUB's "HWalign=", -1 if none */
	int microcode_updated;		/* "microcode: updated" (an update loaded) */

	struct kf_ktap_result *results;
	size_t nr_results, cap_results;
	int passed, failed, skipped;

	struct kf_fact *facts;
	size_t nr_facts, cap_facts;

	char *warnings[KF_MAX_WARNINGS];	/* kernel problem lines, notes */
	size_t nr_warnings;

	/* KTAP nesting state. */
	int in_ktap;			/* inside a document not yet complete */
	int top_planned, top_seen;	/* its plan "1..N" (-1: none yet), results */
	struct kf_ktap_frame frames[8];
	int nr_frames;
};

void kf_log_init(struct kf_log *log);
void kf_log_free(struct kf_log *log);

/* Feed one console line (without its newline; '\r' and escapes allowed). */
void kf_log_line(struct kf_log *log, const char *line);
/* Feed one runner note (the text after "]! "). */
void kf_log_note(struct kf_log *log, const char *note);
/* Add a warning (copied; at most KF_MAX_WARNINGS are kept). */
void kf_log_warn(struct kf_log *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Whether the console has already decided the outcome, so the runner can stop
 * waiting: KF_REFUSED (stop now), KF_PANIC or KF_PASS (the end marker: QEMU
 * should exit by itself in a moment). -1 while nothing is decided.
 */
int kf_log_outcome(const struct kf_log *log);

/* The verdict from everything fed so far (docs/boot.md, "Verdicts"). */
enum kf_verdict kf_log_verdict(const struct kf_log *log);

/* Value of a fact, or NULL. */
const char *kf_log_fact(const struct kf_log *log, const char *key);

/*
 * Parse a whole buffer / log file (runner format or raw console).
 * kf_log_parse_file returns 0, or -1 with errno set.
 */
void kf_log_parse_text(struct kf_log *log, const char *text);
int kf_log_parse_file(struct kf_log *log, const char *path);

#endif /* KF_LOGPARSE_H */
