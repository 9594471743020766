// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/records.c's kf_flavour_rec_read(): the resolved
 * flavour record config-flavours --record writes (config/flavour.schema.json)
 * read field by field; a missing member stays missing; another kind of
 * record is refused naming the file. And kf_config_state_read(), the
 * config stage's rule of which audit is current.
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

static char *put(const char *text)
{
	char *path = kf_xstrdup("/tmp/kf-flavour-rec-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_read(void **state)
{
	char *p = put("{\"record\": \"flavour\", \"format\": 1, \"flavour\": \"mpsc\", \"kver\": \"6.1\","
		      " \"release\": null, \"recipe\": \"flavours/mpsc.flavour\","
		      " \"fragments\": [\"fragments/base.config\", \"fragments/6.1/cpu-mpsc.config\"],"
		      " \"base\": {\"name\": \"debian:cloud-amd64\", \"file\": \"/usr/src/x.xz\"},"
		      " \"model\": {\"name\": \"nocona\", \"cpu\": \"qemu64,+pni\", \"expect\": \"pass\"},"
		      " \"memory\": \"1G+256M\", \"smp\": \"2\", \"cmdline\": \"\", \"group\": \"default\"}");
	struct kf_flavour_rec f;

	(void)state;
	assert_int_equal(kf_flavour_rec_read(&f, p, KF_MUST, "run make config"), 0);
	assert_string_equal(f.h.flavour, "mpsc");
	assert_string_equal(f.h.kver, "6.1");
	assert_null(f.h.release);
	assert_string_equal(f.recipe, "flavours/mpsc.flavour");
	assert_int_equal(f.nfragments, 2);
	assert_string_equal(f.fragments[1], "fragments/6.1/cpu-mpsc.config");
	assert_string_equal(f.base, "debian:cloud-amd64");
	assert_string_equal(f.base_file, "/usr/src/x.xz");
	assert_string_equal(f.model, "nocona");
	assert_string_equal(f.model_cpu, "qemu64,+pni");
	assert_string_equal(f.model_expect, "pass");
	assert_string_equal(f.memory, "1G+256M");
	assert_string_equal(f.smp, "2");
	assert_string_equal(f.cmdline, "");
	assert_string_equal(f.group, "default");
	kf_flavour_rec_free(&f);
	unlink(p);
	free(p);
}

/* tinyconfig's base has no file; a member that is absent stays NULL. */
static void test_missing(void **state)
{
	char *p = put("{\"record\": \"flavour\", \"format\": 1, \"flavour\": \"generic\", \"kver\": \"6.1\","
		      " \"release\": null, \"base\": {\"name\": \"tinyconfig\", \"file\": null}}");
	struct kf_flavour_rec f;

	(void)state;
	assert_int_equal(kf_flavour_rec_read(&f, p, KF_MUST, "run make config"), 0);
	assert_string_equal(f.base, "tinyconfig");
	assert_null(f.base_file);
	assert_null(f.model);
	assert_null(f.smp);
	assert_int_equal(f.nfragments, 0);
	kf_flavour_rec_free(&f);
	unlink(p);
	free(p);
}

/* A config record where a flavour record belongs: -1 (said on stderr). */
static void test_other_kind(void **state)
{
	char *p = put("{\"record\": \"config\", \"format\": 1, \"flavour\": \"mpsc\", \"kver\": \"6.1\","
		      " \"release\": null}");
	struct kf_flavour_rec f;

	(void)state;
	assert_int_equal(kf_flavour_rec_read(&f, p, KF_QUIET, "run make config"), -1);
	kf_flavour_rec_free(&f);
	unlink(p);
	free(p);
}

static void touch(const char *dir, const char *name, const char *text)
{
	char *p = kf_xasprintf("%s/%s", dir, name);

	assert_int_equal(kf_write_atomic(p, text, strlen(text)), 0);
	free(p);
}

/* config.json alone: it is current; after a failed attempt that got to the
 * audit, config-failed.json is, and config.failed says why. */
static void test_config_state(void **state)
{
	char dir[] = "/tmp/kf-config-state-XXXXXX", *p;
	struct kf_config_state st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	kf_config_state_read(&st, dir);
	assert_null(st.audit);
	assert_null(st.failed);
	kf_config_state_free(&st);
	touch(dir, "config.json", "{}");
	kf_config_state_read(&st, dir);
	p = kf_xasprintf("%s/config.json", dir);
	assert_string_equal(st.audit, p);
	free(p);
	assert_null(st.failed);
	kf_config_state_free(&st);
	touch(dir, "config-failed.json", "{}");
	touch(dir, "config.failed", "audit failed (see config-failed.json)\n");
	kf_config_state_read(&st, dir);
	p = kf_xasprintf("%s/config-failed.json", dir);
	assert_string_equal(st.audit, p);
	free(p);
	assert_string_equal(st.failed, "audit failed (see config-failed.json)");
	kf_config_state_free(&st);
	for (const char *n = "config.json\0config-failed.json\0config.failed\0"; *n; n += strlen(n) + 1) {
		p = kf_xasprintf("%s/%s", dir, n);
		unlink(p);
		free(p);
	}
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_other_kind),
		cmocka_unit_test(test_config_state),
	};

	kf_prog = "test_flavour_rec";
	return cmocka_run_group_tests(tests, NULL, NULL);
}
