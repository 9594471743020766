// SPDX-License-Identifier: GPL-2.0
/* kbuild.c - parsing Kbuild output, .cmd files and ccache stats logs. */
#include "kbuild.h"
#include "../lib/dotconfig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int kb_cmd_torn(const char *text, size_t len)
{
	/* a cut inside a line, or right after a line that goes on */
	return !len || text[len - 1] != '\n' || (len >= 2 && text[len - 2] == '\\');
}

int kb_parse_line(const char *line, char *verb, size_t vlen,
		  const char **target)
{
	const char *p = line, *v;
	size_t len;

	if (p[0] != ' ' || p[1] != ' ')
		return 0;
	p += 2;
	v = p;
	while (isupper((unsigned char)*p) || isdigit((unsigned char)*p) ||
	       *p == '_' || *p == '-')
		p++;
	len = (size_t)(p - v);
	/* at least one letter, and a verb is upper case from its start */
	if (len == 0 || !isupper((unsigned char)*v))
		return 0;
	if (*p != ' ' && *p != '\t')
		return 0;
	/* module tag: "CC [M]  x.o" */
	p += strspn(p, " \t");
	if (strncmp(p, "[M]", 3) == 0)
		p += 3 + strspn(p + 3, " \t");
	if (*p == '\0' || *p == '\n')
		return 0;
	if (vlen) {
		if (len >= vlen)
			len = vlen - 1;
		memcpy(verb, v, len);
		verb[len] = '\0';
	}
	if (target)
		*target = p;
	return 1;
}

int kb_is_object_line(const char *line)
{
	char verb[16];
	const char *t, *end;

	if (!kb_parse_line(line, verb, sizeof(verb), &t))
		return 0;
	if (strcmp(verb, "CC") != 0 && strcmp(verb, "AS") != 0)
		return 0;
	/*
	 * Not kernel objects: objtool's (a host tool, built with absolute
	 * paths) and link-vmlinux.sh's .tmp_vmlinux.kallsyms*.o, which have
	 * no .cmd file.
	 */
	if (t[0] == '/' || t[0] == '.')
		return 0;
	end = t + strcspn(t, " \t\r\n");
	return end - t > 2 && end[-2] == '.' && end[-1] == 'o';
}

int kb_is_warning_line(const char *line)
{
	return strstr(line, "warning:") != NULL;
}

int kb_is_error_line(const char *line)
{
	return strstr(line, "error:") != NULL || strstr(line, "***") != NULL ||
	       strstr(line, "undefined reference") != NULL;
}

/* The first line of text starting with "cmd_" or "savedcmd_", with its length. */
static const char *cmd_line(const char *text, size_t *len)
{
	const char *p = text;

	while (p && *p) {
		size_t l = strcspn(p, "\n");

		if (strncmp(p, "cmd_", 4) == 0 || strncmp(p, "savedcmd_", 9) == 0) {
			*len = l;
			return p;
		}
		p = p[l] ? p + l + 1 : NULL;
	}
	return NULL;
}

int kb_cmd_flag(const char *cmd_text, const char *flag, char *out, size_t n)
{
	size_t len, flen = strlen(flag);
	const char *line = cmd_line(cmd_text, &len), *p, *end, *found = NULL;
	size_t found_len = 0;

	if (!line || n == 0)
		return 0;
	end = line + len;
	for (p = line; p < end;) {
		const char *w;
		size_t wl;

		/* the line ends at end, a '\n' or '\0': neither span passes it */
		w = p + strspn(p, " \t");
		wl = strcspn(w, " \t\n");
		p = w + wl;
		/* "-march=VALUE": the last one wins, as for gcc */
		if (wl > flen + 2 && w[0] == '-' &&
		    strncmp(w + 1, flag, flen) == 0 && w[flen + 1] == '=') {
			found = w + flen + 2;
			found_len = wl - flen - 2;
		}
	}
	if (!found)
		return 0;
	/* a quoted word ('-march=k8') keeps no quotes */
	while (found_len && (found[found_len - 1] == '\'' || found[found_len - 1] == '"'))
		found_len--;
	if (found_len >= n)
		found_len = n - 1;
	memcpy(out, found, found_len);
	out[found_len] = '\0';
	return found_len > 0;
}

void kb_ccache_count(const char *log_text, struct kb_ccache *c)
{
	const char *p = log_text ? log_text : "";
	int counted = 1;

	c->hits = 0;
	c->misses = 0;
	while (*p) {
		size_t l = strcspn(p, "\r\n");

		/*
		 * "# FILE" starts one compiler call, then one counter per line.
		 * A hit is a direct or preprocessed hit; "cache_miss" is a real
		 * compile. Calls on /dev/null (or no file) are Kbuild's
		 * cc-option probes, made on every run: not the build's compiles.
		 */
		if (l >= 1 && p[0] == '#') {
			const char *f = p + 1 + strspn(p + 1, " \t");
			size_t fl = l - (size_t)(f - p);

			counted = !(fl == 0 || (fl == 9 && strncmp(f, "/dev/null", 9) == 0));
		} else if (counted) {
			if ((l == 16 && strncmp(p, "direct_cache_hit", 16) == 0) ||
			    (l == 22 && strncmp(p, "preprocessed_cache_hit", 22) == 0))
				c->hits++;
			else if (l == 10 && strncmp(p, "cache_miss", 10) == 0)
				c->misses++;
		}
		p += l + strspn(p + l, "\r\n");
	}
}

int kb_parse_trailer(const char *text, struct kb_times *t)
{
	const char *p = text, *last = NULL;
	size_t tl = strlen(KB_TRAILER);

	while (p && *p) {
		if (strncmp(p, KB_TRAILER, tl) == 0)
			last = p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!last)
		return 0;
	return sscanf(last, KB_TRAILER "%lf cpu_seconds=%lf exit=%d",
		      &t->wall, &t->cpu, &t->exit_status) == 3;
}

/*
 * objects ~ FIXED + PER_100Y * (=y settings) / 100 [+ PER_100M * (=m settings) / 100],
 * fitted on cold 6.1 builds: a tiny flavour (547 =y, about 1,000 objects),
 * debian-cloud-mpsc (1,585 =y: 2,275 objects; with its 1,119 =m built too,
 * 6,009: a module is about three objects and its .mod.o).
 */
#define OBJS_FIXED 330
#define OBJS_PER_100Y 123
#define OBJS_PER_100M 333

long kb_estimate_objects(const struct kf_config *config, int modules)
{
	long y = 0, m = 0;

	for (size_t i = 0; i < config->n; i++) {
		y += !strcmp(config->sym[i].value, "y");
		m += modules && !strcmp(config->sym[i].value, "m");
	}
	if (!y && !m)
		return 0;
	return OBJS_FIXED + y * OBJS_PER_100Y / 100 + m * OBJS_PER_100M / 100;
}

void kb_progress_line(char *buf, size_t n, const char *name, const char *stage,
		      long done, long expected, int estimated, long seconds)
{
	if (!stage || !*stage)
		snprintf(buf, n, "  BUILD   %s: starting, %ld s", name, seconds);
	else
		snprintf(buf, n, "  BUILD   %s: %s %ld/%s%ld objects, %ld s", name,
			 stage, done, estimated ? "~" : "", expected, seconds);
}

/*
 * The host a line names, as build.json keys it: "host:port". A completed
 * compile names the DISTCC_HOSTS entry ("192.0.2.130:3632/1,lzo"), a backoff
 * mark its lock file ("backoff_tcp_192.0.2.130_3632_0"): both become
 * "192.0.2.130:3632" (distcc's port 3632 when the entry names none).
 */
static struct kb_distcc_host *distcc_host(struct kb_distcc *d, const char *name, size_t l)
{
	char key[sizeof(d->hosts[0].name)];
	size_t i, hl = strcspn(name, "/,");

	if (hl > l)
		hl = l;
	if (memchr(name, ':', hl))
		snprintf(key, sizeof(key), "%.*s", (int)hl, name);
	else
		snprintf(key, sizeof(key), "%.*s:3632", (int)hl, name);
	for (i = 0; i < d->n_hosts; i++)
		if (strcmp(d->hosts[i].name, key) == 0)
			return &d->hosts[i];
	if (d->n_hosts == KB_DISTCC_MAX_HOSTS)
		return NULL;
	memcpy(d->hosts[i].name, key, sizeof(key));
	d->n_hosts++;
	return &d->hosts[i];
}

/* A C source distcc could have sent: ".c" or ".i" (the compiles Kbuild makes). */
static int distcc_c_source(const char *f, size_t l)
{
	return l > 2 && f[l - 2] == '.' && (f[l - 1] == 'c' || f[l - 1] == 'i');
}

/* The last occurrence of word (" on ", " to ") in [from, to), or NULL. */
static const char *last_word(const char *from, const char *to, const char *word)
{
	const char *r = NULL;
	size_t wl = strlen(word);

	for (const char *h = from; h + wl <= to; h++)
		if (strncmp(h, word, wl) == 0)
			r = h;
	return r;
}

static int ends_with(const char *s, const char *end, const char *suffix)
{
	size_t l = strlen(suffix);

	return (size_t)(end - s) > l && strncmp(end - l, suffix, l) == 0;
}

/* "...backoff_tcp_HOST_PORT_SLOT" at the end of [m, end): HOST's failed++. */
static void distcc_backoff(struct kb_distcc *d, const char *m, const char *end)
{
	const char *b = last_word(m, end, "backoff_tcp_"), *port, *slot;
	char name[sizeof(d->hosts[0].name)];
	struct kb_distcc_host *x;

	if (!b)
		return;
	b += strlen("backoff_tcp_");
	slot = end;
	while (slot > b && slot[-1] != '_')
		slot--;
	port = slot > b ? slot - 1 : b;
	while (port > b && port[-1] != '_')
		port--;
	if (port <= b || slot - 1 <= port)
		return;
	snprintf(name, sizeof(name), "%.*s:%.*s", (int)(port - 1 - b), b,
		 (int)(slot - 1 - port), port);
	x = distcc_host(d, name, strlen(name));
	if (x)
		x->failed++;
}

void kb_distcc_count(const char *log_text, struct kb_distcc *d)
{
	static const char ok[] = " completed ok", fail[] = "Warning: failed to distribute ",
		retry[] = "Warning: remote compilation of '", mark[] = "(dcc_mark_timefile) mark ";
	const char *p = log_text ? log_text : "";

	memset(d, 0, sizeof(*d));
	while (*p) {
		size_t l = strcspn(p, "\r\n");
		const char *m = NULL, *end = p + l;

		/* "distcc[PID] message"; a "(function)" tag marks debug lines */
		if (strncmp(p, "distcc[", 7) == 0) {
			m = memchr(p, ']', l);
			m = m && m + 2 < end && m[1] == ' ' ? m + 2 : NULL;
		}
		if (m && strncmp(m, "compile ", 8) == 0 && ends_with(m, end, ok)) {
			const char *hend = end - strlen(ok);
			/* the last " on ": file names in Kbuild have no blanks */
			const char *on = last_word(m + 8, hend, " on ");

			if (on && hend - (on + 4) == 9 && strncmp(on + 4, "localhost", 9) == 0) {
				if (distcc_c_source(m + 8, (size_t)(on - (m + 8))))
					d->local++;
			} else if (on && hend > on + 4) {
				struct kb_distcc_host *x = distcc_host(d, on + 4, (size_t)(hend - on - 4));

				d->remote++;
				if (x)
					x->compiled++;
			}
		} else if (m && (strncmp(m, fail, sizeof(fail) - 1) == 0 ||
				 strncmp(m, retry, sizeof(retry) - 1) == 0)) {
			d->fell_back++;
		} else if (m && strncmp(m, mark, sizeof(mark) - 1) == 0) {
			distcc_backoff(d, m, end);
		}
		p += l + strspn(p + l, "\r\n");
	}
}
