/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysboot.h - one system boot without QEMU running (boot/sysboot.c;
 * docs/system-boot.md): the root disk QEMU is given, the kernel command
 * line's part of it, and the cause a verdict names, from the console with
 * the flavour's .config, its config record and the initrd's file list.
 * boot/runner.c runs it; the unit tests call it.
 */
#ifndef KF_SYSBOOT_H
#define KF_SYSBOOT_H

#include "logparse.h"

/*
 * The root disk: the image on a virtio disk, never written. No login
 * prompt on the serial console: the getty's "kflavour login: " has no
 * newline, and the facts unit's report would run into it (the console is
 * the protocol's channel; systemd's own kernel parameter masks the unit).
 */
#define KF_SYS_ROOT	"/dev/vda"
#define KF_SYS_GETTY	"serial-getty@ttyS0.service"
#define KF_SYS_CMDLINE	"root=" KF_SYS_ROOT " rw systemd.mask=" KF_SYS_GETTY

/* What a system boot is booted from; any may be NULL (not known). */
struct kf_sys_inputs {
	const char *config;		/* the flavour's .config */
	const char *config_record;	/* its config.json (the systemd check) */
	const char *initrd;		/* the initrd booted; NULL: none */
	const char *initrd_list;	/* its files, as lsinitramfs lists them */
	double timeout;			/* the runner's --timeout */
};

/* QEMU's -drive value for image: virtio, raw, snapshot=on (a comma in the
 * path doubled, as QEMU's option syntax wants). malloc'ed. */
char *kf_sys_drive(const char *image);

/* The kernel command line's system part and the runner's --append. */
char *kf_sys_append(const char *append);

/*
 * The cause of verdict v in words, naming what the console and the inputs
 * say: the driver the root disk lacked (CONFIG_X off, or =m without its .ko
 * in the initrd, or an initrd of another kernel), systemd's own lines when
 * it refused (and what the config check found missing), the failed units,
 * the time-out. NULL for a pass. malloc'ed.
 */
char *kf_sys_cause(const struct kf_log *log, enum kf_verdict v, const struct kf_sys_inputs *in);

/* The failed units: the facts unit's list, else the console's [FAILED]
 * lines; a NULL-terminated malloc'ed array of malloc'ed names. */
char **kf_sys_failed_units(const struct kf_log *log);
/* A fact's space-separated words, the same way. */
char **kf_sys_words(const struct kf_log *log, const char *key);
void kf_sys_strv_free(char **v);

#endif /* KF_SYSBOOT_H */
