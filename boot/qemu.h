/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qemu.h - one boot without QEMU running (boot/qemu.c): the kernel command
 * line, QEMU's argv, what a QEMU that failed leaves as warnings, and the
 * line that sums the boot up. boot/runner.c runs it; the unit tests call it.
 */
#ifndef KF_QEMU_H
#define KF_QEMU_H

#include <stdio.h>

#include "logparse.h"

/* What one boot gives QEMU. memory: a recipe's, "512M" or "<low>+<high>";
 * bios: a firmware file, or "" for QEMU's own (SeaBIOS). */
struct kf_qemu {
	const char *qemu, *cpu_string, *smp, *memory;
	const char *kernel, *initrd, *cmdline, *bios;
	/* a system boot's root disk, -drive's value (kf_sys_drive), or NULL;
	 * then initrd may be NULL or "" (a kernel with its drivers built in) */
	const char *drive;
	/* TCG's threads: "multi" (a host thread per vCPU) or NULL/"single" */
	const char *tcg;
	/* TCG plugins, each "-plugin" argument (c2c/c2c.mk); plugins
	 * print through QEMU's log, so "-d plugin" comes with them. */
	char *const *plugins;
	size_t nplugins;
};

/* The kernel command line: the runner's settings (nr_cpus from smp), the
 * nonce, then the recipe's cmdline and the runner's --append (either may
 * be empty or NULL). malloc'ed. */
char *kf_boot_cmdline(const char *smp, const char *nonce, const char *recipe_cmdline,
		      const char *append);

/* QEMU's argv, NULL-terminated, every string malloc'ed (kf_argv_free). */
char **kf_qemu_argv(const struct kf_qemu *q);
void kf_argv_free(char **argv);
/* The words as one shell line, a word with a blank, quote or parenthesis
 * quoted: the log's "command:" note. malloc'ed. */
char *kf_join_words(char *const *words);

/* After a qemu-error verdict: QEMU's stderr lines, then what the runner
 * saw (no console at all; the end marker or not), into log's warnings.
 * code: QEMU's exit status, -1 when it did not exit by itself. */
void kf_qemu_error_warnings(struct kf_log *log, char *const *stderr_lines, size_t n, int code);

/* "  BOOT    <flavour> on <cpu>: <verdict> (<s> s)"; when the verdict is
 * not the expected one, with the log and up to three warnings. quiet: no
 * line when it is. */
void kf_boot_summary(FILE *f, const char *flavour, const char *cpu, enum kf_verdict v,
		     enum kf_verdict expect, double wall, const char *logpath,
		     const struct kf_log *log, int quiet);

#endif /* KF_QEMU_H */
