#!/bin/bash
# make bisect (issue 19): a bad flavour, made in a scratch checkout from
# generic plus three harmless changes and RD_GZIP=n (the gzip initramfs
# cannot unpack, so there is no /init: panic), is bisected against generic
# on qemu64 and the answer is exactly RD_GZIP, with its prompt, its fragment
# line and the console lines that differ. The bisection is interrupted
# after its first step and run again: it resumes; a third run rebuilds
# nothing (and runs bisect under valgrind).
# Sized for CI: generic is the kernel 30-build and 40-boot made; the bad
# flavour's O= starts as a copy of generic's (Kbuild then rebuilds only what
# the four symbols touch), and so does the bisection's: each build here is
# incremental.
. tests/lib.sh
. tests/scratch.sh
o=$KF_OUT
k=$o/6.1
co=$kf_tmp/co
bad=bisectbad
name=generic-$bad-qemu64
json=$k/bisect/$name.json
mk() { make -C "$co" out="$o" "$@"; }
jqv() { jq -r "$1" "$json" 2>/dev/null; }
cleanup() {
	[ -n "${pg:-}" ] && kill -KILL -- "-$pg" 2>/dev/null
	rm -rf "$k/$bad" "$k/bisect-$name" "$json"
	rmdir "$k/bisect" 2>/dev/null
	make -s report-only flavour="$check_flavours" out="$o" > /dev/null 2>&1
	rm -rf "$kf_tmp"
}
trap cleanup EXIT

scratch_checkout "$co"
cat > "$co/fragments/bisect-test.config" <<'EOF'
# make check's bad flavour (tests/e2e/68-bisect.sh): three harmless changes
# and one that breaks the boot.
CONFIG_DEFAULT_HOSTNAME="bisect"
CONFIG_LOG_BUF_SHIFT=16
CONFIG_RCU_CPU_STALL_TIMEOUT=30
# kflavour: override
# CONFIG_RD_GZIP is not set
EOF
sed -e 's/^\(fragments *=.*\)$/\1 bisect-test/' -e 's/^description *=.*/description = generic, broken for the bisect test/' \
	flavours/generic.flavour > "$co/flavours/$bad.flavour"
rm -rf "$k/$bad" "$k/bisect-$name" "$json"

# generic built and booted (by the earlier tests, or here).
check "generic is built and booted on qemu64" make boot flavour=generic out="$o"
# The bad flavour's O= from generic's build: an incremental build.
check "the bad flavour's O= starts as a copy of generic's" bisect/seed.sh "$k/generic" "$k/$bad"

# Refusals: same flavour twice; then (below) a value both boots share.
check_fails "good= and bad= the same: refused" 2 'both generic' \
	make bisect good=generic bad=generic bisect_cpu=qemu64 out="$o"

# 1. Interrupted after its first step: SIGTERM to its process group (a
# background job of a script ignores SIGINT, so not Ctrl-C's signal).
setsid make -C "$co" out="$o" bisect good=generic bad=$bad bisect_cpu=qemu64 > "$kf_tmp/run1" 2>&1 &
pid=$!
pg=$pid
for _ in $(seq 1 1800); do
	[ "$(jqv '.steps | length')" -ge 1 ] 2>/dev/null && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 1
done
kill -TERM -- "-$pg" 2>/dev/null
wait "$pid"
rc=$?
# Kbuild's makes and compilers end on their own signal; give them time.
for _ in $(seq 1 20); do pgrep -g "$pg" > /dev/null || break; sleep 0.5; done
pgrep -g "$pg" > /dev/null && { not_ok "interrupted: the group is gone"; ps -o pid,cmd -g "$pg" | diag; } ||
	ok "interrupted: the group is gone"
pg=
check_eq "interrupted: make failed" "$([ "$rc" != 0 ] && echo failed)" failed
check_eq "interrupted: the first step is in the JSON, not done" \
	"$(jqv '"\(.steps | length >= 1) \(.done)"')" "true false"
check "the bad flavour was built from generic's copy: fewer than 100 objects compiled" \
	jq -e '.compiled > 0 and .compiled < 100' "$k/$bad/build.json"
check "the bad flavour panics on qemu64" grep -q 'BISECT  generic -> bisectbad on qemu64: verdict pass -> panic' "$kf_tmp/run1"
grep '  BISECT  ' "$kf_tmp/run1" | diag
steps1=$(jqv '.steps | length')

# 2. Run again: the steps done are replayed, not rebuilt; it ends.
check "make bisect again: resumes and ends" mk bisect good=generic bad=$bad bisect_cpu=qemu64
cp "$kf_tmp/last.out" "$kf_tmp/run2"
grep '  BISECT  \|culprit\|follows\|  good \|  bad ' "$kf_tmp/run2" | head -n 20 | diag
check_eq "resumed: the first run's steps were reused" \
	"$(grep -c 'tested in an earlier run' "$kf_tmp/run2")" "$steps1"
check_eq "the answer is exactly RD_GZIP" "$(jqv '.result.culprits | join(" ")')" RD_GZIP
check_eq "RD_GZIP: y -> n, with its prompt" \
	"$(jqv '.result.symbols[] | select(.symbol == "RD_GZIP") | "\(.good) \(.bad) \(.prompt)"')" \
	"y n Support initial ramdisk/ramfs compressed using gzip"
check "RD_GZIP: the fragment line that sets it" grep -Eq \
	'fragments/bisect-test.config:7: # CONFIG_RD_GZIP is not set' <(jqv '.result.symbols[].fragment')
check "every step: subset, config hash, build seconds, verdict, outcome" jq -e \
	'.done and (.steps | length >= 2) and all(.steps[]; (.subset | length > 0)
		and (.config_sha256 | test("^[0-9a-f]{64}$")) and (.build_seconds | type == "number")
		and (.verdict | type == "string") and (.outcome | IN("good", "bad", "skip")))' "$json"
check "one progress line per step" test "$(grep -c '  BISECT  step ' "$kf_tmp/run2")" = "$(jqv '.steps | length')"
check "the console lines that differ: the bad boot's panic" \
	grep -q 'Kernel panic\|VFS' <(jqv '.result.console.bad[]')
check "the console lines that differ: the good boot's init" test "$(jqv '.result.console.good | length')" -gt 0

# 3. Done already: nothing is built; bisect under valgrind.
check "make bisect a third time (valgrind): no build" mk bisect good=generic bad=$bad bisect_cpu=qemu64 \
	VALGRIND="valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99"
check_eq "third run: 0 builds" "$(jqv .builds_this_run)" 0
check_eq "third run: same answer" "$(jqv '.result.culprits | join(" ")')" RD_GZIP

# 4. A value both boots share (a KUnit case neither has): refused, the
# JSON of the bisection intact; an unknown flavour: refused by make.
check_fails "on= a KUnit case both lack: refused" 2 \
	'do not differ on qemu64 by kunit:x86_flavour.no_such_case \(both absent\)' \
	mk bisect good=generic bad=$bad bisect_cpu=qemu64 on=kunit:x86_flavour.no_such_case
check_eq "the refusal left the JSON as it was" "$(jqv '"\(.on) \(.done)"')" "verdict true"
check_fails "an unknown flavour: refused" 2 "unknown flavour 'nope'" \
	mk bisect good=generic bad=nope bisect_cpu=qemu64

done_testing
