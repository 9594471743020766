# tests/farmnet.sh: sourced by the farm's tests (tests/e2e/36-farm-check.sh,
# tests/slow/35-farm.sh): where a packet for an address of the farm's range
# (build/farm.sh net) would go from this, the host, namespace.
#
# farm_leaks: every address of the range whose route leads out through an
# interface that is not a farm's own veth (kfhN): "ADDR: ip route get's
# answer" lines; nothing when no address can leave. It asks the kernel's
# own route lookup for each address (ip route get): a farm server's goes
# through its veth, ours on the veth is delivered here (local, dev lo), and
# one no veth carries must be refused here (farm.sh's "unreachable" route for
# the range), not sent by the default route through eth0.
farm_leaks() {
	local a r
	for a in $("$KF_TOOLS/farm-net" hosts "$(build/farm.sh net)"); do
		r=$(ip -o route get "$a" 2>&1) || { [[ $r == *"No route to host"* ]] && continue; }
		[[ $r =~ " dev kfh"[0-9]+" " || $r =~ ^(local|broadcast)" $a dev "(lo|kfh[0-9]+)" " ]] && continue
		echo "$a: $r"
	done
}
# watch_start FILE [--dev DEV]...: count, until watch_stop FILE, the IPv4
# packets this machine sends to the range through DEVs (default: every
# interface but lo and the farms' veths): farm-net watch, a packet socket
# per interface that sees what it sends and drops nothing; fails when it did
# not start. watch_stop FILE ends it; FILE then says "N packets to RANGE, M
# others" and names the first.
watch_start() {
	local f=$1
	shift
	"$KF_TOOLS/farm-net" watch "$(build/farm.sh net)" "$@" > "$f" 2>&1 &
	echo $! > "$f.pid"
	for _ in 1 2 3 4 5 6 7 8 9 10; do grep -qs '^watching' "$f" && return; sleep 0.2; done
	diag < "$f"
	return 1
}
watch_stop() {
	kill "$(cat "$1.pid")" 2>/dev/null
	wait "$(cat "$1.pid")" 2>/dev/null
	rm -f "$1.pid"
}
# watch_hits FILE: its N
watch_hits() { sed -n 's/^\([0-9]*\) packets to .*/\1/p' "$1"; }
