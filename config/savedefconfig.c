// SPDX-License-Identifier: GPL-2.0
/*
 * savedefconfig - 'make savedefconfig' for several configs, Kconfig parsed once.
 *
 *   config-savedefconfig --srctree SRC [--write-back] CONFIG DEFCONFIG...
 *
 * For each pair, reads CONFIG with the tree's own kconfig (lib/kconf.c)
 * and writes DEFCONFIG as the tree's savedefconfig writes it; --write-back
 * first writes the first CONFIG back as 'make olddefconfig' would (an
 * edited .config, resolved before it is compared). The kernel's
 * make parses Kconfig, and runs its compiler probes, once per config: 4 to
 * 5 s each on a slow machine; here once for all (make defconfigs, make
 * check-defconfigs, make savefragment). Exit 2 on a usage or I/O error.
 */
#include "../lib/kf.h"
#include "../lib/kconf.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(void)
{
	kf_die(2, "usage: config-savedefconfig --srctree SRC [--write-back] CONFIG DEFCONFIG...");
}

/* DEFCONFIG from the config read last: written aside, then renamed. */
static void write_defconfig(const char *config, const char *defconfig)
{
	char *tmp = kf_xasprintf("%s.kf-new", defconfig);

	if (conf_write_defconfig(tmp) || rename(tmp, defconfig) < 0) {
		unlink(tmp);
		kf_die(2, "%s: cannot write the savedefconfig of %s: %s", defconfig, config,
		       strerror(errno));
	}
	free(tmp);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "srctree", required_argument, NULL, 's' },
		{ "write-back", no_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	const char *srctree = NULL;
	char *kernelversion;
	int c, i, write_back = 0;

	kf_prog = "config-savedefconfig";
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 's': srctree = optarg; break;
		case 'w': write_back = 1; break;
		default: usage();
		}
	}
	if (!srctree || optind >= argc || (argc - optind) % 2)
		usage();
	for (i = optind; i < argc; i += 2)
		if (access(argv[i], R_OK) < 0)
			kf_die(2, "%s: %s", argv[i], strerror(errno));
	/* The first config is read with the parse; each later one replaces
	 * every value (conf_read, as menuconfig's "Load" does). */
	kernelversion = kf_kconfig_load(srctree, argv[optind], NULL);
	conf_set_message_callback(NULL);
	for (i = optind; i < argc; i += 2) {
		if (i > optind && conf_read(argv[i]))
			kf_die(2, "%s: this tree's kconfig cannot read it", argv[i]);
		if (write_back && i == optind && conf_write(argv[i]))
			kf_die(2, "%s: cannot write it back (olddefconfig): %s", argv[i],
			       strerror(errno));
		write_defconfig(argv[i], argv[i + 1]);
	}
	free(kernelversion);
	return 0;
}
