#!/bin/bash
# A distcc farm (issue 33): five distccd servers, each in a network namespace
# of its own behind a veth pair with a /30 of farm_net (build/farm.sh),
# serve partial rebuilds of generic (partial_flavour, tests/scratch.sh:
# generic's O= less some directories) without ccache. Each build must end in
# generic's bzImage, byte for byte, and build.json must say where the
# compiles ran:
#   A  three good servers, each compiles a share
#   B  one of them killed in the middle of the build
#   C  one that never answers (its distccd stopped: SIGSTOP)
#   D  one that refuses (its --allow names another address)
#   E  the build interrupted (SIGINT): no distcc left; the next make resumes
# Then the farm goes down: no namespace, veth or distccd left. Up and down,
# no address of the farm's range is routed out through a real interface.
. tests/lib.sh
. tests/scratch.sh
. tests/farmnet.sh
. tests/farmbuild.sh
o=$KF_OUT
k=$o/6.1
co=$kf_tmp/co
fd=$(mktemp -d /tmp/kf-farm-test.XXXXXX)
export DISTCC_DIR=$kf_tmp/distcc	# distcc's locks and backoff state: this run's
mkdir -p "$DISTCC_DIR"
# IO timeout short enough for the test, long enough for a compile on a
# loaded 2-core machine whose servers share its cores.
iot=20
# The watcher of B, the packet watch, the farm, the flavours (farmbuild.sh)
trap 'fb_cleanup "$fd" "$fd"' EXIT

[ "$(id -u)" = 0 ] || { skip "the distcc farm" "needs root for ip netns"; done_testing; }
for t in distccd ip jq; do command -v $t > /dev/null || not_ok "$t is installed"; done

# One server per slot; 1-3 good, 4 refuses, 5 is stopped later. One job
# each: distcc takes for each compile the first free slot, trying slot 0 of
# every host in DISTCC_HOSTS order, then slot 1 of each... (where.c,
# dcc_lock_one), so with more slots the first host would take every compile
# of a -j3 build, and with one the third host gets compiles only while three
# run at once: A relies on -j3 being in effect (below).
check "the farm's address checker builds" make "$KF_TOOLS/farm-net" out="$KF_OUT"
net=$(build/farm.sh net)
hosts=$(farm_jobs=1 build/farm.sh up "$fd" ok ok ok refuse ok) &&
	ok "farm of 5 distccd up: $hosts" || { not_ok "farm up"; done_testing; }
read -r h1 h2 h3 h4 h5 <<< "$hosts"
ns_of() { echo "kf-farm-$(cat "$fd/$1/slot")"; }
routes=$(for n in 1 2 3 4 5; do ip -n "$(ns_of $n)" -4 route show; done)
check_eq "no namespace has a route beyond its veth's /30" \
	"$(grep -vcE '^[0-9.]+/30 dev kfn[0-9]+ proto kernel scope link src [0-9.]+ $' <<< "$routes")" 0
addrs=$(for n in 1 2 3 4 5; do ip -n "$(ns_of $n)" -4 -o addr show; done | awk '$2 != "lo" {print $4}')
check_eq "namespace addresses are all in farm_net=$net" \
	"$(for a in $addrs; do "$KF_TOOLS/farm-net" hosts "$net" | grep -qx "${a%/*}" || echo "$a"; done)" ""
check "farm_net=$net is on no network of this machine" build/farm.sh check
check_eq "farm up: no address of $net leaves through a real interface (ip route get)" \
	"$(farm_leaks | head -n 3)" ""
# Every packet the real interfaces send to the range, from here until the
# farm is down (farm-net watch): none may.
watch_start "$kf_tmp/real" || not_ok "farm-net watch started on the real interfaces"

scratch_checkout "$co"
check "generic is built" make build flavour=generic out="$o"

# -j3 on every make, and in effect: make check-slow runs the tests' makes
# inside its lock on out= (KF_LOCKED), where -j3 is what Kbuild gets; run
# by tests/run alone they are outer makes, which run the real one under the
# lock. Those used to add -j$(jobs) (nproc: 2 here) whenever they did not
# see a -j, and GNU make 4.3 shows none while parsing: the real make got
# -j2 ("-j2 forced in submake: resetting jobserver mode"), so only two
# compiles ran at once and the third host got none (issue 48). The Makefile
# now looks at MAKEFLAGS in its recipe; the warning must not come back.
# jobs=3 too: what the outer make gives when it sees no -j (either way, 3).
# farm_build NAME HOSTS DIR... [-- MAKEARGS]: partial flavour NAME (generic
# less DIRs) built through HOSTS; sets $deleted and $secs.
farm_build() {
	local f=$1 h=$2
	shift 2
	fb_partial "$f" "$@"
	fb_make "make build flavour=$f through '$h' ($deleted objects deleted)" \
		flavour="$f" DISTCC_HOSTS="$h" CCACHE=0 DISTCC_IO_TIMEOUT=$iot -j3 jobs=3
	grep 'done in' "$kf_tmp/last.out" | diag
	! grep 'forced in submake' "$kf_tmp/last.out" ||
		not_ok "$f: make -j3 ran with the jobs asked for"
}
dj() { fb_rec "$@"; }
# hostsays FLAVOUR HOST WHAT: build.json's count for HOST (keyed "host:port")
hostsays() { dj "$1" ".distcc.hosts[\"${2%%/*}\"].$3 // 0"; }
# every compile of the build ran somewhere: on a host, or here
all_ran() { [ $(( $(dj "$1" .distcc.remote) + $(dj "$1" .distcc.local) )) -ge "$2" ]; }
compile_ok() { grep -c COMPILE_OK "$fd/$1/log" 2>/dev/null || true; }

# A: three good hosts
for n in 1 2 3; do eval "before$n=$(compile_ok $n)"; done
farm_build farm-a "$h1 $h2 $h3" mm kernel
fb_same_image farm-a
for n in 1 2 3; do
	eval "b=\$before$n"
	got=$(( $(compile_ok $n) - b ))
	[ "$got" -gt 0 ] && ok "A: server $n's log shows $got compiles (COMPILE_OK)" ||
		{ not_ok "A: server $n's log shows compiles"; tail -n 5 "$fd/$n/log" | diag; }
done
rem=$(dj farm-a .distcc.remote) loc=$(dj farm-a .distcc.local)
diag <<< "A: build.json distcc: $(jq -c .distcc "$k/farm-a/build.json")"
[ "$rem" -gt $((deleted / 2)) ] && [ "$(dj farm-a '[.distcc.hosts[] | select(.compiled > 0)] | length')" = 3 ] &&
	ok "A: build.json: $rem remote on 3 hosts, $loc local" ||
	not_ok "A: build.json: $rem remote on 3 hosts, $loc local (fewer than 3 compiles at once: the jobs in effect?)"
check_eq "A: CONFIG_CC_VERSION_TEXT unchanged" \
	"$(grep CONFIG_CC_VERSION_TEXT "$k/farm-a/.config")" "$(grep CONFIG_CC_VERSION_TEXT "$k/generic/.config")"

# B: server 3 killed after it has compiled a few objects of this build
b3=$(compile_ok 3)
fb_when '[ "$(compile_ok 3)" -ge $((b3 + 5)) ]' 'build/farm.sh kill "$fd" 3' "$fd/killed"
farm_build farm-b "$h1 $h2 $h3" mm kernel
fb_when_wait
check_eq "B: server 3 was killed during the build" "$(cat "$fd/killed" 2>/dev/null)" done
fb_same_image farm-b
diag <<< "B: build.json distcc: $(jq -c .distcc "$k/farm-b/build.json") in $secs s"
# distcc redoes a compile lost with its host on another host, or here
[ "$(hostsays farm-b "$h3" failed)" -ge 1 ] && [ "$(hostsays farm-b "$h3" compiled)" -ge 5 ] &&
	all_ran farm-b "$deleted" &&
	ok "B: build.json: server 3 compiled $(hostsays farm-b "$h3" compiled), then failed $(hostsays farm-b "$h3" failed) attempts, all $deleted compiled elsewhere" ||
	not_ok "B: build.json: server 3 compiled some, then failed, all $deleted compiled"


# C: server 5 stopped: it accepts connections (the kernel does) and never answers
build/farm.sh stop "$fd" 5
farm_build farm-c "$h1 $h2 $h5" mm
fb_same_image farm-c
diag <<< "C: build.json distcc: $(jq -c .distcc "$k/farm-c/build.json") in $secs s"
[ "$(hostsays farm-c "$h5" failed)" -ge 1 ] && [ "$(hostsays farm-c "$h5" compiled)" = 0 ] &&
	all_ran farm-c "$deleted" &&
	ok "C: the stopped host compiled nothing, $(hostsays farm-c "$h5" failed) attempts timed out, all compiled elsewhere" ||
	not_ok "C: the stopped host compiled nothing, its attempts timed out, all compiled elsewhere"
# distcc's backoff keeps later compiles off it: the build waits about two
# IO timeouts (sending, then waiting for the answer), not that per compile.
[ "$secs" -lt $((iot * 6 + 300)) ] && ok "C: no hang: $secs s (IO timeout $iot s)" ||
	not_ok "C: no hang: $secs s (IO timeout $iot s)"

# D: server 4 refuses (--allow names another address)
farm_build farm-d "$h1 $h2 $h4" mm
fb_same_image farm-d
diag <<< "D: build.json distcc: $(jq -c .distcc "$k/farm-d/build.json") in $secs s"
[ "$(hostsays farm-d "$h4" failed)" -ge 1 ] && [ "$(hostsays farm-d "$h4" compiled)" = 0 ] &&
	all_ran farm-d "$deleted" &&
	ok "D: the refusing host compiled nothing, $(hostsays farm-d "$h4" failed) attempts refused, all compiled elsewhere" ||
	not_ok "D: the refusing host compiled nothing, its attempts refused, all compiled elsewhere"
grep -q "not allowed\|access denied\|denied" "$fd/4/log" && ok "D: server 4's log shows the refusal" ||
	{ not_ok "D: server 4's log shows the refusal"; tail -n 5 "$fd/4/log" | diag; }

# E: SIGINT in the middle of a build, then make again
f=farm-e
fb_partial $f mm kernel
setsid make -C "$co" build flavour=$f out="$o" DISTCC_HOSTS="$h1 $h2" CCACHE=0 -j3 jobs=3 \
	> "$kf_tmp/e.out" 2>&1 &
mk=$!
# Interrupted once 10 kernel objects were compiled remotely (Kbuild's own
# gcc probes before them "complete" on localhost: not counted).
remote_done() { local n; n=$(grep -c ' on [0-9.]*:3632/[0-9]* completed ok' "$k/$f/distcc.log" 2>/dev/null); echo "${n:-0}"; }
for _ in $(seq 600); do [ "$(remote_done)" -ge 10 ] && break; sleep 0.2; done
diag <<< "E: interrupted after $(remote_done) remote compiles"
kill -INT -- -"$mk"
wait "$mk" && rc=0 || rc=$?
[ "$rc" != 0 ] && ok "E: make interrupted (exit $rc)" || not_ok "E: make interrupted (exit $rc)"
left=
for _ in 1 2 3 4 5 6 7 8 9 10; do
	left=$(for p in $(pgrep -x distcc); do readlink "/proc/$p/cwd"; done | grep -c "^$k/$f" || true)
	[ "$left" = 0 ] && break; sleep 0.5
done
check_eq "E: no distcc client left in $f's build" "$left" 0
check_eq "E: no build stamp after the interrupt" "$(test -e "$k/$f/build.stamp" && echo yes)" ""
start=$SECONDS
check "E: make again finishes the build" make -C "$co" build flavour=$f out="$o" \
	DISTCC_HOSTS="$h1 $h2" CCACHE=0 -j3 jobs=3
diag <<< "E: resumed: $(jq -c '{compiled, distcc}' "$k/$f/build.json") in $((SECONDS - start)) s"
[ "$(dj $f .compiled)" -lt "$deleted" ] && ok "E: resumed: $(dj $f .compiled) compiled of $deleted deleted" ||
	not_ok "E: resumed: $(dj $f .compiled) compiled of $deleted deleted"
fb_same_image $f

check_eq "before down: no address of $net leaves through a real interface (ip route get)" \
	"$(farm_leaks | head -n 3)" ""
slots=$(cat "$fd"/*/slot)
build/farm.sh down "$fd"
left=$(for s in $slots; do ip netns list | grep -w "kf-farm-$s"; ip -o link show "kfh$s" 2>/dev/null; done)
check_eq "farm down: no namespace or veth left" "$left" ""
check_eq "farm down: no distccd of this farm left" "$(pgrep -f "distccd .*--pid-file $fd/" || true)" ""
fb_no_packets_out
done_testing
