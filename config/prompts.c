// SPDX-License-Identifier: GPL-2.0
/*
 * prompts - where the tree's Kconfig defines some symbols, and how it asks
 * for them.
 *
 *   config-prompts --srctree SRC --config FINAL SYMBOL...
 *
 * Prints a JSON object, for each SYMBOL (without CONFIG_): its first prompt
 * (null when it has none: defaults and selects set it) and where it is
 * defined, as "file:line"; a symbol this tree does not define is null.
 * make bisect names its culprits with it. Linked with the tree's kconfig
 * (lib/kconf.c), which reads FINAL. Exit 2 on a usage or I/O error.
 */
#include "../lib/kf.h"
#include "../lib/record.h"
#include "../lib/kconf.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(void)
{
	kf_die(2, "usage: config-prompts --srctree SRC --config FINAL SYMBOL...");
}

/* The symbol's first definition with a prompt, else its first. */
static json_t *prompt_json(struct symbol *sym)
{
	struct menu **v = kf_sym_menus(sym), **m;
	const char *prompt = NULL, *file = NULL;
	int line = 0;

	for (m = v; *m; m++) {
		if (file && (prompt || !(*m)->prompt))
			continue;
		file = MENU_FILE(*m);
		line = (*m)->lineno;
		if ((*m)->prompt)
			prompt = (*m)->prompt->text;
	}
	free(v);
	return json_pack("{s:s?, s:o}", "prompt", prompt,
			 "defined_at", file ? json_sprintf("%s:%d", file, line) : json_null());
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "srctree", required_argument, NULL, 's' },
		{ "config", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	const char *srctree = NULL, *config = NULL;
	json_t *all = json_object();
	char *text, *kernelversion;
	int c;

	kf_prog = "config-prompts";
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 's': srctree = optarg; break;
		case 'c': config = optarg; break;
		default: usage();
		}
	}
	if (!srctree || !config || optind >= argc)
		usage();
	if (access(config, R_OK) < 0)
		kf_die(2, "--config %s: %s", config, strerror(errno));
	kernelversion = kf_kconfig_load(srctree, config, NULL);
	for (int i = optind; i < argc; i++) {
		struct symbol *sym = sym_find(argv[i]);

		json_object_set_new(all, argv[i], kf_sym_known(sym) ? prompt_json(sym) : json_null());
	}
	text = kf_record_text(all);
	json_decref(all);
	if (!text)
		kf_die(2, "cannot format JSON");
	fputs(text, stdout);
	free(text);
	free(kernelversion);
	return 0;
}
