// SPDX-License-Identifier: GPL-2.0
/*
 * lint - check Kconfig fragments alone, before any merge: every line
 * (lib/dotconfig.c), and no symbol set to two values unless the later line
 * follows "# kflavour: override" (fragment.c). Needs no kernel tree, so it
 * is built without one; config/merge.sh runs it first.
 *
 *   lint FRAGMENT...
 *
 * Exit 0 when the fragments are clean, 1 on a problem (each on stderr as
 * "file:line: what; fix"), 2 on a usage error.
 */
#include "../lib/fragment.h"
#include "../lib/kf.h"

#include <getopt.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	static const struct option opts[] = { { NULL, 0, NULL, 0 } };
	struct kf_fragset fs;
	size_t nerr;

	kf_prog = "lint";
	if (getopt_long(argc, argv, "", opts, NULL) != -1 || optind >= argc)
		kf_die(2, "usage: lint FRAGMENT...");
	kf_fragset_init(&fs);
	for (int i = optind; i < argc; i++)
		kf_fragset_add(&fs, argv[i], NULL);
	for (size_t k = 0; k < fs.nerr; k++)
		fprintf(stderr, "%s: %s\n", kf_prog, fs.err[k]);
	nerr = fs.nerr;
	if (nerr)
		fprintf(stderr, "%s: %zu problem%s in the fragments; nothing was merged\n",
			kf_prog, nerr, nerr == 1 ? "" : "s");
	kf_fragset_free(&fs);
	return nerr ? 1 : 0;
}
