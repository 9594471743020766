// SPDX-License-Identifier: GPL-2.0
/*
 * results.c - report-results: results.ktap and junit.xml for CI, rendered
 * from the report's model (ktap.c, junit.c) of out/<kver>/.
 *
 *   report-results --kdir DIR [--ktap FILE] [--junit FILE] [FLAVOUR...]
 *
 * The flavours whose boot records they cover: FLAVOUR..., or without one
 * every directory of DIR that holds a boot/ or sysboot/ folder (make results: every
 * record found). Both files are written atomically.
 */
#include "render.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void usage(void)
{
	fprintf(stderr, "usage: report-results --kdir DIR [--ktap FILE] [--junit FILE] [FLAVOUR...]\n");
	exit(2);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every directory of kdir with a boot/ or sysboot/ folder, sorted. */
static char **booted_dirs(const char *kdir, size_t *n)
{
	DIR *d = opendir(kdir);
	struct dirent *e;
	char **v = NULL;

	*n = 0;
	if (!d)
		kf_die(2, "%s: %s; give the out/<kver> directory with --kdir", kdir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		for (int k = 0; k < 2; k++) {
			char *p = kf_xasprintf("%s/%s/%s", kdir, e->d_name, k ? "sysboot" : "boot");
			if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
				v = kf_xrealloc(v, (*n + 1) * sizeof(*v));
				v[(*n)++] = kf_xstrdup(e->d_name);
				k = 2;	/* once per flavour */
			}
			free(p);
		}
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), by_name);
	return v;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kdir", required_argument, NULL, 'd' },
		{ "ktap", required_argument, NULL, 'k' },
		{ "junit", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	const char *kdir = NULL, *ktap = NULL, *junit = NULL;
	struct report r = { 0 };
	int c;

	kf_prog = "report-results";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': kdir = optarg; break;
		case 'k': ktap = optarg; break;
		case 'j': junit = optarg; break;
		default: usage();
		}
	}
	if (!kdir || (!ktap && !junit))
		usage();
	if (optind < argc) {
		for (int i = optind; i < argc; i++)
			report_add_flavour(&r, argv[i]);
	} else {
		size_t n;
		char **v = booted_dirs(kdir, &n);

		for (size_t i = 0; i < n; i++) {
			report_add_flavour(&r, v[i]);
			free(v[i]);
		}
		free(v);
	}
	report_load(&r, kdir);
	if (ktap && ktap_write(&r, ktap))
		kf_die(2, "%s: %s; is out/ writable?", ktap, strerror(errno));
	if (junit && junit_write(&r, junit))
		kf_die(2, "%s: %s; is out/ writable?", junit, strerror(errno));
	report_free(&r);
	return 0;
}
