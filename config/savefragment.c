// SPDX-License-Identifier: GPL-2.0
/*
 * savefragment - the logic behind 'make savefragment' (config/edit.mk;
 * config/savefragment.sh only runs the tree's make and diff).
 *
 *   savefragment changes MERGED EDITED MERGED_DEF EDITED_DEF FRAGMENT...
 *       Print, as fragment lines, the smallest set of settings that turns the
 *       merge of FRAGMENT... into EDITED: the set difference of the two
 *       savedefconfig outputs (the tree's own idea of a minimal config), plus
 *       the symbols the fragments request whose final value the edit changed
 *       (a derived symbol such as X86_L1_CACHE_SHIFT), so the audit of the
 *       next merge agrees with the edit.
 *   savefragment target FLAVOUR TO NAMES FILES
 *       Print the fragment the edits go to: the one of the recipe's fragment
 *       NAMES (FILES, the same fragments as files, in the same order) that
 *       TO names, or, TO empty, the flavour's own, flavour-FLAVOUR (its file
 *       when the recipe has it, else fragments/flavour-FLAVOUR.config, new).
 *       A TO that is not among NAMES is refused (exit 2).
 *   savefragment apply FLAVOUR TARGET CHANGES FRAGMENT...
 *       Write CHANGES into fragment TARGET, merged after FRAGMENT... (the
 *       recipe's merge order) or at its place among them when it is one:
 *       a symbol TARGET already sets is updated in place, a new one appended; "# kflavour: override" goes before a line
 *       that changes a value an earlier fragment sets, and a line that only
 *       repeats the earlier value is dropped. A change that a later fragment
 *       would undo is an error, and then nothing is written.
 *   savefragment add-fragment RECIPE NAME
 *       Append NAME to the recipe's fragment list unless it is there
 *       (lib/recipe.c's writer).
 *   savefragment compare EDITED MERGED
 *       Exit 0 when the two configs have the same settings; else print each
 *       setting that differs, as "  edited: LINE" and "  merged: LINE", and
 *       exit 1.
 *   savefragment others KVER FLAVOUR...
 *       For each other tree with a committed defconfig of a FLAVOUR
 *       (defconfigs/<kver>/<flavour>_defconfig), the line that says to
 *       remake it: it comes from the same fragments.
 *
 * Configs are read by lib/dotconfig.c and values compared with its
 * kf_value_equal(), as the audit and the policy compare them.
 * Exit status: 0 done, 1 refused (nothing written) or configs that differ,
 * 2 bad arguments or input.
 */
#include "../lib/fragment.h"
#include "../lib/kf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Read a .config or defconfig; bad input ends the tool (path:line). */
static void cfg_read(struct kf_config *c, const char *path)
{
	char err[1024];

	if (kf_config_read(c, path, NULL, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
}

/* The settings to write, in the order found, one per symbol. */
struct settings {
	char **name, **value;
	size_t n;
};

static void settings_add(struct settings *out, const char *name, const char *value)
{
	for (size_t i = 0; i < out->n; i++)
		if (!strcmp(out->name[i], name))
			return;
	out->name = kf_xrealloc(out->name, (out->n + 1) * sizeof(*out->name));
	out->value = kf_xrealloc(out->value, (out->n + 1) * sizeof(*out->value));
	out->name[out->n] = kf_xstrdup(name);
	out->value[out->n++] = kf_xstrdup(value);
}

static void settings_free(struct settings *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->name[i]);
		free(s->value[i]);
	}
	free(s->name);
	free(s->value);
}

static int cmd_changes(int argc, char **argv)
{
	struct kf_config merged, edited, mdef, edef;
	struct settings out = { 0 };
	struct kf_fragset fs;

	if (argc < 4)
		kf_die(2, "usage: savefragment changes MERGED EDITED MERGED_DEF EDITED_DEF FRAGMENT...");
	cfg_read(&merged, argv[0]);
	cfg_read(&edited, argv[1]);
	cfg_read(&mdef, argv[2]);
	cfg_read(&edef, argv[3]);

	/* Settings savedefconfig keeps for the edit and not for the merge. */
	for (size_t i = 0; i < edef.n; i++) {
		const char *was = kf_config_get(&mdef, edef.sym[i].name);

		if (!was || !kf_value_equal(was, edef.sym[i].value))
			settings_add(&out, edef.sym[i].name, edef.sym[i].value);
	}
	/* Settings the merge needed that the edit put back to the default. */
	for (size_t i = 0; i < mdef.n; i++) {
		const char *now = kf_config_value(&edited, mdef.sym[i].name);

		if (kf_config_get(&edef, mdef.sym[i].name))
			continue;
		if (!kf_value_equal(now, kf_config_value(&merged, mdef.sym[i].name)))
			settings_add(&out, mdef.sym[i].name, now);
	}
	/* Symbols the fragments request whose final value the edit changed. */
	kf_fragset_init(&fs);
	for (int i = 4; i < argc; i++)
		kf_fragset_add(&fs, argv[i], NULL);
	for (size_t i = 0; i < fs.nset; i++) {
		const char *now = kf_config_value(&edited, fs.set[i].name);

		if (!kf_value_equal(now, kf_config_value(&merged, fs.set[i].name)) &&
		    !kf_value_equal(now, fs.set[i].value))
			settings_add(&out, fs.set[i].name, now);
	}
	for (size_t i = 0; i < out.n; i++) {
		char *l = kf_setting_line(out.name[i], out.value[i]);

		puts(l);
		free(l);
	}
	kf_fragset_free(&fs);
	kf_config_free(&merged);
	kf_config_free(&edited);
	kf_config_free(&mdef);
	kf_config_free(&edef);
	settings_free(&out);
	return 0;
}

/* A text as lines (NULL: deleted), so lines can be replaced and inserted. */
struct text {
	char **line;
	size_t n;
};

/* Split s (malloc'ed; freed here) into the lines of t. */
static void text_split(struct text *t, char *s)
{
	char *line, *next;

	memset(t, 0, sizeof(*t));
	for (line = s; line && *line; line = next) {
		next = kf_cut_line(line);
		t->line = kf_xrealloc(t->line, (t->n + 1) * sizeof(*t->line));
		t->line[t->n++] = kf_xstrdup(line);
	}
	free(s);
}

static void text_insert(struct text *t, size_t at, char *line)
{
	t->line = kf_xrealloc(t->line, (t->n + 1) * sizeof(*t->line));
	memmove(t->line + at + 1, t->line + at, (t->n - at) * sizeof(*t->line));
	t->line[at] = line;
	t->n++;
}

static void text_delete(struct text *t, size_t at)
{
	free(t->line[at]);
	t->line[at] = NULL;
}

/* Write t's lines to path atomically (dies when it cannot), then free t. */
static void text_save(struct text *t, const char *path)
{
	struct strbuf sb = { 0 };

	for (size_t i = 0; i < t->n; i++)
		if (t->line[i])
			sb_addf(&sb, "%s\n", t->line[i]);
	if (kf_write_atomic(path, sb.s ? sb.s : "", sb.len) < 0)
		kf_die(2, "%s: %s", path, strerror(errno));
	free(sb.s);
	for (size_t i = 0; i < t->n; i++)
		free(t->line[i]);
	free(t->line);
	memset(t, 0, sizeof(*t));
}

/* Classify line i of t; dies naming path:line when it is not fragment text. */
static enum kf_line_kind kind_at(const struct text *t, size_t i,
				 const char *path, struct kf_line *l)
{
	char err[1024];

	if (kf_parse_line(t->line[i], l, err, sizeof(err)) < 0)
		kf_die(2, "%s:%zu: %s", path, i + 1, err);
	return l->kind;
}

static int sets(const struct kf_line *l, const char *name)
{
	return (l->kind == KF_LINE_SET || l->kind == KF_LINE_UNSET) &&
	       strlen(name) == l->name_len && !strncmp(l->name, name, l->name_len);
}

/* Put name = value into t (the fragment at path); 'earlier' is what the
 * fragments merged before it request. */
static void apply_one(struct text *t, const char *path, const char *name,
		      const char *value, const struct kf_fragset *earlier)
{
	const struct kf_setting *e = kf_fragset_find(earlier, name);
	int redundant = e && kf_value_equal(e->value, value);
	size_t first = t->n;

	/* Every line of t that sets name: keep the first, drop the others. */
	for (size_t i = 0; i < t->n; i++) {
		struct kf_line l;

		if (!t->line[i] || kind_at(t, i, path, &l) == KF_LINE_OVERRIDE)
			continue;
		if (!sets(&l, name))
			continue;
		if (i > 0 && t->line[i - 1] &&
		    !strncmp(t->line[i - 1], KF_OVERRIDE_MARK, strlen(KF_OVERRIDE_MARK)))
			text_delete(t, i - 1);
		if (first == t->n && !redundant)
			first = i;
		else
			text_delete(t, i);
	}
	if (redundant)
		return;
	if (first == t->n) {
		while (t->n && !t->line[t->n - 1])
			t->n--;
		text_insert(t, t->n, kf_setting_line(name, value));
	} else {
		free(t->line[first]);
		t->line[first] = kf_setting_line(name, value);
	}
	if (e)
		text_insert(t, first, kf_xstrdup(KF_OVERRIDE_MARK));
}

static char *new_fragment_header(const char *flavour, const char *target)
{
	const char *base = strrchr(target, '/');
	char *name = kf_xstrdup(base ? base + 1 : target), *dot = strrchr(name, '.');
	char *s;

	if (dot)
		*dot = '\0';
	s = kf_xasprintf(
		"# %s: %s's own settings, merged after the shared fragments of\n"
		"# flavours/%s.flavour. Written by 'make savefragment flavour=%s'; edit\n"
		"# it freely, one line per symbol. '%s' on the line\n"
		"# before a setting lets it change a value a shared fragment sets.\n",
		name, flavour, flavour, flavour, KF_OVERRIDE_MARK);
	free(name);
	return s;
}

static int cmd_apply(int argc, char **argv)
{
	const char *flavour, *target, *changes_path;
	struct kf_fragset earlier, later;
	struct text t;
	struct kf_config changes;
	char *text;
	int at = -1, refused = 0;

	if (argc < 3)
		kf_die(2, "usage: savefragment apply FLAVOUR TARGET CHANGES [FRAGMENT...]");
	flavour = argv[0];
	target = argv[1];
	changes_path = argv[2];
	for (int i = 3; i < argc && at < 0; i++)
		if (!strcmp(argv[i], target))
			at = i;
	if (at < 0)	/* a new fragment, merged last */
		at = argc;
	kf_fragset_init(&earlier);
	kf_fragset_init(&later);
	for (int i = 3; i < at; i++)
		kf_fragset_add(&earlier, argv[i], NULL);
	for (int i = at + 1; i < argc; i++)
		kf_fragset_add(&later, argv[i], NULL);
	cfg_read(&changes, changes_path);

	for (size_t i = 0; i < changes.n; i++) {
		const struct kf_setting *l = kf_fragset_find(&later, changes.sym[i].name);

		if (l && !kf_value_equal(l->value, changes.sym[i].value)) {
			char *want = kf_setting_line(changes.sym[i].name, changes.sym[i].value);
			char *wins = kf_setting_line(l->name, l->value);

			kf_warn("%s: %s would not last: %s:%d, merged after it, sets %s; "
				"save into that fragment (to=), or a fragment merged later",
				target, want, l->file, l->line, wins);
			free(want);
			free(wins);
			refused++;
		}
	}
	if (refused) {
		kf_warn("nothing written");
		return 1;
	}

	text = kf_read_file(target, NULL);
	if (!text && errno != ENOENT)
		kf_die(2, "%s: %s", target, strerror(errno));
	if (!text)
		text = new_fragment_header(flavour, target);
	text_split(&t, text);
	for (size_t i = 0; i < changes.n; i++)
		apply_one(&t, target, changes.sym[i].name, changes.sym[i].value, &earlier);
	text_save(&t, target);
	kf_config_free(&changes);
	kf_fragset_free(&earlier);
	kf_fragset_free(&later);
	return 0;
}

/* 1 when the white-space separated list has word. */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; *p;) {
		size_t w;

		p += strspn(p, " \t");
		w = strcspn(p, " \t");
		if (w == n && !strncmp(p, word, n))
			return 1;
		p += w;
	}
	return 0;
}

static int cmd_add_fragment(int argc, char **argv)
{
	struct kf_recipe r;
	char err[1024];

	if (argc != 2)
		kf_die(2, "usage: savefragment add-fragment RECIPE NAME");
	if (kf_recipe_read(argv[0], &r, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
	if (!has_word(r.value[KF_FRAGMENTS], argv[1])) {
		char *grown = kf_xasprintf("%s %s", r.value[KF_FRAGMENTS], argv[1]);

		kf_recipe_set(&r, KF_FRAGMENTS, grown);
		free(grown);
		if (kf_recipe_write(argv[0], &r, NULL, err, sizeof(err)) < 0)
			kf_die(2, "%s", err);
	}
	kf_recipe_free(&r);
	return 0;
}

/* The line of name in c as kconfig writes it ("is not set" when absent). */
static void print_setting(const char *label, const struct kf_config *c, const char *name)
{
	char *l = kf_setting_line(name, kf_config_value(c, name));

	printf("  %s: %s\n", label, l);
	free(l);
}

static int cmd_compare(int argc, char **argv)
{
	struct kf_config c[2];
	int differ = 0;

	if (argc != 2)
		kf_die(2, "usage: savefragment compare EDITED MERGED");
	cfg_read(&c[0], argv[0]);
	cfg_read(&c[1], argv[1]);
	/* Every symbol of either, once, the edited config's first. */
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < c[k].n; i++) {
			const char *name = c[k].sym[i].name;

			if ((k && kf_config_get(&c[0], name)) ||
			    kf_config_find(&c[k], name) != &c[k].sym[i] ||
			    kf_value_equal(kf_config_value(&c[0], name), kf_config_value(&c[1], name)))
				continue;
			print_setting("edited", &c[0], name);
			print_setting("merged", &c[1], name);
			differ = 1;
		}
	kf_config_free(&c[0]);
	kf_config_free(&c[1]);
	return differ;
}

/* The i-th word of the white-space separated list (NULL past the end),
 * malloc'ed. */
static char *word_at(const char *list, size_t i)
{
	for (const char *p = list;;) {
		size_t w;

		p += strspn(p, " \t");
		if (!*p)
			return NULL;
		w = strcspn(p, " \t");
		if (!i--)
			return kf_xstrndup(p, w);
		p += w;
	}
}

/* The fragment file the edits go to (see target above), malloc'ed; NULL
 * when to names no fragment of the recipe. */
static char *pick_target(const char *flavour, const char *to, const char *names,
			 const char *files)
{
	char *want = *to ? kf_xstrdup(to) : kf_xasprintf("flavour-%s", flavour);
	char *name, *file = NULL;

	for (size_t i = 0; !file && (name = word_at(names, i)); i++) {
		if (!strcmp(name, want)) {
			file = word_at(files, i);
			if (!file)
				kf_die(2, "fragment %s has no file among \"%s\"; the lists NAMES and FILES must match",
				       name, files);
		}
		free(name);
	}
	if (!file && !*to)
		file = kf_xasprintf("fragments/%s.config", want);
	free(want);
	return file;
}

static int cmd_target(int argc, char **argv)
{
	char *file;

	if (argc != 4)
		kf_die(2, "usage: savefragment target FLAVOUR TO NAMES FILES");
	file = pick_target(argv[0], argv[1], argv[2], argv[3]);
	if (!file) {
		struct strbuf names = { 0 };
		char *name;

		for (size_t i = 0; (name = word_at(argv[2], i)); i++) {
			sb_addf(&names, "%s%s", i ? " " : "", name);
			free(name);
		}
		fprintf(stderr, "kflavour: savefragment %s: to=%s is not a fragment of flavours/%s.flavour (fragments: %s); name one of those\n",
			argv[0], argv[1], argv[0], names.s ? names.s : "");
		free(names.s);
		return 2;
	}
	puts(file);
	free(file);
	return 0;
}

/* The "also run" lines of 'others' for the trees in dir (defconfigs/)
 * other than kver, each flavour of flavours[0..n). */
static void other_trees(struct strbuf *out, const char *dir, const char *kver,
			char **flavours, size_t n)
{
	size_t nk;
	char **kvers = kf_dir_names(dir, "", &nk);

	for (size_t k = 0; k < nk; k++) {
		for (size_t i = 0; i < n && strcmp(kvers[k], kver) != 0; i++) {
			char *p = kf_xasprintf("%s/%s/%s_defconfig", dir, kvers[k], flavours[i]);
			struct stat st;

			if (!stat(p, &st) && S_ISREG(st.st_mode))
				sb_addf(out, "  SAVE    also run: make defconfigs flavour=%s kver=%s (its defconfig comes from the same fragments)\n",
					flavours[i], kvers[k]);
			free(p);
		}
		free(kvers[k]);
	}
	free(kvers);
}

static int cmd_others(int argc, char **argv)
{
	struct strbuf out = { 0 };

	if (argc < 1)
		kf_die(2, "usage: savefragment others KVER FLAVOUR...");
	other_trees(&out, "defconfigs", argv[0], argv + 1, (size_t)(argc - 1));
	if (out.s)
		fputs(out.s, stdout);
	free(out.s);
	return 0;
}

int main(int argc, char **argv)
{
	kf_prog = "kflavour savefragment";
	if (argc < 2)
		kf_die(2, "usage: savefragment target|changes|apply|add-fragment|compare|others ...");
	if (!strcmp(argv[1], "changes"))
		return cmd_changes(argc - 2, argv + 2);
	if (!strcmp(argv[1], "apply"))
		return cmd_apply(argc - 2, argv + 2);
	if (!strcmp(argv[1], "add-fragment"))
		return cmd_add_fragment(argc - 2, argv + 2);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 2, argv + 2);
	if (!strcmp(argv[1], "target"))
		return cmd_target(argc - 2, argv + 2);
	if (!strcmp(argv[1], "others"))
		return cmd_others(argc - 2, argv + 2);
	kf_die(2, "unknown command '%s'; use target, changes, apply, add-fragment, compare or others", argv[1]);
}
