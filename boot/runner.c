// SPDX-License-Identifier: GPL-2.0
/*
 * runner.c - boot one flavour's kernel on one CPU model in QEMU (TCG), watch
 * the console, decide the verdict, write the boot log and record.
 *
 *   boot-runner --kernel BZIMAGE --initrd CPIO --flavour-record FLAVOUR-JSON
 *               [--cpu NAME] [--models boot/cpu-models] [--kver KVER]
 *               --out DIR [--append ARGS] [--expect VERDICT]
 *               [--timeout S] [--hang-timeout S] [--qemu PROGRAM]
 *               [--bios FIRMWARE] [--memory SIZE] [--smp SMP] [--tcg single|multi]
 *               [--plugin SPEC]...
 *       writes DIR/<cpu>.log and DIR/<cpu>.json; prints
 *       "  BOOT    <flavour> on <cpu>: <verdict> (<seconds> s)";
 *       exits 0 when the verdict is the expected one, 1 when not, 2 on
 *       a usage or setup error (no record written). FLAVOUR-JSON is the
 *       config stage's out/<kver>/<f>/flavour.json (lib/records.h): the
 *       runner reads no recipe. --memory and --smp
 *       replace the flavour's (c2c runs every flavour on one machine);
 *       --tcg multi runs each vCPU on a host thread of its own (default
 *       single: round robin); each --plugin SPEC is a QEMU "-plugin"
 *       argument (docs/c2c.md).
 *
 *   boot-runner --parse LOGFILE [--nonce NONCE]
 *       parses a boot log (or raw console text) and prints what it found as
 *       JSON: verdict, exit_status, guest_seconds, ktap, warnings, console,
 *       facts.
 *
 *   boot-runner --replay RECORD
 *       rewrites a boot record (DIR/<cpu>.json; a system boot's in
 *       <flavour>/sysboot/) from its log (DIR/<cpu>.log)
 *       with this parser and this record format; what a log does not hold
 *       (the QEMU command and version, the kernel's SHA-256, the expected
 *       verdict, the wall seconds) is kept from RECORD. It makes the report
 *       fixtures from recorded boots (tests/data/report/README).
 *
 * QEMU runs in its own process group; SIGINT, SIGTERM and SIGHUP of the
 * runner end that group (SIGTERM, then SIGKILL) before the runner dies of
 * the same signal, and PR_SET_PDEATHSIG ends QEMU if the runner is killed.
 * See docs/boot.md.
 */
#include "../lib/console.h"
#include "logparse.h"
#include "qemu.h"
#include "sysboot.h"
#include "../lib/cpumodels.h"
#include "../lib/kf.h"
#include "../lib/proc.h"
#include "../lib/records.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * The firmware: qboot, not QEMU's default SeaBIOS. SeaBIOS's MP table lists
 * one logical CPU per core, so without ACPI a kernel sees one CPU of
 * "-smp 2,threads=2"; qboot lists every CPU, so the flavours need no ACPI
 * (a quarter of a tiny build) to show HyperThreading siblings, and it
 * starts faster (docs/boot.md).
 */
#define QBOOT		"/usr/share/qemu/qboot.rom"
#define MAX_LINE	4096	/* a longer console line is split */
#define GRACE_END	5.0	/* after the end marker: time to exit via debug-exit */
#define GRACE_PANIC	3.0	/* after a panic line: time for the trace and reboot */
#define TERM_WAIT	2.0	/* SIGTERM, then this long, then SIGKILL */


/* ---- small helpers ---- */

static char *make_nonce(void)
{
	unsigned char b[8];
	char *s = kf_xmalloc(2 * sizeof(b) + 1);

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
		unsigned long long t = (unsigned long long)(kf_now() * 1e9) ^ (unsigned long long)getpid();

		memcpy(b, &t, sizeof(b));
	}
	for (size_t i = 0; i < sizeof(b); i++)
		sprintf(s + 2 * i, "%02x", b[i]);
	return s;
}

/* "7.2.22" from "QEMU emulator version 7.2.22 (Debian ...)", or NULL. */
static char *qemu_version(const char *qemu)
{
	char *argv[] = { (char *)qemu, "--version", NULL };
	const struct kf_proc_opts how = { .pipe_out = 1, .null_in = 1, .null_err = 1 };
	struct kf_proc p;
	char buf[512];
	ssize_t n, len = 0;
	char *v = NULL, *s;
	int status;

	if (kf_proc_start(&p, argv, &how) < 0)
		return NULL;
	while (len < (ssize_t)sizeof(buf) - 1 &&
	       (n = read(p.out, buf + len, sizeof(buf) - 1 - (size_t)len)) > 0)
		len += n;
	close(p.out);
	buf[len] = '\0';
	kf_proc_wait(&p, -1, &status, NULL);
	s = strstr(buf, "version ");
	if (s) {
		s += strlen("version ");
		v = strndup(s, strcspn(s, " \n"));
	}
	return v;
}

/* ---- JSON ---- */

static json_t *ktap_json(const struct kf_log *log)
{
	json_t *res = json_array();

	for (size_t i = 0; i < log->nr_results; i++) {
		const struct kf_ktap_result *r = &log->results[i];
		json_t *t = json_pack("{s:s, s:s, s:b}", "suite", r->suite,
				      "name", r->name, "ok", r->ok);

		/* "SKIP why" / "TODO why": results.ktap writes it back */
		if (r->directive)
			json_object_set_new(t, "directive", json_string(r->directive));
		json_array_append_new(res, t);
	}
	return json_pack("{s:i, s:i, s:i, s:o}", "passed", log->passed,
			 "failed", log->failed, "skipped", log->skipped, "results", res);
}

static json_t *facts_json(const struct kf_log *log)
{
	json_t *f = json_object();

	for (size_t i = 0; i < log->nr_facts; i++)
		json_object_set_new(f, log->facts[i].key, json_string(log->facts[i].value));
	return f;
}

/* A JSON array of n strings: a log's warnings, a record's command. */
static json_t *strs_json(char *const *s, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(s[i]));
	return a;
}

/* What the report shows of the console besides facts (docs/boot.md). */
static json_t *console_json(const struct kf_log *log)
{
	return json_pack("{s:b, s:o, s:b, s:b}",
			 "swiotlb_mapped", log->swiotlb_mapped,
			 "hwalign", log->hwalign >= 0 ? json_integer(log->hwalign) : json_null(),
			 "microcode_updated", log->microcode_updated,
			 "end_marker", log->end_seen || log->end_wrong_nonce);
}

/*
 * Seconds are rounded once, here, to 0.1 s: the record, the make line and
 * the report all show this same value (docs/boot.md).
 */
static double round_tenth(double s)
{
	return round(s * 10) / 10;
}

static json_t *seconds(double s)
{
	return s < 0 ? json_null() : json_real(round_tenth(s));
}

/* What the boot record holds beside the parsed console. */
struct boot_facts {
	const char *kind;	/* "boot", or "sysboot" for a system boot */
	const char *flavour, *kver, *cpu, *cpu_string, *qemu_version;
	const char *cmdline, *bzimage_sha256, *expected;
	json_t *command;	/* the record takes this reference */
	json_t *exit_status;	/* the record takes this reference */
	double wall;		/* < 0: unknown */
};

/*
 * The boot record (boot/boot.schema.json, docs/architecture.md). warnings:
 * NULL for the parser's, or the ones to keep (the record takes the
 * reference), as --replay keeps QEMU's stderr of a qemu-error.
 */
static json_t *boot_record(const struct boot_facts *in, const struct kf_log *log,
			   enum kf_verdict v, json_t *warnings)
{
	json_t *rec = kf_record_new(in->kind ? in->kind : "boot", in->flavour, in->kver,
				    kf_log_fact(log, "uname.release"));

	json_object_set_new(rec, "cpu", json_string(in->cpu));
	json_object_set_new(rec, "cpu_string", json_string(in->cpu_string));
	json_object_set_new(rec, "qemu_version", in->qemu_version ?
			    json_string(in->qemu_version) : json_null());
	json_object_set_new(rec, "command", in->command);
	json_object_set_new(rec, "cmdline", json_string(in->cmdline));
	json_object_set_new(rec, "bzimage_sha256", json_string(in->bzimage_sha256));
	json_object_set_new(rec, "verdict", json_string(kf_verdict_name(v)));
	json_object_set_new(rec, "expected", json_string(in->expected));
	json_object_set_new(rec, "exit_status", in->exit_status);
	json_object_set_new(rec, "wall_seconds", seconds(in->wall));
	json_object_set_new(rec, "guest_seconds", seconds(log->guest_seconds));
	json_object_set_new(rec, "ktap", ktap_json(log));
	json_object_set_new(rec, "warnings", warnings ? warnings :
			    strs_json(log->warnings, log->nr_warnings));
	json_object_set_new(rec, "console", console_json(log));
	json_object_set_new(rec, "facts", facts_json(log));
	return rec;
}

/* ---- --parse ---- */

static int parse_mode(const char *path, const char *nonce)
{
	struct kf_log log;
	enum kf_verdict v;
	json_t *j;
	char *text;

	kf_log_init(&log);
	if (nonce)
		log.nonce = kf_xstrdup(nonce);
	if (kf_log_parse_file(&log, path))
		kf_die(2, "%s: %s", path, strerror(errno));
	v = kf_log_verdict(&log);
	j = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o}",
		      "verdict", kf_verdict_name(v),
		      "exit_status", log.exit_known ? json_integer(log.exit_status) : json_null(),
		      "guest_seconds", seconds(log.guest_seconds),
		      "ktap", ktap_json(&log),
		      "warnings", strs_json(log.warnings, log.nr_warnings),
		      "console", console_json(&log),
		      "facts", facts_json(&log));
	/* A system boot's log (its runner note): the cause from the console
	 * alone (the runner's also reads the config and the initrd's list). */
	if (log.system) {
		const struct kf_sys_inputs none = { 0 };
		char *cause = kf_sys_cause(&log, v, &none);

		json_object_set_new(j, "cause", cause ? json_string(cause) : json_null());
		free(cause);
	}
	text = kf_record_text(j);
	if (!text)
		kf_die(2, "cannot format JSON");
	fputs(text, stdout);
	free(text);
	json_decref(j);
	kf_log_free(&log);
	return 0;
}

static void system_members(json_t *rec, const char *image, const char *image_record,
			   const char *initrd_sha, const struct kf_log *log, const char *cause);

/* ---- --replay ---- */

static const char *need_str(const char *v, const char *path, const char *key)
{
	if (!v)
		kf_die(2, "%s: no \"%s\" string; give a boot record the runner wrote", path, key);
	return v;
}

static int replay_mode(const char *path)
{
	size_t len = strlen(path);
	/* A system boot's record lives in <flavour>/sysboot/ (docs/system-boot.md). */
	int system = len > 5 && strstr(path, "sysboot/") &&
		!strchr(strstr(path, "sysboot/") + strlen("sysboot/"), '/');
	struct kf_sysboot_rec sold;
	struct kf_boot_rec old;
	json_t *rec, *warnings = NULL;
	struct kf_log log;
	enum kf_verdict v;
	char *log_path;

	if (len < 5 || strcmp(path + len - 5, ".json") != 0)
		kf_die(2, "%s: want DIR/<cpu>.json, with its log beside it as DIR/<cpu>.log", path);
	if (system) {
		kf_sysboot_rec_read(&sold, path, KF_MUST, "give a system boot record the runner wrote");
		old = sold.b;
	} else {
		kf_boot_rec_read(&old, path, KF_MUST, "give a boot record the runner wrote");
	}
	log_path = kf_xasprintf("%.*s.log", (int)(len - 5), path);
	kf_log_init(&log);
	log.system = system;
	if (kf_log_parse_file(&log, log_path))
		kf_die(2, "%s: %s; the record's log must be beside it", log_path, strerror(errno));
	v = kf_log_verdict(&log);
	/* QEMU's stderr lines: only the live runner had them. */
	if (v == KF_QEMU_ERROR)
		warnings = strs_json(old.warnings, old.nwarnings);
	if (!old.ncommand)
		kf_die(2, "%s: no \"command\" array; give a boot record the runner wrote", path);

	struct boot_facts in = {
		.kind = system ? "sysboot" : "boot",
		.flavour = need_str(old.h.flavour, path, "flavour"),
		.kver = old.h.kver,
		.cpu = need_str(old.cpu, path, "cpu"),
		.cpu_string = need_str(old.cpu_string, path, "cpu_string"),
		.qemu_version = old.qemu_version,
		.cmdline = need_str(old.cmdline, path, "cmdline"),
		.bzimage_sha256 = need_str(old.bzimage_sha256, path, "bzimage_sha256"),
		.expected = need_str(old.expected, path, "expected"),
		.command = strs_json(old.command, old.ncommand),
		.exit_status = log.exit_known ? json_integer(log.exit_status) : json_null(),
		.wall = isnan(old.wall_seconds) ? -1 : old.wall_seconds,
	};
	rec = boot_record(&in, &log, v, warnings);
	if (system) {
		/* The cause the runner named from the config and the initrd's
		 * list stays while the verdict does; else the console's alone. */
		const struct kf_sys_inputs none = { 0 };
		char *cause = old.verdict && !strcmp(old.verdict, kf_verdict_name(v)) && sold.cause ?
			kf_xstrdup(sold.cause) : kf_sys_cause(&log, v, &none);

		system_members(rec, need_str(sold.image, path, "image"), sold.image_record,
			       sold.initrd_sha256, &log, cause);
		free(cause);
	}
	if (kf_record_write(rec, path))
		kf_die(2, "%s: %s", path, strerror(errno));
	json_decref(rec);
	if (system)
		kf_sysboot_rec_free(&sold);
	else
		kf_boot_rec_free(&old);
	kf_log_free(&log);
	free(log_path);
	return 0;
}

/* ---- a boot ---- */

struct boot {
	FILE *logf;
	double start, wall;		/* wall: seconds from start to QEMU's end */
	struct kf_log log;
	char cbuf[MAX_LINE + 1];	/* console line being assembled */
	size_t clen;
	double cstart;			/* when its first byte came */
	char ebuf[MAX_LINE + 1];	/* QEMU's stderr line */
	size_t elen;
	char *stderr_lines[8];
	size_t nr_stderr;
};

static void log_prefix(struct boot *b, double t, char kind)
{
	fprintf(b->logf, "[+%8.3f]%c", t - b->start, kind);
}

static void note(struct boot *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct boot *b, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		kf_die(2, "out of memory");
	va_end(ap);
	log_prefix(b, kf_now(), '!');
	fprintf(b->logf, " %s\n", s);
	fflush(b->logf);
	kf_log_note(&b->log, s);
	free(s);
}

static void console_line(struct boot *b)
{
	if (b->clen && b->cbuf[b->clen - 1] == '\r')
		b->clen--;
	b->cbuf[b->clen] = '\0';
	log_prefix(b, b->cstart, ' ');
	fprintf(b->logf, "%s\n", b->cbuf);
	fflush(b->logf);
	kf_log_line(&b->log, b->cbuf);
	b->clen = 0;
}

/* A console line without its newline yet, when the console ends. */
static void flush_console(struct boot *b)
{
	if (b->clen)
		console_line(b);
}

static void console_bytes(struct boot *b, const char *data, size_t n, double t)
{
	for (size_t i = 0; i < n; i++) {
		if (!b->clen)
			b->cstart = t;
		if (data[i] != '\n')
			b->cbuf[b->clen++] = data[i];
		if (data[i] == '\n' || b->clen == MAX_LINE)
			console_line(b);
	}
}

static void stderr_bytes(struct boot *b, const char *data, size_t n, int flush)
{
	for (size_t i = 0; i <= n; i++) {
		int end = i == n ? flush && b->elen : data[i] == '\n';

		if (end || b->elen == MAX_LINE) {
			b->ebuf[b->elen] = '\0';
			note(b, "qemu: %s", b->ebuf);
			if (b->nr_stderr < sizeof(b->stderr_lines) / sizeof(b->stderr_lines[0]))
				b->stderr_lines[b->nr_stderr++] = kf_xstrdup(b->ebuf);
			b->elen = 0;
		} else if (i < n) {
			b->ebuf[b->elen++] = data[i];
		}
	}
}

struct opts {
	const char *kernel, *initrd, *flavour_record, *cpu, *models, *kver, *out;
	const char *append, *expect, *qemu, *bios, *parse, *nonce, *replay;
	const char *memory, *smp, *tcg;
	/* a system boot (docs/system-boot.md): the root disk's image, and what
	 * names a verdict's cause */
	const char *disk, *config, *config_record, *initrd_list, *image_record;
	char *plugins[4];
	size_t nplugins;
	double timeout, hang_timeout;
	int quiet;
};

static void usage(void)
{
	fprintf(stderr,
		"usage: boot-runner --kernel BZIMAGE --initrd CPIO --flavour-record FLAVOUR-JSON --out DIR\n"
		"                   [--cpu NAME] [--models boot/cpu-models] [--kver KVER]\n"
		"                   [--append ARGS] [--expect VERDICT] [--timeout S]\n"
		"                   [--hang-timeout S] [--qemu PROGRAM] [--bios FIRMWARE] [--quiet]\n"
		"                   [--memory SIZE] [--smp SMP] [--tcg single|multi]\n"
		"                   [--plugin SPEC]...\n"
		"       boot-runner --disk IMAGE --kernel VMLINUZ [--initrd INITRD]\n"
		"                   --flavour-record FLAVOUR-JSON --out DIR [--config .config]\n"
		"                   [--config-record config.json]\n"
		"                   [--initrd-list FILE] [--image-record image.json] [options above]\n"
		"       boot-runner --parse LOGFILE [--nonce NONCE]\n"
		"       boot-runner --replay RECORD\n");
	exit(2);
}

static double seconds_arg(const char *name, const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || v <= 0)
		kf_die(2, "--%s %s: want a number of seconds > 0", name, s);
	return v;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "initrd", required_argument, NULL, 'i' },
		{ "flavour-record", required_argument, NULL, 'F' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "models", required_argument, NULL, 'm' },
		{ "kver", required_argument, NULL, 'v' },
		{ "out", required_argument, NULL, 'o' },
		{ "append", required_argument, NULL, 'a' },
		{ "expect", required_argument, NULL, 'e' },
		{ "timeout", required_argument, NULL, 't' },
		{ "hang-timeout", required_argument, NULL, 'h' },
		{ "qemu", required_argument, NULL, 'q' },
		{ "bios", required_argument, NULL, 'b' },
		{ "parse", required_argument, NULL, 'p' },
		{ "nonce", required_argument, NULL, 'n' },
		{ "replay", required_argument, NULL, 'R' },
		{ "quiet", no_argument, NULL, 'Q' },
		{ "memory", required_argument, NULL, 'M' },
		{ "smp", required_argument, NULL, 'S' },
		{ "plugin", required_argument, NULL, 'P' },
		{ "tcg", required_argument, NULL, 'T' },
		{ "disk", required_argument, NULL, 'D' },
		{ "config", required_argument, NULL, 'C' },
		{ "config-record", required_argument, NULL, 'G' },
		{ "initrd-list", required_argument, NULL, 'L' },
		{ "image-record", required_argument, NULL, 'I' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->models = "boot/cpu-models";
	o->qemu = "qemu-system-x86_64";
	o->bios = QBOOT;
	o->timeout = 180;
	o->hang_timeout = 30;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'k': o->kernel = optarg; break;
		case 'i': o->initrd = optarg; break;
		case 'F': o->flavour_record = optarg; break;
		case 'c': o->cpu = optarg; break;
		case 'm': o->models = optarg; break;
		case 'v': o->kver = optarg; break;
		case 'o': o->out = optarg; break;
		case 'a': o->append = optarg; break;
		case 'e': o->expect = optarg; break;
		case 't': o->timeout = seconds_arg("timeout", optarg); break;
		case 'h': o->hang_timeout = seconds_arg("hang-timeout", optarg); break;
		case 'q': o->qemu = optarg; break;
		case 'b': o->bios = optarg; break;
		case 'p': o->parse = optarg; break;
		case 'n': o->nonce = optarg; break;
		case 'R': o->replay = optarg; break;
		case 'Q': o->quiet = 1; break;
		case 'M': o->memory = optarg; break;
		case 'S': o->smp = optarg; break;
		case 'T':
			if (strcmp(optarg, "single") != 0 && strcmp(optarg, "multi") != 0)
				kf_die(2, "--tcg %s: want single (round robin) or multi (a host "
				       "thread per vCPU)", optarg);
			o->tcg = optarg;
			break;
		case 'D': o->disk = optarg; break;
		case 'C': o->config = optarg; break;
		case 'G': o->config_record = optarg; break;
		case 'L': o->initrd_list = optarg; break;
		case 'I': o->image_record = optarg; break;
		case 'P':
			if (o->nplugins == sizeof(o->plugins) / sizeof(o->plugins[0]))
				kf_die(2, "--plugin %s: at most %zu plugins", optarg, o->nplugins);
			o->plugins[o->nplugins++] = optarg;
			break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	if (o->parse || o->replay)
		return;
	if (!o->kernel || (!o->initrd && !o->disk) || !o->flavour_record || !o->out)
		usage();
	if (o->expect && kf_verdict_from_name(o->expect) < 0)
		kf_die(2, "--expect %s: not a verdict (pass test-fail panic oops refused hang qemu-error)",
		       o->expect);
}

/* A file QEMU needs: readable, or a clear error before anything starts. */
static const char *need_file(const char *what, const char *path)
{
	if (access(path, R_OK))
		kf_die(2, "%s %s: %s; run 'make build' first", what, path, strerror(errno));
	return path;
}

static void need_bios(const char *path)
{
	if (*path && access(path, R_OK))
		kf_die(2, "--bios %s: %s; %s", path, strerror(errno),
		       strcmp(path, QBOOT) ? "give a readable firmware file, or '' for QEMU's own"
					   : "apt-get install qemu-system-data");
}

/*
 * Start QEMU in a process group of its own, stdout and stderr on pipes;
 * 0, or -1 with a note when it could not be started.
 *
 * Without transparent huge pages (the flag is inherited through fork and
 * exec): QEMU asks for them for guest RAM, and on a host that hands freed
 * memory back to its hypervisor (free page reporting) each 2 MiB page the
 * guest touches first costs a fresh, cleared huge page. That made a boot
 * started a few seconds after the last one take twice as long (mpsc on
 * opteron: 2.0-2.2 s against 1.0-1.1 s without; docs/boot.md).
 */
static int start_qemu(struct boot *b, char **argv, struct kf_proc *p)
{
	const struct kf_proc_opts how = {
		.pipe_out = 1, .pipe_err = 1, .null_in = 1, .group = 1,
	};

	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	if (kf_proc_start(p, argv, &how) == 0)
		return 0;
	note(b, KF_NOTE_NOSTART "%s: %s", argv[0], strerror(errno));
	return -1;
}

/*
 * Read the console until the outcome is known; returns 1 if QEMU exited by
 * itself (*status valid), 0 if the runner ended it.
 */
static int watch(struct boot *b, struct kf_proc *qemu, const struct opts *o,
		 int *status)
{
	double last = b->start, grace_end = 0;
	struct pollfd fds[2] = { { qemu->out, POLLIN, 0 }, { qemu->err, POLLIN, 0 } };
	int open_fds = 2;
	char buf[8192];

	while (open_fds) {
		double t = kf_now(), wake;
		int outcome, ms;

		if (kf_proc_signal) {
			flush_console(b);
			note(b, KF_NOTE_KILLED "the runner got signal %d", (int)kf_proc_signal);
			kf_proc_stop(qemu, TERM_WAIT, status);
			return 0;
		}
		if (t - last >= o->hang_timeout) {
			flush_console(b);
			note(b, KF_NOTE_HANG "no console output for %.0f s", o->hang_timeout);
			note(b, KF_NOTE_KILLED "hang");
			kf_proc_stop(qemu, TERM_WAIT, status);
			return 0;
		}
		if (t - b->start >= o->timeout) {
			flush_console(b);
			note(b, KF_NOTE_TIMEOUT "the boot took longer than %.0f s", o->timeout);
			note(b, KF_NOTE_KILLED "timeout");
			kf_proc_stop(qemu, TERM_WAIT, status);
			return 0;
		}
		if (grace_end && t >= grace_end) {
			flush_console(b);
			note(b, KF_NOTE_KILLED "outcome known (%s) but QEMU did not exit",
			     kf_verdict_name(kf_log_outcome(&b->log)));
			kf_proc_stop(qemu, TERM_WAIT, status);
			return 0;
		}
		wake = last + o->hang_timeout;
		if (b->start + o->timeout < wake)
			wake = b->start + o->timeout;
		if (grace_end && grace_end < wake)
			wake = grace_end;
		ms = (int)((wake - t) * 1000) + 1;
		if (poll(fds, 2, ms) < 0) {
			if (errno == EINTR)
				continue;
			kf_die(2, "poll: %s", strerror(errno));
		}
		for (int i = 0; i < 2; i++) {
			ssize_t n;

			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(fds[i].fd, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				if (i == 0)
					flush_console(b);	/* last line had no newline */
				if (i == 1)
					stderr_bytes(b, buf, 0, 1);
				close(fds[i].fd);
				fds[i].fd = -1;
				open_fds--;
				continue;
			}
			if (i == 0) {
				last = kf_now();
				console_bytes(b, buf, (size_t)n, last);
			} else {
				stderr_bytes(b, buf, (size_t)n, 0);
			}
		}
		outcome = kf_log_outcome(&b->log);
		if (outcome == KF_REFUSED) {
			/* The setup code halts forever after saying so: stop now. */
			flush_console(b);
			note(b, KF_NOTE_KILLED "the kernel refused the CPU");
			kf_proc_stop(qemu, TERM_WAIT, status);
			return 0;
		}
		if (outcome >= 0 && !grace_end)
			grace_end = kf_now() + (outcome == KF_PANIC ? GRACE_PANIC : GRACE_END);
	}
	/* Both pipes closed: QEMU has exited (or is about to). */
	if (kf_proc_wait(qemu, TERM_WAIT, status, NULL)) {
		kill(-qemu->pid, SIGKILL);	/* anything QEMU left in its group */
		return 1;
	}
	flush_console(b);
	note(b, KF_NOTE_KILLED "closed its console but did not exit");
	kf_proc_stop(qemu, TERM_WAIT, status);
	return 0;
}

/* What a boot is about: the flavour resolved (flavour.json), the CPU model,
 * the verdict expected, the kernel's SHA-256, and what QEMU is given. */
struct setup {
	struct kf_flavour_rec fl;	/* every string set: see setup() */
	struct kf_cpu_models models;
	const struct kf_cpu_model *model;
	enum kf_verdict expect;
	char kernel_sha[65], initrd_sha[65];
	char *nonce, *cmdline, **argv, *qemu_version;
	char *drive, *append;		/* a system boot's */
};

/* Exits 2 with the reason on a problem, before anything is written. */
static void setup(struct setup *s, struct opts *o)
{
	char err[1024];

	/* The config stage's resolved flavour (lib/records.h), not the recipe. */
	if (kf_flavour_rec_read(&s->fl, o->flavour_record, KF_MUST, "run make config"))
		exit(2);	/* said, naming the file and the fix */
	if (!s->fl.h.flavour)
		s->fl.h.flavour = kf_xstrdup("?");
	if (!s->fl.model)
		s->fl.model = kf_xstrdup("");
	if (!s->fl.smp)
		s->fl.smp = kf_xstrdup("1");
	if (!s->fl.memory)
		s->fl.memory = kf_xstrdup("512M");
	if (!s->fl.cmdline)
		s->fl.cmdline = kf_xstrdup("");
	if (kf_cpu_models_read(&s->models, o->models, err, sizeof(err)))
		kf_die(2, "%s", err);
	if (!o->cpu)
		o->cpu = s->fl.model;
	s->model = kf_cpu_model_find(&s->models, o->cpu);
	if (!s->model) {
		char *names = kf_cpu_model_names(&s->models, NULL);

		kf_die(2, "unknown cpu '%s'; valid: %s (%s)", o->cpu, names, o->models);
	}
	s->expect = kf_verdict_from_name(o->expect ? o->expect : s->model->expect);
	need_file("kernel", o->kernel);
	if (o->initrd && *o->initrd)
		need_file(o->disk ? "initrd" : "initramfs", o->initrd);
	if (o->disk && access(o->disk, R_OK))
		kf_die(2, "disk image %s: %s; make it with 'make system flavour=%s'", o->disk,
		       strerror(errno), s->fl.h.flavour);
	need_bios(o->bios);
	s->initrd_sha[0] = '\0';
	if (o->disk && o->initrd && *o->initrd && kf_sha256_file(o->initrd, s->initrd_sha) < 0)
		kf_die(2, "cannot read the initrd %s", o->initrd);
	/* Names the image this record is about: the report leaves out a
	 * record whose image is no longer the flavour's bzImage. */
	if (kf_sha256_file(o->kernel, s->kernel_sha) < 0)
		kf_die(2, "cannot read the kernel %s", o->kernel);
	s->nonce = make_nonce();
	const char *smp = o->smp ? o->smp : s->fl.smp;

	/* A system boot: the root file system on the virtio disk, never written. */
	s->append = o->disk ? kf_sys_append(o->append) : NULL;
	s->drive = o->disk ? kf_sys_drive(o->disk) : NULL;
	s->cmdline = kf_boot_cmdline(smp, s->nonce, s->fl.cmdline,
				     o->disk ? s->append : o->append);
	s->argv = kf_qemu_argv(&(const struct kf_qemu){
		.qemu = o->qemu, .cpu_string = s->model->cpu_string, .smp = smp,
		.memory = o->memory ? o->memory : s->fl.memory,
		.kernel = o->kernel, .initrd = o->initrd, .cmdline = s->cmdline, .bios = o->bios,
		.drive = s->drive,
		.plugins = o->plugins, .nplugins = o->nplugins, .tcg = o->tcg,
	});
	s->qemu_version = qemu_version(o->qemu);
}

static void setup_free(struct setup *s)
{
	kf_argv_free(s->argv);
	free(s->qemu_version);
	free(s->cmdline);
	free(s->nonce);
	free(s->drive);
	free(s->append);
	kf_cpu_models_free(&s->models);
	kf_flavour_rec_free(&s->fl);
}

/*
 * One boot, every step in b's log: QEMU started and watched. Returns
 * QEMU's exit status, -1 when it did not exit by itself. A signal to the
 * runner ends QEMU, writes no record, and the runner dies of it.
 */
static int run(struct boot *b, const struct opts *o, const struct setup *s)
{
	char *command = kf_join_words(s->argv);
	int status = 0, exited, code;
	struct kf_proc qemu;

	kf_proc_forward_signals();
	b->start = kf_now();
	note(b, "boot-runner: %s on %s (%s), expect %s", s->fl.h.flavour, s->model->name,
	     o->kver ? o->kver : "?", kf_verdict_name(s->expect));
	note(b, "command: %s", command);
	free(command);
	note(b, KF_NOTE_NONCE "%s", s->nonce);
	if (o->disk)
		note(b, KF_NOTE_SYSTEM "%s as " KF_SYS_ROOT " (snapshot=on), initrd %s", o->disk,
		     o->initrd && *o->initrd ? o->initrd : "none");

	exited = start_qemu(b, s->argv, &qemu) == 0 && watch(b, &qemu, o, &status);
	code = exited && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	b->wall = round_tenth(kf_now() - b->start);
	if (code >= 0)
		note(b, KF_NOTE_EXIT "%d", code);
	else if (exited && WIFSIGNALED(status))
		note(b, KF_NOTE_KILLED "by signal %d, not by the runner", WTERMSIG(status));
	if (kf_proc_signal) {
		fclose(b->logf);
		fprintf(stderr, "boot-runner: %s on %s interrupted; QEMU ended\n",
			s->fl.h.flavour, s->model->name);
		kf_proc_die_of(kf_proc_signal);
	}
	return code;
}

/* A JSON array of a NULL-terminated string vector (freed). */
static json_t *strv_json(char **v)
{
	json_t *a = json_array();

	for (char **p = v; *p; p++)
		json_array_append_new(a, json_string(*p));
	kf_sys_strv_free(v);
	return a;
}

static json_t *fact_str(const struct kf_log *log, const char *key)
{
	const char *v = kf_log_fact(log, key);

	return v ? json_string(v) : json_null();
}

static json_t *fact_int(const struct kf_log *log, const char *key)
{
	const char *v = kf_log_fact(log, key);
	char *end;
	long long n = v ? strtoll(v, &end, 10) : 0;

	return v && end != v && !*end ? json_integer(n) : json_null();
}

static json_t *fact_seconds(const struct kf_log *log, const char *key)
{
	const char *v = kf_log_fact(log, key);
	char *end;
	double d = v ? strtod(v, &end) : -1;

	return v && end != v && !*end ? seconds(d) : json_null();
}

/*
 * What a system boot's record has beside a boot record's (boot/sysboot.schema.json):
 * the initrd, the image, the cause of the verdict, and systemd's facts.
 */
static json_t *str_or_null(const char *v)
{
	return v && *v ? json_string(v) : json_null();
}

static void system_members(json_t *rec, const char *image, const char *image_record,
			   const char *initrd_sha, const struct kf_log *log, const char *cause)
{
	json_t *sys = json_object(), *root = json_object(), *mem = json_object();
	json_t *lines = json_array();

	json_object_set_new(rec, "initrd_sha256", str_or_null(initrd_sha));
	json_object_set_new(rec, "image", json_string(image));
	json_object_set_new(rec, "image_record", str_or_null(image_record));
	json_object_set_new(rec, "cause", cause ? json_string(cause) : json_null());
	json_object_set_new(sys, "multi_user_reached", json_boolean(log->multi_user));
	json_object_set_new(sys, "multi_user_seconds", fact_seconds(log, KF_SYS_MULTI_USER));
	json_object_set_new(sys, "userspace_seconds", fact_seconds(log, KF_SYS_USERSPACE));
	json_object_set_new(sys, "systemd_version", fact_str(log, KF_SYS_VERSION));
	json_object_set_new(sys, "system_state", fact_str(log, KF_SYS_STATE));
	json_object_set_new(sys, "failed_units", strv_json(kf_sys_failed_units(log)));
	json_object_set_new(sys, "modules", strv_json(kf_sys_words(log, KF_SYS_MODULES)));
	json_object_set_new(root, "device", fact_str(log, KF_SYS_ROOT_DEV));
	json_object_set_new(root, "drivers", strv_json(kf_sys_words(log, KF_SYS_ROOT_DRIVERS)));
	json_object_set_new(root, "modules", strv_json(kf_sys_words(log, KF_SYS_ROOT_MODULES)));
	json_object_set_new(sys, "root", root);
	json_object_set_new(mem, "total_kb", fact_int(log, KF_SYS_MEM_TOTAL));
	json_object_set_new(mem, "used_kb", fact_int(log, KF_SYS_MEM_USED));
	json_object_set_new(sys, "memory", mem);
	for (size_t i = 0; i < log->nr_sys_lines; i++)
		json_array_append_new(lines, json_string(log->sys_lines[i]));
	json_object_set_new(sys, "systemd_lines", lines);
	json_object_set_new(sys, "no_root_line", log->no_root ? json_string(log->no_root)
				: json_null());
	json_object_set_new(rec, "system", sys);
}

/* The boot record of verdict v, after run() returned code. */
static void write_record(const char *path, const struct opts *o, const struct setup *s,
			 const struct boot *b, enum kf_verdict v, int code, const char *cause)
{
	json_t *cmd = json_array(), *rec;

	for (char **a = s->argv; *a; a++)
		json_array_append_new(cmd, json_string(*a));
	rec = boot_record(&(const struct boot_facts){
		.kind = o->disk ? "sysboot" : "boot",
		.flavour = s->fl.h.flavour, .kver = o->kver, .cpu = s->model->name,
		.cpu_string = s->model->cpu_string, .qemu_version = s->qemu_version,
		.cmdline = s->cmdline, .bzimage_sha256 = s->kernel_sha,
		.expected = kf_verdict_name(s->expect), .command = cmd,
		.exit_status = code >= 0 ? json_integer(code) : json_null(),
		.wall = b->wall,
	}, &b->log, v, NULL);
	if (o->disk)
		system_members(rec, o->disk, o->image_record, s->initrd_sha, &b->log, cause);
	if (kf_record_write(rec, path))
		kf_die(2, "%s: %s", path, strerror(errno));
	json_decref(rec);
}

/* "  SYSBOOT <flavour> on <cpu>: <verdict> (...)"; the cause when it is
 * not the expected verdict. */
static void sys_summary(const struct opts *o, const struct setup *s, const struct boot *b,
			enum kf_verdict v, const char *cause, const char *logpath)
{
	const char *mu = kf_log_fact(&b->log, KF_SYS_MULTI_USER);
	const char *mods = kf_log_fact(&b->log, KF_SYS_MODULES_COUNT);
	const char *used = kf_log_fact(&b->log, KF_SYS_MEM_USED);

	if (v == s->expect) {
		if (o->quiet)
			return;
		printf("  SYSBOOT %s on %s: %s (%.1f s", s->fl.h.flavour, s->model->name,
		       kf_verdict_name(v), b->wall);
		if (mu)
			printf("; multi-user.target after %.1f s", atof(mu));
		if (mods)
			printf(", %s modules", mods);
		if (used)
			printf(", %.0f MiB in use", atof(used) / 1024);
		printf(")\n");
		return;
	}
	printf("  SYSBOOT %s on %s: %s, expected %s (%.1f s); see %s\n", s->fl.h.flavour,
	       s->model->name, kf_verdict_name(v), kf_verdict_name(s->expect), b->wall, logpath);
	if (cause)
		printf("          %s\n", cause);
}

int main(int argc, char **argv)
{
	char *logpath, *jsonpath, *cause = NULL;
	struct opts o;
	struct setup s = { 0 };
	struct boot b = { 0 };
	enum kf_verdict v;
	int code;

	kf_prog = "boot-runner";
	parse_args(argc, argv, &o);
	if (o.parse)
		return parse_mode(o.parse, o.nonce);
	if (o.replay)
		return replay_mode(o.replay);
	setup(&s, &o);
	kf_mkdir_p(o.out);
	logpath = kf_xasprintf("%s/%s.log", o.out, s.model->name);
	jsonpath = kf_xasprintf("%s/%s.json", o.out, s.model->name);
	kf_log_init(&b.log);
	b.log.system = o.disk != NULL;
	b.logf = fopen(logpath, "w");
	if (!b.logf)
		kf_die(2, "%s: %s", logpath, strerror(errno));

	code = run(&b, &o, &s);
	v = kf_log_verdict(&b.log);
	if (v == KF_QEMU_ERROR)
		kf_qemu_error_warnings(&b.log, b.stderr_lines, b.nr_stderr, code);
	note(&b, "verdict %s, expected %s, %.1f s", kf_verdict_name(v),
	     kf_verdict_name(s.expect), b.wall);
	if (o.disk) {
		const struct kf_sys_inputs in = {
			.config = o.config, .config_record = o.config_record,
			.initrd = o.initrd && *o.initrd ? o.initrd : NULL,
			.initrd_list = o.initrd_list, .timeout = o.timeout,
		};

		cause = kf_sys_cause(&b.log, v, &in);
		if (cause)
			note(&b, "cause: %s", cause);
	}
	fclose(b.logf);
	write_record(jsonpath, &o, &s, &b, v, code, cause);
	if (o.disk)
		sys_summary(&o, &s, &b, v, cause, logpath);
	else
		kf_boot_summary(stdout, s.fl.h.flavour, s.model->name, v, s.expect, b.wall, logpath,
				&b.log, o.quiet);
	fflush(stdout);

	for (size_t i = 0; i < b.nr_stderr; i++)
		free(b.stderr_lines[i]);
	kf_log_free(&b.log);
	setup_free(&s);
	free(cause);
	free(logpath);
	free(jsonpath);
	return v == s.expect ? 0 : 1;
}
