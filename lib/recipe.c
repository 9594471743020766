// SPDX-License-Identifier: GPL-2.0
/*
 * recipe.c - read and write a flavour recipe (flavours/<name>.flavour).
 *
 * A recipe is "key = value" lines; '#' starts a comment line. Every recipe
 * has the same eight keys, so one recipe read teaches them all. base says
 * what the fragments merge onto; group names the set of flavours it is made
 * with (plain make: group default). A write is checked by the same parser
 * as a read, so no tool writes a recipe the others cannot read.
 */
#include "kf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const kf_recipe_keys[KF_NR_KEYS] = {
	[KF_DESCRIPTION] = "description",
	[KF_FRAGMENTS] = "fragments",
	[KF_CPU] = "cpu",
	[KF_MEMORY] = "memory",
	[KF_SMP] = "smp",
	[KF_CMDLINE] = "cmdline",
	[KF_BASE] = "base",
	[KF_GROUP] = "group",
};

static const char *all_keys = "description, fragments, cpu, memory, smp, cmdline, base, group";
#define KEY_WIDTH 11	/* strlen("description"), the longest key */

static int key_index(const char *key)
{
	for (int i = 0; i < KF_NR_KEYS; i++)
		if (!strcmp(key, kf_recipe_keys[i]))
			return i;
	return -1;
}

static int is_recipe_path(const char *path)
{
	size_t n = strlen(path), k = strlen(".flavour");

	return n > k && !strcmp(path + n - k, ".flavour");
}

char *kf_flavour_of(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (!is_recipe_path(path))
		return kf_xstrdup(base);
	return kf_xstrndup(base, strlen(base) - strlen(".flavour"));
}

/* tinyconfig, debian:<name> or file:<path>: the form, not the file. */
static int check_base(const struct kf_recipe *r, char *err, size_t errlen)
{
	const char *b = r->value[KF_BASE];

	if (!strcmp(b, "tinyconfig") ||
	    (!strncmp(b, "debian:", 7) && b[7] && !strpbrk(b + 7, "/ \t")) ||
	    (!strncmp(b, "file:", 5) && b[5] && b[5] != '/' && !strstr(b, "..")))
		return 0;
	snprintf(err, errlen,
		 "%s:%d: base '%s' is not tinyconfig, debian:<name> (e.g. debian:amd64_none_cloud-amd64) or file:<path> (relative to the checkout, no '..')",
		 r->path, r->line[KF_BASE], b);
	return -1;
}

/* "<digits>[M|G]" in MiB (QEMU's unit when none is given); 0 when bad. */
static unsigned long size_mib(const char *s, const char *end)
{
	unsigned long n = 0;
	const char *p = s;

	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (n > 1UL << 40)
			return 0;
		n = n * 10 + (unsigned long)(*p - '0');
	}
	if (p == s)
		return 0;
	if (p < end && (*p == 'G' || *p == 'g')) {
		n *= 1024;
		p++;
	} else if (p < end && (*p == 'M' || *p == 'm')) {
		p++;
	}
	return p == end ? n : 0;
}

int kf_recipe_memory_split(const char *s, unsigned long *low_mib,
			   unsigned long *high_mib)
{
	const char *plus = strchr(s, '+');

	if (!plus)
		return 0;
	*low_mib = size_mib(s, plus);
	*high_mib = size_mib(plus + 1, plus + strlen(plus));
	return *low_mib && *high_mib ? 1 : -1;
}

/*
 * Only the "<low>+<high>" form is ours to check; the plain one is QEMU's.
 * QEMU's pc machine keeps the top of the first 4 GiB for PCI: with 3.5 GiB
 * of RAM or more it puts at most 3 GiB below, whatever low says.
 */
static int check_memory(const struct kf_recipe *r, char *err, size_t errlen)
{
	unsigned long low, high;
	int split = kf_recipe_memory_split(r->value[KF_MEMORY], &low, &high);

	if (split == 0 || (split > 0 && low <= 3072))
		return 0;
	snprintf(err, errlen, split > 0 ?
		 "%s:%d: memory '%s': at most 3G fit below 4 GiB; put the rest above, e.g. 'memory = 3G+2G'" :
		 "%s:%d: memory '%s' is not '<size>' or '<below 4G>+<above 4G>' with sizes like 512M or 1G; e.g. 'memory = 1G+256M'",
		 r->path, r->line[KF_MEMORY], r->value[KF_MEMORY]);
	return -1;
}

/* One word a make variable can carry: letters, digits, '-', '_'. */
static int check_group(const struct kf_recipe *r, char *err, size_t errlen)
{
	const char *g = r->value[KF_GROUP];

	if (g[strspn(g, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")] == '\0')
		return 0;
	snprintf(err, errlen, "%s:%d: group '%s' is not one word of letters, digits, '-' and '_'; e.g. 'group = default'",
		 r->path, r->line[KF_GROUP], g);
	return -1;
}

int kf_flavour_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > KF_FLAVOUR_NAME_MAX || s[0] == '-' || s[0] == '_')
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

void kf_recipe_free(struct kf_recipe *r)
{
	free(r->name);
	free(r->path);
	for (int i = 0; i < KF_NR_KEYS; i++)
		free(r->value[i]);
	memset(r, 0, sizeof(*r));
}

/* Parse text as the recipe at path (its name comes from path). */
static int recipe_parse(const char *path, const char *text, struct kf_recipe *r,
			char *err, size_t errlen)
{
	char *buf = kf_xstrdup(text), *line, *save = NULL;
	int lineno = 0;

	memset(r, 0, sizeof(*r));
	r->path = kf_xstrdup(path);
	if (!is_recipe_path(path)) {
		snprintf(err, errlen, "%s: not a recipe: a flavour is a file flavours/<name>.flavour; "
			 "rename the file", path);
		r->name = NULL;
		goto fail;
	}
	r->name = kf_flavour_of(path);
	if (!kf_flavour_name_ok(r->name)) {
		snprintf(err, errlen, "%s: '%s' is not a flavour name: use %s; rename the file",
			 path, r->name, KF_FLAVOUR_NAME_RULE);
		goto fail;
	}

	/* strtok_r would merge empty lines and lose line numbers: split by hand. */
	for (line = buf; line; line = save) {
		char *nl = strchr(line, '\n'), *eq, *key, *val;
		int k;

		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		else if (!*line)
			break;	/* after the last newline: no line */
		lineno++;
		key = kf_trim(line);
		if (!*key || *key == '#')
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			snprintf(err, errlen,
				 "%s:%d: '%s' is not 'key = value'; write e.g. 'cpu = qemu64'",
				 path, lineno, key);
			goto fail;
		}
		*eq = '\0';
		val = kf_trim(eq + 1);
		key = kf_trim(key);
		k = key_index(key);
		if (k < 0) {
			snprintf(err, errlen,
				 "%s:%d: unknown key '%s'; a recipe has exactly: %s",
				 path, lineno, key, all_keys);
			goto fail;
		}
		if (r->value[k]) {
			snprintf(err, errlen,
				 "%s:%d: '%s' set again (first on line %d); keep one",
				 path, lineno, key, r->line[k]);
			goto fail;
		}
		r->value[k] = kf_xstrdup(val);
		r->line[k] = lineno;
	}
	for (int i = 0; i < KF_NR_KEYS; i++) {
		if (!r->value[i]) {
			snprintf(err, errlen,
				 "%s:%d: required key '%s' is missing; add a line '%s = ...'",
				 path, lineno + 1, kf_recipe_keys[i], kf_recipe_keys[i]);
			goto fail;
		}
		if (i != KF_CMDLINE && !*r->value[i]) {
			snprintf(err, errlen, "%s:%d: '%s' is empty; give it a value",
				 path, r->line[i], kf_recipe_keys[i]);
			goto fail;
		}
	}
	if (check_base(r, err, errlen) < 0 || check_memory(r, err, errlen) < 0 ||
	    check_group(r, err, errlen) < 0)
		goto fail;
	free(buf);
	return 0;
fail:
	free(buf);
	kf_recipe_free(r);
	return -1;
}

int kf_recipe_read(const char *path, struct kf_recipe *r, char *err,
		   size_t errlen)
{
	char *text = kf_read_file(path, NULL);
	int rc;

	if (!text) {
		memset(r, 0, sizeof(*r));
		snprintf(err, errlen, "%s: %s; a flavour is a file flavours/<name>.flavour",
			 path, strerror(errno));
		return -1;
	}
	rc = recipe_parse(path, text, r, err, errlen);
	free(text);
	return rc;
}

void kf_recipe_set(struct kf_recipe *r, enum kf_recipe_key key, const char *value)
{
	free(r->value[key]);
	r->value[key] = kf_xstrdup(value);
}

/* "key = value" as a new recipe line: the '=' under the longest key's. */
static void add_key_line(struct strbuf *sb, int k, const char *value)
{
	sb_addf(sb, "%-*s =%s%s\n", KEY_WIDTH, kf_recipe_keys[k], *value ? " " : "", value);
}

/* The lines of text, each key whose value r changes rewritten. */
static void edit_lines(struct strbuf *sb, const char *text, const struct kf_recipe *old,
		       const struct kf_recipe *r)
{
	int lineno = 0;

	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n"), eq = strcspn(p, "=");
		int k;

		lineno++;
		for (k = 0; k < KF_NR_KEYS; k++)
			if (old->line[k] == lineno && r->value[k] && strcmp(r->value[k], old->value[k]) != 0)
				break;
		if (k < KF_NR_KEYS)	/* "fragments   =": as it was, then the value */
			sb_addf(sb, "%.*s%s%s\n", (int)eq + 1, p, *r->value[k] ? " " : "", r->value[k]);
		else
			sb_addn(sb, p, len + (p[len] == '\n'));
		p += len + (p[len] == '\n');
	}
}

int kf_recipe_write(const char *path, const struct kf_recipe *r, const char *header,
		    char *err, size_t errlen)
{
	struct kf_recipe old;
	struct strbuf sb = { 0 };
	char *text = kf_read_file(path, NULL);
	int rc = -1;

	if (!text && errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (text) {
		if (recipe_parse(path, text, &old, err, errlen) < 0)
			goto out;
		edit_lines(&sb, text, &old, r);
		kf_recipe_free(&old);
	} else {
		sb_add(&sb, header ? header : "");
		for (int k = 0; k < KF_NR_KEYS; k++)
			if (r->value[k])
				add_key_line(&sb, k, r->value[k]);
	}
	/* What the readers will make of it, before anyone can read it. */
	if (recipe_parse(path, sb.s ? sb.s : "", &old, err, errlen) < 0)
		goto out;
	kf_recipe_free(&old);
	if (kf_write_atomic(path, sb.s, sb.len) < 0)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	else
		rc = 0;
out:
	free(sb.s);
	free(text);
	return rc;
}
