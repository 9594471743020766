// SPDX-License-Identifier: GPL-2.0
/*
 * renames.c - fragments/renames, the successor table (renames.h).
 */
#include "renames.h"
#include "kf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void kf_renames_read(struct kf_renames *r, const char *path, int must_exist)
{
	char *text = kf_read_file(path, NULL), *line, *next;
	int lineno = 0;

	if (!text) {
		if (must_exist || errno != ENOENT)
			kf_die(2, "%s: %s; give an existing successor table with --renames",
			       path, strerror(errno));
		return;
	}
	for (line = text; line && *line; line = next) {
		char *old, *succ, *why, *save = NULL;

		next = kf_cut_line(line);
		lineno++;
		line = kf_trim(line);
		if (*line == '\0' || *line == '#')
			continue;
		old = strtok_r(line, " \t", &save);
		succ = strtok_r(NULL, " \t", &save);
		why = save ? kf_trim(save) : NULL;
		if (!old || !succ || !why || !*why)
			kf_die(2, "%s:%d: expected 'OLD SUCCESSOR WHY...' ('-' when there is no successor); fix the line",
			       path, lineno);
		r->v = kf_xrealloc(r->v, (r->n + 1) * sizeof(*r->v));
		r->v[r->n].old = kf_xstrdup(old);
		r->v[r->n].succ = strcmp(succ, "-") != 0 ? kf_xstrdup(succ) : NULL;
		r->v[r->n].why = kf_xstrdup(why);
		r->n++;
	}
	free(text);
}

const struct kf_rename *kf_renames_find(const struct kf_renames *r, const char *old)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->v[i].old, old) == 0)
			return &r->v[i];
	return NULL;
}

void kf_renames_free(struct kf_renames *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].old);
		free(r->v[i].succ);
		free(r->v[i].why);
	}
	free(r->v);
}
