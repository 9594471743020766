/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guest.h - what the two guest programs share (boot/guest.c): the static
 * init of the initramfs boot (boot/init.c) and the facts unit of the system
 * boot (boot/sysfacts.c, docs/system-boot.md). Both print the console
 * protocol of console.h: whole lines, the "kf: " facts, the probe's facts
 * as the init always printed them, and both end the VM the same way.
 *
 * Linked statically into each guest program; nothing of the host tools.
 */
#ifndef KF_GUEST_H
#define KF_GUEST_H

#include <stddef.h>
#include <sys/types.h>

#define KF_PROBE_FILE	"/sys/kernel/debug/x86/flavour_probe"

/* Write all of buf to stdout (the console). */
void kf_out(const char *buf, size_t len);
/* One whole line per write(2), so kernel messages interleave less. */
void kf_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "kf: key=value", control characters replaced; nothing if value is NULL. */
void kf_fact(const char *key, const char *value);

/*
 * The program's KTAP results, one test per check, printed by kf_print_ktap
 * as a one-suite KTAP document (docs/boot.md, "Console protocol").
 */
struct kf_result {
	const char *name;
	int ok;			/* 1 ok, 0 not ok */
	const char *skip;	/* SKIP reason, or NULL */
	char diag[200];		/* why it failed, printed as a KTAP diagnostic */
};
/* A new result (the last one again once KF_MAX_RESULTS are taken). */
#define KF_MAX_RESULTS	16
struct kf_result *kf_result(const char *name, int ok);
void kf_skip(const char *name, const char *why);
void kf_fail(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void kf_print_ktap(const char *suite);

/* A small file into buf, NUL-terminated; its length or -1. */
ssize_t kf_slurp(const char *path, char *buf, size_t size);
/* The first line of a file without its newline, or NULL. */
char *kf_first_line(const char *path, char *buf, size_t size);

/* The value of "name=" in cmdline (/proc/cmdline's text) into buf, or NULL. */
const char *kf_cmdline_param(const char *cmdline, const char *name, char *buf, size_t size);

/* Read the first processor's block of /proc/cpuinfo; 0 or -1 (errno). */
int kf_cpuinfo_load(void);
/* A field of it, or NULL; 1/0 whether flag is in its flags, -1 unknown. */
const char *kf_cpuinfo_field(const char *key, char *buf, size_t size);
int kf_cpuinfo_flag(const char *flag);

/* The CPU facts of docs/boot.md: uname.release, cpu.*, cpus.online,
 * cache.index<N>.*, cpu<N>.thread_siblings_list. */
void kf_print_cpu_facts(void);
/* Each key=value line of the probe's debugfs file as probe.<key> (a
 * leading "flavour-probe: " dropped); the number printed, -1 unreadable. */
int kf_print_probe_facts(void);
/* 1 when the probe's file is there and holds a key=value line, 0 when
 * there is no probe, -1 (with why) when it is there but unreadable. */
int kf_probe_check(char *why, size_t size);

/* Console log level 5 from here on: only warnings and worse reach the
 * console amid the report (docs/boot.md, "Console protocol"). */
void kf_quiet_console(void);

/* ioperm of the isa-debug-exit port; 1 when it worked. */
int kf_debug_exit_ioperm(void);
/* The console drained, then isa-debug-exit (QEMU exits KF_EXIT_PASS);
 * when that does not end it, poweroff (fallback() when given, else
 * reboot(RB_POWER_OFF)). Never returns. */
void kf_end_vm(int have_ioperm, void (*fallback)(void)) __attribute__((noreturn));

#endif /* KF_GUEST_H */
