/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kconf.h - a kernel tree's own kconfig, loaded as Kbuild would load it, for
 * the tools linked against that tree's scripts/kconfig objects (audit,
 * upgrade). The successor table they explain with, fragments/renames, is
 * lib/renames.c's.
 *
 * Build with -isystem SRC/scripts/kconfig -isystem SRC/scripts/include and
 * the tree's API flags (config/config.mk: kconfig_flags):
 * - KF_SYM_MENUS: a symbol lists its menu entries in 'struct list_head
 *   menus' (6.12); 6.1 has one P_SYMBOL property per entry instead.
 * - KF_MENU_FILENAME: a menu entry's file is 'const char *filename' (6.12);
 *   6.1 has 'struct file *file'.
 */
#ifndef KF_KCONF_H
#define KF_KCONF_H

#include <stddef.h>

#include <lkc.h>

#ifdef KF_MENU_FILENAME
#define MENU_FILE(m) ((m)->filename)
#else
#define MENU_FILE(m) ((m)->file ? (m)->file->name : "?")
#endif

/* KERNELVERSION of SRC/Makefile (e.g. 6.1.192), malloc'ed; *kver, when
 * kver is not NULL, gets VERSION.PATCHLEVEL (e.g. 6.1). */
char *kf_tree_version(const char *srctree, char **kver);

/* Parse SRC's Kconfig with the environment Kbuild gives it, then read
 * CONFIG; exits 2 with the reason when either fails. Returns the tree's
 * KERNELVERSION, and *kver, as kf_tree_version(). */
char *kf_kconfig_load(const char *srctree, const char *config, char **kver);
/* The same, then CONFIG written back as 'make olddefconfig' writes it;
 * kconfig's messages meanwhile appended to LOG. */
char *kf_kconfig_olddefconfig(const char *srctree, const char *config, const char *log,
			      char **kver);
/*
 * Kconfig's compiler probes answered from $KF_PROBE_CACHE between begin and
 * end (lib/probes.c; link with -Wl,--wrap=popen,--wrap=pclose). begin
 * reads the environment kconfig will see: call it after setting that.
 */
void kf_probes_begin(const char *srctree);
void kf_probes_end(void);


/* The menu entries that define sym ("config SYM" blocks): NULL-terminated,
 * malloc'ed. */
struct menu **kf_sym_menus(struct symbol *sym);
/* The entry menuconfig asks for sym with (its first with a prompt, else its
 * first), NULL when none; the menu path to it, "General setup > Control
 * Group support" (menuconfig's "Location:" and its own prompt), malloc'ed,
 * NULL when nothing on it has a prompt. */
struct menu *kf_sym_entry(struct symbol *sym);
char *kf_menu_path(struct menu *entry);
/* Defined by this tree's Kconfig (not only named in an expression)? */
int kf_sym_known(struct symbol *sym);
int kf_sym_is_bool(const struct symbol *sym);
/* The choice menu sym is a value of, or NULL. */
struct menu *kf_choice_of(struct symbol *sym);
/* The value of a choice that is y (values may sit in if-blocks), or NULL. */
struct symbol *kf_choice_winner(struct menu *parent);
/* The values of a choice, in Kconfig order (values may sit in if-blocks):
 * fn(sym, arg) for each. */
void kf_choice_values(struct menu *parent, void (*fn)(struct symbol *, void *), void *arg);
tristate kf_tri_of(const char *v);

/*
 * What menuconfig's help says of a symbol, line by line into r: the audit's
 * and the upgrade's "detail". kf_explain_dep: "PREFIX expr" unless e is y;
 * prompts: each prompt with its "Depends on:" and "Visible if:"; defaults:
 * the dependencies of its entries without a prompt, then its defaults;
 * selects: "Selected by [y]:" and "[m]:" lists, "[n]:" too when show_off.
 */
void kf_explain_dep(struct gstr *r, struct expr *e, const char *prefix);
void kf_explain_defined_at(struct gstr *r, struct symbol *sym);
void kf_explain_prompts(struct gstr *r, struct symbol *sym);
void kf_explain_defaults(struct gstr *r, struct symbol *sym);
void kf_explain_selects(struct gstr *r, struct symbol *sym, int show_off);

#endif /* KF_KCONF_H */
