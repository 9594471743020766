// SPDX-License-Identifier: GPL-2.0
/*
 * build-progress - run one flavour's Kbuild and keep its output readable.
 *
 *   build-progress --name NAME --log FILE [--expect-json FILE]
 *               [--expect-config FILE [--modules]] [--interval S]
 *               [--remote-state FILE]
 *               -- COMMAND [ARG...]
 *
 * COMMAND (the Kbuild make) runs with stdout and stderr into a pipe; every
 * byte goes to FILE (build.log), and at most every S seconds (default 5) one
 * line "  BUILD   NAME: CC 412/1010 objects, 95 s" goes to stdout. The total
 * is the "objects" of the flavour's previous build.json (--expect-json),
 * else an estimate shown as "~N" from the number of "=y" lines of the
 * flavour's .config (--expect-config), and of its "=m" lines when the build
 * makes modules too (--modules), so a distro config (1,585 =y: 2,275
 * objects) is not shown as "~1000" like a tiny one (547 =y: about 1,000).
 *
 * The child inherits every other descriptor, so a make started from a
 * recipe line that names $(MAKE) keeps the top make's jobserver.
 *
 * When COMMAND ends, the wall time and the CPU time of all its descendants
 * (getrusage RUSAGE_CHILDREN: user + system) are appended to FILE as
 * "kflavour: wall_seconds=W cpu_seconds=C exit=S", which build-facts reads.
 * On failure the error lines ("error:", make's "***") are printed with the
 * log's path; the exit status is COMMAND's. SIGINT, SIGTERM and SIGHUP are
 * passed on to COMMAND; build-progress then dies of the same signal, so make
 * sees an interrupted recipe.
 *
 * With --remote-state FILE, ccache_remote's URL is in $KF_CCACHE_REMOTE
 * (build.mk): the server is probed (ccr_probe, 2 s); when it answers and
 * takes the password, COMMAND gets CCACHE_REMOTE_STORAGE in ccache's form,
 * and FILE says "on URL"; else one warning line, COMMAND builds with the
 * local cache only and FILE says "off URL WHY". URL is always redacted, and
 * KF_CCACHE_REMOTE is not passed on.
 */
#include "../lib/dotconfig.h"
#include "../lib/kf.h"
#include "../lib/proc.h"
#include "../lib/records.h"
#include "ccremote.h"
#include "kbuild.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define ESTIMATE 1000	/* shown when there is nothing to estimate from */
#define MAX_ERRORS 20	/* compiler/linker error lines kept */
#define MAX_STARS 8	/* make "***" lines kept (the last ones) */
#define LINE_MAX_LEN 4096


struct state {
	const char *name;
	int log_fd;
	long done;
	long expected;
	int estimated;
	char stage[16];
	char line[LINE_MAX_LEN];
	size_t line_len;
	char *errors[MAX_ERRORS];
	int n_errors;
	long more_errors;
	char *stars[MAX_STARS];
	int n_stars;
};

/* write(2) all of buf; output lines go out whole, never interleaved. */
static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(fd, buf, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		buf += w;
		len -= (size_t)w;
	}
}

static void say(int fd, const char *msg)
{
	char buf[LINE_MAX_LEN + 2];
	int n = snprintf(buf, sizeof(buf), "%s\n", msg);

	if (n > 0)
		write_all(fd, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

static void keep_error(struct state *s, const char *line)
{
	if (strstr(line, "***")) {
		if (s->n_stars == MAX_STARS) {
			free(s->stars[0]);
			memmove(s->stars, s->stars + 1, sizeof(s->stars[0]) * (MAX_STARS - 1));
			s->n_stars--;
		}
		s->stars[s->n_stars++] = kf_xstrdup(line);
	} else if (s->n_errors < MAX_ERRORS) {
		s->errors[s->n_errors++] = kf_xstrdup(line);
	} else {
		s->more_errors++;
	}
}

static void do_line(struct state *s, const char *line)
{
	char verb[sizeof(s->stage)];

	if (kb_parse_line(line, verb, sizeof(verb), NULL))
		memcpy(s->stage, verb, sizeof(verb));
	if (kb_is_object_line(line))
		s->done++;
	if (kb_is_error_line(line))
		keep_error(s, line);
}

/* Split what was read into lines; a line too long is cut, not lost. */
static void feed(struct state *s, const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (buf[i] == '\n' || s->line_len == sizeof(s->line) - 1) {
			s->line[s->line_len] = '\0';
			do_line(s, s->line);
			s->line_len = 0;
			if (buf[i] == '\n')
				continue;
		}
		s->line[s->line_len++] = buf[i];
	}
}

static void progress(const struct state *s, double start)
{
	char msg[256];

	kb_progress_line(msg, sizeof(msg), s->name, s->stage, s->done,
			 s->expected > s->done ? s->expected : s->done,
			 s->estimated || s->done > s->expected,
			 (long)(kf_now() - start));
	say(STDOUT_FILENO, msg);
}

/* The previous build's object count, or 0. */
static long expected_objects(const char *json_path)
{
	struct kf_build_rec prev = { 0 };
	long long n = 0;

	if (json_path && !kf_build_rec_read(&prev, json_path, KF_QUIET, "the progress is estimated"))
		n = prev.objects;
	kf_build_rec_free(&prev);
	return n > 0 ? (long)n : 0;
}

/* The estimate from the .config's options (kb_estimate_objects), or 0
 * when there is none: a missing or bad .config is the build's to report. */
/* .cmd files removed by drop_torn (nftw has no user pointer). */
static int torn_dropped;

/* nftw: remove a .cmd a killed build left cut short (kb_cmd_torn), so
 * Kbuild compiles its object again instead of stopping on it. */
static int drop_torn(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *base = path + ftw->base;
	size_t bl = strlen(base), len = 0;
	char *text;

	(void)st;
	if (type != FTW_F || base[0] != '.' || bl < 5 || strcmp(base + bl - 4, ".cmd") != 0)
		return 0;
	text = kf_read_file(path, &len);
	if (text && kb_cmd_torn(text, len) && unlink(path) == 0)
		torn_dropped++;
	free(text);
	return 0;
}

static long config_estimate(const char *path, int modules)
{
	struct kf_config c;
	char err[1024];
	long n;

	if (!path || kf_config_read(&c, path, NULL, err, sizeof(err)) < 0)
		return 0;
	n = kb_estimate_objects(&c, modules);
	kf_config_free(&c);
	return n;
}

static void usage(void)
{
	fprintf(stderr, "usage: build-progress --name NAME --log FILE [--expect-json FILE] [--expect-config FILE [--modules]]"
		" [--interval SECONDS] [--remote-state FILE] -- COMMAND [ARG...]\n");
	exit(2);
}

static void report_failure(struct state *s, const char *log_path, int status)
{
	char msg[LINE_MAX_LEN + 64];
	int i;

	for (i = 0; i < s->n_errors; i++) {
		snprintf(msg, sizeof(msg), "  %s", s->errors[i]);
		say(STDERR_FILENO, msg);
	}
	if (s->more_errors) {
		snprintf(msg, sizeof(msg), "  ... %ld more error lines", s->more_errors);
		say(STDERR_FILENO, msg);
	}
	for (i = 0; i < s->n_stars; i++) {
		snprintf(msg, sizeof(msg), "  %s", s->stars[i]);
		say(STDERR_FILENO, msg);
	}
	snprintf(msg, sizeof(msg), "kflavour: building %s failed (exit %d); full log: %s",
		 s->name, status, log_path);
	say(STDERR_FILENO, msg);
}

static void free_state(struct state *s)
{
	int i;

	for (i = 0; i < s->n_errors; i++)
		free(s->errors[i]);
	for (i = 0; i < s->n_stars; i++)
		free(s->stars[i]);
}

/* The shared cache for COMMAND's ccache, and what FILE records of it. */
#define REMOTE_PROBE_MS 2000
static void remote_setup(const char *name, const char *state)
{
	const char *url = getenv(CCR_ENV);
	char err[1024], red[512], *text;
	struct ccr_url u;

	unsetenv("CCACHE_REMOTE_STORAGE");
	if (!url || !*url) {
		unlink(state);
		unsetenv(CCR_ENV);
		return;
	}
	if (ccr_parse(url, &u, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
	ccr_redacted(&u, red, sizeof(red));
	if (ccr_probe(&u, REMOTE_PROBE_MS, 0, err, sizeof(err)) == CCR_OK) {
		char value[1024];

		ccr_ccache_value(&u, value, sizeof(value));
		setenv("CCACHE_REMOTE_STORAGE", value, 1);
		text = kf_xasprintf("on %s\n", red);
	} else {
		fprintf(stderr, "kflavour: warning: %s: shared cache: %s; building with the local "
			"cache only (make cache-check)\n", name, err);
		text = kf_xasprintf("off %s %s\n", red, err);
	}
	unsetenv(CCR_ENV);
	if (kf_write_atomic(state, text, strlen(text)) < 0)
		kf_die(2, "cannot write %s: %s", state, strerror(errno));
	free(text);
}

int main(int argc, char **argv)
{
	const char *name = NULL, *log_path = NULL, *expect_json = NULL, *config = NULL;
	const char *remote_state = NULL;
	double interval = 5, start, last;
	struct state s;
	struct rusage ru;
	struct kf_proc child;
	const struct kf_proc_opts how = { .pipe_out = 1, .err_to_out = 1 };
	static const struct option opts[] = {
		{ "name", required_argument, NULL, 'n' },
		{ "log", required_argument, NULL, 'l' },
		{ "expect-json", required_argument, NULL, 'j' },
		{ "expect-config", required_argument, NULL, 'c' },
		{ "modules", no_argument, NULL, 'm' },
		{ "interval", required_argument, NULL, 'i' },
		{ "remote-state", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	int i, c, status = 0, code, sig = 0, modules = 0;
	char trailer[160], buf[65536];

	kf_prog = "build-progress";
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'n': name = optarg; break;
		case 'l': log_path = optarg; break;
		case 'j': expect_json = optarg; break;
		case 'c': config = optarg; break;
		case 'm': modules = 1; break;
		case 'i': interval = strtod(optarg, NULL); break;
		case 'r': remote_state = optarg; break;
		default: usage();
		}
	}
	i = optind;
	if (!name || !log_path || i >= argc)
		usage();
	if (interval < 0.1)
		interval = 0.1;

	memset(&s, 0, sizeof(s));
	s.name = name;
	s.expected = expected_objects(expect_json);
	s.estimated = s.expected == 0;
	if (s.estimated)
		s.expected = config_estimate(config, modules);
	if (s.estimated && s.expected < ESTIMATE)
		s.expected = ESTIMATE;
	s.log_fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (s.log_fd < 0)
		kf_die(2, "cannot write %s: %s", log_path, strerror(errno));
	if (remote_state)
		remote_setup(name, remote_state);
	kf_proc_forward_signals();
	/* The O= directory is the .config's: torn .cmd files out first. */
	if (config && strrchr(config, '/')) {
		char *odir = kf_xstrndup(config, (size_t)(strrchr(config, '/') - config));

		nftw(odir, drop_torn, 16, FTW_PHYS);
		if (torn_dropped) {
			char msg[LINE_MAX_LEN];

			snprintf(msg, sizeof(msg), "  BUILD   %s: removed %d .cmd file%s a killed "
				 "build left cut short", name, torn_dropped, torn_dropped == 1 ? "" : "s");
			say(STDOUT_FILENO, msg);
			say(s.log_fd, msg);
		}
		free(odir);
	}

	start = last = kf_now();
	if (kf_proc_start(&child, argv + i, &how) < 0) {
		fprintf(stderr, "build-progress: cannot run %s: %s\n", argv[i], strerror(errno));
		child.out = -1;
		status = 127 << 8;
	}

	while (child.out >= 0) {
		struct pollfd p = { .fd = child.out, .events = POLLIN };
		int r = poll(&p, 1, 1000);

		if (r > 0) {
			ssize_t n = read(child.out, buf, sizeof(buf));

			if (n == 0)
				break;
			if (n < 0) {
				if (errno == EINTR || errno == EAGAIN)
					continue;
				break;
			}
			write_all(s.log_fd, buf, (size_t)n);
			feed(&s, buf, (size_t)n);
		} else if (r < 0 && errno != EINTR) {
			break;
		}
		if (kf_now() - last >= interval && !kf_proc_signal) {
			progress(&s, start);
			last = kf_now();
		}
	}
	if (s.line_len) {
		s.line[s.line_len] = '\0';
		do_line(&s, s.line);
	}
	memset(&ru, 0, sizeof(ru));
	if (child.out >= 0) {
		close(child.out);
		kf_proc_wait(&child, -1, &status, &ru);
	}

	if (WIFSIGNALED(status)) {
		sig = WTERMSIG(status);
		code = 128 + sig;
	} else {
		code = WEXITSTATUS(status);
	}
	snprintf(trailer, sizeof(trailer), KB_TRAILER "%.1f cpu_seconds=%.1f exit=%d\n",
		 kf_now() - start,
		 (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		 (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6, code);
	write_all(s.log_fd, trailer, strlen(trailer));
	close(s.log_fd);

	if (kf_proc_signal || sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
		int die = kf_proc_signal ? kf_proc_signal : sig;
		char msg[160];

		snprintf(msg, sizeof(msg), "  BUILD   %s: interrupted after %.0f s (log: %s)",
			 name, kf_now() - start, log_path);
		say(STDERR_FILENO, msg);
		free_state(&s);
		kf_proc_die_of(die);
	}
	if (code != 0)
		report_failure(&s, log_path, code);
	free_state(&s);
	return code;
}
