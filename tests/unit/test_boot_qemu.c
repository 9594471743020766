// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for boot/qemu.c: the kernel command line and QEMU's argv of a
 * boot, as the boot record's "command" holds them, the log's "command:"
 * line, the warnings of a qemu-error, and the runner's summary line.
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
#include "../../boot/qemu.h"

/* boot/cpu-models' nocona */
#define NOCONA "qemu64,vendor=GenuineIntel,family=15,model=4,stepping=1,+pni,+monitor,+ht,model-id=Intel(R) Xeon(TM) CPU 3.60GHz"

static void assert_argv(char **argv, const char *const *want)
{
	size_t i;

	for (i = 0; want[i]; i++) {
		if (!argv[i])
			fail_msg("argv ends at %zu, want '%s' there", i, want[i]);
		assert_string_equal(argv[i], want[i]);
	}
	if (argv[i])
		fail_msg("argv goes on at %zu with '%s'", i, argv[i]);
}

/* mpsc on nocona: memory split around the 4 GiB hole, qboot. */
static void argv_of_mpsc_on_nocona(void **state)
{
	const struct kf_qemu q = {
		.qemu = "qemu-system-x86_64", .cpu_string = NOCONA,
		.smp = "2,sockets=1,cores=1,threads=2", .memory = "1G+256M",
		.kernel = "out/6.1/mpsc/arch/x86/boot/bzImage",
		.initrd = "out/6.1/initramfs.cpio.gz", .cmdline = "console=ttyS0",
		.bios = "/usr/share/qemu/qboot.rom",
	};
	static const char *const want[] = {
		"qemu-system-x86_64", "-accel", "tcg,thread=single", "-nodefaults",
		"-nographic", "-no-reboot", "-nic", "none", "-serial", "stdio",
		"-cpu", NOCONA, "-smp", "2,sockets=1,cores=1,threads=2",
		"-machine", "pc,max-ram-below-4g=1024M", "-m", "1280M",
		"-kernel", "out/6.1/mpsc/arch/x86/boot/bzImage",
		"-initrd", "out/6.1/initramfs.cpio.gz", "-append", "console=ttyS0",
		"-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
		"-bios", "/usr/share/qemu/qboot.rom", NULL
	};
	char **argv = kf_qemu_argv(&q);

	(void)state;
	assert_argv(argv, want);
	kf_argv_free(argv);
}

/* Plain memory and no firmware file (--bios ''): QEMU's own SeaBIOS. */
static void argv_without_firmware(void **state)
{
	const struct kf_qemu q = {
		.qemu = "/opt/qemu", .cpu_string = "qemu64", .smp = "2", .memory = "512M",
		.kernel = "k", .initrd = "i", .cmdline = "c", .bios = "",
	};
	static const char *const want[] = {
		"/opt/qemu", "-accel", "tcg,thread=single", "-nodefaults",
		"-nographic", "-no-reboot", "-nic", "none", "-serial", "stdio",
		"-cpu", "qemu64", "-smp", "2", "-machine", "pc", "-m", "512M",
		"-kernel", "k", "-initrd", "i", "-append", "c",
		"-device", "isa-debug-exit,iobase=0xf4,iosize=0x04", NULL
	};
	char **argv = kf_qemu_argv(&q);

	(void)state;
	assert_argv(argv, want);
	kf_argv_free(argv);
}

static void cmdline_counts_cpus_and_adds_the_rest(void **state)
{
	static const struct { const char *smp, *recipe, *append, *want; } c[] = {
		{ "2,sockets=1,cores=1,threads=2", "", NULL,
		  "console=ttyS0 panic=-1 nr_cpus=2 noapictimer kflavour.nonce=ab12" },
		{ "4", "quiet", "", "console=ttyS0 panic=-1 nr_cpus=4 noapictimer kflavour.nonce=ab12 quiet" },
		{ "cpus=3,threads=1", "", "kflavour.mode=x",
		  "console=ttyS0 panic=-1 nr_cpus=3 noapictimer kflavour.nonce=ab12 kflavour.mode=x" },
		{ "sockets=2,cores=2,threads=2", "a=1", "b=2",
		  "console=ttyS0 panic=-1 nr_cpus=8 noapictimer kflavour.nonce=ab12 a=1 b=2" },
		/* no count past 4095: no nr_cpus= rather than a wrong one */
		{ "sockets=64,cores=64,threads=2", NULL, NULL,
		  "console=ttyS0 panic=-1 noapictimer kflavour.nonce=ab12" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char *s = kf_boot_cmdline(c[i].smp, "ab12", c[i].recipe, c[i].append);

		assert_string_equal(s, c[i].want);
		free(s);
	}
}

static void command_line_quotes_what_the_shell_would_split(void **state)
{
	char *words[] = { "qemu", "-cpu", "a,model-id=Intel(R) Xeon", "-append",
			  "console=ttyS0 x", "-bios", "", NULL };
	char *s = kf_join_words(words);

	(void)state;
	assert_string_equal(s, "qemu -cpu 'a,model-id=Intel(R) Xeon' -append 'console=ttyS0 x' -bios ");
	free(s);
}

static void qemu_error_says_what_the_runner_saw(void **state)
{
	char *lines[] = { "could not load kernel", "second" };
	struct kf_log log;

	(void)state;
	kf_log_init(&log);
	kf_qemu_error_warnings(&log, lines, 2, 1);
	assert_int_equal(log.nr_warnings, 3);
	assert_string_equal(log.warnings[0], "qemu: could not load kernel");
	assert_string_equal(log.warnings[1], "qemu: second");
	assert_string_equal(log.warnings[2], "runner: no console output at all");
	kf_log_free(&log);

	kf_log_init(&log);
	kf_log_line(&log, "Linux version 6.1");
	kf_qemu_error_warnings(&log, NULL, 0, 1);
	assert_int_equal(log.nr_warnings, 1);
	assert_string_equal(log.warnings[0], "runner: QEMU ended without the end marker (status 1)");
	kf_log_free(&log);

	kf_log_init(&log);
	kf_log_line(&log, "Linux version 6.1");
	log.end_seen = 1;
	kf_qemu_error_warnings(&log, NULL, 0, 0);
	assert_string_equal(log.warnings[0], "runner: end marker seen but no isa-debug-exit (status 0)");
	kf_log_free(&log);
}

static char *summary(enum kf_verdict v, int quiet, int warnings)
{
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);
	struct kf_log log;

	kf_log_init(&log);
	for (int i = 0; i < warnings; i++)
		kf_log_warn(&log, "warning %d", i);
	kf_boot_summary(f, "mpsc", "nocona", v, KF_PASS, 3.14, "out/6.1/mpsc/boot/nocona.log",
			&log, quiet);
	fclose(f);
	kf_log_free(&log);
	return text;
}

static void summary_line_names_an_unexpected_verdict(void **state)
{
	char *s;

	(void)state;
	s = summary(KF_PASS, 0, 2);
	assert_string_equal(s, "  BOOT    mpsc on nocona: pass (3.1 s)\n");
	free(s);
	s = summary(KF_PASS, 1, 0);
	assert_string_equal(s, "");
	free(s);
	s = summary(KF_PANIC, 1, 4);
	assert_string_equal(s, "  BOOT    mpsc on nocona: panic, expected pass (3.1 s); "
			    "see out/6.1/mpsc/boot/nocona.log\n"
			    "          warning 0\n          warning 1\n          warning 2\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(argv_of_mpsc_on_nocona),
		cmocka_unit_test(argv_without_firmware),
		cmocka_unit_test(cmdline_counts_cpus_and_adds_the_rest),
		cmocka_unit_test(command_line_quotes_what_the_shell_would_split),
		cmocka_unit_test(qemu_error_says_what_the_runner_saw),
		cmocka_unit_test(summary_line_names_an_unexpected_verdict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
