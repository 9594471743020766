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

/* Attribution (attrib.h): with --vmlinux. */
#define MAX_OBJS	8
static struct kf_syms syms;
static int have_syms, have_pcpu;
static uint64_t pcpu_base, pcpu_unit, pcpu_static;

struct objs {
	const struct kf_sym *v[MAX_OBJS];
	size_t n;		/* overlapping, may exceed MAX_OBJS */
	int cpu;		/* per-CPU objects: whose unit; -1 static */
};

/* The kernel objects in [addr, addr + size): static ones through the
 * image mapping, per-CPU ones through the inferred first chunk. */
static void objects(uint64_t addr, unsigned size, struct objs *o)
{
	uint64_t text_pa = syms.text - KF_START_KERNEL_MAP, end_pa = syms.end - KF_START_KERNEL_MAP;

	o->n = 0;
	o->cpu = -1;
	if (!have_syms)
		return;
	if (addr + size > text_pa && addr < end_pa) {
		o->n = kf_syms_overlap(syms.obj, syms.nobj, addr + KF_START_KERNEL_MAP, size,
				       o->v, MAX_OBJS);
	} else if (have_pcpu && addr >= pcpu_base &&
		   addr - pcpu_base < (uint64_t)runs[0].raw.vcpus * pcpu_unit &&
		   (addr - pcpu_base) % pcpu_unit < pcpu_static) {
		o->cpu = (int)((addr - pcpu_base) / pcpu_unit);
		o->n = kf_syms_overlap(syms.pcpu, syms.npcpu, (addr - pcpu_base) % pcpu_unit, size,
				       o->v, MAX_OBJS);
	}
}

/* --vmlinux: its symbols, and the per-CPU first chunk from the first
 * run's log and the lines of every run. Exits 2 when vmlinux is bad. */
static void attribution(const char *vmlinux)
{
	char err[512], *logpath, *log;
	size_t len = strlen(runs[0].path);

	if (kf_syms_load(&syms, vmlinux, err, sizeof(err)))
		kf_die(2, "%s", err);
	have_syms = 1;
	logpath = kf_xasprintf("%.*s.log", (int)(len - 5), runs[0].path);
	log = kf_read_file(logpath, NULL);
	if (log && !kf_percpu_sizes(log, &pcpu_static, &pcpu_unit)) {
		uint64_t *addrs = NULL;
		size_t n = 0;

		for (size_t r = 0; r < nruns; r++)
			for (size_t i = 0; i < runs[r].raw.nlines; i++) {
				addrs = kf_xrealloc(addrs, (n + 1) * sizeof(*addrs));
				addrs[n++] = runs[r].raw.lines[i].addr;
			}
		/* The embedding allocator places the chunk PMD-aligned (2 MiB). */
		have_pcpu = !kf_percpu_base(addrs, n, pcpu_unit, pcpu_static, runs[0].raw.vcpus,
					    2u << 20, &pcpu_base);
		free(addrs);
	}
	free(log);
	free(logpath);
}

static json_t *attribution_json(const char *vmlinux)
{
	char b[32];

	snprintf(b, sizeof(b), "0x%" PRIx64, pcpu_base);
	return json_pack("{s:o, s:o, s:o, s:o}",
			 "vmlinux", vmlinux ? json_string(vmlinux) : json_null(),
			 "percpu_base", have_pcpu ? json_string(b) : json_null(),
			 "percpu_unit", have_pcpu ? json_integer((json_int_t)pcpu_unit) : json_null(),
			 "percpu_static", have_pcpu ? json_integer((json_int_t)pcpu_static) : json_null());
}

/* Per run: HITMs on lines of size s holding more than one object. */
static json_t *multi_json(int s)
{
	double v[MAX_RUNS] = { 0 };
	unsigned size = s ? 128 : 64;

	for (size_t r = 0; r < nruns; r++)
		for (size_t i = 0; i < runs[r].raw.nlines; i++) {
			const struct kf_c2c_line *l = &runs[r].raw.lines[i];
			struct objs o;

			if (l->size != size)
				continue;
			objects(l->addr, size, &o);
			if (o.n > 1)
				v[r] += (double)l->hitm;
		}
	return figure(v);
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

static json_t *size_json(int s)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "hitm_multi_object", multi_json(s),
			 "accesses", RAWFIG(r->size[s].accesses),
			 "stores", RAWFIG(r->size[s].stores),
			 "hitm", RAWFIG(r->size[s].hitm),
			 "hitm_true", RAWFIG(r->size[s].hitm - r->size[s].hitm_false),
			 "hitm_false", RAWFIG(r->size[s].hitm_false),
			 "invalidations", RAWFIG(r->size[s].inval));
}

/* One line's figure over the runs (0 in a run without that line). */
static double line_fig(size_t run, unsigned size, uint64_t addr, int what)
{
	const struct kf_c2c_raw *r = &runs[run].raw;

	for (size_t i = 0; i < r->nlines; i++) {
		const struct kf_c2c_line *l = &r->lines[i];

		if (l->size == size && l->addr == addr)
			return what == 0 ? (double)l->hitm : what == 1 ? (double)l->hitm_false :
			       what == 2 ? (double)l->inval : (double)l->accesses;
	}
	return 0;
}

struct key {
	unsigned size;
	uint64_t addr, pc;
	double hitm;
};

static int by_hitm(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->hitm != y->hitm)
		return x->hitm < y->hitm ? 1 : -1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* A line's functions: those of every instruction that made a HITM on it
 * (the plugin's hitpc lines), each with its HITMs per run (the sum over
 * the runs / runs), most first, up to MAX_FUNCS; *nall gets how many there
 * were. An instruction in no function is named by its address. Raw files
 * of before 2026-12-06 have none: an empty array. */
#define MAX_FUNCS	8
struct fn_hitm {
	char *name;
	double hitm;
};

static int by_fn_hitm(const void *a, const void *b)
{
	const struct fn_hitm *x = a, *y = b;

	if (x->hitm != y->hitm)
		return x->hitm < y->hitm ? 1 : -1;
	return strcmp(x->name, y->name);
}

static json_t *functions_json(unsigned size, uint64_t addr, size_t *nall)
{
	struct fn_hitm *f = NULL;
	size_t nf = 0;
	json_t *a = json_array();

	for (size_t r = 0; r < nruns; r++)
		for (size_t i = 0; i < runs[r].raw.nhitpcs; i++) {
			const struct kf_c2c_hitpc *h = &runs[r].raw.hitpcs[i];
			const struct kf_sym *fn;
			char *name;
			size_t j;

			if (h->size != size || h->addr != addr)
				continue;
			fn = have_syms ? kf_syms_func(&syms, h->pc) : NULL;
			name = fn ? kf_xstrdup(fn->name) : kf_xasprintf("0x%" PRIx64, h->pc);
			for (j = 0; j < nf && strcmp(f[j].name, name) != 0; j++)
				;
			if (j == nf) {
				f = kf_xrealloc(f, (nf + 1) * sizeof(*f));
				f[nf++] = (struct fn_hitm){ name, 0 };
			} else {
				free(name);
			}
			f[j].hitm += (double)h->hitm;
		}
	if (nf)
		qsort(f, nf, sizeof(*f), by_fn_hitm);
	for (size_t j = 0; j < nf; j++) {
		if (j < MAX_FUNCS)
			json_array_append_new(a, json_pack("{s:s, s:f}", "name", f[j].name,
							   "hitm", f[j].hitm / (double)nruns));
		free(f[j].name);
	}
	free(f);
	*nall = nf;
	return a;
}

/* The lines with HITMs in any run, by median HITMs, the first TOP_LINES
 * of each line size. */
static json_t *lines_json(void)
{
	struct key *k = NULL;
	size_t nk = 0;
	json_t *a = json_array();
	int kept[KF_C2C_NSIZES] = { 0 };

	for (size_t r = 0; r < nruns; r++)
		for (size_t i = 0; i < runs[r].raw.nlines; i++) {
			const struct kf_c2c_line *l = &runs[r].raw.lines[i];
			size_t j;

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
			v[r] = line_fig(r, k[j].size, k[j].addr, 0);
		k[j].hitm = kf_c2c_median(v, nruns);
	}
	if (nk)
		qsort(k, nk, sizeof(*k), by_hitm);
	for (size_t j = 0; j < nk; j++) {
		int s = k[j].size == 64 ? 0 : 1;
		double v[4][MAX_RUNS] = { { 0 } };
		char addr[32], pc[32];

		if (kept[s]++ >= TOP_LINES)
			continue;
		for (int w = 0; w < 4; w++)
			for (size_t r = 0; r < nruns; r++)
				v[w][r] = line_fig(r, k[j].size, k[j].addr, w);
		snprintf(addr, sizeof(addr), "0x%" PRIx64, k[j].addr);
		snprintf(pc, sizeof(pc), "0x%" PRIx64, k[j].pc);
		struct objs o;
		const struct kf_sym *fn = have_syms ? kf_syms_func(&syms, k[j].pc) : NULL;
		json_t *names = json_array();

		size_t nfuncs;
		json_t *funcs = functions_json(k[j].size, k[j].addr, &nfuncs);

		objects(k[j].addr, k[j].size, &o);
		for (size_t i = 0; i < o.n && i < MAX_OBJS; i++)
			json_array_append_new(names, json_string(o.v[i]->name));
		json_array_append_new(a, json_pack("{s:i, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:i, s:o, s:o, s:o, s:i}",
			"size", (int)k[j].size, "addr", addr, "pc", pc,
			"hitm", figure(v[0]), "hitm_false", figure(v[1]),
			"invalidations", figure(v[2]), "accesses", figure(v[3]),
			"objects", names, "nobjects", (int)o.n,
			"percpu_cpu", o.cpu >= 0 ? json_integer(o.cpu) : json_null(),
			"function", fn ? json_string(fn->name) : json_null(),
			"functions", funcs, "nfunctions", (int)nfuncs));
	}
	free(k);
	return a;
}

static json_t *insns_json(void)
{
	json_t *per_cpu = json_array();
	int ncpu = runs[0].raw.vcpus;

	for (int c = 0; c < ncpu; c++)
		json_array_append_new(per_cpu, json_pack("{s:o, s:o}",
			"kernel", RAWFIG(r->win_kernel[c]), "user", RAWFIG(r->win_user[c])));
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
		printf("  C2C     %s %s on %s: HITM/iter 64B %.4g (false %.4g), 128B %.4g "
		       "(false %.4g, on lines of 2+ objects %.4g, spread %.0f%%); "
		       "insns/iter kernel %.0f user %.1f\n",
		       c.h.flavour ? c.h.flavour : "?", c.workload ? c.workload : "?",
		       c.cpu ? c.cpu : "?", c.size64.hitm.per_iteration,
		       c.size64.hitm_false.per_iteration, c.size128.hitm.per_iteration,
		       c.size128.hitm_false.per_iteration, c.size128.hitm_multi_object.per_iteration,
		       100 * c.size128.hitm.spread, c.insns_kernel.per_iteration,
		       c.insns_user.per_iteration);
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
		    !same_str(runs[i].boot.cpu_string, runs[0].boot.cpu_string) ||
		    !same_str(qemu_opt(&runs[i].boot, "-m"), qemu_opt(&runs[0].boot, "-m")) ||
		    !same_str(qemu_opt(&runs[i].boot, "-smp"), qemu_opt(&runs[0].boot, "-smp")))
			kf_die(2, "%s: another machine or count= than %s; run make c2c again",
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
