// SPDX-License-Identifier: GPL-2.0
/*
 * bench: the table of what was measured and the ratios beside their goals,
 * rewritten to --report after every step.
 */
#include "bench.h"
#include "../lib/kf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void row(FILE *t, const char *fmt_num, struct run r, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void row(FILE *t, const char *fmt_num, struct run r, const char *fmt, ...)
{
	char label[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(label, sizeof(label), fmt, ap);
	va_end(ap);
	if (r.wall < 0) {
		fprintf(t, "%-60s %17s\n", label, "not measured");
		return;
	}
	fprintf(t, "%-60s ", label);
	fprintf(t, fmt_num, r.wall, r.cpu);
	fputc('\n', t);
}

/* A ratio line with its goal; "n/a" until both sides were measured. */
static void ratio(FILE *t, const char *label, double num, double den, const char *goal)
{
	if (num < 0 || den <= 0)
		fprintf(t, "  %-56s %8s   %s\n", label, "n/a", goal);
	else
		fprintf(t, "  %-56s %8.3f   %s\n", label, num / den, goal);
}

void table(void)
{
	char *text, when[64];
	size_t len;
	FILE *t = open_memstream(&text, &len);
	const char *f0 = b.fl[0];
	double floor_first = m.first.cpu / b.jobs;

	if (!t)
		kf_die(2, "out of memory");
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", gmtime(&b.start_time));
	fprintf(t, "kflavour bench, kver %s, %d jobs, started %s, %.0f min so far;"
		" load average %.1f at start, %.1f now\n\n", b.kver, b.jobs, when,
		difftime(time(NULL), b.start_time) / 60, b.load_start, loadavg());
	fprintf(t, "%-60s %8s %8s\n", "measurement", "wall s", "cpu s");
	for (int i = 0; i < b.nf; i++)
		row(t, "%8.1f %8.1f", m.seq[i], "1. cold build, own make -j%d: %s", b.jobs, b.fl[i]);
	row(t, "%8.1f %8.1f", m.seq_total, "1. cold builds, one make per flavour: total");
	row(t, "%8.1f %8.1f", m.first, "2. first make on an empty out= (all stages)");
	row(t, "%8.1f %8.1f", m.first_build, "2. its build stage (records; boots run inside)");
	row(t, "%8.1f %8.1f", m.matrix, "3. boot matrix, %d boots", m.boots);
	if (m.boots)
		fprintf(t, "%-60s %8.1f\n%-60s %8.1f\n", "3. one boot, median of the matrix",
			m.boot_median, "3. one boot, slowest of the matrix", m.boot_max);
	row(t, "%8.2f %8.2f", m.noop_all, "4. no-op make, every stage (best of 3)");
	row(t, "%8.2f %8.2f", m.noop_build, "4. no-op make build (best of 3)");
	row(t, "%8.2f %8.2f", m.raw_noop, "4. no-op raw Kbuild, one flavour after another");
	row(t, "%8.1f %8.1f", m.cc_cold, "5. cold with ccache (filling it): %s", f0);
	row(t, "%8.1f %8.1f", m.cc_warm, "5. ccache-warm, in another out=: %s", f0);
	if (m.cc_warm.wall >= 0)
		fprintf(t, "%-60s %ld hits, %ld misses\n", "5. warm build's ccache", m.cc_hits,
			m.cc_misses);
	row(t, "%8.1f %8.1f", m.toggle, "6. rebuild after dropping microcode: %s", f0);
	if (m.toggle.wall >= 0)
		fprintf(t, "%-60s %ld of %ld\n", "6. objects compiled by it, of a cold build",
			m.toggle_compiled, m.cold_compiled);
	row(t, "%8.1f %8.1f", m.raw, "7. cold raw Kbuild: %s", f0);
	if (b.distro) {
		row(t, "%8.1f %8.1f", m.d_config, "8. make config: %s", b.distro);
		row(t, "%8.1f %8.1f", m.d_make, "8. make (build, boots, report): %s", b.distro);
		row(t, "%8.1f %8.1f", m.d_build, "8. its build stage (record), %ld objects", m.d_compiled);
		row(t, "%8.1f %8.1f", m.d_raw, "8. cold raw Kbuild: %s", b.distro);
	}
	row(t, "%8.1f %8.1f", m.jobs, "9. cold builds, all in one make (one jobserver)");
	row(t, "%8.1f %8.1f", m.farm, "10. cold through 3 distccd (-j8, CCACHE=0): %s", f0);
	if (m.farm.wall >= 0)
		fprintf(t, "%-60s %8ld %8ld\n", "10. its compiles: remote, here", m.farm_remote,
			m.farm_local);
	row(t, "%8.1f %8.1f", m.serial, "10. serial part: one object deleted, raw Kbuild");
	row(t, "%8.1f %8.1f", m.c2c_make, "11. make c2c, %d flavours x %d runs, fresh c2c state", b.nf,
	    C2C_RUNS);
	row(t, "%8.1f %8.1f", m.c2c_plugin, "11. one c2c boot (pipe) with the plugin, median of %d",
	    C2C_ROUNDS);
	row(t, "%8.1f %8.1f", m.c2c_plain, "11. the same boot without it, median of %d", C2C_ROUNDS);
	row(t, "%8.1f %8.1f", m.rc_cold, "12. empty local cache, empty shared cache (fills): %s", f0);
	row(t, "%8.1f %8.1f", m.rc_warm, "12. empty local cache, shared cache warm: %s", f0);
	if (m.rc_warm.wall >= 0)
		fprintf(t, "%-60s %lld of %lld\n", "12. its shared cache hits, of the objects stored",
			m.rc_warm_hits, m.rc_cold_stored);
	row(t, "%8.1f %8.1f", m.rc_none, "12. empty local cache, no shared cache: %s", f0);
	row(t, "%8.1f %8.1f", m.rc_down, "12. empty local cache, shared cache unreachable: %s", f0);
	if (b.sysboot) {
		row(t, "%8.1f %8.1f", m.sysboot, "13. system boot to multi-user.target, median of %d: %s",
		    C2C_ROUNDS, b.sysboot);
		row(t, "%8.1f %8.1f", m.sysboot_static, "13. static-init boot of the same kernel, median of %d",
		    C2C_ROUNDS);
		if (m.sysboot_mu >= 0)
			fprintf(t, "%-60s %8.1f\n", "13. multi-user.target reached at (systemd-analyze)",
				m.sysboot_mu);
	}
	fprintf(t, "\nratios (goal beside each)\n");
	ratio(t, "one jobserver / one make per flavour (wall)", m.jobs.wall, m.seq_total.wall,
	      "<= 1");
	ratio(t, "first make / its CPU floor (cpu / jobs)", m.first.wall, floor_first, "<= 1.05");
	ratio(t, "builds under one jobserver / their CPU floor", m.jobs.wall, m.jobs.cpu / b.jobs,
	      "(step 9)");
	ratio(t, "slowest boot, seconds", m.boot_max, 1, "<= 2");
	ratio(t, "boot matrix, seconds", m.matrix.wall, 1, "<= 20");
	ratio(t, "no-op make, every stage, seconds", m.noop_all.wall, 1, "< 3");
	ratio(t, "make build / raw Kbuild, cold (wall)", m.seq[0].wall, m.raw.wall, "~1");
	ratio(t, "ccache filling / CCACHE=0, cold (wall)", m.cc_cold.wall, m.seq[0].wall, "<= 1.05");
	ratio(t, "ccache-warm / CCACHE=0 cold (wall)", m.cc_warm.wall, m.seq[0].wall, "<= 0.25");
	ratio(t, "fragment toggle / cold build (wall)", m.toggle.wall, m.seq[0].wall, "<= 0.10");
	ratio(t, "farm: CPU here per object, all compiles remote",
	      m.farm.wall < 0 ? -1 : m.farm.cpu - m.serial.cpu, (double)m.farm_compiled, "(model)");
	ratio(t, "CPU per object, all compiled here (step 7)",
	      m.farm.wall < 0 || m.raw.wall < 0 ? -1 : m.raw.cpu - m.serial.cpu,
	      (double)m.farm_compiled, "(model)");
	ratio(t, "shared cache warm / its cold build (wall)", m.rc_warm.wall, m.rc_cold.wall,
	      "<= 0.35");
	ratio(t, "shared cache unreachable / none (wall)", m.rc_down.wall, m.rc_none.wall, "<= 1.05");
	ratio(t, "shared cache unreachable / none (CPU)", m.rc_down.cpu, m.rc_none.cpu, "(~1)");
	ratio(t, "raw Kbuild no-op / make build no-op (wall)", m.raw_noop.wall, m.noop_build.wall,
	      "(> 1: ours is faster)");
	/* issue 45: both under make c2c's tcg= (multi by default) */
	ratio(t, "c2c: boot with the plugin / without it (wall)", m.c2c_plugin.wall,
	      m.c2c_plain.wall, "<= 10");
	ratio(t, "c2c: make c2c, every flavour x 5 runs, seconds", m.c2c_make.wall, 1,
	      "<= 300 (3 tiny flavours)");
	if (b.sysboot)
		ratio(t, "system boot / static-init boot, same kernel (wall)", m.sysboot.wall,
		      m.sysboot_static.wall, "(measured)");
	if (b.distro) {
		ratio(t, "distro: build stage / raw Kbuild, cold (wall)", m.d_build.wall,
		      m.d_raw.wall, "~1");
		/* a sum is n/a until both of its parts were measured */
		ratio(t, "distro: first make / its CPU floor",
		      m.d_make.wall < 0 ? -1 : m.d_config.wall + m.d_make.wall,
		      (m.d_config.cpu + m.d_make.cpu) / b.jobs, "<= 1.05");
		ratio(t, "distro: make config, seconds", m.d_config.wall, 1, "<= 15");
	}
	fclose(t);
	if (b.report && kf_write_atomic(b.report, text, len) < 0)
		kf_die(2, "cannot write %s: %s", b.report, strerror(errno));
	free(text);
}
