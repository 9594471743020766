// SPDX-License-Identifier: GPL-2.0
/*
 * sysfacts.c - the system boot's facts unit (docs/system-boot.md): run by
 * kflavour-sysfacts.service (boot/kflavour-sysfacts.service) once
 * multi-user.target is reached in the installed Debian system. Linked
 * statically like the init (boot/init.c), with which it shares the console
 * protocol and the CPU and probe facts (boot/guest.c). On the console:
 *
 *   KTAP version 1                 suite kflavour_system: what it could read
 *   ...
 *   kf: sys.multi_user_seconds=31.402   systemd's facts (console.h, KF_SYS_*)
 *   kf: sys.failed_units=...
 *   kf: uname.release=... kf: probe.<key>=...   as the static init prints them
 *   kflavour-uptime <seconds>
 *   kflavour-end <nonce>
 *
 * then QEMU's isa-debug-exit (exit status 33: proof the unit reached its
 * end), else systemctl poweroff.
 *
 * systemd's times come from its own D-Bus properties (systemctl show), not
 * from systemd-analyze: this unit is itself a job of the boot transaction,
 * so while it runs the boot is not finished (FinishTimestamp is 0) and
 * systemd-analyze refuses ("Bootup is not yet finished"). The time to
 * multi-user.target is that target's ActiveEnterTimestampMonotonic: the
 * monotonic clock, which starts with the kernel, when the target became
 * active; systemd-analyze's "multi-user.target reached after X in
 * userspace" is the same less UserspaceTimestampMonotonic.
 */
#include "../lib/console.h"
#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>


/* A command's stdout into buf (NUL-terminated); its exit status, or -1. */
static int capture(char *buf, size_t size, char *const argv[])
{
	int pipefd[2], status;
	size_t n = 0;
	pid_t pid;

	buf[0] = '\0';
	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(pipefd[1], 1);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		close(pipefd[0]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pipefd[1]);
	for (;;) {
		ssize_t got = read(pipefd[0], buf + n, size - 1 - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
		if (n == size - 1)
			break;
	}
	buf[n] = '\0';
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The value of "Key=" in systemctl show's output, or NULL (in buf). */
static const char *prop(const char *show, const char *key, char *buf, size_t size)
{
	size_t len = strlen(key);

	for (const char *l = show; *l; ) {
		size_t n = strcspn(l, "\n");

		if (n > len && !strncmp(l, key, len) && l[len] == '=') {
			n -= len + 1;
			if (n >= size)
				n = size - 1;
			memcpy(buf, l + len + 1, n);
			buf[n] = '\0';
			return buf;
		}
		l += n + (l[n] ? 1 : 0);
	}
	return NULL;
}

/* Microseconds of a monotonic timestamp property as seconds, or NULL when
 * it is missing or 0 (never happened). */
static const char *usec_seconds(const char *show, const char *key, char *buf, size_t size)
{
	char v[64];
	unsigned long long us;

	if (!prop(show, key, v, sizeof(v)))
		return NULL;
	us = strtoull(v, NULL, 10);
	if (!us)
		return NULL;
	snprintf(buf, size, "%llu.%06llu", us / 1000000, us % 1000000);
	return buf;
}

static void systemd_facts(void)
{
	static char show[8192], target[2048], failed[8192];
	static char manager_props[] =
		"--property=Version,SystemState,UserspaceTimestampMonotonic,NFailedUnits";
	static char mu_props[] = "--property=ActiveState,ActiveEnterTimestampMonotonic";
	char *manager[] = { "systemctl", "show", manager_props, NULL };
	char *mu[] = { "systemctl", "show", mu_props, "multi-user.target", NULL };
	char *list[] = { "systemctl", "list-units", "--state=failed", "--plain",
			 "--no-legend", "--no-pager", "--full", NULL };
	char buf[256], names[1024] = "", count[16];
	int rc, n = 0;

	rc = capture(show, sizeof(show), manager);
	if (rc != 0 || !prop(show, "SystemState", buf, sizeof(buf)))
		kf_fail("systemd_properties", "systemctl show: exit status %d, no SystemState", rc);
	else
		kf_result("systemd_properties", 1);
	kf_fact(KF_SYS_VERSION, prop(show, "Version", buf, sizeof(buf)));
	kf_fact(KF_SYS_STATE, prop(show, "SystemState", buf, sizeof(buf)));
	kf_fact(KF_SYS_USERSPACE, usec_seconds(show, "UserspaceTimestampMonotonic",
					       buf, sizeof(buf)));

	capture(target, sizeof(target), mu);
	if (prop(target, "ActiveState", buf, sizeof(buf)) && !strcmp(buf, "active"))
		kf_result("multi_user_active", 1);
	else
		kf_fail("multi_user_active", "multi-user.target is '%s', not active",
		     prop(target, "ActiveState", buf, sizeof(buf)) ? buf : "?");
	kf_fact(KF_SYS_MULTI_USER, usec_seconds(target, "ActiveEnterTimestampMonotonic",
						buf, sizeof(buf)));

	/* "name.service loaded failed failed Description": the first word. */
	rc = capture(failed, sizeof(failed), list);
	for (char *l = failed, *next; *l; l = next) {
		size_t len = strcspn(l, " \n");

		next = l + strcspn(l, "\n");
		if (*next)
			next++;
		if (!len)
			continue;
		if (strlen(names) + len + 2 < sizeof(names)) {
			if (names[0])
				strcat(names, " ");
			strncat(names, l, len);
		}
		n++;
	}
	if (rc != 0)
		kf_fail("failed_units_listed", "systemctl list-units --state=failed: exit status %d", rc);
	else
		kf_result("failed_units_listed", 1);
	kf_fact(KF_SYS_FAILED, names);
	snprintf(count, sizeof(count), "%d", n);
	kf_fact(KF_SYS_FAILED_COUNT, count);
}

/* /proc/modules: the modules loaded, by name, into names. */
static int modules(char *names, size_t size)
{
	static char text[65536];
	int n = 0;

	names[0] = '\0';
	if (kf_slurp("/proc/modules", text, sizeof(text)) < 0)
		return -1;
	for (char *l = text; *l; ) {
		size_t len = strcspn(l, " \n"), nl = strcspn(l, "\n");

		if (len && strlen(names) + len + 2 < size) {
			if (names[0])
				strcat(names, " ");
			strncat(names, l, len);
		}
		n += len > 0;
		l += nl + (l[nl] ? 1 : 0);
	}
	return n;
}

/* Whether word is one of the space-separated words. */
static int has_word(const char *words, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = words; (p = strstr(p, word)); p += len)
		if ((p == words || p[-1] == ' ') && (p[len] == ' ' || !p[len]))
			return 1;
	return 0;
}

static void add_word(char *words, size_t size, const char *word)
{
	if (has_word(words, word) || strlen(words) + strlen(word) + 2 >= size)
		return;
	if (words[0])
		strcat(words, " ");
	strcat(words, word);
}

/* The basename of a symlink's target, or NULL. */
static const char *link_name(const char *path, char *buf, size_t size)
{
	ssize_t n = readlink(path, buf, size - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	return slash ? slash + 1 : buf;
}

/*
 * The root file system's block device, and every driver bound on its way
 * from the disk up to the bus (vda: virtio_blk, then virtio-pci), with
 * those that are modules (in /proc/modules) as the module's name: what the
 * initrd had to bring for the root device to appear.
 */
static void root_facts(const char *loaded)
{
	char path[PATH_MAX + 32], real[PATH_MAX], buf[PATH_MAX], mod[PATH_MAX];
	char drivers[512] = "", mods[512] = "", dev[64] = "";
	struct stat st;

	if (stat("/", &st)) {
		kf_fail("root_device", "stat /: %s", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if (!realpath(path, real)) {
		kf_fail("root_device", "%s: %s (the root file system is on no block device)",
		     path, strerror(errno));
		return;
	}
	/* A partition's disk is its parent directory. */
	snprintf(path, sizeof(path), "%s/partition", real);
	if (!access(path, F_OK))
		*strrchr(real, '/') = '\0';
	snprintf(dev, sizeof(dev), "%s", strrchr(real, '/') + 1);
	snprintf(path, sizeof(path), "%s/device", real);
	if (!realpath(path, real)) {
		kf_fail("root_device", "%s: %s", path, strerror(errno));
		return;
	}
	/* Up the device tree to /sys/devices. */
	while (strlen(real) > strlen("/sys/devices")) {
		const char *drv;
		char *slash;

		snprintf(path, sizeof(path), "%s/driver", real);
		drv = link_name(path, buf, sizeof(buf));
		if (drv) {
			const char *m;

			add_word(drivers, sizeof(drivers), drv);
			snprintf(path, sizeof(path), "%s/driver/module", real);
			m = link_name(path, mod, sizeof(mod));
			if (m && has_word(loaded, m))
				add_word(mods, sizeof(mods), m);
		}
		slash = strrchr(real, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	kf_fact(KF_SYS_ROOT_DEV, dev);
	kf_fact(KF_SYS_ROOT_DRIVERS, drivers);
	kf_fact(KF_SYS_ROOT_MODULES, mods);
	if (drivers[0])
		kf_result("root_device", 1);
	else
		kf_fail("root_device", "no driver bound to /dev/%s or a device above it", dev);
}

/* /proc/meminfo's value of key in kB, or -1. */
static long meminfo(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p && p[strlen(key)] == ':' ? strtol(p + strlen(key) + 1, NULL, 10) : -1;
}

static void memory_facts(void)
{
	static char text[8192];
	char buf[32];
	long total, avail;

	if (kf_slurp("/proc/meminfo", text, sizeof(text)) < 0)
		return;
	total = meminfo(text, "MemTotal");
	avail = meminfo(text, "MemAvailable");
	if (total < 0 || avail < 0)
		return;
	snprintf(buf, sizeof(buf), "%ld", total);
	kf_fact(KF_SYS_MEM_TOTAL, buf);
	snprintf(buf, sizeof(buf), "%ld", avail);
	kf_fact(KF_SYS_MEM_AVAILABLE, buf);
	snprintf(buf, sizeof(buf), "%ld", total - avail);
	kf_fact(KF_SYS_MEM_USED, buf);
}

/* When isa-debug-exit did not end QEMU: systemd's own poweroff. */
static void poweroff(void)
{
	char *argv[] = { "systemctl", "poweroff", "--no-block", NULL };
	char buf[64];

	capture(buf, sizeof(buf), argv);
	sleep(60);
}

int main(void)
{
	static char cmdline[4096], facts[65536];
	char nonce[80] = "", why[200], buf[256];
	int have_probe, have_ioperm, fd, n;

	/* The serial console, whatever the unit's StandardOutput says. */
	fd = open("/dev/console", O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, 1);
		close(fd);
	}
	kf_slurp("/proc/cmdline", cmdline, sizeof(cmdline));
	kf_cmdline_param(cmdline, KF_NONCE_PARAM, nonce, sizeof(nonce));
	kf_cpuinfo_load();
	kf_quiet_console();

	/*
	 * The facts go to a temporary file first (kf_say writes fd 1), so the
	 * KTAP document, whose results they decide, comes before them as in
	 * the init's report.
	 */
	char tmpl[] = "/run/kflavour-sysfacts.XXXXXX";
	int tmp = mkstemp(tmpl), console = dup(1);

	if (tmp >= 0) {
		unlink(tmpl);
		dup2(tmp, 1);
	}
	systemd_facts();
	n = modules(facts, sizeof(facts));
	if (n >= 0) {
		char count[16];

		snprintf(count, sizeof(count), "%d", n);
		kf_fact(KF_SYS_MODULES_COUNT, count);
		kf_fact(KF_SYS_MODULES, facts);
	}
	root_facts(n >= 0 ? facts : "");
	memory_facts();
	kf_print_cpu_facts();
	have_probe = kf_probe_check(why, sizeof(why));
	if (have_probe == 0)
		kf_result("probe_readable", 1)->skip = "no probe";
	else if (have_probe > 0)
		kf_result("probe_readable", 1);
	else
		kf_fail("probe_readable", "%s", why);
	if (have_probe > 0)
		kf_print_probe_facts();
	have_ioperm = kf_debug_exit_ioperm();
	if (have_ioperm)
		kf_result("debug_exit_ioperm", 1);
	else
		kf_fail("debug_exit_ioperm", "ioperm(0x%x): %s (CONFIG_X86_IOPL_IOPERM?)",
		     KF_DEBUG_EXIT_PORT, strerror(errno));

	/* The report: KTAP, then the facts gathered, uptime, end marker;
	 * first a newline, which ends a line something else left open (a
	 * login prompt has none). */
	if (console >= 0)
		dup2(console, 1);
	kf_out("\n", 1);
	kf_print_ktap(KF_SYS_SUITE);
	if (tmp >= 0 && lseek(tmp, 0, SEEK_SET) == 0) {
		ssize_t got;
		size_t len = 0;

		while (len < sizeof(facts) - 1 &&
		       (got = read(tmp, facts + len, sizeof(facts) - 1 - len)) > 0)
			len += (size_t)got;
		/* Line by line: each a write of its own, as kf_say does. */
		for (size_t i = 0; i < len; ) {
			size_t nl = i;

			while (nl < len && facts[nl] != '\n')
				nl++;
			kf_out(facts + i, nl - i + (nl < len));
			i = nl + 1;
		}
		close(tmp);
	}
	if (kf_first_line("/proc/uptime", buf, sizeof(buf)))
		kf_say(KF_UPTIME "%.*s", (int)strcspn(buf, " "), buf);
	kf_say(KF_END_MARKER "%s", nonce[0] ? nonce : KF_NO_NONCE);
	kf_end_vm(have_ioperm, poweroff);
}
