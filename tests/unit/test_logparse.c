// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for boot/logparse.c: real boot logs recorded with the runner
 * (tests/data/logs/, see its README) give the right verdict, KTAP counts and
 * facts. Inline KTAP texts marked SYNTHETIC are written by hand to cover
 * nesting the recorded kernels do not print yet (the probe's KUnit suite).
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
#include "../../boot/logparse.h"

#define LOGS "tests/data/logs/"

static void parse(struct kf_log *log, const char *file)
{
	kf_log_init(log);
	assert_int_equal(kf_log_parse_file(log, file), 0);
}

static const struct kf_ktap_result *find_result(const struct kf_log *log,
						 const char *name)
{
	for (size_t i = 0; i < log->nr_results; i++)
		if (!strcmp(log->results[i].name, name))
			return &log->results[i];
	return NULL;
}

static int has_warning(const struct kf_log *log, const char *text)
{
	for (size_t i = 0; i < log->nr_warnings; i++)
		if (strstr(log->warnings[i], text))
			return 1;
	return 0;
}

/* The mpsc kernel with the probe patch on the Nocona model: everything. */
static void pass_mpsc_nocona(void **state)
{
	struct kf_log log;
	const struct kf_ktap_result *r;

	(void)state;
	parse(&log, LOGS "pass-mpsc-nocona.log");
	assert_int_equal(kf_log_verdict(&log), KF_PASS);
	assert_true(log.end_seen);
	/* What the boot record's "console" holds for the report. */
	assert_true(log.swiotlb_mapped);
	assert_int_equal(log.hwalign, -1);	/* this kernel prints no SLUB line */
	assert_false(log.microcode_updated);
	assert_true(log.exit_known);
	assert_int_equal(log.exit_status, 33);
	assert_int_equal(log.failed, 0);
	assert_int_equal(log.passed, 11 + 8);	/* x86_flavour + kflavour_init */
	assert_int_equal(log.skipped, 0);
	r = find_result(&log, "flavour_gdt_limit");
	assert_non_null(r);
	assert_string_equal(r->suite, "x86_flavour");
	r = find_result(&log, "probe_readable");
	assert_non_null(r);
	assert_string_equal(r->suite, "kflavour_init");
	assert_false(r->skipped);
	assert_string_equal(kf_log_fact(&log, "cpu.vendor"), "GenuineIntel");
	assert_string_equal(kf_log_fact(&log, "cpu.family"), "15");
	assert_string_equal(kf_log_fact(&log, "cpu.cache_alignment"), "128");
	assert_string_equal(kf_log_fact(&log, "cpu.clflush_size"), "64");
	assert_string_equal(kf_log_fact(&log, "cpu.siblings"), "2");
	assert_string_equal(kf_log_fact(&log, "cpu.flags.lm"), "1");
	assert_string_equal(kf_log_fact(&log, "cpu.model_name"), "Intel(R) Xeon(TM) CPU 3.60GHz");
	assert_string_equal(kf_log_fact(&log, "cpus.online"), "0-1");
	assert_string_equal(kf_log_fact(&log, "cpu1.thread_siblings_list"), "0-1");
	assert_string_equal(kf_log_fact(&log, "probe.l1_cache_bytes"), "128");
	assert_string_equal(kf_log_fact(&log, "probe.swiotlb"), "active");
	assert_string_equal(kf_log_fact(&log, "probe.line_verdict"), "match");
	assert_string_equal(kf_log_fact(&log, "probe.gdt.kernel_cs.l"), "1");
	assert_null(kf_log_fact(&log, "kflavour-end"));
	assert_true(log.guest_seconds > 0 && log.guest_seconds < 60);
	assert_int_equal(log.nr_warnings, 0);
	kf_log_free(&log);
}

/*
 * generic with the probe's layout facts (patches/<kver>/0003) on the c2c
 * machine (nocona, -m 1G -smp 2, nokaslr): where the image and each CPU's
 * per-CPU copy are land in the facts like every probe line, under probe.
 */
static void pass_generic_nocona_layout(void **state)
{
	struct kf_log log;
	const struct kf_ktap_result *r;

	(void)state;
	parse(&log, LOGS "pass-generic-nocona-c2c.log");
	assert_int_equal(kf_log_verdict(&log), KF_PASS);
	assert_int_equal(log.failed, 0);
	assert_int_equal(log.passed, 13 + 8);	/* x86_flavour + kflavour_init */
	r = find_result(&log, "flavour_percpu_phys");
	assert_non_null(r);
	assert_string_equal(r->suite, "x86_flavour");
	assert_true(r->ok);
	r = find_result(&log, "flavour_kernel_image_phys");
	assert_non_null(r);
	assert_true(r->ok);
	assert_string_equal(kf_log_fact(&log, "probe.l1_cache_bytes"), "64");
	assert_string_equal(kf_log_fact(&log, "probe.kernel_text"), "0xffffffff81000000");
	assert_string_equal(kf_log_fact(&log, "probe.kernel_text_phys"), "0x1000000");
	assert_string_equal(kf_log_fact(&log, "probe.phys_base"), "0x0");
	assert_string_equal(kf_log_fact(&log, "probe.percpu_start"), "0x0");
	assert_string_equal(kf_log_fact(&log, "probe.percpu_bytes"), "126616");
	assert_string_equal(kf_log_fact(&log, "probe.cpus_possible"), "2");
	assert_string_equal(kf_log_fact(&log, "probe.cpu0.percpu_offset"), "0xffff88803fc00000");
	assert_string_equal(kf_log_fact(&log, "probe.cpu0.percpu_phys"), "0x3fc00000");
	assert_string_equal(kf_log_fact(&log, "probe.cpu1.percpu_offset"), "0xffff88803fd00000");
	assert_string_equal(kf_log_fact(&log, "probe.cpu1.percpu_phys"), "0x3fd00000");
	assert_string_equal(kf_log_fact(&log, "probe.percpu_phys_contiguous"), "1");
	assert_null(kf_log_fact(&log, "probe.cpu2.percpu_phys"));
	/* The probe's console lines are not facts: only the init's kf: ones. */
	assert_null(kf_log_fact(&log, "kernel_text_phys"));
	assert_int_equal(log.nr_warnings, 0);
	kf_log_free(&log);
}

/* The older recorded logs: kernels without 0003 have no layout facts. */
static void no_layout_before_0003(void **state)
{
	struct kf_log log;

	(void)state;
	parse(&log, LOGS "pass-mpsc-nocona.log");
	assert_non_null(kf_log_fact(&log, "probe.gdt_distance"));
	assert_null(kf_log_fact(&log, "probe.cpu0.percpu_phys"));
	assert_null(kf_log_fact(&log, "probe.kernel_text_phys"));
	kf_log_free(&log);
}

/* The same on a kernel without the probe: the init skips its probe test. */
static void pass_without_probe(void **state)
{
	struct kf_log log;
	const struct kf_ktap_result *r;

	(void)state;
	parse(&log, LOGS "pass-mpsc-nocona-noprobe.log");
	assert_int_equal(kf_log_verdict(&log), KF_PASS);
	assert_int_equal(log.passed, 7);
	assert_int_equal(log.skipped, 1);
	r = find_result(&log, "probe_readable");
	assert_non_null(r);
	assert_true(r->skipped);
	assert_true(r->ok);
	assert_string_equal(r->directive, "SKIP no probe");
	assert_string_equal(kf_log_fact(&log, "uname.release"), "6.1.192");
	assert_null(kf_log_fact(&log, "probe.swiotlb"));
	kf_log_free(&log);
}

/* The kernel engineer's raw console of the probe (no init of ours). */
static void raw_probe_console(void **state)
{
	struct kf_log log;

	(void)state;
	parse(&log, LOGS "probe-mpsc-nocona-6.1.log");
	assert_int_equal(log.passed, 11);
	assert_int_equal(log.failed, 0);
	assert_false(log.end_seen);
	assert_int_equal(kf_log_verdict(&log), KF_PANIC);	/* no init */
	kf_log_free(&log);
}

/* The same console without the runner's time stamps and notes. */
static void pass_raw_console(void **state)
{
	struct kf_log log;
	char *text = kf_read_file(LOGS "pass-mpsc-nocona.log", NULL);
	char *raw = kf_xmalloc(strlen(text) + 1), *d = raw;

	(void)state;
	assert_non_null(text);
	for (char *l = text, *nl; *l; l = nl) {
		char *close = strchr(l, ']');

		nl = strchr(l, '\n');
		nl = nl ? nl + 1 : l + strlen(l);
		if (!close || close[1] != ' ')
			continue;		/* a runner note */
		memcpy(d, close + 2, (size_t)(nl - close - 2));
		d += nl - close - 2;
	}
	*d = '\0';
	kf_log_init(&log);
	kf_log_parse_text(&log, raw);
	assert_false(log.exit_known);
	assert_non_null(log.cmdline_nonce);	/* nonce from "Command line:" */
	assert_true(log.end_seen);
	assert_int_equal(kf_log_verdict(&log), KF_PASS);
	assert_int_equal(log.passed, 19);
	kf_log_free(&log);
	free(raw);
	free(text);
}

static void wrong_nonce_is_not_the_end(void **state)
{
	struct kf_log log;

	(void)state;
	kf_log_init(&log);
	log.nonce = kf_xstrdup("0000000000000000");
	assert_int_equal(kf_log_parse_file(&log, LOGS "pass-mpsc-nocona.log"), 0);
	assert_false(log.end_seen);
	assert_int_equal(log.end_wrong_nonce, 1);
	assert_int_not_equal(kf_log_verdict(&log), KF_PASS);
	assert_true(has_warning(&log, "wrong nonce"));
	kf_log_free(&log);
}

static void panic_rdinit(void **state)
{
	struct kf_log log;

	(void)state;
	parse(&log, LOGS "panic-rdinit-nonexistent.log");
	assert_int_equal(kf_log_verdict(&log), KF_PANIC);
	assert_int_equal(kf_log_outcome(&log), KF_PANIC);
	assert_false(log.end_seen);
	assert_true(has_warning(&log, "Kernel panic - not syncing: VFS: Unable to mount root fs"));
	assert_int_equal(log.exit_status, 0);	/* panic=-1 + -no-reboot */
	kf_log_free(&log);
}

static void hang_init(void **state)
{
	struct kf_log log;

	(void)state;
	parse(&log, LOGS "hang-init-mode-hang.log");
	assert_int_equal(kf_log_verdict(&log), KF_HANG);
	assert_true(log.hang);
	assert_true(log.killed);
	assert_false(log.exit_known);
	assert_int_equal(log.nr_results, 0);
	kf_log_free(&log);
}

static void refused_i686(void **state)
{
	struct kf_log log;

	(void)state;
	parse(&log, LOGS "refused-mpsc-i686.log");
	assert_int_equal(kf_log_verdict(&log), KF_REFUSED);
	assert_int_equal(kf_log_outcome(&log), KF_REFUSED);
	assert_true(has_warning(&log, "only detected an i686 CPU"));
	assert_null(kf_log_fact(&log, "uname.release"));
	assert_false(log.swiotlb_mapped);
	assert_false(log.end_seen || log.end_wrong_nonce);
	kf_log_free(&log);
}

/* The console lines the report shows, wherever they are in a line. */
static void console_lines(void **state)
{
	struct kf_log log;

	(void)state;
	kf_log_init(&log);
	kf_log_line(&log, "[    0.101] SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=2, Nodes=1");
	kf_log_line(&log, "[    0.102] SLUB: HWalign=128, Order=0-3, MinObjects=0, CPUs=2, Nodes=1");
	kf_log_line(&log, "[    0.103] SLUB: HWalign=, broken");
	kf_log_line(&log, "[    0.200] microcode: updated early: 0x1 -> 0x2, date = 2020-01-01");
	assert_int_equal(log.hwalign, 128);	/* the last one */
	assert_true(log.microcode_updated);
	assert_false(log.swiotlb_mapped);
	kf_log_line(&log, "[    0.300] software IO TLB: mapped [mem 0x1-0x2] (64MB)");
	assert_true(log.swiotlb_mapped);
	kf_log_free(&log);
}

/* acpi=off: the BIOS MP table lists one CPU; the init's check sees it. */
static void test_fail_acpi_off(void **state)
{
	struct kf_log log;
	const struct kf_ktap_result *r;

	(void)state;
	parse(&log, LOGS "test-fail-acpi-off.log");
	assert_int_equal(kf_log_verdict(&log), KF_TEST_FAIL);
	assert_true(log.end_seen);
	assert_int_equal(log.failed, 1);
	r = find_result(&log, "cpus_online");
	assert_non_null(r);
	assert_false(r->ok);
	assert_string_equal(kf_log_fact(&log, "cpus.online"), "0");
	kf_log_free(&log);
}

static void qemu_error_bad_cpu(void **state)
{
	struct kf_log log;

	(void)state;
	parse(&log, LOGS "qemu-error-bad-cpu-model.log");
	assert_int_equal(kf_log_verdict(&log), KF_QEMU_ERROR);
	assert_true(log.exit_known);
	assert_int_equal(log.exit_status, 1);
	assert_int_equal(log.lines, 0);
	kf_log_free(&log);
}

static void qemu_error_no_qemu(void **state)
{
	struct kf_log log;

	(void)state;
	parse(&log, LOGS "qemu-error-not-found.log");
	assert_int_equal(kf_log_verdict(&log), KF_QEMU_ERROR);
	assert_true(log.nostart);
	kf_log_free(&log);
}

/* LKDTM's WARNING: a real kernel warning; the boot still reaches the end. */
static void oops_lkdtm_warning(void **state)
{
	struct kf_log log;

	(void)state;
	parse(&log, LOGS "oops-lkdtm-warning.log");
	assert_int_equal(kf_log_verdict(&log), KF_OOPS);
	assert_true(log.end_seen);
	assert_true(log.oops >= 1);
	assert_int_equal(log.failed, 0);
	assert_true(has_warning(&log, "WARNING: CPU: "));
	assert_non_null(find_result(&log, "provoke_warning"));
	kf_log_free(&log);
}

/* SYNTHETIC: KUnit's nesting (a parameterised test), a skip, two documents. */
static void ktap_nesting(void **state)
{
	static const char text[] =
		"KTAP version 1\n"
		"1..1\n"
		"    KTAP version 1\n"
		"    # Subtest: x86_flavour\n"
		"    # module: flavour_probe_test\n"
		"    1..3\n"
		"    ok 1 l1_cache_bytes_matches\n"
		"        KTAP version 1\n"
		"        # Subtest: gdt_entries\n"
		"        ok 1 cs\n"
		"        not ok 2 ds\n"
		"    not ok 2 gdt_entries\n"
		"    ok 3 - swiotlb # SKIP not active\n"
		"# x86_flavour: pass:1 fail:1 skip:1 total:3\n"
		"not ok 1 x86_flavour\n"
		"random kernel line\n"
		"ok 7 outside any document\n"
		"KTAP version 1\n"
		"1..2\n"
		"ok 1 flat_one\n"
		"not ok 2 flat_two # TODO later\n";
	struct kf_log log;
	const struct kf_ktap_result *r;

	(void)state;
	kf_log_init(&log);
	kf_log_parse_text(&log, text);
	assert_int_equal(log.nr_results, 6);
	assert_int_equal(log.passed, 3);
	assert_int_equal(log.failed, 1);
	assert_int_equal(log.skipped, 2);		/* SKIP, and TODO */
	/* the directives are kept as written, for results.ktap */
	r = find_result(&log, "swiotlb");
	assert_non_null(r);
	assert_string_equal(r->directive, "SKIP not active");
	r = find_result(&log, "flat_two");
	assert_non_null(r);
	assert_string_equal(r->directive, "TODO later");
	assert_null(find_result(&log, "flat_one")->directive);
	r = find_result(&log, "gdt_entries.ds");
	assert_non_null(r);
	assert_string_equal(r->suite, "x86_flavour");
	assert_false(r->ok);
	r = find_result(&log, "swiotlb");
	assert_non_null(r);
	assert_true(r->skipped);
	assert_true(r->ok);
	r = find_result(&log, "flat_one");
	assert_non_null(r);
	assert_string_equal(r->suite, "");
	assert_null(find_result(&log, "x86_flavour"));	/* summary line */
	assert_null(find_result(&log, "outside any document"));
	/* No end marker, QEMU state unknown: failures decide. */
	assert_int_equal(kf_log_verdict(&log), KF_TEST_FAIL);
	kf_log_free(&log);
}

/* SYNTHETIC: line-by-line feeding, as the runner does. */
static void outcome_while_running(void **state)
{
	struct kf_log log;

	(void)state;
	kf_log_init(&log);
	log.nonce = kf_xstrdup("abc");
	kf_log_line(&log, "\x1b" "c\x1b[?7l\x1b[2J\x1b[0mSeaBIOS (version 1.16.2)\r");
	assert_int_equal(kf_log_outcome(&log), -1);
	/* A user-space fault report is not a kernel oops. */
	kf_log_line(&log, "traps: init[1] general protection fault ip:401000 sp:7ffd error:0");
	assert_int_equal(log.oops, 0);
	kf_log_line(&log, "[    1.234567] WARNING: CPU: 0 PID: 1 at mm/util.c:596 kvmalloc_node+0x1/0x2");
	assert_int_equal(log.oops, 1);
	kf_log_line(&log, "kflavour-end abd");
	assert_int_equal(kf_log_outcome(&log), -1);
	kf_log_line(&log, "kflavour-end abc\r");
	assert_int_equal(kf_log_outcome(&log), KF_PASS);
	kf_log_note(&log, KF_NOTE_EXIT "33");
	assert_int_equal(kf_log_verdict(&log), KF_OOPS);
	kf_log_free(&log);

	/* The end marker without isa-debug-exit: not a pass. */
	kf_log_init(&log);
	kf_log_parse_text(&log, "[+   0.000]! nonce n1\n[+   1.000] kflavour-end n1\n"
			  "[+   1.100]! qemu exit status 0\n");
	assert_true(log.end_seen);
	assert_int_equal(kf_log_verdict(&log), KF_QEMU_ERROR);
	kf_log_free(&log);

	/* The refusal decides at once. */
	kf_log_init(&log);
	kf_log_line(&log, "This kernel requires an x86-64 CPU, but only detected an i686 CPU.\r");
	assert_int_equal(kf_log_outcome(&log), KF_REFUSED);
	kf_log_free(&log);
}

static void verdict_names(void **state)
{
	(void)state;
	for (int v = 0; v < KF_NR_VERDICTS; v++)
		assert_int_equal(kf_verdict_from_name(kf_verdict_name(v)), v);
	assert_string_equal(kf_verdict_name(KF_TEST_FAIL), "test-fail");
	assert_string_equal(kf_verdict_name(KF_QEMU_ERROR), "qemu-error");
	assert_int_equal(kf_verdict_from_name("bogus"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pass_mpsc_nocona),
		cmocka_unit_test(pass_generic_nocona_layout),
		cmocka_unit_test(no_layout_before_0003),
		cmocka_unit_test(pass_without_probe),
		cmocka_unit_test(raw_probe_console),
		cmocka_unit_test(pass_raw_console),
		cmocka_unit_test(wrong_nonce_is_not_the_end),
		cmocka_unit_test(panic_rdinit),
		cmocka_unit_test(hang_init),
		cmocka_unit_test(refused_i686),
		cmocka_unit_test(test_fail_acpi_off),
		cmocka_unit_test(qemu_error_bad_cpu),
		cmocka_unit_test(qemu_error_no_qemu),
		cmocka_unit_test(oops_lkdtm_warning),
		cmocka_unit_test(ktap_nesting),
		cmocka_unit_test(outcome_while_running),
		cmocka_unit_test(verdict_names),
		cmocka_unit_test(console_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
