#!/bin/bash
# tests/run itself (issue 31): a script that dies half-way, prints a wrong
# plan or none, or exits non-zero after all its ok lines counts as failed,
# with its stderr shown; 'ok ... # SKIP reason' (lib.sh's skip, or bare) and
# cmocka's skip() are skips, never passes, and one without a reason a
# failure; the summary gives each script's seconds, CPU of its child
# processes included, the unit tests' together, and names the skips. Fake
# scripts in a directory of their own and a cmocka program in an out= of
# their own (tests/data/harness/), run by tests/run (KF_SUITE=DIR); no make,
# no kernel.
. tests/lib.sh
s=$kf_tmp/suite
mkdir -p "$s"
fake() { printf '. tests/lib.sh\n%s\n' "$2" > "$s/$1.sh"; }	# fake NAME BODY
fake dies 'echo 1..5; ok one; ok two; echo "$no_such_variable"; ok three'
fake badplan 'ok one; ok two; echo 1..3'
fake noplan 'ok one; ok two'
fake exit1 'ok one; ok two; echo 1..2; echo "exiting 1 on purpose" >&2; exit 1'
fake killed 'ok one; echo 1..1; kill -KILL $$'
fake good 'ok one; ok two; done_testing'
fake fails 'ok one; not_ok two; done_testing'
fake skips 'ok one; skip "two" "needs a CPU this machine lacks"; done_testing'
fake bareskip 'echo "ok 1 # SKIP no tree here"; echo 1..1'
fake noreason 'ok one; skip "two"; done_testing'
fake busy 'bash -c "i=0; while [ \$i -lt 300000 ]; do i=\$((i + 1)); done"; ok one; done_testing'
mkdir -p "$kf_tmp/out/tests"	# a unit test that passes one test and skips one
check "cmocka: tests/data/harness/test_skip.c builds" gcc -Wall -Wextra -Werror \
	-o "$kf_tmp/out/tests/test_skip" tests/data/harness/test_skip.c -lcmocka

# harness NAME SUMMARY STATUS [PATTERN]: tests/run on fake NAME ends with
# SUMMARY, exits STATUS, and its output matches PATTERN.
harness() {
	local name=$1 want=$2 status=$3 pat=${4:-.} rc
	KF_OUT=$kf_tmp/out KF_SUITE=$s tests/run "/$name(\.sh)?$" > "$kf_tmp/$name.out" 2>&1 && rc=0 || rc=$?
	if [ "$(tail -n 1 "$kf_tmp/$name.out")" = "$want" ] && [ "$rc" = "$status" ] &&
		grep -Eq -- "$pat" "$kf_tmp/$name.out"; then
		ok "$name: '$want', exit $status"
	else
		not_ok "$name: '$want', exit $status, /$pat/ (exit $rc)"; diag < "$kf_tmp/$name.out"
	fi
}
harness dies "2 passed, 1 failed, 0 skipped" 1 'dies\.sh exited 1 with no failing test; planned 5 tests, printed 2'
harness dies "2 passed, 1 failed, 0 skipped" 1 '# .*no_such_variable: unbound variable'
harness badplan "2 passed, 1 failed, 0 skipped" 1 'badplan\.sh planned 3 tests, printed 2'
harness noplan "2 passed, 1 failed, 0 skipped" 1 'noplan\.sh printed no plan'
harness exit1 "2 passed, 1 failed, 0 skipped" 1 '# exiting 1 on purpose'
harness killed "1 passed, 1 failed, 0 skipped" 1 'killed\.sh killed by signal 9'
harness good "2 passed, 0 failed, 0 skipped" 0 '^  ok 2 - two$'
harness fails "1 passed, 1 failed, 0 skipped" 1 '^  not ok 2 - two$'
harness skips "1 passed, 0 failed, 1 skipped" 0 '^  skips\.sh: 2 - two # SKIP needs a CPU this machine lacks$'
harness bareskip "0 passed, 0 failed, 1 skipped" 0 '^  bareskip\.sh: 1 # SKIP no tree here$'
harness test_skip "1 passed, 0 failed, 1 skipped" 0 '^  unit/test_skip: 2 # SKIP skips$'
harness test_skip "1 passed, 0 failed, 1 skipped" 0 '^  unit tests \(1\) +[0-9.]+ s +[0-9.]+ s CPU$'
harness noreason "1 passed, 1 failed, 0 skipped" 1 'noreason\.sh: a skip without a reason'
harness busy "1 passed, 0 failed, 0 skipped" 0 '^  busy\.sh +[0-9.]+ s +[0-9.]+ s CPU$'
cpu=$(sed -n 's/^  busy\.sh .* s  *\([0-9.]*\) s CPU$/\1/p' "$kf_tmp/busy.out")
check "busy: the CPU seconds of its child bash counted ($cpu s)" awk -v c="${cpu:-0}" 'BEGIN { exit !(c >= 0.2) }'
# All at once: the sums, every script in the table of seconds, the skips named.
KF_OUT=$kf_tmp/out KF_SUITE=$s tests/run > "$kf_tmp/all.out" 2>&1
check_eq "all: the sums" "$(tail -n 1 "$kf_tmp/all.out")" "16 passed, 7 failed, 3 skipped"
check_eq "all: a row of seconds per script" "$(grep -cE '^  [a-z0-9]+\.sh +[0-9.]+ s +[0-9.]+ s CPU$' "$kf_tmp/all.out")" 11
check_eq "the skips named" "$(sed -n '/^skipped (3):$/,$p' "$kf_tmp/all.out" | grep -c '# SKIP')" 3
check "the stderr also in check.log" grep -q 'exiting 1 on purpose' "$kf_tmp/out/check.log"
done_testing
