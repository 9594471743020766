// SPDX-License-Identifier: GPL-2.0
/*
 * edit - the logic behind 'make savefragment' and 'make newflavour'
 * (config/edit.mk; the shell scripts only run the tree's make and diff).
 *
 *   edit changes MERGED EDITED MERGED_DEF EDITED_DEF FRAGMENT...
 *       Print, as fragment lines, the smallest set of settings that turns the
 *       merge of FRAGMENT... into EDITED: the set difference of the two
 *       savedefconfig outputs (the tree's own idea of a minimal config), plus
 *       the symbols the fragments request whose final value the edit changed
 *       (a derived symbol such as X86_L1_CACHE_SHIFT), so the audit of the
 *       next merge agrees with the edit.
 *   edit apply FLAVOUR TARGET CHANGES FRAGMENT...
 *       Write CHANGES into fragment TARGET, which is one of FRAGMENT... (the
 *       recipe's merge order): a symbol TARGET already sets is updated in
 *       place, a new one appended; "# kflavour: override" goes before a line
 *       that changes a value an earlier fragment sets, and a line that only
 *       repeats the earlier value is dropped. A change that a later fragment
 *       would undo is an error, and then nothing is written.
 *   edit add-fragment RECIPE NAME
 *       Append NAME to the recipe's "fragments =" line unless it is there.
 *   edit newflavour [--check] NAME CPU MODEL KCONFIG_CPU [SHIFT]
 *       Check NAME, MODEL (boot/cpu-models) and CPU (a processor-family
 *       choice of the tree's arch/x86/Kconfig.cpu, usable on x86-64); with
 *       --check print the choice's prompt, else write flavours/NAME.flavour
 *       (generic's fragments with cpu-NAME for its cpu fragment) and
 *       fragments/cpu-NAME.config (CONFIG_<CPU>=y, and the tree's
 *       X86_L1_CACHE_SHIFT for it when SHIFT is given).
 *
 * Exit status: 0 done, 1 refused (nothing written), 2 bad arguments or input.
 */
#include "fragment.h"
#include "../lib/kf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CPU_MODELS "boot/cpu-models"
#define GENERIC_RECIPE "flavours/generic.flavour"

/* A config or defconfig as an ordered list of symbol = value ("n": unset). */
struct cfg {
	char **name, **value;
	size_t n;
};

static void cfg_free(struct cfg *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->name[i]);
		free(c->value[i]);
	}
	free(c->name);
	free(c->value);
	memset(c, 0, sizeof(*c));
}

static void cfg_read(struct cfg *c, const char *path)
{
	char *text = kf_read_file(path, NULL), *line, *next, err[1024];
	int lineno = 0;

	memset(c, 0, sizeof(*c));
	if (!text)
		kf_die(2, "%s: %s", path, strerror(errno));
	for (line = text; line && *line; line = next) {
		struct kf_line l;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (kf_parse_line(line, &l, err, sizeof(err)) < 0)
			kf_die(2, "%s:%d: %s", path, lineno, err);
		if (l.kind != KF_LINE_SET && l.kind != KF_LINE_UNSET)
			continue;
		c->name = kf_xrealloc(c->name, (c->n + 1) * sizeof(*c->name));
		c->value = kf_xrealloc(c->value, (c->n + 1) * sizeof(*c->value));
		c->name[c->n] = kf_xasprintf("%.*s", (int)l.name_len, l.name);
		c->value[c->n++] = kf_xasprintf("%.*s", (int)l.value_len, l.value);
	}
	free(text);
}

static const char *cfg_get(const struct cfg *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->name[i], name))
			return c->value[i];
	return NULL;
}

/* Kconfig values equal: numbers by value (0x10 == 16), the rest as text. */
static int same(const char *a, const char *b)
{
	char *ea, *eb;
	long long x, y;

	if (!strcmp(a, b))
		return 1;
	if (*a == '"' || *b == '"' || !*a || !*b)
		return 0;
	errno = 0;
	x = strtoll(a, &ea, 0);
	y = strtoll(b, &eb, 0);
	return !errno && !*ea && !*eb && x == y;
}

/* The fragment line for name = value. */
static char *setting_line(const char *name, const char *value)
{
	if (!strcmp(value, "n"))
		return kf_xasprintf("# CONFIG_%s is not set", name);
	return kf_setting_str(name, value);
}

/* Add name = value to out unless name is there already. */
static void cfg_add(struct cfg *out, const char *name, const char *value)
{
	if (cfg_get(out, name))
		return;
	out->name = kf_xrealloc(out->name, (out->n + 1) * sizeof(*out->name));
	out->value = kf_xrealloc(out->value, (out->n + 1) * sizeof(*out->value));
	out->name[out->n] = kf_xstrdup(name);
	out->value[out->n++] = kf_xstrdup(value);
}

static int cmd_changes(int argc, char **argv)
{
	struct cfg merged, edited, mdef, edef, out = { 0 };
	struct kf_fragset fs;

	if (argc < 4)
		kf_die(2, "usage: edit changes MERGED EDITED MERGED_DEF EDITED_DEF FRAGMENT...");
	cfg_read(&merged, argv[0]);
	cfg_read(&edited, argv[1]);
	cfg_read(&mdef, argv[2]);
	cfg_read(&edef, argv[3]);

	/* Settings savedefconfig keeps for the edit and not for the merge. */
	for (size_t i = 0; i < edef.n; i++) {
		const char *was = cfg_get(&mdef, edef.name[i]);

		if (!was || !same(was, edef.value[i]))
			cfg_add(&out, edef.name[i], edef.value[i]);
	}
	/* Settings the merge needed that the edit put back to the default. */
	for (size_t i = 0; i < mdef.n; i++) {
		const char *now = cfg_get(&edited, mdef.name[i]);
		const char *was = cfg_get(&merged, mdef.name[i]);

		if (cfg_get(&edef, mdef.name[i]))
			continue;
		if (!same(now ? now : "n", was ? was : "n"))
			cfg_add(&out, mdef.name[i], now ? now : "n");
	}
	/* Symbols the fragments request whose final value the edit changed. */
	kf_fragset_init(&fs);
	for (int i = 4; i < argc; i++)
		kf_fragset_add(&fs, argv[i], NULL);
	for (size_t i = 0; i < fs.nset; i++) {
		const char *now = cfg_get(&edited, fs.set[i].name);
		const char *was = cfg_get(&merged, fs.set[i].name);

		if (!same(now ? now : "n", was ? was : "n") &&
		    !same(now ? now : "n", fs.set[i].value))
			cfg_add(&out, fs.set[i].name, now ? now : "n");
	}
	for (size_t i = 0; i < out.n; i++) {
		char *l = setting_line(out.name[i], out.value[i]);

		puts(l);
		free(l);
	}
	kf_fragset_free(&fs);
	cfg_free(&merged);
	cfg_free(&edited);
	cfg_free(&mdef);
	cfg_free(&edef);
	cfg_free(&out);
	return 0;
}

/* A text as lines (NULL: deleted), so lines can be replaced and inserted. */
struct text {
	char **line;
	size_t n;
};

static void text_split(struct text *t, const char *s)
{
	char *buf = kf_xstrdup(s), *line, *next;

	memset(t, 0, sizeof(*t));
	for (line = buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		t->line = kf_xrealloc(t->line, (t->n + 1) * sizeof(*t->line));
		t->line[t->n++] = kf_xstrdup(line);
	}
	free(buf);
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

static char *text_join(const struct text *t, size_t *len)
{
	size_t n = 0, off = 0;
	char *s;

	for (size_t i = 0; i < t->n; i++)
		if (t->line[i])
			n += strlen(t->line[i]) + 1;
	s = kf_xmalloc(n + 1);
	for (size_t i = 0; i < t->n; i++) {
		if (!t->line[i])
			continue;
		off += (size_t)sprintf(s + off, "%s\n", t->line[i]);
	}
	s[off] = '\0';
	*len = off;
	return s;
}

static void text_free(struct text *t)
{
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
	int redundant = e && same(e->value, value);
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
		text_insert(t, t->n, setting_line(name, value));
	} else {
		free(t->line[first]);
		t->line[first] = setting_line(name, value);
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
	struct cfg changes;
	char *text, *joined;
	int at = -1, refused = 0;
	size_t len;

	if (argc < 4)
		kf_die(2, "usage: edit apply FLAVOUR TARGET CHANGES FRAGMENT...");
	flavour = argv[0];
	target = argv[1];
	changes_path = argv[2];
	for (int i = 3; i < argc && at < 0; i++)
		if (!strcmp(argv[i], target))
			at = i;
	if (at < 0)
		kf_die(2, "%s is not among the fragments given", target);
	kf_fragset_init(&earlier);
	kf_fragset_init(&later);
	for (int i = 3; i < at; i++)
		kf_fragset_add(&earlier, argv[i], NULL);
	for (int i = at + 1; i < argc; i++)
		kf_fragset_add(&later, argv[i], NULL);
	cfg_read(&changes, changes_path);

	for (size_t i = 0; i < changes.n; i++) {
		const struct kf_setting *l = kf_fragset_find(&later, changes.name[i]);

		if (l && !same(l->value, changes.value[i])) {
			char *want = setting_line(changes.name[i], changes.value[i]);
			char *wins = setting_line(l->name, l->value);

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
	free(text);
	for (size_t i = 0; i < changes.n; i++)
		apply_one(&t, target, changes.name[i], changes.value[i], &earlier);
	joined = text_join(&t, &len);
	if (kf_write_atomic(target, joined, len) < 0)
		kf_die(2, "%s: %s", target, strerror(errno));
	free(joined);
	text_free(&t);
	cfg_free(&changes);
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
	struct text t;
	char err[1024], *text, *joined;
	size_t len;

	if (argc != 2)
		kf_die(2, "usage: edit add-fragment RECIPE NAME");
	if (kf_recipe_read(argv[0], &r, err, sizeof(err)) < 0)
		kf_die(2, "%s", err);
	if (has_word(r.value[KF_FRAGMENTS], argv[1])) {
		kf_recipe_free(&r);
		return 0;
	}
	text = kf_read_file(argv[0], NULL);
	if (!text)
		kf_die(2, "%s: %s", argv[0], strerror(errno));
	text_split(&t, text);
	free(text);
	/* The recipe reader found the line; lines are 1-based. */
	if (!t.line || r.line[KF_FRAGMENTS] < 1 || (size_t)r.line[KF_FRAGMENTS] > t.n)
		kf_die(2, "%s changed while being read; run again", argv[0]);
	{
		char **l = &t.line[r.line[KF_FRAGMENTS] - 1];
		char *s = kf_trim(*l), *grown = kf_xasprintf("%s %s", s, argv[1]);

		free(*l);
		*l = grown;
	}
	joined = text_join(&t, &len);
	if (kf_write_atomic(argv[0], joined, len) < 0)
		kf_die(2, "%s: %s", argv[0], strerror(errno));
	free(joined);
	text_free(&t);
	kf_recipe_free(&r);
	return 0;
}

/* One entry of the processor-family choice of arch/x86/Kconfig.cpu. */
struct cpu_choice {
	char *sym, *prompt;
	int only32;		/* "depends on X86_32" */
};

/*
 * The members of the 'choice' whose prompt is "Processor family". A plain
 * scan of the file suffices: that block is literal Kconfig syntax ("choice",
 * "config NAME", "bool "...", "depends on", "endchoice" at line starts), and
 * whether a symbol is declared inside it is a fact of the text, not of any
 * configuration. What a choice implies (usable on x86-64, its cache line) is
 * left to the tree's own kconfig: newflavour.sh evaluates it.
 */
static size_t read_choices(const char *path, struct cpu_choice **out)
{
	char *text = kf_read_file(path, NULL), *line, *next;
	int in_choice = 0, family = 0;
	struct cpu_choice *v = NULL;
	size_t n = 0, start = 0;

	if (!text)
		kf_die(2, "%s: %s; prepare the tree first (make tree)", path, strerror(errno));
	for (line = text; line; line = next) {
		char *s;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		s = kf_trim(line);
		if (!strcmp(s, "choice")) {
			in_choice = 1;
			family = 0;
			start = n;
		} else if (!strcmp(s, "endchoice")) {
			if (!family) {
				for (size_t i = start; i < n; i++) {
					free(v[i].sym);
					free(v[i].prompt);
				}
				n = start;
			}
			in_choice = 0;
		} else if (in_choice && !strncmp(s, "prompt \"Processor family\"", 25)) {
			family = 1;
		} else if (in_choice && !strncmp(s, "config ", 7)) {
			v = kf_xrealloc(v, (n + 1) * sizeof(*v));
			v[n].sym = kf_xstrdup(kf_trim(s + 7));
			v[n].prompt = NULL;
			v[n++].only32 = 0;
		} else if (in_choice && n > start && !v[n - 1].prompt &&
			   !strncmp(s, "bool \"", 6)) {
			char *q = strrchr(s + 6, '"');

			v[n - 1].prompt = kf_xasprintf("%.*s", q ? (int)(q - s - 6) : 0, s + 6);
		} else if (in_choice && n > start && !strcmp(s, "depends on X86_32")) {
			v[n - 1].only32 = 1;
		}
	}
	free(text);
	*out = v;
	return n;
}

static int model_known(const char *name, char **all)
{
	char *text = kf_read_file(CPU_MODELS, NULL), *line, *next;
	int found = 0;

	if (!text)
		kf_die(2, "%s: %s", CPU_MODELS, strerror(errno));
	*all = kf_xstrdup("");
	for (line = text; line; line = next) {
		char word[64], *grown;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (*line == '#' || sscanf(line, "%63s", word) != 1)
			continue;
		found |= !strcmp(word, name);
		grown = kf_xasprintf("%s%s%s", *all, **all ? " " : "", word);
		free(*all);
		*all = grown;
	}
	free(text);
	return found;
}

/* The models whose expected verdict is 'pass' (malloc'ed, space-separated);
 * *expect gets name's own expected verdict (malloc'ed; "" if not found). */
static char *passing_models(const char *name, char **expect)
{
	char *text = kf_read_file(CPU_MODELS, NULL), *line, *next, *all = kf_xstrdup("");

	if (!text)
		kf_die(2, "%s: %s", CPU_MODELS, strerror(errno));
	*expect = kf_xstrdup("");
	for (line = text; line; line = next) {
		char word[64], verdict[32], *grown;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (*line == '#' || sscanf(line, "%63s %31s", word, verdict) != 2)
			continue;
		if (!strcmp(word, name)) {
			free(*expect);
			*expect = kf_xstrdup(verdict);
		}
		if (strcmp(verdict, "pass") != 0)
			continue;
		grown = kf_xasprintf("%s%s%s", all, *all ? " " : "", word);
		free(all);
		all = grown;
	}
	free(text);
	return all;
}

/* generic's fragment list with its cpu-* fragment replaced by cpu-NAME. */
static char *scaffold_fragments(const char *name)
{
	struct kf_recipe r;
	char err[1024], *list, *save = NULL, *out = kf_xstrdup("");
	int replaced = 0;

	if (kf_recipe_read(GENERIC_RECIPE, &r, err, sizeof(err)) < 0)
		kf_die(2, "%s (newflavour copies its fragment list)", err);
	list = kf_xstrdup(r.value[KF_FRAGMENTS]);
	for (char *f = strtok_r(list, " \t", &save); f; f = strtok_r(NULL, " \t", &save)) {
		char *grown, *word = f;

		if (!strncmp(f, "cpu-", 4)) {
			word = kf_xasprintf("cpu-%s", name);
			replaced = 1;
		}
		grown = kf_xasprintf("%s%s%s", out, *out ? " " : "", word);
		if (word != f)
			free(word);
		free(out);
		out = grown;
	}
	free(list);
	kf_recipe_free(&r);
	if (!replaced)
		kf_die(2, "%s has no cpu-* fragment to replace; newflavour copies generic's list", GENERIC_RECIPE);
	return out;
}

static void write_new(const char *path, const char *text)
{
	if (kf_write_atomic(path, text, strlen(text)) < 0)
		kf_die(2, "%s: %s", path, strerror(errno));
}

static int name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 32 || s[0] == '-' || s[0] == '_')
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

static int cmd_newflavour(int argc, char **argv)
{
	int check = argc > 0 && !strcmp(argv[0], "--check");
	const char *name, *cpu, *model, *kconfig, *shift;
	char *recipe, *fragment, *models, *list, *fragtext, *recipetext, *cpu64 = NULL;
	struct cpu_choice *c;
	const struct cpu_choice *hit = NULL;
	size_t n;

	argc -= check;
	argv += check;
	if (argc < 4 || argc > 5)
		kf_die(2, "usage: edit newflavour [--check] NAME CPU MODEL KCONFIG_CPU [SHIFT]");
	name = argv[0];
	cpu = argv[1];
	model = argv[2];
	kconfig = argv[3];
	shift = argc == 5 && *argv[4] ? argv[4] : NULL;
	if (!strncmp(cpu, "CONFIG_", 7))
		cpu += 7;

	if (!name_ok(name))
		kf_die(2, "name '%s' is not a flavour name: use lowercase letters, digits, '_' and '-' "
		       "(starting with a letter or digit, at most 32), e.g. name=core2", name);
	recipe = kf_xasprintf("flavours/%s.flavour", name);
	fragment = kf_xasprintf("fragments/cpu-%s.config", name);
	if (!access(recipe, F_OK))
		kf_die(2, "%s already exists; newflavour never overwrites a flavour: "
		       "pick another name, or edit that recipe", recipe);
	if (!access(fragment, F_OK))
		kf_die(2, "%s already exists; newflavour never overwrites a fragment: "
		       "pick another name, or remove it", fragment);
	if (!model_known(model, &models))
		kf_die(2, "model '%s' is not a CPU model in %s; use one of: %s",
		       model, CPU_MODELS, models);
	free(models);
	/* A flavour is booted on its model and must pass there. */
	{
		char *expect, *passing = passing_models(model, &expect);

		if (strcmp(expect, "pass") != 0)
			kf_die(2, "model '%s' is expected to give '%s' (%s), so the new flavour could never boot on it; use a model that passes: %s",
			       model, expect, CPU_MODELS, passing);
		free(expect);
		free(passing);
	}

	n = read_choices(kconfig, &c);
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(c[i].sym, cpu))
			hit = &c[i];
		if (!c[i].only32) {
			char *grown = kf_xasprintf("%s%s%s", cpu64 ? cpu64 : "",
						   cpu64 ? " " : "", c[i].sym);

			free(cpu64);
			cpu64 = grown;
		}
	}
	if (!n)
		kf_die(2, "%s has no 'Processor family' choice; is it an x86 tree?", kconfig);
	if (!hit)
		kf_die(2, "cpu '%s' is not a processor-family choice in %s; "
		       "x86-64 choices in this tree: %s", cpu, kconfig, cpu64);
	if (hit->only32)
		kf_die(2, "cpu '%s' (%s) is a 32-bit processor family in %s (depends on X86_32); "
		       "x86-64 choices in this tree: %s", cpu, hit->prompt ? hit->prompt : "",
		       kconfig, cpu64);
	if (check) {
		printf("%s\n", hit->prompt ? hit->prompt : cpu);
		goto out;
	}

	fragtext = kf_xasprintf(
		"# cpu-%s: Kconfig's \"%s\" processor-family choice (%s) in\n"
		"# arch/x86/Kconfig.cpu, for the %s flavour (scaffolded by make newflavour).\n"
		"CONFIG_%s=y\n",
		name, hit->prompt ? hit->prompt : cpu, cpu, name, cpu);
	if (shift) {
		char *more = kf_xasprintf(
			"%s# The tree's X86_L1_CACHE_SHIFT for %s (its kconfig evaluated\n"
			"# arch/x86/Kconfig.cpu): %d-byte L1 lines. Requested so the audit checks it.\n"
			"CONFIG_X86_L1_CACHE_SHIFT=%s\n",
			fragtext, cpu, 1 << atoi(shift), shift);

		free(fragtext);
		fragtext = more;
	}
	list = scaffold_fragments(name);
	recipetext = kf_xasprintf(
		"# %s: Kconfig's \"%s\" choice (%s), booted on the %s CPU model.\n"
		"# Scaffolded by 'make newflavour' from generic's fragments; say here what\n"
		"# the flavour is for.\n"
		"description = %s (%s)\n"
		"fragments   = %s\n"
		"cpu         = %s\n"
		"memory      = 512M\n"
		"smp         = 2\n"
		"cmdline     =\n"
		"base        = tinyconfig\n"
		"group       = default\n",
		name, hit->prompt ? hit->prompt : cpu, cpu, model,
		hit->prompt ? hit->prompt : cpu, cpu, list, model);
	/* The fragment first: a recipe without its fragment would break make. */
	write_new(fragment, fragtext);
	if (kf_write_atomic(recipe, recipetext, strlen(recipetext)) < 0) {
		int e = errno;

		unlink(fragment);
		kf_die(2, "%s: %s", recipe, strerror(e));
	}
	printf("  NEW     %s\n  NEW     %s\n", recipe, fragment);
	free(fragtext);
	free(recipetext);
	free(list);
out:
	for (size_t i = 0; i < n; i++) {
		free(c[i].sym);
		free(c[i].prompt);
	}
	free(c);
	free(cpu64);
	free(recipe);
	free(fragment);
	return 0;
}

int main(int argc, char **argv)
{
	kf_prog = "kflavour";
	if (argc > 1 && !strcmp(argv[1], "newflavour"))
		kf_prog = "kflavour newflavour";
	else if (argc > 1)
		kf_prog = "kflavour savefragment";
	if (argc < 2)
		kf_die(2, "usage: edit changes|apply|add-fragment|newflavour ...");
	if (!strcmp(argv[1], "changes"))
		return cmd_changes(argc - 2, argv + 2);
	if (!strcmp(argv[1], "apply"))
		return cmd_apply(argc - 2, argv + 2);
	if (!strcmp(argv[1], "add-fragment"))
		return cmd_add_fragment(argc - 2, argv + 2);
	if (!strcmp(argv[1], "newflavour"))
		return cmd_newflavour(argc - 2, argv + 2);
	kf_die(2, "unknown command '%s'; use changes, apply, add-fragment or newflavour", argv[1]);
}
