#!/bin/bash
# Rebuilds (issue 3), on the flavours tests/e2e/30-build.sh built: an
# unchanged tree skips Kbuild, make -n writes nothing, a change rebuilds
# only its flavour; build-facts runs clean under valgrind; a build
# interrupted by SIGINT and SIGKILL resumes to a byte-identical image that
# boots. Apart from 30-build so that the background lane (tests/run) starts
# once the cold builds are done: these take one core, the lane the other.
. tests/lib.sh
. tests/scratch.sh
o=$KF_OUT
k=$o/6.1
t=$o/tools

# --- no-op, and a change rebuilds only its flavour ------------------------
# Judged by what it did, not by a clock (its speed is make bench's): Kbuild
# would have rewritten build.log, and the stamps would move.
stamps() { stat -c %y "$k"/{generic,mpsc}/{build.stamp,build.log,build.json}; }
before=$(stamps)
make build flavour="$check_flavours" out="$o" > "$kf_tmp/noop.out" 2>&1
if ! grep -q BUILD "$kf_tmp/noop.out" && [ "$(stamps)" = "$before" ]; then
	ok "an unchanged make build skips Kbuild (build.log, build.json and stamps untouched)"
else
	not_ok "an unchanged make build skips Kbuild"; diag < "$kf_tmp/noop.out"
fi
# make -n: the Kbuild line names $(MAKE), so make runs it even then. Kbuild
# prints what it would do; the last build's records stay as they were.
touch "$k/mpsc/.config"
files() { stat -c '%y %s' "$k"/mpsc/{build.stamp,build.log,build.json}; sha256sum "$k"/mpsc/build.log; }
before=$(files)
check "make -n build flavour=mpsc, mpsc out of date" \
	make -n build flavour=mpsc out="$o"
cp "$kf_tmp/last.out" "$kf_tmp/dry.out"
check_eq "make -n: mpsc's build.log, build.json and build.stamp untouched" "$(files)" "$before"
check "make -n: Kbuild's commands printed, no progress line" \
	sh -c "grep -q 'scripts/Makefile.build obj=' '$kf_tmp/dry.out' && ! grep -q '  BUILD   mpsc' '$kf_tmp/dry.out'"
# A change only mpsc sees (its CPU fragment; a symbol one file uses,
# kernel/printk/printk.c: a rebuild of one object and the link).
co=$kf_tmp/co
scratch_checkout "$co"
echo 'CONFIG_LOG_BUF_SHIFT=16' >> "$co/fragments/cpu-mpsc.config"
mpsc_sha=$(sha "$k/mpsc/arch/x86/boot/bzImage")
cp "$k/mpsc/.config" "$kf_tmp/mpsc.config"
g=$(stat -c %y "$k/generic/build.stamp")
# CCACHE=0 here: mpsc stays a build whose every object came from the
# compiler, which check-repro (make check-slow) takes as its first build.
check "a fragment change: make build" make -C "$co" build flavour="$check_flavours" out="$o" CCACHE=0
if grep -q 'BUILD   mpsc: done' "$kf_tmp/last.out" && ! grep -qE 'BUILD   generic:' "$kf_tmp/last.out" &&
	[ "$(stat -c %y "$k/generic/build.stamp")" = "$g" ]; then
	ok "the change rebuilt mpsc only"
else
	not_ok "the change rebuilt mpsc only"; diag < "$kf_tmp/last.out"
fi
check "the new value is in mpsc's .config" grep -qx 'CONFIG_LOG_BUF_SHIFT=16' "$k/mpsc/.config"
# Back: the copy's config run left a config.stamp newer than this checkout's
# fragments, so remove it. The merge starts from tinyconfig, not from the
# previous .config, so the value only the copy requested must go.
rm -f "$k/mpsc/config.stamp"
check "back to the committed fragments: make build" make build flavour="$check_flavours" out="$o" CCACHE=0
check "the merge dropped the copy's value: .config is as before" cmp "$kf_tmp/mpsc.config" "$k/mpsc/.config"
check_eq "and the incremental rebuild gives the same bzImage as before" \
	"$(sha "$k/mpsc/arch/x86/boot/bzImage")" "$mpsc_sha"

# --- build-facts under valgrind, on the rebuilt mpsc ----------------------
vg "build-facts on mpsc" "$t/build-facts" --flavour mpsc --kver 6.1 --odir "$k/mpsc" \
	--json "$kf_tmp/vg.json" --ccache 1 --ccache-log "$k/mpsc/ccache.log"
check "build-facts under valgrind wrote the same facts" \
	test "$(jq -c 'del(.ccache)' "$kf_tmp/vg.json")" = "$(jq -c 'del(.ccache)' "$k/mpsc/build.json")"

# --- an interrupted build resumes ----------------------------------------
# Sized for CI: flavour 'resume' is mpsc less the objects of mm/ (48 of
# 618; partial_flavour, tests/scratch.sh). Its build is interrupted
# by SIGINT at ~30% and SIGKILL at ~60% of them, then run to the end: a
# bzImage byte-identical to mpsc's proves the resumed build correct. (Two
# whole builds compared, 'make check-repro', is in make check-slow.)
rf=resume co2=$kf_tmp/co2 r2=$k/resume
trap 'rm -rf "$kf_tmp" "${k:?}/resume"' EXIT
scratch_checkout "$co2"
want=$(partial_flavour "$co2" mpsc $rf mm) && [ "$want" -gt 30 ] &&
	ok "the resume flavour's O= is mpsc's less mm/" ||
	not_ok "the resume flavour's O= is mpsc's less mm/ (${want:-none} objects)"
diag <<< "deleted $want objects of mpsc's $(jq .objects "$k/mpsc/build.json")"
# Progress is counted in .cmd files, as Kbuild finishes objects.
objs() { find "$r2/mm" -name '.*.o.cmd' 2>/dev/null | wc -l; }
interrupt_at() {	# interrupt_at SIGNAL PERCENT: run the build, signal it there
	local sig=$1 pct=$2 pid waited=0 left
	# Progress every second: a fast machine goes from 30% to 60% in under 10 s.
	setsid make -C "$co2" build flavour=$rf out="$o" CCACHE=0 progress_interval=1 > "$kf_tmp/resume-$sig.out" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null && [ "$(objs)" -lt $((want * pct / 100)) ] && [ $waited -lt 1800 ]; do
		sleep 1; waited=$((waited + 1))
	done
	if ! kill -0 "$pid" 2>/dev/null; then
		not_ok "the build still running at $pct% for SIG$sig"; tail -n 20 "$kf_tmp/resume-$sig.out" | diag
		return
	fi
	diag <<< "SIG$sig at $(objs)/$want objects: $(grep 'BUILD' "$kf_tmp/resume-$sig.out" | tail -n 1)"
	kill -"$sig" -- -"$pid"
	wait "$pid" 2>/dev/null
	sleep 2
	left=$(pgrep -g "$pid" -a || true)
	check_eq "SIG$sig at $pct%: no make, gcc or build-progress of it left" "$left" ""
	check_eq "SIG$sig at $pct%: no build.stamp written" "$(ls "$r2/build.stamp" 2>/dev/null)" ""
}
interrupt_at INT 30
interrupt_at KILL 60
check "the interrupted build, run again, completes" make -C "$co2" build flavour=$rf out="$o" CCACHE=0
grep 'done in' "$kf_tmp/last.out" | diag
check_eq "the resumed build's bzImage is byte-identical to mpsc's" \
	"$(sha "$r2/arch/x86/boot/bzImage")" "$(sha "$k/mpsc/arch/x86/boot/bzImage")"
check "the resumed build recorded no ccache use" jq -e '.ccache.enabled == false' "$r2/build.json"
check "the resumed build compiled only objects of mm/ (fewer than $want)" \
	jq -e --argjson n "$want" '.compiled < $n' "$r2/build.json"
check "progress lines during the build" \
	grep -qE "^  BUILD   $rf: [A-Z0-9_]+ [0-9]+/~?[0-9]+ objects, [0-9]+ s$" "$kf_tmp/resume-KILL.out"
# The resumed image boots: the boot stage's runner, on mpsc's model.
check "the boot stage's runner and initramfs" make initramfs "$o/tools/boot-runner" out="$o"
check_fails "the resumed image boots (mpsc on its CPU model): pass" 0 ': pass \(' \
	"$o/tools/boot-runner" --kernel "$r2/arch/x86/boot/bzImage" --initrd "$k/initramfs.cpio.gz" \
	--flavour-record "$k/mpsc/flavour.json" --kver 6.1 --out "$kf_tmp/resumed"

done_testing
