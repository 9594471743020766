#!/bin/bash
# Boot stage (issues 5, 14): make boot / make matrix on the real kernels of this
# out/, the verdicts of live negative boots (panic, hang, test-fail), Ctrl-C
# of the runner, and no QEMU left behind. Recorded logs of every verdict are
# checked by the unit test test_logparse. Each TCG boot takes a few seconds.
. tests/lib.sh
o=$KF_OUT
kver=6.1
k=$o/$kver
runner=$KF_TOOLS/boot-runner

# jget FILE EXPR: a value of a JSON file, EXPR in Python on 'j'.
jget() { python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null; }

# 1. Each flavour on its own CPU model.
check "make boot: $check_flavours pass" make boot flavour="$check_flavours" out="$o"
for fc in generic/qemu64 mpsc/nocona; do
	check_eq "${fc%/*} on ${fc#*/}: verdict" "$(jget "$k/${fc%/*}/boot/${fc#*/}.json" 'j["verdict"]')" pass
done
rec=$k/mpsc/boot/nocona.json
check_eq "mpsc: debug-exit status" "$(jget "$rec" 'j["exit_status"]')" 33
check_eq "mpsc: the record names the bzImage it booted" \
	"$(jget "$rec" 'j["bzimage_sha256"]')" "$(jq -r .bzimage_sha256 "$k/mpsc/build.json")"
check_eq "mpsc: siblings (HyperThreading)" "$(jget "$rec" 'j["facts"].get("cpu.siblings")')" 2
check_eq "mpsc: cache_alignment" "$(jget "$rec" 'j["facts"].get("cpu.cache_alignment")')" 128
check_eq "mpsc: thread siblings" "$(jget "$rec" 'j["facts"].get("cpu0.thread_siblings_list")')" 0-1
if [ "$(jget "$rec" '"probe.swiotlb" in j["facts"]')" = True ]; then
	check_eq "mpsc: SWIOTLB active (probe)" "$(jget "$rec" 'j["facts"]["probe.swiotlb"]')" active
	check_eq "mpsc: line verdict (probe)" "$(jget "$rec" 'j["facts"]["probe.line_verdict"]')" match
else
	check "mpsc: SWIOTLB active (console; no probe in this kernel)" \
		grep -q 'software IO TLB: mapped' "$k/mpsc/boot/nocona.log"
fi
# memory = 1G+256M: 1 GiB below 4 GiB and 256 MiB above it (lib/recipe.c).
check_eq "mpsc: memory 1G+256M as QEMU's -machine and -m" \
	"$(jq -c '.command | index("-machine") as $i | [.[$i + 1], .[$i + 2], .[$i + 3]]' "$rec")" \
	'["pc,max-ram-below-4g=1024M","-m","1280M"]'
check "mpsc: the kernel's e820 map has the 256 MiB above 4 GiB" \
	grep -q 'BIOS-e820: \[mem 0x0000000100000000-0x000000010fffffff\] usable' "${rec%.json}.log"
check "mpsc: the kernel took noapictimer (docs/boot.md)" \
	grep -q 'Disabling APIC timer' "${rec%.json}.log"
check_eq "mpsc: no KTAP failure" "$(jget "$rec" 'j["ktap"]["failed"]')" 0
check_eq "mpsc: the record's header and the console the runner read" \
	"$(jq -c '[.record, .format, .flavour, .kver, .release == .facts["uname.release"], .console.swiotlb_mapped, .console.end_marker]' "$rec")" \
	'["boot",1,"mpsc","6.1",true,true,true]'
# --replay remakes the record from its log: the same bytes as the live run.
mkdir -p "$kf_tmp/replay" && cp "$rec" "${rec%.json}.log" "$kf_tmp/replay/"
check "boot-runner --replay of mpsc on nocona" "$runner" --replay "$kf_tmp/replay/nocona.json"
check "the replayed record is the live one" cmp "$rec" "$kf_tmp/replay/nocona.json"
check "results.ktap is KTAP" grep -q '^KTAP version 1' "$k/results.ktap"
check "junit.xml is well-formed XML" python3 -c \
	'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$k/junit.xml"

# results.ktap through the tree's own KTAP parser: the counts the records
# give (one verdict test per record, then its KTAP results; kunit.py 6.1
# counts a TODO test as failed). A record of an earlier bzImage than its
# build.json's is not in results.ktap (lib/records.h), nor counted here; a
# system boot (sysboot/, its package's kernel) is, whatever build.json says.
kunit() { python3 "$k/src/tools/testing/kunit/kunit.py" parse < "$1" 2>&1 | sed 's/\x1b\[[0-9;]*m//g'; }
want_counts() {	# want_counts RECORD...: kunit.py's "Ran N tests: ..." from records
	python3 - "$@" <<'PY'
import json, os, sys
n = {"passed": 0, "failed": 0, "skipped": 0}
for path in sys.argv[1:]:
    r = json.load(open(path))
    build = os.path.join(os.path.dirname(os.path.dirname(path)), "build.json")
    if "/sysboot/" not in path and os.path.exists(build) and \
            json.load(open(build))["bzimage_sha256"] != r["bzimage_sha256"]:
        continue
    n["passed" if r["verdict"] == r["expected"] else "failed"] += 1
    for t in r["ktap"]["results"]:
        d = t.get("directive", "").upper()
        n["skipped" if d.startswith("SKIP") else "failed" if d.startswith("TODO") or not t["ok"] else "passed"] += 1
print("Ran %d tests: " % sum(n.values()) + ", ".join("%s: %d" % (k, v) for k, v in n.items() if v))
PY
}
kunit "$k/results.ktap" > "$kf_tmp/kunit.out"
check_eq "kunit.py parse reads results.ktap with the records' counts" \
	"$(grep -o 'Ran [0-9]* tests: .*' "$kf_tmp/kunit.out")" "$(want_counts $(ls "$k"/*/boot/*.json "$k"/*/sysboot/*.json 2>/dev/null))"
# A boot's own SKIP directive survives into results.ktap (recorded log of a
# kernel without the probe: the init skips probe_readable). --parse gives
# the parser's view, which a record's header makes a boot record.
"$runner" --parse tests/data/logs/pass-mpsc-nocona-noprobe.log |
	{ mkdir -p "$kf_tmp/k/noprobe/boot" && jq '{record: "boot", format: 1} + .' > "$kf_tmp/k/noprobe/boot/nocona.json"; }
check "report-results on a record with a SKIP" "$KF_TOOLS/report-results" --kdir "$kf_tmp/k" --ktap "$kf_tmp/skip.ktap" noprobe
check "results.ktap keeps '# SKIP no probe'" grep -q 'ok [0-9]* kflavour_init.probe_readable # SKIP no probe$' "$kf_tmp/skip.ktap"
check "kunit.py counts it as skipped" grep -q 'skipped: 1' <(kunit "$kf_tmp/skip.ktap")
rm -f "$k/junit.xml"
check "make results remakes a missing junit.xml" make results flavour=generic cpu=qemu64 out="$o"
check "junit.xml is back" test -s "$k/junit.xml"

# 2. Nothing changed: nothing boots again.
make boot flavour="$check_flavours" out="$o" > "$kf_tmp/noop.out" 2>&1
if ! grep -q '  BOOT    ' "$kf_tmp/noop.out"; then ok "second make boot boots nothing"
else not_ok "second make boot boots nothing"; diag < "$kf_tmp/noop.out"; fi

# 3. No long mode: refused at once, which is the expected verdict.
check "make matrix cpu=i686 (refused is expected)" make matrix flavour=mpsc cpu=i686 out="$o"
check_eq "i686: verdict" "$(jget "$k/mpsc/boot/i686.json" 'j["verdict"]')" refused
wall=$(jget "$k/mpsc/boot/i686.json" 'j["wall_seconds"]')
if python3 -c "import sys; sys.exit(not $wall < 5)"; then ok "i686 refused in $wall s"
else not_ok "i686 refused in $wall s (wanted < 5 s)"; fi

# 4. Failed boots do not stop the others; make fails at the end with a summary,
#    and a failed boot is booted again by the next make. (The timeout is not
#    an input of a record: remove the two records so that they boot again.)
#    0.2 s: a boot takes 0.6 s at best here, firmware and decompression alone
#    0.1 s (a second was once enough to time out, not after docs/boot.md's
#    noapictimer and THP changes).
rm -f "$k/generic/boot/qemu64.json" "$k/mpsc/boot/nocona.json"
check_fails "boot_timeout=0.2: every boot runs, then make fails" 2 \
	'2 of 2 boots not as expected' make boot flavour="$check_flavours" boot_timeout=0.2 out="$o"
check_eq "generic record says hang" "$(jget "$k/generic/boot/qemu64.json" 'j["verdict"]')" hang
check_eq "mpsc record says hang" "$(jget "$k/mpsc/boot/nocona.json" 'j["verdict"]')" hang
check "junit.xml lists the failure" grep -q '<failure type="hang"' "$k/junit.xml"
check "junit.xml with failures (log tails) is well-formed XML" python3 -c \
	'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$k/junit.xml"
make boot flavour="$check_flavours" out="$o" > "$kf_tmp/again.out" 2>&1
check_eq "the next make boots both again and passes" \
	"$(grep -c ': pass (' "$kf_tmp/again.out")" 2

# 5. Live negative boots with the runner itself (records in a temporary dir).
boot() {	# boot NAME RUNNER-ARGS...: mpsc's kernel, on nocona
	local name=$1; shift
	"$runner" --kernel "$k/mpsc/arch/x86/boot/bzImage" --initrd "$k/initramfs.cpio.gz" \
		--flavour-record "$k/mpsc/flavour.json" --kver $kver --out "$kf_tmp/$name" "$@"
}
check_fails "rdinit=/nonexistent: panic" 0 ': panic \(' \
	boot panic --append rdinit=/nonexistent --expect panic
check_fails "an init that never ends: hang" 0 ': hang \(' \
	boot hang --append kflavour.mode=hang --hang-timeout 2 --expect hang
# The kernel prints on the console whenever it likes: a late driver probe's
# "input: ..." once landed inside a fact line of a c2c run. From its KTAP
# document on, the init lets only warnings and worse through.
check_fails "kernel messages amid the report: pass" 0 ': pass \(' \
	boot chatter --append kflavour.mode=chatter --expect pass
check "... the KERN_WARNING one is on the console" \
	grep -q '^\[[^]]*\] kflavour-chatter: warning$' "$kf_tmp/chatter/nocona.log"
check_eq "... the KERN_INFO one is not" \
	"$(grep -c 'kflavour-chatter: info' "$kf_tmp/chatter/nocona.log")" 0
check_eq "... every fact of a plain boot is there" \
	"$(grep -c '^\[[^]]*\] kf: ' "$kf_tmp/chatter/nocona.log")" \
	"$(grep -c '^\[[^]]*\] kf: ' "$k/mpsc/boot/nocona.log")"
# QEMU's own SeaBIOS instead of qboot: its MP table lists one thread of the
# two, and a kernel without ACPI (the flavours have none) sees one CPU.
check_fails "SeaBIOS (one CPU of two): test-fail" 0 ': test-fail \(' \
	boot fail --bios '' --expect test-fail
check_eq "SeaBIOS: the init's CPU check failed" \
	"$(jget "$kf_tmp/fail/nocona.json" '[r["name"] for r in j["ktap"]["results"] if not r["ok"]]')" \
	"['cpus_online']"
check_fails "a pass that should have panicked exits 1" 1 'pass, expected panic' \
	boot unexpected --expect panic
# No live oops: no flavour enables LKDTM, the kernel's way to cause one on
# purpose. The recorded oops log (tests/data/logs/) drives test_logparse.

# 6. Ctrl-C of the runner ends its QEMU and writes no record.
setsid "$runner" --kernel "$k/mpsc/arch/x86/boot/bzImage" --initrd "$k/initramfs.cpio.gz" \
	--flavour-record "$k/mpsc/flavour.json" --out "$kf_tmp/int" --append kflavour.mode=hang \
	> "$kf_tmp/int.out" 2>&1 &
pid=$!
for _ in $(seq 50); do grep -q 'Linux version' "$kf_tmp/int/nocona.log" 2>/dev/null && break; sleep 0.2; done
# The runner starts QEMU without transparent huge pages (boot/runner.c).
check_eq "QEMU runs with THP disabled (prctl, docs/boot.md)" \
	"$(awk '/^THP_enabled:/ { print $2 }' "/proc/$(pgrep -P "$pid" qemu-system | head -1)/status" 2>/dev/null)" 0
kill -INT "$pid"
wait "$pid"; rc=$?
check_eq "SIGINT: the runner dies of it" "$rc" 130
check_eq "SIGINT: no record" "$(ls "$kf_tmp/int"/*.json 2>/dev/null | wc -l)" 0
check "SIGINT: the log says why" grep -q 'qemu killed: the runner got signal 2' "$kf_tmp/int/nocona.log"

# 7. None of our QEMUs is left.
sleep 0.2
left=$(pgrep -f "qemu-system-x86_64.*($kf_tmp|$o/)" || true)
check_eq "no QEMU of ours left" "$left" ""
done_testing
