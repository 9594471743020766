// SPDX-License-Identifier: GPL-2.0
/*
 * kconfig.c - classify symbols into the report's groups, and find the
 * fragment that set a symbol (lib/dotconfig.c reads both).
 */
#include "report.h"
#include "../lib/kf.h"

#include <stdlib.h>
#include <string.h>

const char *const kc_group_names[KC_NR_GROUPS] = {
	[KC_CPU] = "cpu",
	[KC_CACHE] = "cache",
	[KC_SMT] = "smt",
	[KC_MICROCODE] = "microcode",
	[KC_OTHER] = "other",
};

static int has(const char *name, const char *part)
{
	return strstr(name, part) != NULL;
}

static int starts(const char *name, const char *prefix)
{
	return !strncmp(name, prefix, strlen(prefix));
}

static int in_list(const char *name, char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return 1;
	return 0;
}

/*
 * Groups by name pattern. The CPU group is the choice itself (its values
 * as the audit found them in the tree's kconfig: config.json's
 * cpu_choice_values) and the options it selects (X86_P6_NOP, ...).
 */
enum kc_group kc_classify(const char *name, char *const *cpu_values, size_t ncpu_values)
{
	static const char *const cpu_derived[] = {
		"X86_GENERIC", "X86_MINIMUM_CPU_FAMILY", "X86_INTEL_USERCOPY",
		"X86_USE_PPRO_CHECKSUM", "X86_P6_NOP", "X86_TSC", "X86_CMPXCHG64",
		"X86_CMOV", "X86_DEBUGCTLMSR", "X86_HAVE_PAE", "X86_ALIGNMENT_16",
		"X86_F00F_BUG", "X86_INVD_BUG", "X86_USE_3DNOW", "X86_INTEL_PPRO_BUG",
	};

	if (starts(name, "MICROCODE"))
		return KC_MICROCODE;
	if (has(name, "CACHE_SHIFT") || has(name, "CACHELINE") ||
	    has(name, "L1_CACHE") || has(name, "CACHE_BYTES"))
		return KC_CACHE;
	if (in_list(name, cpu_values, ncpu_values) || starts(name, "CPU_SUP_"))
		return KC_CPU;
	for (size_t i = 0; i < sizeof(cpu_derived) / sizeof(*cpu_derived); i++)
		if (!strcmp(name, cpu_derived[i]))
			return KC_CPU;
	if (has(name, "SMT") || !strcmp(name, "X86_HT") || !strcmp(name, "SMP") ||
	    !strcmp(name, "NR_CPUS") || starts(name, "NR_CPUS_") ||
	    !strcmp(name, "SCHED_MC") || !strcmp(name, "SCHED_CLUSTER"))
		return KC_SMT;
	return KC_OTHER;
}

const char *kc_fragment_for(const char *name, char *const *files, size_t nfiles,
			    int *line)
{
	const char *found = NULL;
	int found_line = 0;

	for (size_t i = 0; i < nfiles; i++) {
		struct kf_config c;
		const struct kf_config_sym *s;
		char err[1024];

		/* The fragments passed the audit's lint: one that does not
		 * read now has changed since, and tells nothing. */
		if (kf_config_read(&c, files[i], NULL, err, sizeof(err)) < 0)
			continue;
		s = kf_config_find(&c, name);
		if (s) {
			found = files[i];
			found_line = s->line;
		}
		kf_config_free(&c);
	}
	if (line)
		*line = found ? found_line : 0;
	return found;
}
