/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fragment.h - Kconfig fragments as the audit reads them: every line checked,
 * every setting remembered with its file and line, and the settings of
 * several fragments merged the way merge_config.sh merges them (the later
 * one wins), except that a later setting with a different value is an error
 * unless the line before it is "# kflavour: override".
 *
 * Needs no kernel tree: the unit tests link it alone.
 */
#ifndef KF_FRAGMENT_H
#define KF_FRAGMENT_H

#include <stdbool.h>
#include <stddef.h>

/* The comment line that lets a later fragment change an earlier value. */
#define KF_OVERRIDE_MARK "# kflavour: override"

enum kf_line_kind {
	KF_LINE_BLANK,
	KF_LINE_COMMENT,
	KF_LINE_OVERRIDE,	/* KF_OVERRIDE_MARK */
	KF_LINE_SET,		/* CONFIG_NAME=value */
	KF_LINE_UNSET,		/* # CONFIG_NAME is not set */
};

/* What kind of value a setting has (the fragment's own syntax). */
enum kf_value_kind {
	KF_VAL_TRI,		/* y, m or n ("is not set" is n) */
	KF_VAL_DEC,		/* decimal number, maybe negative */
	KF_VAL_HEX,		/* 0x... */
	KF_VAL_STR,		/* "quoted string" */
};

/* One classified line; name and value point into the line parsed. */
struct kf_line {
	enum kf_line_kind kind;
	enum kf_value_kind vkind;	/* KF_LINE_SET / KF_LINE_UNSET only */
	const char *name;		/* symbol name, without CONFIG_ */
	size_t name_len;
	const char *value;		/* as written; "n" for KF_LINE_UNSET */
	size_t value_len;
};

/*
 * Classify one line (no newline). Returns 0, or -1 with "what is wrong; fix"
 * (without file:line) in err.
 */
int kf_parse_line(const char *line, struct kf_line *out, char *err,
		  size_t errlen);

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

/* "CONFIG_<name>=<value>" ("is not set" shows as =n); malloc'ed. */
char *kf_setting_str(const char *name, const char *value);

/*
 * The text of a "quoted string" value without quotes and escapes (as
 * Kconfig reads it); malloc'ed. A value that is not quoted is copied.
 */
char *kf_unquote(const char *value);

#endif /* KF_FRAGMENT_H */
