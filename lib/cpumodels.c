// SPDX-License-Identifier: GPL-2.0
/* cpumodels.c - read boot/cpu-models (cpumodels.h). */
#include "cpumodels.h"
#include "kf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...) (snprintf(err, errlen, __VA_ARGS__), -1)
#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"

void kf_cpu_models_free(struct kf_cpu_models *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->m[i].name);
		free(t->m[i].expect);
		free(t->m[i].cpu_string);
		free(t->m[i].text);
	}
	free(t->m);
	memset(t, 0, sizeof(*t));
}

const struct kf_cpu_model *kf_cpu_model_find(const struct kf_cpu_models *t,
					     const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->m[i].name, name))
			return &t->m[i];
	return NULL;
}

char *kf_cpu_model_names(const struct kf_cpu_models *t, const char *expect)
{
	struct strbuf sb = { 0 };

	sb_add(&sb, "");
	for (size_t i = 0; i < t->n; i++)
		if (!expect || !strcmp(t->m[i].expect, expect))
			sb_addf(&sb, "%s%s", sb.len ? " " : "", t->m[i].name);
	return sb.s;
}

/* What is wrong with the model line s (split into name, expect, cpu), or
 * 0; the message in err. */
static int check_line(const struct kf_cpu_models *t, const char *s,
		      const char *name, const char *expect, const char *cpu,
		      const char *path, int lineno, char *err, size_t errlen)
{
	const struct kf_cpu_model *dup = kf_cpu_model_find(t, name);

	if (!*expect || !*cpu)
		return FAIL("%s:%d: '%s' is not 'name expect -cpu-string'; write e.g. 'core2 pass core2duo'",
			    path, lineno, s);
	if (strspn(name, NAME_CHARS) != strlen(name))
		return FAIL("%s:%d: model name '%s' may hold letters, digits, '_', '.' and '-' only (it names files and make targets); rename it",
			    path, lineno, name);
	if (strcmp(expect, "pass") != 0 && strcmp(expect, "refused") != 0)
		return FAIL("%s:%d: %s expects '%s'; the expected verdict is pass, or refused for a CPU without long mode",
			    path, lineno, name, expect);
	if (strpbrk(cpu, "#'$"))
		return FAIL("%s:%d: the -cpu string of %s holds '%c'; comments go on lines of their own, and QEMU's -cpu needs no quotes or '$'",
			    path, lineno, name, *strpbrk(cpu, "#'$"));
	if (dup)
		return FAIL("%s:%d: model %s is already on line %d; keep one",
			    path, lineno, name, dup->line);
	return 0;
}

/* Check one model line (trimmed, not a comment) and add it to t. */
static int add_line(struct kf_cpu_models *t, const char *s, const char *path,
		    int lineno, char *err, size_t errlen)
{
	char *text = kf_xstrdup(s), *name = kf_xstrdup(s);
	size_t n = strcspn(name, " \t"), e;
	char *expect = name + n + strspn(name + n, " \t"), *cpu;

	e = strcspn(expect, " \t");
	cpu = expect + e + strspn(expect + e, " \t");
	name[n] = '\0';
	if (expect[e])
		expect[e] = '\0';
	if (check_line(t, s, name, expect, cpu, path, lineno, err, errlen) < 0) {
		free(text);
		free(name);
		return -1;
	}
	t->m = kf_xrealloc(t->m, (t->n + 1) * sizeof(*t->m));
	t->m[t->n].name = kf_xstrdup(name);
	t->m[t->n].expect = kf_xstrdup(expect);
	t->m[t->n].cpu_string = kf_xstrdup(cpu);
	t->m[t->n].text = text;
	t->m[t->n++].line = lineno;
	free(name);
	return 0;
}

int kf_cpu_models_read(struct kf_cpu_models *t, const char *path, char *err,
		       size_t errlen)
{
	char *text = kf_read_file(path, NULL), *line, *next;
	int lineno = 0, rc = 0;

	memset(t, 0, sizeof(*t));
	if (!text)
		return FAIL("%s: %s; the CPU model table is boot/cpu-models of the checkout",
			    path, strerror(errno));
	for (line = text; line && *line && !rc; line = next) {
		char *s;

		next = kf_cut_line(line);
		lineno++;
		s = kf_trim(line);
		if (*s && *s != '#')
			rc = add_line(t, s, path, lineno, err, errlen);
	}
	free(text);
	if (!rc && !t->n)
		rc = FAIL("%s: no CPU model; add a line 'name expect -cpu-string'", path);
	if (rc)
		kf_cpu_models_free(t);
	return rc;
}
