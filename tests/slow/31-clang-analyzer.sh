#!/bin/bash
# clang-tidy with every check of .clang-tidy, its static analyzer
# (clang-analyzer-*) too, on every C file of tests/lint.sh. make check runs
# the rest of clang-tidy and cppcheck (tests/e2e/31-lint-static.sh); the
# analyzer, nine tenths of clang-tidy's time, is here.
. tests/lib.sh
. tests/lint.sh
check "the 6.1 tree and its kconfig parser are made" make tree "$KF_OUT/6.1/kconfig/.built" out="$KF_OUT"
check_tidy "clang-tidy with the static analyzer"
done_testing
