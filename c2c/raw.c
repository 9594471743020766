// SPDX-License-Identifier: GPL-2.0
/*
 * raw.c - read the plugin's raw output; median and spread (raw.h).
 */
#include "raw.h"
#include "../lib/c2c.h"
#include "../lib/kf.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad(char *err, size_t size, int lineno, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int bad(char *err, size_t size, int lineno, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, size, "line %d: ", lineno);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < size)
		vsnprintf(err + n, size - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* The figures of a "size" or "line" line: "key value" pairs after its
 * head, every key of the table once and no other. */
struct kv {
	const char *key;
	uint64_t *v;
};

static int read_kv(const char *p, const struct kv *tab, size_t n, int no, char *err, size_t es)
{
	unsigned long seen = 0;
	char key[32];
	uint64_t v;
	int len;

	while (*p == ' ') {
		size_t k;

		if (sscanf(p, " %31[a-z0-9_] %" SCNu64 "%n", key, &v, &len) != 2)
			return bad(err, es, no, "cannot read '%s'", p);
		for (k = 0; k < n && strcmp(tab[k].key, key) != 0; k++)
			;
		if (k == n || (seen >> k & 1))
			return bad(err, es, no, "%s '%s'", k == n ? "unknown figure" : "twice:", key);
		*tab[k].v = v;
		seen |= 1ul << k;
		p += len;
	}
	if (*p)
		return bad(err, es, no, "cannot read '%s'", p);
	for (size_t k = 0; k < n; k++)
		if (!(seen >> k & 1))
			return bad(err, es, no, "no '%s' figure", tab[k].key);
	return 0;
}

#define FIGS_KV(f) { "loads", &(f).loads }, { "load_miss", &(f).load_miss }, \
	{ "load_hitm", &(f).load_hitm }, { "load_hitm_false", &(f).load_hitm_false }, \
	{ "stores", &(f).stores }, { "store_miss", &(f).store_miss }, \
	{ "store_hitm", &(f).store_hitm }, { "store_hitm_false", &(f).store_hitm_false }, \
	{ "inval", &(f).inval }, { "rmw", &(f).rmw }
#define NFIGS 10

static void *append(void *a, size_t *n, size_t size)
{
	a = kf_xrealloc(a, (*n + 1) * size);
	memset((char *)a + *n * size, 0, size);
	(*n)++;
	return a;
}

static int parse_line(struct kf_c2c_raw *r, const char *l, int no, char *err, size_t es)
{
	int n = -1, c;
	unsigned u;

	if (!strcmp(l, "count kernel") || !strcmp(l, "count user")) {
		r->count_kernel = !strcmp(l, "count kernel");
	} else if (!strcmp(l, "tcg single") || !strcmp(l, "tcg multi")) {
		r->tcg_multi = !strcmp(l, "tcg multi");
	} else if (sscanf(l, "vcpus %d%n", &r->vcpus, &n) == 1 && !l[n]) {
		if (r->vcpus < 1 || r->vcpus > KF_C2C_MAXCPUS)
			return bad(err, es, no, "%d vCPUs, want 1 to %d", r->vcpus, KF_C2C_MAXCPUS);
	} else if (!strncmp(l, "hitpc ", 6)) {
		struct kf_c2c_hitpc x = { 0 };

		if (sscanf(l, "hitpc %u 0x%" SCNx64 " 0x%" SCNx64 " %" SCNu64 "%n", &x.size, &x.addr,
			   &x.pc, &x.hitm, &n) != 4 || l[n] || (x.size != 64 && x.size != 128))
			return bad(err, es, no, "cannot read '%s'", l);
		r->hitpcs = append(r->hitpcs, &r->nhitpcs, sizeof(x));
		r->hitpcs[r->nhitpcs - 1] = x;
	} else if (!strncmp(l, "sides ", 6)) {
		struct kf_c2c_sides x = { 0 };

		if (sscanf(l, "sides 0x%" SCNx64 " 0x%" SCNx64 " 0x%" SCNx64 " %" SCNu64 "%n",
			   &x.addr, &x.pc, &x.pc2, &x.n, &n) != 4 || l[n])
			return bad(err, es, no, "cannot read '%s'", l);
		r->sides = append(r->sides, &r->nsides, sizeof(x));
		r->sides[r->nsides - 1] = x;
	} else if ((sscanf(l, "window %u %u%n", &r->opens, &r->closes, &n) == 2 && !l[n]) ||
		   (sscanf(l, "hitpc_dropped %" SCNu64 "%n", &r->hitpc_dropped, &n) == 1 && !l[n]) ||
		   (sscanf(l, "insns %" SCNu64 "%n", &r->insns, &n) == 1 && !l[n]) ||
		   (sscanf(l, "only128 load %" SCNu64 " store %" SCNu64 "%n", &r->only128[0],
			   &r->only128[1], &n) == 2 && !l[n]) ||
		   (sscanf(l, "only64 load %" SCNu64 " store %" SCNu64 "%n", &r->only64[0],
			   &r->only64[1], &n) == 2 && !l[n]) ||
		   (sscanf(l, "mem %" SCNu64 " io %" SCNu64 " high %" SCNu64 "%n",
			   &r->mem, &r->mem_io, &r->mem_high, &n) == 3 && !l[n])) {
		return 0;	/* read into r */
	} else if (sscanf(l, "vcpu %d%n", &c, &n) == 1) {
		if (c < 0 || c >= KF_C2C_MAXCPUS)
			return bad(err, es, no, "vCPU %d out of range", c);
		const struct kv tab[] = {
			{ "kernel", &r->kernel[c] }, { "user", &r->user[c] },
			{ "win_kernel", &r->win_kernel[c] }, { "win_user", &r->win_user[c] },
			{ "win_loads", &r->win_loads[c] }, { "win_stores", &r->win_stores[c] },
		};

		return read_kv(l + n, tab, sizeof(tab) / sizeof(tab[0]), no, err, es);
	} else if (sscanf(l, "size %u%n", &u, &n) == 1) {
		struct kf_c2c_size *s = u == 64 ? &r->size[0] : u == 128 ? &r->size[1] : NULL;

		if (!s)
			return bad(err, es, no, "line size %u, want 64 or 128", u);
		s->line = u;
		const struct kv tab[] = { FIGS_KV(s->f), { "lines", &s->lines } };

		return read_kv(l + n, tab, NFIGS + 1, no, err, es);
	} else if (!strncmp(l, "line ", 5)) {
		struct kf_c2c_line x = { 0 };
		const char *pc;
		int rc;

		if (sscanf(l, "line %u 0x%" SCNx64 "%n", &x.size, &x.addr, &n) != 2 ||
		    (x.size != 64 && x.size != 128) || !(pc = strstr(l, " pc 0x")) ||
		    sscanf(pc, " pc 0x%" SCNx64 "%n", &x.pc, &c) != 1 || pc[c])
			return bad(err, es, no, "cannot read '%s'", l);
		const struct kv tab[] = {
			FIGS_KV(x.f), { "only128_load", &x.only128[0] },
			{ "only128_store", &x.only128[1] }, { "only64_load", &x.only64[0] },
			{ "only64_store", &x.only64[1] },
		};
		char *figs = kf_xstrndup(l + n, (size_t)(pc - (l + n)));

		rc = read_kv(figs, tab, x.size == 128 ? NFIGS + 4 : NFIGS, no, err, es);
		free(figs);
		if (rc)
			return rc;
		r->lines = append(r->lines, &r->nlines, sizeof(x));
		r->lines[r->nlines - 1] = x;
	} else {
		return bad(err, es, no, "unknown line '%s'", l);
	}
	return 0;
}

int kf_c2c_raw_parse(struct kf_c2c_raw *r, const char *text, char *err, size_t es)
{
	int no = 0, ended = 0;

	memset(r, 0, sizeof(*r));
	r->count_kernel = -1;
	r->tcg_multi = -1;
	for (const char *p = text; *p; ) {
		size_t len = strcspn(p, "\n");
		char *l = kf_xstrndup(p, len);
		int rc = 0;

		no++;
		if (ended)
			rc = bad(err, es, no, "text after 'end'");
		else if (no == 1 && strcmp(l, KF_C2C_RAW_MAGIC) != 0)
			rc = bad(err, es, no, "'%s', want '%s' (not the c2c plugin's output, or "
				 "of another version)", l, KF_C2C_RAW_MAGIC);
		else if (!strcmp(l, "end"))
			ended = 1;
		else if (no > 1)
			rc = parse_line(r, l, no, err, es);
		free(l);
		if (rc)
			return rc;
		p += len + (p[len] == '\n');
	}
	if (!no)
		return bad(err, es, 1, "empty; the plugin wrote nothing");
	if (!ended)
		return bad(err, es, no, "no 'end' line: the plugin's output was cut off");
	if (r->count_kernel < 0 || r->tcg_multi < 0 || !r->vcpus || !r->size[0].line ||
	    !r->size[1].line)
		return bad(err, es, no, "incomplete: no count, tcg, vcpus or size line");
	return 0;
}

void kf_c2c_raw_free(struct kf_c2c_raw *r)
{
	free(r->lines);
	r->lines = NULL;
	r->nlines = 0;
	free(r->hitpcs);
	r->hitpcs = NULL;
	r->nhitpcs = 0;
	free(r->sides);
	r->sides = NULL;
	r->nsides = 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double kf_c2c_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double kf_c2c_spread(const double *v, size_t n, double median)
{
	double lo, hi;

	if (!n || median == 0)
		return 0;
	lo = hi = v[0];
	for (size_t i = 1; i < n; i++) {
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	return (hi - lo) / median;
}
