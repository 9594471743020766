/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpumodels.h - the one reader of boot/cpu-models, the CPU model table:
 * "name expect -cpu-string" lines, '#' comment lines. config/flavours.c
 * turns it into make variables (boot/boot.mk reads those, never the file),
 * and the runner, newflavour and the report read it through here.
 */
#ifndef KF_CPUMODELS_H
#define KF_CPUMODELS_H

#include <stddef.h>

#define KF_CPU_MODELS "boot/cpu-models"

struct kf_cpu_model {
	char *name;		/* what cpu= and recipes use */
	char *expect;		/* "pass", or "refused": no long mode */
	char *cpu_string;	/* QEMU's -cpu, the rest of the line */
	char *text;		/* the whole line as written, trimmed */
	int line;
};

struct kf_cpu_models {
	struct kf_cpu_model *m;
	size_t n;
};

/*
 * Read the table at path. On a problem, writes "path[:line]: what; fix"
 * into err and returns -1 (t then holds nothing to free).
 */
int kf_cpu_models_read(struct kf_cpu_models *t, const char *path, char *err,
		       size_t errlen);
void kf_cpu_models_free(struct kf_cpu_models *t);
const struct kf_cpu_model *kf_cpu_model_find(const struct kf_cpu_models *t,
					     const char *name);
/* The names, space-separated; only those expecting 'expect' unless it is
 * NULL. malloc'ed. */
char *kf_cpu_model_names(const struct kf_cpu_models *t, const char *expect);

#endif /* KF_CPUMODELS_H */
