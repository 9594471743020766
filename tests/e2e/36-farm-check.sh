#!/bin/bash
# make farm-check (issue 33): each host of DISTCC_HOSTS compiles a probe that
# must match this machine's object. Three distccd in network namespaces
# (build/farm.sh): a good one, one that refuses us (--allow), and one whose
# PATH has a "gcc" that runs clang (another compiler): the last two must be
# refused by name, the good one passes alone. No kernel build: a few seconds.
. tests/lib.sh
fd=$(mktemp -d /tmp/kf-farm-check-test.XXXXXX)
trap 'build/farm.sh down "$fd"; rm -rf "$kf_tmp" "$fd"' EXIT
[ "$(id -u)" = 0 ] || { skip "make farm-check against a farm" "needs root for ip netns"; done_testing; }

hosts=$(build/farm.sh up "$fd" ok refuse clang) && ok "farm up: $hosts" ||
	{ not_ok "farm up"; done_testing; }
read -r good refuse clang <<< "$hosts"
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
done_testing
