// SPDX-License-Identifier: GPL-2.0
/*
 * init.c - the guest's /init (PID 1), linked statically into the initramfs.
 *
 * It mounts proc, sysfs, devtmpfs and debugfs, checks what a flavour must
 * get right, and reports on the console (docs/boot.md):
 *
 *   KTAP version 1                 its own KTAP document, one suite
 *   1..1                           (kflavour_init), nested as KUnit does
 *       KTAP version 1
 *       # Subtest: kflavour_init
 *       1..N
 *       ok 1 mount_proc ...
 *   ok 1 kflavour_init
 *   kf: key=value                  the facts block
 *   kflavour-uptime <seconds>      guest time from /proc/uptime
 *   kflavour-end <nonce>           nonce from kflavour.nonce= on the cmdline
 *
 * then ends the VM through QEMU's isa-debug-exit port (exit status 33),
 * falling back to reboot(RB_POWER_OFF). The protocol's literals are those
 * of console.h, which the host tools read it with.
 *
 * kflavour.mode= on the kernel command line selects a negative case:
 *   hang   print nothing, never end (the runner's hang detection)
 *   oops   make the kernel print a real WARNING through LKDTM's debugfs
 *          file (CONFIG_LKDTM), then go on to the end marker (verdict oops);
 *          without LKDTM the test provoke_warning is "not ok".
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <termios.h>
#include <unistd.h>

#include "console.h"

#define PROBE_FILE	"/sys/kernel/debug/x86/flavour_probe"
#define LKDTM_FILE	"/sys/kernel/debug/provoke-crash/DIRECT"
#define MAX_TESTS	16

static char cmdline[4096];

struct result {
	const char *name;
	int ok;			/* 1 ok, 0 not ok */
	const char *skip;	/* SKIP reason, or NULL */
	char diag[160];		/* why it failed, printed as a KTAP diagnostic */
};

static struct result results[MAX_TESTS];
static int nr_results;

/* Write all of buf to the console (stdout is /dev/console). */
static void out(const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(1, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}

/* One whole line per write(2), so kernel messages interleave less. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	out(line, (size_t)n);
}

static struct result *result(const char *name, int ok)
{
	struct result *r = &results[nr_results < MAX_TESTS ? nr_results++ : MAX_TESTS - 1];

	r->name = name;
	r->ok = ok;
	r->skip = NULL;
	r->diag[0] = '\0';
	return r;
}

static void skip(const char *name, const char *why)
{
	result(name, 1)->skip = why;
}

static void fail(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void fail(const char *name, const char *fmt, ...)
{
	struct result *r = result(name, 0);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->diag, sizeof(r->diag), fmt, ap);
	va_end(ap);
}

/* Read a small file into buf, NUL-terminated; returns length or -1. */
static ssize_t slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = 0;

	if (fd < 0)
		return -1;
	while (n < size - 1) {
		ssize_t got = read(fd, buf + n, size - 1 - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			close(fd);
			return -1;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	buf[n] = '\0';
	return (ssize_t)n;
}

/* First line of a file without its newline, or NULL. */
static char *first_line(const char *path, char *buf, size_t size)
{
	if (slurp(path, buf, size) < 0)
		return NULL;
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* Value of "name=" on the kernel command line, or NULL. */
static const char *cmdline_param(const char *name, char *buf, size_t size)
{
	size_t len = strlen(name);
	const char *p = cmdline;

	while (*p) {
		while (*p == ' ' || *p == '\n')
			p++;
		if (!strncmp(p, name, len) && p[len] == '=') {
			size_t n = strcspn(p + len + 1, " \n");

			if (n >= size)
				n = size - 1;
			memcpy(buf, p + len + 1, n);
			buf[n] = '\0';
			return buf;
		}
		p += strcspn(p, " \n");
	}
	return NULL;
}

static void mount_check(const char *name, const char *fstype, const char *dir)
{
	mkdir(dir, 0755);
	if (mount(fstype, dir, fstype, 0, NULL) == 0 || errno == EBUSY)
		result(name, 1);
	else
		fail(name, "mount -t %s %s: %s", fstype, dir, strerror(errno));
}

/* The first processor's block of /proc/cpuinfo. */
static char cpuinfo[16384];

/* Value of a cpuinfo field of the first processor, or NULL. */
static const char *cpuinfo_field(const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key);

	for (const char *l = cpuinfo; *l; ) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);

		if (len == 0)
			break;		/* end of the first processor's block */
		if (!strncmp(l, key, klen) && (l[klen] == ' ' || l[klen] == '\t' || l[klen] == ':')) {
			const char *colon = memchr(l, ':', len);

			if (colon) {
				const char *v = colon + 1;
				size_t n;

				while (*v == ' ')
					v++;
				n = (size_t)(l + len - v);
				if (n >= size)
					n = size - 1;
				memcpy(buf, v, n);
				buf[n] = '\0';
				return buf;
			}
		}
		l += len + (nl ? 1 : 0);
	}
	return NULL;
}

/* 1 if the word is in the first processor's flags, 0 if not, -1 unknown. */
static int has_flag(const char *flag)
{
	static char flags[4096];
	size_t len = strlen(flag);

	if (!cpuinfo_field("flags", flags, sizeof(flags)))
		return -1;
	for (const char *p = flags; (p = strstr(p, flag)); p += len)
		if ((p == flags || p[-1] == ' ') && (p[len] == ' ' || !p[len]))
			return 1;
	return 0;
}

/* Number of CPUs in a list such as "0-1,3". */
static int count_cpu_list(const char *list)
{
	int n = 0;

	while (*list) {
		char *end;
		long a = strtol(list, &end, 10), b = a;

		if (end == list)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (b >= a)
			n += (int)(b - a + 1);
		list = *end == ',' ? end + 1 : end;
	}
	return n;
}

/* Print "kf: key=value" with control characters replaced. */
static void fact(const char *key, const char *value)
{
	char v[512];
	size_t i;

	if (!value)
		return;
	for (i = 0; i < sizeof(v) - 1 && value[i]; i++)
		v[i] = iscntrl((unsigned char)value[i]) ? ' ' : value[i];
	v[i] = '\0';
	say(KF_FACT_PREFIX "%s=%s", key, v);
}

static void cpuinfo_fact(const char *key, const char *field)
{
	char buf[256];

	fact(key, cpuinfo_field(field, buf, sizeof(buf)));
}

static void print_facts(int have_probe)
{
	static const char *const flags[] = {
		"lm", "ht", "pni", "monitor", "nopl", "3dnowprefetch"
	};
	char buf[512], path[128], key[96];
	struct utsname u;

	if (uname(&u) == 0)
		fact("uname.release", u.release);
	cpuinfo_fact("cpu.vendor", "vendor_id");
	cpuinfo_fact("cpu.family", "cpu family");
	cpuinfo_fact("cpu.model", "model");
	cpuinfo_fact("cpu.model_name", "model name");
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		int has = has_flag(flags[i]);

		snprintf(key, sizeof(key), "cpu.flags.%s", flags[i]);
		if (has >= 0)
			fact(key, has ? "1" : "0");
	}
	cpuinfo_fact("cpu.clflush_size", "clflush size");
	cpuinfo_fact("cpu.cache_alignment", "cache_alignment");
	cpuinfo_fact("cpu.siblings", "siblings");
	cpuinfo_fact("cpu.cores", "cpu cores");
	cpuinfo_fact("cpu.address_sizes", "address sizes");
	fact("cpus.online", first_line("/sys/devices/system/cpu/online", buf, sizeof(buf)));

	static const char *const cache_keys[] = {
		"level", "type", "coherency_line_size", "size"
	};
	for (int i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d", i);
		if (access(path, F_OK))
			break;
		for (size_t k = 0; k < sizeof(cache_keys) / sizeof(cache_keys[0]); k++) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu0/cache/index%d/%s", i, cache_keys[k]);
			snprintf(key, sizeof(key), "cache.index%d.%s", i, cache_keys[k]);
			fact(key, first_line(path, buf, sizeof(buf)));
		}
	}
	for (int i = 0; i < 64; i++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", i);
		if (!first_line(path, buf, sizeof(buf)))
			continue;
		snprintf(key, sizeof(key), "cpu%d.thread_siblings_list", i);
		fact(key, buf);
	}

	if (!have_probe)
		return;
	static char probe[16384];
	if (slurp(PROBE_FILE, probe, sizeof(probe)) < 0)
		return;
	for (char *l = probe, *next; *l; l = next) {
		char *eq;

		next = l + strcspn(l, "\n");
		if (*next)
			*next++ = '\0';
		if (!strncmp(l, KF_PROBE_PREFIX, strlen(KF_PROBE_PREFIX)))
			l += strlen(KF_PROBE_PREFIX);
		eq = strchr(l, '=');
		if (!eq || eq == l)
			continue;
		*eq = '\0';
		snprintf(key, sizeof(key), "probe.%.80s", l);
		fact(key, eq + 1);
	}
}

static void print_ktap(void)
{
	say("KTAP version 1");
	say("1..1");
	say("    KTAP version 1");
	say("    # Subtest: " KF_INIT_SUITE);
	say("    1..%d", nr_results);
	int failed = 0;

	for (int i = 0; i < nr_results; i++) {
		struct result *r = &results[i];

		if (r->diag[0])
			say("    # %s: %s", r->name, r->diag);
		if (r->skip)
			say("    ok %d %s # SKIP %s", i + 1, r->name, r->skip);
		else
			say("    %s %d %s", r->ok ? "ok" : "not ok", i + 1, r->name);
		failed += !r->ok;
	}
	say("%s 1 " KF_INIT_SUITE, failed ? "not ok" : "ok");
}

/* Wait until the console has sent everything, then end the VM. */
static void __attribute__((noreturn)) end_vm(int have_ioperm)
{
	tcdrain(1);
	if (have_ioperm)
		outl(KF_DEBUG_EXIT_VALUE, KF_DEBUG_EXIT_PORT);	/* QEMU exits KF_EXIT_PASS */
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

int main(void)
{
	char buf[256], nonce[80] = "", mode[32] = "";
	int have_probe = 0, have_ioperm, fd;

	/* The kernel opened /dev/console as 0, 1, 2 when the initramfs has it. */
	if (fcntl(1, F_GETFD) < 0) {
		fd = open("/dev/console", O_RDWR | O_NOCTTY);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
	}

	mount_check("mount_proc", "proc", "/proc");
	slurp("/proc/cmdline", cmdline, sizeof(cmdline));

	cmdline_param(KF_MODE_PARAM, mode, sizeof(mode));
	if (!strcmp(mode, KF_MODE_HANG)) {
		/* Negative case: say nothing, never end. */
		for (;;)
			pause();
	}
	cmdline_param(KF_NONCE_PARAM, nonce, sizeof(nonce));

	mount_check("mount_sys", "sysfs", "/sys");
	mount_check("mount_devtmpfs", "devtmpfs", "/dev");
	mount_check("mount_debugfs", "debugfs", "/sys/kernel/debug");

	if (slurp("/proc/cpuinfo", cpuinfo, sizeof(cpuinfo)) < 0)
		fail("cpuinfo_lm", "read /proc/cpuinfo: %s", strerror(errno));
	else if (has_flag("lm") == 1)
		result("cpuinfo_lm", 1);
	else
		fail("cpuinfo_lm", "no 'lm' in the flags of /proc/cpuinfo");

	if (cmdline_param("nr_cpus", buf, sizeof(buf))) {
		int want = atoi(buf), got;
		char online[256];

		if (!first_line("/sys/devices/system/cpu/online", online, sizeof(online)))
			fail("cpus_online", "read /sys/devices/system/cpu/online: %s",
			     strerror(errno));
		else if ((got = count_cpu_list(online)) == want)
			result("cpus_online", 1);
		else
			fail("cpus_online", "%d CPUs online (%s), nr_cpus=%d", got, online, want);
	} else {
		skip("cpus_online", "no nr_cpus= on the command line");
	}

	if (access(PROBE_FILE, F_OK)) {
		skip("probe_readable", "no probe");
	} else {
		static char probe[16384];

		if (slurp(PROBE_FILE, probe, sizeof(probe)) < 0)
			fail("probe_readable", "read %s: %s", PROBE_FILE, strerror(errno));
		else if (!strchr(probe, '='))
			fail("probe_readable", "%s has no key=value line", PROBE_FILE);
		else
			result("probe_readable", have_probe = 1);
	}

	if (!strcmp(mode, KF_MODE_OOPS)) {
		/* A real kernel WARNING, from the kernel's own crash tester. */
		fd = open(LKDTM_FILE, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			fail("provoke_warning", "open %s: %s (needs CONFIG_LKDTM)",
			     LKDTM_FILE, strerror(errno));
		else if (write(fd, "WARNING\n", 8) != 8)
			fail("provoke_warning", "write WARNING to %s: %s", LKDTM_FILE,
			     strerror(errno));
		else
			result("provoke_warning", 1);
		if (fd >= 0)
			close(fd);
	}

	have_ioperm = ioperm(KF_DEBUG_EXIT_PORT, KF_DEBUG_EXIT_SIZE, 1) == 0;
	if (have_ioperm)
		result("debug_exit_ioperm", 1);
	else
		fail("debug_exit_ioperm", "ioperm(0x%x): %s (CONFIG_X86_IOPL_IOPERM?)",
		     KF_DEBUG_EXIT_PORT, strerror(errno));

	print_ktap();
	print_facts(have_probe);
	if (first_line("/proc/uptime", buf, sizeof(buf)))
		say(KF_UPTIME "%.*s", (int)strcspn(buf, " "), buf);
	say(KF_END_MARKER "%s", nonce[0] ? nonce : KF_NO_NONCE);
	end_vm(have_ioperm);
}
