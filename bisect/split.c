// SPDX-License-Identifier: GPL-2.0
/* split.c - .config differences and ktest's split order (split.h). */
#include "split.h"
#include "../lib/kf.h"

#include <stdlib.h>
#include <string.h>

int kconf_equal(const struct kf_config *a, const struct kf_config *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < b->n; i++) {
		const char *v = kf_config_get(a, b->sym[i].name);

		if (!v || !kf_value_equal(v, b->sym[i].value))
			return 0;
	}
	return 1;
}

size_t kconf_diff(const struct kf_config *a, const struct kf_config *b, const char ***names)
{
	size_t n = 0;

	*names = NULL;
	for (size_t i = 0; i < b->n; i++) {
		const char *v = kf_config_get(a, b->sym[i].name);

		if (!v || kf_value_equal(v, b->sym[i].value))
			continue;
		*names = kf_xrealloc(*names, (n + 1) * sizeof(**names));
		(*names)[n++] = b->sym[i].name;
	}
	return n;
}

char *kconf_with(const struct kf_config *base, const struct kf_config *src,
		 const char *const *names, size_t n)
{
	struct strbuf sb = { 0 };

	sb_add(&sb, "");
	for (size_t i = 0; i < base->n; i++) {
		const char *name = base->sym[i].name, *v = base->sym[i].value;
		char *line;

		for (size_t j = 0; j < n; j++)
			if (!strcmp(names[j], name) && kf_config_get(src, name))
				v = kf_config_get(src, name);
		line = kf_setting_line(name, v);

		sb_addf(&sb, "%s\n", line);
		free(line);
	}
	return sb.s;
}

int split_candidate(size_t n, size_t i, size_t *start, size_t *len, int *from_bad)
{
	size_t k = (n + 1) / 2, prev = 0;

	while (n > 1 && k != prev) {
		size_t chunks = (n + k - 1) / k;

		if (i < 2 * chunks) {
			*start = (i / 2) * k;
			*len = *start + k > n ? n - *start : k;
			*from_bad = (int)(i % 2);
			return 1;
		}
		i -= 2 * chunks;
		prev = k;
		k = (k + 1) / 2;
	}
	return 0;
}
