// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for a system boot's verdicts and their causes
 * (boot/logparse.c in system mode, boot/sysboot.c): real console logs the
 * runner recorded with --disk (tests/data/sysboot/, see its README) give
 * the verdict, the facts unit's facts and a cause that names the driver,
 * systemd's own line or the failed unit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/kf.h"
#include "../../lib/records.h"
#include "../../boot/logparse.h"
#include "../../boot/sysboot.h"

#define D "tests/data/sysboot/"

static enum kf_verdict parse(struct kf_log *log, const char *file)
{
	kf_log_init(log);
	assert_int_equal(kf_log_parse_file(log, file), 0);
	/* the runner's "system boot:" note put the parser in system mode */
	assert_true(log->system);
	return kf_log_verdict(log);
}

static char *cause(const struct kf_log *log, enum kf_verdict v, const char *config,
		   const char *list, const char *initrd)
{
	const struct kf_sys_inputs in = {
		.config = config, .initrd_list = list, .initrd = initrd, .timeout = 20,
	};

	return kf_sys_cause(log, v, &in);
}

static int has(char **v, const char *word)
{
	for (char **p = v; *p; p++)
		if (!strcmp(*p, word))
			return 1;
	return 0;
}

/* Debian's own cloud kernel and initrd boot the system to multi-user.target:
 * the facts unit printed systemd's facts and ended QEMU with 33. */
static void test_pass_debian_cloud(void **state)
{
	struct kf_log log;
	char **mods, **root, **failed;

	(void)state;
	assert_int_equal(parse(&log, D "pass-debian-cloud-qemu64.log"), KF_PASS);
	assert_true(log.multi_user);
	assert_true(log.end_seen);
	assert_int_equal(log.exit_status, KF_EXIT_PASS);
	assert_int_equal(log.failed, 0);
	assert_string_equal(kf_log_fact(&log, KF_SYS_FAILED_COUNT), "0");
	assert_string_equal(kf_log_fact(&log, KF_SYS_ROOT_DEV), "vda");
	assert_true(atof(kf_log_fact(&log, KF_SYS_MULTI_USER)) > 1.0);
	assert_true(atof(kf_log_fact(&log, KF_SYS_MULTI_USER)) >
		    atof(kf_log_fact(&log, KF_SYS_USERSPACE)));
	assert_string_equal(kf_log_fact(&log, "uname.release"), "6.1.0-57-cloud-amd64");
	assert_non_null(kf_log_fact(&log, KF_SYS_MEM_USED));
	mods = kf_sys_words(&log, KF_SYS_MODULES);
	root = kf_sys_words(&log, KF_SYS_ROOT_MODULES);
	failed = kf_sys_failed_units(&log);
	assert_true(has(mods, "virtio_blk") && has(mods, "virtio_pci"));
	assert_true(has(root, "virtio_blk") && has(root, "virtio_pci"));
	assert_null(failed[0]);
	assert_null(cause(&log, KF_PASS, NULL, NULL, NULL));
	kf_sys_strv_free(mods);
	kf_sys_strv_free(root);
	kf_sys_strv_free(failed);
	kf_log_free(&log);
}

/* The same log read as a static-init boot would be: pass too (the end
 * marker, exit 33), but none of the system's verdicts. */
static void test_pass_without_system_mode(void **state)
{
	struct kf_log log;
	char *text = kf_read_file(D "pass-debian-cloud-qemu64.log", NULL), *note;

	(void)state;
	assert_non_null(text);
	/* the runner's "system boot:" note blanked out */
	note = strstr(text, "]! " KF_NOTE_SYSTEM);
	assert_non_null(note);
	memset(note, ' ', strcspn(note, "\n"));
	kf_log_init(&log);
	kf_log_parse_text(&log, text);
	assert_false(log.system);
	assert_int_equal(kf_log_verdict(&log), KF_PASS);
	free(text);
	kf_log_free(&log);
}

/* virtio_blk blacklisted: initramfs-tools gives up waiting for /dev/vda;
 * its line is the cause's, and the config and initrd have the drivers. */
static void test_no_root_initramfs_tools(void **state)
{
	struct kf_log log;
	char *c;

	(void)state;
	assert_int_equal(parse(&log, D "no-root-debian-cloud-blacklist.log"), KF_NO_ROOT);
	assert_non_null(strstr(log.no_root, "Gave up waiting for root file system device"));
	assert_int_equal(kf_log_outcome(&log), KF_NO_ROOT);
	c = cause(&log, KF_NO_ROOT, D "debian-cloud.config.excerpt", D "debian-cloud.initrd.list",
		  "initrd.img");
	assert_non_null(strstr(c, "root device /dev/vda not found"));
	assert_non_null(strstr(c, "the config and the initrd have the root disk's drivers"));
	assert_null(strstr(c, "CONFIG_"));
	free(c);
	kf_log_free(&log);
}

/*
 * The same console with an initrd list that lacks virtio_blk.ko (the real
 * list less that line, written here): the cause names CONFIG_VIRTIO_BLK=m
 * and the missing .ko; without an initrd at all, it says so.
 */
static void test_no_root_initrd_lacks_module(void **state)
{
	char list[] = "/tmp/kf-test-sysboot-list.XXXXXX";
	char *text = kf_read_file(D "debian-cloud.initrd.list", NULL), *c;
	struct kf_log log;
	FILE *f;
	int fd;

	(void)state;
	assert_non_null(text);
	fd = mkstemp(list);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"))
		if (!strstr(l, "/virtio_blk.ko"))
			fprintf(f, "%s\n", l);
	fclose(f);
	parse(&log, D "no-root-debian-cloud-blacklist.log");
	c = cause(&log, KF_NO_ROOT, D "debian-cloud.config.excerpt", list, "initrd.img");
	assert_non_null(strstr(c, "CONFIG_VIRTIO_BLK=m but the initrd has no virtio_blk.ko"));
	assert_null(strstr(c, "VIRTIO_PCI"));
	free(c);
	c = cause(&log, KF_NO_ROOT, D "debian-cloud.config.excerpt", NULL, NULL);
	assert_non_null(strstr(c, "CONFIG_VIRTIO_BLK=m and no initrd to load virtio_blk.ko"));
	assert_non_null(strstr(c, "CONFIG_VIRTIO_PCI=m and no initrd"));
	free(c);
	unlink(list);
	free(text);
	kf_log_free(&log);
}

/*
 * The small flavour with its root disk's driver off (tiny-systemd's
 * fragments and # CONFIG_VIRTIO_BLK is not set) with tiny-systemd's initrd
 * and image: initramfs-tools gives up; the cause names the driver, and the
 * initrd's modules being another release's.
 */
static void test_no_root_driver_off(void **state)
{
	struct kf_log log;
	char *c;

	(void)state;
	assert_int_equal(parse(&log, D "no-root-tiny-no-virtio-blk.log"), KF_NO_ROOT);
	c = cause(&log, KF_NO_ROOT, D "tiny-no-virtio-blk.config", D "tiny-systemd.initrd.list",
		  "initrd.img");
	assert_string_equal(c, "root device /dev/vda not found: CONFIG_VIRTIO_BLK is not set: "
			    "the kernel has no virtio_blk (the root disk's driver); the initrd's "
			    "modules are for 6.1.192-kf-tiny-systemd, the kernel is 6.1.192 "
			    "[Gave up waiting for root file system device.  Common problems:]");
	free(c);
	kf_log_free(&log);
}

/* generic (tinyconfig, no block layer) with no initrd: the kernel never
 * mounts a root and panics without an init; the verdict is no-root, and
 * the cause names BLOCK and the virtio drivers the config lacks. */
static void test_no_root_kernel_without_block(void **state)
{
	struct kf_log log;
	char *c;

	(void)state;
	assert_int_equal(parse(&log, D "no-root-generic-no-block.log"), KF_NO_ROOT);
	assert_true(log.panic);
	assert_true(log.no_init);
	assert_false(log.root_mounted);
	c = cause(&log, KF_NO_ROOT, D "generic.config", NULL, NULL);
	assert_non_null(strstr(c, "CONFIG_BLOCK is not set"));
	assert_non_null(strstr(c, "CONFIG_VIRTIO_BLK is not set: the kernel has no virtio_blk"));
	assert_non_null(strstr(c, KF_NO_INIT_TEXT));
	free(c);
	kf_log_free(&log);
}

/* generic with Debian's initrd: /init is a shell script and the kernel has
 * no BINFMT_SCRIPT; a shell then waits: hang, and the cause quotes the
 * kernel's line and names the initrd's kernel release against the kernel's. */
static void test_hang_init_not_executable(void **state)
{
	struct kf_log log;
	char *c;

	(void)state;
	assert_int_equal(parse(&log, D "hang-generic-debian-initrd.log"), KF_HANG);
	assert_non_null(strstr(log.init_failed, "Failed to execute /init (error -8)"));
	assert_string_equal(log.kernel_release, "6.1.192");
	c = cause(&log, KF_HANG, D "generic.config", D "debian-cloud.initrd.list", "initrd.img");
	assert_non_null(strstr(c, "multi-user.target not reached"));
	assert_non_null(strstr(c, "could not run the initrd's init"));
	free(c);
	kf_log_free(&log);
}

/* A unit of the system failed (one made to fail, /bin/false): the facts
 * unit still ran and names it; the verdict is failed-unit, not pass. */
static void test_failed_unit(void **state)
{
	struct kf_log log;
	char **failed, *c;

	(void)state;
	assert_int_equal(parse(&log, D "failed-unit-debian-cloud.log"), KF_FAILED_UNIT);
	assert_true(log.end_seen);
	assert_int_equal(log.exit_status, KF_EXIT_PASS);
	failed = kf_sys_failed_units(&log);
	assert_string_equal(failed[0], "kf-fails.service");
	assert_null(failed[1]);
	/* the console's [FAILED] line has the name cut to its width */
	assert_int_equal(log.nr_units_failed, 1);
	assert_non_null(strstr(log.units_failed[0], "kf-fails.s"));
	c = cause(&log, KF_FAILED_UNIT, NULL, NULL, NULL);
	assert_string_equal(c, "failed units: kf-fails.service");
	kf_sys_strv_free(failed);
	free(c);
	kf_log_free(&log);
}

/* kflavour's own tiny kernel (tiny-systemd's fragments, VIRTIO_BLK=y, no
 * initrd) under Debian's systemd: BASE_SMALL caps pid_max, Debian's
 * 50-pid-max.conf cannot be applied, systemd-sysctl.service fails. */
static void test_failed_unit_tiny_kernel(void **state)
{
	struct kf_log log;
	char **failed, **root;

	(void)state;
	assert_int_equal(parse(&log, D "failed-unit-tiny-base-small.log"), KF_FAILED_UNIT);
	assert_string_equal(log.kernel_release, "6.1.192");
	failed = kf_sys_failed_units(&log);
	assert_string_equal(failed[0], "systemd-sysctl.service");
	assert_null(failed[1]);
	/* virtio_blk built in: a driver, no module */
	root = kf_sys_words(&log, KF_SYS_ROOT_MODULES);
	assert_null(root[0]);
	assert_string_equal(kf_log_fact(&log, KF_SYS_ROOT_DRIVERS), "virtio_blk virtio-pci");
	assert_string_equal(kf_log_fact(&log, KF_SYS_MODULES_COUNT), "0");
	kf_sys_strv_free(failed);
	kf_sys_strv_free(root);
	kf_log_free(&log);
}

/*
 * tiny-systemd's own package in its system image (make deb, make system),
 * booted by hand without the runner (raw console, tests/data/system/, no
 * nonce, no isa-debug-exit device): read in system mode, the facts unit's
 * report gives failed-unit, the root disk's driver a module.
 */
static void test_raw_console_tiny_systemd(void **state)
{
	struct kf_log log;
	char **failed;

	(void)state;
	kf_log_init(&log);
	log.system = 1;
	assert_int_equal(kf_log_parse_file(&log, "tests/data/system/failed-unit-tiny-systemd-6.1.log"), 0);
	assert_int_equal(kf_log_verdict(&log), KF_FAILED_UNIT);
	assert_string_equal(log.kernel_release, "6.1.192-kf-tiny-systemd");
	failed = kf_sys_failed_units(&log);
	assert_string_equal(failed[0], "systemd-sysctl.service");
	assert_string_equal(kf_log_fact(&log, KF_SYS_ROOT_MODULES), "virtio_blk");
	assert_string_equal(kf_log_fact(&log, KF_SYS_MODULES), "virtio_blk");
	kf_sys_strv_free(failed);
	kf_log_free(&log);
}

/*
 * The small flavour with CGROUPS off (tiny-systemd's fragments, VIRTIO_BLK=y,
 * no initrd): systemd cannot mount its cgroup file systems and freezes;
 * the cause has its own lines, the emergency one first, and the config
 * check's CGROUPS. The static-init boot of the same kernel passes.
 */
static void test_systemd_refused_no_cgroups(void **state)
{
	const struct kf_sys_inputs in = { .config_record = D "tiny-no-cgroups.config.json" };
	struct kf_log log;
	char *c;

	(void)state;
	assert_int_equal(parse(&log, D "systemd-refused-tiny-no-cgroups.log"), KF_SYSTEMD_REFUSED);
	assert_true(log.freeze);
	assert_true(log.root_mounted);
	assert_false(log.multi_user);
	assert_int_equal(kf_log_outcome(&log), KF_SYSTEMD_REFUSED);
	c = kf_sys_cause(&log, KF_SYSTEMD_REFUSED, &in);
	assert_non_null(strstr(c, "systemd refused to start: [!!!!!!] Failed to mount API file"));
	assert_non_null(strstr(c, "Failed to mount cgroup at /sys/fs/cgroup/systemd"));
	assert_null(strstr(c, "autofs4"));
	assert_non_null(strstr(c, "(the config check names what systemd 252 lacks: CGROUPS)"));
	free(c);
	kf_log_free(&log);

	/* the same kernel, kflavour's static init: pass, and not read as a
	 * system boot */
	kf_log_init(&log);
	assert_int_equal(kf_log_parse_file(&log, D "static-pass-tiny-no-cgroups.log"), 0);
	assert_false(log.system);
	assert_int_equal(kf_log_verdict(&log), KF_PASS);
	kf_log_free(&log);
}

/* --timeout 20: systemd was still starting; timeout, not hang. */
static void test_timeout(void **state)
{
	struct kf_log log;
	char *c;

	(void)state;
	assert_int_equal(parse(&log, D "timeout-debian-cloud.log"), KF_TIMEOUT);
	assert_false(log.multi_user);
	assert_false(log.end_seen);
	c = cause(&log, KF_TIMEOUT, NULL, NULL, NULL);
	assert_string_equal(c, "multi-user.target not reached: the boot took longer than the "
			    "time-out (20 s)");
	free(c);
	kf_log_free(&log);
}

/* The records the runner wrote for two of these boots, read back through
 * lib/records.c: a boot record's members and the system boot's. */
static void test_record_read(void **state)
{
	struct kf_sysboot_rec r;
	struct kf_boot_rec b;

	(void)state;
	assert_int_equal(kf_sysboot_rec_read(&r, D "pass-debian-cloud-qemu64.json", KF_MUST, "fix"), 0);
	assert_string_equal(r.b.verdict, "pass");
	assert_int_equal(r.b.exit_status, KF_EXIT_PASS);
	assert_string_equal(r.b.cpu, "qemu64");
	assert_string_equal(r.b.h.release, "6.1.0-57-cloud-amd64");
	assert_null(r.cause);
	assert_int_equal(r.multi_user_reached, 1);
	assert_true(r.multi_user_seconds > r.userspace_seconds && r.userspace_seconds > 0);
	assert_int_equal(r.nfailed_units, 0);
	assert_int_equal(r.nmodules, 26);
	assert_string_equal(r.root_device, "vda");
	assert_int_equal(r.nroot_modules, 2);
	assert_string_equal(r.root_modules[0], "virtio_blk");
	assert_true(r.mem_used_kb > 0 && r.mem_used_kb < r.mem_total_kb);
	assert_non_null(r.initrd_sha256);
	assert_non_null(kf_boot_fact(&r.b, "sys.multi_user_seconds"));
	kf_sysboot_rec_free(&r);

	assert_int_equal(kf_sysboot_rec_read(&r, D "no-root-debian-cloud-blacklist.json", KF_MUST,
					     "fix"), 0);
	assert_string_equal(r.b.verdict, "no-root");
	assert_non_null(strstr(r.cause, "root device /dev/vda not found"));
	assert_non_null(strstr(r.no_root_line, "Gave up waiting"));
	assert_int_equal(r.multi_user_reached, 0);
	assert_true(r.multi_user_seconds != r.multi_user_seconds);	/* NAN: missing */
	kf_sysboot_rec_free(&r);

	/* a system boot's record is not a boot record */
	assert_int_equal(kf_boot_rec_read(&b, D "pass-debian-cloud-qemu64.json", KF_QUIET, "fix"), -1);
	kf_boot_rec_free(&b);
}

static void test_drive_and_cmdline(void **state)
{
	char *d = kf_sys_drive("/out/a,b/image.raw"), *a = kf_sys_append("quiet");

	(void)state;
	assert_string_equal(d, "if=virtio,format=raw,snapshot=on,file=/out/a,,b/image.raw");
	assert_string_equal(a, "root=/dev/vda rw systemd.mask=serial-getty@ttyS0.service quiet");
	free(d);
	free(a);
	a = kf_sys_append(NULL);
	assert_string_equal(a, "root=/dev/vda rw systemd.mask=serial-getty@ttyS0.service");
	free(a);
}

static void test_verdict_names(void **state)
{
	(void)state;
	assert_string_equal(kf_verdict_name(KF_FAILED_UNIT), "failed-unit");
	assert_string_equal(kf_verdict_name(KF_SYSTEMD_REFUSED), "systemd-refused");
	assert_string_equal(kf_verdict_name(KF_NO_ROOT), "no-root");
	assert_string_equal(kf_verdict_name(KF_TIMEOUT), "timeout");
	assert_int_equal(kf_verdict_from_name("no-root"), KF_NO_ROOT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pass_debian_cloud),
		cmocka_unit_test(test_pass_without_system_mode),
		cmocka_unit_test(test_no_root_initramfs_tools),
		cmocka_unit_test(test_no_root_initrd_lacks_module),
		cmocka_unit_test(test_no_root_driver_off),
		cmocka_unit_test(test_no_root_kernel_without_block),
		cmocka_unit_test(test_hang_init_not_executable),
		cmocka_unit_test(test_failed_unit),
		cmocka_unit_test(test_failed_unit_tiny_kernel),
		cmocka_unit_test(test_raw_console_tiny_systemd),
		cmocka_unit_test(test_systemd_refused_no_cgroups),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_record_read),
		cmocka_unit_test(test_drive_and_cmdline),
		cmocka_unit_test(test_verdict_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
