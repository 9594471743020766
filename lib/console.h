/* SPDX-License-Identifier: GPL-2.0 */
/*
 * console.h - the console protocol between the guest init and the host
 * (docs/boot.md, "Console protocol"). The guest init (boot/init.c) writes
 * it; the runner, the log parser (boot/logparse.c) and the report (model.c,
 * logdiff.c) read it. Every literal of the protocol is here and nowhere
 * else, so the two sides cannot drift apart.
 *
 * Plain C macros only: the init is linked statically for the guest and
 * includes nothing of the host tools.
 */
#ifndef KF_CONSOLE_H
#define KF_CONSOLE_H

/* Kernel command line parameters the runner passes and the init reads. */
#define KF_NONCE_PARAM	"kflavour.nonce"	/* the run's nonce, echoed at the end */
#define KF_MODE_PARAM	"kflavour.mode"		/* a negative case: hang, oops, chatter */
#define KF_MODE_HANG	"hang"			/* print nothing, never end */
#define KF_MODE_OOPS	"oops"			/* provoke a WARNING, then end */
#define KF_MODE_CHATTER	"chatter"		/* a kernel message amid the report */
#define KF_CHATTER	"kflavour-chatter"	/* ... its messages: ": info", ": warning" */

/* The init's KTAP suite (one test per check it makes). */
#define KF_INIT_SUITE	"kflavour_init"

/* The probe's lines in debugfs start with this; the init drops it. */
#define KF_PROBE_PREFIX	"flavour-probe: "

/* The init's lines after its KTAP document, in this order. */
#define KF_FACT_PREFIX	"kf: "			/* + key=value */
#define KF_UPTIME	"kflavour-uptime "	/* + /proc/uptime's seconds */
#define KF_END_MARKER	"kflavour-end "		/* + the nonce, the last line */
#define KF_NO_NONCE	"(no " KF_NONCE_PARAM "=)"	/* the nonce if none was passed */

/*
 * Then the init writes KF_DEBUG_EXIT_VALUE to QEMU's isa-debug-exit device
 * at KF_DEBUG_EXIT_PORT, and QEMU exits with (value << 1) | 1: a status no
 * other way of ending QEMU gives, so it proves the init reached its end.
 */
#define KF_DEBUG_EXIT_PORT	0xf4
#define KF_DEBUG_EXIT_SIZE	0x04
#define KF_DEBUG_EXIT_VALUE	0x10
#define KF_EXIT_PASS		((KF_DEBUG_EXIT_VALUE << 1) | 1)	/* 33 */

#define KF_STR_(x)	#x
#define KF_STR(x)	KF_STR_(x)
/* QEMU's -device argument for that port. */
#define KF_DEBUG_EXIT_DEVICE	"isa-debug-exit,iobase=" KF_STR(KF_DEBUG_EXIT_PORT) \
				",iosize=" KF_STR(KF_DEBUG_EXIT_SIZE)

/*
 * The system boot (docs/system-boot.md): the facts unit of the project's
 * own (boot/sysfacts.c, run by KF_SYS_UNIT after multi-user.target) prints
 * a KTAP document of suite KF_SYS_SUITE, then these facts among the CPU's
 * and the probe's, then KF_UPTIME and KF_END_MARKER as the init does, and
 * ends QEMU through the same isa-debug-exit.
 */
#define KF_SYS_UNIT	"kflavour-sysfacts.service"
#define KF_SYS_SUITE	"kflavour_system"
#define KF_SYS_MULTI_USER	"sys.multi_user_seconds"	/* since the kernel started */
#define KF_SYS_USERSPACE	"sys.userspace_seconds"		/* when systemd started */
#define KF_SYS_STATE		"sys.system_state"	/* the manager's SystemState */
#define KF_SYS_VERSION		"sys.systemd_version"
#define KF_SYS_FAILED		"sys.failed_units"	/* names, space-separated */
#define KF_SYS_FAILED_COUNT	"sys.failed_count"
#define KF_SYS_MODULES		"sys.modules"		/* /proc/modules, space-separated */
#define KF_SYS_MODULES_COUNT	"sys.modules_count"
#define KF_SYS_ROOT_DEV		"sys.root.device"	/* "vda" */
#define KF_SYS_ROOT_DRIVERS	"sys.root.drivers"	/* the drivers bound on its way */
#define KF_SYS_ROOT_MODULES	"sys.root.modules"	/* ... those loaded as modules */
#define KF_SYS_MEM_TOTAL	"sys.mem.total_kb"
#define KF_SYS_MEM_AVAILABLE	"sys.mem.available_kb"
#define KF_SYS_MEM_USED		"sys.mem.used_kb"	/* total - available */

#endif /* KF_CONSOLE_H */
