// SPDX-License-Identifier: GPL-2.0
/*
 * kconf.c - a kernel tree's own kconfig, loaded as Kbuild would load it
 * (kconf.h). One copy for every tool that links the tree's
 * kconfig: config-audit, config-diff, config-prompts (config/<job>.c) and
 * upgrade (upgrade/upgrade.c).
 */
#include "dotconfig.h"
#include "kf.h"
#include "proc.h"
#include "kconf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* list_for_each_entry, for KF_SYM_MENUS (the tree's scripts/include). */
#include <list.h>

/* The first line of "$CC --version", as the top Makefile computes it (run
 * through lib/proc.c; $CC may be "ccache gcc", so through sh). */
static char *cc_version_text(void)
{
	char *const argv[] = { "sh", "-c", "LC_ALL=C $CC --version", NULL };
	struct kf_proc_opts o = { .pipe_out = 1, .null_err = 1, .null_in = 1 };
	struct kf_proc p;
	struct strbuf out = { 0 };
	char buf[512], *s, *d, *line;
	ssize_t n;
	int status;

	if (kf_proc_start(&p, argv, &o) < 0)
		return kf_xstrdup("");
	while ((n = read(p.out, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			sb_addn(&out, buf, (size_t)n);
	close(p.out);
	kf_proc_wait(&p, -1, &status, NULL);
	line = kf_xstrndup(out.s ? out.s : "", out.s ? strcspn(out.s, "\n") : 0);
	free(out.s);
	for (s = d = line; *s; s++)	/* the Makefile drops '#' */
		if (*s != '#')
			*d++ = *s;
	*d = '\0';
	return line;
}

static char *makefile_var(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q = p + n;

		if (strncmp(p, name, n) != 0)
			continue;
		q += strspn(q, " \t");
		if (*q != '=')
			continue;
		q++;
		q += strspn(q, " \t");
		return kf_xasprintf("%.*s", (int)strcspn(q, " \t\n#"), q);
	}
	return kf_xstrdup("");
}

/* KERNELVERSION and kver (VERSION.PATCHLEVEL) from SRC/Makefile. */
char *kf_tree_version(const char *srctree, char **kver)
{
	char *mk = kf_xasprintf("%s/Makefile", srctree);
	char *text = kf_read_file(mk, NULL);
	char *v, *p, *s, *e, *r;

	if (!text)
		kf_die(2, "%s: %s; --srctree must be an extracted kernel tree",
		       mk, strerror(errno));
	v = makefile_var(text, "VERSION");
	p = makefile_var(text, "PATCHLEVEL");
	s = makefile_var(text, "SUBLEVEL");
	e = makefile_var(text, "EXTRAVERSION");
	if (kver)
		*kver = kf_xasprintf("%s.%s", v, p);
	r = *s ? kf_xasprintf("%s.%s.%s%s", v, p, s, e) : kf_xasprintf("%s.%s%s", v, p, e);
	free(v);
	free(p);
	free(s);
	free(e);
	free(text);
	free(mk);
	return r;
}

/* What Kbuild exports to kconfig; each (but srctree) only when the caller
 * has not set it. */
static void kconfig_env(const char *srctree, const char *kernelversion)
{
	static const char *const env_defaults[][2] = {
		{ "ARCH", "x86" }, { "SRCARCH", "x86" },
		{ "CC", "gcc" }, { "LD", "ld" }, { "AR", "ar" }, { "NM", "nm" },
		{ "OBJCOPY", "objcopy" }, { "HOSTCC", "gcc" },
		{ "HOSTCXX", "g++" }, { "PAHOLE", "pahole" },
		{ "RUSTC", "rustc" }, { "BINDGEN", "bindgen" },
		{ "PYTHON3", "python3" }, { "HOSTPKG_CONFIG", "pkg-config" },
	};
	size_t i;

	setenv("srctree", srctree, 1);	/* --srctree says which tree */
	for (i = 0; i < sizeof(env_defaults) / sizeof(env_defaults[0]); i++)
		setenv(env_defaults[i][0], env_defaults[i][1], 0);
	setenv("KERNELVERSION", kernelversion, 0);
	if (!getenv("CC_VERSION_TEXT")) {
		char *t = cc_version_text();

		setenv("CC_VERSION_TEXT", t, 0);
		free(t);
	}
	/* kconfig's Makefile unexports it: it would change the prefix. */
	unsetenv("CONFIG_");
}

/*
 * Parse SRC's Kconfig and read FINAL. Kconfig's $(shell,...) macros run the
 * compiler in the current directory (cc-option makes .tmp_$$ there), so the
 * parse runs in a private temporary directory, with srctree pointing at SRC,
 * as Kbuild runs it in O= - never inside SRC, which stays untouched.
 */
char *kf_kconfig_load(const char *srctree, const char *config, char **kver)
{
	const char *tmpdir = getenv("TMPDIR");
	char *kernelversion = kf_tree_version(srctree, kver);
	char *src = realpath(srctree, NULL);
	char *dir = kf_xasprintf("%s/kf-kconfig.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	char *kconfig;
	int cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (!src)
		kf_die(2, "--srctree %s: %s", srctree, strerror(errno));
	kconfig = kf_xasprintf("%s/Kconfig", src);
	if (access(kconfig, R_OK) < 0)
		kf_die(2, "%s: %s; --srctree must be an extracted kernel tree",
		       kconfig, strerror(errno));
	if (cwd < 0)
		kf_die(2, "cannot open the current directory: %s", strerror(errno));
	kconfig_env(src, kernelversion);
	kf_probes_begin(src);	/* before the chdir: KF_PROBE_CACHE may be relative */
	if (!mkdtemp(dir))
		kf_die(2, "cannot make a directory %s: %s; set TMPDIR to a writable directory",
		       dir, strerror(errno));
	if (chdir(dir) < 0)
		kf_die(2, "%s: %s", dir, strerror(errno));
	conf_parse("Kconfig");
	kf_probes_end();
	if (fchdir(cwd) < 0)
		kf_die(2, "cannot go back to the starting directory: %s", strerror(errno));
	close(cwd);
	if (rmdir(dir) < 0)
		kf_warn("left %s behind: %s", dir, strerror(errno));
	if (conf_read(config))
		kf_die(2, "%s: this tree's kconfig cannot read it", config);
	free(kconfig);
	free(dir);
	free(src);
	return kernelversion;
}

char *kf_kconfig_olddefconfig(const char *srctree, const char *config, const char *log,
			      char **kver)
{
	int saved, fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	char *kernelversion;

	if (fd < 0)
		kf_die(2, "--olddefconfig %s: %s", log, strerror(errno));
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	if (saved < 0 || dup2(fd, STDERR_FILENO) < 0)
		kf_die(2, "cannot send kconfig's messages to %s: %s", log, strerror(errno));
	close(fd);
	kernelversion = kf_kconfig_load(srctree, config, kver);
	conf_set_message_callback(NULL);
	fd = conf_write(config);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	if (fd)
		kf_die(2, "%s: cannot write it back (olddefconfig): %s", config, strerror(errno));
	return kernelversion;
}

/* The menu entries that define sym ("config SYM" blocks): NULL-terminated. */
struct menu **kf_sym_menus(struct symbol *sym)
{
	struct menu **v = kf_xmalloc(sizeof(struct menu *));
	size_t n = 0;
#ifdef KF_SYM_MENUS
	struct menu *m;

	list_for_each_entry(m, &sym->menus, link) {
		v = kf_xrealloc(v, (n + 2) * sizeof(struct menu *));
		v[n++] = m;
	}
#else
	struct property *p;

	for_all_properties(sym, p, P_SYMBOL) {
		v = kf_xrealloc(v, (n + 2) * sizeof(struct menu *));
		v[n++] = p->menu;
	}
#endif
	v[n] = NULL;
	return v;
}

/* The entry menuconfig asks for sym with: its first with a prompt, else its
 * first; NULL when the tree does not define it. */
struct menu *kf_sym_entry(struct symbol *sym)
{
	struct menu **v = kf_sym_menus(sym), *e = v[0];

	for (struct menu **m = v; *m; m++)
		if ((*m)->prompt) {
			e = *m;
			break;
		}
	free(v);
	return e;
}

/* "General setup > Control Group support": the prompts of the menus around
 * the entry, outermost first, as menuconfig's "Location:" (entries without
 * a prompt, an if block's, left out), then its own. */
char *kf_menu_path(struct menu *entry)
{
	const char *chain[64], *outer[64];
	size_t n = 0;

	for (struct menu *m = entry; m && m != &rootmenu && n < 64; m = m->parent)
		if (m->prompt && menu_get_prompt(m))
			chain[n++] = menu_get_prompt(m);
	for (size_t k = 0; k < n; k++)
		outer[k] = chain[n - 1 - k];
	return kf_menu_join(outer, n);
}

/* Defined by this tree's Kconfig (not just named in an expression)? */
int kf_sym_known(struct symbol *sym)
{
	struct menu **v;
	int any;

	if (!sym || sym->type == S_UNKNOWN)
		return 0;
	v = kf_sym_menus(sym);
	any = v[0] != NULL;
	free(v);
	return any;
}

int kf_sym_is_bool(const struct symbol *sym)
{
	return sym->type == S_BOOLEAN || sym->type == S_TRISTATE;
}

/* The choice menu sym is a value of, or NULL. */
struct menu *kf_choice_of(struct symbol *sym)
{
	struct menu **v, **m, *p, *found = NULL;

	if (!sym_is_choice_value(sym))
		return NULL;
	v = kf_sym_menus(sym);
	for (m = v; *m && !found; m++)
		for (p = (*m)->parent; p && p != &rootmenu && !found; p = p->parent)
			if (p->sym && sym_is_choice(p->sym))
				found = p;
	free(v);
	return found;
}

/* The value of a choice that is y (values may sit in if-blocks). */
struct symbol *kf_choice_winner(struct menu *parent)
{
	struct menu *m;

	for (m = parent->list; m; m = m->next) {
		struct symbol *w = NULL;

		if (m->sym && !sym_is_choice(m->sym)) {
			sym_calc_value(m->sym);
			if (sym_get_tristate_value(m->sym) == yes)
				w = m->sym;
		} else if (!m->sym && m->list) {
			w = kf_choice_winner(m);
		}
		if (w)
			return w;
	}
	return NULL;
}

void kf_choice_values(struct menu *parent, void (*fn)(struct symbol *, void *), void *arg)
{
	struct menu *m;

	for (m = parent->list; m; m = m->next) {
		if (m->sym && !sym_is_choice(m->sym))
			fn(m->sym, arg);
		else if (!m->sym && m->list)
			kf_choice_values(m, fn, arg);
	}
}

tristate kf_tri_of(const char *v)
{
	return v[0] == 'y' ? yes : v[0] == 'm' ? mod : no;
}

/* ---- explaining a symbol, in menuconfig's words ---------------------- */

/* "Depends on: A [=y] && B [=n]\n" unless e is plain y. */
void kf_explain_dep(struct gstr *r, struct expr *e, const char *prefix)
{
	if (expr_is_yes(e))
		return;
	str_append(r, prefix);
	expr_gstr_print(e, r);
	str_append(r, "\n");
}

void kf_explain_defined_at(struct gstr *r, struct symbol *sym)
{
	struct menu **v = kf_sym_menus(sym), **m;

	for (m = v; *m; m++)
		str_printf(r, "Defined at %s:%d\n", MENU_FILE(*m), (*m)->lineno);
	free(v);
}

/* Every prompt's dependencies, as menuconfig's help shows them. */
void kf_explain_prompts(struct gstr *r, struct symbol *sym)
{
	struct menu **v = kf_sym_menus(sym), **m;

	for (m = v; *m; m++) {
		struct property *p = (*m)->prompt;

		if (!p)
			continue;
		str_printf(r, "Prompt: %s\n", p->text);
		kf_explain_dep(r, p->menu->dep, "Depends on: ");
		if (!expr_eq(p->menu->dep, p->visible.expr))
			kf_explain_dep(r, p->visible.expr, "Visible if: ");
	}
	free(v);
}

void kf_explain_defaults(struct gstr *r, struct symbol *sym)
{
	struct menu **v = kf_sym_menus(sym), **m;
	struct property *p;

	for (m = v; *m; m++)
		if (!(*m)->prompt)
			kf_explain_dep(r, (*m)->dep, "Depends on: ");
	free(v);
	for_all_defaults(sym, p) {
		str_append(r, "Default: ");
		if (p->expr && p->expr->type == E_SYMBOL &&
		    (p->expr->left.sym->flags & SYMBOL_CONST))
			str_append(r, p->expr->left.sym->name);	/* y, not y [=y] */
		else
			expr_gstr_print(p->expr, r);
		if (!expr_is_yes(p->visible.expr)) {
			str_append(r, " if ");
			expr_gstr_print(p->visible.expr, r);
		}
		str_append(r, "\n");
	}
}

/* menuconfig's "Selected by [y]:" lists; the selects that are off only
 * when they could help: when the request is above the current value. */
void kf_explain_selects(struct gstr *r, struct symbol *sym, int show_off)
{
	if (!sym->rev_dep.expr)
		return;
	expr_gstr_print_revdep(sym->rev_dep.expr, r, yes, "Selected by [y]:\n");
	expr_gstr_print_revdep(sym->rev_dep.expr, r, mod, "Selected by [m]:\n");
	if (show_off)
		expr_gstr_print_revdep(sym->rev_dep.expr, r, no, "Selected by [n]:\n");
}
