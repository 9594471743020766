/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild.h - what the build stage's tools read: Kbuild's short output lines,
 * .cmd files, ccache's stats log and the timing trailer build-progress appends
 * to build.log. Pure functions on strings (and a read .config), so
 * tests/unit/test_build_*.c can check them without a kernel tree.
 */
#ifndef KF_KBUILD_H
#define KF_KBUILD_H

#include <stddef.h>

/*
 * A Kbuild short line is "  VERB    target" (two spaces, an upper-case verb,
 * blanks, the target), e.g. "  CC      init/main.o" or "  CC [M]  x.o".
 * Returns 1 and fills verb (NUL-terminated, at most vlen-1 characters) and
 * *target (pointing into line, up to the end of the line), or 0.
 */
int kb_parse_line(const char *line, char *verb, size_t vlen,
		  const char **target);

/*
 * Whether a Kbuild line compiles one kernel object: verb CC or AS (module
 * tag allowed) and a relative target ending in ".o". Host tools (HOSTCC,
 * objtool's "CC /abs/path.o"), links, archives and link-vmlinux.sh's
 * ".tmp_vmlinux*.o" are not: the count matches the .o.cmd files with
 * -D__KERNEL__ that build-facts counts.
 */
int kb_is_object_line(const char *line);

/* "warning:" anywhere in the line (gcc, ld, objtool, Kbuild). */
int kb_is_warning_line(const char *line);
/*
 * A line that explains a failure: a compiler/linker "error:", make's
 * "***" lines, and the linker's "undefined reference".
 */
int kb_is_error_line(const char *line);

/*
 * The value of the last "-<flag>=VALUE" word (e.g. flag "march") on the
 * command line of a Kbuild .cmd file (its first "cmd_..." or
 * "savedcmd_..." line). Returns 1 and copies VALUE into out, or 0 when the
 * flag is absent or the text has no command line.
 */
int kb_cmd_flag(const char *cmd_text, const char *flag, char *out, size_t n);

/*
 * Is this .cmd file's text cut short? 6.1's fixdep writes an object's .cmd
 * straight to its place (cmd_and_fixdep: "fixdep ... > $(dot-target).cmd"),
 * so a build killed meanwhile can leave part of one, on which every later
 * make stops ("unterminated call to function 'wildcard'"). Whole lines are
 * written in one piece, and the last one ends with a newline and goes on to
 * no next line (objtool may append lines of its own after fixdep's).
 * 1 torn, 0 whole.
 */
int kb_cmd_torn(const char *text, size_t len);

/* Cache hits and misses counted in a ccache stats log (CCACHE_STATSLOG). */
struct kb_ccache {
	long hits;
	long misses;
};
void kb_ccache_count(const char *log_text, struct kb_ccache *c);

/*
 * Where distcc ran a build's compiles, from its client log (DISTCC_LOG with
 * DISTCC_VERBOSE=1, one file per flavour). Counted lines (distcc 3.4's):
 *   "compile F on HOST completed ok"   HOST's compiled; on "localhost" with
 *                                      F a C or preprocessed source: local
 *   "(dcc_mark_timefile) mark .../backoff_tcp_HOST_PORT_0"
 *                                      HOST's failed: an attempt that failed
 *                                      on the network side (refused, reset,
 *                                      timed out); distcc then avoids HOST
 *                                      and sends that compile to another
 *                                      host, or compiles it here
 *   "Warning: failed to distribute F to HOST, running locally instead",
 *   "Warning: remote compilation of 'F' failed, retrying locally"
 *                                      fell_back: a compile redone here
 * Hosts are keyed "host:port" (3632 when the entry names no port). local
 * counts the C compiles run here: fallbacks, and compiles made while every
 * host was backed off. Assembler, links, probes and "gcc --version" run
 * here by design and are not counted.
 */
#define KB_DISTCC_MAX_HOSTS 64
struct kb_distcc_host {
	char name[128];		/* "192.0.2.130:3632" */
	long compiled;
	long failed;
};
struct kb_distcc {
	long remote;		/* sum of hosts[].compiled */
	long local;
	long fell_back;
	size_t n_hosts;
	struct kb_distcc_host hosts[KB_DISTCC_MAX_HOSTS];
};
void kb_distcc_count(const char *log_text, struct kb_distcc *d);

/*
 * The timing trailer: the last line build-progress appends to build.log,
 * "kflavour: wall_seconds=W cpu_seconds=C exit=S".
 */
#define KB_TRAILER "kflavour: wall_seconds="
struct kb_times {
	double wall;
	double cpu;
	int exit_status;
};
/* Parse the last trailer in text; 1 when found, else 0. */
int kb_parse_trailer(const char *text, struct kb_times *t);

/*
 * How many kernel objects a cold build of a .config (lib/dotconfig.c
 * read it) compiles, estimated from its "=y" settings, and its "=m" ones
 * too when modules are built (modules != 0); 0 when it sets neither. The
 * fit is in kbuild.c.
 */
struct kf_config;
long kb_estimate_objects(const struct kf_config *config, int modules);

/*
 * The progress line, without a newline:
 *   "  BUILD   mpsc: CC 412/1010 objects, 95 s"
 *   "  BUILD   mpsc: CC 412/~1000 objects, 95 s" (estimated total)
 * stage may be NULL or empty before Kbuild printed anything ("starting").
 */
void kb_progress_line(char *buf, size_t n, const char *name, const char *stage,
		      long done, long expected, int estimated, long seconds);

#endif /* KF_KBUILD_H */
