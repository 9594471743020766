// SPDX-License-Identifier: GPL-2.0
/*
 * bisect - which config differences between a good and a bad flavour
 * change their boot on one CPU model: ktest's config_bisect
 * (tools/testing/ktest/config-bisect.pl) on kflavour's build and boot.
 *
 *   bisect --good-dir D --bad-dir D --cpu C --kver K
 *             --work DIR --json FILE --src SRC --prompts PROMPTS [--on WHAT]
 *
 * D is a flavour's O= directory, out/<kver>/<flavour>: its flavour.json
 * (the config stage's resolved flavour, lib/records.h) gives the flavour's
 * name, its boot setup (memory, smp, cmdline: the two must boot alike) and,
 * the bad one's, the fragments that name a culprit's origin; its .config and
 * boot/<cpu>.json are what is bisected.
 *
 * The three commands it runs come from make, in the environment, each for
 * /bin/sh -c (they carry make's Kbuild environment, build/build.mk):
 *   KF_BISECT_OLDDEFCONFIG  olddefconfig of DIR/.config (DIR is Kbuild's O=)
 *   KF_BISECT_BUILD         bzImage in DIR, incrementally
 *   KF_BISECT_BOOT          the boot runner on DIR's bzImage; "$1" is the
 *                           directory for its <cpu>.log and <cpu>.json
 *
 * WHAT the bisection follows: "verdict", "kunit:SUITE.CASE" or "fact:KEY";
 * by default the verdict, else the first KUnit case that differs. Each step
 * puts some of the differing values onto one side, runs olddefconfig, and
 * tests the result unless it equals the good or the bad config or any
 * config tested before (it is never built twice, and G and B only move
 * towards each other). A step whose
 * build fails or whose value is neither the good nor the bad one is a skip:
 * the next split is tried, as git bisect skip does in ktest; ktest's
 * config_bisect would count it as good and could lose the culprit. It ends
 * when no split makes a new config: what still differs is the answer.
 *
 * Every step goes to the JSON file when it ends; a second run with the same
 * inputs replays the same splits and takes each step's outcome from there
 * (the replay only reruns olddefconfig), so an interrupted bisection goes
 * on where it stopped. The search itself is search.c: here are the
 * callbacks that settle (olddefconfig) and test (build and boot) a config.
 * Exit 0 with an answer (when skipped steps may hide a smaller one, it says
 * so), 1 when the two flavours give the same result (nothing to bisect), 2
 * on a usage or setup error.
 */
#include "search.h"
#include "../lib/fragment.h"
#include "../lib/logdiff.h"
#include "../lib/kf.h"
#include "../lib/proc.h"
#include "../lib/records.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CONSOLE	20	/* differing console lines kept per side */

struct opts {
	const char *good, *bad;		/* the flavours' names, from their records */
	const char *cpu, *kver, *good_dir, *bad_dir, *work, *json;
	const char *src, *prompts, *on;
	const char *cmd_olddefconfig, *cmd_build, *cmd_boot;
};

struct run {
	struct opts o;
	struct kf_flavour_rec goodf, badf;	/* the flavours resolved (flavour.json) */
	char *on;			/* what is compared */
	char *good_value, *bad_value;
	struct kf_config good0, bad0;	/* the flavours' configs */
	char good0_hash[65], bad0_hash[65];
	json_t *earlier;		/* steps of an earlier run, by config hash */
	json_t *doc;			/* the JSON file being written */
	json_t *steps;
	double start;
	int builds;
};

static json_t *seconds(double s)
{
	return json_real(round(s * 10) / 10);
}

/* ---- commands --------------------------------------------------------- */

/*
 * Run argv with stdout and stderr into 'log' (NULL: inherited). Every other
 * descriptor is inherited too: Kbuild keeps make's jobserver. A child that
 * died of SIGINT, SIGTERM or SIGHUP (Ctrl-C reaches the whole group) ends
 * this run the same way: the steps done are in the JSON file already.
 */
static int run_cmd(char *const argv[], const char *log, double *secs)
{
	const struct kf_proc_opts how = { .log = log };
	struct kf_proc p;
	double t0 = kf_now();
	int status;

	if (kf_proc_start(&p, argv, &how) < 0)
		return 127;
	kf_proc_wait(&p, -1, &status, NULL);
	if (secs)
		*secs = kf_now() - t0;
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			fprintf(stderr, "bisect: interrupted; the steps done are kept, run make bisect again to go on\n");
			kf_proc_die_of(sig);
		}
		return 128 + sig;
	}
	return WEXITSTATUS(status);
}

static int run_sh(const char *cmd, const char *arg, const char *log, double *secs)
{
	char *argv[] = { "/bin/sh", "-c", (char *)cmd, "sh", (char *)arg, NULL };

	return run_cmd(argv, log, secs);
}

/* ---- boot records ----------------------------------------------------- */

static int load_record(struct kf_boot_rec *rec, const char *path, int must)
{
	return kf_boot_rec_read(rec, path, must ? KF_MUST : KF_QUIET,
				"boot it first (make bisect boots both flavours)");
}

/* The value 'on' names in a boot record; malloc'ed. */
static char *record_value(const struct kf_boot_rec *rec, const char *on)
{
	if (!strcmp(on, "verdict"))
		return kf_xstrdup(rec->verdict ? rec->verdict : "none");
	if (!strncmp(on, "fact:", 5)) {
		const char *v = kf_boot_fact(rec, on + 5);

		return kf_xstrdup(v ? v : "absent");
	}
	if (!strncmp(on, "kunit:", 6)) {
		const char *dot = strchr(on + 6, '.');

		for (size_t i = 0; i < rec->ncases; i++) {
			const char *suite = rec->cases[i].suite, *name = rec->cases[i].name;

			if (suite && name && dot && strlen(suite) == (size_t)(dot - on - 6) &&
			    !strncmp(suite, on + 6, strlen(suite)) && !strcmp(name, dot + 1))
				return kf_xstrdup(rec->cases[i].ok == 1 ? "ok" : "not ok");
		}
		return kf_xstrdup("absent");
	}
	kf_die(2, "on=%s: want verdict, kunit:SUITE.CASE or fact:KEY", on);
}

/* Do the two records' values of 'on' differ? */
static int values_differ(const struct kf_boot_rec *good, const struct kf_boot_rec *bad,
			 const char *on)
{
	char *g = record_value(good, on), *b = record_value(bad, on);
	int differ = strcmp(g, b) != 0;

	free(g);
	free(b);
	return differ;
}

/* on= not given: the verdict, else the first KUnit case that differs. */
static char *choose_on(const struct kf_boot_rec *good, const struct kf_boot_rec *bad)
{
	const struct kf_boot_rec *sides[2] = { bad, good };

	if (values_differ(good, bad, "verdict"))
		return kf_xstrdup("verdict");
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; i < sides[s]->ncases; i++) {
			char *on = kf_xasprintf("kunit:%s.%s", sides[s]->cases[i].suite,
						sides[s]->cases[i].name);

			if (values_differ(good, bad, on))
				return on;
			free(on);
		}
	}
	return NULL;
}

/* Facts the two records disagree on, for the refusal's hint. */
static char *differing_facts(const struct kf_boot_rec *good, const struct kf_boot_rec *bad)
{
	struct strbuf sb = { 0 };

	sb_add(&sb, "");
	for (size_t i = 0; i < bad->nfacts; i++) {
		const char *key = bad->facts[i].key, *g = kf_boot_fact(good, key);

		if (g && strcmp(g, bad->facts[i].val) != 0 && strncmp(key, "uname.", 6) != 0)
			sb_addf(&sb, "%s%s", sb.len ? ", " : "", key);
	}
	return sb.s;
}

/* ---- the JSON file ---------------------------------------------------- */

static void save(struct run *r)
{
	json_object_set_new(r->doc, "seconds_this_run", seconds(kf_now() - r->start));
	if (kf_record_write(r->doc, r->o.json))
		kf_die(2, "%s: %s", r->o.json, strerror(errno));
}

static json_t *names_json(const char *const *names, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(names[i]));
	return a;
}

/*
 * Steps of an earlier run of the same bisection (same flavours, CPU, 'on'
 * and configs), by config hash; an empty object when there is none.
 */
static json_t *load_earlier(const struct run *r)
{
	json_t *old = kf_record_read(r->o.json, KF_QUIET, NULL), *by = json_object(), *s;
	static const char *const same[] = { "good", "bad", "cpu", "kver", "on",
		"good_config_sha256", "bad_config_sha256" };
	const char *mine[] = { r->o.good, r->o.bad, r->o.cpu, r->o.kver, r->on,
		r->good0_hash, r->bad0_hash };
	size_t i;

	if (!old)
		return by;
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		const char *v = kf_json_str(old, same[i]);

		if (!v || strcmp(v, mine[i]) != 0) {
			printf("  BISECT  %s is of other inputs (%s differs): starting over\n",
			       r->o.json, same[i]);
			json_decref(old);
			return by;
		}
	}
	json_array_foreach(json_object_get(old, "steps"), i, s) {
		const char *h = kf_json_str(s, "config_sha256");

		if (h)
			json_object_set(by, h, s);
	}
	json_decref(old);
	return by;
}

/* ---- steps ------------------------------------------------------------ */

static int copy_file(const char *from, const char *to)
{
	size_t len;
	char *text = kf_read_file(from, &len);
	int rc;

	if (!text)
		return -1;
	rc = kf_write_atomic(to, text, len);
	free(text);
	return rc;
}

/* work/steps/<hash>/config, the step's copy of work/.config: made when
 * missing (or always); malloc'ed. */
static char *keep_config(const struct run *r, const char *h, int always)
{
	char *dir = kf_xasprintf("%s/steps/%.16s", r->o.work, h);
	char *keep = kf_xasprintf("%s/config", dir);
	char *cfg = kf_xasprintf("%s/.config", r->o.work);

	if (always || access(keep, R_OK)) {
		kf_mkdir_p(dir);
		if (copy_file(cfg, keep))
			kf_die(2, "%s: %s", keep, strerror(errno));
	}
	free(dir);
	free(cfg);
	return keep;
}

/* Symbols of names[] whose value in c is bad's (in_bad) or good's. */
static json_t *having(const struct kf_config *c, const struct kf_config *side,
		      const char *const *names, size_t n, const char *const *subset,
		      size_t nsub, int in_subset)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++) {
		const char *v = kf_config_get(c, names[i]), *want = kf_config_get(side, names[i]);
		int member = 0;

		for (size_t j = 0; j < nsub; j++)
			member |= !strcmp(subset[j], names[i]);
		if (member == in_subset && v && want && !strcmp(v, want))
			json_array_append_new(a, json_string(names[i]));
	}
	return a;
}

static void print_names(const char *const *names, size_t n)
{
	size_t shown = 0, width = 0;

	for (size_t i = 0; i < n; i++) {
		if (width + strlen(names[i]) > 60)
			break;
		printf("%s%s", i ? " " : "", names[i]);
		width += strlen(names[i]) + 1;
		shown++;
	}
	if (shown < n)
		printf(" +%zu", n - shown);
}

/* Build and boot the config in work/.config (hash h); returns the outcome,
 * or NULL with why when the boot failed to run. */
static const char *test_config(struct run *r, const char *h, json_t *step, char *why,
			       size_t len)
{
	char *dir = kf_xasprintf("%s/steps/%.16s", r->o.work, h);
	char *log = kf_xasprintf("%s/build.log", dir);
	char *bootout = kf_xasprintf("%s/boot.out", dir);
	char *recpath = kf_xasprintf("%s/%s.json", dir, r->o.cpu);
	const char *outcome;
	double bs = 0, ts = 0;
	int rc;

	free(keep_config(r, h, 1));	/* makes dir, with a copy of the config */
	unlink(recpath);
	rc = run_sh(r->o.cmd_build, "", log, &bs);
	r->builds++;
	json_object_set_new(step, "build", json_string(rc ? "failed" : "ok"));
	json_object_set_new(step, "build_seconds", seconds(bs));
	json_object_set_new(step, "build_log", json_string(log));
	if (rc) {
		outcome = "skip";
		json_object_set_new(step, "verdict", json_null());
		json_object_set_new(step, "value", json_null());
	} else {
		struct kf_boot_rec rec;

		rc = run_sh(r->o.cmd_boot, dir, bootout, &ts);
		if ((rc != 0 && rc != 1) || load_record(&rec, recpath, 0)) {
			snprintf(why, len, "the boot of %s failed to run (exit %d); see %s", dir, rc, bootout);
			outcome = NULL;
			goto out;
		}
		char *v = record_value(&rec, r->on);

		outcome = !strcmp(v, r->good_value) ? "good" : !strcmp(v, r->bad_value) ? "bad" : "skip";
		json_object_set_new(step, "boot_seconds", seconds(ts));
		json_object_set_new(step, "verdict", rec.verdict ? json_string(rec.verdict) : json_null());
		json_object_set_new(step, "value", json_string(v));
		json_object_set_new(step, "record", json_string(recpath));
		free(v);
		kf_boot_rec_free(&rec);
	}
out:
	free(dir);
	free(log);
	free(bootout);
	free(recpath);
	return outcome;
}

/*
 * olddefconfig of cfg (whose hash is in_hash), remembered by that hash in
 * work/olddefconfig-<good>-<bad>/ (the two configs' hashes): a resumed
 * bisection replays its splits in a moment.
 */
static void olddefconfig(const struct run *r, const char *cfg, const char *in_hash,
			 const char *log)
{
	char *dir = kf_xasprintf("%s/olddefconfig-%.12s-%.12s", r->o.work, r->good0_hash,
				 r->bad0_hash);
	char *memo = kf_xasprintf("%s/%.16s", dir, in_hash);

	if (copy_file(memo, cfg)) {
		if (run_sh(r->o.cmd_olddefconfig, "", log, NULL))
			kf_die(2, "olddefconfig failed; see %s", log);
		kf_mkdir_p(dir);
		if (copy_file(cfg, memo))
			kf_die(2, "%s: %s", memo, strerror(errno));
	}
	free(dir);
	free(memo);
}

/* Read a .config (lib/dotconfig.c); bad input ends the bisection. */
static void read_config(struct kf_config *c, const char *path, const char *hint)
{
	char err[1024];

	if (kf_config_read(c, path, NULL, err, sizeof(err)) < 0)
		kf_die(2, "%s%s", err, hint);
}

/* The search's settle: text as work/.config, olddefconfig'ed; hash its id. */
static void settle(void *ctx, const char *text, struct kf_config *n, char hash[65])
{
	const struct run *r = ctx;
	char *cfg = kf_xasprintf("%s/.config", r->o.work);
	char *log = kf_xasprintf("%s/olddefconfig.log", r->o.work);

	if (kf_write_atomic(cfg, text, strlen(text)) || kf_sha256_file(cfg, hash) < 0)
		kf_die(2, "%s: %s", cfg, strerror(errno));
	olddefconfig(r, cfg, hash, log);
	read_config(n, cfg, "");
	if (kf_sha256_file(cfg, hash) < 0)
		kf_die(2, "%s: %s", cfg, strerror(errno));
	free(cfg);
	free(log);
}

static void step_line(json_t *step, size_t nd, size_t left)
{
	json_t *v = json_object_get(step, "value"), *sub = json_object_get(step, "subset");
	size_t nsub = json_array_size(sub);
	const char **subset = kf_xmalloc((nsub + 1) * sizeof(*subset));

	for (size_t i = 0; i < nsub; i++)
		subset[i] = json_string_value(json_array_get(sub, i));

	printf("  BISECT  step %lld: %zu of %zu onto good (", (long long)json_integer_value(
	       json_object_get(step, "step")), nsub, nd);
	print_names(subset, nsub);
	printf("), %zu kept; config %.12s: ",
	       json_array_size(json_object_get(step, "applied")),
	       kf_json_str(step, "config_sha256"));
	if (json_object_get(step, "reused"))
		printf("tested %s, ", kf_json_str(step, "reused"));
	else if (!strcmp(kf_json_str(step, "build"), "failed"))
		printf("build failed (%s), ", kf_json_str(step, "build_log"));
	else
		printf("built %.0f s, booted %.0f s, ",
		       json_real_value(json_object_get(step, "build_seconds")),
		       json_real_value(json_object_get(step, "boot_seconds")));
	printf("%s %s: %zu left\n", json_is_string(v) ? json_string_value(v) : "-",
	       kf_json_str(step, "outcome"), left);
	fflush(stdout);
	free(subset);
}

/* The search's test: the step's config, tested in an earlier run or now;
 * the step goes to the JSON file. */
static enum bs_outcome test_step(void *ctx, const struct bs_step *s, char *why, size_t len)
{
	struct run *r = ctx;
	json_t *step, *old = json_object_get(r->earlier, s->id);
	const char *outcome;

	step = json_pack("{s:I, s:o, s:s, s:o, s:o, s:o, s:s}", "step", (json_int_t)s->number,
		"subset", names_json(s->subset, s->nsub), "from", s->from_bad ? "bad" : "good",
		"applied", having(&s->config, s->bad, s->diff, s->ndiff, s->subset, s->nsub, 1),
		"dropped", json_array(),
		"moved", having(&s->config, s->bad, s->diff, s->ndiff, s->subset, s->nsub, 0),
		"config_sha256", s->id);
	json_object_set_new(step, "splits_tried", json_integer((json_int_t)s->tried));
	/* Subset symbols olddefconfig put back to good's value. */
	for (size_t i = 0; i < s->nsub; i++) {
		const char *v = kf_config_get(&s->config, s->subset[i]);

		if (!v || !kf_value_equal(v, kf_config_get(s->bad, s->subset[i])))
			json_array_append_new(json_object_get(step, "dropped"), json_string(s->subset[i]));
	}
	if (old && json_is_string(json_object_get(old, "outcome"))) {
		outcome = kf_json_str(old, "outcome");
		for (const char *k = "build\0build_seconds\0boot_seconds\0build_log\0verdict\0value\0record\0";
		     *k; k += strlen(k) + 1)
			if (json_object_get(old, k))
				json_object_set(step, k, json_object_get(old, k));
		json_object_set_new(step, "reused", json_string("in an earlier run"));
	} else if (!(outcome = test_config(r, s->id, step, why, len))) {
		json_decref(step);
		return BS_ERROR;
	}
	json_object_set_new(step, "outcome", json_string(outcome));
	free(keep_config(r, s->id, 0));
	json_array_append_new(r->steps, step);
	save(r);
	return !strcmp(outcome, "good") ? BS_GOOD : !strcmp(outcome, "bad") ? BS_BAD : BS_SKIP;
}

static void stepped(void *ctx, const struct bs_step *s, size_t left)
{
	const struct run *r = ctx;

	step_line(json_array_get(r->steps, json_array_size(r->steps) - 1), s->ndiff, left);
}

/* ---- the answer ------------------------------------------------------- */

/* "file:line: text" of the bad flavour's fragment line setting 'name'. */
static json_t *fragment_line(const struct kf_fragset *fs, const char *name)
{
	const struct kf_setting *s = kf_fragset_find(fs, name);
	char *text, *p;
	json_t *j;
	int line = 1;

	if (!s)
		return json_null();
	text = kf_read_file(s->file, NULL);
	if (!text)
		return json_null();
	for (p = text; *p && line < s->line; p++)
		line += *p == '\n';
	p[strcspn(p, "\n")] = '\0';
	j = json_sprintf("%s:%d: %s", s->file, s->line, p);
	free(text);
	return j;
}

static json_t *prompts(const struct run *r, const char *config, const char *const *names, size_t n)
{
	char **argv = kf_xmalloc((n + 8) * sizeof(*argv));
	char *out = kf_xasprintf("%s/prompts.json", r->o.work);
	size_t k = 0;
	json_t *j;

	argv[k++] = (char *)r->o.prompts;
	argv[k++] = "--srctree";
	argv[k++] = (char *)r->o.src;
	argv[k++] = "--config";
	argv[k++] = (char *)config;
	for (size_t i = 0; i < n; i++)
		argv[k++] = (char *)names[i];
	argv[k] = NULL;
	if (run_cmd(argv, out, NULL))
		kf_die(2, "%s failed; see %s", r->o.prompts, out);
	j = kf_record_read(out, KF_MUST, "a bug in config-prompts");
	free(argv);
	free(out);
	return j;
}

static json_t *console_diff(const char *good_log, const char *bad_log)
{
	char *a = kf_read_file(good_log, NULL), *b = kf_read_file(bad_log, NULL);
	struct ld_log la, lb;
	struct ld_diff d;
	json_t *g = json_array(), *bd = json_array();

	if (a && b) {
		ld_log_parse(&la, a);
		ld_log_parse(&lb, b);
		ld_diff(&d, &la, &lb, 0);
		for (size_t i = 0; i < d.n; i++) {
			json_t *side = d.e[i].op == LD_DEL ? g : d.e[i].op == LD_ADD ? bd : NULL;

			if (side && json_array_size(side) < MAX_CONSOLE)
				json_array_append_new(side, json_string(d.e[i].text));
		}
		ld_diff_free(&d);
		ld_log_free(&la);
		ld_log_free(&lb);
	}
	free(a);
	free(b);
	return json_pack("{s:o, s:o}", "good", g, "bad", bd);
}

static const char *or_absent(const char *v)
{
	return v ? v : "absent";
}

/* The .config and boot log of config 'id': a flavour's or a step's. */
static void tested_files(const struct run *r, const char *id, char **config, char **log)
{
	const char *fl = !strcmp(id, r->good0_hash) ? r->o.good_dir :
			 !strcmp(id, r->bad0_hash) ? r->o.bad_dir : NULL;

	*config = fl ? kf_xasprintf("%s/.config", fl) :
		       kf_xasprintf("%s/steps/%.16s/config", r->o.work, id);
	*log = fl ? kf_xasprintf("%s/boot/%s.log", fl, r->o.cpu) :
		    kf_xasprintf("%s/steps/%.16s/%s.log", r->o.work, id, r->o.cpu);
}

static void answer(struct run *r, const struct bs_result *res)
{
	const struct kf_config *G = &res->good, *B = &res->bad;
	const char **diff;
	size_t nd = kconf_diff(G, B, &diff);
	/* Then what only one side mentions: it came with those (ktest lists
	 * them as well), e.g. a string whose bool was off in the good config. */
	const struct kf_config *sides[2] = { B, G };
	json_t *p, *syms = json_array(), *culprits = json_array();
	struct kf_fragset fs;
	char *gcfg, *glog, *bcfg, *blog;
	json_t *con, *line;
	size_t i;

	size_t nboth = nd;	/* diff[nboth..] only one side mentions */

	tested_files(r, res->good_id, &gcfg, &glog);
	tested_files(r, res->bad_id, &bcfg, &blog);
	con = console_diff(glog, blog);

	for (int k = 0; k < 2; k++)
		for (i = 0; i < sides[k]->n; i++)
			if (!kf_config_get(sides[!k], sides[k]->sym[i].name)) {
				diff = kf_xrealloc(diff, (nd + 1) * sizeof(*diff));
				diff[nd++] = sides[k]->sym[i].name;
			}
	p = prompts(r, bcfg, diff, nd);
	kf_fragset_init(&fs);
	for (i = 0; i < r->badf.nfragments; i++)
		kf_fragset_add(&fs, r->badf.fragments[i], NULL);
	printf("  BISECT  %s -> %s on %s (%s: %s -> %s): %zu step%s, %d build%s this run\n",
	       r->o.good, r->o.bad, r->o.cpu, r->on, r->good_value, r->bad_value,
	       json_array_size(r->steps), json_array_size(r->steps) == 1 ? "" : "s",
	       r->builds, r->builds == 1 ? "" : "s");
	if (res->end == BS_UNDECIDED)
		printf("  BISECT  cannot decide: %s\n", res->why);
	for (i = 0; i < nd; i++) {
		json_t *pi = json_object_get(p, diff[i]);
		json_t *prompt = json_object_get(pi, "prompt");
		json_t *frag = fragment_line(&fs, diff[i]);
		/* A culprit can be set (it has a prompt) and both configs
		 * have it; what only one has appears with the culprits. */
		int culprit = json_is_string(prompt) && i < nboth;

		json_array_append_new(syms, json_pack("{s:s, s:s, s:s, s:O, s:O, s:b, s:o}",
			"symbol", diff[i], "good", or_absent(kf_config_get(G, diff[i])),
			"bad", or_absent(kf_config_get(B, diff[i])),
			"prompt", prompt ? prompt : json_null(),
			"defined_at", json_object_get(pi, "defined_at") ? json_object_get(pi, "defined_at") : json_null(),
			"culprit", culprit, "fragment", frag));
		if (culprit)
			json_array_append_new(culprits, json_string(diff[i]));
		printf("  %-7s CONFIG_%s %s -> %s", culprit ? "culprit" : "follows", diff[i],
		       or_absent(kf_config_get(G, diff[i])), or_absent(kf_config_get(B, diff[i])));
		if (culprit)
			printf(" \"%s\"", json_string_value(prompt));
		else if (i >= nboth)
			printf(" (only one side has it: it comes with the above)");
		else
			printf(" (no prompt: set by defaults and selects)");
		if (json_is_string(frag))
			printf("\n          %s", json_string_value(frag));
		printf("\n");
	}
	json_array_foreach(json_object_get(con, "good"), i, line) {
		printf("  good    | %s\n", json_string_value(line));
	}
	json_array_foreach(json_object_get(con, "bad"), i, line) {
		printf("  bad     | %s\n", json_string_value(line));
	}
	json_object_set_new(r->doc, "result", json_pack("{s:o, s:o, s:s, s:s, s:o}",
		"symbols", syms, "culprits", culprits,
		"good_config", gcfg, "bad_config", bcfg, "console", con));
	if (res->end == BS_UNDECIDED)
		json_object_set_new(json_object_get(r->doc, "result"), "undecided", json_string(res->why));
	kf_fragset_free(&fs);
	json_decref(p);
	free(gcfg);
	free(glog);
	free(bcfg);
	free(blog);
	free(diff);
}

/* ---- main ------------------------------------------------------------- */

static void usage(void)
{
	kf_die(2, "usage: bisect --good-dir D --bad-dir D --cpu C --kver K --work DIR --json FILE\n"
	       "       --src SRC --prompts PROMPTS [--on verdict|kunit:SUITE.CASE|fact:KEY]\n"
	       "       (D: a flavour's out/<kver>/<flavour>, its flavour.json read)\n"
	       "       (commands: KF_BISECT_OLDDEFCONFIG, KF_BISECT_BUILD, KF_BISECT_BOOT)");
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "kver", required_argument, NULL, 'k' },
		{ "good-dir", required_argument, NULL, 'G' },
		{ "bad-dir", required_argument, NULL, 'B' },
		{ "work", required_argument, NULL, 'w' },
		{ "json", required_argument, NULL, 'j' },
		{ "src", required_argument, NULL, 's' },
		{ "prompts", required_argument, NULL, 'p' },
		{ "on", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(o, 0, sizeof(*o));
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': o->cpu = optarg; break;
		case 'k': o->kver = optarg; break;
		case 'G': o->good_dir = optarg; break;
		case 'B': o->bad_dir = optarg; break;
		case 'w': o->work = optarg; break;
		case 'j': o->json = optarg; break;
		case 's': o->src = optarg; break;
		case 'p': o->prompts = optarg; break;
		case 'o': o->on = *optarg ? optarg : NULL; break;
		default: usage();
		}
	}
	if (optind != argc || !o->cpu || !o->kver || !o->good_dir || !o->bad_dir || !o->work ||
	    !o->json || !o->src || !o->prompts)
		usage();
	o->cmd_olddefconfig = getenv("KF_BISECT_OLDDEFCONFIG");
	o->cmd_build = getenv("KF_BISECT_BUILD");
	o->cmd_boot = getenv("KF_BISECT_BOOT");
	if (!o->cmd_olddefconfig || !o->cmd_build || !o->cmd_boot)
		usage();
}

/* A flavour's resolved record, dir/flavour.json; exits 2 naming it. */
static void read_flavour_rec(struct kf_flavour_rec *f, const char *dir)
{
	char *path = kf_xasprintf("%s/flavour.json", dir);

	if (kf_flavour_rec_read(f, path, KF_MUST, "run make config (make bisect configures both flavours)"))
		exit(2);	/* said, naming the file and the fix */
	if (!f->h.flavour || !f->memory || !f->smp || !f->cmdline)
		kf_die(2, "%s: no flavour, memory, smp or cmdline; remove it and run make config",
		       path);
	free(path);
}

/* The boots of the steps use the bad flavour's setup: both must boot alike. */
static void same_boot_setup(const struct run *r)
{
	static const char *const keys[] = { "memory", "smp", "cmdline" };
	const char *g[] = { r->goodf.memory, r->goodf.smp, r->goodf.cmdline };
	const char *b[] = { r->badf.memory, r->badf.smp, r->badf.cmdline };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(g[i], b[i]) != 0)
			kf_die(1, "%s and %s: '%s' differs (%s, %s): the boots differ in more than the config, so bisecting the config cannot explain them; give both recipes (%s, %s) the same %s",
			       r->goodf.h.path, r->badf.h.path, keys[i], g[i], b[i],
			       r->goodf.recipe ? r->goodf.recipe : "?",
			       r->badf.recipe ? r->badf.recipe : "?", keys[i]);
}

/* A flavour's config, its hash and boot record. */
static void read_flavour(const struct run *r, const char *dir, struct kf_config *c, char hash[65],
			 struct kf_boot_rec *rec)
{
	char *cfg = kf_xasprintf("%s/.config", dir), *rp = kf_xasprintf("%s/boot/%s.json", dir, r->o.cpu);

	read_config(c, cfg, "; make config first");
	if (kf_sha256_file(cfg, hash) < 0)
		kf_die(2, "%s: %s; make config first", cfg, strerror(errno));
	load_record(rec, rp, 1);
	free(cfg);
	free(rp);
}

int main(int argc, char **argv)
{
	struct run r;
	struct kf_boot_rec grec, brec;
	const struct bs_ops ops = { settle, test_step, stepped, &r };
	struct bs_result res;
	const char **diff;
	size_t nd;

	kf_prog = "bisect";
	memset(&r, 0, sizeof(r));
	parse_args(argc, argv, &r.o);
	r.start = kf_now();
	read_flavour_rec(&r.goodf, r.o.good_dir);
	read_flavour_rec(&r.badf, r.o.bad_dir);
	r.o.good = r.goodf.h.flavour;
	r.o.bad = r.badf.h.flavour;
	same_boot_setup(&r);
	read_flavour(&r, r.o.good_dir, &r.good0, r.good0_hash, &grec);
	read_flavour(&r, r.o.bad_dir, &r.bad0, r.bad0_hash, &brec);

	r.on = r.o.on ? kf_xstrdup(r.o.on) : choose_on(&grec, &brec);
	if (!r.on) {
		char *facts = differing_facts(&grec, &brec);

		kf_die(1, "%s and %s boot alike on %s (verdict %s, every KUnit case the same): nothing to bisect%s%s%s",
		       r.o.good, r.o.bad, r.o.cpu, grec.verdict,
		       *facts ? "; to follow a probe fact, name one with on=fact:KEY (these differ: " : "",
		       facts, *facts ? ")" : "");
	}
	r.good_value = record_value(&grec, r.on);
	r.bad_value = record_value(&brec, r.on);
	if (!strcmp(r.good_value, r.bad_value))
		kf_die(1, "%s and %s do not differ on %s by %s (both %s): nothing to bisect; boot records %s/boot/%s.json and %s/boot/%s.json",
		       r.o.good, r.o.bad, r.o.cpu, r.on, r.good_value, r.o.good_dir, r.o.cpu,
		       r.o.bad_dir, r.o.cpu);
	nd = kconf_diff(&r.good0, &r.bad0, &diff);
	if (!nd)
		kf_die(1, "%s and %s boot differently on %s (%s: %s, %s) but their configs set no symbol differently: the difference is not in the config",
		       r.o.good, r.o.bad, r.o.cpu, r.on, r.good_value, r.bad_value);

	kf_mkdir_p(r.o.work);
	r.earlier = load_earlier(&r);
	r.doc = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o}",
		"good", r.o.good, "bad", r.o.bad, "cpu", r.o.cpu, "kver", r.o.kver,
		"on", r.on, "good_value", r.good_value, "bad_value", r.bad_value,
		"good_config_sha256", r.good0_hash, "bad_config_sha256", r.bad0_hash,
		"differences", json_array());
	for (size_t i = 0; i < nd; i++)
		json_array_append_new(json_object_get(r.doc, "differences"), json_pack("{s:s, s:s, s:s}",
			"symbol", diff[i], "good", kf_config_get(&r.good0, diff[i]),
			"bad", kf_config_get(&r.bad0, diff[i])));
	r.steps = json_array();
	json_object_set_new(r.doc, "steps", r.steps);
	json_object_set_new(r.doc, "done", json_false());
	printf("  BISECT  %s -> %s on %s: %s %s -> %s, %zu symbols differ\n", r.o.good, r.o.bad,
	       r.o.cpu, r.on, r.good_value, r.bad_value, nd);
	free(diff);
	fflush(stdout);

	save(&r);
	if (bs_search(&r.good0, r.good0_hash, &r.bad0, r.bad0_hash, &ops, &res) == BS_FAILED)
		kf_die(2, "%s", res.why);
	answer(&r, &res);
	json_object_set_new(r.doc, "done", json_true());
	json_object_set_new(r.doc, "builds_this_run", json_integer(r.builds));
	save(&r);
	printf("  BISECT  %.0f s this run; every step in %s\n", kf_now() - r.start, r.o.json);

	bs_result_free(&res);
	free(r.on);
	free(r.good_value);
	free(r.bad_value);
	json_decref(r.earlier);
	json_decref(r.doc);
	kf_boot_rec_free(&grec);
	kf_boot_rec_free(&brec);
	kf_flavour_rec_free(&r.goodf);
	kf_flavour_rec_free(&r.badf);
	return 0;
}
