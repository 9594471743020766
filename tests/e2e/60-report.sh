#!/bin/bash
# Report stage (issue 6): the table fits 100 columns, report.json validates
# against report/report.schema.json (Debian's python3-jsonschema), report.html
# renders in headless Chromium with a verdict-coloured matrix and SVG bars,
# a half-finished out/ shows "not built"/"not booted" instead of crashing,
# and the make targets (report, diffconfig, logdiff) work on the real out/.
. tests/lib.sh
o=$KF_OUT
tool=$o/tools/report
fixture=tests/data/report/out/6.1
recipe() { sed -n "s/^$2 *= *//p" "flavours/$1.flavour"; }	# recipe FLAVOUR KEY
frags() {	# frags FLAVOUR: FLAVOUR=its fragment files (6.1), as make passes them
	local f=$1 files
	files=$(recipe "$f" fragments | xargs printf 'fragments/%s.config ')
	files=$(echo $files)
	echo "$f=${files// /,}"
}
# Debian's jsonschema CLI (not a pip one earlier in PATH): -i INSTANCE SCHEMA.
validate() { /usr/bin/python3 -m jsonschema -i "$1" report/report.schema.json; }
jq_py() {	# jq_py FILE EXPR: print a Python expression over the JSON as d
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
# Widest line in display columns (UTF-8 aware, escapes stripped).
widest() { /usr/bin/python3 -c 'import re,sys; print(max((len(re.sub(r"\x1b\[[0-9;]*m","",l.rstrip("\n"))) for l in open(sys.argv[1],encoding="utf-8")), default=0))' "$1"; }
has() { grep -qF -- "$2" "$1"; }
# dom_checks DOM WHAT: what every rendered report must have.
dom_checks() {
	local dom=$1 what=$2
	check "$what: matrix cells classed by verdict" grep -Eq 'class="cell verdict-(pass|test-fail|panic|oops|refused|hang|qemu-error|none)' "$dom"
	check "$what: SVG bar charts with <rect> bars" grep -q '<rect class="bar' "$dom"
	check "$what: no script, nothing loaded from elsewhere" \
		bash -c "! grep -Eiq '<script|<link|<img|<iframe|src=|@import|url\\(' '$dom'"
}

check "the report tool builds" make "$tool" out="$o"

# 1. The fixture (tests/data/report/README: a real make's records): three
#    flavours, one of them only configured.
fx=$kf_tmp/fx
mkdir -p "$fx" && cp -a "$fixture" "$fx/"
check "report on the fixture" "$tool" --width 100 "$fx/6.1" "$(frags generic)" "$(frags k8)" mpsc
"$tool" "$fx/6.1" "$(frags generic)" "$(frags k8)" mpsc > "$kf_tmp/table" 2>&1
w=$(widest "$kf_tmp/table")
[ "$w" -le 100 ] && ok "table fits 100 columns ($w)" || { not_ok "table fits 100 columns ($w)"; diag < "$kf_tmp/table"; }
check "table: mpsc's .data is +2.6K on generic's" grep -Eq '^\.data .*\(\+2\.6K\)' "$kf_tmp/table"
check "table: k8 is configured, not built" grep -Eq '^bzImage bytes +1692672 +not built +1651712 \(-40\.0K\)' "$kf_tmp/table"
check "table: line verdicts per CPU model" grep -Eq '^boot nocona +pass 1\.7s too-small +not booted +pass 2\.4s match' "$kf_tmp/table"
check "report.json validates against the schema" validate "$fx/6.1/report.json"
sed 's/"line_verdict": "match"/"line_verdict": "fits"/' "$fx/6.1/report.json" > "$kf_tmp/bad.json"
check_fails "a report.json with a bad line verdict does not validate" 1 "fits" validate "$kf_tmp/bad.json"
j=$fx/6.1/report.json
check_eq "json: kernel release (the header)" "$(jq_py "$j" 'd["release"]')" 6.1.192
check_eq "json: L1 bytes per flavour" "$(jq_py "$j" '[f["config"]["l1_cache_bytes"] for f in d["flavours"]]')" "[64, 64, 128]"
check_eq "json: CPU choice per flavour" "$(jq_py "$j" '[f["config"]["cpu"] for f in d["flavours"]]')" "['GENERIC_CPU', 'MK8', 'MPSC']"
check_eq "json: k8 not built is null, not 0" "$(jq_py "$j" 'd["flavours"][1]["build"]')" None
check_eq "json: the build's ccache, no shared cache" "$(jq_py "$j" 'd["flavours"][0]["build"]["ccache"]')" \
	"{'enabled': True, 'hits': 0, 'misses': 1018, 'remote': None}"
# The shared cache's figures (build.json's ccache.remote, lib/records.c): in
# the table's and report.html's "build ccache" row and report.json; its URL
# never, so no password (here one a record should never hold) either.
rc=$kf_tmp/remote
mkdir -p "$rc" && cp -a "$fixture" "$rc/"
jq '.ccache = {enabled: true, hits: 1000, misses: 18, remote: {url: "redis://:hunter2secret@198.51.100.2:6379",
	used: true, off_because: null, hits: 990, misses: 28, errors: 2, timeouts: 1, stored: 18}}' \
	"$fixture/generic/build.json" > "$rc/6.1/generic/build.json"
jq '.ccache.remote = {url: "redis://:***@198.51.100.2:6379", used: false,
	off_because: "redis://:***@198.51.100.2:6379 refuses the password (AUTH)", hits: 0, misses: 0,
	errors: 0, timeouts: 0, stored: 0}' "$fixture/mpsc/build.json" > "$rc/6.1/mpsc/build.json"
"$tool" --width 100 --json "$rc/6.1/report.json" --html "$rc/6.1/report.html" "$rc/6.1" \
	"$(frags generic)" "$(frags k8)" mpsc > "$kf_tmp/rtable" 2>&1
check "table: the build ccache row" grep -Eq '^build ccache +1000/1018 hits +not built +9/1018 hits ' "$kf_tmp/rtable"
check "table: under it, the shared cache's hits and failures, or off" \
	grep -Eq '^  shared cache +990 hits, 3 failed +not built +off ' "$kf_tmp/rtable"
check "table: no shared cache row when no build had one" bash -c "! grep -q 'shared cache  ' '$kf_tmp/table'"
check "report.html: the row, and why the shared cache was off" \
	grep -q '<td class="k">build ccache</td><td>1000/1018 hits, shared cache: 990 hits, 3 failed</td>.*9/1018 hits, shared cache: off <span class="missing">(redis://:\*\*\*@198.51.100.2:6379 refuses the password (AUTH))' "$rc/6.1/report.html"
check "report.json with the shared cache validates" validate "$rc/6.1/report.json"
check_eq "json: the shared cache's figures" "$(jq_py "$rc/6.1/report.json" '[f["build"]["ccache"]["remote"] for f in d["flavours"] if f["build"]]')" \
	"[{'used': True, 'off_because': None, 'hits': 990, 'misses': 28, 'errors': 2, 'timeouts': 1, 'stored': 18}, {'used': False, 'off_because': 'redis://:***@198.51.100.2:6379 refuses the password (AUTH)', 'hits': 0, 'misses': 0, 'errors': 0, 'timeouts': 0, 'stored': 0}]"
check_eq "no output shows the URL's password" "$(grep -l hunter2 "$kf_tmp/rtable" "$rc/6.1/report.json" "$rc/6.1/report.html")" ""
check_eq "json: mpsc on nocona" \
	"$(jq_py "$j" '[(b["cache_alignment"], b["line_verdict"], b["threads_per_core"], b["cores"], b["swiotlb"]) for b in d["flavours"][2]["boots"] if b["cpu"]=="nocona"]')" \
	"[(128, 'match', 2, 1, True)]"
check_eq "json: generic on nocona, facts from the probe" \
	"$(jq_py "$j" '[(b["line_verdict"], b["line_verdict_source"], b["swiotlb"], b["swiotlb_source"]) for b in d["flavours"][0]["boots"] if b["cpu"]=="nocona"]')" \
	"[('too-small', 'probe', False, 'probe')]"
# Without probe facts: the line verdict from config.json's line size, SWIOTLB
# from the record's console (what the runner read), not from the log.
np=$kf_tmp/noprobe/6.1
mkdir -p "$np" && cp -a "$fixture/generic" "$np/"
for c in qemu64 nocona; do
	jq '.facts |= with_entries(select(.key | startswith("probe.") | not))' \
		"$fixture/generic/boot/$c.json" > "$np/generic/boot/$c.json"
done
jq '.console.swiotlb_mapped = true' "$np/generic/boot/nocona.json" > "$np/x" && mv "$np/x" "$np/generic/boot/nocona.json"
"$tool" --quiet "$np" "$(frags generic)"
check_eq "json: without the probe, computed and from the record's console" \
	"$(jq_py "$np/report.json" '[(b["cpu"], b["line_verdict"], b["line_verdict_source"], b["swiotlb"], b["swiotlb_source"]) for b in d["flavours"][0]["boots"]]')" \
	"[('qemu64', 'match', 'computed', False, 'console'), ('nocona', 'too-small', 'computed', True, 'console')]"
check_eq "json: MPSC was set by cpu-mpsc.config, default elsewhere" \
	"$(jq_py "$j" '[(s["group"], s["flavours"]["mpsc"]["fragment"], s["flavours"]["generic"]["fragment"]) for s in d["config_diff"] if s["symbol"]=="MPSC"]')" \
	"[('cpu', 'fragments/cpu-mpsc.config', '(default)')]"
check_eq "json: console diffs for the pairs that exist" \
	"$(jq_py "$j" 'sorted((x["kind"], x["a"]["flavour"]+"/"+x["a"]["cpu"], x["b"]["flavour"]+"/"+x["b"]["cpu"]) for x in d["log_diffs"])')" \
	"[('cpus', 'generic/qemu64', 'generic/nocona'), ('cpus', 'mpsc/nocona', 'mpsc/i686'), ('cpus', 'mpsc/nocona', 'mpsc/qemu64'), ('flavours', 'generic/nocona', 'mpsc/nocona'), ('flavours', 'generic/qemu64', 'mpsc/qemu64')]"
check "html: every piece of text escaped (no raw '<' in text)" \
	bash -c "! grep -q '&lt;script' '$fx/6.1/report.html' && grep -q 'software IO TLB: mapped \[mem &lt;addr&gt;' '$fx/6.1/report.html'"

check "render the fixture's report.html in headless Chromium" \
	report/render.sh "$fx/6.1/report.html" "$fx/6.1/report.png" "$fx/6.1/dom.html"
dom_checks "$fx/6.1/dom.html" fixture
check "fixture DOM: pass, refused and not-booted cells" bash -c \
	"grep -q 'class=\"cell verdict-pass' '$fx/6.1/dom.html' && grep -q 'class=\"cell verdict-refused' '$fx/6.1/dom.html' && grep -q 'class=\"cell verdict-none' '$fx/6.1/dom.html'"
check "fixture DOM: a cell links to its log, relative to out/<kver>/" grep -q 'href="mpsc/boot/nocona.log"' "$fx/6.1/dom.html"
check "fixture DOM: config diff and console diffs" bash -c \
	"grep -q 'CONFIG_X86_L1_CACHE_SHIFT' '$fx/6.1/dom.html' && grep -q '+PCI-DMA: Using software bounce buffering' '$fx/6.1/dom.html'"

check "valgrind: the report on the fixture is clean" valgrind -q --error-exitcode=3 \
	--leak-check=full --errors-for-leak-kinds=definite,indirect \
	"$tool" --quiet --json "$kf_tmp/vg.json" --html "$kf_tmp/vg.html" "$fx/6.1" generic k8 mpsc nosuch

# 2. Half-finished out/: one flavour done, one only configured, one with
#    nothing at all, and a boot record cut off in the middle.
hf=$kf_tmp/half/6.1
mkdir -p "$hf/k8" "$hf/generic"
cp -a "$fixture/generic/." "$hf/generic/"
cp "$fixture/k8/.config" "$fixture/k8/config.json" "$hf/k8/"
head -c 200 "$fixture/generic/boot/qemu64.json" > "$hf/generic/boot/opteron.json"
check "report on a half-finished out/ does not fail" "$tool" "$hf" "$(frags generic)" "$(frags k8)" "$(frags mpsc)"
"$tool" "$hf" generic k8 mpsc > "$kf_tmp/half.txt" 2>&1
check "half: k8 'configured', mpsc 'not configured'" grep -Eq '^status +booted +configured +not configured' "$kf_tmp/half.txt"
check "half: 'not built' where nothing was built" grep -Eq '^bzImage bytes +1692672 +not built +not built' "$kf_tmp/half.txt"
check "half: '—' where there is no config" grep -Eq '^L1 line bytes +64 +64 +—' "$kf_tmp/half.txt"
check "half: 'not booted' where nothing booted" grep -Eq '^boot qemu64 +pass 2\.3s match +not booted +not booted' "$kf_tmp/half.txt"
check "half: the cut-off record is named" grep -q 'opteron.json.*treated as missing' "$kf_tmp/half.txt"
check "half: report.json validates" validate "$hf/report.json"
check_eq "half: mpsc has no config, build or boots" \
	"$(jq_py "$hf/report.json" '(d["flavours"][2]["status"], d["flavours"][2]["config"], d["flavours"][2]["build"], d["flavours"][2]["boots"])')" \
	"('not configured', None, None, [])"
check "half: report.html says 'not built' and 'not booted'" bash -c \
	"grep -q 'not built' '$hf/report.html' && grep -q 'not booted' '$hf/report.html'"
check "render the half-finished report" report/render.sh "$hf/report.html" "$hf/report.png" "$hf/dom.html"
dom_checks "$hf/dom.html" half-finished

# 2b. A boot record of an earlier build (its bzimage_sha256 is not the one
#     build.json names) is left out and named; one of this build is shown.
sf=$kf_tmp/stale/6.1
mkdir -p "$sf/generic"
cp -a "$fixture/generic/." "$sf/generic/"
sha=$(jq -r .bzimage_sha256 "$sf/generic/build.json")
jq --arg s "$sha" '.bzimage_sha256 = $s' "$fixture/generic/boot/qemu64.json" > "$sf/generic/boot/qemu64.json"
jq '.bzimage_sha256 = "0000000000000000000000000000000000000000000000000000000000000000"' \
	"$fixture/generic/boot/nocona.json" > "$sf/generic/boot/nocona.json"
"$tool" "$sf" "$(frags generic)" > "$kf_tmp/stale.txt" 2>&1
check "stale: this build's boot is shown" grep -Eq '^boot qemu64 +pass 2\.3s match' "$kf_tmp/stale.txt"
check "stale: the earlier build's boot is not" bash -c "! grep -q '^boot nocona' '$kf_tmp/stale.txt'"
check "stale: the table names it" grep -qx 'left out, boots of an earlier generic bzImage on: nocona' "$kf_tmp/stale.txt"
check_eq "stale: report.json lists it in stale_boots, not in boots" \
	"$(jq -c '.flavours[0] | [.stale_boots, [.boots[].cpu]]' "$sf/report.json")" '[["nocona"],["qemu64"]]'
check "stale: report.json validates" validate "$sf/report.json"
check "stale: report.html names it" grep -q 'Left out, boots of an earlier generic bzImage on: nocona' "$sf/report.html"

# 2c. Config differences at distro scale (issue 16): a real .config with
#     every unset symbol set is hundreds of differences; report.html shows
#     the cpu, cache, smt and microcode groups in full and folds the rest by
#     Kconfig menu (one <details> each); report.json keeps every symbol. The
#     fixture's few differences stay one table.
mf=$kf_tmp/many/6.1
mkdir -p "$mf/generic" "$mf/wide"
cp "$fixture/generic/.config" "$fixture/generic/config.json" "$mf/generic/"
sed 's/^# CONFIG_\(.*\) is not set$/CONFIG_\1=y/' "$fixture/generic/.config" > "$mf/wide/.config"
"$tool" --quiet "$mf" generic wide > /dev/null 2>&1
n=$(jq '.config_diff | length' "$mf/report.json")
[ "$n" -gt 300 ] && ok "many: $n symbols differ, all in report.json" || not_ok "many: $n symbols differ, all in report.json"
check "many: report.json validates" validate "$mf/report.json"
menus=$(grep -c '^<details><summary><span class="kind">[0-9]* symbols\?</span>' "$mf/report.html")
[ "$menus" -gt 10 ] && ok "many: the other group folded into $menus menus" || not_ok "many: the other group folded into $menus menus"
check "many: a menu two levels deep, named as Kconfig names it" \
	grep -q '<span class="kind">[0-9]* symbols\?</span>Device Drivers &gt; Character devices</summary>' "$mf/report.html"
folded=$(grep -o '<span class="kind">[0-9]* symbols\?</span>' "$mf/report.html" | grep -o "[0-9]*" | awk "{s += \$1} END {print s}")
shown=$(grep -o '<tr><td><code>CONFIG_' "$mf/report.html" | wc -l)
others=$(jq '[.config_diff[] | select(.group == "other")] | length' "$mf/report.json")
check_eq "many: the menus' counts add up to the other group" "$folded" "$others"
check_eq "many: every symbol is a row, folded or not" "$shown" "$n"
check "many: the cpu group is not folded (shown before the first menu)" bash -c \
	"sed -n '/<section id=\"config\"/,/<details>/p' '$mf/report.html' | grep -q '<code>CONFIG_MK8</code>'"
check "few: the fixture's differences are not folded" bash -c \
	"! grep -q '<details><summary><span class=\"kind\">[0-9]* symbol' '$fx/6.1/report.html'"

# 3. The console diff on its own (what make logdiff runs).
"$tool" --logdiff "$fixture/generic/boot/nocona.log" "$fixture/mpsc/boot/nocona.log" > "$kf_tmp/ld" 2>&1
check "logdiff: SWIOTLB and the per-CPU area differ" bash -c \
	"grep -qx -- '+PCI-DMA: Using software bounce buffering for IO (SWIOTLB)' '$kf_tmp/ld' && grep -q -- '^+percpu: Embedded 40 pages/cpu' '$kf_tmp/ld'"
check "logdiff: no timestamps, nonces or e820 lines left" bash -c \
	"! grep -Eq '^[-+].*(\[ *[0-9]+\.[0-9]+\]|e820|kflavour-end [0-9a-f]{6})' '$kf_tmp/ld'"
check_fails "logdiff of a missing log says what to do" 2 "boot it first" \
	"$tool" --logdiff "$fixture/k8/boot/opteron.log" "$fixture/mpsc/boot/nocona.log"

# 4. make on the real out/: usage errors first, then what the earlier
#    stages' tests left there.
check_fails "diffconfig needs two flavours" 2 "diffconfig compares two flavours" make diffconfig a=generic out="$o"
check_fails "logdiff names unknown flavours" 2 "unknown flavour 'nosuch'" make logdiff a=nosuch b=mpsc out="$o"
check_fails "logdiff needs b= or two CPU models" 2 "logdiff needs b=FLAVOUR" make logdiff a=mpsc logdiff_cpu=nocona out="$o"
# cpu= has one meaning (the models the boot targets boot on): where it
# meant another thing, it is refused by name, with the new name (issue 47).
check_fails "logdiff refuses cpu= by name" 2 "make logdiff: cpu= is the CPU models.*logdiff_cpu=" \
	make logdiff a=mpsc b=generic cpu=nocona out="$o"
check_fails "c2c refuses cpu= by name" 2 "make c2c: cpu= is the CPU models.*c2c_cpu=NAME" \
	make c2c flavour=generic cpu=nocona out="$o"
check_fails "bisect refuses cpu= by name" 2 "make bisect: cpu= is the CPU models.*bisect_cpu=MODEL" \
	make bisect good=generic bad=mpsc cpu=qemu64 out="$o"
check_fails "newflavour refuses cpu= by name" 2 "make newflavour: cpu= is the CPU models.*choice=MCORE2" \
	make newflavour name=c3 cpu=MCORE2 model=core2 out="$o"
check_fails "an unknown c2c_cpu is named" 2 "unknown c2c_cpu 'pentium9'" make c2c flavour=generic c2c_cpu=pentium9 out="$o"
check "make help lists the CPU variables apart" bash -c \
	"make help out='$o' | grep -q '^  c2c_cpu=NAME' && make help out='$o' | grep -q '^  bisect_cpu=NAME' && make help out='$o' | grep -q '^  logdiff_cpu=NAME' && make help out='$o' | grep -q '^  choice=SYMBOL'"

# (diffconfig makes the two configs when they are missing.)
make diffconfig a=generic b=mpsc out="$o" > "$kf_tmp/dc" 2>&1
check "make diffconfig a=generic b=mpsc: MPSC and the line size" bash -c \
	"grep -Eq '^ *MPSC n -> y' '$kf_tmp/dc' && grep -Eq '^ *X86_L1_CACHE_SHIFT 6 -> 7' '$kf_tmp/dc'"

# The real pipeline's report: 40-boot and 45-probe have booted the default
# models by now, and make report runs any stage that is missing.
make report flavour="$check_flavours" out="$o" > "$kf_tmp/real" 2>&1
check "make report on the real out/6.1" grep -q "wrote $o/6.1/report.html" "$kf_tmp/real"
# The table only: make report first prints the stages it had to run.
sed -n '/^kflavour report:/,$p' "$kf_tmp/real" > "$kf_tmp/real.table"
w=$(widest "$kf_tmp/real.table")
[ -s "$kf_tmp/real.table" ] && [ "$w" -le 100 ] && ok "real table fits 100 columns ($w)" || { not_ok "real table fits 100 columns ($w)"; diag < "$kf_tmp/real"; }
check "real report.json validates against the schema" validate "$o/6.1/report.json"
check "real report.html renders; report.png kept in out/6.1" \
	report/render.sh "$o/6.1/report.html" "$o/6.1/report.png" "$kf_tmp/real-dom.html"
dom_checks "$kf_tmp/real-dom.html" real
check_eq "real: every flavour booted on its default model" \
	"$(jq_py "$o/6.1/report.json" 'sorted(set(f["status"] for f in d["flavours"]))')" "['booted']"
# Issue 14: what the matrix (booted by 45-probe's plain make) shows.
rj=$o/6.1/report.json
bootq() {	# bootq FLAVOUR CPU EXPR: EXPR over that boot's object as b
	jq_py "$rj" "[$3 for f in d['flavours'] if f['name']=='$1' for b in f['boots'] if b['cpu']=='$2']"
}
check_eq "real: generic on nocona is too-small (64-byte kernel, 128-byte CPU)" \
	"$(bootq generic nocona 'b["line_verdict"]')" "['too-small']"
check_eq "real: threads per core from the topology (qemu64, opteron, nocona)" \
	"$(bootq generic qemu64 'b["threads_per_core"]') $(bootq generic opteron 'b["threads_per_core"]') $(bootq mpsc nocona 'b["threads_per_core"]')" \
	"[1] [1] [2]"
check_eq "real: mpsc on nocona, GDT page-aligned, 128 bytes, limit 127, no line shared" \
	"$(bootq mpsc nocona '(b["gdt"]["align"], b["gdt"]["size"], b["gdt"]["limit"], b["gdt"]["at_compiled_line"]["two_gdts"], b["gdt"]["at_cpu_line"]["gdt_and_data"])')" \
	"[(4096, 128, 127, False, False)]"
check_eq "real: generic on nocona checked at 64 and 128 bytes" \
	"$(bootq generic nocona '(b["gdt"]["at_compiled_line"]["line_bytes"], b["gdt"]["at_cpu_line"]["line_bytes"])')" "[(64, 128)]"
check_eq "real: mpsc on nocona: SWIOTLB pool, idle, microcode from QEMU's model" \
	"$(bootq mpsc nocona '(b["swiotlb"], b["swiotlb_bytes"] > 0, b["idle"] is not None, "QEMU" in b["microcode_source"])')" \
	"[(True, True, True, True)]"
check "real: generic against mpsc console diff on nocona" test "$(jq_py "$rj" \
	'len([x for x in d["log_diffs"] if x["kind"]=="flavours" and x["a"]["flavour"]=="generic" and x["b"]["flavour"]=="mpsc" and x["a"]["cpu"]=="nocona"])')" = 1
check_eq "real: code bytes known and different per flavour" \
	"$(jq_py "$rj" 'len(set(f["build"]["code_bytes"] for f in d["flavours"] if f["build"]["code_bytes"]))')" 2
check_eq "real: every warning count comes with its first lines" \
	"$(jq_py "$rj" '[f["name"] for f in d["flavours"] if f["build"]["warnings"] and not f["build"]["warning_lines"]]')" "[]"
check "real: the table shows code bytes, CPU seconds and warnings" bash -c \
	"grep -q '^code bytes' '$kf_tmp/real' && grep -q '^build CPU' '$kf_tmp/real' && grep -q '^build warnings' '$kf_tmp/real'"
check "real: report.html has the run-time facts" grep -q 'id="runtime"' "$o/6.1/report.html"

# kcidb.json: KCIDB 5.3, valid against the project's own schema of the
# subset it writes, and against KCIDB's full schema when that is beside the
# checkout (../shared/kcidb/, as CI has it; KCIDB_SCHEMA=FILE elsewhere).
full=${KCIDB_SCHEMA:-$top/../shared/kcidb/kcidb.v5.3.schema.json}
kargs=(flavour="$check_flavours" out="$o"); [ -n "${KCIDB_SCHEMA:-}" ] && kargs+=(kcidb_schema="$KCIDB_SCHEMA")
check "make check-kcidb: kcidb.json valid against report/kcidb.schema.json" make check-kcidb "${kargs[@]}"
cp "$kf_tmp/last.out" "$kf_tmp/check-kcidb.out"
kc=$o/6.1/kcidb.json
if [ -f "$full" ]; then
	check "make check-kcidb: and against KCIDB's full 5.3 schema" \
		grep -qF "valid against KCIDB's full schema $full" "$kf_tmp/check-kcidb.out"
	jq '.tests[0].status = "OK"' "$kc" > "$kf_tmp/bad-kcidb.json"
	check_fails "KCIDB's full schema rejects a bad status" 1 "OK" \
		/usr/bin/python3 -W ignore -m jsonschema -i "$kf_tmp/bad-kcidb.json" "$full"
else
	skip "kcidb.json against KCIDB's full 5.3 schema" "$full is not there (CI keeps it beside the checkout)"
	check "make check-kcidb says it skipped KCIDB's full schema" \
		grep -q "skipped KCIDB's full schema: $full is not there" "$kf_tmp/check-kcidb.out"
fi
check_eq "kcidb: origin, 2 builds, a boot test per record" \
	"$(jq -c '[([.checkouts[].origin, .builds[].origin, .tests[].origin] | unique), (.builds | length), ([.tests[] | select(.path == "boot")] | length)]' "$kc")" \
	"[[\"kflavour\"],2,$(ls "$o"/6.1/{generic,mpsc}/boot/*.json | wc -l)]"
check_eq "kcidb: the CPU model in each boot's environment" \
	"$(jq -r '[.tests[] | select(.path == "boot") | .environment.misc.cpu_model] | unique | join(" ")' "$kc")" \
	"core2 i686 nocona opteron qemu64"
check_eq "kcidb: KTAP cases as tests under boot." \
	"$(jq '[.tests[] | select(.path | startswith("boot.x86_flavour."))] | length > 0' "$kc")" true
# The project's schema can fail: each of these breaks one KCIDB rule.
kv() { /usr/bin/python3 -W ignore -m jsonschema -i "$1" report/kcidb.schema.json; }
kbad() {	# kbad DESC PATTERN JQ: kcidb.json changed by JQ does not validate
	jq "$3" "$kc" > "$kf_tmp/bad-kcidb.json"; check_fails "kcidb.schema.json rejects $1" 1 "$2" kv "$kf_tmp/bad-kcidb.json"
}
kbad "a test status KCIDB does not know" "'OK' is not one of" '.tests[0].status = "OK"'
kbad "a test without its build_id" "'build_id' is a required property" 'del(.tests[1].build_id)'
kbad "a field KCIDB does not have" "'verdict' was unexpected" '.builds[0].verdict = "pass"'
kbad "a null where KCIDB wants a number" "None is not of type 'number'" '.tests[0].duration = null'
kbad "an id of another origin" "does not match" '.builds[0].id = "other:x"'
kbad "minor version 4" "3 was expected" '.version.minor = 4'

make logdiff a=mpsc logdiff_cpu="nocona qemu64" out="$o" > "$kf_tmp/mld" 2>&1
check "make logdiff a=mpsc logdiff_cpu=\"nocona qemu64\"" grep -q '^+++ mpsc/boot/qemu64.log' "$kf_tmp/mld"
done_testing
