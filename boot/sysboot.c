// SPDX-License-Identifier: GPL-2.0
/*
 * sysboot.c - one system boot without QEMU running (sysboot.h): the root
 * disk, the command line, and the cause a verdict names.
 */
#include "sysboot.h"
#include "../lib/dotconfig.h"
#include "../lib/kf.h"
#include "../lib/records.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * What the root disk needs of the kernel, bus to file system: QEMU's
 * "-drive if=virtio" is a virtio-pci device, its disk virtio_blk's, the
 * image ext4. Each is built in, or a module the initrd must carry.
 */
static const struct {
	const char *module, *symbol, *what;
} root_chain[] = {
	{ NULL, "BLOCK", "block layer" },
	{ "virtio_pci", "VIRTIO_PCI", "the virtio disk's PCI transport" },
	{ "virtio_blk", "VIRTIO_BLK", "the root disk's driver" },
	{ "ext4", "EXT4_FS", "the root file system's" },
};

char *kf_sys_drive(const char *image)
{
	struct strbuf sb = { 0 };

	sb_add(&sb, "if=virtio,format=raw,snapshot=on,file=");
	for (const char *p = image; *p; p++) {
		if (*p == ',')
			sb_add(&sb, ",,");
		else
			sb_addn(&sb, p, 1);
	}
	return sb.s;
}

char *kf_sys_append(const char *append)
{
	return kf_xasprintf(KF_SYS_CMDLINE "%s%s", append && *append ? " " : "",
			    append ? append : "");
}

/* Whether the initrd's list has module name's file (".ko", compressed too). */
static int list_has_module(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *l = list; *l; ) {
		size_t n = strcspn(l, "\n");
		const char *base = l + n;

		while (base > l && base[-1] != '/')
			base--;
		if ((size_t)(l + n - base) >= len + 3 && !strncmp(base, name, len) &&
		    !strncmp(base + len, ".ko", 3) &&
		    (base + len + 3 == l + n || base[len + 3] == '.'))
			return 1;
		l += n + (l[n] ? 1 : 0);
	}
	return 0;
}

/* The release of the first lib/modules/<release>/ in the list, or NULL. */
static char *list_release(const char *list)
{
	const char *p = strstr(list, "lib/modules/");

	if (!p)
		return NULL;
	p += strlen("lib/modules/");
	return kf_xstrndup(p, strcspn(p, "/\n"));
}

/* Why the root device was not found, from the config and the initrd. */
static void no_root_cause(struct strbuf *sb, const struct kf_log *log,
			  const struct kf_sys_inputs *in)
{
	char err[512], *list = in->initrd_list ? kf_read_file(in->initrd_list, NULL) : NULL;
	char *rel = list ? list_release(list) : NULL;
	struct kf_config c;
	int have_config = in->config && !kf_config_read(&c, in->config, NULL, err, sizeof(err));
	size_t named = 0;

	sb_add(sb, "root device " KF_SYS_ROOT " not found");
	for (size_t i = 0; have_config && i < sizeof(root_chain) / sizeof(root_chain[0]); i++) {
		const char *v = kf_config_value(&c, root_chain[i].symbol);

		if (!strcmp(v, "n") && !root_chain[i].module) {
			sb_addf(sb, "%sCONFIG_%s is not set: the kernel has no %s",
				named++ ? "; " : ": ", root_chain[i].symbol, root_chain[i].what);
		} else if (!strcmp(v, "n")) {
			sb_addf(sb, "%sCONFIG_%s is not set: the kernel has no %s (%s)",
				named++ ? "; " : ": ", root_chain[i].symbol, root_chain[i].module,
				root_chain[i].what);
		} else if (!root_chain[i].module) {
			continue;
		} else if (!strcmp(v, "m") && !in->initrd) {
			sb_addf(sb, "%sCONFIG_%s=m and no initrd to load %s.ko from (%s)",
				named++ ? "; " : ": ", root_chain[i].symbol, root_chain[i].module,
				root_chain[i].what);
		} else if (!strcmp(v, "m") && list && !list_has_module(list, root_chain[i].module)) {
			sb_addf(sb, "%sCONFIG_%s=m but the initrd has no %s.ko (%s)",
				named++ ? "; " : ": ", root_chain[i].symbol, root_chain[i].module,
				root_chain[i].what);
		}
	}
	/* An initrd made for another kernel: none of its modules load. */
	if (rel && log->kernel_release && strcmp(rel, log->kernel_release) != 0)
		sb_addf(sb, "%sthe initrd's modules are for %s, the kernel is %s",
			named++ ? "; " : ": ", rel, log->kernel_release);
	if (!named && have_config)
		sb_add(sb, ": the config and the initrd have the root disk's drivers "
		       "(virtio_pci, virtio_blk, ext4); see the log");
	if (log->no_root)
		sb_addf(sb, " [%s]", log->no_root);
	else if (log->no_init)
		sb_add(sb, " [the kernel mounted no root file system: " KF_NO_INIT_TEXT "]");
	if (have_config)
		kf_config_free(&c);
	free(rel);
	free(list);
}

/* What the config check (config.json "systemd") found missing, if any. */
static void config_check(struct strbuf *sb, const struct kf_sys_inputs *in)
{
	struct kf_config_rec c;

	if (!in->config_record || kf_config_rec_read(&c, in->config_record, KF_QUIET, NULL))
		return;
	if (c.systemd.checked && c.systemd.nmissing) {
		sb_addf(sb, " (the config check names what systemd %s lacks:",
			c.systemd.version ? c.systemd.version : "");
		for (size_t i = 0; i < c.systemd.nmissing; i++)
			sb_addf(sb, " %s", c.systemd.missing[i].symbol);
		sb_add(sb, ")");
	}
	kf_config_rec_free(&c);
}

static char **words(const char *s)
{
	char **v = kf_xmalloc(sizeof(*v));
	size_t n = 0;

	while (s && *s) {
		size_t len;

		s += strspn(s, " ");
		len = strcspn(s, " ");
		if (!len)
			break;
		v = kf_xrealloc(v, (n + 2) * sizeof(*v));
		v[n++] = kf_xstrndup(s, len);
		s += len;
	}
	v[n] = NULL;
	return v;
}

char **kf_sys_words(const struct kf_log *log, const char *key)
{
	return words(kf_log_fact(log, key));
}

char **kf_sys_failed_units(const struct kf_log *log)
{
	char **v;

	if (kf_log_fact(log, KF_SYS_FAILED))
		return words(kf_log_fact(log, KF_SYS_FAILED));
	v = kf_xmalloc((log->nr_units_failed + 1) * sizeof(*v));
	for (size_t i = 0; i < log->nr_units_failed; i++)
		v[i] = kf_xstrdup(log->units_failed[i]);
	v[log->nr_units_failed] = NULL;
	return v;
}

void kf_sys_strv_free(char **v)
{
	for (char **p = v; p && *p; p++)
		free(*p);
	free(v);
}

char *kf_sys_cause(const struct kf_log *log, enum kf_verdict v, const struct kf_sys_inputs *in)
{
	struct strbuf sb = { 0 };
	char **units;

	switch (v) {
	case KF_PASS:
		return NULL;
	case KF_NO_ROOT:
		no_root_cause(&sb, log, in);
		break;
	case KF_SYSTEMD_REFUSED:
		sb_add(&sb, "systemd refused to start");
		/* its emergency status line first, then its log lines */
		for (int pass = 0, n = 0; pass < 2; pass++)
			for (size_t i = 0; i < log->nr_sys_lines && n < 3; i++) {
				const char *l = log->sys_lines[i];

				if ((pass == 0) != !strncmp(l, KF_SYS_EMERG_PREFIX,
							    strlen(KF_SYS_EMERG_PREFIX)))
					continue;
				sb_addf(&sb, "%s%s", n++ ? "; " : ": ", l);
			}
		if (log->freeze)
			sb_add(&sb, "; it froze (" KF_SYS_FREEZE_TEXT ")");
		config_check(&sb, in);
		break;
	case KF_FAILED_UNIT:
		units = kf_sys_failed_units(log);
		sb_add(&sb, "failed units:");
		for (char **u = units; *u; u++)
			sb_addf(&sb, " %s", *u);
		if (!log->end_seen)
			sb_add(&sb, log->emergency ? " (emergency mode; multi-user.target not reached)"
				   : " (multi-user.target not reached)");
		kf_sys_strv_free(units);
		break;
	case KF_TIMEOUT:
	case KF_HANG:
		sb_addf(&sb, "multi-user.target not reached: %s",
			v == KF_TIMEOUT ? "the boot took longer than the time-out" :
			"no console output for the hang time-out");
		if (v == KF_TIMEOUT && in->timeout > 0)
			sb_addf(&sb, " (%.0f s)", in->timeout);
		if (log->multi_user)
			sb_add(&sb, "; systemd said it reached multi-user.target, but the facts "
			       "unit did not end the boot (" KF_SYS_UNIT ")");
		if (log->init_failed)
			sb_addf(&sb, "; the kernel could not run the initrd's init [%s]",
				log->init_failed);
		break;
	default:
		sb_add(&sb, kf_verdict_name(v));
		if (log->nr_warnings)
			sb_addf(&sb, ": %s", log->warnings[0]);
		else if (log->failed)
			sb_add(&sb, ": a KTAP test failed");
		break;
	}
	return sb.s;
}
