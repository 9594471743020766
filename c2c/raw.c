// SPDX-License-Identifier: GPL-2.0
/*
 * raw.c - read the plugin's raw output; median and spread (raw.h).
 */
#include "raw.h"
#include "c2c.h"
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

/* The five figures of a "size" or "line" line, after its address part. */
#define FIGS " accesses %" SCNu64 " stores %" SCNu64 " hitm %" SCNu64 \
	" hitm_false %" SCNu64 " inval %" SCNu64 "%n"

static int parse_line(struct kf_c2c_raw *r, const char *l, int no, char *err, size_t es)
{
	int n = -1, c;
	unsigned u;

	if (!strcmp(l, "count kernel") || !strcmp(l, "count user")) {
		r->count_kernel = !strcmp(l, "count kernel");
	} else if (sscanf(l, "vcpus %d%n", &r->vcpus, &n) == 1 && !l[n]) {
		if (r->vcpus < 1 || r->vcpus > KF_C2C_MAXCPUS)
			return bad(err, es, no, "%d vCPUs, want 1 to %d", r->vcpus, KF_C2C_MAXCPUS);
	} else if (!strncmp(l, "hitpc ", 6)) {
		struct kf_c2c_hitpc x = { 0 };

		if (sscanf(l, "hitpc %u 0x%" SCNx64 " 0x%" SCNx64 " %" SCNu64 "%n", &x.size, &x.addr,
			   &x.pc, &x.hitm, &n) != 4 || l[n] || (x.size != 64 && x.size != 128))
			return bad(err, es, no, "cannot read '%s'", l);
		r->hitpcs = kf_xrealloc(r->hitpcs, (r->nhitpcs + 1) * sizeof(*r->hitpcs));
		r->hitpcs[r->nhitpcs++] = x;
	} else if ((sscanf(l, "window %u %u%n", &r->opens, &r->closes, &n) == 2 && !l[n]) ||
		   (sscanf(l, "hitpc_dropped %" SCNu64 "%n", &r->hitpc_dropped, &n) == 1 && !l[n]) ||
		   (sscanf(l, "insns %" SCNu64 "%n", &r->insns, &n) == 1 && !l[n]) ||
		   (sscanf(l, "mem %" SCNu64 " io %" SCNu64 " high %" SCNu64 "%n",
			   &r->mem, &r->mem_io, &r->mem_high, &n) == 3 && !l[n])) {
		return 0;	/* read into r */
	} else if (sscanf(l, "vcpu %d%n", &c, &n) == 1) {
		if (c < 0 || c >= KF_C2C_MAXCPUS)
			return bad(err, es, no, "vCPU %d out of range", c);
		n = -1;
		if (sscanf(l, "vcpu %*d kernel %" SCNu64 " user %" SCNu64 " win_kernel %" SCNu64
			   " win_user %" SCNu64 "%n", &r->kernel[c], &r->user[c],
			   &r->win_kernel[c], &r->win_user[c], &n) != 4 || n < 0 || l[n])
			return bad(err, es, no, "cannot read '%s'", l);
	} else if (sscanf(l, "size %u%n", &u, &n) == 1) {
		struct kf_c2c_size *s = u == 64 ? &r->size[0] : u == 128 ? &r->size[1] : NULL;

		if (!s)
			return bad(err, es, no, "line size %u, want 64 or 128", u);
		s->line = u;
		n = -1;
		if (sscanf(l, "size %*u" FIGS, &s->accesses, &s->stores, &s->hitm,
			   &s->hitm_false, &s->inval, &n) != 5 || n < 0 || l[n])
			return bad(err, es, no, "cannot read '%s'", l);
	} else if (!strncmp(l, "line ", 5)) {
		struct kf_c2c_line x = { 0 };

		if (sscanf(l, "line %u 0x%" SCNx64 FIGS " pc 0x%" SCNx64 "%n", &x.size, &x.addr,
			   &x.accesses, &x.stores, &x.hitm, &x.hitm_false, &x.inval, &n,
			   &x.pc, &c) != 8 || l[c] || (x.size != 64 && x.size != 128))
			return bad(err, es, no, "cannot read '%s'", l);
		r->lines = kf_xrealloc(r->lines, (r->nlines + 1) * sizeof(*r->lines));
		r->lines[r->nlines++] = x;
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
	if (r->count_kernel < 0 || !r->vcpus || !r->size[0].line || !r->size[1].line)
		return bad(err, es, no, "incomplete: no count, vcpus or size line");
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
