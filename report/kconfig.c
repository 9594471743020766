// SPDX-License-Identifier: GPL-2.0
/*
 * kconfig.c - read a .config, classify symbols into the report's groups, and
 * find the fragment that set a symbol.
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

static int by_sym(const void *a, const void *b)
{
	return strcmp(((const struct kc_sym *)a)->name,
		      ((const struct kc_sym *)b)->name);
}

static void add(struct kconfig *kc, const char *name, size_t nlen,
		const char *value, size_t vlen)
{
	struct kc_sym *s;

	kc->sym = kf_xrealloc(kc->sym, (kc->n + 1) * sizeof(*kc->sym));
	s = &kc->sym[kc->n++];
	s->name = kf_xmalloc(nlen + 1);
	memcpy(s->name, name, nlen);
	s->name[nlen] = '\0';
	s->value = kf_xmalloc(vlen + 1);
	memcpy(s->value, value, vlen);
	s->value[vlen] = '\0';
}

/* "CONFIG_X=v" or "# CONFIG_X is not set"; anything else is skipped. */
static void parse_line(struct kconfig *kc, const char *line, size_t len)
{
	static const char notset[] = " is not set";
	const size_t nl = sizeof(notset) - 1;

	if (len > 9 && !strncmp(line, "# CONFIG_", 9) && len > 9 + nl &&
	    !memcmp(line + len - nl, notset, nl)) {
		add(kc, line + 9, len - 9 - nl, "n", 1);
		return;
	}
	if (len > 7 && !strncmp(line, "CONFIG_", 7)) {
		const char *eq = memchr(line, '=', len);

		if (eq && eq > line + 7)
			add(kc, line + 7, (size_t)(eq - line - 7), eq + 1,
			    len - (size_t)(eq + 1 - line));
	}
}

void kc_parse(struct kconfig *kc, const char *text)
{
	const char *p = text;

	kc->sym = NULL;
	kc->n = 0;
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		while (len && (p[len - 1] == '\r' || p[len - 1] == ' '))
			len--;
		parse_line(kc, p, len);
		p = nl ? nl + 1 : NULL;
	}
	if (kc->n)
		qsort(kc->sym, kc->n, sizeof(*kc->sym), by_sym);
	/* A symbol set twice: the last one wins in Kconfig; keep one. */
	for (size_t i = 1; i < kc->n;) {
		if (strcmp(kc->sym[i - 1].name, kc->sym[i].name) != 0) {
			i++;
			continue;
		}
		free(kc->sym[i - 1].name);
		free(kc->sym[i - 1].value);
		memmove(&kc->sym[i - 1], &kc->sym[i],
			(kc->n - i) * sizeof(*kc->sym));
		kc->n--;
	}
}

void kc_free(struct kconfig *kc)
{
	for (size_t i = 0; i < kc->n; i++) {
		free(kc->sym[i].name);
		free(kc->sym[i].value);
	}
	free(kc->sym);
	kc->sym = NULL;
	kc->n = 0;
}

const char *kc_get(const struct kconfig *kc, const char *name)
{
	struct kc_sym key = { .name = (char *)name }, *s;

	if (!kc->n)
		return NULL;
	s = bsearch(&key, kc->sym, kc->n, sizeof(*kc->sym), by_sym);
	return s ? s->value : NULL;
}

const char *kc_value(const struct kconfig *kc, const char *name)
{
	const char *v = kc_get(kc, name);

	return v ? v : "n";
}

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

/* Does this fragment line set 'name' (to anything, "is not set" included)? */
static int line_sets(const char *line, size_t len, const char *name)
{
	size_t n = strlen(name);

	while (len && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	if (len > 7 + n && !strncmp(line, "CONFIG_", 7) &&
	    !strncmp(line + 7, name, n) && line[7 + n] == '=')
		return 1;
	if (len >= 9 + n + 11 && !strncmp(line, "# CONFIG_", 9) &&
	    !strncmp(line + 9, name, n) && !strncmp(line + 9 + n, " is not set", 11))
		return 1;
	return 0;
}

const char *kc_fragment_for(const char *name, char *const *files, size_t nfiles,
			    int *line)
{
	const char *found = NULL;
	int found_line = 0;

	for (size_t i = 0; i < nfiles; i++) {
		char *text = kf_read_file(files[i], NULL);
		const char *p = text;
		int lineno = 0;

		while (p && *p) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);

			lineno++;
			if (line_sets(p, len, name)) {
				found = files[i];
				found_line = lineno;
			}
			p = nl ? nl + 1 : NULL;
		}
		free(text);
	}
	if (line)
		*line = found ? found_line : 0;
	return found;
}
