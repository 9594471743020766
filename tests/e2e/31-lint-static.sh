#!/bin/bash
# lane: background
# Static analysis of our own code: gcc -Werror is in every build; here
# cppcheck, and clang-tidy with .clang-tidy's checks but its static analyzer
# (clang-analyzer-*: nine tenths of clang-tidy's time, 200 CPU s on a slow
# machine), on every C file of tests/lint.sh. make check-slow runs the
# analyzer too (tests/slow/31-clang-analyzer.sh). This reads only the
# checkout and $KF_OUT's 6.1 tree, which it has make prepare: it runs in
# tests/run's background lane (the marker above), beside the scripts after
# 30-build (its number: the builds take both cores).
. tests/lib.sh
. tests/lint.sh
o=$KF_OUT

# The headers of the tree's kconfig parser, which lib/kconf.c and the
# tools on it include, and those Kbuild generates for it: make check's
# prerequisites make neither (a no-op once 15-config has run).
check "the 6.1 tree and its kconfig parser are made" make tree "$o/6.1/kconfig/.built" out="$o"
[ ${#lint_host[@]} -gt 30 ] && ok "${#lint_host[@]} host C files to lint" ||
	not_ok "host C files to lint (${#lint_host[@]} found)"

# cppcheck takes -isystem directories as sources: give it -I and keep its
# findings to our files (the kernel's kconfig code is not ours to lint).
if cppcheck --quiet --error-exitcode=1 --enable=warning,style,performance,portability \
	--inline-suppr --suppress=missingIncludeSystem --suppress=missingInclude \
	--suppress='*:*/scripts/kconfig/*' --suppress='*:*/scripts/include/*' --std=c11 \
	-D_GNU_SOURCE -I. -I"$lint_src61/scripts/kconfig" -I"$o/6.1/kconfig/scripts/kconfig" \
	"${lint_host[@]}" > "$kf_tmp/cppcheck" 2>&1; then
	ok "cppcheck: ${#lint_host[@]} files clean"
else
	not_ok "cppcheck"; head -n 40 "$kf_tmp/cppcheck" | diag
fi

check_tidy "clang-tidy without its static analyzer" --checks='-clang-analyzer-*'
done_testing
