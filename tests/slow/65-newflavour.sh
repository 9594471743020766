#!/bin/bash
# A flavour added with 'make newflavour' (issue 8) goes through the whole
# pipeline with no other edit: it configures, builds, boots on its own CPU
# model with the probe's facts, and appears in the report beside the
# shipped flavours. Runs in a scratch copy of the checkout with this run's
# out= (the shipped flavours are built and booted there by now); the core2
# results are removed at the end, so the real checkout's next 'make boot'
# or 'make report' finds only its own flavours.
. tests/lib.sh
. tests/scratch.sh
o=$KF_OUT
k=$o/6.1
co=$kf_tmp/co
c=$k/core2
mk() { make -C "$co" out="$o" "$@"; }
fact() { jq -r ".facts[\"$1\"]" "$c/boot/core2.json" 2>/dev/null; }
cleanup() { rm -rf "$c"; make -s report-only out="$o" > /dev/null 2>&1; rm -rf "$kf_tmp"; }
trap cleanup EXIT

scratch_checkout "$co"
rm -rf "$c"
check "newflavour name=core2 cpu=MCORE2 model=core2" mk newflavour name=core2 cpu=MCORE2 model=core2
# (cpu=core2: the matrix of plain make limited to its own model, to keep CI short)
check "make flavour=core2: config, build, boot and report with no other edit" mk flavour=core2 cpu=core2

# The build: the compiler got -march=core2 (read from a .cmd file).
check_eq "build.json: -march=core2 passed to gcc" "$(jq -r .march "$c/build.json" 2>/dev/null)" core2
check "the bzImage build.json describes is the one on disk" test \
	"$(jq -r .bzimage_sha256 "$c/build.json" 2>/dev/null)" = "$(sha "$c/arch/x86/boot/bzImage")"

# The boot on QEMU's core2duo, as the recipe says, and the probe's facts.
check_eq "boot on core2: verdict pass" "$(jq -r .verdict "$c/boot/core2.json" 2>/dev/null)" pass
check_eq "probe: cpu choice MCORE2" "$(fact probe.cpu_choice)" MCORE2
check_eq "probe: 64-byte L1 lines, as the tree sets for MCORE2" "$(fact probe.l1_cache_bytes)" 64
check_eq "probe: the line matches the CPU's cache_alignment" "$(fact probe.line_verdict)" match
check_eq "probe: an Intel CPU (QEMU's core2duo)" "$(fact probe.vendor)" GenuineIntel
check "KUnit in the guest: the x86_flavour suite ran, nothing failed" jq -e \
	'.ktap.failed == 0 and .ktap.passed > 0 and any(.ktap.results[]; .suite == "x86_flavour")' "$c/boot/core2.json"

# The report of the scratch checkout (all four recipes) reads what is there.
check "make report-only: all four flavours" mk report-only
cp "$kf_tmp/last.out" "$kf_tmp/table"
cp "$k/report.json" "$kf_tmp/report.json" 2>/dev/null
check_eq "report.json: the four flavours (make sorts them by name)" \
	"$(jq -r '[.flavours[].name] | join(" ")' "$kf_tmp/report.json" 2>/dev/null)" "core2 generic k8 mpsc"
check_eq "report.json: core2 is booted, -march core2, 64-byte lines" \
	"$(jq -r '.flavours[] | select(.name == "core2") |
		"\(.status) \(.build.march) \(.config.l1_cache_bytes) \(.config.cpu)"' "$kf_tmp/report.json")" \
	"booted core2 64 MCORE2"
check_eq "report.json: core2's own boot on core2 passed as expected" \
	"$(jq -r '.flavours[] | select(.name == "core2") | .boots[] | select(.cpu == "core2") |
		"\(.verdict) \(.as_expected) \(.line_verdict)"' "$kf_tmp/report.json")" "pass true match"
# core2 sorts first; the others' cells depend on what this out= has built.
grep -Eq '^ +core2 +generic +k8 +mpsc *$' "$kf_tmp/table" &&
	grep -Eq '^cpu choice +MCORE2 ' "$kf_tmp/table" &&
	ok "the table has a core2 column" || { not_ok "the table has a core2 column"; head -n 8 "$kf_tmp/table" | diag; }
grep -Eq '^boot core2 +pass [0-9.]+s match ' "$kf_tmp/table" &&
	ok "the table has core2's boot" || not_ok "the table has core2's boot"

done_testing
