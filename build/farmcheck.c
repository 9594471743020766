// SPDX-License-Identifier: GPL-2.0
/*
 * farm-check - before a long build through distcc: is each host of
 * DISTCC_HOSTS reachable, and does it compile with the same compiler, for
 * the same target, as this machine? (make farm-check, docs/build.md)
 *
 *   farm-check --hosts "H1 H2..." [--timeout SECONDS] [--dir DIR]
 *
 * A host's compiler cannot be asked its version through distcc (distcc runs
 * "gcc --version" here), so each host compiles a probe and the object is
 * compared with the one this machine's gcc makes: byte-identical, or the
 * host is refused by name, with the compiler named in the object's .comment
 * (gcc and clang write their version there) and its ELF machine. The probe
 * is preprocessed here first (as distcc does for every compile), and during
 * the remote compile "gcc" on PATH is a stub that fails: distcc falls back
 * to a local compile when a host fails, and a fallback must not pass for
 * the host's object. Each host gets a fresh DISTCC_DIR (no backoff from
 * earlier builds) and DISTCC_IO_TIMEOUT=--timeout, so a host that never
 * answers costs that long, not distcc's default 300 s.
 * The probe and each host's object and distcc log go to --dir, else to a
 * new $TMPDIR/kf-farm-check.XXXXXX that is removed when every host is fit
 * and kept (named in the messages) when one is not.
 * stdout: one line per host and a summary; exit 0 when every host is fit,
 * 1 when one is not (each named on stderr with the fix), 2 on usage/setup.
 */
#include "../lib/elf.h"
#include "../lib/kf.h"
#include "../lib/proc.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Enough code for the compiler's choices to show: a loop, a switch, a call. */
static const char probe_c[] =
	"/* kflavour farm-check probe */\n"
	"extern int kf_ext(int);\n"
	"struct kf_s { long a; int b[8]; };\n"
	"int kf_probe(struct kf_s *s, int n)\n"
	"{\n"
	"\tint i, t = 0;\n"
	"\tfor (i = 0; i < n && i < 8; i++)\n"
	"\t\tswitch (s->b[i] & 3) {\n"
	"\t\tcase 0: t += kf_ext(i); break;\n"
	"\t\tcase 1: t ^= (int)s->a; break;\n"
	"\t\tdefault: t *= 3;\n"
	"\t\t}\n"
	"\treturn t + (int)(s->a >> 3);\n"
	"}\n";

/* Run argv in dir with env added; 0 exit within secs -> 0, else -1. */
static int run(char *const argv[], const char *dir, char *const env[], const char *log,
	       double secs)
{
	struct kf_proc p;
	struct kf_proc_opts o = { .log = log, .dir = dir, .env = env, .null_in = 1,
				  .group = 1 };
	int status;

	if (kf_proc_start(&p, argv, &o) < 0)
		kf_die(2, "cannot run %s: %s", argv[0], strerror(errno));
	if (!kf_proc_wait(&p, secs, &status, NULL)) {
		kf_proc_stop(&p, 2, &status);
		return -2;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* The object's .comment (the compiler's ident) and ELF machine. */
static void elf_ident(const char *path, char *comment, size_t n, int *machine)
{
	struct kf_elf f;
	struct kf_elf_section sec;
	char err[256];

	snprintf(comment, n, "no .comment");
	*machine = -1;
	if (kf_elf_open(&f, path, err, sizeof(err)) != 0)
		return;
	*machine = f.machine;
	if (kf_elf_section(&f, ".comment", &sec) == 0 && sec.data && sec.data_size > 1) {
		/* NUL-separated strings, the first often empty */
		const char *s = sec.data, *end = s + sec.data_size;

		while (s < end && !*s)
			s++;
		snprintf(comment, n, "%.*s", (int)strnlen(s, (size_t)(end - s)), s);
	}
	kf_elf_close(&f);
}

/* The first distcc ERROR line of a client log, for the refusal message. */
static void first_error(const char *log, char *out, size_t n)
{
	char *text = kf_read_file(log, NULL), *l, *next;

	snprintf(out, n, "no answer");
	for (l = text; l && *l; l = next) {
		char *e;

		next = kf_cut_line(l);
		e = strstr(l, "ERROR: ");
		if (e) {
			snprintf(out, n, "%s", e + 7);
			break;
		}
	}
	free(text);
}

/* The job limit of a host entry, "host:port/N,lzo": N; distcc's default 4. */
static long host_jobs(const char *h)
{
	const char *s = strchr(h, '/');

	return s ? strtol(s + 1, NULL, 10) : 4;
}

static int same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *x = kf_read_file(a, &la), *y = kf_read_file(b, &lb);
	int same = x && y && la == lb && memcmp(x, y, la) == 0;

	free(x);
	free(y);
	return same;
}

static void usage(void)
{
	fprintf(stderr, "usage: farm-check --hosts \"H1 H2...\" [--timeout SECONDS] [--dir DIR]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hosts", required_argument, NULL, 'h' },
		{ "timeout", required_argument, NULL, 't' },
		{ "dir", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	const char *hosts = NULL, *dir = NULL;
	char *tmpd = NULL, here[200], here_cc[200];
	long timeout = 20, slots = 0;
	int c, n = 0, bad = 0, fit = 0, here_machine;
	struct stat st;
	char *list, *tok, *save = NULL, *p;

	kf_prog = "farm-check";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'h': hosts = optarg; break;
		case 't': timeout = strtol(optarg, NULL, 10); break;
		case 'd': dir = optarg; break;
		default: usage();
		}
	}
	if (!hosts || optind != argc || timeout <= 0)
		usage();
	if (!dir) {
		/* $TMPDIR/kf-farm-check.XXXXXX, kept when a host failed (named) */
		const char *td = getenv("TMPDIR");

		tmpd = kf_xasprintf("%s/kf-farm-check.XXXXXX", td && *td ? td : "/tmp");
		if (!(dir = mkdtemp(tmpd)))
			kf_die(2, "cannot make a directory %s: %s", tmpd, strerror(errno));
	}
	kf_mkdir_p(dir);

	/* The probe, preprocessed and compiled here: the object to match. */
	p = kf_xasprintf("%s/probe.c", dir);
	if (kf_write_atomic(p, probe_c, strlen(probe_c)) < 0)
		kf_die(2, "cannot write %s: %s", p, strerror(errno));
	free(p);
	p = kf_xasprintf("%s/stub", dir);
	kf_mkdir_p(p);
	free(p);
	p = kf_xasprintf("%s/stub/gcc", dir);
	{
		static const char stub[] = "#!/bin/sh\n"
			"echo 'farm-check: the host did not compile the probe' >&2\nexit 97\n";

		if (kf_write_atomic(p, stub, strlen(stub)) < 0 || chmod(p, 0755) < 0)
			kf_die(2, "cannot write %s: %s", p, strerror(errno));
	}
	free(p);
	{
		char *const cpp[] = { "gcc", "-E", "probe.c", "-o", "probe.i", NULL };
		char *const cc[] = { "gcc", "-O2", "-c", "probe.i", "-o", "here.o", NULL };
		char *log = kf_xasprintf("%s/here.log", dir);

		if (run(cpp, dir, NULL, log, 60) < 0 || run(cc, dir, NULL, log, 60) < 0)
			kf_die(2, "gcc cannot compile the probe here; see %s", log);
		free(log);
	}
	p = kf_xasprintf("%s/here.o", dir);
	elf_ident(p, here_cc, sizeof(here_cc), &here_machine);
	free(p);
	snprintf(here, sizeof(here), "%s", here_cc);

	list = kf_xstrdup(hosts);
	for (tok = strtok_r(list, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		char *obj, *log, *ddir, *path, *oname, *env[10], why[640];
		int rc;

		/* options (--randomize) and localhost compile here: nothing to check */
		if (tok[0] == '-' || strncmp(tok, "localhost", 9) == 0)
			continue;
		n++;
		oname = kf_xasprintf("host%d.o", n);
		obj = kf_xasprintf("%s/%s", dir, oname);
		log = kf_xasprintf("%s/host%d.log", dir, n);
		ddir = kf_xasprintf("%s/distcc%d", dir, n);
		kf_mkdir_p(ddir);
		unlink(obj);
		unlink(log);
		path = kf_xasprintf("PATH=%s/stub:%s", dir, getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
		env[0] = kf_xasprintf("DISTCC_HOSTS=%s", tok);
		env[1] = kf_xasprintf("DISTCC_DIR=%s", ddir);
		env[2] = kf_xasprintf("DISTCC_IO_TIMEOUT=%ld", timeout);
		env[3] = kf_xasprintf("DISTCC_LOG=%s", log);
		env[4] = kf_xstrdup("DISTCC_VERBOSE=1");
		env[5] = kf_xstrdup("DISTCC_BACKOFF_PERIOD=60");
		env[6] = kf_xstrdup("DISTCC_NO_REWRITE_CROSS=1");
		env[7] = kf_xstrdup("DISTCC_NO_CROSS_REWRITE=1");
		env[8] = path;
		env[9] = NULL;
		{
			char *const argv_[] = { "distcc", "gcc", "-O2", "-c", "probe.i", "-o", oname, NULL };
			char *out = kf_xasprintf("%s/host%d.out", dir, n);

			/* connect (4 s) + send + the IO timeout, with room */
			rc = run(argv_, dir, env, out, (double)timeout + 15);
			free(out);
		}
		if (rc == 0 && stat(obj, &st) == 0 && st.st_size > 0) {
			char *here_o = kf_xasprintf("%s/here.o", dir), cc[200];
			int machine;

			elf_ident(obj, cc, sizeof(cc), &machine);
			if (same_file(obj, here_o)) {
				printf("  FARM    %s: ok, %s, %ld jobs\n", tok, cc, host_jobs(tok));
				slots += host_jobs(tok);
				fit++;
			} else {
				if (machine != here_machine)
					snprintf(why, sizeof(why), "it compiles for ELF machine %d, here %d",
						 machine, here_machine);
				else if (strcmp(cc, here) != 0)
					snprintf(why, sizeof(why), "its compiler is '%s', here '%s'", cc, here);
				else
					snprintf(why, sizeof(why), "its object differs from this machine's "
						 "(same ident '%s': another build of it, or other options)", cc);
				printf("  FARM    %s: REFUSED, %s\n", tok, why);
				kf_warn("host %s of DISTCC_HOSTS: %s; its objects would differ from a local "
					"build's. Install this machine's gcc there (gcc --version: %s) or "
					"remove it from DISTCC_HOSTS (objects in %s)", tok, why, here, dir);
				bad++;
			}
			free(here_o);
		} else {
			if (rc == -2)
				snprintf(why, sizeof(why), "no answer within %ld s", timeout + 15);
			else
				first_error(log, why, sizeof(why));
			printf("  FARM    %s: UNREACHABLE, %s\n", tok, why);
			kf_warn("host %s of DISTCC_HOSTS did not compile the probe: %s. Check that "
				"distccd runs there and --allow's this machine (distcc's log: %s), "
				"or remove it from DISTCC_HOSTS", tok, why, log);
			bad++;
		}
		for (int i = 0; env[i]; i++)
			free(env[i]);
		free(obj);
		free(log);
		free(ddir);
		free(oname);
	}
	free(list);
	if (fit + bad == 0)
		kf_die(2, "DISTCC_HOSTS ('%s') names no remote host", hosts);
	printf("  FARM    %d of %d hosts fit, %ld remote jobs; compiler here: %s\n",
	       fit, fit + bad, slots, here);
	/* Our own directory goes when all is well; else the messages name it. */
	if (!bad && tmpd) {
		char *const rm[] = { "rm", "-rf", tmpd, NULL };

		run(rm, "/", NULL, "/dev/null", 60);
	}
	free(tmpd);
	return bad ? 1 : 0;
}
