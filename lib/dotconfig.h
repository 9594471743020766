/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dotconfig.h - the one reader of .config and fragment lines
 * ("CONFIG_X=value", "# CONFIG_X is not set", the menu comment blocks and
 * the "# Linux/x86 6.1.192 Kernel Configuration" header) and the one rule
 * for "are two values equal". Every tool that reads a .config or a fragment
 * uses it: config/fragment.c (fragments and their merge), savefragment,
 * policy, newflavour, make diffconfig, the report, bisect, upgrade and the
 * build's progress estimate.
 */
#ifndef KF_DOTCONFIG_H
#define KF_DOTCONFIG_H

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

/* What kind of value a setting has (the line's own syntax). */
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

/*
 * Are two values (as written, "n" for "is not set") the same Kconfig value?
 * The same text; two "quoted strings" with the same text once unquoted; or
 * two numbers of the same value: in hex when either is written 0x... (a
 * hex symbol reads "10" as 0x10, so 10 == 0x10 and 16 != 0x10), else in
 * decimal (010 == 10). y, m, n and a string never equal a number. The
 * answer holds whatever the symbol's type, so no reader needs the tree.
 */
int kf_value_equal(const char *a, const char *b);

/* "CONFIG_<name>=<value>" ("is not set" shows as =n); malloc'ed. */
char *kf_setting_str(const char *name, const char *value);
/* The line Kconfig writes: "# CONFIG_<name> is not set" for "n", else
 * "CONFIG_<name>=<value>"; malloc'ed. */
char *kf_setting_line(const char *name, const char *value);

/*
 * The text of a "quoted string" value without quotes and escapes (as
 * Kconfig reads it); malloc'ed. A value that is not quoted is copied.
 */
char *kf_unquote(const char *value);

/* A whole .config (or fragment): its settings in file order, an index by
 * name for lookups, and the Kconfig menu each setting is written under. */
struct kf_config_sym {
	char *name;		/* without CONFIG_ */
	char *value;		/* as written; "n" for "is not set" */
	int line;
	int menu;		/* index into kf_config.menu; -1: none */
};

struct kf_config {
	struct kf_config_sym *sym;
	size_t n;
	size_t *by_name;	/* indexes into sym[], sorted by name */
	char **menu;		/* menu paths, see kf_config_menu() */
	size_t nmenu;
	char *kver;		/* "6.1" from the header, or NULL */
};

/*
 * Parse text (read from path when text is NULL) into c. On the first bad
 * line, or a file that cannot be read, writes "path[:line]: what; fix"
 * into err and returns -1 (c then holds nothing to free).
 */
int kf_config_read(struct kf_config *c, const char *path, const char *text,
		   char *err, size_t errlen);
void kf_config_free(struct kf_config *c);
/* The setting of name (without CONFIG_), the last one; NULL if absent. */
const struct kf_config_sym *kf_config_find(const struct kf_config *c,
					   const char *name);
/* Its value, or NULL. */
const char *kf_config_get(const struct kf_config *c, const char *name);
/* Like kf_config_get, but absent reads as "n" (Kconfig's own view). */
const char *kf_config_value(const struct kf_config *c, const char *name);

/*
 * The Kconfig menu name is written under, the one menu path every tool
 * shows: the outermost KF_MENU_DEPTH menus joined with " > " ("Device
 * Drivers > Character devices"), or "(top level)"; NULL when c does not
 * list name. Read from the comment blocks kconfig writes around a menu
 * ("#", "# Title", "#" ... "# end of Title"; a Kconfig comment is the same
 * block without an end line, and no menu), so no tree is needed. kconfig
 * writes no block for a menuconfig symbol or a choice: what they hold is
 * in the menu around them.
 */
#define KF_MENU_DEPTH 2
const char *kf_config_menu(const struct kf_config *c, const char *name);
/* Menu titles, outermost first, joined as every menu path is shown:
 * "General setup > Control Group support"; malloc'ed, NULL when n is 0.
 * lib/kconf.c's kf_menu_path() (the tree's whole path) joins with it. */
char *kf_menu_join(const char *const *outer, size_t n);

#endif /* KF_DOTCONFIG_H */
