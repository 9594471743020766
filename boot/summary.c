// SPDX-License-Identifier: GPL-2.0
/*
 * summary.c - boot-summary: the boot summary of a make run and its exit
 * status, over the boot records this make asked for.
 *
 *   boot-summary RECORD...
 *
 * Prints one line per record not as expected (missing, a boot of an earlier
 * bzImage than its flavour's build.json, the current-boot rule of
 * lib/records.h, or a verdict other than the expected one), then the count;
 * exits 1 if there was any. results.ktap and junit.xml are the report's
 * renderers (report/ktap.c, report/junit.c; report-results).
 */
#include "../lib/kf.h"
#include "../lib/records.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The record's flavour's build.json: <flavour>/boot/<cpu>.json's
 * <flavour>/build.json; NULL when the record lies elsewhere. */
static char *build_json_of(const char *record)
{
	const char *end = strrchr(record, '/'), *start = end;

	while (start && start > record && start[-1] != '/')
		start--;
	if (!end || end - start != 4 || strncmp(start, "boot", 4) != 0)
		return NULL;
	return kf_xasprintf("%.*sbuild.json", (int)(start - record), record);
}

int main(int argc, char **argv)
{
	size_t bad = 0, n = (size_t)(argc > 1 ? argc - 1 : 0);

	kf_prog = "boot-summary";
	if (argc < 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: boot-summary RECORD...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		struct kf_boot_rec b;
		struct kf_build_rec build = { 0 };
		const char *cpu, *verdict, *expected, *flavour;
		char *bp;
		int current;

		memset(&b, 0, sizeof(b));
		if (kf_boot_rec_read(&b, argv[i], KF_WARN, "remove it, and make boots again")) {
			printf("          %s: no boot record\n", argv[i]);
			bad++;
			continue;
		}
		flavour = b.h.flavour ? b.h.flavour : "?";
		cpu = b.cpu ? b.cpu : "?";
		verdict = b.verdict ? b.verdict : "?";
		expected = b.expected ? b.expected : "pass";
		bp = build_json_of(argv[i]);
		current = !bp || kf_build_rec_read(&build, bp, KF_QUIET, "treated as missing") ||
			  kf_boot_current(&b, &build);
		kf_build_rec_free(&build);
		free(bp);
		if (!current) {
			printf("          %s on %s: booted an earlier bzImage than build.json's; make boots it again (%s)\n",
			       flavour, cpu, argv[i]);
			bad++;
		} else if (strcmp(verdict, expected) != 0) {
			/* the boot log beside it: <cpu>.json -> <cpu>.log */
			size_t len = strlen(argv[i]);
			int json = len > 5 && !strcmp(argv[i] + len - 5, ".json");

			printf("          %s on %s: %s, expected %s; see %.*s%s\n", flavour, cpu,
			       verdict, expected, (int)(json ? len - 5 : len), argv[i],
			       json ? ".log" : "");
			bad++;
		}
		kf_boot_rec_free(&b);
	}
	if (bad) {
		printf("  BOOTS   %zu of %zu boots not as expected (listed above)\n", bad, n);
		return 1;
	}
	printf("  BOOTS   %zu of %zu boots as expected\n", n, n);
	return 0;
}
