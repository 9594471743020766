// SPDX-License-Identifier: GPL-2.0
/*
 * report - compare the flavours of one kernel version from what the config,
 * build and boot stages left in out/<kver>/.
 *
 *   report [OPTIONS] KDIR FLAVOUR[=FRAGMENT,FRAGMENT...]...
 *       Print the table, write KDIR/report.json and KDIR/report.html.
 *       FRAGMENT files (merge order) name the fragment that set a symbol in
 *       the config diff; without them the list in config.json is used.
 *   report --logdiff [--context N] A.log B.log
 *       Print the normalised console diff of two boot logs.
 *
 * Options:
 *   --json FILE         report.json path (default KDIR/report.json; '-': none)
 *   --html FILE         report.html path (default KDIR/report.html; '-': none)
 *   --cpu-models FILE   CPU model table (default boot/cpu-models)
 *   --c2c-cpu CPU       the c2c comparison's machine: <f>/c2c/CPU.json (make's
 *                       c2c cpu); default each flavour's CPU model's record,
 *                       else its first; records of another machine than the
 *                       first flavour's are left out either way
 *   --c2c-workload W    the c2c comparison's workload (make's workload=):
 *                       <f>/c2c/W.CPU.json; pipe (the default) is CPU.json
 *   --width N           table width (default 100); --quiet: no table
 *   --context N         lines of context in console diffs (default 2)
 *
 * Exit status: 0, 1 when a report file could not be written, 2 on usage.
 */
#include "render.h"
#include "../lib/kf.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(void)
{
	fprintf(stderr,
		"usage: report [--json FILE] [--html FILE] [--cpu-models FILE]\n"
		"              [--c2c-cpu CPU] [--c2c-workload W] [--width N] [--quiet] [--context N] KDIR FLAVOUR[=FRAGMENT,...]...\n"
		"       report --logdiff [--context N] [--label-a L] [--label-b L] A.log B.log\n");
	exit(2);
}

static int logdiff_main(const char *a, const char *b, const char *la,
			const char *lb, int context)
{
	struct ld_log x, y;
	struct ld_diff d;

	for (int k = 0; k < 2; k++)
		if (ld_log_read(k ? &y : &x, k ? b : a))
			kf_die(2, "%s: %s; boot it first (make boot flavour=... cpu=...)",
			       k ? b : a, strerror(errno));
	ld_diff(&d, &x, &y, context);
	ld_diff_print(stdout, &d, la ? la : a, lb ? lb : b);
	ld_diff_free(&d);
	ld_log_free(&x);
	ld_log_free(&y);
	return 0;
}

static long number(const char *s, const char *opt)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end || end == s || v < -1 || v > 100000)
		kf_die(2, "%s %s: not a number", opt, s);
	return v;
}

int main(int argc, char **argv)
{
	enum { O_JSON = 256, O_HTML, O_CPUS, O_WIDTH, O_QUIET,
	       O_CONTEXT, O_LOGDIFF, O_LA, O_LB, O_C2C, O_C2CW };
	static const struct option opts[] = {
		{ "json", required_argument, NULL, O_JSON },
		{ "html", required_argument, NULL, O_HTML },
		{ "cpu-models", required_argument, NULL, O_CPUS },
		{ "width", required_argument, NULL, O_WIDTH },
		{ "quiet", no_argument, NULL, O_QUIET },
		{ "context", required_argument, NULL, O_CONTEXT },
		{ "logdiff", no_argument, NULL, O_LOGDIFF },
		{ "label-a", required_argument, NULL, O_LA },
		{ "label-b", required_argument, NULL, O_LB },
		{ "c2c-cpu", required_argument, NULL, O_C2C },
		{ "c2c-workload", required_argument, NULL, O_C2CW },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *json = NULL, *html = NULL, *cpus = "boot/cpu-models";
	const char *la = NULL, *lb = NULL;
	int width = 100, quiet = 0, context = 2, logdiff = 0, c, rc = 0;
	struct report r = { 0 };
	char *jpath, *hpath;

	kf_prog = "report";
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case O_JSON: json = optarg; break;
		case O_HTML: html = optarg; break;
		case O_CPUS: cpus = optarg; break;
		case O_WIDTH: width = (int)number(optarg, "--width"); break;
		case O_QUIET: quiet = 1; break;
		case O_CONTEXT: context = (int)number(optarg, "--context"); break;
		case O_LOGDIFF: logdiff = 1; break;
		case O_LA: la = optarg; break;
		case O_LB: lb = optarg; break;
		case O_C2C: r.c2c_cpu = optarg; break;
		case O_C2CW: r.c2c_workload = optarg; break;
		default: usage();
		}
	}
	if (logdiff) {
		if (argc - optind != 2)
			usage();
		return logdiff_main(argv[optind], argv[optind + 1], la, lb, context);
	}
	if (argc - optind < 1)
		usage();
	for (int i = optind + 1; i < argc; i++)
		report_add_flavour(&r, argv[i]);
	report_read_cpu_models(&r, cpus);
	report_read_flavours(&r, argv[optind]);
	report_load(&r, argv[optind]);
	report_derive(&r);
	report_compare(&r, context);

	if (!quiet)
		table_print(stdout, &r, width);
	jpath = json ? kf_xstrdup(json) : kf_xasprintf("%s/report.json", r.kdir);
	hpath = html ? kf_xstrdup(html) : kf_xasprintf("%s/report.html", r.kdir);
	if (strcmp(jpath, "-") != 0 && json_write(&r, jpath)) {
		kf_warn("%s: %s; is out/ writable?", jpath, strerror(errno));
		rc = 1;
	}
	if (strcmp(hpath, "-") != 0 && html_write(&r, hpath)) {
		kf_warn("%s: %s; is out/ writable?", hpath, strerror(errno));
		rc = 1;
	}
	if (!quiet && !rc) {
		if (strcmp(jpath, "-") != 0)
			printf("wrote %s\n", jpath);
		if (strcmp(hpath, "-") != 0)
			printf("wrote %s\n", hpath);
	}
	free(jpath);
	free(hpath);
	report_free(&r);
	return rc;
}
