// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for build/ccremote.c: ccache_remote's URL (accepted forms,
 * refusals naming the fix, the password never in a message), ccache's value
 * for it, the redacted URL, ccache's feature line, and the remote counters
 * of a ccache 4.7 stats log (real lines, from tests/slow/36-cache.sh's runs).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "../../build/ccremote.h"

static void parses_urls(void **state)
{
	struct ccr_url u;
	char err[512], out[512];

	(void)state;
	assert_int_equal(ccr_parse("redis://:s3cret@198.51.100.2:6380", &u, err, sizeof(err)), 0);
	assert_string_equal(u.password, "s3cret");
	assert_string_equal(u.user, "");
	assert_string_equal(u.host, "198.51.100.2");
	assert_int_equal(u.port, 6380);
	assert_int_equal(u.db, -1);
	ccr_redacted(&u, out, sizeof(out));
	assert_string_equal(out, "redis://:***@198.51.100.2:6380");
	/* ccache 4.7 sends no AUTH for ":PASSWORD@": it gets "PASSWORD@" */
	ccr_ccache_value(&u, out, sizeof(out));
	assert_string_equal(out, "redis://s3cret@198.51.100.2:6380|connect-timeout=200|operation-timeout=1000");

	assert_int_equal(ccr_parse("redis://cache.example", &u, err, sizeof(err)), 0);
	assert_int_equal(u.port, 6379);
	ccr_redacted(&u, out, sizeof(out));
	assert_string_equal(out, "redis://cache.example:6379");
	ccr_ccache_value(&u, out, sizeof(out));
	assert_string_equal(out, "redis://cache.example:6379|connect-timeout=200|operation-timeout=1000");

	assert_int_equal(ccr_parse("redis://team:pw-1@h/2", &u, err, sizeof(err)), 0);
	assert_string_equal(u.user, "team");
	assert_int_equal(u.db, 2);
	ccr_redacted(&u, out, sizeof(out));
	assert_string_equal(out, "redis://team:***@h:6379/2");
	ccr_ccache_value(&u, out, sizeof(out));
	assert_string_equal(out, "redis://team:pw-1@h:6379/2|connect-timeout=200|operation-timeout=1000");
}

/* refused, with a message holding want and never the password "pw9" */
static void refused(const char *url, const char *want)
{
	struct ccr_url u;
	char err[512];

	assert_int_equal(ccr_parse(url, &u, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("%s: '%s' lacks '%s'", url, err, want);
	assert_null(strstr(err, "pw9"));
}

static void refuses_bad_urls(void **state)
{
	(void)state;
	refused("", "empty; give redis://[:PASSWORD@]HOST[:PORT]");
	refused("http://:pw9@h", "ccache_remote=http://:***@h: unknown scheme 'http://'");
	refused("rediss://:pw9@h", "TLS (rediss://)");
	refused("h:6379", "not a URL");
	refused("pw9@h", "ccache_remote=***@h: not a URL");
	refused("redis://pw9@h", "names a user without a password; write the password after a colon");
	refused("redis://:@h", "the password after ':' is empty");
	refused("redis://:pw9|x@h", "blanks, '|'");
	refused("redis://:pw9%@h", "the password may hold only");
	refused("redis://:pw9@", "no host");
	refused("redis://:pw9@h:0", "the port must be");
	refused("redis://:pw9@h:65536", "the port must be");
	refused("redis://:pw9@h:x", "the port must be");
	refused("redis://:pw9@[::1]", "IPv6");
	refused("redis://:pw9@h_x", "the host may hold only");
	refused("redis://:pw9@h/db", "only /DB");
}

static void redacts_raw(void **state)
{
	char out[256];

	(void)state;
	ccr_redact_raw("redis://:pw@h:1", out, sizeof(out));
	assert_string_equal(out, "redis://:***@h:1");
	ccr_redact_raw("x://a:b@c@h/p@q", out, sizeof(out));
	assert_string_equal(out, "x://:***@h/p@q");
	ccr_redact_raw("redis://h", out, sizeof(out));
	assert_string_equal(out, "redis://h");
}

static void reads_ccache_features(void **state)
{
	(void)state;
	assert_true(ccr_ccache_has_redis("ccache version 4.7.5\n"
		"Features: file-storage http-storage redis+unix-storage redis-storage\n\nCopyright"));
	assert_false(ccr_ccache_has_redis("ccache version 4.7.5\nFeatures: file-storage http-storage\n"));
	assert_false(ccr_ccache_has_redis("ccache version 4.7.5\nFeatures: redis+unix-storage\n"));
	assert_false(ccr_ccache_has_redis("ccache version 3.7.12\n"));
}

static void counts_remote_stats(void **state)
{
	struct ccr_counts c;

	(void)state;
	/* depend mode's miss: a read miss (the manifest), then two writes */
	ccr_count("# /dev/null\ncache_miss\nremote_storage_miss\nremote_storage_write\n"
		  "# ../src/mm/a.c\ncache_miss\ndirect_cache_miss\nlocal_storage_read_miss\n"
		  "local_storage_write\nlocal_storage_write\nremote_storage_read_miss\n"
		  "remote_storage_write\nremote_storage_write\n"
		  "# ../src/mm/b.c\ndirect_cache_hit\nremote_storage_hit\nremote_storage_read_hit\n"
		  "remote_storage_read_hit\n"
		  "# ../src/mm/c.c\ncache_miss\ndirect_cache_miss\nremote_storage_read_miss\n"
		  "remote_storage_error\n"
		  "# ../src/mm/d.c\ncache_miss\nremote_storage_timeout\n"
		  "# ../src/mm/e.c\ndirect_cache_hit\nlocal_storage_hit\n"
		  "# ../src/mm/f.c\ncache_miss\nremote_storage_miss\nremote_storage_read_miss\n", &c);
	assert_int_equal(c.hits, 1);
	assert_int_equal(c.misses, 2);
	assert_int_equal(c.errors, 1);
	assert_int_equal(c.timeouts, 1);
	assert_int_equal(c.stored, 1);
	ccr_count(NULL, &c);
	assert_int_equal(c.hits + c.misses + c.errors + c.timeouts + c.stored, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_urls),
		cmocka_unit_test(refuses_bad_urls),
		cmocka_unit_test(redacts_raw),
		cmocka_unit_test(reads_ccache_features),
		cmocka_unit_test(counts_remote_stats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
