// SPDX-License-Identifier: GPL-2.0
/*
 * cmdpaths - move a Kbuild O= directory's paths in its .cmd and .d files
 * from FROM to TO, in DIR, a copy of FROM that becomes TO (bisect/seed.sh,
 * which makes the copy, is the glue).
 *
 *   cmdpaths FROM TO DIR
 *
 * Kbuild reads the commands in .cmd files, never their mtimes: every kernel
 * object's command maps the O= directory in its debug information
 * (-fdebug-prefix-map=FROM=., build/build.mk), and an O= path left there
 * makes Kbuild build again what the file describes. Under tools/, tools/build's
 * .cmd and .d files name objtool's targets by absolute path, and must keep
 * their mtimes: every kernel object depends on the objtool binary. Every
 * file rewritten keeps its access and modification times, to the
 * nanosecond, as the copy (tar's POSIX format) kept them.
 *
 * A path is written in three forms, all moved:
 *  - as make's $(abspath) gives it (the out= given, through any symbolic
 *    link: build.mk's), and as the kernel's Makefile resolves O= (no link:
 *    Kbuild's and tools/'), each followed by '/' or '=';
 *  - where ccache compiled a tool (CCACHE_BASEDIR=<out>/<kver>,
 *    build/build.mk), relative to the tool's source directory,
 *    "../<FROM's name>/", when FROM and TO are siblings (<out>/<kver>/<f>).
 *
 * Which files: the *.cmd files of DIR outside any directory named tools (the
 * kernel's), and the *.cmd and *.d files under DIR/tools. A file is written
 * only when a path in it moves, by a rename (mode and times kept), so it is
 * the old or the new text, never half.
 * Exit status: 0 done, 2 bad arguments or a file that cannot be rewritten.
 */
#include "../lib/kf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One form: from -> to; 'after' the characters one of which must follow
 * from for it to match (NULL: any). */
struct form {
	char *from, *to;
	const char *after;
};

struct moves {
	struct form f[3];
	size_t n;
};

static void add_form(struct moves *m, char *from, char *to, const char *after)
{
	m->f[m->n].from = from;
	m->f[m->n].to = to;
	m->f[m->n++].after = after;
}

static void moves_free(struct moves *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->f[i].from);
		free(m->f[i].to);
	}
	m->n = 0;
}

/*
 * text (len bytes) with every form moved, in one pass: at each place the
 * first form that matches is replaced and the pass goes on after it.
 * NULL when nothing moved; else malloc'ed, its length in *outlen.
 */
static char *move_paths(const struct moves *m, const char *text, size_t len, size_t *outlen)
{
	struct strbuf sb = { 0 };
	size_t i = 0, copied = 0;
	int moved = 0;

	while (i < len) {
		size_t k;

		for (k = 0; k < m->n; k++) {
			const struct form *f = &m->f[k];
			size_t fl = strlen(f->from);

			if (fl > len - i || memcmp(text + i, f->from, fl) != 0)
				continue;
			if (f->after && (i + fl >= len || !text[i + fl] ||
					 !strchr(f->after, text[i + fl])))
				continue;
			sb_addn(&sb, text + copied, i - copied);
			sb_add(&sb, f->to);
			i += fl;
			copied = i;
			moved = 1;
			break;
		}
		if (k == m->n)
			i++;
	}
	if (!moved)
		return NULL;
	sb_addn(&sb, text + copied, len - copied);
	*outlen = sb.len;
	return sb.s;
}

/* Replace path's text with data (len bytes) by a rename, its mode and
 * its access and modification times kept. */
static void rewrite(const char *path, const struct stat *st, const char *data, size_t len)
{
	struct timespec ts[2] = { st->st_atim, st->st_mtim };
	char *tmp = kf_xasprintf("%s.cmdpaths.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, st->st_mode & 07777);
	size_t off = 0;

	if (fd < 0 || fchmod(fd, st->st_mode & 07777) < 0)
		kf_die(2, "%s: %s; is its directory writable?", tmp, strerror(errno));
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			unlink(tmp);
			kf_die(2, "%s: %s; is the disk full?", tmp, strerror(errno));
		}
		off += (size_t)w;
	}
	if (futimens(fd, ts) < 0) {
		unlink(tmp);
		kf_die(2, "%s: cannot set its times: %s", tmp, strerror(errno));
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		unlink(tmp);
		kf_die(2, "%s: cannot replace it: %s; is its directory writable?", path,
		       strerror(errno));
	}
	free(tmp);
}

/* 1 when name ends in suffix. */
static int ends(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);

	return n >= s && !strcmp(name + n - s, suffix);
}

/*
 * Move the paths in the files of dir: the kernel's pass (tools_pass 0)
 * takes *.cmd and skips every directory named tools; the tools/ pass takes
 * *.cmd and *.d. Symbolic links are not followed.
 * Returns the number of files rewritten.
 */
static size_t walk(const struct moves *m, const char *dir, int tools_pass)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t done = 0;

	if (!d)
		kf_die(2, "%s: %s; is the copy complete?", dir, strerror(errno));
	while ((e = readdir(d))) {
		struct stat st;
		char *p, *text, *out;
		size_t len, outlen = 0;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = kf_xasprintf("%s/%s", dir, e->d_name);
		if (lstat(p, &st) < 0)
			kf_die(2, "%s: %s", p, strerror(errno));
		if (S_ISDIR(st.st_mode)) {
			if (tools_pass || strcmp(e->d_name, "tools") != 0)
				done += walk(m, p, tools_pass);
			free(p);
			continue;
		}
		if (!S_ISREG(st.st_mode) ||
		    !(ends(e->d_name, ".cmd") || (tools_pass && ends(e->d_name, ".d")))) {
			free(p);
			continue;
		}
		text = kf_read_file(p, &len);
		if (!text)
			kf_die(2, "%s: %s", p, strerror(errno));
		out = move_paths(m, text, len, &outlen);
		if (out) {
			rewrite(p, &st, out, outlen);
			done++;
		}
		free(out);
		free(text);
		free(p);
	}
	closedir(d);
	return done;
}

/* A path made absolute against the logical working directory ($PWD when
 * it is the working directory, as the shell's cd and pwd take it), with
 * '.', '..' and repeated '/' resolved by the text alone: make's $(abspath). */
static char *logical(const char *path)
{
	const char *pwd = getenv("PWD");
	struct stat a, b;
	char *cwd = NULL, *full, *out;
	size_t n = 0;

	if (path[0] != '/') {
		if (!(pwd && pwd[0] == '/' && !stat(pwd, &a) && !stat(".", &b) &&
		      a.st_dev == b.st_dev && a.st_ino == b.st_ino)) {
			cwd = getcwd(NULL, 0);
			if (!cwd)
				kf_die(2, "the working directory: %s", strerror(errno));
			pwd = cwd;
		}
		full = kf_xasprintf("%s/%s", pwd, path);
	} else {
		full = kf_xstrdup(path);
	}
	out = kf_xmalloc(strlen(full) + 2);
	for (char *s = full, *w; *s; s = w) {
		size_t len;

		s += strspn(s, "/");
		len = strcspn(s, "/");
		w = s + len;
		if (!len || (len == 1 && s[0] == '.'))
			continue;
		if (len == 2 && s[0] == '.' && s[1] == '.') {
			while (n && out[n - 1] != '/')
				n--;
			if (n)
				n--;
			continue;
		}
		out[n++] = '/';
		memcpy(out + n, s, len);
		n += len;
	}
	if (!n)
		out[n++] = '/';
	out[n] = '\0';
	free(full);
	free(cwd);
	return out;
}

/* path's parent, by its text (path has no trailing '/'). */
static char *parent_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return kf_xstrdup(".");
	return slash == path ? kf_xstrdup("/") : kf_xstrndup(path, (size_t)(slash - path));
}

/* path's last name. */
static const char *name_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* parent/name, without doubling the '/' of the root. */
static char *join(const char *parent, const char *name)
{
	return kf_xasprintf("%s%s%s", parent, strcmp(parent, "/") ? "/" : "", name);
}

/* path's absolute forms: as given (logical) and resolved (physical: its
 * parent directory, which must exist, through every link). */
static void forms_of(const char *path, char **lpath, char **ppath)
{
	char *l = logical(path), *par = parent_of(l), *real = realpath(par, NULL);

	if (!real)
		kf_die(2, "%s: %s; it must exist", par, strerror(errno));
	*lpath = l;
	*ppath = join(real, name_of(l));
	free(real);
	free(par);
}

/* The three forms of FROM -> TO (the relative one when they are siblings). */
static void moves_of(struct moves *m, const char *from, const char *to)
{
	char *lf, *pf, *lt, *pt, *fp, *tp;

	m->n = 0;
	forms_of(from, &lf, &pf);
	forms_of(to, &lt, &pt);
	add_form(m, kf_xstrdup(lf), kf_xstrdup(lt), "/=");
	add_form(m, pf, pt, "/=");
	fp = parent_of(lf);
	tp = parent_of(lt);
	if (!strcmp(fp, tp))
		add_form(m, kf_xasprintf("../%s/", name_of(lf)),
			 kf_xasprintf("../%s/", name_of(lt)), NULL);
	free(fp);
	free(tp);
	free(lf);
	free(lt);
}

/* The path without its trailing '/'s (as seed.sh's ${1%/}, for them all). */
static char *trimmed(const char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	return kf_xstrndup(path, n);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = { { NULL, 0, NULL, 0 } };
	struct moves m;
	char *from, *to, *tools;
	struct stat st;

	kf_prog = "bisect-cmdpaths";
	if (getopt_long(argc, argv, "", opts, NULL) != -1 || argc - optind != 3)
		kf_die(2, "usage: bisect-cmdpaths FROM TO DIR (DIR: the copy of FROM that becomes TO)");
	from = trimmed(argv[optind]);
	to = trimmed(argv[optind + 1]);
	moves_of(&m, from, to);
	walk(&m, argv[optind + 2], 0);
	tools = kf_xasprintf("%s/tools", argv[optind + 2]);
	if (!stat(tools, &st) && S_ISDIR(st.st_mode))
		walk(&m, tools, 1);
	free(tools);
	moves_free(&m);
	free(from);
	free(to);
	return 0;
}
