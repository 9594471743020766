#!/bin/bash
# make farm-check (issue 33): each host of DISTCC_HOSTS compiles a probe that
# must match this machine's object. Three distccd in network namespaces
# (build/farm.sh): a good one, one that refuses us (--allow), and one whose
# PATH has a "gcc" that runs clang (another compiler): the last two must be
# refused by name, the good one passes alone. No kernel build: a few seconds.
# First the farm's addresses (issue 48): its range (farm_net) must be on no
# network an interface or route of this machine is on, and no address of it
# may be routed out through a real interface, while the farm is up or after.
. tests/lib.sh
. tests/farmnet.sh
fd=$(mktemp -d /tmp/kf-farm-check-test.XXXXXX)
trap 'for w in real veth; do [ -f "$kf_tmp/$w.pid" ] && watch_stop "$kf_tmp/$w"; done; build/farm.sh down "$fd"; rm -rf "$kf_tmp" "$fd"' EXIT

check "the farm's address checker builds" make "$KF_TOOLS/farm-net" out="$KF_OUT"
net=$(build/farm.sh net)
check "farm_net=$net is on no network of this machine (farm.sh check)" build/farm.sh check
# The check against what this machine is on: each interface's own network is
# refused, naming the interface. Today's machines sit on 192.0.2.0/24 (eth0),
# where the farm's slots took 192.0.2.128/25 before: that range is refused.
n=0
while read -r _ dev _ addr _; do
	[[ $dev =~ ^kfh[0-9]+$ ]] && continue	# a farm's veth (another farm's, up now)
	n=$((n + 1))
	check_fails "farm.sh check refuses $dev's network (${addr%.*}.0/24), naming $dev" 1 \
		"interface $dev has $addr, a network that overlaps it" \
		env farm_net="${addr%.*}.0/24" build/farm.sh check
done < <(ip -o -4 addr show)
[ "$n" -gt 0 ] || not_ok "this machine has an IPv4 address to check against"
if ip -o -4 addr show | grep -q ' inet 192\.0\.2\.[0-9]*/\(1[0-9]\|2[0-4]\) '; then
	check_fails "the old range 192.0.2.128/25 is refused here, naming the interface" 1 \
		"farm_net=192\.0\.2\.128/25: interface [a-z0-9]+ has 192\.0\.2\." \
		env farm_net=192.0.2.128/25 build/farm.sh check
	grep -q "refusing farm_net=192\.0\.2\.128/25: .*farm_net=198\.51\.100\.0/24, free here" "$kf_tmp/last.out" &&
		ok "... and names the fix: farm_net=198.51.100.0/24" || not_ok "... and names the fix: farm_net=198.51.100.0/24"
else
	skip "the old range 192.0.2.128/25 is refused here" "no interface of this machine is on 192.0.2.0/24"
fi
# Routes too, and only those that send somewhere: the default route, a
# farm's veth and unreachable ones are no conflict; a more specific route
# through another interface is.
printf '1: lo    inet 127.0.0.1/8 scope host lo\n' > "$kf_tmp/addrs"
printf '%s\n' 'default via 10.9.0.1 dev eth0' 'unreachable 198.51.100.0/24' \
	'198.51.100.0/30 dev kfh0 proto kernel scope link src 198.51.100.1' > "$kf_tmp/routes"
check "farm-net passes the default route, a farm's veth and unreachable" \
	"$KF_TOOLS/farm-net" check 198.51.100.0/24 --addrs "$kf_tmp/addrs" --routes "$kf_tmp/routes"
echo '198.51.100.64/26 via 10.9.0.1 dev tun0 table 7' >> "$kf_tmp/routes"
check_fails "farm-net refuses a route through another interface, by name" 1 \
	"the route '198\.51\.100\.64/26 via 10\.9\.0\.1 dev tun0 table 7' \(table 7\) overlaps it" \
	"$KF_TOOLS/farm-net" check 198.51.100.0/24 --addrs "$kf_tmp/addrs" --routes "$kf_tmp/routes"
check_fails "farm-net refuses a range that is not one" 2 "host bits set; the network is 198\.51\.100\.0/24" \
	"$KF_TOOLS/farm-net" check 198.51.100.7/24

[ "$(id -u)" = 0 ] || { skip "make farm-check against a farm" "needs root for ip netns"; done_testing; }
rm -rf "$kf_tmp/old"
check_fails "farm.sh up refuses the old range, starting nothing" 1 "refusing farm_net=192\.0\.2\.128/25" \
	env farm_net=192.0.2.128/25 build/farm.sh up "$kf_tmp/old" ok
check_eq "no farm directory for the refused range" "$(test -e "$kf_tmp/old" && echo yes)" ""

hosts=$(build/farm.sh up "$fd" ok refuse clang) && ok "farm up: $hosts" ||
	{ not_ok "farm up"; done_testing; }
for h in $hosts; do
	[[ $(ip -o route get "${h%%:*}") =~ " dev kfh"[0-9]+" " ]] || not_ok "server ${h%%:*} is reached through a farm veth"
done
check_eq "farm up: no address of $net leaves through a real interface (ip route get, every address)" \
	"$(farm_leaks | head -n 3)" ""
read -r good refuse clang <<< "$hosts"
# What the interfaces send while farm-check talks to the farm: nothing to
# the range through a real one; through the good server's veth, its probe
# (so the watch sees packets where they go).
watch_start "$kf_tmp/real" || not_ok "farm-net watch started on the real interfaces"
watch_start "$kf_tmp/veth" --dev "kfh$(cat "$fd/1/slot")" || not_ok "farm-net watch started on a farm veth"
# farm-check keeps its directory when a host fails (its messages name it)
export TMPDIR=$kf_tmp

check "farm-check passes a host with this machine's gcc" make farm-check out="$KF_OUT" DISTCC_HOSTS="$good"
grep -q "1 of 1 hosts fit, 2 remote jobs" "$kf_tmp/last.out" && ok "it counts the host's jobs" ||
	{ not_ok "it counts the host's jobs"; diag < "$kf_tmp/last.out"; }
check_fails "farm-check refuses a host whose gcc is clang, by name" 2 \
	"host $clang of DISTCC_HOSTS: its compiler is 'Debian clang" \
	make farm-check out="$KF_OUT" DISTCC_HOSTS="$good $clang"
grep -q "1 of 2 hosts fit" "$kf_tmp/last.out" && ok "the good host still counts" ||
	not_ok "the good host still counts"
check_fails "farm-check names a host that refuses us" 2 \
	"host $refuse of DISTCC_HOSTS did not compile the probe: .*remove it from DISTCC_HOSTS" \
	make farm-check out="$KF_OUT" DISTCC_HOSTS="$refuse"
check_fails "farm-check without DISTCC_HOSTS says how to give them" 2 \
	"farm-check: DISTCC_HOSTS is empty" env -u DISTCC_HOSTS make farm-check out="$KF_OUT"
watch_stop "$kf_tmp/veth"
[ "$(watch_hits "$kf_tmp/veth")" -gt 0 ] && ok "the watch sees the probe's packets on the good server's veth ($(tail -n +2 "$kf_tmp/veth" | head -n 1))" ||
	{ not_ok "the watch sees the probe's packets on the good server's veth"; diag < "$kf_tmp/veth"; }
build/farm.sh down "$fd"
watch_stop "$kf_tmp/real"
check_eq "no packet to $net left through a real interface, farm up and down ($(sed -n 's/^watching //p' "$kf_tmp/real"))" \
	"$(watch_hits "$kf_tmp/real")" 0
sed 1d "$kf_tmp/real" | diag
check_eq "farm down: no address of $net leaves through a real interface (its servers' neither)" \
	"$(farm_leaks | head -n 3)" ""
done_testing
