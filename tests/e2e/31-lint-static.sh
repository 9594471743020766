#!/bin/bash
# Static analysis of our own code: gcc -Werror is in every build; here
# cppcheck and clang-tidy on every host C file, the unit tests and the
# harness's cmocka program. c2c/plugin.c, linted against the QEMU plugin
# header that tests/e2e/47-c2c.sh fetches, is 85-lint.sh's. This reads only
# the checkout and $KF_OUT's 6.1 tree, which it has make prepare: it runs
# in tests/run's background lane, beside the scripts after 30-build (its
# number: the builds take both cores).
# lane: background
. tests/lib.sh
o=$KF_OUT
src61=$o/6.1/src

# The headers of the tree's kconfig parser, which config/kconf.c and the
# tools on it include, and those Kbuild generates for it: make check's
# prerequisites make neither (a no-op once 15-config has run).
check "the 6.1 tree and its kconfig parser are made" make tree "$o/6.1/kconfig/.built" out="$o"

# C files of the host tools (the kernel code lives only in patches/).
csrc=()
for f in lib/*.c config/*.c build/*.c boot/*.c report/*.c bench/*.c upgrade/*.c bisect/*.c c2c/*.c; do
	[ "$f" = c2c/plugin.c ] || csrc+=("$f")
done
[ ${#csrc[@]} -gt 30 ] && ok "${#csrc[@]} host C files to lint" || not_ok "host C files to lint (${#csrc[@]} found)"
inc=(-D_GNU_SOURCE -I. -isystem "$src61/scripts/kconfig" -isystem "$o/6.1/kconfig/scripts/kconfig")

# cppcheck takes -isystem directories as sources: give it -I and keep its
# findings to our files (the kernel's kconfig code is not ours to lint).
if cppcheck --quiet --error-exitcode=1 --enable=warning,style,performance,portability \
	--inline-suppr --suppress=missingIncludeSystem --suppress=missingInclude \
	--suppress='*:*/scripts/kconfig/*' --suppress='*:*/scripts/include/*' --std=c11 \
	-D_GNU_SOURCE -I. -I"$src61/scripts/kconfig" -I"$o/6.1/kconfig/scripts/kconfig" \
	"${csrc[@]}" > "$kf_tmp/cppcheck" 2>&1; then
	ok "cppcheck: ${#csrc[@]} files clean"
else
	not_ok "cppcheck"; head -n 40 "$kf_tmp/cppcheck" | diag
fi

# One clang-tidy per core: the longest part of the lint (niced in the lane,
# it takes only the cores the other scripts leave).
tidy() {
	clang-tidy --quiet "$1" -- -std=gnu11 "${inc[@]}" > "$kf_tmp/tidy.${1//\//_}" 2>&1 ||
		{ echo "== $1"; cat "$kf_tmp/tidy.${1//\//_}"; } > "$kf_tmp/tidy.bad.${1//\//_}"
}
for f in "${csrc[@]}" tests/unit/*.c tests/data/harness/*.c; do
	tidy "$f" &
	while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n; done
done
wait
tidy_bad=$(find "$kf_tmp" -maxdepth 1 -name 'tidy.bad.*' | wc -l)
cat "$kf_tmp"/tidy.bad.* > "$kf_tmp/tidy.all" 2>/dev/null
[ "$tidy_bad" = 0 ] && ok "clang-tidy: all files clean" ||
	{ not_ok "clang-tidy: $tidy_bad file(s) with findings"; grep -E 'warning:|error:' "$kf_tmp/tidy.all" | head -n 40 | diag; }
done_testing
