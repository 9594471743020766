// SPDX-License-Identifier: GPL-2.0
/*
 * bench - 'make bench': the pipeline's speed, measured in one run.
 *
 *   bench --top DIR --tree KDIR --out DIR --kver K --jobs N
 *            --flavours "generic k8 mpsc" [--distro FLAVOUR] [--steps "N ..."]
 *            [--sysboot FLAVOUR --rootfs DIR] [--report FILE]
 *
 * Every out= is a fresh scratch directory under --out that shares the
 * prepared tree of KDIR by hard links (build/linktree.sh), so "cold" means
 * no object of the flavour exists yet; the tree itself is never timed.
 * Steps, one after another:
 *
 *   1. seq: each flavour on its own, 'make build flavour=F CCACHE=0', one
 *      make (-jN) per flavour (configured first, not timed);
 *   2. first: a whole first 'make CCACHE=0' on an empty out=: config, all
 *      builds under one jobserver, the boot matrix, the report. Its build
 *      stage (build.json's started..finished) is what step 1 is compared
 *      with; the whole make with its CPU floor (CPU seconds / jobs);
 *   3. boots: the matrix again from built kernels ('make matrix'), and
 *      each boot's own wall time from its record;
 *   4. no-op: 'make' (every stage) and 'make build' on step 2's out=, best
 *      of 3, and raw Kbuild's no-op on the same trees;
 *   5. ccache in a private, empty cache: a cold build that fills it, then
 *      the same flavour in another out= (hits across out= directories);
 *   6. a fragment toggle: the first flavour without its microcode fragment,
 *      from a scratch copy of the checkout, rebuilt on step 1's out=;
 *   7. raw Kbuild, cold, for the first flavour with step 1's .config;
 *   8. with --distro: that flavour's first 'make config' and 'make' on step
 *      2's out= (beside the tiny flavours, so one report has them all), and
 *      raw Kbuild cold on its .config;
 *   9. jobs: 'make build CCACHE=0', every flavour in one make under one
 *      jobserver on an empty out= (configured first, not timed): step 1's
 *      work and nothing else. Step 2's build stage is not that: the boots
 *      of the flavours built first run inside its window.
 *  10. farm (root; build/farm.sh): the first flavour cold, CCACHE=0,
 *      through three distccd in network namespaces on this machine
 *      (DISTCC_HOSTS, 2 jobs each, make -j8): the build's own CPU is what
 *      this machine spends per object when every compile is remote (the
 *      servers are daemons, not the build's children); then one object
 *      deleted and raw Kbuild run again: the serial part (compile one,
 *      link, modpost, kallsyms, vmlinux, bzImage). docs/build.md's farm
 *      model is made of these rows and step 8's.
 *  11. c2c (docs/c2c.md): on step 2's out= (its kernels built first when
 *      missing, not timed, nor the c2c plugins and the initramfs), 'make
 *      c2c' of every flavour, runs=5, on a fresh c2c state (each flavour's
 *      c2c/ removed): the 3 minutes for the three tiny flavours.
 *      Then the first flavour's run 1 again, QEMU's own command from its
 *      boot record, with the plugin and without it (the same boot, the
 *      plugin's -plugin and -d plugin taken out), alternated, 3 times each:
 *      the median walls' ratio is the plugin's cost (at most 5x).
 *  12. the shared cache (root; build/farm.sh cache, docs/build.md): the
 *      first flavour four times, each on an empty out= with an empty local
 *      cache: the remote empty (cold: fills it), warm (another machine's
 *      first build: at most 0.35x cold), none (no ccache_remote), and
 *      unreachable (the server stopped: at most 1.05x none) (remote.c).
 *  13. with --sysboot (tiny-systemd; docs/system-boot.md): on step 2's
 *      out=, that flavour packaged, installed in the Debian system (the
 *      cached root filesystem in --rootfs) and booted both ways by one make
 *      (not timed); then its system boot (to multi-user.target) and the
 *      static-init boot of the same kernel, QEMU's own commands from their
 *      records, alternated, 3 times each: the medians' ratio (sysboot.c).
 *
 * The steps run in the order of what the goals need most, so a run cut
 * short still answers the first questions; --steps "4 5" runs only some,
 * on the seq and first directories an earlier run left.
 *
 * Wall time by the monotonic clock, CPU as user + system of the command's
 * process tree (wait4's rusage). Each command's output goes to a log under
 * --out. The table is rewritten after every step (an interrupted run keeps
 * what it measured) to --report, and printed at the end.
 */
#include "bench.h"
#include "../lib/kf.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct bench b;
struct figures m;

static const struct run none = { -1, -1 };

static void usage(void)
{
	fprintf(stderr, "usage: bench --top DIR --tree KDIR --out DIR --kver K --jobs N"
		" --flavours LIST --kcppflags FLAGS [--distro FLAVOUR] [--steps \"N ...\"]"
		" [--sysboot FLAVOUR --rootfs DIR] [--report FILE]\n");
	exit(2);
}

/* Is step n selected? --steps "4 5 6" runs those only, on the scratch
 * out= directories an earlier run left (seq, first). */
static int step(int n)
{
	char want[12];
	const char *p;

	if (!b.steps)
		return 1;
	size_t wl;

	snprintf(want, sizeof(want), "%d", n);
	wl = strlen(want);	/* step 10 is two digits: "1" must not match it */
	for (p = b.steps; (p = strstr(p, want)); p++)
		if ((p == b.steps || p[-1] == ' ') && (p[wl] == ' ' || !p[wl]))
			return 1;
	return 0;
}

static void parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, 't' },
		{ "out", required_argument, NULL, 'o' },
		{ "kver", required_argument, NULL, 'k' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "flavours", required_argument, NULL, 'f' },
		{ "report", required_argument, NULL, 'r' },
		{ "steps", required_argument, NULL, 's' },
		{ "distro", required_argument, NULL, 'd' },
		{ "tree", required_argument, NULL, 'T' },
		{ "kcppflags", required_argument, NULL, 'K' },
		{ "sysboot", required_argument, NULL, 'S' },
		{ "rootfs", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	const char *flavours = NULL;
	char *tok, *save = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't': b.top = optarg; break;
		case 'o': b.bout = optarg; break;
		case 'k': b.kver = optarg; break;
		case 'j': b.jobs = atoi(optarg); break;
		case 'f': flavours = optarg; break;
		case 'r': b.report = optarg; break;
		case 's': b.steps = *optarg ? optarg : NULL; break;
		case 'd': b.distro = *optarg ? optarg : NULL; break;
		case 'T': free(b.src_kdir); b.src_kdir = kf_xstrdup(optarg); break;
		case 'K': b.kcppflags = optarg; break;
		case 'S': b.sysboot = *optarg ? optarg : NULL; break;
		case 'R': b.rootfs = optarg; break;
		default: usage();
		}
	}
	if (optind != argc || !b.top || !b.bout || !b.kver || b.jobs < 1 || !flavours ||
	    !b.src_kdir || !b.kcppflags || (b.sysboot && !b.rootfs))
		usage();
	b.flavour_arg = flavours;
	b.flavours = kf_xstrdup(flavours);
	for (tok = strtok_r(b.flavours, " ", &save); tok && b.nf < MAX_FLAVOURS;
	     tok = strtok_r(NULL, " ", &save))
		b.fl[b.nf++] = tok;
	if (b.nf == 0)
		usage();
}

int main(int argc, char **argv)
{
	char *seq, *first, *cfg;

	kf_prog = "bench";
	parse_args(argc, argv);
	/*
	 * Each make it starts is a make of its own, as a user's would start:
	 * none of the calling make's flags (-j without its jobserver,
	 * command-line variables). The lock token names the out= it locks, so
	 * the scratch out= directories take their own locks.
	 */
	unsetenv("MAKEFLAGS");
	unsetenv("MFLAGS");
	unsetenv("MAKELEVEL");
	unsetenv("MAKEOVERRIDES");
	kf_proc_forward_signals();
	for (int i = 0; i < MAX_FLAVOURS; i++)
		m.seq[i] = none;
	m.seq_total = m.jobs = m.first = m.first_build = m.matrix = none;
	m.noop_all = m.noop_build = m.raw_noop = m.raw = none;
	m.cc_cold = m.cc_warm = m.toggle = none;
	m.d_config = m.d_make = m.d_build = m.d_raw = none;
	m.farm = m.serial = none;
	m.c2c_make = m.c2c_plugin = m.c2c_plain = none;
	m.rc_cold = m.rc_warm = m.rc_none = m.rc_down = none;
	m.sysboot = m.sysboot_static = none;
	m.sysboot_mu = -1;
	m.boot_max = m.boot_median = -1;
	b.load_start = loadavg();
	b.start_time = time(NULL);
	kf_mkdir_p(b.bout);

	seq = step(1) ? step_seq() : xout("seq");
	table();
	first = step(2) ? step_first() : xout("first");
	table();
	if (step(3))
		step_matrix(first);
	table();
	if (step(4))
		step_noop(first);
	table();
	if (step(5))
		step_ccache();
	table();
	/* step 1's configuration, kept before step 6 turns microcode off */
	cfg = xout("cold.config");
	if (step(6))
		step_toggle(seq);
	table();
	if (step(7))
		m.raw = kbuild_cold("raw", cfg);
	table();
	if (b.distro && step(8)) {
		step_distro(first);
		table();
	}
	if (step(9))
		step_jobs();
	table();
	if (step(10))
		step_farm();
	table();
	if (step(11))
		step_c2c(first);
	table();
	if (step(12))
		step_remote();
	table();
	if (b.sysboot && step(13)) {
		step_sysboot(first);
		table();
	}
	if (b.report) {
		size_t len;
		char *text = kf_read_file(b.report, &len);

		if (text)
			fputs(text, stdout);
		free(text);
	}
	free(cfg);
	free(seq);
	free(first);
	free(b.src_kdir);
	free(b.flavours);
	return 0;
}
