#!/bin/bash
# Build stage (issue 3): make check's flavours (generic and mpsc; k8 is
# tests/slow/40-k8.sh's) build cold; the compiler flags and section sizes
# differ as the flavours say; build.json holds the contract's fields.
# build-progress is also driven directly with scripted output (failure
# report, throttling, signals, valgrind). Rebuilds, interruptions and
# build-facts under valgrind: tests/e2e/33-rebuild.sh, after the background
# lane has started.
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
vg "build-progress on a scripted build" "$t/build-progress" --name vg --log "$kf_tmp/vg.log" -- "$fake" 100 0
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

done_testing
