/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysreq.h - what an init system needs of the kernel (fragments/systemd.needs:
 * systemd's own list), read and checked against a final config. The audit
 * (config/audit.c) runs the check at config time, before any build, and
 * writes its result into config.json ("systemd"); each miss carries its
 * menu path from the tree's kconfig, which the audit gives through a
 * callback. Needs no kernel tree: the unit tests link it alone.
 *
 * A needs file, one requirement a line ('#' comments, blank lines):
 *   init NAME VERSION              once: whose requirements, which version
 *   LEVEL SYMBOL VALUES [NOTE...]  LEVEL required or recommended; VALUES the
 *                                  values that do, comma-separated: y, m, n
 *                                  (n: also absent) or "" (also absent)
 */
#ifndef KF_SYSREQ_H
#define KF_SYSREQ_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "../lib/fragment.h"

struct kf_sysreq {
	int required;		/* 1 required, 0 recommended */
	char *name;		/* without CONFIG_ */
	char **values;		/* the values that do */
	size_t nvalues;
	char *note;		/* "" when none */
	int line;
};

struct kf_sysreqs {
	char *path;
	char *init, *version;	/* "systemd", "252"; NULL until read */
	struct kf_sysreq *v;
	size_t n;
	char **err;		/* "path:line: what; fix" */
	size_t nerr;
};

/* Parse the needs file path (its text given, or read from disk when text is
 * NULL) into r (zeroed first). Returns the number of problems in r->err. */
size_t kf_sysreqs_read(struct kf_sysreqs *r, const char *path, const char *text);
void kf_sysreqs_free(struct kf_sysreqs *r);

/* FINAL's value of q's symbol ("n" when absent); does it do? */
const char *kf_sysreq_final(const struct kf_sysreq *q, const struct kf_fragset *final);
int kf_sysreq_met(const struct kf_sysreq *q, const struct kf_fragset *final);
/* The values that do, as one text: "y", "y or m", "n", "\"\"" (malloc'ed). */
char *kf_sysreq_want(const struct kf_sysreq *q);

/* Where the tree asks for a symbol: its menu path ("General setup > Control
 * Group support"), "file:line", and whether the tree defines it at all.
 * Strings malloc'ed (NULL: none). */
struct kf_sym_where {
	int known;
	char *menu, *defined_at;
};
typedef struct kf_sym_where (*kf_sym_where_fn)(const char *name, void *arg);

/* How many required ones FINAL misses. */
size_t kf_sysreqs_missing(const struct kf_sysreqs *r, const struct kf_fragset *final);
/* config.json's "systemd" object (config/config.schema.json); where may be
 * NULL (no tree: menu and defined_at null, every symbol known). */
json_t *kf_sysreqs_record(const struct kf_sysreqs *r, const struct kf_fragset *final,
			  kf_sym_where_fn where, void *arg);
/* "  SYSTEMD flavour: ..." for stdout: ok, or what is missing (and where). */
void kf_sysreqs_print(FILE *f, const json_t *rec, const char *flavour);

#endif /* KF_SYSREQ_H */
