#!/bin/bash
# Distcc and the shared cache together (issue 48): the farm machine builds
# generic whole (every object deleted from a copy of its O=) through three
# distccd in network namespaces (build/farm.sh up) with ccache_remote set
# and an empty local cache: ccache runs distcc for each miss (CCACHE_PREFIX)
# and stores what the farm compiled in the shared cache (Debian's
# redis-server in a namespace, build/farm.sh cache). Then the farm goes
# down, and the next machine (another copy, another empty local cache, no
# DISTCC_HOSTS) builds generic whole again: Kbuild compiles every object,
# ccache hits the shared cache for them, and the bzImage is byte for byte
# the farm build's and generic's. No packet to farm_net leaves through a
# real interface.
. tests/lib.sh
. tests/scratch.sh
. tests/farmnet.sh
. tests/farmbuild.sh
o=$KF_OUT
k=$o/6.1
co=$kf_tmp/co
fd=$(mktemp -d /tmp/kf-farm-cache-test.XXXXXX)
chmod a+x "$fd"	# distccd runs as its own user: its log is in $fd/farm/N
export DISTCC_DIR=$kf_tmp/distcc	# distcc's locks and backoff state: this run's
mkdir -p "$DISTCC_DIR"
trap 'fb_cleanup "$fd" "$fd/farm" "$fd/c"' EXIT

[ "$(id -u)" = 0 ] || { skip "a farm build into the shared cache" "needs root for ip netns"; done_testing; }
for t in distccd redis-server redis-cli ip jq; do command -v $t > /dev/null || not_ok "$t is installed"; done
check "the tools build" make "$KF_TOOLS/farm-net" "$KF_TOOLS/cache-check" out="$KF_OUT"
net=$(build/farm.sh net)
fb_cache_up "$fd/c" && ok "the shared cache is up: redis://:***@$hp" ||
	{ not_ok "the shared cache is up"; done_testing; }
keys() { fb_rcli "$fd/c" "$pw" "$addr" dbsize; }
( umask 077; echo "$pw" > "$kf_tmp/pw" )	# grep -f: no grep's arguments hold it
hosts=$(farm_jobs=2 build/farm.sh up "$fd/farm" ok ok ok) && ok "a farm of 3 distccd: $hosts" ||
	{ not_ok "a farm of 3 distccd"; done_testing; }
watch_start "$kf_tmp/real" || not_ok "farm-net watch started on the real interfaces"
check "make cache-check passes the server" env ccache_remote="$url" make cache-check out="$o"

scratch_checkout "$co"
check "generic is built" make build flavour=generic out="$o"
compile_ok() { cat "$fd"/farm/[0-9]*/log 2>/dev/null | grep -c COMPILE_OK; }

# A: the farm machine, every object a local and remote miss, compiled on the farm
before=$(compile_ok)
fb_partial fc-farm .
mkdir -p "$kf_tmp/cc-farm"
ccache_remote=$url CCACHE_DIR=$kf_tmp/cc-farm fb_make \
	"A: the farm build with the shared cache and an empty local cache ($deleted objects deleted)" \
	flavour=fc-farm DISTCC_HOSTS="$hosts" -j6 jobs=6
grep -E 'done in|warning:' "$kf_tmp/last.out" | diag
a_secs=$secs
fb_same_image fc-farm
diag <<< "A: $(jq -c '{compiled, ccache, distcc: (.distcc | del(.hosts))}' "$k/fc-farm/build.json") in $secs s; server keys: $(keys)"
c=$(fb_rec fc-farm .compiled) rem=$(fb_rec fc-farm .distcc.remote)
[ "$c" -gt 500 ] && [ "$rem" -gt $((c / 2)) ] && [ $(( $(compile_ok) - before )) -ge "$rem" ] &&
	ok "A: Kbuild compiled $c objects, $rem of them on the farm (build.json; the servers' logs: $(( $(compile_ok) - before )))" ||
	not_ok "A: Kbuild compiled $c objects, most of them on the farm ($rem remote)"
st=$(fb_rec fc-farm .ccache.remote.stored)
[ "$(fb_rec fc-farm .ccache.remote.used)" = true ] && [ "$st" -ge "$c" ] &&
	[ "$(fb_rec fc-farm .ccache.remote.errors)" = 0 ] && [ "$(keys)" -gt 1000 ] &&
	ok "A: ccache stored the farm's $st results in the shared cache, 0 errors ($(keys) keys)" ||
	not_ok "A: ccache stored the farm's results in the shared cache ($(jq -c .ccache.remote "$k/fc-farm/build.json"))"

# The farm goes down: the next machine has none
build/farm.sh down "$fd/farm"
check_eq "the farm is down: no distccd of it left" "$(pgrep -f "distccd .*--pid-file $fd/farm/" || true)" ""

# B: the next machine, its own empty local cache, no farm
fb_partial fc-next .
mkdir -p "$kf_tmp/cc-next"
ccache_remote=$url CCACHE_DIR=$kf_tmp/cc-next fb_make \
	"B: the next machine's build, no farm, an empty local cache ($deleted objects deleted)" flavour=fc-next
grep -E 'done in|warning:' "$kf_tmp/last.out" | diag
cp "$kf_tmp/last.out" "$kf_tmp/b.out"
fb_same_image fc-next
fb_same_image fc-next fc-farm
diag <<< "B: $(jq -c '{compiled, ccache, distcc}' "$k/fc-next/build.json") in $secs s (A: $a_secs s)"
c=$(fb_rec fc-next .compiled) h=$(fb_rec fc-next .ccache.remote.hits)
[ "$c" -gt 500 ] && [ "$h" -ge $((c * 9 / 10)) ] && [ "$(fb_rec fc-next .ccache.remote.errors)" = 0 ] &&
	ok "B: Kbuild compiled $c objects, ccache hit the farm's results in the shared cache for $h (build.json)" ||
	not_ok "B: Kbuild compiled $c objects, ccache hit the shared cache for $h (build.json)"
check_eq "B: no distcc in the next machine's build" "$(fb_rec fc-next .distcc)" null
grep -q "remote $h hits / " "$kf_tmp/b.out" && ok "B: the done line shows the $h remote hits" ||
	not_ok "B: the done line shows the remote hits"
check_eq "A, B: no log or record holds the password" \
	"$(grep -lF -f "$kf_tmp/pw" "$k"/fc-{farm,next}/{build.log,build.json,ccache.log,ccache-remote,distcc.log} 2>/dev/null)" ""

build/farm.sh down "$fd/c"
fb_no_packets_out
done_testing
