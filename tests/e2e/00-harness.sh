#!/bin/bash
# tests/run itself (issue 31): a script that dies half-way, prints a wrong
# plan or none, or exits non-zero after all its ok lines counts as failed,
# with its stderr shown; 'ok ... # SKIP reason' (lib.sh's skip, or bare) and
# cmocka's skip() are skips, never passes, and one without a reason a
# failure; the summary gives each script's seconds, CPU of its child
# processes included, the unit tests' together, and names the skips. The
# background lane ('# lane: background'): its scripts judged the same, after
# the others, with their seconds; nothing of it left after a run, finished
# or interrupted. Fake scripts in a directory of their own and a cmocka
# program in an out= of their own (tests/data/harness/), run by tests/run
# (KF_SUITE=DIR); no make, no kernel.
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

# The background lane: a suite of two scripts in the main lane and two in
# the lane, one of which dies after two ok lines. The lane starts where its
# first script's name puts it: after a-first, whose mark bgok finds. Its
# lane directory holds a killed run's state, which must not count. One
# script, marked '# lane: after', runs last, once the lane has ended (it
# finds bgok's mark), though its name sorts first.
b=$kf_tmp/lanesuite lo=$kf_tmp/laneout
mkdir -p "$b" "$lo/check.bg/bgok.sh"
lfake() { printf '. tests/lib.sh\n# lane: background\n%s\n' "$2" > "$b/$1.sh"; }	# lfake NAME BODY
lfake bgdies 'echo 1..4; ok one; ok two; echo "$bg_no_such_variable"; ok three'
lfake bgok '[ -f "$KF_OUT/a-first.done" ] && ok "after a-first" || not_ok "after a-first"; sleep 1; ok one; ok two; touch "$KF_OUT/bgok.done"; done_testing'
printf '. tests/lib.sh\n# lane: after\n[ -f "$KF_OUT/bgok.done" ] && ok "after the lane" || not_ok "after the lane"; done_testing\n' > "$b/a-after.sh"
printf '. tests/lib.sh\nsleep 1; touch "$KF_OUT/a-first.done"; ok one; done_testing\n' > "$b/a-first.sh"
printf '. tests/lib.sh\nok one; done_testing\n' > "$b/main.sh"
printf 'not ok 1 - stale\n1..1\n' > "$lo/check.bg/bgok.sh/tap"
echo 1 > "$lo/check.bg/bgok.sh/rc"
KF_OUT=$lo KF_SUITE=$b tests/run > "$kf_tmp/lane.out" 2>&1
rc=$?
check_eq "lane: the sums, exit 1" "$(tail -n 1 "$kf_tmp/lane.out"), exit $rc" "8 passed, 1 failed, 0 skipped, exit 1"
check "lane: the script that died is a failure" \
	grep -q '^  not ok - bgdies\.sh exited 1 with no failing test; planned 4 tests, printed 2$' "$kf_tmp/lane.out"
check "lane: ... with its stderr" grep -q '^  # .*bg_no_such_variable: unbound variable$' "$kf_tmp/lane.out"
check_eq "lane: its scripts after the others, in name order; then the one marked after" \
	"$(sed -n "s|^== $b/||p" "$kf_tmp/lane.out" | sed -E 's/(\(|, )[0-9:]+\)$/\1time)/' | tr '\n' '|')" \
	"a-first.sh (time)|main.sh (time)|bgdies.sh (background lane)|bgok.sh (background lane)|a-after.sh (after the lane, time)|"
check "lane: their lines under their own header" \
	sh -c "sed -n '/^== .*bgok.sh (background lane)/,/^seconds/p' '$kf_tmp/lane.out' | grep -q '^  ok 3 - two$'"
check_eq "lane: a row of seconds for each of the five" \
	"$(grep -cE '^  (a-first|main|bgok|bgdies|a-after)\.sh +[0-9.]+ s +[0-9.]+ s CPU$' "$kf_tmp/lane.out")" 5
check "lane: it started after a-first, where bgdies's name puts it" \
	sh -c "sed -n '/^== .*a-first.sh/,\$p' '$kf_tmp/lane.out' | grep -q '^== background lane from here'"
check "lane: check.log has its TAP and stderr" sh -c "grep -q '^bgdies.sh: 2 passed, 0 failed, 0 skipped, exit 1$' '$lo/check.log' &&
	grep -q 'bg_no_such_variable: unbound variable' '$lo/check.log'"
check_eq "lane: no process of the lane left, no lane directory" \
	"$(pgrep -f "$b/" || true)$(ls -d "$lo/check.bg" "$lo/check.main" 2>/dev/null)" ""
KF_OUT=$lo KF_SUITE=$b tests/run 'bgok|main' > "$kf_tmp/lane2.out" 2>&1
check_eq "lane: the next run, the good ones only, counts only its own" \
	"$(tail -n 1 "$kf_tmp/lane2.out")" "4 passed, 0 failed, 0 skipped"
# A lane that dies (here killed by its script) fails that script and the
# ones it did not run.
k=$kf_tmp/killsuite
mkdir -p "$k"
printf '. tests/lib.sh\n# lane: background\nok one; echo 1..1; kill -KILL $PPID\n' > "$k/bgkill.sh"
printf '. tests/lib.sh\n# lane: background\nok one; done_testing\n' > "$k/bgnext.sh"
KF_OUT=$kf_tmp/killout KF_SUITE=$k tests/run > "$kf_tmp/kill.out" 2>&1
check_eq "lane killed: its script and the next one fail" \
	"$(grep -c -e '^  not ok - bgkill\.sh did not run to its end$' \
		-e '^  not ok - bgnext\.sh did not run to its end; printed no plan (1\.\.N)$' "$kf_tmp/kill.out"), $(tail -n 1 "$kf_tmp/kill.out")" \
	"2, 1 passed, 2 failed, 0 skipped"
# Interrupted: tests/run, killed while it waits for the lane, ends the lane.
i=$kf_tmp/intsuite io=$kf_tmp/intout n=$((3000 + $$ % 1000))
mkdir -p "$i"
printf '. tests/lib.sh\n# lane: background\nok one; sleep %s; done_testing\n' "$n" > "$i/bgsleep.sh"
KF_OUT=$io KF_SUITE=$i tests/run > "$kf_tmp/int.out" 2>&1 &
run=$!
for _ in $(seq 50); do pgrep -fx "sleep $n" > /dev/null && break; sleep 0.2; done
check "interrupted: the lane's script was running" pgrep -fx "sleep $n"
kill -TERM "$run"
wait "$run"
rc=$?
sleep 0.5
check_eq "interrupted: tests/run exits 143 and leaves no process of the lane, no lane directory" \
	"$rc $(pgrep -f "sleep $n|$i/" || true)$(ls -d "$io/check.bg" 2>/dev/null)" "143 "
done_testing
