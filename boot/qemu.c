// SPDX-License-Identifier: GPL-2.0
/*
 * qemu.c - one boot without QEMU running (qemu.h): its kernel command
 * line, QEMU's argv from one table, and what the end of a boot says.
 */
#include "qemu.h"
#include "../lib/kf.h"

#include <stdlib.h>
#include <string.h>

/* CPUs of a -smp value: "2", "cpus=2,...", or sockets*dies*cores*threads. */
static int smp_cpus(const char *smp)
{
	static const char *const factors[] = { "sockets=", "dies=", "cores=", "threads=" };
	long total = 1, n;
	char *end;

	n = strtol(smp, &end, 10);
	if (end != smp && n > 0)
		return (int)n;
	for (const char *p = smp; p && *p; ) {
		const char *comma = strchr(p, ',');

		if (!strncmp(p, "cpus=", 5))
			return atoi(p + 5);
		for (size_t i = 0; i < sizeof(factors) / sizeof(factors[0]); i++)
			if (!strncmp(p, factors[i], strlen(factors[i]))) {
				n = atol(p + strlen(factors[i]));
				total *= n > 0 ? n : 1;
			}
		p = comma ? comma + 1 : NULL;
	}
	return total > 0 && total < 4096 ? (int)total : 0;
}

/*
 * noapictimer: the kernel would calibrate the local APIC timer against the
 * PIT for about 0.2 s of every boot; the PIT ticks instead, and no fact
 * changes (docs/boot.md).
 */
char *kf_boot_cmdline(const char *smp, const char *nonce, const char *recipe_cmdline,
		      const char *append)
{
	int ncpus = smp_cpus(smp);
	char *ncpus_arg = ncpus > 0 ? kf_xasprintf(" nr_cpus=%d", ncpus) : kf_xstrdup("");
	char *s = kf_xasprintf("console=ttyS0 panic=-1%s noapictimer " KF_NONCE_PARAM "=%s%s%s%s%s",
			       ncpus_arg, nonce,
			       recipe_cmdline && *recipe_cmdline ? " " : "",
			       recipe_cmdline ? recipe_cmdline : "",
			       append && *append ? " " : "", append ? append : "");

	free(ncpus_arg);
	return s;
}

char **kf_qemu_argv(const struct kf_qemu *q)
{
	/* "<low>+<high>" memory: the machine puts high above 4 GiB. */
	unsigned long low, high;
	int split = kf_recipe_memory_split(q->memory, &low, &high) > 0;
	char *memory = split ? kf_xasprintf("%luM", low + high) : kf_xstrdup(q->memory);
	char *machine = split ? kf_xasprintf("pc,max-ram-below-4g=%luM", low) : kf_xstrdup("pc");
	char *accel = kf_xasprintf("tcg,thread=%s", q->tcg ? q->tcg : "single");
	/* In this order; an option without a value has NULL. */
	const struct { const char *opt, *value; } table[] = {
		/* One host thread for all vCPUs: a boot does little in parallel,
		 * and two boots at once on 2 cores are faster than with a thread
		 * per vCPU (1.7 s against 2.2 s each, docs/boot.md). c2c's runs
		 * ask for thread=multi: both vCPUs at once (docs/c2c.md). */
		{ "-accel", accel }, { "-nodefaults", NULL },
		{ "-nographic", NULL }, { "-no-reboot", NULL }, { "-nic", "none" },
		{ "-serial", "stdio" }, { "-cpu", q->cpu_string }, { "-smp", q->smp },
		{ "-machine", machine }, { "-m", memory }, { "-kernel", q->kernel },
		{ q->initrd && *q->initrd ? "-initrd" : NULL, q->initrd },
		{ q->drive ? "-drive" : NULL, q->drive }, { "-append", q->cmdline },
		{ "-device", KF_DEBUG_EXIT_DEVICE },
		/* last: no firmware file leaves QEMU's default (SeaBIOS) */
		{ *q->bios ? "-bios" : NULL, q->bios },
	};
	size_t n = 0, max = 4 + 2 * sizeof(table) / sizeof(table[0]) + 2 * q->nplugins;
	char **argv = kf_xmalloc(max * sizeof(*argv));

	argv[n++] = kf_xstrdup(q->qemu);
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (!table[i].opt)
			continue;
		argv[n++] = kf_xstrdup(table[i].opt);
		if (table[i].value)
			argv[n++] = kf_xstrdup(table[i].value);
	}
	/* Several -plugin options load several plugins into one run, all
	 * seeing the same execution (docs/c2c.md). */
	for (size_t i = 0; i < q->nplugins; i++) {
		argv[n++] = kf_xstrdup("-plugin");
		argv[n++] = kf_xstrdup(q->plugins[i]);
	}
	if (q->nplugins) {
		argv[n++] = kf_xstrdup("-d");
		argv[n++] = kf_xstrdup("plugin");
	}
	argv[n] = NULL;
	free(memory);
	free(machine);
	free(accel);
	return argv;
}

void kf_argv_free(char **argv)
{
	for (char **a = argv; a && *a; a++)
		free(*a);
	free(argv);
}

char *kf_join_words(char *const *words)
{
	struct strbuf sb = { 0 };

	for (char *const *w = words; *w; w++) {
		const char *q = strpbrk(*w, " ()'\"") ? "'" : "";

		sb_addf(&sb, "%s%s%s%s", w != words ? " " : "", q, *w, q);
	}
	return sb.s;
}

void kf_qemu_error_warnings(struct kf_log *log, char *const *stderr_lines, size_t n, int code)
{
	for (size_t i = 0; i < n; i++)
		kf_log_warn(log, "qemu: %s", stderr_lines[i]);
	if (!log->lines)
		kf_log_warn(log, "runner: no console output at all");
	else
		kf_log_warn(log, "runner: %s (status %d)", log->end_seen ?
			    "end marker seen but no isa-debug-exit" :
			    "QEMU ended without the end marker", code);
}

void kf_boot_summary(FILE *f, const char *flavour, const char *cpu, enum kf_verdict v,
		     enum kf_verdict expect, double wall, const char *logpath,
		     const struct kf_log *log, int quiet)
{
	if (v == expect) {
		if (!quiet)
			fprintf(f, "  BOOT    %s on %s: %s (%.1f s)\n", flavour, cpu,
				kf_verdict_name(v), wall);
		return;
	}
	fprintf(f, "  BOOT    %s on %s: %s, expected %s (%.1f s); see %s\n",
		flavour, cpu, kf_verdict_name(v), kf_verdict_name(expect), wall, logpath);
	for (size_t i = 0; i < log->nr_warnings && i < 3; i++)
		fprintf(f, "          %s\n", log->warnings[i]);
}
