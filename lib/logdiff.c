// SPDX-License-Identifier: GPL-2.0
/*
 * logdiff.c - compare two boot consoles after hiding what differs on every
 * boot: printk timestamps, addresses, calibration values (TSC MHz, BogoMIPS,
 * lpj), memory sizes, the memory map and the per-boot nonce. What is left is
 * what the flavour or the CPU model changed: CPU lines, idle routine,
 * SWIOTLB, SLUB's HWalign, the probe's facts. Then an LCS line diff.
 */
#include "logdiff.h"
#include "console.h"
#include "conline.h"
#include "kf.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Lines dropped whole: the memory map and what only timing decides. */
static const char *const drop_prefix[] = {
	"BIOS-e820:", "e820:", "BIOS-provided physical RAM map",
	"user-defined physical RAM map", "extended physical RAM map",
	"reserve setup_data", "last_pfn", "Zone ranges:", "  DMA ", "  DMA32 ",
	"  Normal ", "  Device ", "Movable zone start", "Early memory node ranges",
	"  node ", "Initmem setup node", "On node ", "NODE_DATA", "Faking a node",
	"found SMP MP-table at", "check: Scanning", "check: Reserving",
	"x86/PAT:", "MTRR map", "MTRR default", "MTRRs", "e820 ",
	"PM: hibernation: Registered nosave memory", "sched_clock: Marking stable",
	"Zone DMA", "Built 1 zonelists", "tsc: Marking TSC unstable due to clocksource watchdog",
	"software IO TLB: area num",
	/* TCG timing: TSC and APIC calibration, the IO-APIC timer check. */
	"APIC calibration not consistent", "APIC delta adjusted",
	"tsc: Fast TSC calibration", "tsc: Unable to calibrate", "tsc: using ",
	"..MP-BIOS bug: 8254 timer", "...trying to set up timer", "..... (found",
	"....... works", "....... failed",
	/* Asynchronous: where they land in the log is a race. */
	"Trying to unpack rootfs", "Unpacking initramfs", "Freeing initrd memory",
	"input: AT Translated Set 2 keyboard", "random: crng init done",
	/* The runner's notes that name the flavour, the kernel path or the nonce;
	 * the record has them, and the verdict is in the matrix. */
	"! boot-runner:", "! command:", "! nonce ",
	/* "[mem 0x...-0x...] available for PCI devices" and friends. */
	"[mem 0x",
};

/* Lines dropped when they contain one of these (clocksource watchdog noise). */
static const char *const drop_substr[] = {
	"clocksource watchdog", "skew is too large", "cs_nsec:", "wd_nsec:",
	"Marking clocksource", "timekeeping watchdog",
};

/* Lines whose every number is a measurement or a memory size. */
static const char *const all_numbers[] = {
	"hash table entries", "Total pages", "Calibrating delay", "tsc:",
	"max_idle_ns", "workingset:", "Memory:", "Freeing ", "lpj=",
	"clocksource:", "hpet", "Mem-Info", "pages reserved", "pages in range",
	"kmemleak", "DMA: preallocated", "DMA32 pool", "DMA pool", "! verdict ",
};

/* Units after a number that make it a measurement or a size. */
static const char *const units[] = {
	"MHz", "kHz", "BogoMIPS", "ns", "us", "ms", "KiB", "MiB", "GiB",
	"KB", "kB", "MB", "GB", "TB", "K", "M", "G", "k", "bytes",
};

/* KF_FACT_PREFIX "key=value" facts whose value is a time or a memory size. */
static const char *const kf_noisy_keys[] = {
	"seconds", "uptime", "time", "mem", "nonce", "bogomips", "mhz",
};

static int starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static int is_word(int c)
{
	return isalnum(c) || c == '_';
}


/* A console line cleaned (lib/conline.c), a runner note as "! note", no
 * trailing blanks. */
static char *clean(int note, const char *line)
{
	char *s = kf_con_clean(line, 0);
	size_t len;

	if (note) {
		char *n = kf_xasprintf("! %s", s);

		free(s);
		s = n;
	}
	len = strlen(s);
	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	return s;
}

static int any_of(const char *s, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(s, v[i]))
			return 1;
	return 0;
}

static int dropped(const char *s)
{
	for (size_t i = 0; i < sizeof(drop_prefix) / sizeof(*drop_prefix); i++)
		if (starts(s, drop_prefix[i]))
			return 1;
	return any_of(s, drop_substr, sizeof(drop_substr) / sizeof(*drop_substr));
}

/* Length of a unit from units[] at p, ending at a word boundary, or 0. */
static size_t unit_at(const char *p)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++) {
		size_t n = strlen(units[i]);

		if (!strncmp(p, units[i], n) && !is_word((unsigned char)p[n]))
			return n;
	}
	return 0;
}

/* KF_FACT_PREFIX "key=value": is the key a time or memory size? */
static int kf_noisy(const char *s)
{
	const char *eq, *k = s + strlen(KF_FACT_PREFIX);
	char key[128];
	size_t n;

	if (!starts(s, KF_FACT_PREFIX))
		return 0;
	eq = strchr(k, '=');
	if (!eq)
		return 0;
	n = (size_t)(eq - k);
	if (n >= sizeof(key))
		n = sizeof(key) - 1;
	for (size_t i = 0; i < n; i++)
		key[i] = (char)tolower((unsigned char)k[i]);
	key[n] = '\0';
	for (size_t i = 0; i < sizeof(kf_noisy_keys) / sizeof(*kf_noisy_keys); i++)
		if (strstr(key, kf_noisy_keys[i]))
			return 1;
	return 0;
}

/* Replace the token after 'key' (up to white space) with 'with'. */
static void mask_after(char **sp, const char *key, const char *with)
{
	char *s = *sp, *k = strstr(s, key), *e, *n;

	if (!k)
		return;
	k += strlen(key);
	e = k;
	while (*e && !isspace((unsigned char)*e))
		e++;
	n = kf_xasprintf("%.*s%s%s", (int)(k - s), s, with, e);
	free(s);
	*sp = n;
}

/* Does one of the n characters at p pass is() (isdigit, isalpha)? */
static int has(const char *p, size_t n, int (*is)(int))
{
	for (size_t i = 0; i < n; i++)
		if (is((unsigned char)p[i]))
			return 1;
	return 0;
}

/* Addresses, hex words, measured numbers. */
static char *tokens(const char *s, int numbers)
{
	struct strbuf o = { 0 };
	const char *p = s;

	sb_addn(&o, "", 0);
	while (*p) {
		int boundary = p == s || !is_word((unsigned char)p[-1]);
		size_t h = 0, d = 0, frac = 0, u;
		int dots = 0;

		if (!boundary) {
			sb_addn(&o, p, 1);
			p++;
			continue;
		}
		/* 0x followed by 5+ hex digits: an address or a mask. */
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			while (isxdigit((unsigned char)p[2 + h]))
				h++;
			if (h >= 5 && !is_word((unsigned char)p[2 + h])) {
				sb_add(&o, "<addr>");
				p += 2 + h;
				continue;
			}
		}
		/* A bare hex word of 8+ digits: digits and letters a-f both. */
		h = 0;
		while (isxdigit((unsigned char)p[h]))
			h++;
		if (h >= 8 && !is_word((unsigned char)p[h]) && has(p, h, isdigit) &&
		    has(p, h, isalpha)) {
			sb_add(&o, "<hex>");
			p += h;
			continue;
		}
		if (!isdigit((unsigned char)*p)) {
			sb_addn(&o, p, 1);
			p++;
			continue;
		}
		/* A decimal number, maybe with a fraction; versions pass. */
		while (isdigit((unsigned char)p[d]))
			d++;
		while (p[d] == '.' && isdigit((unsigned char)p[d + 1])) {
			dots++;
			d++;
			frac = 0;
			while (isdigit((unsigned char)p[d])) {
				d++;
				frac++;
			}
		}
		/* "6.1.192", "80x25", "5th": not a measurement. */
		if (dots > 1 || (is_word((unsigned char)p[d]) && !unit_at(p + d) &&
				 !(p[d] == 's' && !is_word((unsigned char)p[d + 1])))) {
			sb_addn(&o, p, d);
			p += d;
			continue;
		}
		u = unit_at(p + d + (p[d] == ' '));
		if (numbers || u || (dots == 1 && frac >= 3) ||
		    (dots == 1 && p[d] == 's' && !is_word((unsigned char)p[d + 1]))) {
			sb_add(&o, "<n>");
			p += d;
			continue;
		}
		sb_addn(&o, p, d);
		p += d;
	}
	return o.s;
}

static char *normalise(int note, const char *line)
{
	char *s = clean(note, line), *t;

	if (!*s || dropped(s)) {
		free(s);
		return NULL;
	}
	/*
	 * The build banner: keep the release, not who built it and when, nor
	 * what SeaBIOS left before it on the line ("Booting from ROM...").
	 */
	t = strstr(s, "Linux version ");
	if (t) {
		size_t n = strcspn(t + 14, " ");

		t = kf_xasprintf("Linux version %.*s <build>", (int)n, t + 14);
		free(s);
		return t;
	}
	mask_after(&s, KF_NONCE_PARAM "=", "<nonce>");
	mask_after(&s, KF_END_MARKER, "<nonce>");
	mask_after(&s, KF_UPTIME, "<n>");
	/* Facts are compared as they are, but for times and memory sizes. */
	if (starts(s, KF_FACT_PREFIX) && !kf_noisy(s))
		return s;
	if (kf_noisy(s)) {
		char *eq = strchr(s, '=');

		eq[1] = '\0';
		t = kf_xasprintf("%s<n>", s);
		free(s);
		return t;
	}
	t = tokens(s, any_of(s, all_numbers, sizeof(all_numbers) / sizeof(*all_numbers)));
	free(s);
	return t;
}

char *ld_normalise(const char *raw)
{
	int note;
	size_t skip = kf_con_prefix(raw, &note);

	return normalise(note, raw + skip);
}

struct log_cap {
	struct ld_log *log;
	size_t cap;
};

static void log_line(size_t lineno, int note, const char *line, void *arg)
{
	struct log_cap *c = arg;
	struct ld_log *log = c->log;
	char *norm = normalise(note, line);

	if (!norm)
		return;
	if (log->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 256;
		log->line = kf_xrealloc(log->line, c->cap * sizeof(*log->line));
	}
	log->line[log->n].text = norm;
	log->line[log->n].lineno = (int)lineno;
	log->n++;
}

void ld_log_parse(struct ld_log *log, const char *text)
{
	struct log_cap c;

	log->line = NULL;
	log->n = 0;
	c.log = log;
	c.cap = 0;
	kf_con_lines(text, log_line, &c);
}

int ld_log_read(struct ld_log *log, const char *path)
{
	char *text = kf_read_file(path, NULL);

	if (!text)
		return -1;
	ld_log_parse(log, text);
	free(text);
	return 0;
}

void ld_log_free(struct ld_log *log)
{
	for (size_t i = 0; i < log->n; i++)
		free(log->line[i].text);
	free(log->line);
	log->line = NULL;
	log->n = 0;
}

/* ---- the diff ---------------------------------------------------------- */

/* Past this many LCS cells, the middle is shown as all removed, all added. */
#define LD_MAX_CELLS ((size_t)24 * 1024 * 1024)

struct op {
	enum ld_op op;
	size_t ia, ib;
};

static int same(const struct ld_log *a, size_t i, const struct ld_log *b, size_t j)
{
	return !strcmp(a->line[i].text, b->line[j].text);
}

/* Edit script of a[lo_a..hi_a) against b[lo_b..hi_b) by LCS. */
static void lcs(struct op *ops, size_t *nops, const struct ld_log *a,
		size_t lo_a, size_t hi_a, const struct ld_log *b, size_t lo_b,
		size_t hi_b)
{
	size_t n = hi_a - lo_a, m = hi_b - lo_b, i, j;
	uint32_t *t;

	if ((n + 1) * (m + 1) > LD_MAX_CELLS) {
		for (i = lo_a; i < hi_a; i++)
			ops[(*nops)++] = (struct op){ LD_DEL, i, 0 };
		for (j = lo_b; j < hi_b; j++)
			ops[(*nops)++] = (struct op){ LD_ADD, 0, j };
		return;
	}
	/* t[i][j]: LCS length of a[i..n) and b[j..m). */
	t = kf_xmalloc((n + 1) * (m + 1) * sizeof(*t));
#define T(i, j) t[(i) * (m + 1) + (j)]
	for (i = n + 1; i-- > 0;)
		for (j = m + 1; j-- > 0;) {
			if (i == n || j == m)
				T(i, j) = 0;
			else if (same(a, lo_a + i, b, lo_b + j))
				T(i, j) = T(i + 1, j + 1) + 1;
			else
				T(i, j) = T(i + 1, j) >= T(i, j + 1) ? T(i + 1, j) : T(i, j + 1);
		}
	i = j = 0;
	while (i < n || j < m) {
		if (i < n && j < m && same(a, lo_a + i, b, lo_b + j)) {
			ops[(*nops)++] = (struct op){ LD_SAME, lo_a + i, lo_b + j };
			i++;
			j++;
		} else if (j == m || (i < n && T(i + 1, j) >= T(i, j + 1))) {
			ops[(*nops)++] = (struct op){ LD_DEL, lo_a + i, 0 };
			i++;
		} else {
			ops[(*nops)++] = (struct op){ LD_ADD, 0, lo_b + j };
			j++;
		}
	}
#undef T
	free(t);
}

static void emit(struct ld_diff *d, size_t *cap, struct ld_edit e)
{
	if (d->n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		d->e = kf_xrealloc(d->e, *cap * sizeof(*d->e));
	}
	d->e[d->n++] = e;
}

void ld_diff(struct ld_diff *d, const struct ld_log *a, const struct ld_log *b,
	     int context)
{
	size_t pre = 0, suf = 0, nops = 0, cap = 0, k;
	struct op *ops = kf_xmalloc((a->n + b->n + 1) * sizeof(*ops));
	char *keep;

	memset(d, 0, sizeof(*d));
	while (pre < a->n && pre < b->n && same(a, pre, b, pre)) {
		ops[nops++] = (struct op){ LD_SAME, pre, pre };
		pre++;
	}
	while (suf < a->n - pre && suf < b->n - pre &&
	       same(a, a->n - 1 - suf, b, b->n - 1 - suf))
		suf++;
	lcs(ops, &nops, a, pre, a->n - suf, b, pre, b->n - suf);
	for (k = 0; k < suf; k++)
		ops[nops++] = (struct op){ LD_SAME, a->n - suf + k, b->n - suf + k };

	/* Which operations to show: changes, and 'context' lines around them. */
	keep = kf_xmalloc(nops + 1);
	memset(keep, context < 0, nops + 1);
	for (k = 0; k < nops; k++) {
		if (ops[k].op == LD_SAME)
			continue;
		if (ops[k].op == LD_ADD)
			d->added++;
		else
			d->removed++;
		if (context < 0)
			continue;
		size_t lo = k > (size_t)context ? k - (size_t)context : 0;
		size_t hi = k + (size_t)context < nops ? k + (size_t)context : nops - 1;

		for (size_t x = lo; x <= hi; x++)
			keep[x] = 1;
	}
	for (k = 0; k < nops; k++) {
		const struct op *o = &ops[k];
		struct ld_edit e = { 0 };

		if (!keep[k])
			continue;
		if (k == 0 || !keep[k - 1]) {
			/* A hunk header with the raw line numbers it starts at. */
			size_t x = k;
			int la = 0, lb = 0;

			for (; x < nops && keep[x] && !(la && lb); x++) {
				if (!la && ops[x].op != LD_ADD)
					la = a->line[ops[x].ia].lineno;
				if (!lb && ops[x].op != LD_DEL)
					lb = b->line[ops[x].ib].lineno;
			}
			d->headers = kf_xrealloc(d->headers,
						 (d->nheaders + 1) * sizeof(*d->headers));
			d->headers[d->nheaders] = kf_xasprintf("@@ line %d / line %d @@", la, lb);
			e.op = LD_HUNK;
			e.text = d->headers[d->nheaders++];
			e.a_line = la;
			e.b_line = lb;
			emit(d, &cap, e);
		}
		e.op = o->op;
		if (o->op == LD_ADD) {
			e.text = b->line[o->ib].text;
			e.b_line = b->line[o->ib].lineno;
		} else {
			e.text = a->line[o->ia].text;
			e.a_line = a->line[o->ia].lineno;
			if (o->op == LD_SAME)
				e.b_line = b->line[o->ib].lineno;
		}
		emit(d, &cap, e);
	}
	free(keep);
	free(ops);
}

void ld_diff_free(struct ld_diff *d)
{
	for (size_t i = 0; i < d->nheaders; i++)
		free(d->headers[i]);
	free(d->headers);
	free(d->e);
	memset(d, 0, sizeof(*d));
}

void ld_diff_print(FILE *f, const struct ld_diff *d, const char *la,
		   const char *lb)
{
	fprintf(f, "--- %s\n+++ %s\n", la, lb);
	for (size_t i = 0; i < d->n; i++) {
		if (d->e[i].op == LD_HUNK)
			fprintf(f, "%s\n", d->e[i].text);
		else
			fprintf(f, "%c%s\n", d->e[i].op, d->e[i].text);
	}
	fprintf(f, "# %zu line(s) removed, %zu added after normalisation\n",
		d->removed, d->added);
}
