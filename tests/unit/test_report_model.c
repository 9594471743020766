// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the report's model (report/load.c, derive.c, compare.c,
 * kconfig.c) and its writers, on the fixture tests/data/report/out/6.1 (a
 * real make's records, README there) and on broken and half-finished out/
 * trees made here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../lib/kf.h"
#include "../../report/render.h"

#define FIXTURE "tests/data/report/out/6.1"

static const char *const frags[] = {
	"generic=fragments/base.config,fragments/probe.config,fragments/cpu-generic.config,"
	"fragments/smt.config,fragments/microcode.config,fragments/swiotlb.config",
	"k8=fragments/base.config,fragments/probe.config,fragments/cpu-k8.config,"
	"fragments/smt.config,fragments/microcode.config,fragments/swiotlb.config",
	"mpsc",		/* fragments from its config.json */
};

static void load(struct report *r, const char *kdir, const char *const *fl, size_t n)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < n; i++)
		report_add_flavour(r, fl[i]);
	report_read_cpu_models(r, "boot/cpu-models");
	report_read_flavours(r, kdir);
	report_load(r, kdir);
	report_derive(r);
	report_compare(r, 2);
}

static const struct flavour *fl(const struct report *r, const char *name)
{
	for (size_t i = 0; i < r->nfl; i++)
		if (!strcmp(r->fl[i].name, name))
			return &r->fl[i];
	fail_msg("no flavour %s", name);
	return NULL;
}

static size_t model_index(const struct report *r, const char *name)
{
	for (size_t i = 0; i < r->ncpus; i++)
		if (!strcmp(r->cpus[i].name, name))
			return i;
	fail_msg("no CPU model %s", name);
	return 0;
}

static const struct cdiff_sym *sym(const struct report *r, const char *name)
{
	for (size_t i = 0; i < r->ncdiff; i++)
		if (!strcmp(r->cdiff[i].name, name))
			return &r->cdiff[i];
	return NULL;
}

static void formats(void **state)
{
	char b[32];

	(void)state;
	fmt_delta(b, sizeof(b), 10445);
	assert_string_equal(b, "+10.2K");
	fmt_delta(b, sizeof(b), -512);
	assert_string_equal(b, "-512");
	fmt_delta(b, sizeof(b), 0);
	assert_string_equal(b, "±0");
	fmt_delta(b, sizeof(b), 3LL * 1024 * 1024);
	assert_string_equal(b, "+3.0M");
	fmt_size(b, sizeof(b), 1426976);
	assert_string_equal(b, "1.36M");
	fmt_size(b, sizeof(b), -1);
	assert_string_equal(b, "—");
	assert_string_equal(line_verdict_for(64, 128), "too-small");
	assert_string_equal(line_verdict_for(128, 64), "too-large");
	assert_string_equal(line_verdict_for(64, 64), "match");
	assert_null(line_verdict_for(-1, 64));
}

/* The one HTML escaper (lib/strbuf.c): report.html, its SVG, upgrade.html. */
static void escapes_html(void **state)
{
	struct strbuf sb = { 0 };

	(void)state;
	sb_wrap(&sb, "<p>", "<a href=\"x\">'&'</a>\t\n\x01\x1b\x7f é", "</p>");
	sb_esc(&sb, NULL);
	assert_string_equal(sb.s, "<p>&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
			    "\t\n&#x2401;&#x241b;&#x2421; é</p>");
	free(sb.s);
}

static void classifies_symbols(void **state)
{
	/* The choice's values as config.json names them (the audit's kconfig). */
	char *const cpu[] = { "MK8", "MPSC", "MCORE2", "MATOM", "GENERIC_CPU" };
	const size_t n = sizeof(cpu) / sizeof(*cpu);

	(void)state;
	assert_int_equal(kc_classify("MPSC", cpu, n), KC_CPU);
	assert_int_equal(kc_classify("GENERIC_CPU", cpu, n), KC_CPU);
	assert_int_equal(kc_classify("MPSC", NULL, 0), KC_OTHER);	/* no config.json */
	assert_int_equal(kc_classify("X86_P6_NOP", cpu, n), KC_CPU);
	assert_int_equal(kc_classify("X86_L1_CACHE_SHIFT", cpu, n), KC_CACHE);
	assert_int_equal(kc_classify("X86_INTERNODE_CACHE_SHIFT", cpu, n), KC_CACHE);
	assert_int_equal(kc_classify("SCHED_SMT", cpu, n), KC_SMT);
	assert_int_equal(kc_classify("X86_HT", cpu, n), KC_SMT);
	assert_int_equal(kc_classify("MICROCODE_AMD", cpu, n), KC_MICROCODE);
	assert_int_equal(kc_classify("SWIOTLB", cpu, n), KC_OTHER);
	assert_int_equal(kc_classify("MODULES", cpu, n), KC_OTHER);
}

static void reads_fixture(void **state)
{
	struct report r;
	const struct flavour *g, *k, *m;
	const struct boot *b;

	(void)state;
	load(&r, FIXTURE, frags, 3);
	assert_string_equal(r.release, "6.1.192");
	assert_string_equal(r.kver, "6.1");
	g = fl(&r, "generic");
	k = fl(&r, "k8");
	m = fl(&r, "mpsc");
	assert_string_equal(flavour_status(g), "booted");
	assert_string_equal(flavour_status(k), "configured");
	assert_string_equal(g->cpu_choice, "GENERIC_CPU");
	assert_string_equal(k->cpu_choice, "MK8");
	assert_string_equal(m->cpu_choice, "MPSC");
	assert_int_equal(g->l1_bytes, 64);
	assert_int_equal(m->l1_bytes, 128);
	assert_int_equal(m->smt, 1);
	assert_int_equal(m->microcode, 1);
	assert_string_equal(m->audit, "ok");
	assert_string_equal(g->default_cpu, "qemu64");
	assert_int_equal(m->nfragments, 6);	/* from config.json */
	/* k8: configured only, nothing invented. */
	assert_false(k->has_build);
	assert_int_equal(k->bzimage_bytes, -1);
	assert_true(isnan(k->build.wall_seconds));
	assert_int_equal(k->nboots, 0);
	assert_int_equal(flavour_section(k, ".text"), -1);
	/* Builds. */
	assert_int_equal(m->bzimage_bytes, 1651712);
	assert_int_equal(flavour_section(m, ".data..percpu") - flavour_section(g, ".data..percpu"), 2432);
	assert_string_equal(m->march, "nocona");
	assert_null(g->march);
	/* Boots, in cpu-models order. */
	assert_int_equal(m->nboots, 3);
	assert_string_equal(m->boots[0].cpu, "qemu64");
	assert_string_equal(m->boots[1].cpu, "nocona");
	assert_string_equal(m->boots[2].cpu, "i686");
	b = flavour_boot(m, "nocona");
	assert_string_equal(b->verdict, "pass");
	assert_int_equal(b->cache_alignment, 128);
	assert_string_equal(b->line_verdict, "match");
	assert_int_equal(b->line_verdict_source, LV_PROBE);
	/* thread_siblings_list 0-1 on both CPUs: one core of two threads */
	assert_int_equal(b->threads_per_core, 2);
	assert_int_equal(b->cores, 1);
	assert_int_equal(b->swiotlb, 1);
	assert_string_equal(b->swiotlb_source, "probe");
	assert_int_equal(b->hwalign, -1);	/* the kernel printed no SLUB line */
	assert_int_equal(b->ktap_passed, 19);
	assert_string_equal(b->log, "mpsc/boot/nocona.log");
	/* What kcidb.json adds: QEMU's -cpu, the KTAP cases, the runs. */
	assert_non_null(strstr(b->cpu_string, "vendor=GenuineIntel"));
	assert_int_equal(b->ncases, 19);
	assert_string_equal(b->cases[0].suite, "x86_flavour");
	assert_string_equal(b->cases[0].name, "flavour_l1_bytes_match_shift");
	assert_true(b->cases[0].ok);
	assert_null(b->cases[0].directive);
	assert_null(m->build_log);	/* the fixture keeps no build.log */
	assert_true(m->has_full);
	assert_int_equal(m->full.compiled, 987);
	assert_int_equal(m->build.warnings, 1);
	assert_ptr_equal(m->warned, &m->build);
	/* The probe's GDT: page-aligned, a CPU's GDT 1 MiB from the next. */
	assert_int_equal(b->gdt.align, 4096);
	assert_int_equal(b->gdt.distance, 1048576);
	assert_int_equal(b->gdt.size, 128);
	assert_int_equal(b->gdt.limit, 127);
	assert_int_equal(b->gdt.gdt_gdt_compiled, 0);
	assert_int_equal(b->gdt.gdt_data_cpu, 0);
	assert_string_equal(b->idle, "halt");
	assert_string_equal(b->microcode, "0x1");
	assert_non_null(strstr(b->microcode_source, "QEMU"));
	b = flavour_boot(g, "nocona");
	assert_string_equal(b->line_verdict, "too-small");
	assert_int_equal(b->line_verdict_source, LV_PROBE);
	assert_int_equal(b->swiotlb, 0);
	assert_string_equal(flavour_boot(m, "qemu64")->line_verdict, "too-large");
	/* Refused: nothing known about the line or SWIOTLB. */
	b = flavour_boot(m, "i686");
	assert_string_equal(b->verdict, "refused");
	assert_null(b->line_verdict);
	assert_int_equal(b->swiotlb, -1);
	assert_true(isnan(b->guest_seconds));
	/* The cells the table and the HTML share (rows.c). */
	assert_string_equal(verdict_of("refused")->sgr, "36");
	assert_null(verdict_of("exploded"));
	assert_null(verdict_of(NULL));
	assert_ptr_equal(boot_cell(&r, 2, model_index(&r, "i686")).b, b);
	assert_string_equal(boot_cell(&r, 2, model_index(&r, "i686")).want, "refused");
	assert_false(boot_cell(&r, 2, model_index(&r, "i686")).unexpected);
	assert_true(boot_cell(&r, 2, model_index(&r, "nocona")).is_default);
	assert_false(boot_cell(&r, 2, model_index(&r, "qemu64")).is_default);
	assert_null(boot_cell(&r, 1, model_index(&r, "qemu64")).b);	/* k8: not booted */
	report_free(&r);
}

static void config_diff_names_fragments(void **state)
{
	struct report r;
	const struct cdiff_sym *s;

	(void)state;
	load(&r, FIXTURE, frags, 3);
	s = sym(&r, "MPSC");
	assert_non_null(s);
	assert_int_equal(s->group, KC_CPU);
	assert_string_equal(s->cell[2].value, "y");
	assert_string_equal(s->cell[2].fragment, "fragments/cpu-mpsc.config");
	assert_true(s->cell[2].line > 0);
	assert_string_equal(s->cell[0].value, "n");
	assert_string_equal(s->cell[0].fragment, "(default)");
	s = sym(&r, "X86_L1_CACHE_SHIFT");
	assert_non_null(s);
	assert_int_equal(s->group, KC_CACHE);
	assert_string_equal(s->cell[1].value, "6");
	assert_string_equal(s->cell[1].fragment, "fragments/cpu-k8.config");
	s = sym(&r, "X86_INTERNODE_CACHE_SHIFT");
	assert_non_null(s);
	assert_string_equal(s->cell[2].fragment, "(default)");
	assert_null(sym(&r, "SMP"));	/* the same everywhere */
	/* Sorted by group. */
	for (size_t i = 1; i < r.ncdiff; i++)
		assert_true(r.cdiff[i - 1].group <= r.cdiff[i].group);
	/* Log diffs: generic against mpsc on qemu64 and nocona; and across models. */
	assert_true(r.nldiff >= 4);
	report_free(&r);
}

static char tmpl[] = "/tmp/kf-report-XXXXXX";

/* The start of a record of this kind: its header (lib/record.h) and "{". */
#define HEAD(kind) "{\"record\": \"" kind "\", \"format\": 1, "

/* "mkdir -p" or "rm -rf" of one path; 0 when it succeeded. */
static int sh(const char *what, const char *path)
{
	char *cmd = kf_xasprintf("%s '%s'", what, path);
	int rc = system(cmd);

	free(cmd);
	return rc;
}

static void put(const char *dir, const char *rel, const char *text)
{
	char *path = kf_xasprintf("%s/%s", dir, rel);
	char *slash = strrchr(path, '/');

	*slash = '\0';
	assert_int_equal(sh("mkdir -p", path), 0);
	*slash = '/';
	assert_int_equal(kf_write_atomic(path, text, strlen(text)), 0);
	free(path);
}

static char *contains(const char *path, const char *what)
{
	char *text = kf_read_file(path, NULL);

	assert_non_null(text);
	if (!strstr(text, what))
		fail_msg("%s has no '%s'", path, what);
	return text;
}

/* One flavour with broken JSON everywhere, one with nothing at all. */
static void survives_broken_and_missing(void **state)
{
	char *dir = mkdtemp(tmpl), *kdir, *p;
	const char *const names[] = { "bad", "nothing", "x86_<script>" };
	struct report r;
	const struct flavour *f;
	FILE *out;

	(void)state;
	assert_non_null(dir);
	kdir = kf_xasprintf("%s/6.1", dir);
	put(kdir, "bad/.config", "CONFIG_MPSC=y\nCONFIG_X86_L1_CACHE_SHIFT=banana\n");
	put(kdir, "bad/config.json", "[1, 2");
	put(kdir, "bad/build.json", HEAD("build") "\"bzimage_bytes\": \"big\", \"sections\": [1]}");
	put(kdir, "bad/boot/qemu64.json", HEAD("boot") "\"verdict\": 7, \"facts\": {\"cpu.siblings\": \"two\"}}");
	put(kdir, "bad/boot/qemu64.log", "\xff\xfe garbage \033[31m\nkf: =\nkf: x\nHWalign=\n");
	put(kdir, "bad/boot/nocona.json", "{\"verdict\": \"pa");
	put(kdir, "bad/boot/.json", "{}");
	/* A newer kflavour's record is left out, like a broken one. */
	put(kdir, "bad/boot/core2.json", "{\"record\": \"boot\", \"format\": 99}");
	load(&r, kdir, names, 3);
	f = fl(&r, "bad");
	/* A .config the one reader (lib/dotconfig.c) rejects is left out;
	 * config.json, the CPU choice's source, is broken too. */
	assert_false(f->has_config);
	assert_null(f->cpu_choice);
	assert_int_equal(f->l1_bytes, -1);
	assert_true(f->has_build);
	assert_int_equal(f->bzimage_bytes, -1);
	assert_int_equal(f->nboots, 1);
	assert_null(f->boots[0].verdict);
	assert_int_equal(f->boots[0].threads_per_core, -1);
	assert_int_equal(f->boots[0].gdt.align, -1);
	assert_string_equal(flavour_status(fl(&r, "nothing")), "not configured");

	/* Every writer copes; HTML escapes the odd flavour name. */
	out = fopen("/dev/null", "w");
	table_print(out, &r, 100);
	table_print(out, &r, 20);
	fclose(out);
	p = kf_xasprintf("%s/report.json", kdir);
	assert_int_equal(json_write(&r, p), 0);
	free(contains(p, "\"status\": \"not configured\""));
	free(p);
	p = kf_xasprintf("%s/report.html", kdir);
	assert_int_equal(html_write(&r, p), 0);
	free(contains(p, "x86_&lt;script&gt;"));
	free(contains(p, "not booted"));
	{
		char *text = kf_read_file(p, NULL);

		assert_null(strstr(text, "<script"));
		free(text);
	}
	free(p);
	report_free(&r);
	assert_int_equal(sh("rm -rf", dir), 0);
	free(kdir);
	strcpy(tmpl, "/tmp/kf-report-XXXXXX");
}

/*
 * Records without probe facts: the line verdict computed from config.json's
 * line size, SWIOTLB from what the runner read on the console (the
 * record's "console"); and a made-up GDT layout.
 */
static void facts_without_probe(void **state)
{
	char *dir = mkdtemp(tmpl), *kdir, *p;
	const char *const names[] = { "mpsc" };
	struct report r;
	const struct boot *b;

	(void)state;
	assert_non_null(dir);
	kdir = kf_xasprintf("%s/6.1", dir);
	put(kdir, "mpsc/config.json", HEAD("config") "\"ok\": true, \"cpu_choice\": \"MPSC\", "
	    "\"cpu_choice_values\": [\"MPSC\", \"GENERIC_CPU\"], \"l1_cache_shift\": 7}");
	put(kdir, "mpsc/boot/nocona.json", HEAD("boot") "\"cpu\": \"nocona\", \"verdict\": \"pass\", "
	    "\"qemu_version\": \"7.2.22\", \"console\": {\"swiotlb_mapped\": false, "
	    "\"hwalign\": 128, \"microcode_updated\": true, \"end_marker\": true}, "
	    "\"facts\": {\"cpu.cache_alignment\": \"64\", \"probe.microcode\": \"0x2\"}}");
	put(kdir, "mpsc/boot/qemu64.json", HEAD("boot") "\"cpu\": \"qemu64\", \"verdict\": \"pass\", "
	    "\"facts\": {\"cpu0.thread_siblings_list\": \"0\", \"cpu1.thread_siblings_list\": \"1\", "
	    "\"cache_alignment\": \"64\", \"probe.l1_cache_bytes\": \"64\", "
	    "\"probe.cpu0.gdt_align\": \"64\", \"probe.cpu1.gdt_align\": \"4096\", "
	    "\"cpu.cache_alignment\": \"128\", \"probe.gdt_size\": \"96\", "
	    "\"probe.gdt_limit\": \"95\", \"probe.gdt_distance\": \"64\"}}");
	/* A no-op rebuild after a full build that warned; a boot of the
	 * bzImage before. */
	put(kdir, "mpsc/build.json", HEAD("build") "\"compiled\": 0, \"warnings\": 0, \"warning_lines\": [], "
	    "\"bzimage_sha256\": \"b2\", \"last_full_build\": {\"compiled\": 900, "
	    "\"warnings\": 2, \"warning_lines\": [\"x.o: warning: y\"]}}");
	put(kdir, "mpsc/boot/core2.json", HEAD("boot") "\"cpu\": \"core2\", \"bzimage_sha256\": \"b1\"}");
	load(&r, kdir, names, 1);
	assert_ptr_equal(fl(&r, "mpsc")->warned, &fl(&r, "mpsc")->full);
	assert_int_equal(fl(&r, "mpsc")->warned->warnings, 2);
	assert_int_equal(fl(&r, "mpsc")->nstale_boots, 1);
	assert_string_equal(fl(&r, "mpsc")->stale_boots[0], "core2");
	assert_null(flavour_boot(fl(&r, "mpsc"), "core2"));
	assert_string_equal(fl(&r, "mpsc")->cpu_choice, "MPSC");
	assert_int_equal(fl(&r, "mpsc")->l1_bytes, 128);
	b = flavour_boot(fl(&r, "mpsc"), "nocona");
	assert_non_null(b);
	assert_string_equal(b->line_verdict, "too-large");	/* 128 against 64 */
	assert_int_equal(b->line_verdict_source, LV_COMPUTED);
	assert_int_equal(b->swiotlb, 0);
	assert_string_equal(b->swiotlb_source, "console");
	assert_int_equal(b->hwalign, 128);
	assert_string_equal(b->microcode_source, "update loaded at boot");
	/* Made-up layout: GDTs 64 bytes apart, one 64-aligned, 96 bytes long. */
	b = flavour_boot(fl(&r, "mpsc"), "qemu64");
	assert_int_equal(b->threads_per_core, 1);
	assert_int_equal(b->cores, 2);
	assert_int_equal(b->gdt.align, 64);
	assert_int_equal(b->gdt.gdt_gdt_compiled, 0);	/* 64 apart, 64-byte line */
	assert_int_equal(b->gdt.gdt_gdt_cpu, 1);	/* 64 apart, 128-byte line */
	assert_int_equal(b->gdt.gdt_data_compiled, 1);	/* 96 is not 64 * n */
	assert_int_equal(b->gdt.gdt_data_cpu, 1);	/* 64-aligned, 128 line */
	assert_null(b->idle);
	assert_null(b->microcode);
	assert_int_equal(b->swiotlb, -1);	/* no console object: unknown */
	report_free(&r);
	p = kf_xasprintf("rm -rf %s", dir);
	assert_int_equal(system(p), 0);
	free(p);
	free(kdir);
	strcpy(tmpl, "/tmp/kf-report-XXXXXX");
}

/* No flavours at all, and a kdir that does not exist. */
static void survives_empty(void **state)
{
	struct report r;
	FILE *out = fopen("/dev/null", "w");

	(void)state;
	load(&r, "/nonexistent/6.1", NULL, 0);
	table_print(out, &r, 100);
	fclose(out);
	assert_int_equal(json_write(&r, "/nonexistent/6.1/report.json"), -1);
	report_free(&r);
}

/* The c2c section holds one machine: --c2c-cpu picks <f>/c2c/<cpu>.json,
 * and a record of other memory or another TCG mode than the first
 * flavour's is left out (a real record, tests/data/c2c/pipe-generic.json,
 * its -m or tcg changed). */
static void c2c_one_machine(void **state)
{
	char *dir = mkdtemp(tmpl), *kdir, *p, *rec, *other, *at;
	const char *const names[] = { "a", "b", "c", "d", "e" };
	char *single;
	struct report r;

	(void)state;
	assert_non_null(dir);
	kdir = kf_xasprintf("%s/6.1", dir);
	rec = kf_read_file("tests/data/c2c/pipe-generic.json", NULL);
	assert_non_null(rec);
	other = kf_xstrdup(rec);
	at = strstr(other, "\"memory\": \"1G\"");
	assert_non_null(at);
	at[strlen("\"memory\": \"")] = '2';
	single = kf_xstrdup(rec);
	at = strstr(single, "\"tcg\": \"multi\"");
	assert_non_null(at);
	at[strlen("\"tcg\": \"")] = 'M';	/* "Multi": another mode */
	put(kdir, "a/c2c/nocona.json", rec);
	put(kdir, "a/c2c/core2.json", rec);
	put(kdir, "b/c2c/nocona.json", rec);
	put(kdir, "c/c2c/core2.json", rec);	/* another model only */
	put(kdir, "d/c2c/nocona.json", other);	/* -m 2G */
	put(kdir, "e/c2c/nocona.json", single);	/* another TCG mode */
	memset(&r, 0, sizeof(r));
	for (size_t i = 0; i < 5; i++)
		report_add_flavour(&r, names[i]);
	r.c2c_cpu = "nocona";
	report_read_cpu_models(&r, "boot/cpu-models");
	report_load(&r, kdir);
	assert_true(fl(&r, "a")->has_c2c);
	assert_string_equal(fl(&r, "a")->c2c.memory, "1G");
	assert_int_equal(fl(&r, "a")->c2c.smp, 2);
	assert_true(fl(&r, "b")->has_c2c);
	assert_false(fl(&r, "c")->has_c2c);
	assert_false(fl(&r, "d")->has_c2c);
	assert_false(fl(&r, "e")->has_c2c);
	/* the machine in the table, the HTML and report.json */
	report_derive(&r);
	report_compare(&r, 2);
	{
		char *text = NULL;
		size_t len;
		FILE *out = open_memstream(&text, &len);

		assert_non_null(out);
		table_print(out, &r, 100);
		fclose(out);
		assert_non_null(strstr(text, "pipe on nocona (-m 1G, -smp 2, tcg multi),\nper round trip"));
		/* a and b are one record: nothing differs, and the words say so */
		assert_non_null(strstr(text, "No figure differs from a's by more than both spreads"));
		assert_null(strstr(text, " *  "));
		free(text);
	}
	p = kf_xasprintf("%s/report.html", kdir);
	assert_int_equal(html_write(&r, p), 0);
	free(contains(p, "(<code>nocona</code>, <code>-m 1G</code>, <code>-smp 2</code>, TCG <code>multi</code>)"));
	free(p);
	p = kf_xasprintf("%s/report.json", kdir);
	assert_int_equal(json_write(&r, p), 0);
	free(contains(p, "\"memory\": \"1G\""));
	free(p);
	report_free(&r);
	p = kf_xasprintf("rm -rf %s", dir);
	assert_int_equal(system(p), 0);
	free(p);
	free(rec);
	free(other);
	free(single);
	free(kdir);
	strcpy(tmpl, "/tmp/kf-report-XXXXXX");
}

/* The "System boot" block from two real system boots (tests/data/sysboot/):
 * a pass on qemu64 with its facts, a root device not found with its cause;
 * a flavour with neither says so; report.json carries them. */
static void system_boot_block(void **state)
{
	char *dir = mkdtemp(tmpl), *kdir, *p, *pass, *noroot, *json;
	const char *const names[] = { "up", "noroot", "none" };
	char buf[512];
	struct report r;

	(void)state;
	assert_non_null(dir);
	kdir = kf_xasprintf("%s/6.1", dir);
	pass = kf_read_file("tests/data/sysboot/pass-debian-cloud-qemu64.json", NULL);
	noroot = kf_read_file("tests/data/sysboot/no-root-debian-cloud-blacklist.json", NULL);
	assert_non_null(pass);
	assert_non_null(noroot);
	put(kdir, "up/sysboot/qemu64.json", pass);
	put(kdir, "noroot/sysboot/qemu64.json", noroot);
	put(kdir, "none/.keep", "");
	load(&r, kdir, names, 3);
	assert_int_equal(report_has_system(&r), 1);

	sys_row_text(buf, sizeof(buf), fl(&r, "up"), SYS_VERDICT);
	assert_string_equal(buf, "pass on qemu64");
	sys_row_text(buf, sizeof(buf), fl(&r, "up"), SYS_MULTI_USER);
	assert_string_equal(buf, "45.1 s");
	sys_row_text(buf, sizeof(buf), fl(&r, "up"), SYS_FAILED);
	assert_string_equal(buf, "none");
	sys_row_text(buf, sizeof(buf), fl(&r, "up"), SYS_MODULES);
	assert_true(!strncmp(buf, "26: kvm_amd kvm", 15));
	sys_row_text(buf, sizeof(buf), fl(&r, "up"), SYS_ROOT);
	assert_string_equal(buf, "virtio_blk virtio_pci (module)");
	sys_row_text(buf, sizeof(buf), fl(&r, "up"), SYS_MEMORY);
	assert_string_equal(buf, "148 of 973 MiB");
	sys_row_text(buf, sizeof(buf), fl(&r, "up"), SYS_PACKAGE);
	assert_string_equal(buf, "not packaged");

	sys_row_text(buf, sizeof(buf), fl(&r, "noroot"), SYS_VERDICT);
	assert_true(!strncmp(buf, "no-root on qemu64: root device /dev/vda not found", 49));
	sys_row_text(buf, sizeof(buf), fl(&r, "noroot"), SYS_MULTI_USER);
	assert_string_equal(buf, "not reached");
	sys_row_text(buf, sizeof(buf), fl(&r, "none"), SYS_VERDICT);
	assert_string_equal(buf, "not booted");
	sys_row_text(buf, sizeof(buf), fl(&r, "none"), SYS_INITRD);
	assert_string_equal(buf, "no system image");

	p = kf_xasprintf("%s/report.json", kdir);
	assert_int_equal(json_write(&r, p), 0);
	json = contains(p, "\"multi_user_seconds\": 45.1");
	assert_non_null(strstr(json, "\"verdict\": \"no-root\""));
	free(json);
	free(p);
	p = kf_xasprintf("%s/report.html", kdir);
	assert_int_equal(html_write(&r, p), 0);
	free(contains(p, "<td class=\"verdict-no-root\">no-root on qemu64: root device"));
	free(p);
	/* results.ktap and junit.xml: each system boot a test of its own */
	p = kf_xasprintf("%s/results.ktap", kdir);
	assert_int_equal(ktap_write(&r, p), 0);
	json = contains(p, "not ok 1 debian-stock.qemu64.system\n");
	assert_non_null(strstr(json, "    # cause: root device /dev/vda not found"));
	assert_non_null(strstr(json, "    ok 3 multi_user_active\n"));
	assert_non_null(strstr(json, "\nok 2 debian-stock.qemu64.system\n"));
	free(json);
	free(p);
	p = kf_xasprintf("%s/junit.xml", kdir);
	assert_int_equal(junit_write(&r, p), 0);
	free(contains(p, "name=\"qemu64.system\""));
	free(p);
	report_free(&r);
	p = kf_xasprintf("rm -rf %s", dir);
	assert_int_equal(system(p), 0);
	free(p);
	free(pass);
	free(noroot);
	free(kdir);
	strcpy(tmpl, "/tmp/kf-report-XXXXXX");
}

/* Set a c2c figure: median with its range over 5 runs. */
static void fig(struct kf_c2c_fig *f, double median, double min, double max)
{
	*f = (struct kf_c2c_fig){ median, min, max, (max - min) / median, median / 2000 };
}

/* The star and the words follow the data: a difference is claimed only
 * beyond both spreads, "no difference" is said in words, and a record of
 * one run claims nothing. */
static void c2c_words_follow_data(void **state)
{
	struct report r;
	struct strbuf w = { 0 };
	struct flavour *a, *b;

	(void)state;
	memset(&r, 0, sizeof(r));
	report_add_flavour(&r, "generic");
	report_add_flavour(&r, "mpsc");
	a = (struct flavour *)fl(&r, "generic");
	b = (struct flavour *)fl(&r, "mpsc");
	a->has_c2c = b->has_c2c = 1;
	a->c2c.runs = b->c2c.runs = 5;
	/* overlapping ranges: 100 (90-110) against 105 (95-115) */
	fig(&a->c2c.only128_load, 100, 90, 110);
	fig(&b->c2c.only128_load, 105, 95, 115);
	assert_false(c2c_differs(&b->c2c, &a->c2c, C2C_ONLY128_LOAD));
	c2c_words(&w, &r);
	assert_string_equal(w.s, "No figure differs from generic's by more than both spreads: at "
			    "run time the flavours do the same here.");
	free(w.s);
	w = (struct strbuf){ 0 };
	/* 100 (90-110) against 5 (4-6): beyond both */
	fig(&b->c2c.only128_load, 5, 4, 6);
	assert_true(c2c_differs(&b->c2c, &a->c2c, C2C_ONLY128_LOAD));
	c2c_words(&w, &r);
	assert_non_null(strstr(w.s, "Beyond both spreads: mpsc: load HITMs at 128 B only 0.0025 "
				    "against generic's 0.05 (-95%)."));
	free(w.s);
	w = (struct strbuf){ 0 };
	/* a difference no larger than the first's own range is not claimed */
	fig(&b->c2c.only128_load, 85, 84, 86);
	assert_false(c2c_differs(&b->c2c, &a->c2c, C2C_ONLY128_LOAD));
	/* one run: no spread, nothing claimed, and said */
	fig(&b->c2c.only128_load, 5, 4, 6);
	b->c2c.runs = 1;
	assert_false(c2c_differs(&b->c2c, &a->c2c, C2C_ONLY128_LOAD));
	c2c_words(&w, &r);
	assert_non_null(strstr(w.s, "one run has no spread: no difference is claimed"));
	free(w.s);
	report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(formats),
		cmocka_unit_test(escapes_html),
		cmocka_unit_test(classifies_symbols),
		cmocka_unit_test(reads_fixture),
		cmocka_unit_test(config_diff_names_fragments),
		cmocka_unit_test(survives_broken_and_missing),
		cmocka_unit_test(facts_without_probe),
		cmocka_unit_test(survives_empty),
		cmocka_unit_test(c2c_one_machine),
		cmocka_unit_test(c2c_words_follow_data),
		cmocka_unit_test(system_boot_block),
	};

	return cmocka_run_group_tests_name("report_model", tests, NULL, NULL);
}
