#!/bin/bash
# A flavour added with 'make newflavour' (issue 8) goes through the whole
# pipeline with no other edit: it configures, builds, boots on its own CPU
# model with the probe's facts, and appears in the report beside the
# shipped flavours; plain make runs its c2c workload, and make c2c puts it
# beside generic and mpsc on their one machine (issue 32, docs/c2c.md). Runs in a scratch copy of the checkout with this run's
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
# Debian's jsonschema CLI (not a pip one earlier in PATH): -i INSTANCE SCHEMA.
v() { /usr/bin/python3 -W ignore -m jsonschema -i "$1" "$2"; }
# The machine a c2c record ran on, and how many runs.
machine() { jq -r '"\(.cpu) \(.cpu_string) -m \(.memory) -smp \(.smp) \(.vcpus) vCPUs, QEMU \(.qemu_version), \(.runs) runs"' \
	"$k/$1/c2c/nocona.json" 2>/dev/null; }
cleanup() { rm -rf "$c"; make -s report-only out="$o" > /dev/null 2>&1; rm -rf "$kf_tmp"; }
trap cleanup EXIT

scratch_checkout "$co"
rm -rf "$c"
check "newflavour name=core2 choice=MCORE2 model=core2" mk newflavour name=core2 choice=MCORE2 model=core2
# (cpu=core2: the matrix of plain make limited to its own model, to keep CI short)
check "make flavour=core2: config, build, boot and report with no other edit" mk flavour=core2 cpu=core2 c2c_cpu=core2

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

# Plain make ran c2c too, on the machine of its cpu= (core2 here).
check "plain make: core2's c2c record, valid against c2c/c2c.schema.json" v "$c/c2c/core2.json" c2c/c2c.schema.json

# The comparison: every flavour of the group (core2 with the shipped ones)
# on the one c2c machine, nocona with 128-byte lines, 5 runs each. The
# shipped flavours' runs are this out='s (run here when missing).
check "make c2c: core2 beside the shipped flavours on nocona, 5 runs each" mk c2c
check "core2's c2c record on nocona, valid against c2c/c2c.schema.json" v "$c/c2c/nocona.json" c2c/c2c.schema.json
check "make check-records: every record valid, core2's c2c ones too" mk check-records
grep -q "c2c records valid against c2c/c2c.schema.json" "$kf_tmp/last.out" &&
	ok "check-records validated c2c records" || not_ok "check-records validated c2c records"
check_eq "generic's machine: nocona, 1G, 2 CPUs, 5 runs" \
	"$(jq -r '"\(.cpu) \(.memory) \(.smp) \(.runs)"' "$k/generic/c2c/nocona.json" 2>/dev/null)" "nocona 1G 2 5"
check_eq "core2 ran on generic's machine (model, memory, CPUs, QEMU)" "$(machine core2)" "$(machine generic)"
check_eq "mpsc ran on generic's machine (model, memory, CPUs, QEMU)" "$(machine mpsc)" "$(machine generic)"
# core2 aligns like generic (64-byte lines): on the 128-byte machine its
# record has the headline figures, HITMs at 128 bytes only among them.
check_eq "core2's record: HITMs at 128 bytes only and at 64 only, under tcg=multi" \
	"$(jq '.tcg == "multi" and (.padding.hitm_128_only_load.median | type == "number") and
		(.padding.hitm_64_only_load.median | type == "number")' "$c/c2c/nocona.json" 2>/dev/null)" true

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

# The c2c section: core2 beside generic and mpsc, one machine, medians and
# spreads, and the objects core2 shares a line with.
check "report.json is valid against report/report.schema.json" v "$kf_tmp/report.json" report/report.schema.json
check_eq "report.json: c2c of core2, generic and mpsc on one machine, 5 runs" \
	"$(jq -r '[.flavours[] | select(.name == "core2" or .name == "generic" or .name == "mpsc") |
		"\(.name) \(.c2c.workload) \(.c2c.cpu) \(.c2c.memory) \(.c2c.smp) \(.c2c.runs)"] | join(", ")' \
		"$kf_tmp/report.json" 2>/dev/null)" "core2 pipe nocona 1G 2 5, generic pipe nocona 1G 2 5, mpsc pipe nocona 1G 2 5"
check "report.json: core2's, generic's and mpsc's c2c rows each have a median and a spread" jq -e \
	'[.flavours[] | select(.name == "core2" or .name == "generic" or .name == "mpsc") | .c2c |
	  .hitm_128_only_load, .hitm_64_only_load, .load_hitm_128, .load_hitm_false_128,
	  .store_hitm_128, .load_hitm_64, .insns_kernel, .insns_user |
	  (.median | type == "number") and (.spread | type == "number" and . >= 0)] | length == 24 and all' \
	"$kf_tmp/report.json"
check_eq "report.json: core2's lines of HITMs at 128 bytes only name both sides" \
	"$(jq -r '[.flavours[] | select(.name == "core2") | .c2c.lines_128_only[] |
		select((.functions | length) > 0 and (.functions_other | length) > 0)] | length > 0' \
		"$kf_tmp/report.json" 2>/dev/null)" true
sec=$(sed -n '/^Cache-line contention (emulated): pipe on nocona (-m 1G, -smp 2, tcg multi)/,/^mpsc: /p' "$kf_tmp/table")
if grep -Eq '^ +core2 +generic +k8 +mpsc *$' <<< "$sec" &&
	grep -Eq '^load HITMs at 128 B only +[0-9.]+ \([0-9]+%\) +[0-9.]+ \([0-9]+%\)' <<< "$sec" &&
	grep -Eq '^core2: [0-9]+\+? 128-byte lines? with HITMs at 128 B only' <<< "$sec"; then
	ok "report table: the c2c section on nocona (1G, 2 CPUs) has core2's column and lines"
else not_ok "report table: the c2c section"; diag < "$kf_tmp/table"; fi
html=$(tr '\n' ' ' < "$k/report.html" | grep -o '<section id="c2c">.*' | sed 's,</section>.*,,')
if grep -q '(<code>nocona</code>, <code>-m 1G</code>, <code>-smp 2</code>, TCG <code>multi</code>)' <<< "$html" &&
	grep -q '</span>core2</th>' <<< "$html" && grep -q '</span>generic</th>' <<< "$html" &&
	grep -q '</span>mpsc</th>' <<< "$html" && ! grep -q 'no record' <<< "$html" &&
	grep -Eq '<h3>core2: [0-9]+ 128-byte lines? with HITMs at 128 bytes only' <<< "$html" &&
	[ "$(grep -o '<small>([0-9]*%)</small>' <<< "$html" | wc -l)" = 56 ]; then
	ok "report.html: the c2c section, one machine, core2 beside generic and mpsc, 4 x 14 medians with spreads"
else not_ok "report.html: the c2c section"; fi

done_testing
