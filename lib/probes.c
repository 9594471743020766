// SPDX-License-Identifier: GPL-2.0
/*
 * probes.c - Kconfig's compiler probes, cached.
 *
 * Every parse of a tree's Kconfig runs its $(shell,...) macros: about 60
 * compiler, assembler and linker probes (cc-option, as-instr, cc-can-link.sh,
 * ...), over 300 processes, most of what a config-stage command costs. Their
 * answers depend only on the command and the toolchain, so the tools that
 * link the tree's kconfig keep them in a directory, $KF_PROBE_CACHE (the
 * Makefile's out/kconfig-probes): one file per probe, named by the SHA-256
 * of the command and of what its answer depends on:
 *
 *   - the environment Kbuild gives Kconfig (PATH, CC, LD, ..., srctree,
 *     KERNELVERSION, CC_VERSION_TEXT: the compiler's own version line);
 *   - the programs those name and the assembler, found on PATH as a shell
 *     finds them: device, inode, size and mtime, so a new binutils or pahole
 *     is a miss;
 *   - /var/lib/dpkg/status's stat: any package installed, removed or
 *     upgraded (gcc-12-plugin-dev makes GCC_PLUGINS possible without
 *     touching gcc) starts a new cache;
 *   - the tree's scripts/Kconfig.include (inode, size, mtime): a re-extracted
 *     tree is a new one.
 *
 * kconfig's preprocess.c runs each probe with popen(3) and reads only its
 * standard output, so the tools link with -Wl,--wrap=popen,--wrap=pclose
 * (config/config.mk) and, while kf_probes_begin() is in force, a probe's
 * output comes from the cache, or from the command once and then the cache.
 * Entries are written atomically: concurrent parses (make -j config) and an
 * interrupted one leave whole entries or none. Without KF_PROBE_CACHE every
 * probe runs, as in the kernel's own make. kf_probes_begin() runs before
 * kf_kconfig_load() moves into its private directory, so a relative
 * KF_PROBE_CACHE means the caller's.
 */
#include "kf.h"
#include "kconf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *__real_popen(const char *command, const char *type);
int __real_pclose(FILE *stream);
FILE *__wrap_popen(const char *command, const char *type);
int __wrap_pclose(FILE *stream);

static char *cache_dir;		/* set between kf_probes_begin() and _end() */
static char *toolchain;		/* what every answer depends on, as text */

/* Streams served from memory, with their buffers: pclose() closes them. */
#define MAX_SERVED 8
static struct {
	FILE *f;
	char *data;
} served[MAX_SERVED];

/* "LABEL=PATH dev ino size mtime" of a regular file, 0; -1 when there is none. */
static int add_file(struct strbuf *sb, const char *label, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	sb_addf(sb, "%s=%s %lu %lu %lld %lld.%09ld\n", label, path, (unsigned long)st.st_dev,
		(unsigned long)st.st_ino, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
		st.st_mtim.tv_nsec);
	return 0;
}

/* The program a command line starts, found on PATH as a shell finds it. */
static void add_program(struct strbuf *sb, const char *cmdline)
{
	const char *path = getenv("PATH");
	char *name = kf_xstrndup(cmdline, strcspn(cmdline, " \t"));
	int found = !*name;

	if (strchr(name, '/')) {	/* a path: not looked up */
		found = add_file(sb, name, name) == 0;
		path = NULL;
	}
	while (!found && path && *path) {
		size_t n = strcspn(path, ":");
		char *full = n ? kf_xasprintf("%.*s/%s", (int)n, path, name)
			       : kf_xasprintf("./%s", name);

		found = access(full, X_OK) == 0 && add_file(sb, name, full) == 0;
		free(full);
		path += n;
		path += *path == ':';
	}
	if (!found)
		sb_addf(sb, "%s=-\n", name);
	free(name);
}

void kf_probes_begin(const char *srctree)
{
	static const char *const env[] = {
		"PATH", "CC", "LD", "AR", "NM", "OBJCOPY", "HOSTCC", "HOSTCXX",
		"PAHOLE", "RUSTC", "BINDGEN", "PYTHON3", "HOSTPKG_CONFIG",
		"CLANG_FLAGS", "USERCFLAGS", "USERLDFLAGS", "LLVM", "CROSS_COMPILE",
		"ARCH", "SRCARCH", "srctree", "KERNELVERSION", "CC_VERSION_TEXT",
	};
	static const char *const programs[] = {
		"CC", "LD", "AR", "NM", "OBJCOPY", "HOSTCC", "HOSTCXX", "PAHOLE",
		"RUSTC", "BINDGEN", "PYTHON3",
	};
	const char *dir = getenv("KF_PROBE_CACHE");
	struct strbuf sb = { 0 };
	char *include;
	size_t i;

	if (!dir || !*dir)
		return;
	for (i = 0; i < sizeof(env) / sizeof(env[0]); i++) {
		const char *v = getenv(env[i]);

		sb_addf(&sb, "%s%s%s\n", env[i], v ? "=" : "", v ? v : "");
	}
	for (i = 0; i < sizeof(programs) / sizeof(programs[0]); i++) {
		const char *v = getenv(programs[i]);

		if (v)
			add_program(&sb, v);
	}
	add_program(&sb, "as");
	if (add_file(&sb, "dpkg", "/var/lib/dpkg/status") < 0)
		sb_add(&sb, "dpkg=-\n");
	include = kf_xasprintf("%s/scripts/Kconfig.include", srctree);
	if (add_file(&sb, "tree", include) < 0)
		sb_add(&sb, "tree=-\n");
	free(include);
	/* A directory that cannot be made only means no cache this time. The
	 * probes run in another directory (kf_kconfig_load): keep its full path. */
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		free(sb.s);
		return;
	}
	cache_dir = realpath(dir, NULL);
	if (!cache_dir) {
		free(sb.s);
		return;
	}
	toolchain = sb.s;
}

void kf_probes_end(void)
{
	free(cache_dir);
	free(toolchain);
	cache_dir = NULL;
	toolchain = NULL;
}

/* The probe's output, read to the end; the command's status is not
 * kconfig's business (do_shell reads only what it prints). */
static char *run_probe(const char *command, size_t *len)
{
	struct strbuf out = { 0 };
	char buf[4096];
	size_t n;
	FILE *p = __real_popen(command, "r");

	if (!p)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		sb_addn(&out, buf, n);
	if (__real_pclose(p) == -1) {
		free(out.s);
		return NULL;
	}
	*len = out.len;
	return out.s ? out.s : kf_xstrdup("");
}

FILE *__wrap_popen(const char *command, const char *type)
{
	struct strbuf key = { 0 };
	char hex[65], *path, *data;
	size_t len = 0, i;
	FILE *f;

	if (!cache_dir || strcmp(type, "r") != 0)
		return __real_popen(command, type);
	for (i = 0; i < MAX_SERVED && served[i].f; i++)
		;
	if (i == MAX_SERVED)
		return __real_popen(command, type);
	sb_add(&key, toolchain);
	sb_add(&key, command);
	kf_sha256_mem(key.s, key.len, hex);
	free(key.s);
	path = kf_xasprintf("%s/%s", cache_dir, hex);
	data = kf_read_file(path, &len);
	if (!data) {
		data = run_probe(command, &len);
		if (!data) {
			free(path);
			return __real_popen(command, type);
		}
		(void)kf_write_atomic(path, data, len);	/* read-only: no cache */
	}
	free(path);
	f = len ? fmemopen(data, len, "r") : fopen("/dev/null", "re");
	if (!f) {
		free(data);
		return __real_popen(command, type);
	}
	served[i].f = f;
	served[i].data = data;
	return f;
}

int __wrap_pclose(FILE *stream)
{
	size_t i;

	for (i = 0; i < MAX_SERVED; i++)
		if (served[i].f == stream) {
			fclose(stream);
			free(served[i].data);
			served[i].f = NULL;
			served[i].data = NULL;
			return 0;
		}
	return __real_pclose(stream);
}
