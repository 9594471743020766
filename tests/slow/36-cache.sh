#!/bin/bash
# The shared compiler cache (issue 48) with a real server: Debian's
# redis-server in a network namespace on farm_net (build/farm.sh cache),
# ccache_remote given in the environment, each build with an EMPTY local
# cache of its own (CCACHE_DIR), each image compared with generic's:
#   A  generic whole (every object deleted from a copy of its O=): compiles,
#      fills the remote
#   B  the same with another empty local cache: Kbuild compiles, ccache hits
#      the remote, build.json counts it, the bzImage is byte-identical to A's;
#      no process shows the password, no log or record holds it
#   faults, each on generic less mm/ (partial_flavour, tests/scratch.sh):
#   S  the server stopped (SIGSTOP) mid-build   K  killed (SIGKILL) mid-build
#   E  restarted empty: the build fills it, and a next one (Z) hits what it
#      stored   P  a wrong password   F  its memory full (maxmemory 1mb,
#      noeviction)
#   each: the build finishes, the image is right, one warning line, and
#   nothing wrong stored (each later build hits the remote and still gives
#   generic's image). No packet to farm_net leaves through a real interface.
. tests/lib.sh
. tests/scratch.sh
. tests/farmnet.sh
. tests/farmbuild.sh
o=$KF_OUT
k=$o/6.1
co=$kf_tmp/co
fd=$(mktemp -d /tmp/kf-cache-test.XXXXXX)
psw=
trap '[ -n "$psw" ] && kill "$psw" 2>/dev/null; fb_cleanup "$fd" "$fd/full" "$fd/c"' EXIT

[ "$(id -u)" = 0 ] || { skip "the shared cache" "needs root for ip netns"; done_testing; }
for t in redis-server redis-cli ip jq; do command -v $t > /dev/null || not_ok "$t is installed"; done
check "the tools build" make "$KF_TOOLS/farm-net" "$KF_TOOLS/cache-check" out="$KF_OUT"
net=$(build/farm.sh net)
fb_cache_up "$fd/c" && ok "redis-server up: redis://:***@${url#*@}" ||
	{ not_ok "redis-server up"; done_testing; }
( umask 077; echo "$pw" > "$kf_tmp/pw" )	# grep -f: no grep's arguments hold it
keys() { fb_rcli "$fd/c" "$pw" "$addr" dbsize; }
watch_start "$kf_tmp/real" || not_ok "farm-net watch started on the real interfaces"
check "make cache-check passes the server" env ccache_remote="$url" make cache-check out="$o"

scratch_checkout "$co"
check "generic is built" make build flavour=generic out="$o"
# cbuild NAME URL DIR...: flavour NAME, generic less DIR ("." for all), built
# with the shared cache URL and an empty local cache of its own; sets
# $deleted, $secs
cbuild() {
	local f=$1 u=$2
	shift 2
	fb_partial "$f" "$@"
	rm -rf "$kf_tmp/cc-$f"
	mkdir -p "$kf_tmp/cc-$f"
	# the setting in make's environment: an assignment before a command is
	# in no process's arguments
	ccache_remote=$u CCACHE_DIR=$kf_tmp/cc-$f \
		fb_make "$f: make build with an empty local cache ($deleted objects deleted)" flavour="$f"
	cp "$kf_tmp/last.out" "$kf_tmp/$f.out"
	grep -E 'done in|warning:.*shared cache' "$kf_tmp/last.out" | diag
}
same_image() { fb_same_image "$1"; }
rj() { fb_rec "$@"; }
warned() {	# warned FLAVOUR PATTERN: exactly one warning line, matching
	local n
	n=$(grep -c 'warning:.*shared cache' "$kf_tmp/$1.out")
	[ "$n" = 1 ] && grep -Eq "$2" "$kf_tmp/$1.out" && ok "$1: one warning line: $(grep 'warning:.*shared cache' "$kf_tmp/$1.out" | cut -c1-150)" ||
		{ not_ok "$1: one warning line (/$2/; $n)"; grep warning "$kf_tmp/$1.out" | diag; }
}
# remote_hits_now FLAVOUR: its build's remote hits so far, on sources (Kbuild's
# cc-option probes on /dev/null hit the remote too, before any object)
remote_hits_now() {
	awk '/^#/ {f = $2; next} $0 == "remote_storage_hit" && f != "" && f != "/dev/null" {n++}
	     END {print n + 0}' "$k/$1/ccache.log" 2>/dev/null || echo 0
}

# A: the whole of generic, every object a local miss, each stored remotely
cbuild cache-a "$url" .
same_image cache-a
diag <<< "A: $(jq -c '{compiled, ccache}' "$k/cache-a/build.json") in $secs s; server keys: $(keys)"
[ "$(rj cache-a .compiled)" -gt 500 ] && [ "$(rj cache-a .ccache.remote.misses)" -ge "$(rj cache-a .compiled)" ] &&
	[ "$(rj cache-a .ccache.remote.stored)" -ge "$(rj cache-a .compiled)" ] &&
	[ "$(rj cache-a .ccache.remote.errors)" = 0 ] && [ "$(keys)" -gt 1000 ] &&
	ok "A: $(rj cache-a .compiled) compiled, $(rj cache-a .ccache.remote.misses) remote misses, $(rj cache-a .ccache.remote.stored) stored, 0 errors, $(keys) keys" ||
	not_ok "A: compiled, remote misses stored, 0 errors"
grep -q "remote 0 hits / $(rj cache-a .ccache.remote.misses) misses" "$kf_tmp/cache-a.out" &&
	ok "A: the done line shows the remote's counts" || not_ok "A: the done line shows the remote's counts"

# B: the same from the remote alone; the password in no process's arguments
( while :; do
	grep -lF -f "$kf_tmp/pw" /proc/[0-9]*/cmdline 2>/dev/null | head -n 3 >> "$kf_tmp/ps-hits"
	grep -lF -f "$kf_tmp/pw" /proc/[0-9]*/environ 2>/dev/null >> "$kf_tmp/ps-env"
	sleep 0.3
  done ) &
psw=$!
cbuild cache-b "$url" .
kill "$psw"
psw=
same_image cache-b
check "B: bzImage byte-identical to A's" cmp "$k/cache-b/arch/x86/boot/bzImage" "$k/cache-a/arch/x86/boot/bzImage"
diag <<< "B: $(jq -c '{compiled, ccache}' "$k/cache-b/build.json") in $secs s (A: $(rj cache-a .wall_seconds) s)"
c=$(rj cache-b .compiled) h=$(rj cache-b .ccache.remote.hits)
[ "$c" -gt 500 ] && [ "$h" -ge $((c * 9 / 10)) ] && [ "$(rj cache-b .ccache.remote.errors)" = 0 ] &&
	ok "B: Kbuild compiled $c objects, ccache hit the remote for $h of them (build.json)" ||
	not_ok "B: Kbuild compiled $c objects, ccache hit the remote for $h of them (build.json)"
check_eq "B: build.json names the remote, password as ***" "$(rj cache-b .ccache.remote.url)" "redis://:***@$hp"
check_eq "B: no process showed the password in its arguments" "$(sort -u "$kf_tmp/ps-hits" 2>/dev/null)" ""
# the same scan of environments finds it (ccache's): the scan saw the build
[ "$(sort -u "$kf_tmp/ps-env" 2>/dev/null | wc -l)" -gt 10 ] &&
	ok "B: ... while $(sort -u "$kf_tmp/ps-env" | wc -l) processes had it in their environment (ccache's)" ||
	not_ok "B: ... while processes had it in their environment (ccache's)"
check_eq "A, B: no log or record holds the password" \
	"$(grep -lF -f "$kf_tmp/pw" "$k"/cache-[ab]/{build.log,build.json,ccache.log,ccache-remote} "$kf_tmp"/cache-[ab].out 2>/dev/null)" ""

# S: the server stopped (SIGSTOP) once the build has hit it 5 times
fb_when '[ "$(remote_hits_now cache-s)" -ge 5 ]' 'build/farm.sh stop "$fd/c" 1' "$fd/s"
cbuild cache-s "$url" mm
fb_when_wait
build/farm.sh cont "$fd/c" 1
check_eq "S: the server was stopped during the build" "$(cat "$fd/s" 2>/dev/null)" done
same_image cache-s
diag <<< "S: $(jq -c .ccache.remote "$k/cache-s/build.json") in $secs s"
[ "$(rj cache-s .ccache.remote.hits)" -ge 5 ] && [ $(( $(rj cache-s .ccache.remote.errors) + $(rj cache-s .ccache.remote.timeouts) )) -ge 1 ] &&
	ok "S: remote hits, then failures counted" || not_ok "S: remote hits, then failures counted"
warned cache-s "the shared cache redis://:\*\*\*@$hp failed [0-9]+ compiles"
[ "$secs" -lt 400 ] && ok "S: no hang: $secs s" || not_ok "S: no hang: $secs s"

# K: killed (SIGKILL) mid-build; its objects were right (the build hits them)
fb_when '[ "$(remote_hits_now cache-k)" -ge 5 ]' 'build/farm.sh kill "$fd/c" 1' "$fd/k"
cbuild cache-k "$url" mm
fb_when_wait
check_eq "K: the server was killed during the build" "$(cat "$fd/k" 2>/dev/null)" done
same_image cache-k
diag <<< "K: $(jq -c .ccache.remote "$k/cache-k/build.json") in $secs s"
[ "$(rj cache-k .ccache.remote.hits)" -ge 5 ] && [ "$(rj cache-k .ccache.remote.errors)" -ge 1 ] &&
	ok "K: remote hits, then errors counted" || not_ok "K: remote hits, then errors counted"
warned cache-k "failed [0-9]+ compiles"

# E: restarted empty; Z: what E stored comes back right
build/farm.sh cache-restart "$fd/c" && check_eq "E: the server restarted empty" "$(keys)" 0
cbuild cache-e "$url" mm
same_image cache-e
[ "$(rj cache-e .ccache.remote.hits)" = 0 ] && [ "$(rj cache-e .ccache.remote.misses)" -ge "$deleted" ] &&
	[ "$(rj cache-e .ccache.remote.stored)" -ge "$deleted" ] &&
	[ "$(rj cache-e .ccache.remote.errors)" = 0 ] && [ "$(keys)" -gt 0 ] &&
	ok "E: every compile missed the empty remote and stored ($(keys) keys)" ||
	not_ok "E: every compile missed the empty remote and stored ($(jq -c .ccache.remote "$k/cache-e/build.json"))"
cbuild cache-z "$url" mm
same_image cache-z
[ "$(rj cache-z .ccache.remote.hits)" -ge "$deleted" ] && ok "Z: $(rj cache-z .ccache.remote.hits) remote hits from what E stored" ||
	not_ok "Z: remote hits from what E stored ($(jq -c .ccache.remote "$k/cache-z/build.json"))"

# P: a wrong password: refused before the build, which uses the local cache only
cbuild cache-p "redis://:wrong$pw@$hp" kernel/time
same_image cache-p
warned cache-p "redis://:\*\*\*@$hp refuses the password.*building with the local cache only"
check_eq "P: build.json: the remote was not used" "$(rj cache-p '"\(.ccache.remote.used) \(.ccache.remote.hits) \(.ccache.remote.errors)"')" "false 0 0"
grep -q "remote off" "$kf_tmp/cache-p.out" && ok "P: the done line says remote off" || not_ok "P: the done line says remote off"

# F: a server whose memory is full (1mb: an empty redis-server's own use; no eviction)
full=$(build/farm.sh cache "$fd/full" maxmemory 1mb maxmemory-policy noeviction) &&
	ok "F: a second server, maxmemory 1mb noeviction" || not_ok "F: a second server"
fhp=${full#*@} fpw=${full#redis://:}
fpw=${fpw%@*}
cbuild cache-f "$full" mm
same_image cache-f
diag <<< "F: $(jq -c .ccache.remote "$k/cache-f/build.json"); server: $(fb_rcli "$fd/full" "$fpw" "${fhp%:*}" info memory | grep -E '^used_memory:' | tr -d '\r')"
[ "$(rj cache-f .ccache.remote.errors)" -ge 1 ] && ok "F: refused stores counted as errors" || not_ok "F: refused stores counted as errors"
warned cache-f "failed [0-9]+ compiles"
cbuild cache-g "$full" mm
same_image cache-g
diag <<< "G (F's server again): $(jq -c .ccache.remote "$k/cache-g/build.json")"
build/farm.sh down "$fd/full"

build/farm.sh down "$fd/c"
fb_no_packets_out
done_testing
