// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for system/explain.c: logs recorded when making the Debian
 * system failed for real (tests/data/system/, see its README) give the
 * right kind, cause and fix.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kf.h"
#include "../../system/explain.h"

#define LOGS "tests/data/system/"

/* Explain the recorded log; check its kind and that cause and fix hold the
 * given texts. */
static void expect(const char *file, enum kf_sys_fail kind, const char *cause, const char *fix)
{
	char *text = kf_read_file(file, NULL);
	struct kf_sys_why why;

	assert_non_null(text);
	kf_sys_explain(text, &why);
	if (why.kind != kind || !strstr(why.cause, cause) || !strstr(why.fix, fix))
		fprintf(stderr, "%s: %s: %s; %s\n", file, kf_sys_fail_name(why.kind), why.cause, why.fix);
	assert_int_equal(why.kind, kind);
	assert_non_null(strstr(why.cause, cause));
	assert_non_null(strstr(why.fix, fix));
	kf_sys_why_free(&why);
	free(text);
}

static void no_mirror(void **state)
{
	(void)state;
	expect(LOGS "mmdebstrap-no-mirror.log", KF_SYS_NO_MIRROR, "deb.debian.org",
	       "check the network");
}

static void no_package(void **state)
{
	(void)state;
	expect(LOGS "mmdebstrap-no-package.log", KF_SYS_NO_PACKAGE,
	       "apt knows no package kflavour-no-such-package", "system_include");
}

static void depends(void **state)
{
	(void)state;
	expect(LOGS "install-depends.log", KF_SYS_DEPENDS,
	       "linux-image-0.0.1-kftest depends on kflavour-missing-dep, which the system lacks",
	       "system_include");
}

static void postinst_fails(void **state)
{
	(void)state;
	expect(LOGS "install-postinst-fails.log", KF_SYS_PKG_FAILED,
	       "package linux-image-0.0.1-kftest failed to install: ", "maintainer script");
}

static void disk_full(void **state)
{
	(void)state;
	expect(LOGS "install-disk-full.log", KF_SYS_DISK_FULL, "No space left on device",
	       "free space");
}

static void no_subuid(void **state)
{
	(void)state;
	expect(LOGS "mmdebstrap-no-subuid.log", KF_SYS_USERNS,
	       "no entry in /etc/subuid for kflavour-nosub", "usermod --add-subuids");
}

/* The boot's console holds none of these words: nothing but the last line. */
static void unknown(void **state)
{
	struct kf_sys_why why;

	(void)state;
	kf_sys_explain("I: running apt-get update...\nE: something new\nI: done\n", &why);
	assert_int_equal(why.kind, KF_SYS_UNKNOWN);
	assert_string_equal(why.cause, "E: something new");
	kf_sys_why_free(&why);
	kf_sys_explain("", &why);
	assert_int_equal(why.kind, KF_SYS_UNKNOWN);
	assert_string_equal(why.cause, "");
	kf_sys_why_free(&why);
	assert_string_equal(kf_sys_fail_name(KF_SYS_DISK_FULL), "disk-full");
	assert_string_equal(kf_sys_fail_name(KF_SYS_UNKNOWN), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_mirror),
		cmocka_unit_test(no_package),
		cmocka_unit_test(depends),
		cmocka_unit_test(postinst_fails),
		cmocka_unit_test(disk_full),
		cmocka_unit_test(no_subuid),
		cmocka_unit_test(unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
