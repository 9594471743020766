#!/bin/bash
# The in-kernel probe (issue 4) across flavours and CPU models, booted by
# make on every model (issue 14; a no-op make boots nothing): a 128-byte
# kernel matches the Nocona model, a 64-byte one is too small there; the
# x86_flavour KUnit suite passes in make check's flavours (generic, mpsc;
# k8, which matches K8, and plain make of all three are
# tests/slow/40-k8.sh's). mpsc
# built and booted from the 6.12 tree is tests/slow/45-probe-6.12.sh (make
# check-slow: a whole cold build).
. tests/lib.sh
. tests/records.sh
o=$KF_OUT

# make: each flavour on every CPU model (issue 14), then the report.
check "make flavour='$check_flavours': the whole matrix, results and report" make flavour="$check_flavours" out="$o"
r=$o/6.1
verdicts=$(for f in $check_flavours; do for c in qemu64 opteron nocona core2 i686; do
	printf '%s/%s=%s ' $f $c "$(jq -r .verdict "$r/$f/boot/$c.json" 2>/dev/null)"; done; done)
check_eq "10 boot records, pass everywhere but i686 (refused)" "$verdicts" \
"generic/qemu64=pass generic/opteron=pass generic/nocona=pass generic/core2=pass generic/i686=refused \
mpsc/qemu64=pass mpsc/opteron=pass mpsc/nocona=pass mpsc/core2=pass mpsc/i686=refused "
for f in "$r/results.ktap" "$r/junit.xml" "$r/kcidb.json" "$r/report.json" "$r/report.html"; do
	check "make wrote ${f#$r/}" test -s "$f"
done
# Threads per core from the topology: only nocona's -smp has two threads.
tpc() { jq -r '[.facts | to_entries[] | select(.key | endswith(".thread_siblings_list")) | .value] | join(" ")' "$1" 2>/dev/null; }
check_eq "generic on qemu64: two cores of one thread" "$(tpc "$r/generic/boot/qemu64.json")" "0 1"
check_eq "generic on opteron: two cores of one thread" "$(tpc "$r/generic/boot/opteron.json")" "0 1"
check_eq "mpsc on nocona: one core of two threads" "$(tpc "$r/mpsc/boot/nocona.json")" "0-1 0-1"

# Nothing changed: make boots nothing (the runner is not run, no record
# is rewritten) and rewrites neither results.ktap nor junit.xml.
stamp() { stat -c '%n %.9Y' "$r"/*/boot/*.json "$r/results.ktap" "$r/junit.xml" "$r/kcidb.json" | md5sum; }
before=$(stamp)
make flavour="$check_flavours" out="$o" > "$kf_tmp/noop.out" 2>&1
if ! grep -Eq '  (BOOT|KTAP|JUNIT|KCIDB) ' "$kf_tmp/noop.out"; then ok "a second make boots nothing"
else not_ok "a second make boots nothing"; diag < "$kf_tmp/noop.out"; fi
check_eq "a second make leaves records and results alone" "$(stamp)" "$before"
check_eq "mpsc on nocona: L1_CACHE_BYTES" "$(fact "$r/mpsc/boot/nocona.json" probe.l1_cache_bytes)" 128
check_eq "mpsc on nocona: verdict" "$(fact "$r/mpsc/boot/nocona.json" probe.line_verdict)" match
check_eq "mpsc on nocona: siblings 0-1" "$(fact "$r/mpsc/boot/nocona.json" probe.cpu0.siblings)" 0-1
check_eq "generic on nocona: L1_CACHE_BYTES" "$(fact "$r/generic/boot/nocona.json" probe.l1_cache_bytes)" 64
check_eq "generic on nocona: verdict" "$(fact "$r/generic/boot/nocona.json" probe.line_verdict)" \
	"too-small: false sharing risk"
check_eq "generic on opteron (64-byte lines): verdict" "$(fact "$r/generic/boot/opteron.json" probe.line_verdict)" match
# The layout facts (patches/6.1/0003, docs/probe.md): physical addresses,
# each CPU's per-CPU copy one unit (1 MiB here) above the previous one.
rec=$r/generic/boot/nocona.json
check_eq "generic on nocona: kernel loaded at 16 MiB" "$(fact "$rec" probe.kernel_text_phys)" 0x1000000
check_eq "generic on nocona: per-CPU copies physically contiguous" "$(fact "$rec" probe.percpu_phys_contiguous)" 1
p0=$(fact "$rec" probe.cpu0.percpu_phys) p1=$(fact "$rec" probe.cpu1.percpu_phys)
if [[ $p0 =~ ^0x[0-9a-f]+$ && $p1 =~ ^0x[0-9a-f]+$ ]]; then
	check_eq "generic on nocona: CPU1's per-CPU copy 1 MiB above CPU0's ($p0, $p1)" $((p1 - p0)) 1048576
else
	not_ok "generic on nocona: probe.cpu0.percpu_phys, cpu1.percpu_phys are hex (got $p0, $p1)"
fi
for rec in "$r"/generic/boot/qemu64.json "$r"/mpsc/boot/nocona.json; do
	check_kunit "${rec#$r/}" "$rec"
done

# The recorded log of a failing case is seen as a failure by the parser.
sed 's/\( *\)ok 9 flavour_user_cs/\1not ok 9 flavour_user_cs/' \
	tests/data/logs/pass-mpsc-nocona.log > "$kf_tmp/fail.log"
if grep -q 'not ok 9 flavour_user_cs' "$kf_tmp/fail.log"; then
	check_fails "a 'not ok' in the suite is a test-fail" 0 '"verdict": "test-fail"' \
		"$o/tools/boot-runner" --parse "$kf_tmp/fail.log"
else
	not_ok "recorded probe log has case 9 flavour_user_cs to flip"
fi

done_testing
