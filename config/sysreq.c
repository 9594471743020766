// SPDX-License-Identifier: GPL-2.0
/*
 * sysreq.c - what an init system needs of the kernel, read from its needs
 * file and checked against a final config (sysreq.h). Needs no tree.
 */
#include "sysreq.h"
#include "../lib/kf.h"
#include "../lib/record.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((format(printf, 3, 4)))
static void problem(struct kf_sysreqs *r, int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->err = kf_xrealloc(r->err, (r->nerr + 1) * sizeof(*r->err));
	r->err[r->nerr++] = kf_xasprintf("%s:%d: %s", r->path, line, msg);
}

/* The next word of *s (blanks split), NUL-terminated in place; NULL at the end. */
static char *word(char **s)
{
	char *w = *s + strspn(*s, " \t"), *end;

	if (!*w)
		return NULL;
	end = w + strcspn(w, " \t");
	*s = *end ? end + 1 : end;
	*end = '\0';
	return w;
}

static int valid_name(const char *s)
{
	if (!*s || !strncmp(s, "CONFIG_", 7))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

static int valid_value(const char *v)
{
	return !strcmp(v, "y") || !strcmp(v, "m") || !strcmp(v, "n") || !strcmp(v, "\"\"");
}

/* One requirement line, split already: level and name read. */
static void add_req(struct kf_sysreqs *r, int line, int required, const char *name,
		    char *values, char *rest)
{
	struct kf_sysreq *q;
	char *v, *save = NULL;
	size_t bad = 0;

	if (!valid_name(name)) {
		problem(r, line, "'%s' is not a symbol name; write it without CONFIG_, e.g. CGROUPS", name);
		return;
	}
	r->v = kf_xrealloc(r->v, (r->n + 1) * sizeof(*r->v));
	q = &r->v[r->n++];
	memset(q, 0, sizeof(*q));
	q->required = required;
	q->name = kf_xstrdup(name);
	q->line = line;
	for (v = strtok_r(values, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
		if (!valid_value(v)) {
			problem(r, line, "%s: value '%s' is none of y, m, n, \"\"", name, v);
			bad++;
			continue;
		}
		q->values = kf_xrealloc(q->values, (q->nvalues + 1) * sizeof(*q->values));
		q->values[q->nvalues++] = kf_xstrdup(v);
	}
	if (!q->nvalues && !bad)
		problem(r, line, "%s: no value that does; give VALUES, e.g. y or y,m", name);
	q->note = kf_xstrdup(rest + strspn(rest, " \t"));
}

static void parse_line(struct kf_sysreqs *r, int line, char *s)
{
	char *level, *name, *values;

	if (s[strspn(s, " \t")] == '#' || !(level = word(&s)))
		return;
	if (!strcmp(level, "init")) {
		char *init = word(&s), *version = word(&s);

		if (!init || !version || *s)
			problem(r, line, "'init' wants a name and a version, e.g. 'init systemd 252'");
		else if (r->init)
			problem(r, line, "a second 'init' line; a needs file is one init's");
		else {
			r->init = kf_xstrdup(init);
			r->version = kf_xstrdup(version);
		}
		return;
	}
	if (strcmp(level, "required") != 0 && strcmp(level, "recommended") != 0) {
		problem(r, line, "'%s' is not a level; start the line with required, recommended or init", level);
		return;
	}
	name = word(&s);
	values = name ? word(&s) : NULL;
	if (!values) {
		problem(r, line, "'%s' wants a symbol and its values, e.g. '%s CGROUPS y'", level, level);
		return;
	}
	add_req(r, line, !strcmp(level, "required"), name, values, s);
}

size_t kf_sysreqs_read(struct kf_sysreqs *r, const char *path, const char *text)
{
	char *buf, *s, *nl;
	int line = 0;

	memset(r, 0, sizeof(*r));
	r->path = kf_xstrdup(path);
	buf = text ? kf_xstrdup(text) : kf_read_file(path, NULL);
	if (!buf) {
		problem(r, 0, "%s; it lists what the init needs of the kernel", strerror(errno));
		return r->nerr;
	}
	for (s = buf; s && *s; s = nl) {
		nl = strchr(s, '\n');
		if (nl)
			*nl++ = '\0';
		parse_line(r, ++line, s);
	}
	free(buf);
	if (!r->init)
		problem(r, line, "no 'init NAME VERSION' line; say whose requirements these are");
	return r->nerr;
}

void kf_sysreqs_free(struct kf_sysreqs *r)
{
	for (size_t i = 0; i < r->n; i++) {
		for (size_t k = 0; k < r->v[i].nvalues; k++)
			free(r->v[i].values[k]);
		free(r->v[i].values);
		free(r->v[i].name);
		free(r->v[i].note);
	}
	for (size_t i = 0; i < r->nerr; i++)
		free(r->err[i]);
	free(r->err);
	free(r->v);
	free(r->path);
	free(r->init);
	free(r->version);
	memset(r, 0, sizeof(*r));
}

const char *kf_sysreq_final(const struct kf_sysreq *q, const struct kf_fragset *final)
{
	const struct kf_setting *s = kf_fragset_find(final, q->name);

	return s ? s->value : "n";
}

int kf_sysreq_met(const struct kf_sysreq *q, const struct kf_fragset *final)
{
	const char *v = kf_sysreq_final(q, final);
	int absent = !kf_fragset_find(final, q->name);

	for (size_t k = 0; k < q->nvalues; k++) {
		if (kf_value_equal(v, q->values[k]))
			return 1;
		if (absent && !strcmp(q->values[k], "\"\""))
			return 1;
	}
	return 0;
}

char *kf_sysreq_want(const struct kf_sysreq *q)
{
	struct strbuf sb = { 0 };

	for (size_t k = 0; k < q->nvalues; k++) {
		if (k)
			sb_add(&sb, " or ");
		sb_add(&sb, q->values[k]);
	}
	if (!sb.s)
		sb_add(&sb, "");
	return sb.s;
}

size_t kf_sysreqs_missing(const struct kf_sysreqs *r, const struct kf_fragset *final)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++)
		n += r->v[i].required && !kf_sysreq_met(&r->v[i], final);
	return n;
}

static json_t *miss_json(const struct kf_sysreq *q, const struct kf_fragset *final,
			 kf_sym_where_fn where, void *arg)
{
	struct kf_sym_where w = { 1, NULL, NULL };
	char *want = kf_sysreq_want(q);
	json_t *o;

	if (where)
		w = where(q->name, arg);
	o = json_pack("{s:s, s:s, s:s, s:b, s:s?, s:s?, s:s}", "symbol", q->name,
		      "want", want, "final", kf_sysreq_final(q, final), "in_tree", w.known,
		      "menu", w.menu, "defined_at", w.defined_at, "note", q->note);
	free(want);
	free(w.menu);
	free(w.defined_at);
	return o;
}

json_t *kf_sysreqs_record(const struct kf_sysreqs *r, const struct kf_fragset *final,
			  kf_sym_where_fn where, void *arg)
{
	json_t *missing = json_array(), *recommended = json_array();

	for (size_t i = 0; i < r->n; i++) {
		const struct kf_sysreq *q = &r->v[i];

		if (!kf_sysreq_met(q, final))
			json_array_append_new(q->required ? missing : recommended,
					      miss_json(q, final, where, arg));
	}
	return json_pack("{s:s, s:s, s:s, s:b, s:I, s:o, s:o}", "init", r->init ? r->init : "",
			 "version", r->version ? r->version : "", "file", r->path,
			 "ok", json_array_size(missing) == 0,
			 "checked", (json_int_t)r->n, "missing", missing,
			 "recommended_missing", recommended);
}

void kf_sysreqs_print(FILE *f, const json_t *rec, const char *flavour)
{
	const json_t *missing = json_object_get(rec, "missing");
	size_t nrec = json_array_size(json_object_get(rec, "recommended_missing"));

	fprintf(f, "  SYSTEMD %s: ", flavour);
	if (!json_array_size(missing))
		fprintf(f, "has what %s %s requires of the kernel", kf_json_str_or(rec, "init", "?"),
			kf_json_str_or(rec, "version", "?"));
	else {
		fprintf(f, "cannot boot %s %s, missing", kf_json_str_or(rec, "init", "?"),
			kf_json_str_or(rec, "version", "?"));
		for (size_t i = 0; i < json_array_size(missing); i++)
			fprintf(f, "%s %s", i ? "," : "",
				kf_json_str_or(json_array_get(missing, i), "symbol", "?"));
		fputs(" (menu paths: config.json \"systemd\")", f);
	}
	if (nrec)
		fprintf(f, "; %zu recommended not set", nrec);
	fputc('\n', f);
}
