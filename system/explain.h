/* SPDX-License-Identifier: GPL-2.0 */
/*
 * explain.h - why making the Debian system failed, from the log of
 * mmdebstrap (the root filesystem, the image's package install) or of
 * mkfs.ext4: one cause and its fix (docs/system-boot.md, "Bad input").
 */
#ifndef KF_SYSTEM_EXPLAIN_H
#define KF_SYSTEM_EXPLAIN_H

enum kf_sys_fail {
	KF_SYS_UNKNOWN,		/* none of the below: the log's last error */
	KF_SYS_DISK_FULL,	/* No space left on device */
	KF_SYS_NO_MIRROR,	/* apt could not reach a mirror */
	KF_SYS_NO_PACKAGE,	/* a package apt does not know */
	KF_SYS_PKG_FAILED,	/* a package's install or maintainer script failed */
	KF_SYS_DEPENDS,		/* a package's dependency is not in the system */
	KF_SYS_USERNS,		/* no user namespace for an ordinary user */
};

struct kf_sys_why {
	enum kf_sys_fail kind;
	char *cause;		/* one line, what the log says */
	char *fix;		/* what to do */
};

/* Classify log (the whole text). Fills why (free with kf_sys_why_free). */
void kf_sys_explain(const char *log, struct kf_sys_why *why);
void kf_sys_why_free(struct kf_sys_why *why);
/* "disk-full", "no-mirror", ...: the name a test or a record uses. */
const char *kf_sys_fail_name(enum kf_sys_fail kind);

#endif
