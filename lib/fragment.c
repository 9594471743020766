// SPDX-License-Identifier: GPL-2.0
/*
 * fragment.c - read Kconfig fragments line by line and merge their settings
 * (see fragment.h). Every problem is one "file:line: what; fix" message.
 */
#include "fragment.h"
#include "kf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void kf_fragset_init(struct kf_fragset *fs)
{
	memset(fs, 0, sizeof(*fs));
}

void kf_fragset_free(struct kf_fragset *fs)
{
	size_t i;

	for (i = 0; i < fs->nset; i++) {
		free(fs->set[i].name);
		free(fs->set[i].value);
	}
	free(fs->set);
	for (i = 0; i < fs->nfiles; i++)
		free(fs->files[i]);
	free(fs->files);
	for (i = 0; i < fs->nerr; i++)
		free(fs->err[i]);
	free(fs->err);
	kf_fragset_init(fs);
}

static void add_err(struct kf_fragset *fs, char *msg)
{
	fs->err = kf_xrealloc(fs->err, (fs->nerr + 1) * sizeof(*fs->err));
	fs->err[fs->nerr++] = msg;
}

static struct kf_setting *find(const struct kf_fragset *fs, const char *name,
			       size_t len)
{
	size_t i;

	for (i = 0; i < fs->nset; i++)
		if (strncmp(fs->set[i].name, name, len) == 0 &&
		    fs->set[i].name[len] == '\0')
			return &fs->set[i];
	return NULL;
}

const struct kf_setting *kf_fragset_find(const struct kf_fragset *fs,
					 const char *name)
{
	return find(fs, name, strlen(name));
}

/* Merge one setting of file:lineno; returns 1 on a conflict. */
static int merge(struct kf_fragset *fs, const struct kf_line *l,
		 const char *file, int lineno, bool override)
{
	struct kf_setting *s = find(fs, l->name, l->name_len);
	char *value = kf_xstrndup(l->value, l->value_len);

	if (s && kf_value_equal(s->value, value)) {
		free(value);
		return 0;
	}
	if (s && !override) {
		char *now = kf_setting_str(s->name, value);
		char *before = kf_setting_str(s->name, s->value);

		add_err(fs, kf_xasprintf(
			"%s:%d: %s conflicts with %s:%d: %s; keep one value, or put '%s' on the line before %s:%d if the later value should win",
			file, lineno, now, s->file, s->line, before,
			KF_OVERRIDE_MARK, file, lineno));
		free(now);
		free(before);
		free(value);
		return 1;
	}
	if (!s) {
		fs->set = kf_xrealloc(fs->set, (fs->nset + 1) * sizeof(*fs->set));
		s = &fs->set[fs->nset++];
		s->name = kf_xstrndup(l->name, l->name_len);
	} else {
		free(s->value);
	}
	s->value = value;
	s->vkind = l->vkind;
	s->file = file;
	s->line = lineno;
	s->override = override;
	return 0;
}

/* The mark on line 'mark' of file is not followed by a setting. */
static void mark_alone(struct kf_fragset *fs, const char *file, int mark)
{
	add_err(fs, kf_xasprintf(
		"%s:%d: '%s' must be directly followed by the CONFIG_ line it lets win; move it there or remove it",
		file, mark, KF_OVERRIDE_MARK));
}

int kf_fragset_add(struct kf_fragset *fs, const char *path, const char *text)
{
	char *owned = NULL, *buf, *line, *next, err[1024];
	const char *file;
	size_t before = fs->nerr;
	int lineno = 0, mark = 0;

	fs->files = kf_xrealloc(fs->files, (fs->nfiles + 1) * sizeof(*fs->files));
	fs->files[fs->nfiles++] = kf_xstrdup(path);
	file = fs->files[fs->nfiles - 1];
	if (!text) {
		owned = kf_read_file(path, NULL);
		if (!owned) {
			add_err(fs, kf_xasprintf("%s: cannot read it: %s; check the fragment list (the recipe's fragments =)",
						 path, strerror(errno)));
			return 1;
		}
		text = owned;
	}
	buf = kf_xstrdup(text);
	for (line = buf; line && *line; line = next) {
		struct kf_line l;

		next = kf_cut_line(line);
		lineno++;
		if (kf_parse_line(line, &l, err, sizeof(err)) < 0) {
			add_err(fs, kf_xasprintf("%s:%d: %s", file, lineno, err));
			mark = 0;
			continue;
		}
		if (mark && l.kind != KF_LINE_SET && l.kind != KF_LINE_UNSET)
			mark_alone(fs, file, mark);
		if (l.kind == KF_LINE_SET || l.kind == KF_LINE_UNSET)
			merge(fs, &l, file, lineno, mark != 0);
		mark = l.kind == KF_LINE_OVERRIDE ? lineno : 0;
	}
	if (mark)
		mark_alone(fs, file, mark);
	free(buf);
	free(owned);
	return (int)(fs->nerr - before);
}
