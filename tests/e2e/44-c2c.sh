#!/bin/bash
# c2c (issues 32, 45): the TCG plugin classifies the calibration cases at
# both line sizes under both TCG modes, with the HITMs at 128 bytes only
# where the counters are in two halves of one line; the counter's loads
# and stores equal the workload's arithmetic; under multi-threaded TCG the
# HITMs grow with the increments; the report claims no difference without
# a spread; the plugin's source is fetched once; bad input is refused with
# the fix. One run of each calibration case on generic (30-build.sh built
# it). Before 45-probe: tcg=single and c2c_smp=1 here change the c2c
# machine, which makes every run again; 45-probe's plain make then makes the
# default runs once, and 60-report's make report finds them made.
. tests/lib.sh
o=$KF_OUT
r=$o/6.1/generic/c2c
t=$o/tools

# --- the plugins: Debian's qemu source, fetched once -------------------------
check "make c2c-plugins: fetch Debian's qemu source, build the three plugins" \
	make out="$o" c2c-plugins
src=$(ls -d "$o"/qemu-src/[0-9]*/ 2>/dev/null | head -n 1)
check "the source cache holds the plugin header, insn.c and mem.c" \
	test -s "$src/include/qemu/qemu-plugin.h" -a -s "$src/tests/plugin/insn.c" -a -s "$src/tests/plugin/mem.c"
lists=$(stat -c %Y "$o"/qemu-src/apt/lists/*Sources* 2>/dev/null | md5sum)
make out="$o" c2c-plugins > "$kf_tmp/again.out" 2>&1
if ! grep -q FETCH "$kf_tmp/again.out" && [ "$(stat -c %Y "$o"/qemu-src/apt/lists/*Sources* 2>/dev/null | md5sum)" = "$lists" ]; then
	ok "a second make c2c-plugins downloads nothing"
else not_ok "a second make c2c-plugins downloads nothing"; diag < "$kf_tmp/again.out"; fi

# As a user who may not write /etc or /var/lib/apt (nobody, when the tests
# run as root): the private lists and cache under the given directory do.
if [ "$(id -u)" = 0 ]; then
	nr=$kf_tmp/nonroot && mkdir -p "$nr" && chmod 777 "$nr" && chmod o+x "$kf_tmp"
	setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$nr" \
		c2c/qemu-src.sh "$nr/qemu-src/v" "$(cat "$src/VERSION")" > "$kf_tmp/nr.out" 2>&1
	if [ "$(stat -c %U "$nr/qemu-src/v/include/qemu/qemu-plugin.h" 2>/dev/null)" = nobody ]; then
		ok "c2c/qemu-src.sh fetches the source as nobody, nothing in /etc"
	else not_ok "c2c/qemu-src.sh as nobody"; diag < "$kf_tmp/nr.out"; fi
else
	ok "c2c/qemu-src.sh ran as $(id -un) above (make c2c-plugins)"
fi

# --- calibration: one run of each case, under both TCG modes ---------------
# tcg=single first (round robin: HITMs count vCPU switches), then tcg=multi
# (the default: both vCPUs at once, HITMs grow with the increments).
# classify W S: the line of size S with the most HITMs (loads and stores
# to a modified line): "none" when it has fewer than 10 (a few stray HITMs
# come from the unpinned parent moving between CPUs: docs/c2c.md), "false"
# when every HITM of it is false sharing, "true" when none is.
classify() {
	jq -r --argjson s "$2" '[.lines[] | select(.size == $s) |
		{h: (.load_hitm.median + .store_hitm.median), l: .load_hitm.median,
		 lf: .load_hitm_false.median}] | max_by(.h) // {h: 0} |
		if .h < 10 then "none" elif .l < 5 then "few(\(.))"
		elif .lf == .l then "false" elif .lf == 0 then "true" else "mixed(\(.))" end' \
		"$r/$1.nocona.json" 2>/dev/null
}
calib_cases="calib-8 64 false|calib-8 128 false|calib-64 64 none|calib-64 128 false|calib-128 64 none|calib-128 128 none|calib-same 64 true|calib-same 128 true"
for tcg in single multi; do
	for W in calib-8 calib-64 calib-128 calib-same; do
		rm -rf "$r/runs/$W" "$r/$W.nocona.json"
		check "tcg=$tcg: make c2c workload=$W (generic, 1 run)" \
			make out="$o" c2c flavour=generic workload=$W runs=1 tcg=$tcg
	done
	IFS='|' read -ra cases <<< "$calib_cases"
	for c in "${cases[@]}"; do
		set -- $c
		check_eq "tcg=$tcg: $1 at $2 bytes: $3 sharing" "$(classify "$1" "$2")" "$3"
	done
	check_eq "tcg=$tcg: the record says its TCG mode" "$(jq -r .tcg "$r/calib-8.nocona.json")" "$tcg"
	# What a 128-byte line adds, access by access: 64 apart, every HITM
	# on the counters is one at 128 bytes only; 8 apart, none is.
	check_eq "tcg=$tcg: calib-64's HITMs are at 128 bytes only, calib-8's at both" \
		"$(jq '(.padding.hitm_128_only_load.median + .padding.hitm_128_only_store.median) >= 0.9 *
			(.figures["128"].load_hitm.median + .figures["128"].store_hitm.median)' "$r/calib-64.nocona.json") $(jq '.padding.hitm_128_only_load.median < 10' "$r/calib-8.nocona.json")" \
		"true true"
done
check_eq "the calibration counts user accesses" "$(jq -r .count "$r/calib-8.nocona.json")" user
check_eq "calib-8: 3,000,000 iterations, increments per CPU" \
	"$(jq -r '"\(.iterations) \(.unit)"' "$r/calib-8.nocona.json")" "3000000 increment per CPU"
# The workload's own arithmetic: each child increments a volatile counter
# 3,000,000 times, a load and a store each; the counter line sees exactly
# those, and each vCPU's counted loads and stores are those plus the few of
# its child's return from read() (docs/c2c.md).
check_eq "calib-8: the counter line has exactly 6,000,000 loads and 6,000,000 stores" \
	"$(jq -r '[.lines[] | select(.size == 64)] | max_by(.loads.median) | "\(.loads.median) \(.stores.median)"' "$r/calib-8.nocona.json")" \
	"6000000 6000000"
check_eq "calib-8: each vCPU's counted loads and stores are 3,000,000 plus fewer than 100" \
	"$(jq '[.insns.per_cpu[] | (.loads.median, .stores.median) | . >= 3000000 and . < 3000100] | all' "$r/calib-8.nocona.json")" true
# Under multi-threaded TCG both increment at once: HITMs on the counters
# grow with the increments (round robin counts ~150 vCPU switches).
h=$(jq '[.lines[] | select(.size == 64)] | max_by(.loads.median) | .load_hitm.median + .store_hitm.median' "$r/calib-8.nocona.json")
if [ -n "$h" ] && [ "${h%.*}" -ge 60000 ]; then
	ok "tcg=multi: calib-8 makes $h HITMs in 6,000,000 increments (1 per 100 or more)"
else not_ok "tcg=multi: calib-8 HITMs '$h', want 60,000 or more (1 per 100 increments)"; fi

v() { /usr/bin/python3 -W ignore -m jsonschema -i "$1" "$2"; }
for W in calib-8 calib-same; do
	check "$W.nocona.json is valid against c2c/c2c.schema.json" v "$r/$W.nocona.json" c2c/c2c.schema.json
done
check "a run's boot record is valid against boot/boot.schema.json" \
	v "$r/runs/calib-8/nocona/1/nocona.json" boot/boot.schema.json
jq '.figures["64"].load_hitm.spread = -1' "$r/calib-8.nocona.json" > "$kf_tmp/neg.json"
check_fails "the schema rejects a negative spread" 1 "less than the minimum" v "$kf_tmp/neg.json" c2c/c2c.schema.json

# Nothing changed: a second make c2c runs nothing.
before=$(stat -c %Y "$r/calib-8.nocona.json" "$r"/runs/calib-8/nocona/1/nocona.json | md5sum)
make out="$o" c2c flavour=generic workload=calib-8 runs=1 > "$kf_tmp/noop.out" 2>&1
check_eq "a second make c2c runs nothing" \
	"$(grep -c 'HOSTCC\|  C2C     /' "$kf_tmp/noop.out"):$(stat -c %Y "$r/calib-8.nocona.json" "$r"/runs/calib-8/nocona/1/nocona.json | md5sum)" \
	"0:$before"

# --- pipe, generic against mpsc on one machine (nocona, 128-byte lines) -----
# One run each (docs/c2c.md gives the spread of 5): with no spread the
# report claims no difference, and says so; the headline rows are there.
check "make c2c flavour='generic mpsc' runs=1 (pipe)" make out="$o" c2c flavour="generic mpsc" runs=1
for f in generic mpsc; do
	check_eq "$f: pipe under tcg=multi has HITMs at 128 bytes only and at 64 only, both vCPUs busy" \
		"$(jq '.tcg == "multi" and .padding.hitm_128_only_load.median > 0 and
			.padding.hitm_64_only_load.median > 0 and
			([.insns.per_cpu[].kernel.median] | min) > 0.3 * .insns.kernel.median' "$o/6.1/$f/c2c/nocona.json")" true
done
check "generic's pipe record is valid against c2c/c2c.schema.json" \
	v "$o/6.1/generic/c2c/nocona.json" c2c/c2c.schema.json

# The report's section "Cache-line contention (emulated)": table, report.json
# (valid) and HTML: the headline rows, the words, the lines of each side.
make -s out="$o" report-only flavour="generic mpsc" > "$kf_tmp/report.out" 2>&1
sec=$(sed -n '/^Cache-line contention (emulated): pipe on nocona/,/^mpsc: /p' "$kf_tmp/report.out")
if grep -q '^load HITMs at 128 B only' <<< "$sec" && grep -q '^load HITMs at 64 B only' <<< "$sec" &&
	grep -q '^A record of one run has no spread: no difference is claimed' <<< "$sec" &&
	! grep -Eq '%\) \*' <<< "$sec" &&
	grep -q '^generic: [0-9]*+* 128-byte lines* with HITMs at 128 B only' <<< "$sec"; then
	ok "report table: the headline rows, no star on one run, and the words saying why"
else not_ok "report table: the c2c section"; diag < "$kf_tmp/report.out"; fi
check "report.json is valid against report/report.schema.json" v "$o/6.1/report.json" report/report.schema.json
check_eq "report.json: the verdict in words and generic's lines of HITMs at 128 bytes only" \
	"$(jq -r '(.c2c_verdict | startswith("A record of one run")) and
		([.flavours[] | select(.name == "generic") | .c2c.lines_128_only[] |
		  select((.functions | length) > 0 and (.functions_other | length) > 0)] | length > 0)' "$o/6.1/report.json")" true
check "report.html: the section, its headline and its words" \
	sh -c "grep -q '<h2>Cache-line contention (emulated)</h2>' '$o/6.1/report.html' &&
		grep -q '<b>load HITMs at 128 B only</b>' '$o/6.1/report.html' &&
		grep -q '<p class=\"verdict\">A record of one run' '$o/6.1/report.html'"

# --- c2c-record: a bad run is refused, the record left as it was -------------
rec=$r/calib-8.nocona.json
sum=$(md5sum < "$rec")
bad=$kf_tmp/badrun
mkdir -p "$bad"
cp "$r"/runs/calib-8/nocona/1/nocona.* "$bad"/
jq '.verdict = "test-fail"' "$bad/nocona.json" > "$bad/x" && mv "$bad/x" "$bad/nocona.json"
refused() {	# refused NAME PATTERN: c2c-record exits 2 saying PATTERN
	local rc
	"$t/c2c-record" --out "$rec" --flavour generic --kver 6.1 --cpu nocona --workload calib-8 \
		--run "$bad/nocona.json" > "$kf_tmp/rec.out" 2>&1
	rc=$?
	if [ $rc = 2 ] && grep -q "$2" "$kf_tmp/rec.out" && [ "$(md5sum < "$rec")" = "$sum" ]; then
		ok "c2c-record refuses $1, record untouched"
	else not_ok "c2c-record refuses $1 (exit $rc)"; diag < "$kf_tmp/rec.out"; fi
}
refused "a run that did not pass" "verdict is test-fail, not pass; the init's reason"
cp "$r"/runs/calib-8/nocona/1/nocona.json "$bad"/
sed -i '/^end$/d' "$bad/nocona.raw"
refused "raw output cut off" "no 'end' line: the plugin's output was cut off"
rm -f "$bad/nocona.raw"
refused "a run without raw output" "the plugin writes it when QEMU exits"
# Runs of two TCG modes in one record: refused by name.
cp "$r"/runs/calib-8/nocona/1/nocona.* "$bad"/
sed -i 's/^tcg multi$/tcg single/' "$bad/nocona.raw"
"$t/c2c-record" --out "$rec" --flavour generic --kver 6.1 --cpu nocona --workload calib-8 \
	--run "$r"/runs/calib-8/nocona/1/nocona.json --run "$bad/nocona.json" > "$kf_tmp/rec.out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q "another machine, count= or TCG mode than" "$kf_tmp/rec.out" &&
	[ "$(md5sum < "$rec")" = "$sum" ]; then ok "c2c-record refuses runs of two TCG modes, record untouched"
else not_ok "c2c-record refuses runs of two TCG modes (exit $rc)"; diag < "$kf_tmp/rec.out"; fi
check_fails "make c2c refuses an unknown tcg=" 2 "tcg=both: want multi" make out="$o" c2c flavour=generic tcg=both
# A QEMU that cannot run this guest multi-threaded says so in its log and
# goes on: such a run is refused by name, the fix named.
cp "$r"/runs/calib-8/nocona/1/nocona.* "$bad"/
echo "[+   0.010]! qemu: qemu-system-x86_64: warning: Guest not yet converted to MTTCG - you may get unexpected results" >> "$bad/nocona.log"
refused "a run whose QEMU could not run the guest multi-threaded" "cannot run the guest under multi-threaded TCG: .*Guest not yet converted to MTTCG.*Run make c2c tcg=single"
# Attribution from the probe's facts, never a guess: a run without them
# (a kernel without patches/<kver>/0003) is refused by name.
cp "$r"/runs/calib-8/nocona/1/nocona.* "$bad"/
jq 'del(.facts["probe.cpu1.percpu_phys"])' "$bad/nocona.json" > "$bad/x" && mv "$bad/x" "$bad/nocona.json"
"$t/c2c-record" --out "$rec" --flavour generic --kver 6.1 --cpu nocona --workload calib-8 \
	--vmlinux "$o/6.1/generic/vmlinux" --run "$bad/nocona.json" > "$kf_tmp/rec.out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q "no probe.cpu1.percpu_phys fact: .*c2c-record does not guess" "$kf_tmp/rec.out" &&
	[ "$(md5sum < "$rec")" = "$sum" ]; then ok "c2c-record refuses a run without the probe's layout facts, record untouched"
else not_ok "c2c-record refuses a run without the probe's layout facts (exit $rc)"; diag < "$kf_tmp/rec.out"; fi

# --- make: a plugin header of another API, a QEMU without -plugin ------------
fake=$kf_tmp/fakesrc
mkdir -p "$fake/include/qemu" "$fake/tests/plugin"
echo '#define QEMU_PLUGIN_VERSION 2' > "$fake/include/qemu/qemu-plugin.h"
touch "$fake/VERSION"
make out="$o" c2c-plugins qemu_src="$fake" c2c_plugin_dir="$kf_tmp/p1" > "$kf_tmp/api.out" 2>&1
rc=$?
if [ $rc != 0 ] && grep -q "is plugin API 2, c2c/plugin.c is written for API 1" "$kf_tmp/api.out" &&
	[ ! -e "$kf_tmp/p1/kf-c2c.so" ]; then ok "a plugin header of API 2 is refused"
else not_ok "a plugin header of API 2 is refused (exit $rc)"; diag < "$kf_tmp/api.out"; fi
printf '#!/bin/sh\necho "qemu-system-x86_64: -plugin: invalid option" >&2\nexit 1\n' > "$kf_tmp/noplugin-qemu"
chmod +x "$kf_tmp/noplugin-qemu"
make out="$o" c2c-plugins qemu_bin="$kf_tmp/noplugin-qemu" c2c_plugin_dir="$kf_tmp/p2" > "$kf_tmp/np.out" 2>&1
rc=$?
if [ $rc != 0 ] && grep -q "does not take -plugin (qemu-system-x86_64: -plugin: invalid option): it was built without TCG plugin support" "$kf_tmp/np.out"; then
	ok "a QEMU without plugin support is refused"
else not_ok "a QEMU without plugin support is refused (exit $rc)"; diag < "$kf_tmp/np.out"; fi
# A source version the mirror does not have (apt-get source fails).
make out="$o" c2c-plugins qemu_src_version=1:0.0-0kf c2c_plugin_dir="$kf_tmp/p3" > "$kf_tmp/nosrc.out" 2>&1
rc=$?
if [ $rc != 0 ] && grep -q "cannot fetch Debian's source package qemu=1:0.0-0kf" "$kf_tmp/nosrc.out" &&
	[ ! -e "$o/qemu-src/1_0.0-0kf" ]; then ok "a source package the mirror lacks is refused, nothing left"
else not_ok "a source package the mirror lacks is refused (exit $rc)"; diag < "$kf_tmp/nosrc.out"; fi
check "the cached source is still there" test -s "$src/include/qemu/qemu-plugin.h"

# --- a kernel that cannot run the workload: one CPU online -------------------
# (as a kernel without CONFIG_SMP would be): the init fails c2c_workload,
# make c2c refuses naming the run's log, the earlier record stays; the
# machine back to 2 CPUs, the run is made again.
rec=$r/calib-128.nocona.json
sum=$(md5sum < "$rec")
make out="$o" c2c flavour=generic workload=calib-128 runs=1 c2c_smp=1 > "$kf_tmp/smp1.out" 2>&1
rc=$?
if [ $rc != 0 ] && grep -q "verdict is test-fail, not pass; the init's reason (c2c_workload) is in .*/runs/calib-128/nocona/1/nocona.log" "$kf_tmp/smp1.out" &&
	grep -q "c2c_workload: calib-128 needs 2 CPUs online" "$r/runs/calib-128/nocona/1/nocona.log" &&
	[ "$(md5sum < "$rec")" = "$sum" ]; then ok "one CPU: make c2c refuses, names the log; the record is untouched"
else not_ok "one CPU: make c2c refuses (exit $rc)"; diag < "$kf_tmp/smp1.out"; fi
check "2 CPUs again: the run is made again and the record rewritten" \
	make out="$o" c2c flavour=generic workload=calib-128 runs=1
check_eq "... as none sharing at 128 bytes" "$(classify calib-128 128)" none

done_testing
