// SPDX-License-Identifier: GPL-2.0
/*
 * guest.c - what the guest programs share (guest.h): the static init
 * (boot/init.c) and the system boot's facts unit (boot/sysfacts.c) print
 * the same console protocol and the same CPU and probe facts from here.
 */
#include "guest.h"
#include "../lib/console.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/io.h>
#include <sys/klog.h>
#include <sys/reboot.h>
#include <sys/utsname.h>
#include <termios.h>
#include <unistd.h>

void kf_out(const char *buf, size_t len)
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

void kf_say(const char *fmt, ...)
{
	char line[2048];
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
	kf_out(line, (size_t)n);
}

static struct kf_result results[KF_MAX_RESULTS];
static int nr_results;

struct kf_result *kf_result(const char *name, int ok)
{
	struct kf_result *r = &results[nr_results < KF_MAX_RESULTS ? nr_results++ :
					       KF_MAX_RESULTS - 1];

	r->name = name;
	r->ok = ok;
	r->skip = NULL;
	r->diag[0] = '\0';
	return r;
}

void kf_skip(const char *name, const char *why)
{
	kf_result(name, 1)->skip = why;
}

void kf_fail(const char *name, const char *fmt, ...)
{
	struct kf_result *r = kf_result(name, 0);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->diag, sizeof(r->diag), fmt, ap);
	va_end(ap);
}

void kf_print_ktap(const char *suite)
{
	int failed = 0;

	kf_say("KTAP version 1");
	kf_say("1..1");
	kf_say("    KTAP version 1");
	kf_say("    # Subtest: %s", suite);
	kf_say("    1..%d", nr_results);
	for (int i = 0; i < nr_results; i++) {
		const struct kf_result *r = &results[i];

		if (r->diag[0])
			kf_say("    # %s: %s", r->name, r->diag);
		if (r->skip)
			kf_say("    ok %d %s # SKIP %s", i + 1, r->name, r->skip);
		else
			kf_say("    %s %d %s", r->ok ? "ok" : "not ok", i + 1, r->name);
		failed += !r->ok;
	}
	kf_say("%s 1 %s", failed ? "not ok" : "ok", suite);
}

void kf_fact(const char *key, const char *value)
{
	char v[1900];
	size_t i;

	if (!value)
		return;
	for (i = 0; i < sizeof(v) - 1 && value[i]; i++)
		v[i] = iscntrl((unsigned char)value[i]) ? ' ' : value[i];
	v[i] = '\0';
	kf_say(KF_FACT_PREFIX "%s=%s", key, v);
}

ssize_t kf_slurp(const char *path, char *buf, size_t size)
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

char *kf_first_line(const char *path, char *buf, size_t size)
{
	if (kf_slurp(path, buf, size) < 0)
		return NULL;
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

const char *kf_cmdline_param(const char *cmdline, const char *name, char *buf, size_t size)
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

/* The first processor's block of /proc/cpuinfo. */
static char cpuinfo[16384];

int kf_cpuinfo_load(void)
{
	return kf_slurp("/proc/cpuinfo", cpuinfo, sizeof(cpuinfo)) < 0 ? -1 : 0;
}

const char *kf_cpuinfo_field(const char *key, char *buf, size_t size)
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

int kf_cpuinfo_flag(const char *flag)
{
	static char flags[4096];
	size_t len = strlen(flag);

	if (!kf_cpuinfo_field("flags", flags, sizeof(flags)))
		return -1;
	for (const char *p = flags; (p = strstr(p, flag)); p += len)
		if ((p == flags || p[-1] == ' ') && (p[len] == ' ' || !p[len]))
			return 1;
	return 0;
}

static void cpuinfo_fact(const char *key, const char *field)
{
	char buf[256];

	kf_fact(key, kf_cpuinfo_field(field, buf, sizeof(buf)));
}

void kf_print_cpu_facts(void)
{
	static const char *const flags[] = {
		"lm", "ht", "pni", "monitor", "nopl", "3dnowprefetch"
	};
	static const char *const cache_keys[] = {
		"level", "type", "coherency_line_size", "size"
	};
	char buf[512], path[128], key[96];
	struct utsname u;

	if (uname(&u) == 0)
		kf_fact("uname.release", u.release);
	cpuinfo_fact("cpu.vendor", "vendor_id");
	cpuinfo_fact("cpu.family", "cpu family");
	cpuinfo_fact("cpu.model", "model");
	cpuinfo_fact("cpu.model_name", "model name");
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		int has = kf_cpuinfo_flag(flags[i]);

		snprintf(key, sizeof(key), "cpu.flags.%s", flags[i]);
		if (has >= 0)
			kf_fact(key, has ? "1" : "0");
	}
	cpuinfo_fact("cpu.clflush_size", "clflush size");
	cpuinfo_fact("cpu.cache_alignment", "cache_alignment");
	cpuinfo_fact("cpu.siblings", "siblings");
	cpuinfo_fact("cpu.cores", "cpu cores");
	cpuinfo_fact("cpu.address_sizes", "address sizes");
	kf_fact("cpus.online", kf_first_line("/sys/devices/system/cpu/online", buf, sizeof(buf)));

	for (int i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d", i);
		if (access(path, F_OK))
			break;
		for (size_t k = 0; k < sizeof(cache_keys) / sizeof(cache_keys[0]); k++) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu0/cache/index%d/%s", i, cache_keys[k]);
			snprintf(key, sizeof(key), "cache.index%d.%s", i, cache_keys[k]);
			kf_fact(key, kf_first_line(path, buf, sizeof(buf)));
		}
	}
	for (int i = 0; i < 64; i++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", i);
		if (!kf_first_line(path, buf, sizeof(buf)))
			continue;
		snprintf(key, sizeof(key), "cpu%d.thread_siblings_list", i);
		kf_fact(key, buf);
	}
}

static char probe[16384];

int kf_probe_check(char *why, size_t size)
{
	if (access(KF_PROBE_FILE, F_OK))
		return 0;
	if (kf_slurp(KF_PROBE_FILE, probe, sizeof(probe)) < 0) {
		snprintf(why, size, "read %s: %s", KF_PROBE_FILE, strerror(errno));
		return -1;
	}
	if (!strchr(probe, '=')) {
		snprintf(why, size, "%s has no key=value line", KF_PROBE_FILE);
		return -1;
	}
	return 1;
}

int kf_print_probe_facts(void)
{
	char key[96];
	int n = 0;

	if (kf_slurp(KF_PROBE_FILE, probe, sizeof(probe)) < 0)
		return -1;
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
		kf_fact(key, eq + 1);
		n++;
	}
	return n;
}

/*
 * The kernel prints on the same UART whenever it likes: a late driver
 * probe's "input: ImExPS/2 Generic Explorer Mouse ..." once landed inside
 * a "kf: c2c.iterations=" line and the fact was lost. So messages below
 * KERN_WARNING stay in the log buffer; a warning, an oops or a panic still
 * shows and still sets the verdict.
 */
void kf_quiet_console(void)
{
	klogctl(8 /* SYSLOG_ACTION_CONSOLE_LEVEL */, NULL, 5);
}

int kf_debug_exit_ioperm(void)
{
	return ioperm(KF_DEBUG_EXIT_PORT, KF_DEBUG_EXIT_SIZE, 1) == 0;
}

void kf_end_vm(int have_ioperm, void (*fallback)(void))
{
	tcdrain(1);
	if (have_ioperm)
		outl(KF_DEBUG_EXIT_VALUE, KF_DEBUG_EXIT_PORT);	/* QEMU exits KF_EXIT_PASS */
	sync();
	if (fallback)
		fallback();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}
