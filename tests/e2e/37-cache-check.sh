#!/bin/bash
# The shared compiler cache (issue 48): ccache_remote=redis://... and make
# cache-check. Without a server: a malformed URL, another scheme, a user
# without a password and a ccache without Redis support are refused before
# any build, naming the fix, the password never shown. With root: Debian's
# redis-server in a network namespace on farm_net (build/farm.sh cache)
# passes make cache-check; a wrong password, none, a stopped server and one
# whose memory is full (noeviction) are each named; no packet to farm_net
# leaves through a real interface. Every cache-check of the test (make's
# kf-cache-form before a build too) makes its scratch directory under the
# test's own TMPDIR: none is left, whether it passed, failed or was
# interrupted (SIGINT while it waits for a stopped server). No kernel
# build: a few seconds.
. tests/lib.sh
. tests/farmnet.sh
fd=$(mktemp -d /tmp/kf-cache-check-test.XXXXXX)
trap '[ -f "$kf_tmp/real.pid" ] && watch_stop "$kf_tmp/real"; build/farm.sh down "$fd/full"; build/farm.sh down "$fd/ok"; rm -rf "$kf_tmp" "$fd"' EXIT
k=$KF_OUT/6.1
pw=kfSecret0123
export TMPDIR=$kf_tmp/tmp
mkdir -p "$TMPDIR"
# no_scratch_left WHEN: no kf-cache-check.XXXXXX left in TMPDIR
no_scratch_left() {
	check_eq "$1: no cache-check scratch directory left" \
		"$(cd "$TMPDIR" && find . -maxdepth 1 -name 'kf-cache-check.*' | tr '\n' ' ')" ""
}

check "cache-check builds" make "$KF_TOOLS/cache-check" "$KF_TOOLS/farm-net" "$KF_TOOLS/build-progress" out="$KF_OUT"
log_before=$(stat -c %Y "$k/generic/build.log" 2>/dev/null)
# refused: make build with the setting in the environment (as docs/build.md
# advises: make's own command line is in ps)
refused() {
	local desc=$1 pat=$2 url=$3
	shift 3
	check_fails "$desc" 2 "$pat" env ccache_remote="$url" "$@" make build flavour=generic out="$KF_OUT"
	grep -q "$pw" "$kf_tmp/last.out" && not_ok "$desc: the password is shown" || true
}
refused "an unknown scheme is refused, naming the form" \
	"ccache_remote=http://:\*\*\*@cache:8080: unknown scheme 'http://'.*redis://\[:PASSWORD@\]HOST\[:PORT\]" \
	"http://:$pw@cache:8080"
refused "a malformed URL is refused" "ccache_remote=\*\*\*@cache: not a URL; give redis://" "redis:/$pw@cache"
refused "a password without its colon is refused, naming the fix" \
	"names a user without a password; write the password after a colon" "redis://$pw@198.51.100.2"
refused "a bad port is refused" "the port must be a number from 1 to 65535" "redis://:$pw@198.51.100.2:70000"
printf '#!/bin/sh\necho "ccache version 4.7.5"\necho "Features: file-storage http-storage"\n' > "$kf_tmp/ccache"
chmod +x "$kf_tmp/ccache"
refused "a ccache without Redis support is refused, naming the fix" \
	"needs a ccache with Redis support .*apt-get install ccache, or drop ccache_remote" \
	"redis://:$pw@198.51.100.2:6379" KF_CCACHE="$kf_tmp/ccache"
check_eq "no build ran for a refused setting (generic's build.log unchanged)" \
	"$(stat -c %Y "$k/generic/build.log" 2>/dev/null)" "$log_before"
check_fails "make cache-check without ccache_remote says how to give it" 2 \
	"ccache_remote is not set; give it, e.g. make cache-check ccache_remote=redis://" \
	env -u ccache_remote make cache-check out="$KF_OUT"
make -s help out="$KF_OUT" > "$kf_tmp/help" 2>&1
grep -q "ccache_remote=redis://\[:PASSWORD@\]HOST\[:PORT\]" "$kf_tmp/help" &&
	ok "make help documents ccache_remote" || not_ok "make help documents ccache_remote"

[ "$(id -u)" = 0 ] || { skip "make cache-check against a server" "needs root for ip netns"; done_testing; }
command -v redis-server > /dev/null || { not_ok "redis-server is installed (mk/deps.mk)"; done_testing; }
net=$(build/farm.sh net)
watch_start "$kf_tmp/real" || not_ok "farm-net watch started on the real interfaces"
url=$(build/farm.sh cache "$fd/ok") && ok "redis-server up in a namespace: redis://:***@${url#*@}" ||
	{ not_ok "redis-server up"; diag < "$fd/ok/1/log"; done_testing; }
hp=${url#*@}
addr=${hp%:*}
"$KF_TOOLS/farm-net" hosts "$net" | grep -qx "$addr" && ok "its address $addr is in farm_net=$net" ||
	not_ok "its address $addr is in farm_net=$net"
[[ $(ip -o route get "$addr") =~ " dev kfh"[0-9]+" " ]] && ok "it is reached through a farm veth" ||
	not_ok "it is reached through a farm veth"
conf=$fd/ok/1/redis.conf
check_eq "its config: requirepass, one address, allkeys-lru, a memory cap, nothing on disk" \
	"$(awk '$1 ~ /^(requirepass|bind|maxmemory|maxmemory-policy|save)$/ {print $1}' "$conf" | sort | tr '\n' ' ')" \
	"bind maxmemory maxmemory-policy requirepass save "
check_eq "its config and URL are readable by root only" "$(stat -c %a "$conf" "$fd/ok/url" | tr '\n' ' ')" "600 600 "

check "make cache-check passes the server" env ccache_remote="$url" make cache-check out="$KF_OUT"
grep -q "got it back, byte for byte" "$kf_tmp/last.out" && ok "... ccache stored and got back its probe" ||
	{ not_ok "... ccache stored and got back its probe"; diag < "$kf_tmp/last.out"; }
check_eq "... and showed no password" "$(grep -c "${url#redis://:}" "$kf_tmp/last.out")" 0
# valgrind: no memory error, no definite or indirect leak (as 85-lint.sh's)
vg=(valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99)
vgrun() { KF_CCACHE_REMOTE=$1 "${vg[@]}" "${@:2}"; }
check "valgrind: cache-check against the server" vgrun "$url" "$KF_TOOLS/cache-check"
check_fails "valgrind: cache-check --form refusing a URL" 2 "unknown scheme" vgrun "http://$hp" "$KF_TOOLS/cache-check" --form
check "valgrind: build-progress probing the server" vgrun "$url" "$KF_TOOLS/build-progress" --name t \
	--log "$kf_tmp/bp.log" --remote-state "$kf_tmp/bp.state" -- sh -c 'test -n "$CCACHE_REMOTE_STORAGE" && test -z "$KF_CCACHE_REMOTE"'
check_eq "... Kbuild gets ccache's setting, not ours; the state file says on" "$(cat "$kf_tmp/bp.state")" "on redis://:***@$hp"
check "valgrind: build-progress with a wrong password" vgrun "redis://:wrong$pw@$hp" "$KF_TOOLS/build-progress" --name t \
	--log "$kf_tmp/bp.log" --remote-state "$kf_tmp/bp.state" -- sh -c 'test -z "$CCACHE_REMOTE_STORAGE"'
grep -q "^kflavour: warning: t: shared cache: redis://:\*\*\*@$hp refuses the password.*building with the local cache only" "$kf_tmp/last.out" &&
	ok "... warns once and builds with the local cache only" || { not_ok "... warns once and builds with the local cache only"; diag < "$kf_tmp/last.out"; }
check_fails "a wrong password is named" 2 "redis://:\*\*\*@$hp refuses the password" \
	env ccache_remote="redis://:wrong$pw@$hp" make cache-check out="$KF_OUT"
check_fails "no password, for a server that asks for one, is named" 2 "asks for a password: give redis://:PASSWORD@$hp" \
	env ccache_remote="redis://$hp" make cache-check out="$KF_OUT"
build/farm.sh stop "$fd/ok" 1
start=$SECONDS
check_fails "a stopped server is named, within the timeout" 2 "does not answer within 2000 ms" \
	env ccache_remote="$url" make cache-check out="$KF_OUT" cache_check_timeout=2
[ $((SECONDS - start)) -lt 15 ] && ok "... in $((SECONDS - start)) s" || not_ok "... in $((SECONDS - start)) s"
# SIGINT while cache-check waits for the stopped server: it dies of the
# signal, as make expects, and leaves no scratch directory
KF_CCACHE_REMOTE=$url "$KF_TOOLS/cache-check" --timeout 30 > "$kf_tmp/int.out" 2>&1 &
cc=$!
for _ in $(seq 50); do [ -n "$(ls "$TMPDIR" | grep kf-cache-check)" ] && break; sleep 0.1; done
had=$(ls "$TMPDIR" | grep -c kf-cache-check)
kill -INT "$cc"
wait "$cc" && rc=0 || rc=$?
check_eq "SIGINT while waiting for a stopped server: its scratch directory existed, it died of SIGINT (exit 130)" \
	"$had $rc" "1 130"
no_scratch_left "after SIGINT"
build/farm.sh cont "$fd/ok" 1
build/farm.sh kill "$fd/ok" 1
check_fails "a killed server is named" 2 "redis://:\*\*\*@$hp does not answer \(connect: Connection refused\)" \
	env ccache_remote="$url" make cache-check out="$KF_OUT"
# Memory full: a cap below what an empty redis-server uses, no eviction.
full=$(build/farm.sh cache "$fd/full" maxmemory 512kb maxmemory-policy noeviction) &&
	ok "a second server, memory full (maxmemory 512kb, noeviction)" || not_ok "a second server, memory full"
check_fails "a server whose memory is full is named, with the policy to give it" 2 \
	"refuses to store \(OOM .*give it maxmemory-policy allkeys-lru" \
	env ccache_remote="$full" make cache-check out="$KF_OUT"
pids=$(cat "$fd/full/1/pid" "$fd/ok/1/pid" 2>/dev/null)
build/farm.sh down "$fd/full"
build/farm.sh down "$fd/ok"
left() { for p in $pids; do ps -o stat=,comm= -p "$p" | grep -v '^Z'; done; }
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -z "$(left)" ] && break; sleep 0.5; done
check_eq "down: no redis-server of this test left" "$(left)" ""
no_scratch_left "passes and failures against a server"
watch_stop "$kf_tmp/real"
check_eq "no packet to $net left through a real interface ($(sed -n 's/^watching //p' "$kf_tmp/real"))" \
	"$(watch_hits "$kf_tmp/real")" 0
check_eq "no address of $net leaves through a real interface" "$(farm_leaks | head -n 3)" ""
done_testing
