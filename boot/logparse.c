// SPDX-License-Identifier: GPL-2.0
/*
 * logparse.c - read a boot's console: KTAP, facts, kernel problems, verdict.
 * See logparse.h for the interface and docs/boot.md for the protocol.
 */
#include "logparse.h"
#include "../lib/conline.h"
#include "../lib/kf.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const verdict_names[KF_NR_VERDICTS] = {
	[KF_PASS] = "pass",
	[KF_TEST_FAIL] = "test-fail",
	[KF_PANIC] = "panic",
	[KF_OOPS] = "oops",
	[KF_REFUSED] = "refused",
	[KF_HANG] = "hang",
	[KF_QEMU_ERROR] = "qemu-error",
	[KF_FAILED_UNIT] = "failed-unit",
	[KF_SYSTEMD_REFUSED] = "systemd-refused",
	[KF_NO_ROOT] = "no-root",
	[KF_TIMEOUT] = "timeout",
};

const char *kf_verdict_name(enum kf_verdict v)
{
	return (unsigned int)v < KF_NR_VERDICTS ? verdict_names[v] : "unknown";
}

int kf_verdict_from_name(const char *name)
{
	for (int i = 0; i < KF_NR_VERDICTS; i++)
		if (!strcmp(name, verdict_names[i]))
			return i;
	return -1;
}

void kf_log_init(struct kf_log *log)
{
	memset(log, 0, sizeof(*log));
	log->guest_seconds = -1;
	log->hwalign = -1;
}

static void free_frames(struct kf_log *log, int keep)
{
	while (log->nr_frames > keep) {
		log->nr_frames--;
		free(log->frames[log->nr_frames].name);
		log->frames[log->nr_frames].name = NULL;
	}
}

void kf_log_free(struct kf_log *log)
{
	free(log->nonce);
	free(log->cmdline_nonce);
	for (size_t i = 0; i < log->nr_sys_lines; i++)
		free(log->sys_lines[i]);
	for (size_t i = 0; i < log->nr_units_failed; i++)
		free(log->units_failed[i]);
	free(log->no_root);
	free(log->init_failed);
	free(log->kernel_release);
	for (size_t i = 0; i < log->nr_results; i++) {
		free(log->results[i].suite);
		free(log->results[i].name);
		free(log->results[i].directive);
	}
	free(log->results);
	for (size_t i = 0; i < log->nr_facts; i++) {
		free(log->facts[i].key);
		free(log->facts[i].value);
	}
	free(log->facts);
	for (size_t i = 0; i < log->nr_warnings; i++)
		free(log->warnings[i]);
	free_frames(log, 0);
	kf_log_init(log);
}

void kf_log_warn(struct kf_log *log, const char *fmt, ...)
{
	va_list ap;
	char *w;

	if (log->nr_warnings >= KF_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	if (vasprintf(&w, fmt, ap) < 0)
		kf_die(1, "out of memory");
	va_end(ap);
	if (strlen(w) > 300)
		strcpy(w + 297, "...");
	log->warnings[log->nr_warnings++] = w;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void add_result(struct kf_log *log, const char *suite, const char *name,
		       int ok, const char *directive)
{
	/* TAP: a TODO test is not expected to pass: not a failure either */
	int skipped = directive && (!strncasecmp(directive, "skip", 4) ||
				    !strncasecmp(directive, "todo", 4));
	struct kf_ktap_result *r;

	if (log->nr_results == log->cap_results) {
		log->cap_results = log->cap_results ? log->cap_results * 2 : 32;
		log->results = kf_xrealloc(log->results,
					   log->cap_results * sizeof(*log->results));
	}
	r = &log->results[log->nr_results++];
	r->suite = kf_xstrdup(suite);
	r->name = kf_xstrdup(name);
	r->directive = skipped ? kf_xstrdup(directive) : NULL;
	r->ok = ok || skipped;
	r->skipped = skipped;
	if (skipped)
		log->skipped++;
	else if (ok)
		log->passed++;
	else
		log->failed++;
}

static void set_fact(struct kf_log *log, const char *key, const char *value)
{
	for (size_t i = 0; i < log->nr_facts; i++)
		if (!strcmp(log->facts[i].key, key)) {
			free(log->facts[i].value);
			log->facts[i].value = kf_xstrdup(value);
			return;
		}
	if (log->nr_facts == log->cap_facts) {
		log->cap_facts = log->cap_facts ? log->cap_facts * 2 : 64;
		log->facts = kf_xrealloc(log->facts, log->cap_facts * sizeof(*log->facts));
	}
	log->facts[log->nr_facts].key = kf_xstrdup(key);
	log->facts[log->nr_facts].value = kf_xstrdup(value);
	log->nr_facts++;
}

const char *kf_log_fact(const struct kf_log *log, const char *key)
{
	for (size_t i = 0; i < log->nr_facts; i++)
		if (!strcmp(log->facts[i].key, key))
			return log->facts[i].value;
	return NULL;
}

static void push_frame(struct kf_log *log, int indent)
{
	if (log->nr_frames == (int)(sizeof(log->frames) / sizeof(log->frames[0])))
		return;
	log->frames[log->nr_frames].indent = indent;
	log->frames[log->nr_frames].name = NULL;
	log->nr_frames++;
}

/* "ok 3 - name # SKIP why" (after the indentation). */
static void ktap_result(struct kf_log *log, const char *t, int indent)
{
	int ok = starts(t, "ok ");
	const char *p = t + (ok ? 3 : 7), *hash;
	char *name, *end, *directive = NULL;
	int closed = 0;

	/* A result at a shallower indent than the open subtest closes it. */
	while (log->nr_frames > 1 && log->frames[log->nr_frames - 1].indent > indent) {
		free_frames(log, log->nr_frames - 1);
		closed = 1;
	}
	if (indent == log->frames[0].indent && ++log->top_seen == log->top_planned)
		log->in_ktap = 0;	/* the document is complete */
	if (closed)
		return;		/* a subtest's summary line: its tests counted */

	while (isdigit((unsigned char)*p))
		p++;
	while (*p == ' ')
		p++;
	if (starts(p, "- "))
		p += 2;
	name = kf_xstrdup(p);
	hash = strstr(name, " # ");
	if (!hash && name[0] == '#')
		hash = name;
	if (hash) {
		const char *d = hash + (hash[0] == '#' ? 1 : 3);

		while (*d == ' ')
			d++;
		directive = kf_xstrdup(d);
		name[hash - name] = '\0';
	}
	end = name + strlen(name);
	while (end > name && end[-1] == ' ')
		*--end = '\0';

	/* suite: the first subtest; deeper subtests prefix the name. */
	const char *suite = log->nr_frames > 1 && log->frames[1].name ?
		log->frames[1].name : "";
	struct strbuf full = { 0 };

	for (int i = 2; i < log->nr_frames; i++)
		sb_addf(&full, "%s.", log->frames[i].name ? log->frames[i].name : "?");
	sb_add(&full, name);
	add_result(log, suite, full.s, ok, directive);
	free(directive);
	free(full.s);
	free(name);
}

static void ktap_line(struct kf_log *log, const char *s)
{
	int indent = 0;
	const char *t;

	while (s[indent] == ' ')
		indent++;
	t = s + indent;

	if (starts(t, "KTAP version ") || starts(t, "TAP version ")) {
		if (indent == 0 || !log->in_ktap) {
			/* a new document */
			free_frames(log, 0);
			push_frame(log, indent);
			log->in_ktap = 1;
			log->top_planned = -1;
			log->top_seen = 0;
		} else if (log->frames[log->nr_frames - 1].indent < indent) {
			push_frame(log, indent);
		}
		return;
	}
	if (!log->in_ktap)
		return;
	if (starts(t, "# Subtest: ")) {
		const char *n = t + strlen("# Subtest: ");
		struct kf_ktap_frame *top;

		if (log->frames[log->nr_frames - 1].indent < indent)
			push_frame(log, indent);
		top = &log->frames[log->nr_frames - 1];
		if (top->indent == indent && !top->name)
			top->name = kf_xstrdup(n);
		return;
	}
	if (starts(t, "ok ") || starts(t, "not ok ")) {
		ktap_result(log, t, indent);
		return;
	}
	/* The document's plan; "1..0" ends it at once (KUnit with no suites). */
	if (indent == log->frames[0].indent && starts(t, "1..") && log->top_planned < 0) {
		log->top_planned = atoi(t + 3);
		if (log->top_planned == 0)
			log->in_ktap = 0;
	}
}

/* kflavour.nonce= of the kernel's "Command line:" line. */
static void cmdline_nonce(struct kf_log *log, const char *s)
{
	const char *p = strstr(s, KF_NONCE_PARAM "=");

	if (!p || log->cmdline_nonce)
		return;
	p += strlen(KF_NONCE_PARAM "=");
	log->cmdline_nonce = kf_xstrndup(p, strcspn(p, " "));
}

/* What the report shows of the console besides facts (any line). */
static void console_facts(struct kf_log *log, const char *s)
{
	const char *hw = strstr(s, "HWalign=");

	if (strstr(s, "software IO TLB: mapped"))
		log->swiotlb_mapped = 1;
	if (hw && hw[8] >= '0' && hw[8] <= '9')
		log->hwalign = strtol(hw + 8, NULL, 10);
	if (strstr(s, "microcode: updated") || strstr(s, "microcode: Updated"))
		log->microcode_updated = 1;
}

static int oops_line(const char *s)
{
	return starts(s, "Oops:") || starts(s, "Oops ") || starts(s, "BUG:") ||
		starts(s, "WARNING:") || starts(s, "kernel BUG at ") ||
		starts(s, "general protection fault");
}

/* systemd's unit status lines: "[  OK  ] ...", "[FAILED] ..." with the
 * blanks its colours leave once the escapes are gone. */
static const char *status_text(const char *s, const char *word)
{
	const char *p = s;
	size_t len = strlen(word);

	if (*p++ != '[')
		return NULL;
	while (*p == ' ')
		p++;
	if (strncmp(p, word, len) != 0)
		return NULL;
	p += len;
	while (*p == ' ')
		p++;
	if (*p++ != ']')
		return NULL;
	while (*p == ' ')
		p++;
	return p;
}

/* What a system boot's console says of systemd and the root device. */
static void system_line(struct kf_log *log, const char *s)
{
	static const char *const no_root[] = KF_NO_ROOT_TEXTS;
	const char *p, *sd = strstr(s, "systemd[1]: ");

	/* (SeaBIOS's last line may run into it) */
	if ((p = strstr(s, "Linux version ")) && !log->kernel_release) {
		p += strlen("Linux version ");
		log->kernel_release = kf_xstrndup(p, strcspn(p, " "));
	}
	if (strstr(s, KF_SYS_REACHED_TEXT))
		log->multi_user = 1;
	for (size_t i = 0; i < sizeof(no_root) / sizeof(no_root[0]); i++)
		if (strstr(s, no_root[i]) && !log->no_root)
			log->no_root = kf_xstrdup(s);
	if (strstr(s, KF_NO_INIT_TEXT))
		log->no_init = 1;
	if (strstr(s, KF_ROOT_MOUNTED_TEXT))
		log->root_mounted = 1;
	if (strstr(s, KF_INIT_FAILED_TEXT) && !log->init_failed)
		log->init_failed = kf_xstrdup(s);
	if (strstr(s, KF_SYS_EMERGENCY_TEXT))
		log->emergency = 1;
	if ((p = status_text(s, "FAILED")) && starts(p, "Failed to start ")) {
		p += strlen("Failed to start ");
		if (log->nr_units_failed < KF_MAX_SYS_LINES)
			log->units_failed[log->nr_units_failed++] =
				kf_xstrndup(p, strcspn(p, " "));
	}
	/* systemd's reasons: its emergency status lines, and its own log
	 * lines up to the freeze. */
	if (sd && strstr(sd, KF_SYS_FREEZE_TEXT)) {
		log->freeze = 1;
		return;
	}
	/* (a module systemd would load and the kernel has not: not a reason) */
	p = starts(s, KF_SYS_EMERG_PREFIX) ? s : sd && !log->freeze && !log->multi_user &&
		!strstr(sd, "Failed to find module") &&
		(strstr(sd, "Failed") || strstr(sd, "failed") || strstr(sd, "Cannot") ||
		 strstr(sd, "requires")) ? sd : NULL;
	if (p && log->nr_sys_lines < KF_MAX_SYS_LINES) {
		for (size_t i = 0; i < log->nr_sys_lines; i++)
			if (!strcmp(log->sys_lines[i], p))
				return;
		log->sys_lines[log->nr_sys_lines++] = kf_xstrdup(p);
	}
}

void kf_log_line(struct kf_log *log, const char *line)
{
	char *s = kf_con_clean(line, KF_CON_TAB_SPACE);

	log->lines++;
	ktap_line(log, s);
	console_facts(log, s);
	if (log->system)
		system_line(log, s);

	if (starts(s, KF_FACT_PREFIX)) {
		char *key = s + strlen(KF_FACT_PREFIX), *eq = strchr(key, '=');

		if (eq && eq != key) {
			*eq = '\0';
			set_fact(log, key, eq + 1);
		}
	} else if (starts(s, KF_END_MARKER)) {
		const char *got = s + strlen(KF_END_MARKER);
		const char *want = log->nonce ? log->nonce : log->cmdline_nonce;

		if (!want) {
			kf_log_warn(log, "runner: end marker accepted without a known nonce");
			log->end_seen = 1;
		} else if (!strcmp(got, want)) {
			log->end_seen = 1;
		} else {
			log->end_wrong_nonce++;
			kf_log_warn(log, "runner: end marker with a wrong nonce: %s", got);
		}
	} else if (starts(s, KF_UPTIME)) {
		log->guest_seconds = strtod(s + strlen(KF_UPTIME), NULL);
	} else if (starts(s, "Command line: ")) {
		cmdline_nonce(log, s);
	} else if (strstr(s, KF_REFUSED_TEXT)) {
		if (!log->refused++)
			kf_log_warn(log, "%s", s);
	} else if (strstr(s, KF_PANIC_TEXT) && !starts(s, "---[ end")) {
		if (!log->panic++)
			kf_log_warn(log, "%s", s);
	} else if (oops_line(s)) {
		log->oops++;
		kf_log_warn(log, "%s", s);
	}
	free(s);
}

void kf_log_note(struct kf_log *log, const char *note)
{
	if (starts(note, KF_NOTE_NONCE)) {
		if (!log->nonce)
			log->nonce = kf_xstrdup(note + strlen(KF_NOTE_NONCE));
	} else if (starts(note, KF_NOTE_EXIT)) {
		log->exit_known = 1;
		log->exit_status = atoi(note + strlen(KF_NOTE_EXIT));
	} else if (starts(note, KF_NOTE_KILLED)) {
		log->killed = 1;
	} else if (starts(note, KF_NOTE_HANG)) {
		log->hang = 1;
		kf_log_warn(log, "runner: %s", note);
	} else if (starts(note, KF_NOTE_TIMEOUT)) {
		log->timeout = 1;
		kf_log_warn(log, "runner: %s", note);
	} else if (starts(note, KF_NOTE_SYSTEM)) {
		log->system = 1;
	} else if (starts(note, KF_NOTE_NOSTART)) {
		log->nostart = 1;
		kf_log_warn(log, "runner: %s", note);
	}
}

int kf_log_outcome(const struct kf_log *log)
{
	if (log->refused)
		return KF_REFUSED;
	if (log->system && log->no_root)
		return KF_NO_ROOT;	/* initramfs-tools reboots, or waits at a shell */
	if (log->system && log->freeze)
		return KF_SYSTEMD_REFUSED;	/* systemd freezes for good */
	if (log->system && log->emergency && log->nr_units_failed)
		return KF_FAILED_UNIT;	/* the emergency shell waits for a login */
	if (log->panic)
		return KF_PANIC;
	if (log->end_seen)
		return KF_PASS;
	return -1;
}

/* A run that printed its end marker: the debug-exit must follow it. */
static enum kf_verdict end_verdict(const struct kf_log *log)
{
	if (log->failed)
		return KF_TEST_FAIL;
	if (log->exit_known && log->exit_status != KF_EXIT_PASS)
		return KF_QEMU_ERROR;
	if (log->killed && !log->exit_known)
		return KF_QEMU_ERROR;
	return log->oops ? KF_OOPS : KF_PASS;
}

/* A system boot's verdict (docs/system-boot.md, "Verdicts"). */
static enum kf_verdict system_verdict(const struct kf_log *log)
{
	const char *failed = kf_log_fact(log, KF_SYS_FAILED_COUNT);

	if (log->refused)
		return KF_REFUSED;
	if (log->no_root || (log->no_init && !log->root_mounted && !log->init_failed))
		return KF_NO_ROOT;
	if (log->freeze || (log->nr_sys_lines && !log->multi_user && !log->end_seen &&
			    starts(log->sys_lines[0], KF_SYS_EMERG_PREFIX)))
		return KF_SYSTEMD_REFUSED;
	if (log->panic)
		return KF_PANIC;
	if (log->nostart)
		return KF_QEMU_ERROR;
	if (log->end_seen)
		return failed && atoi(failed) > 0 ? KF_FAILED_UNIT : end_verdict(log);
	/* multi-user.target never reached: a unit it needed failed (the
	 * emergency shell waits for a login), or it took too long. */
	if (log->nr_units_failed && (log->emergency || log->hang || log->timeout))
		return KF_FAILED_UNIT;
	if (log->timeout)
		return KF_TIMEOUT;
	if (log->hang)
		return KF_HANG;
	if (log->failed)
		return KF_TEST_FAIL;
	return KF_QEMU_ERROR;
}

enum kf_verdict kf_log_verdict(const struct kf_log *log)
{
	if (log->system)
		return system_verdict(log);
	if (log->refused)
		return KF_REFUSED;
	if (log->panic)
		return KF_PANIC;
	if (log->nostart)
		return KF_QEMU_ERROR;
	if (log->end_seen)
		return end_verdict(log);
	if (log->hang || log->timeout)
		return KF_HANG;
	if (log->failed)
		return KF_TEST_FAIL;
	return KF_QEMU_ERROR;
}

/* One line of a runner's log (lib/conline.c splits them): a note or console text. */
static void log_line(size_t lineno, int note, const char *line, void *arg)
{
	(void)lineno;
	if (note)
		kf_log_note(arg, line);
	else
		kf_log_line(arg, line);
}

void kf_log_parse_text(struct kf_log *log, const char *text)
{
	kf_con_lines(text, log_line, log);
}

int kf_log_parse_file(struct kf_log *log, const char *path)
{
	char *text = kf_read_file(path, NULL);

	if (!text)
		return -1;
	kf_log_parse_text(log, text);
	free(text);
	return 0;
}
