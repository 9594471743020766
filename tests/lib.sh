# tests/lib.sh: sourced by every tests/e2e/*.sh. Each check prints one TAP
# line; tests/run adds them up. Scripts run from the top of the checkout with
# KF_OUT (the out= of this test run) and KF_TOOLS exported by tests/run.
set -u
kf_n=0
kf_failed=0
top=$(pwd)
out=${KF_OUT:-$top/out}

ok()     { kf_n=$((kf_n + 1)); echo "ok $kf_n - $*"; }
not_ok() { kf_n=$((kf_n + 1)); kf_failed=$((kf_failed + 1)); echo "not ok $kf_n - $*"; }
diag()   { sed 's/^/# /'; }
# skip DESC REASON: a check that cannot run here, and why. tests/run counts
# it as skipped, never as passed, and one without a reason as failed.
skip()   { kf_n=$((kf_n + 1)); echo "ok $kf_n - $1 # SKIP ${2:-}"; }

# check DESC CMD...: ok when CMD exits 0.
check() {
	local desc=$1; shift
	if "$@" > "$kf_tmp/last.out" 2>&1; then ok "$desc"; else
		not_ok "$desc"; tail -n 15 "$kf_tmp/last.out" | diag; fi
}
# check_fails DESC STATUS PATTERN CMD...: ok when CMD exits STATUS and its
# output (stdout+stderr) matches the extended regex PATTERN.
check_fails() {
	local desc=$1 want=$2 pat=$3 rc; shift 3
	"$@" > "$kf_tmp/last.out" 2>&1 && rc=0 || rc=$?
	if [ "$rc" = "$want" ] && grep -Eq -- "$pat" "$kf_tmp/last.out"; then ok "$desc"; else
		not_ok "$desc (exit $rc, wanted $want and /$pat/)"; tail -n 15 "$kf_tmp/last.out" | diag; fi
}
# check_eq DESC GOT WANT
check_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1: got '$2', wanted '$3'"; fi
}
# sha FILE: its sha256 (empty if unreadable). valid JSON SCHEMA: exit 0
# when JSON matches the JSON Schema file SCHEMA.
sha()   { sha256sum "$1" 2>/dev/null | cut -d' ' -f1; }
valid() { /usr/bin/python3 -W ignore -m jsonschema -i "$1" "$2"; }
# vg DESC CMD...: ok when CMD runs clean under valgrind (no error, no
# definite or indirect leak).
vg() {
	local desc=$1; shift
	if valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=99 "$@" > "$kf_tmp/vg.out" 2>&1; then ok "valgrind: $desc"
	else not_ok "valgrind: $desc"; tail -n 20 "$kf_tmp/vg.out" | diag; fi
}
# Print the plan line and exit with the failure count.
done_testing() { echo "1..$kf_n"; exit $(( kf_failed > 0 )); }

# The flavours make check builds and boots in KF_OUT: generic and mpsc, the
# 64- and 128-byte kernels the comparison is about. The default group's
# third, k8 (64-byte lines too, -march=k8), is configured here but built and
# booted by make check-slow (tests/slow/40-k8.sh): its cold build alone was
# 180 s of a 1,528 s cold make check (issue 31, docs/benchmarks.md).
check_flavours="generic mpsc"

# The system boot's out= (issue 46): tests/e2e/32-deb.sh builds and packages
# tiny-systemd there in the background lane (tests/run), beside the main
# lane's scripts: on an out= of its own, its makes never hold $KF_OUT's
# lock. 46-sysinstall and 47-sysboot, marked to run after the lane, use it
# too; 46-rootfs fills its root filesystem cache from the main lane.
kf_system_out=$out/system-out

kf_tmp=$(mktemp -d)
trap 'rm -rf "$kf_tmp"' EXIT
