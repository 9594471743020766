// SPDX-License-Identifier: GPL-2.0
/*
 * diff - the config difference of two flavours (make diffconfig).
 *
 *   config-diff --srctree SRC [--json OUT] [--full N] [--label-a L] [--label-b L] A B
 *
 * In full up to N (default KF_DIFF_FULL_MAX) differences, else by Kconfig
 * menu (config/kdiff.c), each side labelled with its flavour (--label-a,
 * --label-b: make diffconfig's a= and b=; else the file as given). Linked
 * with the tree's kconfig (lib/kconf.c), which reads A. Exit 0, or 2 on a
 * usage or I/O error.
 */
#include "../lib/kf.h"
#include "../lib/kconf.h"
#include "kdiff.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(void)
{
	kf_die(2, "usage: config-diff --srctree SRC [--json OUT.json] [--full N] [--label-a L] [--label-b L] A B");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "srctree", required_argument, NULL, 's' },
		{ "json", required_argument, NULL, 'j' },
		{ "full", required_argument, NULL, 'f' },
		{ "label-a", required_argument, NULL, 'a' },
		{ "label-b", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	const char *srctree = NULL, *json = NULL, *a, *b, *la = NULL, *lb = NULL;
	long full = KF_DIFF_FULL_MAX, n;
	char *kernelversion;
	int c;

	kf_prog = "config-diff";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's': srctree = optarg; break;
		case 'j': json = optarg; break;
		case 'f': full = strtol(optarg, NULL, 10); break;
		case 'a': la = optarg; break;
		case 'b': lb = optarg; break;
		default: usage();
		}
	}
	if (!srctree || optind + 2 != argc)
		usage();
	a = argv[optind];
	b = argv[optind + 1];
	if (access(a, R_OK) < 0 || access(b, R_OK) < 0)
		kf_die(2, "%s %s: %s; give two configs to compare", a, b, strerror(errno));
	kernelversion = kf_kconfig_load(srctree, a, NULL);
	n = kf_kdiff(a, b, la ? la : a, lb ? lb : b, json,
		     full > 0 ? (size_t)full : KF_DIFF_FULL_MAX);
	free(kernelversion);
	return n < 0 ? 2 : 0;
}
