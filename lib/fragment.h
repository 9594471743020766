/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fragment.h - Kconfig fragments as the audit, lint, savefragment, bisect
 * and upgrade read them: every line checked,
 * every setting remembered with its file and line, and the settings of
 * several fragments merged the way merge_config.sh merges them (the later
 * one wins), except that a later setting with a different value is an error
 * unless the line before it is "# kflavour: override".
 *
 * Lines are read by lib/dotconfig.c, values compared by its
 * kf_value_equal(). Needs no kernel tree: the unit tests link it alone.
 */
#ifndef KF_FRAGMENT_H
#define KF_FRAGMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "dotconfig.h"

struct kf_setting {
	char *name;		/* symbol name without CONFIG_ */
	char *value;		/* "y", "m", "n", a number, or "quoted" as written */
	enum kf_value_kind vkind;
	const char *file;	/* points into kf_fragset.files */
	int line;
	bool override;		/* set by a line after KF_OVERRIDE_MARK */
};

/*
 * The merged settings of a list of fragments. set[] holds one entry per
 * symbol, in the order symbols were first set, with the value that wins.
 * err[] holds one "file:line: what is wrong; fix" message per problem.
 */
struct kf_fragset {
	struct kf_setting *set;
	size_t nset, capset;
	char **files;
	size_t nfiles;
	char **err;
	size_t nerr;
};

void kf_fragset_init(struct kf_fragset *fs);
void kf_fragset_free(struct kf_fragset *fs);

/*
 * Parse fragment 'path' (its text given, or read from disk when text is
 * NULL) and merge it into fs. Returns the number of problems it added to
 * fs->err (an unreadable file is one).
 */
int kf_fragset_add(struct kf_fragset *fs, const char *path, const char *text);

/* The effective setting of a symbol (name without CONFIG_), or NULL. */
const struct kf_setting *kf_fragset_find(const struct kf_fragset *fs,
					 const char *name);

#endif /* KF_FRAGMENT_H */
