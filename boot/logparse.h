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

#include "../lib/console.h"	/* the init's lines: facts, end marker, exit status */

enum kf_verdict {
	KF_PASS,
	KF_TEST_FAIL,
	KF_PANIC,
	KF_OOPS,
	KF_REFUSED,
	KF_HANG,
	KF_QEMU_ERROR,
	/* A system boot's own (docs/system-boot.md, "Verdicts"). */
	KF_FAILED_UNIT,
	KF_SYSTEMD_REFUSED,
	KF_NO_ROOT,
	KF_TIMEOUT,
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
#define KF_NOTE_SYSTEM	"system boot: "		/* + the root disk; its verdicts */

/* The kernel's console lines that decide a verdict. */
#define KF_REFUSED_TEXT	"This kernel requires an x86-64 CPU"
#define KF_PANIC_TEXT	"Kernel panic - not syncing"

/*
 * A system boot's console lines (docs/system-boot.md, "Verdicts"): systemd
 * reached its target, refused to go on, a unit failed; the root device was
 * not found (initramfs-tools' words, then the kernel's when it mounts the
 * root itself); the kernel could not run the initrd's /init.
 */
#define KF_SYS_REACHED_TEXT	"Reached target multi-user.target"
#define KF_SYS_FREEZE_TEXT	"Freezing execution"
#define KF_SYS_EMERG_PREFIX	"[!!!!!!] "	/* systemd's emergency status line */
#define KF_SYS_FAILED_PREFIX	"[FAILED] Failed to start "
#define KF_SYS_EMERGENCY_TEXT	"You are in emergency mode"
#define KF_NO_ROOT_TEXTS	{ "Gave up waiting for root file system device", \
				  "does not exist.  Dropping to a shell", \
				  "VFS: Cannot open root device", \
				  "VFS: Unable to mount root fs" }
#define KF_INIT_FAILED_TEXT	"Failed to execute /init"
/* The kernel found no init: with no root file system mounted (no
 * KF_ROOT_MOUNTED_TEXT, and no initrd that mounted one), the root device
 * was never found (a kernel without the block layer says nothing else). */
#define KF_NO_INIT_TEXT		"No working init found"
#define KF_ROOT_MOUNTED_TEXT	"VFS: Mounted root"

#define KF_MAX_WARNINGS	32
#define KF_MAX_SYS_LINES	8

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

	/* A system boot's (system set before parsing: its verdicts). */
	int system;
	int multi_user;			/* KF_SYS_REACHED_TEXT */
	int freeze;			/* systemd: KF_SYS_FREEZE_TEXT */
	char *sys_lines[KF_MAX_SYS_LINES];	/* systemd's reasons, as it said them */
	size_t nr_sys_lines;
	char *units_failed[KF_MAX_SYS_LINES];	/* from KF_SYS_FAILED_PREFIX lines */
	size_t nr_units_failed;
	int emergency;			/* KF_SYS_EMERGENCY_TEXT */
	char *no_root;			/* the first line saying the root was not found */
	char *init_failed;		/* KF_INIT_FAILED_TEXT's line */
	int no_init, root_mounted;	/* KF_NO_INIT_TEXT, KF_ROOT_MOUNTED_TEXT */
	char *kernel_release;		/* "Linux version <release> " */

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
 * should exit by itself in a moment); in a system boot also KF_NO_ROOT,
 * KF_SYSTEMD_REFUSED and KF_FAILED_UNIT (the emergency shell). -1 while
 * nothing is decided.
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
