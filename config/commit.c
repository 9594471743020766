// SPDX-License-Identifier: GPL-2.0
/*
 * commit - the end of a config attempt for one flavour (config/merge.sh is
 * the glue that runs the tree's merge_config.sh, the audit and the policy
 * before it): which .config is current, the unsaved edits, and the failure
 * records, written by the rule lib/records.c's kf_config_state_read() reads.
 *
 *   commit --flavour FLAVOUR ODIR
 *       The attempt passed: its audit ODIR/config.json.kf-new becomes
 *       config.json, and config.failed and config-failed.json go. The
 *       audited ODIR/.config.kf-new replaces .config only when it differs
 *       (an unchanged merge rebuilds nothing); a .config that differs from
 *       .config.merged (edits 'make savefragment' has not saved) is first
 *       kept as .config.unsaved. .config.merged is then a copy of .config
 *       (what savefragment compares an edit with) and config.stamp is
 *       touched (make's target).
 *   commit --failed REASON ODIR
 *       The attempt failed: .config and config.json (the last good config)
 *       stay; the attempt's audit, when it got that far
 *       (ODIR/config.json.kf-new), becomes config-failed.json, and REASON
 *       goes into config.failed.
 *
 * Every file is replaced by a rename, so a reader sees the old or the new
 * one, and an error leaves the earlier good results as they were.
 * Exit status: 0 done, 2 bad arguments or a file that cannot be written.
 */
#include "../lib/kf.h"
#include "../lib/records.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NEW_CONFIG ".config.kf-new"
#define NEW_AUDIT  KF_CONFIG_JSON ".kf-new"

/* dir/name, malloc'ed. */
static char *at(const char *dir, const char *name)
{
	return kf_xasprintf("%s/%s", dir, name);
}

/* rename(2) from dir/a to dir/b; a missing dir/a is 0 when may_miss. */
static void move(const char *dir, const char *a, const char *b, int may_miss)
{
	char *pa = at(dir, a), *pb = at(dir, b);

	if (rename(pa, pb) < 0 && !(may_miss && errno == ENOENT))
		kf_die(2, "%s: cannot rename it to %s: %s; is %s writable?",
		       pa, b, strerror(errno), dir);
	free(pa);
	free(pb);
}

static void drop(const char *dir, const char *name)
{
	char *p = at(dir, name);

	if (unlink(p) < 0 && errno != ENOENT)
		kf_die(2, "%s: cannot remove it: %s; is %s writable?", p, strerror(errno), dir);
	free(p);
}

/* dir/name's bytes (*len), NULL when it is not there; any other read
 * error ends the tool. */
static char *slurp(const char *dir, const char *name, size_t *len)
{
	char *p = at(dir, name), *text = kf_read_file(p, len);

	if (!text && errno != ENOENT)
		kf_die(2, "%s: %s; is it readable?", p, strerror(errno));
	free(p);
	return text;
}

/* Write dir/name atomically. */
static void put(const char *dir, const char *name, const char *data, size_t len)
{
	char *p = at(dir, name);

	if (kf_write_atomic(p, data, len) < 0)
		kf_die(2, "%s: %s; is %s writable?", p, strerror(errno), dir);
	free(p);
}

/* 1 when both texts are there and the same bytes (cmp -s). */
static int same(const char *a, size_t alen, const char *b, size_t blen)
{
	return a && b && alen == blen && !memcmp(a, b, alen);
}

/* The failed attempt: its audit (when there is one) and why. */
static void commit_failed(const char *odir, const char *reason)
{
	char *line = kf_xasprintf("%s\n", reason);

	move(odir, NEW_AUDIT, KF_CONFIG_FAILED_JSON, 1);
	put(odir, KF_CONFIG_FAILED, line, strlen(line));
	free(line);
}

/* The passing attempt: its audit, its .config when it changed, the merge
 * savefragment compares edits with, and make's stamp. */
static void commit_passed(const char *odir, const char *flavour)
{
	size_t nlen = 0, clen = 0, mlen = 0;
	char *new_cfg, *cfg, *stamp;
	int fd;

	new_cfg = slurp(odir, NEW_CONFIG, &nlen);
	if (!new_cfg)
		kf_die(2, "%s/%s: not there; config/merge.sh writes it before the commit",
		       odir, NEW_CONFIG);
	move(odir, NEW_AUDIT, KF_CONFIG_JSON, 0);
	drop(odir, KF_CONFIG_FAILED);
	drop(odir, KF_CONFIG_FAILED_JSON);

	cfg = slurp(odir, ".config", &clen);
	if (same(new_cfg, nlen, cfg, clen)) {
		drop(odir, NEW_CONFIG);
	} else {
		char *merged = slurp(odir, ".config.merged", &mlen);

		if (cfg && merged && !same(cfg, clen, merged, mlen)) {
			put(odir, ".config.unsaved", cfg, clen);
			fprintf(stderr, "kflavour: %s: .config had edits not saved by 'make savefragment'; kept in %s/.config.unsaved\n",
				flavour, odir);
		}
		free(merged);
		move(odir, NEW_CONFIG, ".config", 0);
		free(cfg);
		cfg = new_cfg;
		clen = nlen;
		new_cfg = NULL;
	}
	put(odir, ".config.merged", cfg, clen);

	stamp = at(odir, "config.stamp");
	fd = open(stamp, O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || futimens(fd, NULL) < 0)
		kf_die(2, "%s: %s; is %s writable?", stamp, strerror(errno), odir);
	close(fd);
	free(stamp);
	free(new_cfg);
	free(cfg);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "flavour", required_argument, NULL, 'f' },
		{ "failed", required_argument, NULL, 'x' },
		{ NULL, 0, NULL, 0 }
	};
	const char *flavour = NULL, *reason = NULL;
	int c;

	kf_prog = "kflavour";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'f')
			flavour = optarg;
		else if (c == 'x')
			reason = optarg;
		else
			break;
	}
	if (c != -1 || optind != argc - 1 || !flavour == !reason)
		kf_die(2, "usage: config-commit --flavour FLAVOUR ODIR | --failed REASON ODIR");
	if (reason)
		commit_failed(argv[optind], reason);
	else
		commit_passed(argv[optind], flavour);
	return 0;
}
