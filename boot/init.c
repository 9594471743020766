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
 *   chatter  log a KERN_INFO and a KERN_WARNING message (/dev/kmsg)
 *          between the KTAP document and the facts, as a late driver probe
 *          does: only the warning reaches the console (quiet_console()).
 *
 * kflavour.c2c= runs one workload of the c2c stage (docs/c2c.md) between
 * the window markers of lib/c2c.h, then reports as usual: its test
 * c2c_workload, and the facts c2c.workload, c2c.iterations, c2c.unit.
 *   calib-8 calib-64 calib-128 calib-same
 *          two processes pinned to CPU 0 and CPU 1 each increment a counter
 *          in one MAP_SHARED page: 8, 64 or 128 bytes apart from the page's
 *          start, or the same counter (user-space accesses)
 *   pipe   a one-byte ping-pong between two processes pinned to CPU 0 and
 *          CPU 1 over two pipes (perf bench sched pipe's shape)
 *   futex  the same ping-pong as turns over a shared int, futex wait/wake
 *   fault  two threads of one process (one mm), pinned to CPU 0 and CPU 1,
 *          both busy at once: each maps a few anonymous pages, writes to
 *          every page (a page fault each) and unmaps them (a TLB shootdown
 *          of the other CPU), in a loop
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "../lib/console.h"
#include "guest.h"
#include "../lib/c2c.h"

#define LKDTM_FILE	"/sys/kernel/debug/provoke-crash/DIRECT"

static char cmdline[4096];


/* The c2c workload run, printed in the facts block (print_facts). */
static const char *c2c_name, *c2c_unit;
static long c2c_iterations;

/* Value of "name=" on the kernel command line, or NULL. */
static const char *cmdline_param(const char *name, char *buf, size_t size)
{
	return kf_cmdline_param(cmdline, name, buf, size);
}

static void mount_check(const char *name, const char *fstype, const char *dir)
{
	mkdir(dir, 0755);
	if (mount(fstype, dir, fstype, 0, NULL) == 0 || errno == EBUSY)
		kf_result(name, 1);
	else
		kf_fail(name, "mount -t %s %s: %s", fstype, dir, strerror(errno));
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

/* The facts block: the CPU's, the c2c run's, then the probe's (guest.c). */
static void print_facts(int have_probe)
{
	kf_print_cpu_facts();
	if (c2c_name) {
		kf_fact("c2c.workload", c2c_name);
		if (c2c_unit) {
			char buf[64];

			snprintf(buf, sizeof(buf), "%ld", c2c_iterations);
			kf_fact("c2c.iterations", buf);
			kf_fact("c2c.unit", c2c_unit);
		}
	}
	if (have_probe)
		kf_print_probe_facts();
}

/* ---- c2c workloads (docs/c2c.md) ---- */

/*
 * Fixed counts, so every run and flavour does the same work. A calibration
 * child runs long enough to span many of round-robin TCG's vCPU time
 * slices (0.1 s each): the two children alternate, and each switch is a
 * HITM on a line they share.
 */
#define C2C_CALIB_ITERATIONS	3000000L
#define C2C_PIPE_ITERATIONS	2000L
#define C2C_FUTEX_ITERATIONS	2000L
#define C2C_FAULT_ITERATIONS	200L
#define C2C_FAULT_PAGES		8
#define C2C_STR_(x)		#x
#define C2C_STR(x)		C2C_STR_(x)

static inline void c2c_open(void)
{
	__asm__ __volatile__(KF_C2C_OPEN_ASM ::: "memory");
}

static inline void c2c_close(void)
{
	__asm__ __volatile__(KF_C2C_CLOSE_ASM ::: "memory");
}

/* Pin the calling process to cpu; 0, or -1 with errno. */
static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static int read_byte(int fd)
{
	char c;
	ssize_t n;

	while ((n = read(fd, &c, 1)) < 0 && errno == EINTR)
		;
	return n == 1 ? 0 : -1;
}

static int write_byte(int fd)
{
	ssize_t n;

	while ((n = write(fd, "x", 1)) < 0 && errno == EINTR)
		;
	return n == 1 ? 0 : -1;
}

/* Child body: the workload of one CPU; returns its exit status. */
typedef int (*c2c_body)(int cpu, void *arg);

/*
 * Two children pinned to CPU 0 and 1 run body; the window is open from
 * just before the parent lets them go until both have exited. 0, or -1
 * after kf_fail().
 */
static int c2c_pair(c2c_body body, void *arg)
{
	int ready[2], go[2], status, bad = 0;
	pid_t pid[2];

	if (pipe(ready) || pipe(go)) {
		kf_fail("c2c_workload", "pipe: %s", strerror(errno));
		return -1;
	}
	for (int c = 0; c < 2; c++) {
		pid[c] = fork();
		if (pid[c] < 0) {
			kf_fail("c2c_workload", "fork: %s", strerror(errno));
			return -1;
		}
		if (pid[c] == 0) {
			if (pin(c))
				_exit(3);
			if (write_byte(ready[1]) || read_byte(go[0]))
				_exit(4);
			_exit(body(c, arg));
		}
	}
	for (int c = 0; c < 2; c++)
		if (read_byte(ready[0]))
			bad = 1;	/* a child died before it was ready */
	c2c_open();
	for (int c = 0; c < 2 && !bad; c++)
		if (write_byte(go[1]))
			bad = 1;
	for (int c = 0; c < 2; c++) {
		if (waitpid(pid[c], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			bad = bad ? bad : (WIFEXITED(status) ? WEXITSTATUS(status) : 9);
	}
	c2c_close();
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	if (bad == 3)
		kf_fail("c2c_workload", "cannot pin a process to CPU 0 and CPU 1 "
		     "(sched_setaffinity; the kernel needs CONFIG_SMP and 2 CPUs online)");
	else if (bad)
		kf_fail("c2c_workload", "a workload process failed (status %d)", bad);
	return bad ? -1 : 0;
}

/* CPU 1's counter's offset from CPU 0's; the children inherit it. */
static long calib_offset;

static int calib_body(int cpu, void *arg)
{
	volatile unsigned long *counter =
		(volatile unsigned long *)((char *)arg + (cpu ? calib_offset : 0));

	for (long i = 0; i < C2C_CALIB_ITERATIONS; i++)
		(*counter)++;
	return 0;
}

struct pipe_pair {
	int ping[2], pong[2];
};

static int pipe_body(int cpu, void *arg)
{
	struct pipe_pair *p = arg;

	for (long i = 0; i < C2C_PIPE_ITERATIONS; i++) {
		if (cpu == 0 ? write_byte(p->ping[1]) || read_byte(p->pong[0])
			     : read_byte(p->ping[0]) || write_byte(p->pong[1]))
			return 5;
	}
	return 0;
}

/* Turns over a shared int: wait (FUTEX_WAIT) until it is ours, hand it
 * over and wake the other (FUTEX_WAKE). */
static int futex_body(int cpu, void *arg)
{
	volatile int *turn = arg;

	for (long i = 0; i < C2C_FUTEX_ITERATIONS; i++) {
		while (*turn != cpu)
			if (syscall(SYS_futex, turn, FUTEX_WAIT, 1 - cpu, NULL, NULL, 0) &&
			    errno != EAGAIN && errno != EINTR)
				return 6;
		*turn = 1 - cpu;
		if (syscall(SYS_futex, turn, FUTEX_WAKE, 1, NULL, NULL, 0) < 0)
			return 6;
	}
	return 0;
}

/*
 * fault: two threads of this process, so one mm (its mmap_lock, counters
 * and page tables) is shared, each pinned to its own CPU. Both wait at a
 * barrier until the window is open, then run at once: mmap C2C_FAULT_PAGES
 * anonymous pages, write to each (a page fault: the page allocator's
 * per-CPU lists, the zone, the LRU), munmap (TLB shootdown of the other
 * CPU, which runs the same mm). The window closes when both are joined.
 */
struct fault_thread {
	pthread_barrier_t *ready, *go;
	int cpu, status, err;	/* status: 0, 3 not pinned, 7 mmap/munmap failed (err) */
};

static void *fault_thread(void *arg)
{
	struct fault_thread *t = arg;
	size_t len = C2C_FAULT_PAGES * 4096UL;

	t->status = pin(t->cpu) ? 3 : 0;
	pthread_barrier_wait(t->ready);
	pthread_barrier_wait(t->go);
	for (long i = 0; i < C2C_FAULT_ITERATIONS && !t->status; i++) {
		volatile char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			t->err = errno;
			t->status = 7;
			break;
		}
		for (size_t off = 0; off < len; off += 4096)
			p[off] = (char)i;
		if (munmap((void *)p, len)) {
			t->err = errno;
			t->status = 7;
		}
	}
	return NULL;
}

static int c2c_fault(void)
{
	pthread_barrier_t ready, go;
	struct fault_thread t[2];
	pthread_t tid[2];
	int err, bad = 0, started = 0, why = 0;

	if ((err = pthread_barrier_init(&ready, NULL, 3)) ||
	    (err = pthread_barrier_init(&go, NULL, 3))) {
		kf_fail("c2c_workload", "pthread_barrier_init: %s", strerror(err));
		return -1;
	}
	for (int c = 0; c < 2; c++) {
		t[c] = (struct fault_thread){ .ready = &ready, .go = &go, .cpu = c };
		if ((err = pthread_create(&tid[c], NULL, fault_thread, &t[c]))) {
			/* The barriers cannot complete: a thread started waits forever
			 * and the init must end, so say it and stop here. */
			kf_fail("c2c_workload", "pthread_create: %s", strerror(err));
			return -1;
		}
		started++;
	}
	pthread_barrier_wait(&ready);
	c2c_open();
	pthread_barrier_wait(&go);
	for (int c = 0; c < started; c++)
		pthread_join(tid[c], NULL);
	c2c_close();
	pthread_barrier_destroy(&ready);
	pthread_barrier_destroy(&go);
	for (int c = 0; c < 2; c++)
		if (t[c].status && !bad) {
			bad = t[c].status;
			why = t[c].err;
		}
	if (bad == 3)
		kf_fail("c2c_workload", "cannot pin a thread to CPU 0 and CPU 1 "
		     "(sched_setaffinity; the kernel needs CONFIG_SMP and 2 CPUs online)");
	else if (bad)
		kf_fail("c2c_workload", "a workload thread failed: mmap or munmap: %s",
		     strerror(why));
	return bad ? -1 : 0;
}

static void c2c_workload(const char *name)
{
	static const struct { const char *name; long offset; } calib[] = {
		{ "calib-8", 8 }, { "calib-64", 64 }, { "calib-128", 128 }, { "calib-same", 0 },
	};
	char online[256];

	c2c_name = name;
	if (!kf_first_line("/sys/devices/system/cpu/online", online, sizeof(online)) ||
	    count_cpu_list(online) < 2) {
		kf_fail("c2c_workload", "%s needs 2 CPUs online, the kernel has '%s' "
		     "(CONFIG_SMP, and -smp 2)", name, kf_first_line("/sys/devices/system/cpu/online",
								   online, sizeof(online)) ? online : "?");
		return;
	}
	for (size_t i = 0; i < sizeof(calib) / sizeof(calib[0]); i++) {
		if (strcmp(name, calib[i].name) != 0)
			continue;
		/* A page: the counters start from a 128-byte boundary. */
		char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);

		if (page == MAP_FAILED) {
			kf_fail("c2c_workload", "mmap MAP_SHARED: %s", strerror(errno));
			return;
		}
		/* Touched now, so the kernel zeroes it before the window opens
		 * (its zeroing writes would be shared with the children). */
		memset(page, 0, 4096);
		calib_offset = calib[i].offset;
		if (c2c_pair(calib_body, page) == 0) {
			c2c_iterations = C2C_CALIB_ITERATIONS;
			c2c_unit = "increment per CPU";
			kf_result("c2c_workload", 1);
		}
		munmap(page, 4096);
		return;
	}
	if (!strcmp(name, "pipe")) {
		struct pipe_pair p;

		if (pipe(p.ping) || pipe(p.pong)) {
			kf_fail("c2c_workload", "pipe: %s", strerror(errno));
			return;
		}
		if (c2c_pair(pipe_body, &p) == 0) {
			c2c_iterations = C2C_PIPE_ITERATIONS;
			c2c_unit = "round trip";
			kf_result("c2c_workload", 1);
		}
		for (int k = 0; k < 2; k++) {
			close(p.ping[k]);
			close(p.pong[k]);
		}
		return;
	}
	if (!strcmp(name, "futex")) {
		int *turn = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				 -1, 0);

		if (turn == MAP_FAILED) {
			kf_fail("c2c_workload", "mmap MAP_SHARED: %s", strerror(errno));
			return;
		}
		*turn = 0;
		if (c2c_pair(futex_body, turn) == 0) {
			c2c_iterations = C2C_FUTEX_ITERATIONS;
			c2c_unit = "round trip";
			kf_result("c2c_workload", 1);
		}
		munmap(turn, 4096);
		return;
	}
	if (!strcmp(name, "fault")) {
		if (c2c_fault() == 0) {
			c2c_iterations = C2C_FAULT_ITERATIONS;
			c2c_unit = "mmap, " C2C_STR(C2C_FAULT_PAGES) " page faults, munmap per CPU";
			kf_result("c2c_workload", 1);
		}
		return;
	}
	kf_fail("c2c_workload", "unknown workload '%s'; valid: calib-8 calib-64 calib-128 "
	     "calib-same pipe futex fault", name);
}

/*
 * kflavour.mode=chatter: two kernel messages amid the report, as a late
 * driver probe prints them. The KERN_INFO one must not reach the console,
 * the KERN_WARNING one must (it shows the other was written too). The
 * report so far is sent first: the tty may still hold the end of the KTAP
 * document, and printk writes to the UART directly, so the warning would
 * land inside one of its lines (seen on a slow machine), not between them.
 */
static void chatter(void)
{
	static const char *const msgs[] = {
		"<6>" KF_CHATTER ": info\n", "<4>" KF_CHATTER ": warning\n",
	};
	int fd;
	size_t i;

	tcdrain(1);
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	for (i = 0; fd >= 0 && i < sizeof(msgs) / sizeof(msgs[0]); i++)
		if (write(fd, msgs[i], strlen(msgs[i])) < 0)
			break;
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	char buf[256], why[160], nonce[80] = "", mode[32] = "";
	static char c2c_param[64];
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
	kf_slurp("/proc/cmdline", cmdline, sizeof(cmdline));

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

	if (kf_cpuinfo_load() < 0)
		kf_fail("cpuinfo_lm", "read /proc/cpuinfo: %s", strerror(errno));
	else if (kf_cpuinfo_flag("lm") == 1)
		kf_result("cpuinfo_lm", 1);
	else
		kf_fail("cpuinfo_lm", "no 'lm' in the flags of /proc/cpuinfo");

	if (cmdline_param("nr_cpus", buf, sizeof(buf))) {
		int want = atoi(buf), got;
		char online[256];

		if (!kf_first_line("/sys/devices/system/cpu/online", online, sizeof(online)))
			kf_fail("cpus_online", "read /sys/devices/system/cpu/online: %s",
			     strerror(errno));
		else if ((got = count_cpu_list(online)) == want)
			kf_result("cpus_online", 1);
		else
			kf_fail("cpus_online", "%d CPUs online (%s), nr_cpus=%d", got, online, want);
	} else {
		kf_skip("cpus_online", "no nr_cpus= on the command line");
	}

	switch (kf_probe_check(why, sizeof(why))) {
	case 0:
		kf_skip("probe_readable", "no probe");
		break;
	case 1:
		kf_result("probe_readable", have_probe = 1);
		break;
	default:
		kf_fail("probe_readable", "%s", why);
	}

	if (!strcmp(mode, KF_MODE_OOPS)) {
		/* A real kernel WARNING, from the kernel's own crash tester. */
		fd = open(LKDTM_FILE, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			kf_fail("provoke_warning", "open %s: %s (needs CONFIG_LKDTM)",
			     LKDTM_FILE, strerror(errno));
		else if (write(fd, "WARNING\n", 8) != 8)
			kf_fail("provoke_warning", "write WARNING to %s: %s", LKDTM_FILE,
			     strerror(errno));
		else
			kf_result("provoke_warning", 1);
		if (fd >= 0)
			close(fd);
	}

	have_ioperm = kf_debug_exit_ioperm();
	if (have_ioperm)
		kf_result("debug_exit_ioperm", 1);
	else
		kf_fail("debug_exit_ioperm", "ioperm(0x%x): %s (CONFIG_X86_IOPL_IOPERM?)",
		     KF_DEBUG_EXIT_PORT, strerror(errno));

	if (cmdline_param(KF_C2C_PARAM, c2c_param, sizeof(c2c_param)))
		c2c_workload(c2c_param);

	kf_quiet_console();
	kf_print_ktap(KF_INIT_SUITE);
	if (!strcmp(mode, KF_MODE_CHATTER))
		chatter();
	print_facts(have_probe);
	if (kf_first_line("/proc/uptime", buf, sizeof(buf)))
		kf_say(KF_UPTIME "%.*s", (int)strcspn(buf, " "), buf);
	kf_say(KF_END_MARKER "%s", nonce[0] ? nonce : KF_NO_NONCE);
	kf_end_vm(have_ioperm, NULL);
}
