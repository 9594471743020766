// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - the stage records' header, their one writer and their one
 * reader (record.h).
 */
#include "record.h"
#include "kf.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * One set of flags for every record: indented, in the order the writer
 * built it, ASCII only (a console's bytes arrive as \u escapes, so any
 * reader copes), and reals with 10 significant digits (seconds are rounded
 * to 0.1 s by their writers; %.17g would print 201.4 as 201.40000000000001).
 */
#define KF_RECORD_FLAGS \
	(JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(10))

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *kf_record_new(const char *record, const char *flavour,
		      const char *kver, const char *release)
{
	json_t *rec = json_object();

	json_object_set_new(rec, "record", json_string(record));
	json_object_set_new(rec, "format", json_integer(KF_RECORD_FORMAT));
	json_object_set_new(rec, "flavour", str_or_null(flavour));
	json_object_set_new(rec, "kver", str_or_null(kver));
	json_object_set_new(rec, "release", str_or_null(release));
	return rec;
}

char *kf_record_text(const json_t *rec)
{
	char *text = json_dumps(rec, KF_RECORD_FLAGS), *withnl;

	if (!text)
		return NULL;
	withnl = kf_xasprintf("%s\n", text);
	free(text);
	return withnl;
}

int kf_record_write(const json_t *rec, const char *path)
{
	char *text = kf_record_text(rec);
	int rc, e;

	if (!text) {
		errno = ENOMEM;
		return -1;
	}
	rc = kf_write_atomic(path, text, strlen(text));
	e = errno;
	free(text);
	errno = e;
	return rc;
}

json_t *kf_record_read(const char *path, enum kf_need need, const char *fix)
{
	json_error_t err;
	json_t *j = json_load_file(path, 0, &err);
	char where[32] = "";

	if (json_is_object(j))
		return j;
	json_decref(j);
	if (need == KF_QUIET)
		return NULL;
	if (j)
		snprintf(err.text, sizeof(err.text), "not a JSON object");
	else if (err.line > 0)
		snprintf(where, sizeof(where), ":%d", err.line);
	if (need == KF_MUST)
		kf_die(2, "%s%s: %s; %s", path, where, err.text, fix);
	kf_warn("%s%s: %s; %s", path, where, err.text, fix);
	return NULL;
}

json_t *kf_record_load(const char *path, const char *kind, enum kf_need need,
		       const char *fix)
{
	static const char redo[] = "remove it, or run make clean";
	json_t *j;
	const char *got;
	long long format;
	char what[512];

	if (need == KF_QUIET && access(path, F_OK) && errno == ENOENT)
		return NULL;
	j = kf_record_read(path, need == KF_QUIET ? KF_WARN : need, fix);
	if (!j)
		return NULL;
	got = kf_json_str(j, "record");
	format = kf_json_int(j, "format");
	if (format < 1)
		snprintf(what, sizeof(what), "no \"format\" in its header (a record from before "
			 "formats, or not kflavour's); %s", redo);
	else if (format > KF_RECORD_FORMAT)
		snprintf(what, sizeof(what), "written by a newer kflavour (format %lld, this one "
			 "reads %d); %s", format, KF_RECORD_FORMAT, redo);
	else if (!got || strcmp(got, kind) != 0)
		snprintf(what, sizeof(what), "a \"%s\" record where a \"%s\" record belongs; %s",
			 got ? got : "(no kind)", kind, fix);
	else
		return j;
	json_decref(j);
	if (need == KF_MUST)
		kf_die(2, "%s: %s", path, what);
	kf_warn("%s: %s", path, what);
	return NULL;
}

const char *kf_json_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

const char *kf_json_str_or(const json_t *o, const char *key, const char *none)
{
	const char *s = kf_json_str(o, key);

	return s ? s : none;
}

double kf_json_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

long long kf_json_int(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? json_integer_value(v) : -1;
}
