// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for build/kbuild.c: Kbuild line parsing (progress), .cmd flag
 * extraction (build.json march/mtune), ccache stats logs, the timing trailer.
 * The lines are real ones, from a 6.1 O= build of the mpsc flavour.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "../../build/kbuild.h"
#include "../../lib/dotconfig.h"

static void parses_kbuild_lines(void **state)
{
	char verb[16];
	const char *t = NULL;

	(void)state;
	assert_true(kb_parse_line("  CC      init/main.o", verb, sizeof(verb), &t));
	assert_string_equal(verb, "CC");
	assert_string_equal(t, "init/main.o");
	assert_true(kb_parse_line("  OBJCOPY arch/x86/boot/setup.bin", verb, sizeof(verb), &t));
	assert_string_equal(verb, "OBJCOPY");
	assert_string_equal(t, "arch/x86/boot/setup.bin");
	assert_true(kb_parse_line("  CC [M]  drivers/foo/bar.o", verb, sizeof(verb), &t));
	assert_string_equal(verb, "CC");
	assert_string_equal(t, "drivers/foo/bar.o");
	assert_true(kb_parse_line("  HOSTCC  scripts/basic/fixdep", verb, sizeof(verb), NULL));
	assert_string_equal(verb, "HOSTCC");
	assert_true(kb_parse_line("  VDSO2C  arch/x86/entry/vdso/vdso-image-64.c", verb, sizeof(verb), NULL));
	assert_string_equal(verb, "VDSO2C");
	/* a long verb is cut to the buffer, not overflowed */
	assert_true(kb_parse_line("  VERYLONGVERB x", verb, 5, NULL));
	assert_string_equal(verb, "VERY");
}

static void rejects_other_lines(void **state)
{
	char verb[16];

	(void)state;
	assert_false(kb_parse_line("Kernel: arch/x86/boot/bzImage is ready  (#1)", verb, sizeof(verb), NULL));
	assert_false(kb_parse_line("make[2]: *** [scripts/Makefile.build:250: init/main.o] Error 1", verb, sizeof(verb), NULL));
	assert_false(kb_parse_line("init/main.c:12:1: error: expected ';'", verb, sizeof(verb), NULL));
	assert_false(kb_parse_line("   12 | int x", verb, sizeof(verb), NULL));
	assert_false(kb_parse_line("  CC", verb, sizeof(verb), NULL));
	assert_false(kb_parse_line("  CC      ", verb, sizeof(verb), NULL));
	assert_false(kb_parse_line("  cc      init/main.o", verb, sizeof(verb), NULL));
	assert_false(kb_parse_line("", verb, sizeof(verb), NULL));
	assert_false(kb_parse_line(" ", verb, sizeof(verb), NULL));
}

static void counts_kernel_objects_only(void **state)
{
	(void)state;
	assert_true(kb_is_object_line("  CC      init/main.o"));
	assert_true(kb_is_object_line("  AS      arch/x86/entry/entry_64.o"));
	assert_true(kb_is_object_line("  CC [M]  fs/ext4/inode.o"));
	assert_false(kb_is_object_line("  HOSTCC  arch/x86/tools/relocs_32.o"));
	assert_false(kb_is_object_line("  CC      arch/x86/kernel/asm-offsets.s"));
	assert_false(kb_is_object_line("  LD      vmlinux.o"));
	assert_false(kb_is_object_line("  AR      init/built-in.a"));
	assert_false(kb_is_object_line("  CC      .o"));
	assert_false(kb_is_object_line("  CC      /out/6.1/mpsc/tools/objtool/check.o"));
	assert_false(kb_is_object_line("  AS      .tmp_vmlinux.kallsyms1.o"));
}

static void finds_warnings_and_errors(void **state)
{
	(void)state;
	assert_true(kb_is_warning_line("kernel/foo.c:3:5: warning: unused variable 'x' [-Wunused-variable]"));
	assert_false(kb_is_warning_line("  CC      kernel/warning.o"));
	assert_true(kb_is_error_line("init/main.c:12:1: error: expected ';' before '}' token"));
	assert_true(kb_is_error_line("init/main.c:1:10: fatal error: nosuch.h: No such file or directory"));
	assert_true(kb_is_error_line("make[2]: *** [scripts/Makefile.build:250: init/main.o] Error 1"));
	assert_true(kb_is_error_line("ld: init/main.o: in function `f': undefined reference to `g'"));
	assert_false(kb_is_error_line("  CC      lib/errseq.o"));
}

static const char *cmd_mpsc =
	"savedcmd_init/main.o := gcc -Wp,-MMD,init/.main.o.d -nostdinc -I/src/arch/x86/include "
	"-D__KERNEL__ -mno-sse -m64 -mno-80387 -march=nocona -mno-red-zone -mcmodel=kernel "
	"-Os -fmacro-prefix-map=/src/= -DKBUILD_BASENAME='\"main\"' -c -o init/main.o /src/init/main.c\n"
	"\n"
	"source_init/main.o := /src/init/main.c\n"
	"deps_init/main.o := \\\n"
	"  include/linux/compiler-version.h \\\n";

/* 6.1 writes "cmd_x := ..." (savedcmd_ came in 6.2); generic has no -march. */
static const char *cmd_generic =
	"cmd_init/main.o := gcc -Wp,-MMD,init/.main.o.d -D__KERNEL__ -m64 -mtune=generic "
	"-mno-red-zone -c -o init/main.o init/main.c\n"
	"source_init/main.o := init/main.c\n";

static void extracts_cmd_flags(void **state)
{
	char v[32];

	(void)state;
	assert_true(kb_cmd_flag(cmd_mpsc, "march", v, sizeof(v)));
	assert_string_equal(v, "nocona");
	assert_false(kb_cmd_flag(cmd_mpsc, "mtune", v, sizeof(v)));
	assert_true(kb_cmd_flag(cmd_generic, "mtune", v, sizeof(v)));
	assert_string_equal(v, "generic");
	assert_false(kb_cmd_flag(cmd_generic, "march", v, sizeof(v)));
	/* the last one wins, as for gcc; -marchx= is another flag */
	assert_true(kb_cmd_flag("cmd_x.o := gcc -march=k8 -marchx=no -march=core2 x.c\n",
				"march", v, sizeof(v)));
	assert_string_equal(v, "core2");
	/* only the command line counts, not the dependency lines */
	assert_false(kb_cmd_flag("source_x.o := -march=k8\n", "march", v, sizeof(v)));
	assert_false(kb_cmd_flag("", "march", v, sizeof(v)));
	/* an empty value is no value; a long one is cut */
	assert_false(kb_cmd_flag("cmd_x.o := gcc -march= x.c\n", "march", v, sizeof(v)));
	assert_true(kb_cmd_flag("cmd_x.o := gcc -march=abcdefghij\n", "march", v, 5));
	assert_string_equal(v, "abcd");
}

static void counts_ccache_stats_log(void **state)
{
	struct kb_ccache c;

	(void)state;
	kb_ccache_count("# ../src/t.c\ncache_miss\ndirect_cache_miss\nlocal_storage_miss\n"
			"preprocessed_cache_miss\n# ../src/u.c\ndirect_cache_hit\nlocal_storage_hit\n"
			"# ../src/v.c\npreprocessed_cache_hit\n# ../src/w.c\ncache_miss\n", &c);
	assert_int_equal(c.hits, 2);
	assert_int_equal(c.misses, 2);
	kb_ccache_count("", &c);
	assert_int_equal(c.hits + c.misses, 0);
	kb_ccache_count("# x.c\ncache_missed\r\ncache_miss\r\n", &c);
	assert_int_equal(c.misses, 1);
	/* Kbuild's cc-option probes compile /dev/null: not counted */
	kb_ccache_count("# /dev/null\ncache_miss\n# \ncache_miss\n#\ncache_miss\n"
			"# init/main.c\ncache_miss\n", &c);
	assert_int_equal(c.misses, 1);
	assert_int_equal(c.hits, 0);
}

/* Lines as distcc 3.4 wrote them (DISTCC_VERBOSE=1) in farm builds here. */
static void counts_distcc_log(void **state)
{
	static struct kb_distcc d;

	(void)state;
	kb_distcc_count(
		"distcc[9854] (dcc_lock_host) got cpu lock on 192.0.2.130:3632/1 slot 0 as fd4\n"
		"distcc[9854] exec on 192.0.2.130:3632/1: gcc -c mm/memblock.c\n"
		"distcc[9854] cpp /w/out/6.1/src/mm/memblock.c on localhost completed ok\n"
		"distcc[9854] compile /w/out/6.1/src/mm/memblock.c on 192.0.2.130:3632/1 completed ok\n"
		"distcc[9855] compile /w/out/6.1/src/mm/slub.c on 192.0.2.134:3632/1 completed ok\r\n"
		"distcc[9856] compile /w/out/6.1/src/mm/util.c on 192.0.2.130:3632/1,lzo completed ok\n"
		/* a stopped host: timed out, marked, the compile sent elsewhere */
		"distcc[30095] (dcc_select_for_read) ERROR: IO timeout\n"
		"distcc[30095] (dcc_mark_timefile) mark /tmp/d/lock/backoff_tcp_192.0.2.146_3632_0\n"
		"distcc[30095] (dcc_check_backoff) still in backoff period for 192.0.2.146:3632/1\n"
		"distcc[30095] compile /w/src/mm/oom_kill.c on 192.0.2.130:3632/1 completed ok\n"
		"distcc[9559] (dcc_mark_timefile) mark /tmp/d/lock/backoff_tcp_192.0.2.134_3632_0\n"
		"distcc[9559] Warning: failed to distribute /w/out/6.1/src/mm/rmap.c to "
		"192.0.2.134:3632/1, running locally instead\n"
		"distcc[9559] compile /w/out/6.1/src/mm/rmap.c on localhost completed ok\n"
		"distcc[9560] Warning: remote compilation of '/w/src/mm/x.c' failed, retrying locally\n"
		"distcc[9560] compile /w/src/mm/x.c on localhost completed ok\n"
		"distcc[9561] compile /w/src/mm/y.c on farmhost/4 completed ok\n"
		/* assembler, gcc --version: local by design, not counted */
		"distcc[10461] compile (null) on localhost completed ok\n"
		"distcc[10462] compile arch/x86/entry/entry_64.S on localhost completed ok\n"
		"compile a.c on 192.0.2.1:1/1 completed ok\n"
		"distcc[1] (dcc_mark_timefile) mark /tmp/d/lock/backoff_tcp_\n"
		"distcc[1] (dcc_mark_timefile) mark /tmp/d/lock/cpu_localhost_0\n", &d);
	assert_int_equal(d.remote, 5);
	assert_int_equal(d.local, 2);
	assert_int_equal(d.fell_back, 2);
	assert_int_equal(d.n_hosts, 4);
	assert_string_equal(d.hosts[0].name, "192.0.2.130:3632");
	assert_int_equal(d.hosts[0].compiled, 3);
	assert_int_equal(d.hosts[0].failed, 0);
	assert_string_equal(d.hosts[1].name, "192.0.2.134:3632");
	assert_int_equal(d.hosts[1].compiled, 1);
	assert_int_equal(d.hosts[1].failed, 1);
	assert_string_equal(d.hosts[2].name, "192.0.2.146:3632");
	assert_int_equal(d.hosts[2].compiled, 0);
	assert_int_equal(d.hosts[2].failed, 1);
	assert_string_equal(d.hosts[3].name, "farmhost:3632");
	assert_int_equal(d.hosts[3].compiled, 1);
	kb_distcc_count(NULL, &d);
	assert_int_equal(d.remote + d.local + d.fell_back + (long)d.n_hosts, 0);
	kb_distcc_count("distcc[1] compile  on  completed ok\ndistcc[2]\ndistcc[3] x", &d);
	assert_int_equal(d.remote + d.local + d.fell_back, 0);
}

static void parses_trailer(void **state)
{
	struct kb_times t;

	(void)state;
	assert_true(kb_parse_trailer("  CC      init/main.o\nkflavour: wall_seconds=1.5 cpu_seconds=2.0 exit=2\n"
				     "kflavour: wall_seconds=201.4 cpu_seconds=381.0 exit=0\n", &t));
	assert_true(t.wall > 201.3 && t.wall < 201.5);
	assert_true(t.cpu > 380.9 && t.cpu < 381.1);
	assert_int_equal(t.exit_status, 0);
	assert_false(kb_parse_trailer("  CC      init/main.o\n", &t));
	assert_false(kb_parse_trailer("kflavour: wall_seconds=x\n", &t));
}

static void formats_progress(void **state)
{
	char b[128];

	(void)state;
	kb_progress_line(b, sizeof(b), "mpsc", "CC", 412, 1010, 0, 95);
	assert_string_equal(b, "  BUILD   mpsc: CC 412/1010 objects, 95 s");
	kb_progress_line(b, sizeof(b), "k8", "LD", 3, 1000, 1, 7);
	assert_string_equal(b, "  BUILD   k8: LD 3/~1000 objects, 7 s");
	kb_progress_line(b, sizeof(b), "generic", "", 0, 1000, 1, 2);
	assert_string_equal(b, "  BUILD   generic: starting, 2 s");
}

/* The estimate of a .config's text, read by lib/dotconfig.c. */
static long estimate(const char *text, int modules)
{
	struct kf_config c;
	char err[1024];
	long n;

	assert_int_equal(kf_config_read(&c, "test.config", text, err, sizeof(err)), 0);
	n = kb_estimate_objects(&c, modules);
	kf_config_free(&c);
	return n;
}

static void estimates_objects(void **state)
{
	const char *cfg = "#\n# Menu\n#\nCONFIG_A=y\nCONFIG_B=m\n# CONFIG_C is not set\n"
			  "CONFIG_D=y\nCONFIG_S=\"=y\"\nCONFIG_E=m\n# end of Menu\n";

	(void)state;
	/* two =y settings; the string value ending in =y is not one */
	assert_int_equal(estimate(cfg, 0), estimate("CONFIG_A=y\nCONFIG_D=y\n", 0));
	assert_int_equal(estimate(cfg, 0), 330 + 2 * 123 / 100);
	assert_int_equal(estimate(cfg, 1), 330 + 2 * 123 / 100 + 2 * 333 / 100);
	assert_int_equal(estimate("CONFIG_B=m\n", 0), 0);
	assert_true(estimate("CONFIG_B=m\n", 1) > 0);
	assert_int_equal(estimate("# CONFIG_C is not set\n", 1), 0);
	assert_int_equal(estimate("", 1), 0);
	/* more options, more objects */
	assert_true(estimate("CONFIG_A=y\nCONFIG_D=y\n", 0) > estimate("CONFIG_A=y\n", 0));
}

/* A .cmd as 6.1's fixdep writes it; every shorter part of it is torn. */
static void finds_torn_cmds(void **state)
{
	static const char whole[] =
		"cmd_mm/mmu_gather.o := gcc -Wp,-MMD,mm/.mmu_gather.o.d -c -o mm/mmu_gather.o mm/mmu_gather.c\n"
		"\n"
		"source_mm/mmu_gather.o := mm/mmu_gather.c\n"
		"\n"
		"deps_mm/mmu_gather.o := \\\n"
		"  include/linux/compiler-version.h \\\n"
		"    $(wildcard include/config/CC_VERSION_TEXT) \\\n"
		"  include/linux/kconfig.h \\\n"
		"\n"
		"mm/mmu_gather.o: $(deps_mm/mmu_gather.o)\n"
		"\n"
		"$(deps_mm/mmu_gather.o):\n";
	static const char saved[] = "cmd_vmlinux := sh scripts/link-vmlinux.sh \"ld\" \"-m elf_x86_64\"\n";
	size_t n = sizeof(whole) - 1;

	(void)state;
	assert_false(kb_cmd_torn(whole, n));
	assert_false(kb_cmd_torn(saved, sizeof(saved) - 1));
	assert_true(kb_cmd_torn(saved, sizeof(saved) - 2));
	assert_true(kb_cmd_torn("", 0));
	/* objtool's line after fixdep's */
	static const char objtool[] = "x\nkernel/fork.o: $(wildcard ./tools/objtool/objtool)\n";

	assert_false(kb_cmd_torn(objtool, sizeof(objtool) - 1));
	/* every cut that is not at a line's end; at one, a line that goes on */
	for (size_t len = 1; len < n; len++)
		if (whole[len - 1] != '\n' || whole[len - 2] == '\\')
			assert_true(kb_cmd_torn(whole, len));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_kbuild_lines),
		cmocka_unit_test(rejects_other_lines),
		cmocka_unit_test(counts_kernel_objects_only),
		cmocka_unit_test(finds_warnings_and_errors),
		cmocka_unit_test(extracts_cmd_flags),
		cmocka_unit_test(counts_ccache_stats_log),
		cmocka_unit_test(counts_distcc_log),
		cmocka_unit_test(parses_trailer),
		cmocka_unit_test(formats_progress),
		cmocka_unit_test(estimates_objects),
		cmocka_unit_test(finds_torn_cmds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
