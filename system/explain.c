// SPDX-License-Identifier: GPL-2.0
/*
 * explain.c - why making the Debian system failed (explain.h). The log is
 * mmdebstrap's (apt, dpkg, the maintainer scripts under it) or
 * mkfs.ext4's; the first cause found in this order wins: a full disk, no
 * user namespace, a package apt does not know, no mirror, a dependency the
 * system lacks, a package that failed to install. A full disk comes first:
 * apt and dpkg then fail in every other way too.
 */
#include "explain.h"
#include "../lib/kf.h"

#include <stdlib.h>
#include <string.h>

const char *kf_sys_fail_name(enum kf_sys_fail kind)
{
	switch (kind) {
	case KF_SYS_DISK_FULL: return "disk-full";
	case KF_SYS_NO_MIRROR: return "no-mirror";
	case KF_SYS_NO_PACKAGE: return "no-package";
	case KF_SYS_PKG_FAILED: return "package-failed";
	case KF_SYS_DEPENDS: return "depends";
	case KF_SYS_USERNS: return "no-userns";
	case KF_SYS_UNKNOWN: break;
	}
	return "unknown";
}

void kf_sys_why_free(struct kf_sys_why *why)
{
	free(why->cause);
	free(why->fix);
	why->cause = why->fix = NULL;
}

/* The line of text holding p, trimmed, at most 200 bytes. */
static char *line_at(const char *text, const char *p)
{
	const char *b = p, *e = strchr(p, '\n');
	size_t n;

	while (b > text && b[-1] != '\n')
		b--;
	if (!e)
		e = p + strlen(p);
	while (b < e && (*b == ' ' || *b == '\t'))
		b++;
	while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	n = strcspn(b, "\n");
	if (n > (size_t)(e - b))
		n = (size_t)(e - b);
	return kf_xstrndup(b, n < 200 ? n : 200);
}

/* The first of needles found in text, or NULL. */
static const char *find_any(const char *text, const char *const *needles)
{
	const char *best = NULL;

	for (; *needles; needles++) {
		const char *p = strstr(text, *needles);

		if (p && (!best || p < best))
			best = p;
	}
	return best;
}

/* The word after prefix at p ("Unable to locate package X"): up to white
 * space, a quote or a colon. */
static char *word_after(const char *p, const char *prefix)
{
	size_t n;

	p += strlen(prefix);
	n = strcspn(p, " \t\n'\":;,");
	return kf_xstrndup(p, n);
}

static void set(struct kf_sys_why *why, enum kf_sys_fail kind, char *cause, const char *fix)
{
	why->kind = kind;
	why->cause = cause;
	why->fix = kf_xstrdup(fix);
}

static const char *const disk[] = { "No space left on device", "no space left on device",
	"Could not allocate block", "Could not allocate inode", "Disk full", NULL };
static const char *const userns[] = { "/etc/subuid", "/etc/subgid", "newuidmap", "newgidmap",
	"unprivileged_userns_clone", "unshare(CLONE_NEWUSER", "user namespace", NULL };
static const char *const mirror[] = { "Temporary failure resolving", "Could not resolve",
	"Failed to fetch", "Unable to connect to", "Could not connect to", "Connection timed out",
	"Network is unreachable", "Connection refused", "Some index files failed to download", NULL };

void kf_sys_explain(const char *log, struct kf_sys_why *why)
{
	const char *p;

	memset(why, 0, sizeof(*why));
	if ((p = find_any(log, disk))) {
		set(why, KF_SYS_DISK_FULL, line_at(log, p),
		    "free space on that disk (the root filesystem takes about 1 GB while it is made, "
		    "an image as much again), or use a larger one (rootfs= for the root filesystem "
		    "cache, out= for the images)");
		return;
	}
	if ((p = find_any(log, userns))) {
		set(why, KF_SYS_USERNS, line_at(log, p),
		    "mmdebstrap's unshare mode needs, for an ordinary user, newuidmap and a range of "
		    "subordinate ids: as root, apt-get install uidmap and "
		    "usermod --add-subuids 100000-165535 --add-subgids 100000-165535 USER");
		return;
	}
	if ((p = strstr(log, "Unable to locate package "))) {
		char *w = word_after(p, "Unable to locate package ");

		set(why, KF_SYS_NO_PACKAGE, kf_xasprintf("apt knows no package %s", w),
		    "correct the package list (system_include in system/system.mk), or add "
		    "the archive that has it to the machine's apt sources");
		free(w);
		return;
	}
	if ((p = strstr(log, "E: Package '"))) {
		char *w = word_after(p, "E: Package '");

		set(why, KF_SYS_NO_PACKAGE, kf_xasprintf("package %s has no installation candidate",
							 w),
		    "correct the package list (system_include in system/system.mk), or add "
		    "the archive that has it to the machine's apt sources");
		free(w);
		return;
	}
	if ((p = find_any(log, mirror))) {
		set(why, KF_SYS_NO_MIRROR, line_at(log, p),
		    "no mirror of this machine's apt sources was reachable: check the network "
		    "and /etc/apt/sources.list* (apt-get update must work), then make again");
		return;
	}
	if ((p = strstr(log, "dependency problems prevent configuration of "))) {
		const char *d = strstr(p, " depends on ");
		char *pkg = word_after(p, "dependency problems prevent configuration of ");
		char *dep = d ? word_after(d, " depends on ") : kf_xstrdup("(see the log)");

		/* "depends on linux-base (>= 4.3~); however:" */
		set(why, KF_SYS_DEPENDS,
		    kf_xasprintf("%s depends on %s, which the system lacks", pkg, dep),
		    "install it into the root filesystem (system_include in system/system.mk; "
		    "the image step installs the package offline, with dpkg -i)");
		free(pkg);
		free(dep);
		return;
	}
	if ((p = strstr(log, "dpkg: error processing "))) {
		const char *q = strstr(p, "package ");
		char *pkg = q && q < strchr(p, '\n') ? word_after(q, "package ") : line_at(log, p);
		const char *s = strstr(p, "returned error exit status");
		char *sl = s ? line_at(log, s) : kf_xstrdup("");

		set(why, KF_SYS_PKG_FAILED,
		    kf_xasprintf("package %s failed to install%s%s", pkg, *sl ? ": " : "", sl),
		    "its maintainer script's output is in the log above that line; "
		    "fix the package or what its script needs, then make again");
		free(pkg);
		free(sl);
		return;
	}
	/* Anything else: the last "E: " line, else the last line. */
	{
		const char *last = NULL, *q = log;

		while ((q = strstr(q, "E: "))) {
			if (q == log || q[-1] == '\n')
				last = q;
			q += 3;
		}
		if (!last) {
			size_t n = strlen(log);

			while (n && (log[n - 1] == '\n' || log[n - 1] == ' '))
				n--;
			last = log + n;
			while (last > log && last[-1] != '\n')
				last--;
		}
		set(why, KF_SYS_UNKNOWN, line_at(log, last), "read the whole log");
	}
}
