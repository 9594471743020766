/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kf.h - what the kflavour host tools share: error reporting, files and
 * directories, the clock, and the flavour recipe reader and writer.
 */
#ifndef KF_H
#define KF_H

#include <stdarg.h>
#include <stddef.h>

/* Name the tool prints before its messages; set by each main(). */
extern const char *kf_prog;

/* Print "prog: message" to stderr and exit with status 'status'. */
void kf_die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* Print "prog: message" to stderr. */
void kf_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* malloc/strdup/realloc that die on failure. */
void *kf_xmalloc(size_t size);
void *kf_xrealloc(void *ptr, size_t size);
char *kf_xstrdup(const char *s);
char *kf_xstrndup(const char *s, size_t n);
char *kf_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A growing string, always NUL-terminated once anything was added; start
 * from { 0 } and free(sb.s) when done.
 */
struct strbuf {
	char *s;
	size_t len, cap;
};

void sb_addn(struct strbuf *sb, const char *s, size_t n);
void sb_add(struct strbuf *sb, const char *s);
void sb_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* HTML-escaped text (the one escaper); sb_wrap puts pre before it and post
 * after (both as they are). */
void sb_esc(struct strbuf *sb, const char *s);
void sb_wrap(struct strbuf *sb, const char *pre, const char *s, const char *post);

/*
 * Size and lower-case hex SHA-256 of a file, -1 when it cannot be read
 * (lib/sha256.c; link it and -lcrypto).
 */
long long kf_sha256_file(const char *path, char hex[65]);
/* The same of len bytes at data (dies if OpenSSL fails). */
void kf_sha256_mem(const void *data, size_t len, char hex[65]);

/* Whole file in a NUL-terminated buffer, or NULL with errno set. */
char *kf_read_file(const char *path, size_t *len);

/* The names in DIR ending in SUFFIX, sorted, without dot files (the writers'
 * temporaries end otherwise: x.json.tmp.123); NULL and *n = 0 when DIR
 * cannot be read. Free each name and the array. */
char **kf_dir_names(const char *dir, const char *suffix, size_t *n);

/*
 * Write 'len' bytes to 'path' atomically: into "path.tmp.<pid>" in the same
 * directory, fsync, then rename(2). Readers see the old or the new file, never
 * half of one. Returns 0, or -1 with errno set (the temporary file removed).
 */
int kf_write_atomic(const char *path, const char *data, size_t len);

/* Seconds on the monotonic clock: for durations, not dates. */
double kf_now(void);
/* mkdir -p: DIR and its parents; dies when DIR cannot be made. */
void kf_mkdir_p(const char *dir);

/* Strip leading and trailing white space in place; returns s advanced. */
char *kf_trim(char *s);
/* End the line at 'line' (a text split in place) at its newline; returns
 * the next line, or NULL after the last. */
char *kf_cut_line(char *line);

/* Edits (insert, delete, change, swap two neighbours) from a to b. */
size_t kf_edit_distance(const char *a, const char *b);
/* 1 when name is near enough to what was typed to suggest it. */
int kf_near(const char *typed, const char *name);

/* A flavour recipe: flavours/<name>.flavour, "key = value" lines. */
enum kf_recipe_key {
	KF_DESCRIPTION,
	KF_FRAGMENTS,
	KF_CPU,
	KF_MEMORY,
	KF_SMP,
	KF_CMDLINE,
	KF_BASE,
	KF_GROUP,
	KF_NR_KEYS
};

struct kf_recipe {
	char *name;			/* file name without .flavour */
	char *path;
	char *value[KF_NR_KEYS];	/* NULL when the key is absent */
	int line[KF_NR_KEYS];		/* line the key was set on */
};

extern const char *const kf_recipe_keys[KF_NR_KEYS];

/* The flavour-name rule, one copy for every tool: [a-z0-9][a-z0-9_-]*, at
 * most KF_FLAVOUR_NAME_MAX characters (it names files, make variables and
 * targets). 1 when s follows it. */
#define KF_FLAVOUR_NAME_MAX 32
#define KF_FLAVOUR_NAME_RULE "lowercase letters, digits, '_' and '-' (starting with a letter or digit, at most 32)"
int kf_flavour_name_ok(const char *s);

/*
 * A flavour's name from its recipe's path, the one place a name is derived
 * from a path: "flavours/<name>.flavour" gives <name> (any other path its
 * last component, which kf_recipe_read() refuses). Only the config stage
 * calls it, through kf_recipe_read() and config-flavours; every later tool
 * takes the name from the flavour's record (flavour.json) or an argument.
 * Malloc'ed.
 */
char *kf_flavour_of(const char *path);

/*
 * memory is QEMU's -m as written ("512M"), or "<low>+<high>" ("1G+256M"):
 * low MiB below 4 GiB and high MiB above it. Returns 1 for that form and
 * sets both, 0 for the plain form, -1 when a '+' form is malformed.
 */
int kf_recipe_memory_split(const char *s, unsigned long *low_mib,
			   unsigned long *high_mib);

/*
 * Read and check a recipe. On a problem, writes "path:line: message; fix"
 * into err (size errlen) and returns -1; *r then holds nothing to free.
 * Keys that may be empty: cmdline. Every key must be present. base is
 * tinyconfig, debian:<name> or file:<path> (checked here: its form only).
 * The file's name (without .flavour) must follow kf_flavour_name_ok().
 */
int kf_recipe_read(const char *path, struct kf_recipe *r, char *err,
		   size_t errlen);
void kf_recipe_free(struct kf_recipe *r);
/* Give key a copy of value in r. */
void kf_recipe_set(struct kf_recipe *r, enum kf_recipe_key key, const char *value);

/*
 * The one recipe writer: r to path, atomically. A recipe that exists keeps
 * every line (comments, blank lines, order, alignment) but those of the
 * keys whose value r changes (r->value[k] NULL: unchanged); a new one is
 * header (comment lines, or NULL) then every key, in kf_recipe_keys order.
 * The text is first checked as kf_recipe_read() checks a recipe: on a
 * problem, "path:line: message; fix" in err, -1, and nothing written.
 */
int kf_recipe_write(const char *path, const struct kf_recipe *r, const char *header,
		    char *err, size_t errlen);

#endif /* KF_H */
