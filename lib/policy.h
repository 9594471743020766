/* SPDX-License-Identifier: GPL-2.0 */
/*
 * policy.h - the one reader of fragments/policy, the facts each flavour's
 * final .config must hold (docs/flavours.md), and its one edit. Read by
 * config/policy.c (the check merge.sh runs) and bench (which drops a rule).
 *
 * A rule is one line:  SYMBOL FLAVOUR=VALUE... : NOTE
 *   SYMBOL   a Kconfig symbol, with or without CONFIG_
 *   FLAVOUR  a flavour name (flavours/<name>.flavour) or * for every flavour;
 *            for one flavour its own entry wins over *
 *   VALUE    y, m, n (n: "is not set" or absent), a number, a "string";
 *            a|b accepts either
 *   NOTE     why the flavour needs it: printed with every violation
 *   gone=K   (optional, K: kver, a|b for several) the symbol is known to be
 *            gone from kernel K's Kconfig: the rule does not apply there
 * A symbol may have several rules (one note each), but a flavour (or *)
 * only one required value per symbol.
 */
#ifndef KF_POLICY_H
#define KF_POLICY_H

#include <stddef.h>
#include <stdio.h>

#include "dotconfig.h"

/* One required value: one symbol for one flavour (or "*"). */
struct kf_policy_rule {
	char *symbol;		/* without CONFIG_ */
	char *flavour;		/* flavour name or "*" */
	char *value;		/* accepted values as written, '|' between */
	char *note;
	char *gone;		/* kvers the symbol is gone from, '|' between; or NULL */
	int line;
};

struct kf_policy {
	char *path;
	struct kf_policy_rule *rule;
	size_t n;
};

/* Parse policy text; on a problem "path:line: what; fix" in err, -1. */
int kf_policy_parse(struct kf_policy *p, const char *path, const char *text,
		    char *err, size_t errlen);
/* The same, from the file path. */
int kf_policy_read(struct kf_policy *p, const char *path, char *err, size_t errlen);
void kf_policy_free(struct kf_policy *p);
/* The rule that binds flavour for symbol: its own, else "*", else NULL. */
const struct kf_policy_rule *kf_policy_rule_for(const struct kf_policy *p,
						const char *symbol,
						const char *flavour);
/* 1 when actual (NULL: absent, read as n) is one of the accepted values
 * (lib/dotconfig.c's kf_value_equal()). */
int kf_policy_allows(const char *accepted, const char *actual);
/* Print one line per violation of config (of kernel kver, or NULL) to out;
 * returns how many there are. */
int kf_policy_check(const struct kf_policy *p, const char *flavour,
		    const struct kf_config *config, const char *kver, FILE *out);
/* 1 when the rule is marked gone=... for kver. */
int kf_policy_gone(const struct kf_policy_rule *r, const char *kver);

/*
 * Rewrite the policy file path without the rules on symbol (without
 * CONFIG_), every other line (comments, blank lines, order) as it was,
 * atomically. The file must read as a policy first. Returns the number of
 * lines dropped, or -1 with "path[:line]: what; fix" in err (nothing written).
 */
int kf_policy_drop(const char *path, const char *symbol, char *err, size_t errlen);

#endif /* KF_POLICY_H */
