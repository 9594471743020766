// SPDX-License-Identifier: GPL-2.0
/*
 * derive.c - what the report computes from the records load.c read: per
 * flavour the L1 line bytes, SMT and microcode from the config, the build
 * whose warnings count; per boot the line verdict, topology, GDT sharing,
 * idle, SWIOTLB and microcode with their sources (docs/report.md); across
 * flavours the builds that ran alongside, the release, and the boots in
 * CPU model order. Nothing here reads a file.
 */
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A non-negative decimal, or -1. */
static long num(const char *s)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0)
		return -1;
	return v;
}

const char *line_verdict_for(long kernel_bytes, long cpu_bytes)
{
	if (kernel_bytes <= 0 || cpu_bytes <= 0)
		return NULL;
	if (kernel_bytes == cpu_bytes)
		return "match";
	return kernel_bytes < cpu_bytes ? "too-small" : "too-large";
}

/* The probe prints "too-small: false sharing risk": the word before ':' counts. */
static const char *known_line_verdict(const char *s)
{
	static const char *const v[] = { "match", "too-small", "too-large" };

	for (size_t i = 0; s && i < 3; i++) {
		size_t n = strlen(v[i]);

		if (!strncmp(s, v[i], n) && (s[n] == '\0' || s[n] == ':'))
			return v[i];
	}
	return NULL;
}

/* 1, 0, or -1 for a fact value like "1", "yes", "on", "0", "off". */
static int truth(const char *s)
{
	static const char *const yes[] = { "1", "y", "yes", "on", "true", "active", "enabled" };
	static const char *const no[] = { "0", "n", "no", "off", "false", "inactive", "disabled" };

	for (size_t i = 0; s && i < sizeof(yes) / sizeof(*yes); i++) {
		if (!strcasecmp(s, yes[i]))
			return 1;
		if (!strcasecmp(s, no[i]))
			return 0;
	}
	return -1;
}

/*
 * Threads per core: the most CPUs one cpuN.thread_siblings_list names
 * ("0-1", "0,2", "3"), from sysfs topology, not /proc/cpuinfo's "siblings"
 * (which counts every CPU of the package, cores included).
 */
static long list_count(const char *s)
{
	long n = 0;

	while (s && *s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return -1;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				return -1;
		}
		n += b - a + 1;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return n > 0 ? n : -1;
}

static void derive_topology(struct boot *b)
{
	long online = 0;

	b->threads_per_core = -1;
	b->cores = -1;
	for (size_t i = 0; i < b->nfacts; i++) {
		const char *k = b->facts[i].key;
		size_t n = strlen(k);

		if (!strncmp(k, "cpu", 3) && n > 21 &&
		    !strcmp(k + n - 21, ".thread_siblings_list")) {
			long t = list_count(b->facts[i].val);

			online++;
			if (t > b->threads_per_core)
				b->threads_per_core = t;
		}
	}
	if (b->threads_per_core > 0 && online >= b->threads_per_core)
		b->cores = online / b->threads_per_core;
}

/* Whether two objects could share a line (see struct gdt_facts). */
static int gdt_gdt_share(const struct gdt_facts *g, long line)
{
	if (line <= 0 || g->distance < 0)
		return -1;
	return g->distance < line;
}

static int gdt_data_share(const struct gdt_facts *g, long line)
{
	if (line <= 0 || g->align <= 0 || g->size <= 0)
		return -1;
	return g->align < line || g->size % line != 0;
}

static void derive_gdt(struct boot *b, long kernel_l1)
{
	struct gdt_facts *g = &b->gdt;
	const char *d = boot_fact(b, "probe.gdt_distance");

	g->align = -1;
	for (size_t i = 0; i < b->nfacts; i++) {
		const char *k = b->facts[i].key;
		size_t n = strlen(k);

		if (!strncmp(k, "probe.cpu", 9) && n > 10 && !strcmp(k + n - 10, ".gdt_align")) {
			long a = num(b->facts[i].val);

			if (a > 0 && (g->align < 0 || a < g->align))
				g->align = a;
		}
	}
	g->distance = d && strcmp(d, "none") != 0 ? num(d) : -1;
	g->size = num(boot_fact(b, "probe.gdt_size"));
	g->limit = num(boot_fact(b, "probe.gdt_limit"));
	g->line_compiled = kernel_l1;
	g->line_cpu = b->cache_alignment;
	g->gdt_gdt_compiled = gdt_gdt_share(g, g->line_compiled);
	g->gdt_gdt_cpu = gdt_gdt_share(g, g->line_cpu);
	g->gdt_data_compiled = gdt_data_share(g, g->line_compiled);
	g->gdt_data_cpu = gdt_data_share(g, g->line_cpu);
}

/*
 * The microcode revision the guest kernel read from its CPU. Under QEMU
 * that is the emulated model's value (QEMU's, not a real CPU's) unless the
 * console shows an update being applied.
 */
static void derive_microcode(struct boot *b)
{
	b->microcode = boot_fact(b, "probe.microcode");
	if (!b->microcode)
		b->microcode_source = NULL;
	else if (b->microcode_updated)
		b->microcode_source = "update loaded at boot";
	else if (b->qemu_version)
		b->microcode_source = "emulated CPU (QEMU model), no update loaded";
	else
		b->microcode_source = "CPU as booted, no update loaded";
}

static void derive_boot(struct boot *b, const struct flavour *f)
{
	const char *lv = known_line_verdict(boot_fact(b, "probe.line_verdict"));
	long probe_l1 = num(boot_fact(b, "probe.l1_cache_bytes"));
	long kernel_l1 = f->l1_bytes > 0 ? f->l1_bytes : probe_l1;

	b->cache_alignment = num(boot_fact(b, "cpu.cache_alignment"));
	derive_topology(b);
	derive_gdt(b, probe_l1 > 0 ? probe_l1 : kernel_l1);
	derive_microcode(b);
	b->idle = boot_fact(b, "probe.idle");
	b->swiotlb_bytes = num(boot_fact(b, "probe.swiotlb_bytes"));
	if (lv) {
		b->line_verdict = lv;
		b->line_verdict_source = LV_PROBE;
	} else if ((lv = line_verdict_for(kernel_l1, b->cache_alignment))) {
		b->line_verdict = lv;
		b->line_verdict_source = LV_COMPUTED;
	}
	b->swiotlb = truth(boot_fact(b, "probe.swiotlb"));
	if (b->swiotlb >= 0) {
		b->swiotlb_source = "probe";
	} else if (b->has_console && (b->swiotlb_mapped || b->end_marker ||
				      (b->verdict && (!strcmp(b->verdict, "pass") ||
						      !strcmp(b->verdict, "test-fail"))))) {
		b->swiotlb = b->swiotlb_mapped;
		b->swiotlb_source = "console";
	}
}

static void derive_flavour(struct flavour *f)
{
	if (f->l1_cache_shift >= 0 && f->l1_cache_shift < 16)
		f->l1_bytes = 1L << f->l1_cache_shift;
	if (f->has_config) {
		f->smt = !strcmp(kf_config_value(&f->cfg, "SCHED_SMT"), "y");
		f->microcode = !strcmp(kf_config_value(&f->cfg, "MICROCODE"), "y");
	}
	f->warned = f->build.compiled == 0 && f->full.warnings >= 0 ? &f->full : &f->build;
	for (size_t i = 0; i < f->nboots; i++)
		derive_boot(&f->boots[i], f);
}

static const struct report *sort_report;

static long cpu_index(const struct report *r, const char *name)
{
	for (size_t i = 0; i < r->ncpus; i++)
		if (!strcmp(r->cpus[i].name, name))
			return (long)i;
	return -1;
}

static int by_cpu(const void *a, const void *b)
{
	const struct boot *x = a, *y = b;
	long i = cpu_index(sort_report, x->cpu), j = cpu_index(sort_report, y->cpu);

	if (i != j)
		return i < j ? -1 : 1;
	return strcmp(x->cpu, y->cpu);
}

/* Booted models missing from boot/cpu-models go last; boots in that order. */
static void sort_boots(struct report *r, struct flavour *f)
{
	for (size_t i = 0; i < f->nboots; i++)
		report_add_cpu(r, f->boots[i].cpu, NULL);
	sort_report = r;
	if (f->nboots)
		qsort(f->boots, f->nboots, sizeof(*f->boots), by_cpu);
}

/*
 * How many other flavours' last full builds overlapped each one's in time:
 * builds that share the machine's cores take longer in wall time, so the
 * report puts this count beside the wall and CPU seconds.
 */
static void builds_alongside(struct report *r)
{
	for (size_t i = 0; i < r->nfl; i++) {
		struct flavour *f = &r->fl[i];
		const struct kf_build_run *a = &f->full;

		if (a->started < 0 || a->finished < 0)
			continue;
		f->alongside = 0;
		for (size_t k = 0; k < r->nfl; k++) {
			const struct kf_build_run *b = &r->fl[k].full;

			if (k != i && b->started >= 0 && b->finished >= 0 &&
			    b->started < a->finished && a->started < b->finished)
				f->alongside++;
		}
	}
}

void report_derive(struct report *r)
{
	for (size_t i = 0; i < r->nfl; i++) {
		derive_flavour(&r->fl[i]);
		sort_boots(r, &r->fl[i]);
	}
	builds_alongside(r);
	r->release = NULL;
	for (size_t i = 0; i < r->nfl && !r->release; i++)
		r->release = r->fl[i].release;
	for (size_t i = 0; i < r->nfl && !r->release; i++)
		for (size_t k = 0; k < r->fl[i].nboots && !r->release; k++)
			r->release = r->fl[i].boots[k].release;
	if (!r->release)
		r->release = r->kver;
}

const char *flavour_status(const struct flavour *f)
{
	if (f->nboots)
		return "booted";
	if (f->has_build)
		return "built";
	if (f->has_config)
		return "configured";
	return "not configured";
}
