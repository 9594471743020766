// SPDX-License-Identifier: GPL-2.0
/*
 * rows.c - what the table and report.html share (render.h): the flavour
 * rows, with label, value and the one "missing" text of each; the verdicts
 * and their colours; the boot cells and the groups of run-time facts under
 * them; number formats. A value is missing for one of two reasons: its
 * stage never ran ("not built"), or the stage ran and left no such value
 * ("—"; also for a flavour without a config, whose status row already says
 * "not configured").
 */
#include "render.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define UNKNOWN		"—"
#define NOT_BUILT	"not built"

const struct row report_rows[ROW_NR] = {
	[ROW_STATUS]		= { "status", NULL, RK_TEXT, NULL },
	[ROW_DESCRIPTION]	= { "description", NULL, RK_TEXT, NULL },
	[ROW_CPU]		= { "cpu choice", "CPU choice", RK_CODE, NULL },
	[ROW_MARCH]		= { "-march", NULL, RK_MARCH, NULL },
	[ROW_L1]		= { "L1 line bytes", NULL, RK_NUMBER, NULL },
	[ROW_SMT]		= { "SMT", NULL, RK_CODE, NULL },
	[ROW_MICROCODE]		= { "microcode", NULL, RK_MICROCODE, NULL },
	[ROW_BZIMAGE]		= { "bzImage bytes", NULL, RK_SIZE, NULL },
	[ROW_TEXT]		= { ".text", NULL, RK_SIZE, ".text" },
	[ROW_CODE]		= { "code bytes", NULL, RK_BYTES, NULL },
	[ROW_DATA]		= { ".data", NULL, RK_SIZE, ".data" },
	[ROW_PERCPU]		= { ".data..percpu", NULL, RK_SIZE, ".data..percpu" },
	[ROW_BUILD_WALL]	= { "build wall", NULL, RK_SECONDS, NULL },
	[ROW_BUILD_CPU]		= { "build CPU", NULL, RK_SECONDS, NULL },
	[ROW_BUILD_SECONDS]	= { "build seconds", NULL, RK_SECONDS, NULL },
	[ROW_CCACHE]		= { "build ccache", NULL, RK_CCACHE, NULL },
	[ROW_CCACHE_REMOTE]	= { "  shared cache", NULL, RK_CCACHE, NULL },
	[ROW_WARNINGS]		= { "build warnings", NULL, RK_WARNINGS, NULL },
	[ROW_SYSTEMD]		= { "systemd needs", "systemd needs (before any build)", RK_SYSTEMD, NULL },
};

/* A size row's bytes for flavour i, -1 when unknown. */
static long long bytes(const struct report *r, size_t i, enum row_id id)
{
	const struct flavour *f = &r->fl[i];

	if (id == ROW_BZIMAGE)
		return f->bzimage_bytes;
	if (id == ROW_CODE)
		return f->code_bytes;
	return flavour_section(f, report_rows[id].section);
}

/* Sizes show the difference to the first flavour that has one. */
static void size_value(const struct report *r, size_t i, enum row_id id,
		       struct row_value *v)
{
	v->num = bytes(r, i, id);
	v->ref = -1;
	for (size_t k = 0; k < i; k++) {
		long long b = bytes(r, k, id);

		if (b >= 0) {
			v->ref = b;
			break;
		}
	}
	if (v->num < 0)
		v->missing = r->fl[i].has_build ? UNKNOWN : NOT_BUILT;
}

struct row_value row_value(const struct report *r, size_t i, enum row_id id)
{
	const struct flavour *f = &r->fl[i];
	struct row_value v = { .num = -1, .ref = -1, .wall = NAN, .cpu = NAN,
			       .seconds = NAN, .alongside = -1, .compiled = -1 };

	switch (id) {
	case ROW_STATUS:
		v.text = flavour_status(f);
		break;
	case ROW_DESCRIPTION:
		v.text = f->description;
		v.missing = f->description ? NULL : UNKNOWN;
		break;
	case ROW_CPU:
		v.text = f->cpu_choice ? f->cpu_choice : "(none)";
		v.missing = f->has_config ? NULL : UNKNOWN;
		break;
	case ROW_MARCH:
		v.text = f->march;
		v.mtune = f->mtune;
		v.missing = f->has_build ? NULL : NOT_BUILT;
		break;
	case ROW_L1:
		v.num = f->l1_bytes;
		v.missing = f->l1_bytes > 0 ? NULL : UNKNOWN;
		break;
	case ROW_SMT:
		v.text = f->smt ? "SCHED_SMT=y" : "n";
		v.missing = f->smt < 0 ? UNKNOWN : NULL;
		break;
	case ROW_MICROCODE:
		v.num = f->microcode;
		v.intel = !strcmp(kf_config_value(&f->cfg, "MICROCODE_INTEL"), "y");
		v.amd = !strcmp(kf_config_value(&f->cfg, "MICROCODE_AMD"), "y");
		v.missing = f->microcode < 0 ? UNKNOWN : NULL;
		break;
	case ROW_BZIMAGE:
	case ROW_TEXT:
	case ROW_CODE:
	case ROW_DATA:
	case ROW_PERCPU:
		size_value(r, i, id, &v);
		break;
	case ROW_BUILD_WALL:
	case ROW_BUILD_CPU:
	case ROW_BUILD_SECONDS:
		v.wall = f->full.wall_seconds;
		v.cpu = f->full.cpu_seconds;
		v.seconds = f->build.wall_seconds;
		v.alongside = f->alongside;
		v.compiled = f->build.compiled;
		if (!f->has_build)
			v.missing = NOT_BUILT;
		else if (id == ROW_BUILD_CPU ? isnan(v.cpu) : isnan(v.wall) && isnan(v.seconds))
			v.missing = UNKNOWN;
		break;
	case ROW_CCACHE:
	case ROW_CCACHE_REMOTE:
		v.build = &f->build_rec;
		if (!f->has_build)
			v.missing = NOT_BUILT;
		else if (f->build_rec.ccache_enabled < 0 ||
			 (id == ROW_CCACHE_REMOTE && !f->build_rec.remote.has))
			v.missing = UNKNOWN;
		break;
	case ROW_WARNINGS:
		v.num = f->warned->warnings;
		if (v.num < 0)
			v.missing = f->has_build ? UNKNOWN : NOT_BUILT;
		break;
	case ROW_SYSTEMD:
		/* A config record from before the check has none: unknown. */
		v.num = (long long)f->systemd.nmissing;
		v.missing = f->systemd.checked ? NULL : UNKNOWN;
		break;
	case ROW_NR:
		break;
	}
	return v;
}

const struct verdict report_verdicts[NR_VERDICTS] = {
	{ "pass", "32" }, { "test-fail", "33" }, { "panic", "31" }, { "oops", "31" },
	{ "hang", "31" }, { "refused", "36" }, { "qemu-error", "31" },
};

const struct verdict *verdict_of(const char *v)
{
	for (size_t i = 0; v && i < NR_VERDICTS; i++)
		if (!strcmp(v, report_verdicts[i].name))
			return &report_verdicts[i];
	return NULL;
}

struct boot_cell boot_cell(const struct report *r, size_t i, size_t c)
{
	const struct flavour *f = &r->fl[i];
	const char *cpu = r->cpus[c].name;
	struct boot_cell x = { flavour_boot(f, cpu), f->default_cpu && !strcmp(f->default_cpu, cpu),
			       NULL, 0 };

	if (x.b) {
		x.want = x.b->expected ? x.b->expected : r->cpus[c].expect;
		x.unexpected = x.b->verdict && x.want && strcmp(x.b->verdict, x.want) != 0;
	}
	return x;
}

const struct boot_row boot_rows[BR_NR] = {
	[BR_GDT] = { "  GDT", { "GDT align", "GDT distance", "size/limit" } },
	[BR_SHARE] = { "  line shared by", { "2 GDTs share (kernel/CPU line)",
					     "GDT + data share (kernel/CPU line)" } },
	[BR_CPU] = { "  cores, idle", { "cores x threads/core", "idle" } },
	[BR_IO] = { "  SWIOTLB, ucode", { "SWIOTLB", "pool bytes", "microcode" } },
};

void fmt_size(char *buf, size_t len, long long bytes)
{
	if (bytes < 0)
		snprintf(buf, len, "—");
	else if (bytes >= 1024LL * 1024)
		snprintf(buf, len, "%.2fM", bytes / (1024.0 * 1024.0));
	else if (bytes >= 1024)
		snprintf(buf, len, "%.1fK", bytes / 1024.0);
	else
		snprintf(buf, len, "%lld", bytes);
}

static long long nonneg(long long v)
{
	return v < 0 ? 0 : v;
}

void fmt_ccache(char *buf, size_t len, const struct kf_build_rec *b)
{
	if (b->ccache_enabled == 0)
		snprintf(buf, len, "off");
	else
		snprintf(buf, len, "%lld/%lld hits", nonneg(b->ccache_hits),
			 nonneg(b->ccache_hits) + nonneg(b->ccache_misses));
}

void fmt_ccache_remote(char *buf, size_t len, const struct kf_build_rec *b)
{
	const struct kf_ccache_remote *r = &b->remote;
	long long failed = nonneg(r->errors) + nonneg(r->timeouts);

	if (!r->has)
		snprintf(buf, len, "%s", "");
	else if (r->used == 0)
		snprintf(buf, len, "off");
	else if (failed)
		snprintf(buf, len, "%lld hits, %lld failed", nonneg(r->hits), failed);
	else
		snprintf(buf, len, "%lld hits", nonneg(r->hits));
}

void fmt_delta(char *buf, size_t len, long long delta)
{
	long long a = delta < 0 ? -delta : delta;
	const char *sign = delta < 0 ? "-" : "+";

	if (!delta)
		snprintf(buf, len, "±0");
	else if (a >= 1024LL * 1024)
		snprintf(buf, len, "%s%.1fM", sign, a / (1024.0 * 1024.0));
	else if (a >= 1024)
		snprintf(buf, len, "%s%.1fK", sign, a / 1024.0);
	else
		snprintf(buf, len, "%s%lld", sign, a);
}

/* ---- the "System boot" block (docs/system-boot.md) ---------------------- */

const char *const sys_row_labels[SYS_NR] = {
	[SYS_VERDICT]	= "system boot",
	[SYS_MULTI_USER] = "multi-user.target",
	[SYS_FAILED]	= "failed units",
	[SYS_MODULES]	= "modules loaded",
	[SYS_ROOT]	= "root disk driver",
	[SYS_PACKAGE]	= "image package",
	[SYS_INITRD]	= "initrd",
	[SYS_MEMORY]	= "memory in use",
};

const struct kf_sysboot_rec *flavour_sysboot(const struct flavour *f)
{
	for (size_t i = 0; i < f->nsysboots; i++)
		if (f->default_cpu && !strcmp(f->sysboots[i].b.cpu, f->default_cpu))
			return &f->sysboots[i];
	return f->nsysboots ? &f->sysboots[0] : NULL;
}

int report_has_system(const struct report *r)
{
	for (size_t i = 0; i < r->nfl; i++)
		if (r->fl[i].has_deb || r->fl[i].has_image || r->fl[i].nsysboots)
			return 1;
	return 0;
}

/* "a b c" of n names, cut to what fits in len. */
static void names(char *buf, size_t len, char *const *v, size_t n)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && at + 1 < len; i++) {
		int w = snprintf(buf + at, len - at, "%s%s", i ? " " : "", v[i]);

		if (w < 0)
			break;
		at += (size_t)w;
	}
}

void sys_row_text(char *buf, size_t len, const struct flavour *f, enum sys_row id)
{
	const struct kf_sysboot_rec *s = flavour_sysboot(f);
	const struct kf_deb_pkg *p = f->has_deb ? kf_deb_image(&f->deb) : NULL;
	char a[32], list[256];

	snprintf(buf, len, UNKNOWN);
	switch (id) {
	case SYS_PACKAGE:
		if (!p) {
			snprintf(buf, len, "not packaged");
			return;
		}
		fmt_size(a, sizeof(a), p->bytes);
		if (p->modules >= 0)
			snprintf(buf, len, "%s, %lld module%s", a, p->modules,
				 p->modules == 1 ? "" : "s");
		else
			snprintf(buf, len, "%s", a);
		return;
	case SYS_INITRD:
		if (!f->has_image) {
			snprintf(buf, len, "no system image");
			return;
		}
		fmt_size(a, sizeof(a), f->image.initrd.bytes);
		if (f->image.initrd_modules >= 0)
			snprintf(buf, len, "%s, %lld module%s", a, f->image.initrd_modules,
				 f->image.initrd_modules == 1 ? "" : "s");
		else
			snprintf(buf, len, "%s", a);
		return;
	default:
		break;
	}
	if (!s) {
		snprintf(buf, len, "not booted");
		return;
	}
	switch (id) {
	case SYS_VERDICT:
		snprintf(buf, len, "%s on %s%s%s", s->b.verdict ? s->b.verdict : UNKNOWN,
			 s->b.cpu, s->cause ? ": " : "", s->cause ? s->cause : "");
		break;
	case SYS_MULTI_USER:
		if (s->multi_user_reached == 0)
			snprintf(buf, len, "not reached");
		else if (!isnan(s->multi_user_seconds))
			snprintf(buf, len, "%.1f s", s->multi_user_seconds);
		break;
	case SYS_FAILED:
		if (s->multi_user_reached <= 0 && !s->nfailed_units)
			break;
		names(list, sizeof(list), s->failed_units, s->nfailed_units);
		snprintf(buf, len, "%s", s->nfailed_units ? list : "none");
		break;
	case SYS_MODULES:
		if (s->multi_user_reached <= 0 && !s->nmodules)
			break;
		names(list, sizeof(list), s->modules, s->nmodules);
		snprintf(buf, len, "%zu%s%s", s->nmodules, s->nmodules ? ": " : "", list);
		break;
	case SYS_ROOT:
		if (s->nroot_modules) {
			names(list, sizeof(list), s->root_modules, s->nroot_modules);
			snprintf(buf, len, "%s (module)", list);
		} else if (s->nroot_drivers) {
			names(list, sizeof(list), s->root_drivers, s->nroot_drivers);
			snprintf(buf, len, "%s (built in)", list);
		} else if (f->has_image && f->image.root_driver) {
			snprintf(buf, len, "%s (%s)", f->image.root_driver,
				 f->image.root_driver_in ? f->image.root_driver_in : "?");
		}
		break;
	case SYS_MEMORY:
		if (s->mem_used_kb >= 0 && s->mem_total_kb > 0)
			snprintf(buf, len, "%lld of %lld MiB", s->mem_used_kb / 1024,
				 s->mem_total_kb / 1024);
		break;
	default:
		break;
	}
}
