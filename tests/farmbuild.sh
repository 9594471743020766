# tests/farmbuild.sh: sourced after tests/lib.sh and tests/scratch.sh by the
# slow tests that build generic, whole or in part, through a farm or a
# shared cache on farm_net (tests/slow/35-farm.sh, 36-cache.sh,
# 38-farm-cache.sh): the flavours they make, the checks of what those
# builds leave, and the end of a test's servers and packet watch.
#
# Each test sets o (its out=, $KF_OUT), k ($o/6.1), co (its scratch
# checkout) before calling these.
#
# fb_flavours: every flavour fb_partial made, removed by fb_cleanup.
fb_flavours=()
# fb_watcher: the pid of fb_when's watcher while one runs.
fb_watcher=

# fb_partial NAME DIR...: flavour NAME, generic less the objects under DIR
# ("." for all; tests/scratch.sh partial_flavour), noted for fb_cleanup;
# sets $deleted; fails the test's check when fewer than 11 were deleted.
fb_partial() {
	local f=$1
	shift
	fb_flavours+=("$f")
	deleted=$(partial_flavour "$co" generic "$f" "$@") && [ "$deleted" -gt 10 ] ||
		not_ok "flavour $f is generic less $* (${deleted:-none} objects)"
}
# fb_make DESC MAKEARG...: make -C $co build out=$o MAKEARG... as a check;
# sets $secs; its output stays in $kf_tmp/last.out
fb_make() {
	local desc=$1 start=$SECONDS
	shift
	check "$desc" make -C "$co" build out="$o" "$@"
	secs=$((SECONDS - start))
}
# fb_same_image NAME [REF]: NAME's bzImage is byte for byte REF's (generic's)
fb_same_image() {
	check "$1: bzImage byte-identical to ${2:-generic}'s" \
		cmp "$k/$1/arch/x86/boot/bzImage" "$k/${2:-generic}/arch/x86/boot/bzImage"
}
# fb_rec FLAVOUR JQ: a value of its build.json
fb_rec() { jq -r "$2" "$k/$1/build.json"; }
# fb_when COND ACTION FILE: in the background, once the command COND
# succeeds (polled every 0.2 s, 3 minutes at most), run ACTION and write
# "done" to FILE; fb_when_wait waits for it. A background subshell ignores
# SIGINT: fb_cleanup ends it.
fb_when() {
	( for _ in $(seq 900); do
		eval "$1" && { eval "$2"; echo "done" > "$3"; exit; }
		sleep 0.2
	  done ) &
	fb_watcher=$!
}
fb_when_wait() {
	wait "$fb_watcher"
	fb_watcher=
}
# fb_cache_up DIR [DIRECTIVE VALUE]...: a cache server (build/farm.sh
# cache); sets url (ccache_remote's value), pw (its password), hp (its
# host:port) and addr
fb_cache_up() {
	url=$(build/farm.sh cache "$@") || return 1
	pw=${url#redis://:}
	pw=${pw%@*}
	hp=${url#*@}
	addr=${hp%:*}
}
# fb_rcli DIR PASSWORD HOST ARG...: redis-cli in the namespace of DIR's
# cache server, its password in the environment (in no ps output)
fb_rcli() { ip netns exec "kf-farm-$(cat "$1/1/slot")" env REDISCLI_AUTH="$2" redis-cli -h "$3" "${@:4}"; }
# fb_cleanup DIR FARMDIR...: for the test's EXIT trap: the watcher, the
# packet watch, each farm or cache server of FARMDIR (build/farm.sh down),
# the flavours made, then DIR (the servers' top directory) and $kf_tmp.
fb_cleanup() {
	local top=$1 d f
	shift
	[ -n "$fb_watcher" ] && kill "$fb_watcher" 2>/dev/null
	[ -f "$kf_tmp/real.pid" ] && watch_stop "$kf_tmp/real"
	for d; do build/farm.sh down "$d"; done
	for f in "${fb_flavours[@]}"; do rm -rf "${k:?}/$f"; done
	rm -rf "$kf_tmp" "$top"
}
# fb_no_packets_out: the end of the packet watch (watch_start
# $kf_tmp/real): none sent to farm_net through a real interface, and no
# address of it routed out now
fb_no_packets_out() {
	watch_stop "$kf_tmp/real"
	check_eq "no packet to $net left through a real interface ($(sed -n 's/^watching //p' "$kf_tmp/real"))" \
		"$(watch_hits "$kf_tmp/real")" 0
	sed 1d "$kf_tmp/real" | diag
	check_eq "down: no address of $net leaves through a real interface" "$(farm_leaks | head -n 3)" ""
}
