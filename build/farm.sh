#!/bin/bash
# farm.sh: a distcc farm on this machine, for tests and for trying a farm
# out: each distccd in a network namespace of its own, reached over a veth
# pair whose two ends get a /30 of farm_net and nothing else: no default
# route in the namespace, no route to it but the /30 of its veth. farm_net
# (default below: 198.51.100.0/24, TEST-NET-2, RFC 5737) must be a range no
# interface or route of this machine is on: up refuses, naming the conflict,
# when it is (farm-net check, build/farmnet.c). While a farm is up, and after,
# an "unreachable farm_net" route in the host namespace makes a packet for an
# address of the range that no veth of ours carries (a namespace gone or not
# up yet) fail here instead of following the default route out of the
# machine. Needs root, but for net and check.
#
#   farm.sh up DIR KIND...   one server per KIND: ok, refuse (--allow names
#                            another address), clang (its distccd's PATH has
#                            a gcc that runs clang: another compiler);
#                            prints the DISTCC_HOSTS line (also DIR/hosts)
#   farm.sh down DIR         stop every process in its namespaces, remove them
#   farm.sh kill|stop|cont DIR N   SIGKILL/SIGSTOP/SIGCONT server N (1-based)
#   farm.sh run N -- CMD...  N ok servers, CMD with DISTCC_HOSTS set, then down
#                            (also on SIGINT/SIGTERM)
#   farm.sh cache DIR [DIRECTIVE VALUE]...   a redis-server for ccache's
#                            remote storage (docs/build.md "A shared compiler
#                            cache") in a namespace of its own, as server 1
#                            of DIR: DIR/1/redis.conf (mode 600) has a
#                            generated requirepass, bind to its one address,
#                            maxmemory 256mb, allkeys-lru, no persistence;
#                            DIRECTIVE VALUE pairs override (maxmemory 1mb,
#                            maxmemory-policy noeviction, requirepass PW).
#                            Prints the ccache_remote URL (also DIR/url,
#                            mode 600). kill|stop|cont DIR 1 signal it, down
#                            removes it.
#   farm.sh cache-restart DIR   the cache server killed and started again on
#                            its config: empty (it keeps nothing on disk)
#   farm.sh net              print farm_net
#   farm.sh check            farm_net against this machine's addresses and
#                            routes: exit 1 naming each conflict
# Env: farm_net (the range), farm_jobs (jobs per server, default 2),
# KF_TOOLS (where farm-net is; default out/tools, built there when missing).
# Each server takes a slot S (a lock directory under /run/kf-farm; 64 at
# most, fewer in a range smaller than a /24): its namespace kf-farm-S, veths
# kfhS (here) and kfnS (inside), the S-th /30 of farm_net: its first address
# here, its second inside. Slots keep concurrent farms apart; a slot whose
# namespace is gone is taken again.
set -eo pipefail
farm_net_default=198.51.100.0/24
net=${farm_net:-$farm_net_default}
locks=/run/kf-farm
port=3632
jobs=${farm_jobs:-2}
top=$(cd "$(dirname "$0")/.." && pwd)
tools=${KF_TOOLS:-$top/out/tools}

die() { echo "kflavour: farm: $*" >&2; exit 1; }

# The address checker, built by make when missing (tests/run's KF_TOOLS, or
# this checkout's out/).
farmnet() {
	[ -x "$tools/farm-net" ] ||
		make -s -C "$top" out="$(dirname "$tools")" "$tools/farm-net" >&2 ||
		die "cannot build $tools/farm-net"
	"$tools/farm-net" "$@"
}

take_slot() {
	mkdir -p "$locks"
	local s n
	n=$(farmnet slots "$net")
	for s in $(seq 0 $((n - 1))); do
		if mkdir "$locks/$s" 2>/dev/null; then echo "$s"; return; fi
		# A slot left by a farm that was killed outright (no down): reclaim it.
		if ! ip netns list | grep -qw "kf-farm-$s" && [ ! -d "$(cat "$locks/$s/dir" 2>/dev/null)" ]; then
			rm -rf "$locks/$s" && mkdir "$locks/$s" 2>/dev/null && { echo "$s"; return; }
		fi
	done
	die "no free slot in /run/kf-farm ($n servers in use in farm_net=$net); run 'build/farm.sh down DIR' for old farms"
}

# slot_up DIR SD: a free slot of farm DIR, noted in SD/slot, and its
# namespace kf-farm-<slot> joined to this one by the veth kfh<slot> (host
# side, address h) and kfn<slot> (inside, address c): a /30 of farm_net.
# Sets the caller's s, h, c and spare (the /30's fourth address).
slot_up() {
	s=$(take_slot)
	echo "$1" > "$locks/$s/dir"
	read -r h c spare <<< "$(farmnet slot "$net" "$s")"
	mkdir -p "$2"
	echo "$s" > "$2/slot"
	ip netns add "kf-farm-$s"
	ip link add "kfh$s" type veth peer name "kfn$s" netns "kf-farm-$s"
	ip addr add "$h/30" dev "kfh$s"
	ip link set "kfh$s" up
	ip -n "kf-farm-$s" link set lo up
	ip -n "kf-farm-$s" addr add "$c/30" dev "kfn$s"
	ip -n "kf-farm-$s" link set "kfn$s" up
}

up_one() {
	local dir=$1 n=$2 kind=$3 s ns h c spare sd allow
	sd=$dir/$n
	slot_up "$dir" "$sd"
	ns=kf-farm-$s
	chmod 1777 "$sd"	# distccd drops root for its own user: its log is here
	allow=$h/32
	local path=$PATH
	case $kind in
	ok) ;;
	refuse) allow=$spare/32 ;;
	clang)	mkdir -p "$sd/bin"
		printf '#!/bin/sh\nexec clang "$@"\n' > "$sd/bin/gcc"
		chmod 755 "$sd/bin" "$sd/bin/gcc"
		path=$sd/bin:$PATH ;;
	*) die "unknown server kind '$kind' (ok, refuse, clang)" ;;
	esac
	ip netns exec "$ns" env PATH="$path" distccd --daemon --listen "$c" --allow "$allow" \
		--port "$port" --log-file "$sd/log" --log-level info --pid-file "$sd/pid" \
		--jobs "$jobs"
	local _
	for _ in $(seq 20); do grep -q "listening on $c:$port" "$sd/log" 2>/dev/null && [ -s "$sd/pid" ] && break; sleep 0.25; done
	grep -q "listening on $c:$port" "$sd/log" 2>/dev/null ||
		die "distccd in $ns did not start; see $sd/log"
	echo "$c:$port/$jobs"
}

# The cache server: one slot, its namespace and veth as a distccd's, then
# redis-server on the slot's inner address only.
redis_port=6379
cache_up() {
	local dir=$1 s h c spare sd pw
	shift
	sd=$dir/1
	slot_up "$dir" "$sd"
	pw=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
	# The team's config (docs/build.md): a password, one address, a memory
	# cap that evicts the least recently used object, nothing on disk.
	( umask 077
	  { echo "bind $c"; echo "port $redis_port"; echo "protected-mode yes"
	    echo "requirepass $pw"; echo "maxmemory 256mb"; echo "maxmemory-policy allkeys-lru"
	    echo 'save ""'; echo "appendonly no"; echo "daemonize yes"
	    echo "pidfile $sd/pid"; echo "logfile $sd/log"; echo "dir $sd"
	    while [ $# -ge 2 ]; do echo "$1 $2"; shift 2; done
	  } > "$sd/redis.conf" )
	cache_start "$dir" || { down "$dir"; exit 1; }
	pw=$(awk '$1 == "requirepass" {p = $2} END {print p}' "$sd/redis.conf")
	( umask 077; echo "redis://:$pw@$c:$redis_port" > "$dir/url" )
	cat "$dir/url"
}
cache_start() {
	local sd=$1/1 s c _
	s=$(cat "$sd/slot")
	c=$(awk '$1 == "bind" {print $2}' "$sd/redis.conf")
	rm -f "$sd/pid"
	ip netns exec "kf-farm-$s" redis-server "$sd/redis.conf" > /dev/null || {
		echo "kflavour: farm: redis-server refused $sd/redis.conf (above)" >&2
		return 1
	}
	for _ in $(seq 40); do
		[ -s "$sd/pid" ] && grep -q "Ready to accept connections" "$sd/log" 2>/dev/null && return
		sleep 0.25
	done
	echo "kflavour: farm: redis-server in kf-farm-$s did not start on $c; see $sd/log" >&2
	return 1
}

down() {
	local dir=$1 sd s ns p
	for sd in "$dir"/[0-9]*; do
		[ -s "$sd/slot" ] || continue
		s=$(cat "$sd/slot") ns=kf-farm-$s
		if ip netns list | grep -qw "$ns"; then
			# Every process in the namespace is this farm's: a stopped one
			# must be continued to die of SIGTERM; SIGKILL needs no help.
			for p in $(ip netns pids "$ns"); do kill -KILL "$p" 2>/dev/null || true; done
			ip netns del "$ns"
		fi
		ip link del "kfh$s" 2>/dev/null || true
		rm -rf "${locks:?}/$s"
		rm -f "$sd/slot"
	done
}

signal() {
	local sig=$1 dir=$2 n=$3 s p
	s=$(cat "$dir/$n/slot" 2>/dev/null) || die "no server $n in $dir"
	for p in $(ip netns pids "kf-farm-$s"); do kill "-$sig" "$p" 2>/dev/null || true; done
}

case ${1:-} in
net)	echo "$net"; exit 0 ;;
check)	farmnet check "$net"; exit ;;
esac
[ "$(id -u)" = 0 ] || die "needs root (ip netns)"
case ${1:-} in
up)	dir=$2; shift 2
	[ $# -gt 0 ] || die "usage: farm.sh up DIR KIND..."
	farmnet check "$net" || exit 1
	# Kept when the farm goes down: a client still naming a farm address
	# gets "no route to host" here, never the default route's interface.
	ip route replace unreachable "$net"
	mkdir -p "$dir"
	chmod a+x "$dir"	# distccd's own user reaches its log in DIR/N
	trap 'down "$dir"' ERR
	hosts=
	n=0
	for k; do n=$((n + 1)); hosts="$hosts${hosts:+ }$(up_one "$dir" "$n" "$k")"; done
	echo "$hosts" > "$dir/hosts.tmp" && mv "$dir/hosts.tmp" "$dir/hosts"
	echo "$hosts" ;;
down)	down "$2" ;;
kill)	signal KILL "$2" "$3" ;;
stop)	signal STOP "$2" "$3" ;;
cont)	signal CONT "$2" "$3" ;;
cache)	dir=$2; shift 2
	[ $(( $# % 2 )) = 0 ] || die "usage: farm.sh cache DIR [DIRECTIVE VALUE]..."
	farmnet check "$net" || exit 1
	ip route replace unreachable "$net"
	mkdir -p "$dir"
	trap 'down "$dir"' ERR
	cache_up "$dir" "$@" ;;
cache-restart)
	signal KILL "$2" 1
	for _ in $(seq 20); do [ -z "$(ip netns pids "kf-farm-$(cat "$2/1/slot")")" ] && break; sleep 0.25; done
	cache_start "$2" || exit 1 ;;
run)	n=$2; [ "${3:-}" = -- ] || die "usage: farm.sh run N -- CMD..."; shift 3
	dir=$(mktemp -d /tmp/kf-farm.XXXXXX)
	trap 'down "$dir"; rm -rf "$dir"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	kinds=$(for _ in $(seq "$n"); do echo ok; done)
	# shellcheck disable=SC2086
	hosts=$("$0" up "$dir" $kinds)
	echo "  FARM    $n distccd: DISTCC_HOSTS='$hosts' (logs: $dir/N/log)" >&2
	DISTCC_HOSTS=$hosts "$@" ;;
*)	die "usage: farm.sh up DIR KIND... | cache DIR [DIRECTIVE VALUE]... | cache-restart DIR | down DIR | kill|stop|cont DIR N | run N -- CMD... | net | check" ;;
esac
