// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for report/logdiff.c: console normalisation on real-looking
 * lines and recorded logs, and the line diff.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kf.h"
#include "../../lib/logdiff.h"

#define FIXTURE "tests/data/report/out/6.1"

/* Normalise one line and compare; want NULL: the line is dropped. */
static void norm(const char *raw, const char *want)
{
	char *got = ld_normalise(raw);

	if (!want) {
		if (got)
			fail_msg("'%s' kept as '%s', wanted it dropped", raw, got);
		return;
	}
	if (!got) {
		fail_msg("'%s' dropped, wanted '%s'", raw, want);
		return;
	}
	if (strcmp(got, want) != 0)
		fail_msg("'%s'\n  gave   '%s'\n  wanted '%s'", raw, got, want);
	free(got);
}

static void strips_timestamps_and_prefixes(void **state)
{
	(void)state;
	norm("[    1.234567] smp: Brought up 1 node, 2 CPUs", "smp: Brought up 1 node, 2 CPUs");
	norm("[+   0.312] [    0.000800] x86/fpu: x87 FPU will use FXSAVE",
	     "x86/fpu: x87 FPU will use FXSAVE");
	norm("[+  12.000] KTAP version 1", "KTAP version 1");
	norm("[+   0.310]! nonce e2d8c619", NULL);
	norm("[+   0.000]! command: qemu-system-x86_64 -accel tcg -kernel out/6.1/mpsc/bzImage", NULL);
	norm("[+   0.309]! verdict refused, expected refused, 0.3 s",
	     "! verdict refused, expected refused, <n> s");
	norm("[+   3.412]! qemu exit status 33", "! qemu exit status 33");
	norm("\033[0;32mok 1 mount_proc\033[0m\r", "ok 1 mount_proc");
	norm("[    0.000000] ", NULL);
	norm("", NULL);
}

static void drops_memory_map(void **state)
{
	(void)state;
	norm("[    0.000000] BIOS-e820: [mem 0x0000000000100000-0x000000001ffdffff] usable", NULL);
	norm("[    0.014300]   Normal   empty", NULL);
	norm("[    0.014300]   Normal   [mem 0x0000000100000000-0x000000017fffffff]", NULL);
	norm("[    0.014000] Zone ranges:", NULL);
	norm("[    0.014600]   node   0: [mem 0x0000000000001000-0x000000000009efff]", NULL);
	norm("[    0.016000] On node 0, zone DMA: 1 pages in unavailable ranges", NULL);
	norm("[    0.018300] [mem 0x20000000-0xfeffbfff] available for PCI devices", NULL);
	norm("[    0.000917] last_pfn = 0x1ffe0 max_arch_pfn = 0x400000000", NULL);
	norm("[    0.002012] x86/PAT: Configuration [0-7]: WB  WT  UC- UC  WB  WT  UC- UC  ", NULL);
	norm("[    0.020500] Built 1 zonelists, mobility grouping on.  Total pages: 128872", NULL);
}

static void hides_addresses_and_measurements(void **state)
{
	(void)state;
	norm("software IO TLB: mapped [mem 0x00000000bbfe0000-0x00000000bffe0000] (64MB)",
	     "software IO TLB: mapped [mem <addr>-<addr>] (<n>MB)");
	norm("tsc: Detected 2993.018 MHz processor", "tsc: Detected <n> MHz processor");
	norm("Calibrating delay loop (skipped), value calculated using timer frequency.. "
	     "5986.04 BogoMIPS (lpj=11972072)",
	     "Calibrating delay loop (skipped), value calculated using timer frequency.. "
	     "<n> BogoMIPS (lpj=<n>)");
	norm("smpboot: Total of 2 processors activated (11972.08 BogoMIPS)",
	     "smpboot: Total of 2 processors activated (<n> BogoMIPS)");
	norm("Memory: 495880K/523768K available (2594K kernel code, 648K rwdata, 0K cma-reserved)",
	     "Memory: <n>K/<n>K available (<n>K kernel code, <n>K rwdata, <n>K cma-reserved)");
	norm("Dentry cache hash table entries: 65536 (order: 7, 524288 bytes, linear)",
	     "Dentry cache hash table entries: <n> (order: <n>, <n> bytes, linear)");
	norm("Freeing unused kernel image (initmem) memory: 764K",
	     "Freeing unused kernel image (initmem) memory: <n>K");
	norm("clocksource: tsc-early: mask: 0xffffffffffffffff max_cycles: 0x2b2479b4c9e, "
	     "max_idle_ns: 440795244210 ns",
	     "clocksource: tsc-early: mask: <addr> max_cycles: <addr>, max_idle_ns: <n> ns");
	norm("RIP: 0010:ffffffff81000000 code", "RIP: 0010:<hex> code");
	norm("Linux version 6.1.192 (root@kflavour) (gcc (Debian 12.2.0-14) 12.2.0) #1 SMP Wed Dec  3",
	     "Linux version 6.1.192 <build>");
	/* SeaBIOS clears the screen and leaves its dots before the banner. */
	norm("[+   0.186] Booting from ROM..\033c\033[?7l\033[2J\033[0m.Linux version 6.1.192+ "
	     "(root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0) #6 SMP Thu Dec  3 00:55:49 UTC 2026",
	     "Linux version 6.1.192+ <build>");
	norm("Write protecting the kernel read-only data: 8192k",
	     "Write protecting the kernel read-only data: <n>k");
	norm("APIC delta adjusted to PM-Timer: 6250267 (5967206)", NULL);
	norm("input: AT Translated Set 2 keyboard as /devices/platform/i8042/serio0/input/input1", NULL);
}

static void hides_nonce_and_times(void **state)
{
	(void)state;
	norm("Command line: console=ttyS0 panic=-1 kflavour.nonce=5f1c2a9e quiet",
	     "Command line: console=ttyS0 panic=-1 kflavour.nonce=<nonce> quiet");
	norm("kflavour-end 5f1c2a9e", "kflavour-end <nonce>");
	norm("kflavour-uptime 2.41", "kflavour-uptime <n>");
	norm("kf: mem.total_kb=5030000", "kf: mem.total_kb=<n>");
	norm("kf: guest.uptime_seconds=2.1", "kf: guest.uptime_seconds=<n>");
}

static void keeps_what_matters(void **state)
{
	(void)state;
	norm("SLUB: HWalign=128, Order=0-3, MinObjects=0, CPUs=2, Nodes=1",
	     "SLUB: HWalign=128, Order=0-3, MinObjects=0, CPUs=2, Nodes=1");
	norm("smpboot: CPU0: Intel(R) Xeon(TM) CPU 3.60GHz (family: 0xf, model: 0x4, stepping: 0x1)",
	     "smpboot: CPU0: Intel(R) Xeon(TM) CPU 3.60GHz (family: 0xf, model: 0x4, stepping: 0x1)");
	norm("Performance Events: unsupported Netburst CPU model 4 no PMU driver, software events only.",
	     "Performance Events: unsupported Netburst CPU model 4 no PMU driver, software events only.");
	norm("PCI-DMA: Using software bounce buffering for IO (SWIOTLB)",
	     "PCI-DMA: Using software bounce buffering for IO (SWIOTLB)");
	norm("PCI: CLS 0 bytes, default 64", "PCI: CLS <n> bytes, default 64");
	norm("flavour-probe: line_verdict=too-small", "flavour-probe: line_verdict=too-small");
	norm("kf: cpu.cache_alignment=128", "kf: cpu.cache_alignment=128");
	norm("kf: cache.index0.size=32K", "kf: cache.index0.size=32K");
	norm("kf: uname.release=6.1.192", "kf: uname.release=6.1.192");
	norm("percpu: Embedded 31 pages/cpu s120424 r8192 d28568 u2097152",
	     "percpu: Embedded 31 pages/cpu s120424 r8192 d28568 u2097152");
	norm("Console: colour VGA+ 80x25", "Console: colour VGA+ 80x25");
	norm("This kernel requires an x86-64 CPU, but only detected an i686 CPU.",
	     "This kernel requires an x86-64 CPU, but only detected an i686 CPU.");
}

static void parse(struct ld_log *l, const char *text)
{
	ld_log_parse(l, text);
}

static void diff_of_small_logs(void **state)
{
	struct ld_log a, b;
	struct ld_diff d;

	(void)state;
	parse(&a, "one\ntwo\nthree\nfour\nfive\nsix\nseven\n");
	parse(&b, "one\ntwo\nthree\nFOUR\nfive\nsix\nseven\neight\n");
	ld_diff(&d, &a, &b, 1);
	assert_int_equal(d.removed, 1);
	assert_int_equal(d.added, 2);
	/* @@ three -four +FOUR five @@ seven +eight */
	assert_int_equal(d.n, 8);
	assert_int_equal(d.e[0].op, LD_HUNK);
	assert_string_equal(d.e[0].text, "@@ line 3 / line 3 @@");
	assert_int_equal(d.e[1].op, LD_SAME);
	assert_string_equal(d.e[2].text, "four");
	assert_int_equal(d.e[2].op, LD_DEL);
	assert_int_equal(d.e[3].op, LD_ADD);
	assert_int_equal(d.e[5].op, LD_HUNK);
	assert_int_equal(d.e[7].op, LD_ADD);
	assert_string_equal(d.e[7].text, "eight");
	assert_int_equal(d.e[7].b_line, 8);
	ld_diff_free(&d);

	/* No context: only the changes; -1: everything. */
	ld_diff(&d, &a, &b, 0);
	assert_int_equal(d.n, 5);
	ld_diff_free(&d);
	ld_diff(&d, &a, &b, -1);
	assert_int_equal(d.n, 1 + 9);
	ld_diff_free(&d);
	ld_log_free(&a);
	ld_log_free(&b);

	/* Empty against something, and against empty. */
	parse(&a, "");
	parse(&b, "x\ny\n");
	ld_diff(&d, &a, &b, 2);
	assert_int_equal(d.added, 2);
	assert_int_equal(d.removed, 0);
	ld_diff_free(&d);
	ld_diff(&d, &a, &a, 2);
	assert_int_equal(d.n, 0);
	ld_diff_free(&d);
	ld_log_free(&a);
	ld_log_free(&b);
}

static char *fixture(const char *rel)
{
	char *path = kf_xasprintf("%s/%s", FIXTURE, rel), *text;

	text = kf_read_file(path, NULL);
	if (!text)
		fail_msg("%s: cannot read (run from the top of the checkout)", path);
	free(path);
	return text;
}

/* Replace every 'from' by 'to' (same length). */
static void swap(char *text, const char *from, const char *to)
{
	size_t n = strlen(to);

	for (char *p = text; (p = strstr(p, from)); p += n)
		for (size_t i = 0; i < n; i++)
			p[i] = to[i];
}

static int has_edit(const struct ld_diff *d, enum ld_op op, const char *text)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->e[i].op == op && !strcmp(d->e[i].text, text))
			return 1;
	return 0;
}

/* Two boots of one kernel: other nonce, times and calibration: no diff. */
static void recorded_boot_against_itself(void **state)
{
	char *x = fixture("generic/boot/qemu64.log"), *y = kf_xstrdup(x);
	struct ld_log a, b;
	struct ld_diff d;

	(void)state;
	swap(y, "bcc3a6f0", "0badc0de");
	swap(y, "2094.903", "3001.562");
	swap(y, "[+   0.8", "[+   1.7");
	swap(y, "[    0.0", "[    0.1");
	parse(&a, x);
	parse(&b, y);
	assert_true(a.n > 100);
	ld_diff(&d, &a, &b, 2);
	if (d.n)
		ld_diff_print(stderr, &d, "a", "b");
	assert_int_equal(d.n, 0);
	ld_diff_free(&d);
	ld_log_free(&a);
	ld_log_free(&b);
	free(x);
	free(y);
}

/* generic (64-byte lines, 512M) against mpsc (128, 5G, SMT), both on nocona. */
static void recorded_flavour_against_flavour(void **state)
{
	char *x = fixture("generic/boot/nocona.log"), *y = fixture("mpsc/boot/nocona.log");
	struct ld_log a, b;
	struct ld_diff d;

	(void)state;
	parse(&a, x);
	parse(&b, y);
	ld_diff(&d, &a, &b, 2);
	/* What differs for real. */
	assert_true(has_edit(&d, LD_ADD, "PCI-DMA: Using software bounce buffering for IO (SWIOTLB)"));
	assert_true(has_edit(&d, LD_ADD, "software IO TLB: mapped [mem <addr>-<addr>] (<n>MB)"));
	assert_true(has_edit(&d, LD_DEL, "percpu: Embedded 39 pages/cpu s129432 r0 d30312 u1048576"));
	assert_true(has_edit(&d, LD_ADD, "percpu: Embedded 40 pages/cpu s131864 r0 d31976 u1048576"));
	assert_true(has_edit(&d, LD_ADD, "kf: cpu1.thread_siblings_list=0-1"));
	assert_true(has_edit(&d, LD_ADD, "kf: probe.line_verdict=match"));
	/* What always differs is gone. */
	for (size_t i = 0; i < d.n; i++) {
		const char *t = d.e[i].text;

		if (d.e[i].op == LD_SAME || d.e[i].op == LD_HUNK)
			continue;
		if (strstr(t, "e820") || strstr(t, "nonce=") || strstr(t, "Total pages") ||
		    strstr(t, "kflavour-end") || strstr(t, "Linux version") ||
		    strstr(t, "Memory:") || strstr(t, "hash table"))
			fail_msg("noise left in the diff: '%c%s'", d.e[i].op, t);
	}
	assert_true(d.added + d.removed < 60);
	ld_diff_free(&d);
	ld_log_free(&a);
	ld_log_free(&b);
	free(x);
	free(y);
}

/* Real consoles recorded by the boot stage (tests/data/logs/, not ours).
 * They are committed: a missing one fails the test, never skips it. */
static char *recorded(const char *name)
{
	char path[256], *text;

	snprintf(path, sizeof(path), "tests/data/logs/%s", name);
	text = kf_read_file(path, NULL);
	if (!text)
		fail_msg("%s: cannot read this committed log (run from the top of the checkout)", path);
	return text;
}

/* Nothing left that differs on every boot, on a real console. */
static void real_log_normalised(void **state)
{
	char *x = recorded("pass-mpsc-nocona.log");
	struct ld_log a;

	(void)state;
	parse(&a, x);
	assert_true(a.n > 200);
	for (size_t i = 0; i < a.n; i++) {
		const char *t = a.line[i].text;

		if (strstr(t, "e820") || strstr(t, "[+") || strstr(t, "\033") ||
		    strstr(t, "e0fd29edd49c385c") || strstr(t, "Detected 2596") ||
		    strstr(t, "BogoMIPS (lpj=1") || strstr(t, "0xbffe") ||
		    strstr(t, "Zone ranges") || strstr(t, "! command:"))
			fail_msg("line %d not normalised: '%s'", a.line[i].lineno, t);
	}
	ld_log_free(&a);
	free(x);
}

/* The same boot again (other nonce, TSC, times): no difference. */
static void real_log_against_itself(void **state)
{
	char *x = recorded("pass-mpsc-nocona.log"), *y;
	struct ld_log a, b;
	struct ld_diff d;

	(void)state;
	y = kf_xstrdup(x);
	swap(y, "e0fd29edd49c385c", "0123456789abcdef");
	swap(y, "2596.149", "2601.887");
	swap(y, "[+   2.714]", "[+   3.108]");
	parse(&a, x);
	parse(&b, y);
	ld_diff(&d, &a, &b, 2);
	if (d.n)
		ld_diff_print(stderr, &d, "a", "b");
	assert_int_equal(d.n, 0);
	ld_diff_free(&d);
	ld_log_free(&a);
	ld_log_free(&b);
	free(x);
	free(y);
}

/* With and without the probe: the probe's lines and facts are the diff. */
static void real_probe_against_none(void **state)
{
	char *x = recorded("pass-mpsc-nocona.log"), *y = recorded("pass-mpsc-nocona-noprobe.log");
	struct ld_log a, b;
	struct ld_diff d;

	(void)state;
	parse(&a, x);
	parse(&b, y);
	ld_diff(&d, &a, &b, 2);
	assert_true(has_edit(&d, LD_DEL, "flavour-probe: line_verdict=match"));
	assert_true(has_edit(&d, LD_DEL, "kf: probe.swiotlb=active"));
	assert_true(has_edit(&d, LD_ADD, "    ok 7 probe_readable # SKIP no probe"));
	assert_false(has_edit(&d, LD_DEL, "PCI-DMA: Using software bounce buffering for IO (SWIOTLB)"));
	for (size_t i = 0; i < d.n; i++)
		if (d.e[i].op != LD_SAME && d.e[i].op != LD_HUNK &&
		    (strstr(d.e[i].text, "nonce") || strstr(d.e[i].text, "! command") ||
		     strstr(d.e[i].text, "AT Translated")))
			fail_msg("noise left in the diff: '%c%s'", d.e[i].op, d.e[i].text);
	ld_diff_free(&d);
	ld_log_free(&a);
	ld_log_free(&b);
	free(x);
	free(y);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strips_timestamps_and_prefixes),
		cmocka_unit_test(drops_memory_map),
		cmocka_unit_test(hides_addresses_and_measurements),
		cmocka_unit_test(hides_nonce_and_times),
		cmocka_unit_test(keeps_what_matters),
		cmocka_unit_test(diff_of_small_logs),
		cmocka_unit_test(recorded_boot_against_itself),
		cmocka_unit_test(recorded_flavour_against_flavour),
		cmocka_unit_test(real_log_normalised),
		cmocka_unit_test(real_log_against_itself),
		cmocka_unit_test(real_probe_against_none),
	};

	return cmocka_run_group_tests_name("logdiff", tests, NULL, NULL);
}
