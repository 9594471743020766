#!/bin/bash
# Build stage (issue 3): make check's flavours (generic and mpsc; k8 is
# tests/slow/40-k8.sh's) build under one jobserver; the compiler flags and
# section sizes differ as the flavours say; build.json
# holds the contract's fields; an unchanged tree skips Kbuild and a change
# rebuilds only its flavour; a build interrupted by SIGINT and SIGKILL
# resumes to a byte-identical image that boots. build-progress is
# also driven directly with scripted output (failure report, throttling,
# signals), and both build tools run under valgrind.
. tests/lib.sh
. tests/scratch.sh
o=$KF_OUT
k=$o/6.1
t=$o/tools
repro_flavour=mpsc

# --- build-progress on scripted "Kbuild" output: cheap, no kernel ------------
fake=$kf_tmp/fake-kbuild
cat > "$fake" <<'EOF'
#!/bin/bash
# fake-kbuild N FAIL: N object lines over about 2 s, then fail if FAIL=1
for i in $(seq 1 "$1"); do
	echo "  CC      dir/obj$i.o"
	[ $((i % 500)) = 0 ] && sleep 0.4
done
echo "  LD      vmlinux"
echo "dir/x.c:1:10: warning: unused thing" >&2
if [ "$2" = 1 ]; then
	echo "dir/bad.c:3:1: error: expected ';' before '}' token" >&2
	echo "make[2]: *** [scripts/Makefile.build:250: dir/bad.o] Error 1" >&2
	exit 2
fi
EOF
chmod +x "$fake"
"$t/build-progress" --name fake --log "$kf_tmp/ok.log" --interval 0.5 -- "$fake" 2500 0 > "$kf_tmp/p.out" 2>&1
rc=$?
n=$(grep -c '^  BUILD   fake: ' "$kf_tmp/p.out")
check_eq "build-progress: success passes exit 0" "$rc" 0
[ "$n" -ge 1 ] && [ "$n" -le 8 ] && ok "build-progress: $n progress lines for 2500 objects (throttled)" ||
	{ not_ok "build-progress: throttled progress lines ($n)"; diag < "$kf_tmp/p.out"; }
check "build-progress: lines read '  BUILD   fake: CC n/~1000 objects, s'" \
	grep -qE '^  BUILD   fake: (CC|LD) [0-9]+/~?[0-9]+ objects, [0-9]+ s$' "$kf_tmp/p.out"
check_eq "build-progress: full output in the log, timing trailer last" \
	"$(grep -c '^  CC      dir/obj' "$kf_tmp/ok.log"):$(tail -n 1 "$kf_tmp/ok.log" | grep -cE '^kflavour: wall_seconds=[0-9.]+ cpu_seconds=[0-9.]+ exit=0$')" "2500:1"
# The estimated total: the .config's =y lines, and its =m lines with --modules.
for i in $(seq 1 1500); do echo "CONFIG_Y$i=y"; echo "CONFIG_M$i=m"; done > "$kf_tmp/est.config"
total() {
	"$t/build-progress" --name est --log "$kf_tmp/est.log" --interval 0.1 \
		--expect-config "$kf_tmp/est.config" "$@" -- "$fake" 1000 0 |
		sed -n 's|^  BUILD   est: [A-Z]* [0-9]*/~\([0-9]*\) objects.*|\1|p' | tail -n 1
}
y_only=$(total) with_m=$(total --modules)
[ -n "$y_only" ] && [ "$y_only" -gt 1000 ] && [ -n "$with_m" ] && [ "$with_m" -gt "$y_only" ] &&
	ok "build-progress: estimate ~$y_only from =y lines, ~$with_m with --modules" ||
	not_ok "build-progress: estimate from =y lines ('$y_only'), larger with --modules ('$with_m')"
"$t/build-progress" --name fake --log "$kf_tmp/bad.log" -- "$fake" 10 1 > "$kf_tmp/p.out" 2>&1
rc=$?
check_eq "build-progress: a failed build passes its exit status" "$rc" 2
if grep -q "error: expected ';'" "$kf_tmp/p.out" && grep -q '\*\*\* \[scripts/Makefile.build' "$kf_tmp/p.out" &&
	grep -q "building fake failed (exit 2); full log: $kf_tmp/bad.log" "$kf_tmp/p.out" &&
	! grep -q 'warning:' "$kf_tmp/p.out"; then
	ok "build-progress: a failure prints its error lines and the log's path"
else
	not_ok "build-progress: a failure prints its error lines and the log's path"; diag < "$kf_tmp/p.out"
fi
setsid "$t/build-progress" --name sig --log "$kf_tmp/sig.log" -- sleep 300 > "$kf_tmp/p.out" 2>&1 &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
sleep 0.5
check_eq "build-progress: SIGINT ends it by SIGINT, and its child too" \
	"$rc:$(pgrep -c -g "$pid" || true)" "130:0"

# --- make build: make check's two flavours, one jobserver -----------------
# $repro_flavour first, so that on an empty ccache it takes no hit from the
# others (flavours share hits on the code they have in common, e.g.
# arch/x86/boot): every object then comes from the compiler, and
# check-repro (make check-slow) takes it as its first build and builds only
# one more. With ccache (not CCACHE=0): on a warm cache make check compiles
# neither, and only check-repro pays for a build of its own.
# When it is built already, this is a no-op.
start=$SECONDS
check "make build flavour=$repro_flavour" make build flavour=$repro_flavour out="$o"
grep -E '^  BUILD   [a-z0-9]+: done in' "$kf_tmp/last.out" | diag
check "make build flavour='$check_flavours'" make build flavour="$check_flavours" out="$o"
diag <<< "make build took $((SECONDS - start)) s"
grep -E '^  BUILD   [a-z0-9]+: done in' "$kf_tmp/last.out" | diag
for f in $check_flavours; do
	j=$k/$f/build.json
	check "$f: bzImage, build.log, build.json, build.stamp" \
		test -s "$k/$f/arch/x86/boot/bzImage" -a -s "$k/$f/build.log" -a -s "$j" -a -f "$k/$f/build.stamp"
	check_eq "$f: build.json has exactly the contract's fields" "$(jq -c keys_unsorted "$j")" \
		'["record","format","flavour","kver","release","wall_seconds","cpu_seconds","started","finished","compiled","last_full_build","ccache","distcc_hosts","distcc","warnings","warning_lines","objects","bzimage_bytes","bzimage_sha256","sections","code_bytes","text_span_bytes","march","mtune","flags_from"]'
	check_eq "$f: bzimage_sha256 and bytes are the file's" \
		"$(jq -r '"\(.bzimage_sha256) \(.bzimage_bytes)"' "$j")" \
		"$(sha "$k/$f/arch/x86/boot/bzImage") $(stat -c %s "$k/$f/arch/x86/boot/bzImage")"
	check_eq "$f: release from include/config/kernel.release" \
		"$(jq -r .release "$j")" "$(cat "$k/$f/include/config/kernel.release")"
	check "$f: sane facts (objects, times, sections)" jq -e \
		'.objects > 500 and .wall_seconds > 0 and .cpu_seconds > 0 and .warnings >= 0
		 and ([.sections[]] | all(. > 0)) and (.ccache.hits + .ccache.misses >= 0)' "$j"
done
cmdflags() { grep -oE -- '-m(arch|tune)=[a-z0-9-]+' "$k/$1/init/.main.o.cmd" | sort -u | tr '\n' ' '; }
check_eq "mpsc: init/.main.o.cmd has -march=nocona" "$(cmdflags mpsc)" "-march=nocona "
check_eq "generic: init/.main.o.cmd has -mtune=generic, no -march" "$(cmdflags generic)" "-mtune=generic "
check_eq "build.json march/mtune: mpsc, generic" \
	"$(jq -r '"\(.march)/\(.mtune)"' "$k/mpsc/build.json" "$k/generic/build.json" | tr '\n' ' ')" \
	"nocona/null null/generic "
pc() { jq -r ".sections[\"$2\"]" "$k/$1/build.json"; }
diag <<< ".data..percpu: generic $(pc generic .data..percpu), mpsc $(pc mpsc .data..percpu); .data: generic $(pc generic .data), mpsc $(pc mpsc .data)"
[ "$(pc mpsc .data..percpu)" -gt "$(pc generic .data..percpu)" ] &&
	ok "mpsc's .data..percpu is larger than generic's (128-byte lines)" ||
	not_ok "mpsc's .data..percpu ($(pc mpsc .data..percpu)) larger than generic's ($(pc generic .data..percpu))"

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

# --- valgrind on the build tools, with real inputs ------------------------
vg() {	# vg DESC CMD...
	local desc=$1; shift
	if valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=99 "$@" > "$kf_tmp/vg.out" 2>&1; then
		ok "valgrind: $desc"
	else
		not_ok "valgrind: $desc"; tail -n 20 "$kf_tmp/vg.out" | diag
	fi
}
vg "build-facts on mpsc" "$t/build-facts" --flavour mpsc --kver 6.1 --odir "$k/mpsc" \
	--json "$kf_tmp/vg.json" --ccache 1 --ccache-log "$k/mpsc/ccache.log"
vg "build-progress on a scripted build" "$t/build-progress" --name vg --log "$kf_tmp/vg.log" -- "$fake" 100 0
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
