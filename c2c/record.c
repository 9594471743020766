// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - the c2c record from N runs of one workload (docs/c2c.md).
 *
 *   c2c-record --out FILE --flavour F --kver K --cpu C --workload W
 *              [--vmlinux VMLINUX] --run DIR/<cpu>.json ...
 *       each --run names one run's boot record; its plugin output is
 *       DIR/<cpu>.raw beside it. Writes FILE (c2c/c2c.schema.json): each
 *       figure's median, min, max and spread over the runs, per iteration
 *       too, and the lines with HITMs. Exits 2, FILE untouched, when a run
 *       did not pass or its raw output is missing or broken.
 *
 *   c2c-record --summary RECORD...
 *       one line per record: HITMs and false-sharing HITMs per iteration at
 *       64 and 128 bytes, instructions per iteration, the spread.
 */
#include "attrib.h"
#include "raw.h"
#include "../lib/kf.h"
#include "../lib/records.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUNS	64
#define TOP_LINES	40	/* lines kept in the record, most HITMs first */

struct run {
	const char *path;
	struct kf_boot_rec boot;
	struct kf_c2c_raw raw;
};

static struct run runs[MAX_RUNS];
static size_t nruns;
static double iterations;

static json_t *figure(const double *v);

/* Attribution (attrib.h): with --vmlinux, from the probe's layout facts. */
#define MAX_OBJS	8
static struct kf_syms syms;
static int have_syms;
static uint64_t text_virt, text_phys, pcpu_bytes, pcpu_phys[KF_C2C_MAXCPUS];
static int pcpu_n;

struct objs {
	const struct kf_sym *v[MAX_OBJS];
	size_t n;		/* overlapping, may exceed MAX_OBJS */
	int cpu;		/* per-CPU objects: whose copy; -1 static */
};

/* The kernel objects in [addr, addr + size): static ones through the
 * image's load address, per-CPU ones through each CPU's copy. */
static void objects(uint64_t addr, unsigned size, struct objs *o)
{
	uint64_t end_phys = text_phys + (syms.end - syms.text);

	o->n = 0;
	o->cpu = -1;
	if (!have_syms)
		return;
	if (addr + size > text_phys && addr < end_phys) {
		o->n = kf_syms_overlap(syms.obj, syms.nobj, addr - text_phys + text_virt, size,
				       o->v, MAX_OBJS);
		return;
	}
	for (int c = 0; c < pcpu_n; c++)
		if (addr + size > pcpu_phys[c] && addr < pcpu_phys[c] + pcpu_bytes) {
			o->cpu = c;
			o->n = kf_syms_overlap(syms.pcpu, syms.npcpu, addr - pcpu_phys[c], size,
					       o->v, MAX_OBJS);
			return;
		}
}

/* A probe fact of a run's boot record as a number; exits 2 naming the run
 * and the fact when it is missing. */
static uint64_t layout_fact(const struct run *r, const char *key)
{
	const char *v = kf_boot_fact(&r->boot, key);
	char *end;
	unsigned long long n;

	if (!v || !*v)
		kf_die(2, "%s: no %s fact: the kernel's flavour probe does not say where it put "
		       "its image and per-CPU areas, and c2c-record does not guess. Build it "
		       "from a tree with patches/<kver>/0003 (make tree, then make c2c again); "
		       "docs/probe.md", r->path, key);
	n = strtoull(v, &end, 0);
	if (*end)
		kf_die(2, "%s: %s=%s is not a number", r->path, key, v);
	return n;
}

/* --vmlinux: its symbols, and where the probe says the kernel put the
 * image and each CPU's per-CPU copy. Every run must say the same (c2c
 * boots with nokaslr). Exits 2 when vmlinux is bad or a fact missing. */
static void attribution(const char *vmlinux)
{
	char err[512], key[64];

	if (kf_syms_load(&syms, vmlinux, err, sizeof(err)))
		kf_die(2, "%s", err);
	have_syms = 1;
	pcpu_n = runs[0].raw.vcpus;
	for (size_t r = 0; r < nruns; r++) {
		uint64_t tv = layout_fact(&runs[r], "probe.kernel_text");
		uint64_t tp = layout_fact(&runs[r], "probe.kernel_text_phys");
		uint64_t pb = layout_fact(&runs[r], "probe.percpu_bytes");

		if (r && (tv != text_virt || tp != text_phys || pb != pcpu_bytes))
			kf_die(2, "%s: the kernel's layout differs from %s's; run make c2c again",
			       runs[r].path, runs[0].path);
		text_virt = tv;
		text_phys = tp;
		pcpu_bytes = pb;
		for (int c = 0; c < pcpu_n; c++) {
			uint64_t p;

			snprintf(key, sizeof(key), "probe.cpu%d.percpu_phys", c);
			p = layout_fact(&runs[r], key);
			if (r && p != pcpu_phys[c])
				kf_die(2, "%s: CPU %d's per-CPU copy is at 0x%" PRIx64 ", %s's at 0x%"
				       PRIx64 "; run make c2c again", runs[r].path, c, p,
				       runs[0].path, pcpu_phys[c]);
			pcpu_phys[c] = p;
		}
	}
	if (text_virt != syms.text)
		kf_die(2, "%s: the probe says _text is at 0x%" PRIx64 ", %s has 0x%" PRIx64
		       ": not this kernel's vmlinux", runs[0].path, text_virt, vmlinux, syms.text);
}

static json_t *attribution_json(const char *vmlinux)
{
	json_t *cpus = json_array();
	char b[32];

	for (int c = 0; have_syms && c < pcpu_n; c++) {
		snprintf(b, sizeof(b), "0x%" PRIx64, pcpu_phys[c]);
		json_array_append_new(cpus, json_string(b));
	}
	snprintf(b, sizeof(b), "0x%" PRIx64, text_phys);
	return json_pack("{s:o, s:o, s:o, s:o}",
			 "vmlinux", vmlinux ? json_string(vmlinux) : json_null(),
			 "kernel_text_phys", have_syms ? json_string(b) : json_null(),
			 "percpu_phys", cpus,
			 "percpu_bytes", have_syms ? json_integer((json_int_t)pcpu_bytes) : json_null());
}

/* A figure over the runs: v[i] is run i's value. */
static json_t *figure(const double *v)
{
	double s[MAX_RUNS] = { 0 }, med, lo = v[0], hi = v[0];

	memcpy(s, v, nruns * sizeof(*v));
	med = kf_c2c_median(s, nruns);
	for (size_t i = 1; i < nruns; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	return json_pack("{s:f, s:f, s:f, s:f, s:f}", "median", med, "min", lo, "max", hi,
			 "spread", kf_c2c_spread(v, nruns, med),
			 "per_iteration", iterations > 0 ? med / iterations : 0.0);
}

/* The figure of expr, an expression of r, each run's struct kf_c2c_raw. */
#define RAWFIG(expr) ({ double v_[MAX_RUNS] = { 0 }; \
	for (size_t i_ = 0; i_ < nruns; i_++) { const struct kf_c2c_raw *r = &runs[i_].raw; \
		v_[i_] = (double)(expr); } figure(v_); })

static uint64_t sum(const uint64_t *a, int n)
{
	uint64_t s = 0;

	for (int i = 0; i < n; i++)
		s += a[i];
	return s;
}

/* perf c2c's columns at line size s (raw.h's struct kf_c2c_figs). */
static json_t *size_json(int s)
{
	json_t *o = json_object();

#define SIZEFIG(name, expr) json_object_set_new(o, name, RAWFIG(expr))
	SIZEFIG("loads", r->size[s].f.loads);
	SIZEFIG("load_miss", r->size[s].f.load_miss);
	SIZEFIG("load_hitm", r->size[s].f.load_hitm);
	SIZEFIG("load_hitm_true", r->size[s].f.load_hitm - r->size[s].f.load_hitm_false);
	SIZEFIG("load_hitm_false", r->size[s].f.load_hitm_false);
	SIZEFIG("stores", r->size[s].f.stores);
	SIZEFIG("store_miss", r->size[s].f.store_miss);
	SIZEFIG("store_hitm", r->size[s].f.store_hitm);
	SIZEFIG("store_hitm_false", r->size[s].f.store_hitm_false);
	SIZEFIG("invalidations", r->size[s].f.inval);
	SIZEFIG("rmw", r->size[s].f.rmw);
	SIZEFIG("lines", r->size[s].lines);
#undef SIZEFIG
	return o;
}

/* What a line's figure is (line_fig). */
enum linefig { LF_HITM, LF_LOAD_HITM, LF_LOAD_HITM_FALSE, LF_STORE_HITM, LF_INVAL, LF_LOADS,
	       LF_STORES, LF_ONLY128, LF_ONLY64, LF_NR };
static const char *const linefig_name[LF_NR] = {
	[LF_HITM] = NULL, [LF_LOAD_HITM] = "load_hitm", [LF_LOAD_HITM_FALSE] = "load_hitm_false",
	[LF_STORE_HITM] = "store_hitm", [LF_INVAL] = "invalidations", [LF_LOADS] = "loads",
	[LF_STORES] = "stores", [LF_ONLY128] = "hitm_128_only", [LF_ONLY64] = "hitm_64_only",
};

/* One line's figure in one run (0 in a run without that line). HITMs:
 * loads and stores to a modified line; the *_only ones: loads and stores. */
static double line_fig(size_t run, unsigned size, uint64_t addr, enum linefig what)
{
	const struct kf_c2c_raw *r = &runs[run].raw;

	for (size_t i = 0; i < r->nlines; i++) {
		const struct kf_c2c_line *l = &r->lines[i];

		if (l->size != size || l->addr != addr)
			continue;
		switch (what) {
		case LF_HITM: return (double)(l->f.load_hitm + l->f.store_hitm);
		case LF_LOAD_HITM: return (double)l->f.load_hitm;
		case LF_LOAD_HITM_FALSE: return (double)l->f.load_hitm_false;
		case LF_STORE_HITM: return (double)l->f.store_hitm;
		case LF_INVAL: return (double)l->f.inval;
		case LF_LOADS: return (double)l->f.loads;
		case LF_STORES: return (double)l->f.stores;
		case LF_ONLY128: return (double)(l->only128[0] + l->only128[1]);
		case LF_ONLY64:
		default: return (double)(l->only64[0] + l->only64[1]);
		}
	}
	return 0;
}

struct key {
	unsigned size;
	uint64_t addr, pc;
	double rank;
};

static int by_rank(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? 1 : -1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Functions by HITMs, summed over the runs (fn_add), then as JSON. An
 * instruction in no function is named by its address. */
#define MAX_FUNCS	8
struct fn_hitm {
	char *name;
	double hitm;
};

struct fns {
	struct fn_hitm *f;
	size_t n;
};

static void fn_add(struct fns *fs, uint64_t pc, uint64_t n)
{
	const struct kf_sym *fn = have_syms ? kf_syms_func(&syms, pc) : NULL;
	char *name = fn ? kf_xstrdup(fn->name) : kf_xasprintf("0x%" PRIx64, pc);
	size_t j;

	for (j = 0; j < fs->n && strcmp(fs->f[j].name, name) != 0; j++)
		;
	if (j == fs->n) {
		fs->f = kf_xrealloc(fs->f, (fs->n + 1) * sizeof(*fs->f));
		fs->f[fs->n++] = (struct fn_hitm){ name, 0 };
	} else {
		free(name);
	}
	fs->f[j].hitm += (double)n;
}

static int by_fn_hitm(const void *a, const void *b)
{
	const struct fn_hitm *x = a, *y = b;

	if (x->hitm != y->hitm)
		return x->hitm < y->hitm ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Most first, up to MAX_FUNCS, each per run; *nall: how many. Frees fs. */
static json_t *fns_json(struct fns *fs, size_t *nall)
{
	json_t *a = json_array();

	if (fs->n)
		qsort(fs->f, fs->n, sizeof(*fs->f), by_fn_hitm);
	for (size_t j = 0; j < fs->n; j++) {
		if (j < MAX_FUNCS)
			json_array_append_new(a, json_pack("{s:s, s:f}", "name", fs->f[j].name,
							   "hitm", fs->f[j].hitm / (double)nruns));
		free(fs->f[j].name);
	}
	free(fs->f);
	*nall = fs->n;
	return a;
}

/* A line's functions: those of every instruction that made a HITM on it
 * (the plugin's hitpc lines), as perf c2c names a line by the code
 * touching it. */
static json_t *functions_json(unsigned size, uint64_t addr, size_t *nall)
{
	struct fns fs = { 0 };

	for (size_t r = 0; r < nruns; r++)
		for (size_t i = 0; i < runs[r].raw.nhitpcs; i++) {
			const struct kf_c2c_hitpc *h = &runs[r].raw.hitpcs[i];

			if (h->size == size && h->addr == addr)
				fn_add(&fs, h->pc, h->hitm);
		}
	return fns_json(&fs, nall);
}

static json_t *names_json(uint64_t addr, unsigned size, int *cpu, size_t *nall)
{
	json_t *names = json_array();
	struct objs o;

	objects(addr, size, &o);
	for (size_t i = 0; i < o.n && i < MAX_OBJS; i++)
		json_array_append_new(names, json_string(o.v[i]->name));
	*cpu = o.cpu;
	*nall = o.n;
	return names;
}

/* Lines of every run with figure rank > 0 in any, by median rank, the
 * first max of each line size (only: that size). *n gets how many. */
static struct key *rank_lines(enum linefig rank, unsigned only, size_t *n)
{
	struct key *k = NULL;
	size_t nk = 0;

	for (size_t r = 0; r < nruns; r++)
		for (size_t i = 0; i < runs[r].raw.nlines; i++) {
			const struct kf_c2c_line *l = &runs[r].raw.lines[i];
			size_t j;

			if ((only && l->size != only) || !line_fig(r, l->size, l->addr, rank))
				continue;
			for (j = 0; j < nk; j++)
				if (k[j].size == l->size && k[j].addr == l->addr)
					break;
			if (j == nk) {
				k = kf_xrealloc(k, (nk + 1) * sizeof(*k));
				k[nk++] = (struct key){ l->size, l->addr, l->pc, 0 };
			}
		}
	for (size_t j = 0; j < nk; j++) {
		double v[MAX_RUNS] = { 0 };

		for (size_t r = 0; r < nruns; r++)
			v[r] = line_fig(r, k[j].size, k[j].addr, rank);
		k[j].rank = kf_c2c_median(v, nruns);
	}
	if (nk)
		qsort(k, nk, sizeof(*k), by_rank);
	*n = nk;
	return k;
}

/* The lines with HITMs (loads and stores) in any run, by median HITMs,
 * the first TOP_LINES of each line size. */
static json_t *lines_json(void)
{
	size_t nk;
	struct key *k = rank_lines(LF_HITM, 0, &nk);
	json_t *a = json_array();
	int kept[KF_C2C_NSIZES] = { 0 };

	for (size_t j = 0; j < nk; j++) {
		char addr[32], pc[32];
		const struct kf_sym *fn = have_syms ? kf_syms_func(&syms, k[j].pc) : NULL;
		size_t nfuncs, nobj;
		int cpu;
		json_t *o;

		if (kept[k[j].size == 64 ? 0 : 1]++ >= TOP_LINES)
			continue;
		snprintf(addr, sizeof(addr), "0x%" PRIx64, k[j].addr);
		snprintf(pc, sizeof(pc), "0x%" PRIx64, k[j].pc);
		o = json_pack("{s:i, s:s, s:s}", "size", (int)k[j].size, "addr", addr, "pc", pc);
		for (int w = LF_LOAD_HITM; w <= LF_STORES; w++) {
			double v[MAX_RUNS] = { 0 };

			for (size_t r = 0; r < nruns; r++)
				v[r] = line_fig(r, k[j].size, k[j].addr, (enum linefig)w);
			json_object_set_new(o, linefig_name[w], figure(v));
		}
		json_object_set_new(o, "objects", names_json(k[j].addr, k[j].size, &cpu, &nobj));
		json_object_set_new(o, "nobjects", json_integer((json_int_t)nobj));
		json_object_set_new(o, "percpu_cpu", cpu >= 0 ? json_integer(cpu) : json_null());
		json_object_set_new(o, "function", fn ? json_string(fn->name) : json_null());
		json_object_set_new(o, "functions", functions_json(k[j].size, k[j].addr, &nfuncs));
		json_object_set_new(o, "nfunctions", json_integer((json_int_t)nfuncs));
		json_array_append_new(a, o);
	}
	free(k);
	return a;
}

/*
 * What the 128-byte line changes over the 64-byte one: HITMs at 128 bytes
 * that were none at 64 (the other half written by another vCPU), and the
 * opposite, by loads and stores; the lines with the most of the first, each
 * with the objects in each half and the functions on each side.
 */
static json_t *padding_json(void)
{
	size_t nk;
	struct key *k = rank_lines(LF_ONLY128, 128, &nk);
	json_t *lines = json_array();

	for (size_t j = 0; j < nk && j < TOP_LINES; j++) {
		struct fns here = { 0 }, other = { 0 };
		double v[2][MAX_RUNS] = { { 0 } };
		char addr[32];
		size_t n0, n1, nh, no;
		int cpu0, cpu1;
		json_t *o;

		for (size_t r = 0; r < nruns; r++) {
			v[0][r] = line_fig(r, 128, k[j].addr, LF_ONLY128);
			v[1][r] = line_fig(r, 128, k[j].addr, LF_ONLY64);
			for (size_t i = 0; i < runs[r].raw.nsides; i++) {
				const struct kf_c2c_sides *sd = &runs[r].raw.sides[i];

				if (sd->addr != k[j].addr)
					continue;
				fn_add(&here, sd->pc, sd->n);
				fn_add(&other, sd->pc2, sd->n);
			}
		}
		snprintf(addr, sizeof(addr), "0x%" PRIx64, k[j].addr);
		o = json_pack("{s:s, s:o, s:o}", "addr", addr, "hitm_128_only", figure(v[0]),
			      "hitm_64_only", figure(v[1]));
		json_object_set_new(o, "objects_low", names_json(k[j].addr, 64, &cpu0, &n0));
		json_object_set_new(o, "objects_high", names_json(k[j].addr + 64, 64, &cpu1, &n1));
		json_object_set_new(o, "percpu_cpu", cpu0 >= 0 ? json_integer(cpu0) : json_null());
		json_object_set_new(o, "functions", fns_json(&here, &nh));
		json_object_set_new(o, "functions_other", fns_json(&other, &no));
		json_array_append_new(lines, o);
	}
	free(k);
	return json_pack("{s:o, s:o, s:o, s:o, s:o}",
			 "hitm_128_only_load", RAWFIG(r->only128[0]),
			 "hitm_128_only_store", RAWFIG(r->only128[1]),
			 "hitm_64_only_load", RAWFIG(r->only64[0]),
			 "hitm_64_only_store", RAWFIG(r->only64[1]),
			 "lines", lines);
}

static json_t *insns_json(void)
{
	json_t *per_cpu = json_array();
	int ncpu = runs[0].raw.vcpus;

	for (int c = 0; c < ncpu; c++)
		json_array_append_new(per_cpu, json_pack("{s:o, s:o, s:o, s:o}",
			"kernel", RAWFIG(r->win_kernel[c]), "user", RAWFIG(r->win_user[c]),
			"loads", RAWFIG(r->win_loads[c]), "stores", RAWFIG(r->win_stores[c])));
	return json_pack("{s:o, s:o, s:o}",
			 "kernel", RAWFIG(sum(r->win_kernel, r->vcpus)),
			 "user", RAWFIG(sum(r->win_user, r->vcpus)),
			 "per_cpu", per_cpu);
}

/* The argument QEMU's option opt had in a run (its boot record's command),
 * or NULL: the machine's memory (-m) and CPUs (-smp), recorded so that a
 * comparison can show every flavour ran on the same machine. */
static const char *qemu_opt(const struct kf_boot_rec *b, const char *opt)
{
	for (size_t i = 0; i + 1 < b->ncommand; i++)
		if (!strcmp(b->command[i], opt))
			return b->command[i + 1];
	return NULL;
}

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * A QEMU that cannot run this guest's vCPUs on threads of their own says
 * so and goes on anyway (QEMU 7.2's accel/tcg: "Guest not yet converted to
 * MTTCG", "Guest expects a stronger memory ordering than the host
 * provides"): its runs would count contention that a real machine would
 * not have. Exits 2 naming the run and QEMU's line.
 */
static void mttcg_refused(const char *run, const char *logpath)
{
	static const char *const says[] = { "not yet converted to MTTCG",
					    "stronger memory ordering than the host" };
	char *log = kf_read_file(logpath, NULL), *at = NULL;

	for (size_t i = 0; log && !at && i < sizeof(says) / sizeof(says[0]); i++)
		at = strstr(log, says[i]);
	if (at) {
		char *bol = at, *eol = strchr(at, '\n');

		while (bol > log && bol[-1] != '\n')
			bol--;
		kf_die(2, "%s: this QEMU cannot run the guest under multi-threaded TCG: '%.*s' "
		       "(%s). Run make c2c tcg=single (round robin, docs/c2c.md)", run,
		       (int)(eol ? eol - bol : (long)strlen(bol)), bol, logpath);
	}
	free(log);
}

/* One run: its boot record passed and ran this workload; its raw output
 * is whole and saw one window. Exits 2 naming the file otherwise. */
static void read_run(struct run *r, const char *workload)
{
	size_t len = strlen(r->path);
	char *rawpath, *text, *logpath, err[256];
	const char *w;

	if (len < 6 || strcmp(r->path + len - 5, ".json") != 0)
		kf_die(2, "--run %s: want a run's boot record DIR/<cpu>.json", r->path);
	kf_boot_rec_read(&r->boot, r->path, KF_MUST, "run make c2c again");
	logpath = kf_xasprintf("%.*s.log", (int)(len - 5), r->path);
	mttcg_refused(r->path, logpath);
	if (r->boot.verdict && !strcmp(r->boot.verdict, "qemu-error"))
		kf_die(2, "%s: QEMU did not run the guest (verdict qemu-error); its own words are "
		       "in %s (lines '! qemu:')", r->path, logpath);
	if (!r->boot.verdict || strcmp(r->boot.verdict, "pass") != 0)
		kf_die(2, "%s: the c2c run's verdict is %s, not pass; the init's reason "
		       "(c2c_workload) is in %s. A kernel without CONFIG_SMP or "
		       "sched_setaffinity cannot run the workloads (docs/c2c.md)", r->path,
		       r->boot.verdict ? r->boot.verdict : "missing", logpath);
	w = kf_boot_fact(&r->boot, "c2c.workload");
	if (!w || strcmp(w, workload) != 0)
		kf_die(2, "%s: the guest ran workload '%s', not '%s'; run make c2c again",
		       r->path, w ? w : "(none)", workload);
	w = kf_boot_fact(&r->boot, "c2c.iterations");
	if (!w || atof(w) <= 0)
		kf_die(2, "%s: no c2c.iterations fact; see %s", r->path, logpath);
	if (iterations > 0 && atof(w) != iterations)
		kf_die(2, "%s: %s iterations, an earlier run %.0f; run make c2c again",
		       r->path, w, iterations);
	iterations = atof(w);
	rawpath = kf_xasprintf("%.*s.raw", (int)(len - 5), r->path);
	text = kf_read_file(rawpath, NULL);
	if (!text)
		kf_die(2, "%s: %s; the plugin writes it when QEMU exits (see %s)", rawpath,
		       strerror(errno), logpath);
	if (kf_c2c_raw_parse(&r->raw, text, err, sizeof(err)))
		kf_die(2, "%s:%s; run make c2c again", rawpath, err + strlen("line"));
	if (r->raw.opens != 1 || r->raw.closes != 1)
		kf_die(2, "%s: the window opened %u and closed %u times, want once each; "
		       "is the init of this checkout in the initramfs (make initramfs)?",
		       rawpath, r->raw.opens, r->raw.closes);
	free(text);
	free(rawpath);
	free(logpath);
}

static void usage(void)
{
	fprintf(stderr, "usage: c2c-record --out FILE --flavour F --kver K --cpu C --workload W "
		"[--vmlinux VMLINUX] --run DIR/<cpu>.json...\n"
		"       c2c-record --summary RECORD...\n");
	exit(2);
}

static void summary(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		struct kf_c2c_rec c;

		kf_c2c_rec_read(&c, argv[i], KF_MUST, "run make c2c again");
		printf("  C2C     %s %s on %s (tcg %s), per iteration: load HITMs 64B %.4g "
		       "(false %.4g), 128B %.4g (false %.4g, spread %.0f%%); HITMs at 128B only "
		       "%.4g, at 64B only %.4g; insns kernel %.0f user %.1f\n",
		       c.h.flavour ? c.h.flavour : "?", c.workload ? c.workload : "?",
		       c.cpu ? c.cpu : "?", c.tcg ? c.tcg : "?", c.size64.load_hitm.per_iteration,
		       c.size64.load_hitm_false.per_iteration, c.size128.load_hitm.per_iteration,
		       c.size128.load_hitm_false.per_iteration, 100 * c.size128.load_hitm.spread,
		       c.only128_load.per_iteration + c.only128_store.per_iteration,
		       c.only64_load.per_iteration + c.only64_store.per_iteration,
		       c.insns_kernel.per_iteration, c.insns_user.per_iteration);
		kf_c2c_rec_free(&c);
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "flavour", required_argument, NULL, 'f' },
		{ "kver", required_argument, NULL, 'k' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "workload", required_argument, NULL, 'w' },
		{ "run", required_argument, NULL, 'r' },
		{ "summary", no_argument, NULL, 's' },
		{ "vmlinux", required_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL, *flavour = NULL, *kver = NULL, *cpu = NULL, *workload = NULL;
	const char *vmlinux = NULL, *mem, *smp;
	int c, do_summary = 0;
	json_t *rec, *figs, *whole, *run_paths;

	kf_prog = "c2c-record";
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'f': flavour = optarg; break;
		case 'k': kver = optarg; break;
		case 'c': cpu = optarg; break;
		case 'w': workload = optarg; break;
		case 'r':
			if (nruns == MAX_RUNS)
				kf_die(2, "--run %s: at most %d runs", optarg, MAX_RUNS);
			runs[nruns++].path = optarg;
			break;
		case 's': do_summary = 1; break;
		case 'V': vmlinux = optarg; break;
		default: usage();
		}
	}
	if (do_summary) {
		summary(argc - optind, argv + optind);
		return 0;
	}
	if (optind != argc || !out || !flavour || !kver || !cpu || !workload || !nruns)
		usage();
	for (size_t i = 0; i < nruns; i++) {
		read_run(&runs[i], workload);
		if (runs[i].raw.hitpc_dropped)
			kf_warn("%s: the plugin had no room for %" PRIu64 " (line, instruction) pairs "
				"of HITMs: some lines' functions are incomplete (c2c/plugin.c HITPC_BITS)",
				runs[i].path, runs[i].raw.hitpc_dropped);
	}
	for (size_t i = 1; i < nruns; i++)
		if (runs[i].raw.vcpus != runs[0].raw.vcpus ||
		    runs[i].raw.count_kernel != runs[0].raw.count_kernel ||
		    runs[i].raw.tcg_multi != runs[0].raw.tcg_multi ||
		    !same_str(runs[i].boot.cpu_string, runs[0].boot.cpu_string) ||
		    !same_str(qemu_opt(&runs[i].boot, "-m"), qemu_opt(&runs[0].boot, "-m")) ||
		    !same_str(qemu_opt(&runs[i].boot, "-smp"), qemu_opt(&runs[0].boot, "-smp")))
			kf_die(2, "%s: another machine, count= or TCG mode than %s; run make c2c again",
			       runs[i].path, runs[0].path);

	if (vmlinux)
		attribution(vmlinux);

	rec = kf_record_new("c2c", flavour, kver, runs[0].boot.h.release);
	json_object_set_new(rec, "cpu", json_string(cpu));
	json_object_set_new(rec, "cpu_string", json_string(runs[0].boot.cpu_string));
	json_object_set_new(rec, "qemu_version", runs[0].boot.qemu_version ?
			    json_string(runs[0].boot.qemu_version) : json_null());
	json_object_set_new(rec, "workload", json_string(workload));
	json_object_set_new(rec, "count", json_string(runs[0].raw.count_kernel ? "kernel" : "user"));
	json_object_set_new(rec, "tcg", json_string(runs[0].raw.tcg_multi ? "multi" : "single"));
	json_object_set_new(rec, "vcpus", json_integer(runs[0].raw.vcpus));
	mem = qemu_opt(&runs[0].boot, "-m");
	smp = qemu_opt(&runs[0].boot, "-smp");
	json_object_set_new(rec, "memory", mem ? json_string(mem) : json_null());
	json_object_set_new(rec, "smp", smp && atoi(smp) > 0 ? json_integer(atoi(smp)) : json_null());
	json_object_set_new(rec, "iterations", json_integer((json_int_t)iterations));
	json_object_set_new(rec, "unit", json_string(kf_boot_fact(&runs[0].boot, "c2c.unit") ?
						     kf_boot_fact(&runs[0].boot, "c2c.unit") : ""));
	json_object_set_new(rec, "runs", json_integer((json_int_t)nruns));
	figs = json_object();
	json_object_set_new(figs, "64", size_json(0));
	json_object_set_new(figs, "128", size_json(1));
	json_object_set_new(rec, "figures", figs);
	json_object_set_new(rec, "insns", insns_json());
	whole = json_pack("{s:o, s:o, s:o}", "insns", RAWFIG(r->insns),
			  "accesses", RAWFIG(r->mem), "io_accesses", RAWFIG(r->mem_io));
	{
		double v[MAX_RUNS] = { 0 };

		for (size_t i = 0; i < nruns; i++)
			v[i] = runs[i].boot.wall_seconds;
		json_object_set_new(whole, "wall_seconds", figure(v));
	}
	json_object_set_new(rec, "whole_run", whole);
	json_object_set_new(rec, "attribution", attribution_json(vmlinux));
	json_object_set_new(rec, "padding", padding_json());
	json_object_set_new(rec, "lines", lines_json());
	run_paths = json_array();
	for (size_t i = 0; i < nruns; i++)
		json_array_append_new(run_paths, json_string(runs[i].path));
	json_object_set_new(rec, "run_records", run_paths);
	if (kf_record_write(rec, out))
		kf_die(2, "%s: %s", out, strerror(errno));
	printf("  C2C     %s\n", out);
	json_decref(rec);
	for (size_t i = 0; i < nruns; i++) {
		kf_boot_rec_free(&runs[i].boot);
		kf_c2c_raw_free(&runs[i].raw);
	}
	kf_syms_free(&syms);
	return 0;
}
