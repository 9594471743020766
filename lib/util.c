// SPDX-License-Identifier: GPL-2.0
/* util.c - errors, allocation, files, directories and the clock. */
#include "kf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <ctype.h>

const char *kf_prog = "kflavour";

static void vmsg(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", kf_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void kf_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(status);
}

void kf_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void *kf_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		kf_die(1, "out of memory");
	return p;
}

void *kf_xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		kf_die(1, "out of memory");
	return p;
}

char *kf_xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		kf_die(1, "out of memory");
	return p;
}

char *kf_xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		kf_die(1, "out of memory");
	return p;
}

char *kf_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		kf_die(1, "out of memory");
	return p;
}

char *kf_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = kf_xrealloc(buf, cap);
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);

		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		free(buf);
		errno = e;
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int kf_write_atomic(const char *path, const char *data, size_t len)
{
	char *tmp = kf_xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	size_t off = 0;
	int e;

	if (fd < 0)
		goto fail_nofd;
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		off += (size_t)w;
	}
	if (fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) < 0)
		goto fail;
	free(tmp);
	return 0;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	errno = e;
fail_nofd:
	e = errno;
	free(tmp);
	errno = e;
	return -1;
}

char *kf_trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

char *kf_cut_line(char *line)
{
	char *next = strchr(line, '\n');

	if (next)
		*next++ = '\0';
	return next;
}

size_t kf_edit_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b), *d, r;

	/* (n+1) x (m+1) table; a swap of neighbours counts as one edit. */
	d = kf_xmalloc((n + 1) * (m + 1) * sizeof(*d));
#define D(i, j) d[(i) * (m + 1) + (j)]
	for (size_t i = 0; i <= n; i++)
		D(i, 0) = i;
	for (size_t j = 0; j <= m; j++)
		D(0, j) = j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			size_t cost = a[i - 1] != b[j - 1], v = D(i - 1, j - 1) + cost;

			if (D(i - 1, j) + 1 < v)
				v = D(i - 1, j) + 1;
			if (D(i, j - 1) + 1 < v)
				v = D(i, j - 1) + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    D(i - 2, j - 2) + 1 < v)
				v = D(i - 2, j - 2) + 1;
			D(i, j) = v;
		}
	r = D(n, m);
#undef D
	free(d);
	return r;
}

int kf_near(const char *typed, const char *name)
{
	size_t len = strlen(typed), d = kf_edit_distance(typed, name);

	return d <= (len > 6 ? 2u : 1u) + (len > 12) && d < len;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **kf_dir_names(const char *dir, const char *suffix, size_t *n)
{
	DIR *d = opendir(dir);
	const struct dirent *e;
	size_t slen = strlen(suffix);
	char **names = NULL;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.' || len <= slen ||
		    strcmp(e->d_name + len - slen, suffix) != 0)
			continue;
		names = kf_xrealloc(names, (*n + 1) * sizeof(*names));
		names[(*n)++] = kf_xstrdup(e->d_name);
	}
	closedir(d);
	if (*n)
		qsort(names, *n, sizeof(*names), by_name);
	return names;
}

double kf_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void kf_mkdir_p(const char *dir)
{
	char *d = kf_xstrdup(dir);

	for (char *p = d + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(d, 0755);
			*p = '/';
		}
	if (mkdir(d, 0755) && errno != EEXIST)
		kf_die(2, "mkdir %s: %s", d, strerror(errno));
	free(d);
}
