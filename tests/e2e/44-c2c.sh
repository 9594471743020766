#!/bin/bash
# c2c (issue 32): the TCG plugin classifies the calibration cases at both
# line sizes; its whole-run instruction and access counts equal those of
# QEMU's own insn and mem plugins loaded beside it in the same runs; the
# plugin's source is fetched once; bad input is refused with the fix.
# One run of each calibration case on generic (30-build.sh built it).
# Before 45-probe: crosscheck=1 and c2c_smp=1 here change the c2c machine,
# which makes every run again; 45-probe's plain make then makes the default
# runs once, and 60-report's make report finds them made.
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

# --- calibration: one run of each case, QEMU's insn and mem beside ours ------
for w in calib-8 calib-64 calib-128 calib-same; do
	rm -rf "$r/runs/$w" "$r/$w.nocona.json"
	check "make c2c workload=$w (generic, 1 run, crosscheck=1)" \
		make out="$o" c2c flavour=generic workload=$w runs=1 crosscheck=1
done
# The figures of the line with the most HITMs at size S: "hitm false", or
# "none" when no line has 10 or more (a few stray HITMs come from the
# unpinned parent moving between CPUs: docs/c2c.md).
top() {
	jq -r --argjson s "$2" '[.lines[] | select(.size == $s and .hitm.median >= 10)] |
		if length == 0 then "none" else (.[0] | "\(.hitm.median) \(.hitm_false.median)") end' \
		"$r/$1.nocona.json" 2>/dev/null
}
# classify W S: false (every HITM of the line false), true (none false), none.
classify() {
	local v; v=$(top "$1" "$2")
	case $v in
	none) echo none ;;
	*) set -- $v
	   if [ "${1%.*}" -lt 20 ]; then echo "few($1)"
	   elif [ "$1" = "$2" ]; then echo false
	   elif [ "${2%.*}" = 0 ]; then echo true
	   else echo "mixed($v)"; fi ;;
	esac
}
for c in "calib-8 64 false" "calib-8 128 false" "calib-64 64 none" "calib-64 128 false" \
	 "calib-128 64 none" "calib-128 128 none" "calib-same 64 true" "calib-same 128 true"; do
	set -- $c
	check_eq "$1 at $2 bytes: $3 sharing" "$(classify "$1" "$2")" "$3"
done
check_eq "the calibration counts user accesses" "$(jq -r .count "$r/calib-8.nocona.json")" user
check_eq "calib-8: 3,000,000 iterations, increments per CPU" \
	"$(jq -r '"\(.iterations) \(.unit)"' "$r/calib-8.nocona.json")" "3000000 increment per CPU"
# Each CPU's window: about 5 user instructions an increment.
n=$(jq -r '.insns.per_cpu | map(.user.median) | map(. >= 3000000*4 and . <= 3000000*6) | all' \
	"$r/calib-8.nocona.json")
check_eq "calib-8: each CPU ran 4-6 user instructions an increment" "$n" true

# Whole-run totals: ours against QEMU's insn (inline=true) and mem
# (inline=true) plugins in the same run. Ours counts instructions inline as
# insn.c does, and accesses in its callback, RAM and IO, one per access as
# mem.c's inline count does: equal, no difference to explain.
for w in calib-8 calib-64 calib-128 calib-same; do
	d=$r/runs/$w/nocona/1
	ours=$(awk '$1 == "insns" { i = $2 } $1 == "mem" { m = $2 } END { print i, m }' "$d/nocona.raw")
	qemus=$(sed -n 's/.*! qemu: insns: \([0-9]*\)$/\1/p' "$d/nocona.log")
	qemum=$(sed -n 's/.*! qemu: inline mem accesses: \([0-9]*\)$/\1/p' "$d/nocona.log")
	if [ -n "$qemus" ] && [ -n "$qemum" ] && [ "$ours" = "$qemus $qemum" ]; then
		ok "$w: instructions and accesses equal QEMU's insn and mem plugins ($ours)"
	else not_ok "$w: ours '$ours', QEMU's insn '$qemus' mem '$qemum'"; fi
done

v() { /usr/bin/python3 -W ignore -m jsonschema -i "$1" "$2"; }
for w in calib-8 calib-same; do
	check "$w.nocona.json is valid against c2c/c2c.schema.json" v "$r/$w.nocona.json" c2c/c2c.schema.json
done
check "a run's boot record is valid against boot/boot.schema.json" \
	v "$r/runs/calib-8/nocona/1/nocona.json" boot/boot.schema.json
jq '.figures["64"].hitm.spread = -1' "$r/calib-8.nocona.json" > "$kf_tmp/neg.json"
check_fails "the schema rejects a negative spread" 1 "less than the minimum" v "$kf_tmp/neg.json" c2c/c2c.schema.json

# Nothing changed: a second make c2c runs nothing.
before=$(stat -c %Y "$r/calib-8.nocona.json" "$r"/runs/calib-8/nocona/1/nocona.json | md5sum)
make out="$o" c2c flavour=generic workload=calib-8 runs=1 crosscheck=1 > "$kf_tmp/noop.out" 2>&1
check_eq "a second make c2c runs nothing" \
	"$(grep -c 'HOSTCC\|  C2C     /' "$kf_tmp/noop.out"):$(stat -c %Y "$r/calib-8.nocona.json" "$r"/runs/calib-8/nocona/1/nocona.json | md5sum)" \
	"0:$before"

# --- pipe, generic against mpsc on one machine (nocona, 128-byte lines) -----
# generic's 64-byte-aligned per-CPU objects share 128-byte lines
# (FIELD.md): the record names them; mpsc's 128-byte padding keeps them
# apart. One run each (the docs give the spread of 5). Which neighbours
# share a line moves with the layout (docs/c2c.md); call_single_queue is
# in one whatever the layout: every wake-up of the reader on the other CPU
# queues onto that CPU's call_single_queue (ttwu_queue_wakelist) and the
# other CPU empties it; aligned to 64 bytes, it has had a neighbour in its
# 128-byte line in every layout seen.
check "make c2c flavour='generic mpsc' runs=1 (pipe)" make out="$o" c2c flavour="generic mpsc" runs=1
pairs() {	# the 128-byte per-CPU lines of 100+ HITMs holding 2+ objects
	jq -r '[.lines[] | select(.size == 128 and .percpu_cpu != null and .nobjects >= 2 and
		.hitm.median >= 100) | .objects | join("+")] | unique | join(" ")' "$o/6.1/$1/c2c/nocona.json"
}
g=$(pairs generic) m=$(pairs mpsc)
if [[ " $g " =~ [+\ ]call_single_queue[+\ ] ]]; then
	ok "generic: per-CPU objects share 128-byte lines, call_single_queue's among them ($g)"
else not_ok "generic: call_single_queue shares a 128-byte per-CPU line (got '$g')"; fi
check_eq "mpsc: no per-CPU line of 100+ HITMs holds two objects" "$m" ""
gm=$(jq '.figures["128"].hitm_multi_object.median' "$o/6.1/generic/c2c/nocona.json")
mm=$(jq '.figures["128"].hitm_multi_object.median' "$o/6.1/mpsc/c2c/nocona.json")
[ -n "$gm" ] && [ -n "$mm" ] && [ "${gm%.*}" -gt $(( 20 * (${mm%.*} + 1) )) ] &&
	ok "HITMs on 128-byte lines of 2+ objects: generic $gm, mpsc $mm" ||
	not_ok "HITMs on 128-byte lines of 2+ objects: generic '$gm' not 20x mpsc '$mm'"
check_eq "the per-CPU chunk was found at the same base for both" \
	"$(jq -r .attribution.percpu_base "$o/6.1/generic/c2c/nocona.json") $(jq -r .attribution.percpu_base "$o/6.1/mpsc/c2c/nocona.json")" \
	"0x3fc00000 0x3fc00000"
check "generic's pipe record is valid against c2c/c2c.schema.json" \
	v "$o/6.1/generic/c2c/nocona.json" c2c/c2c.schema.json

# The report's section "Cache-line contention (emulated)": table, report.json
# (valid) and HTML name the objects that share a line in generic, not mpsc.
make -s out="$o" report-only flavour="generic mpsc" > "$kf_tmp/report.out" 2>&1
sec=$(sed -n '/^Cache-line contention (emulated): pipe on nocona/,/^mpsc: /p' "$kf_tmp/report.out")
if grep -q '^  on lines of 2+ objects' <<< "$sec" &&
	grep -q '^generic: [0-9]* 128-byte lines of 2+ objects with HITMs, most first:' <<< "$sec" &&
	grep -Eq '^  [0-9]+ HITMs on ([a-z0-9_]+\+)*call_single_queue(\+[a-z0-9_]+)* \(CPU [01]\)$' <<< "$sec" &&
	grep -q '^mpsc: 0 128-byte lines of 2+ objects' <<< "$sec"; then
	ok "report table: the c2c section names generic's shared lines, none for mpsc"
else not_ok "report table: the c2c section"; diag < "$kf_tmp/report.out"; fi
check "report.json is valid against report/report.schema.json" v "$o/6.1/report.json" report/report.schema.json
check_eq "report.json: generic's shared 128-byte lines include call_single_queue's, with another object" \
	"$(jq -r '[.flavours[] | select(.name == "generic") | .c2c.shared_lines_128[].objects |
		select(index("call_single_queue") != null and length >= 2)] | length > 0' "$o/6.1/report.json")" true
check "report.html: the section and generic's call_single_queue line" \
	sh -c "grep -q '<h2>Cache-line contention (emulated)</h2>' '$o/6.1/report.html' &&
		grep -Eq '<code>call_single_queue</code> \+ <code>|</code> \+ <code>call_single_queue</code>' '$o/6.1/report.html'"

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
make out="$o" c2c flavour=generic workload=calib-128 runs=1 crosscheck=1 c2c_smp=1 > "$kf_tmp/smp1.out" 2>&1
rc=$?
if [ $rc != 0 ] && grep -q "verdict is test-fail, not pass; the init's reason (c2c_workload) is in .*/runs/calib-128/nocona/1/nocona.log" "$kf_tmp/smp1.out" &&
	grep -q "c2c_workload: calib-128 needs 2 CPUs online" "$r/runs/calib-128/nocona/1/nocona.log" &&
	[ "$(md5sum < "$rec")" = "$sum" ]; then ok "one CPU: make c2c refuses, names the log; the record is untouched"
else not_ok "one CPU: make c2c refuses (exit $rc)"; diag < "$kf_tmp/smp1.out"; fi
check "2 CPUs again: the run is made again and the record rewritten" \
	make out="$o" c2c flavour=generic workload=calib-128 runs=1 crosscheck=1
check_eq "... as none sharing at 128 bytes" "$(classify calib-128 128)" none

done_testing
