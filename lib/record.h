/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - the stage records (config.json, build.json, boot/<cpu>.json,
 * report.json): one header, one writer, one reader (lib/record.c, linked
 * with jansson).
 *
 * Every record starts with the same five keys, so a reader can tell what it
 * holds and from which format before reading on (docs/architecture.md):
 *
 *   "record":  its kind: "flavour", "config", "build", "boot", "c2c", "report"...
 *              (each schema's "record" constant; docs/architecture.md)
 *   "format":  KF_RECORD_FORMAT; raised when a field changes meaning
 *   "flavour": the flavour (null in report.json: it has several)
 *   "kver":    the tree, "6.1" (fragments/<kver>/, out/<kver>/)
 *   "release": the kernel release, "6.1.192", or null when not known yet
 *
 * Each record has a JSON schema beside the stage that writes it;
 * make check validates real records against them (tests/e2e/62-records.sh).
 */
#ifndef KF_RECORD_H
#define KF_RECORD_H

#include <jansson.h>

#define KF_RECORD_FORMAT 1

/* A new record object holding the header; the caller adds its fields. */
json_t *kf_record_new(const char *record, const char *flavour,
		      const char *kver, const char *release);

/* The record as text, with the one set of jansson flags every record uses,
 * and a final newline; NULL when out of memory. Free it. */
char *kf_record_text(const json_t *rec);

/* kf_record_text written atomically to path (kf_write_atomic). Returns 0,
 * or -1 with errno set. */
int kf_record_write(const json_t *rec, const char *path);

/* What kf_record_read does when path holds no JSON object. */
enum kf_need {
	KF_QUIET,	/* NULL, and nothing said: the caller copes */
	KF_WARN,	/* NULL after a warning */
	KF_MUST,	/* exit 2 */
};

/*
 * The JSON object in path (a record, or any JSON file a tool reads), or
 * NULL. Problems are said as "path:line: what; fix", fix being what the
 * user should do. Release it with json_decref.
 */
json_t *kf_record_read(const char *path, enum kf_need need, const char *fix);

/*
 * A stage record of this kind ("config", "build", "boot"): kf_record_read's
 * object when its header's "format" is an integer from 1 to
 * KF_RECORD_FORMAT and its "record" is kind, else NULL. need says what a
 * file that is not there means; a file that is there but is no such record
 * is said whatever need is (KF_QUIET as KF_WARN): a record must not vanish
 * unseen. Messages: "path: written by a newer kflavour (format 2, this one
 * reads 1); remove it, or run make clean", the same fix for a header with
 * no format (a record from before formats), and fix for another kind or
 * broken JSON. lib/records.h reads the records into structs through it.
 */
json_t *kf_record_load(const char *path, const char *kind, enum kf_need need,
		       const char *fix);

/* A member's value when it has the type asked for, else NULL, NAN or -1. */
const char *kf_json_str(const json_t *o, const char *key);
const char *kf_json_str_or(const json_t *o, const char *key, const char *none);
double kf_json_num(const json_t *o, const char *key);
long long kf_json_int(const json_t *o, const char *key);

#endif /* KF_RECORD_H */
