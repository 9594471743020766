#!/bin/bash
# The probe on the other tree (issue 4): mpsc built from linux-source-6.12
# and booted on Nocona shows the same probe block and passes the same
# x86_flavour KUnit suite as on 6.1. A whole cold build (this test takes
# 4-7 minutes), so it is not in make check's budget; neither is the rest
# of the 6.12 tree (15-config-6.12, 17-distro, 75-upgrade here). With both
# trees booted, make upgrade's report holds the real pair of verdicts.
. tests/lib.sh
. tests/records.sh
o=$KF_OUT

check "make boot flavour=mpsc kver=6.12" make boot flavour=mpsc kver=6.12 out="$o"
r12=$o/6.12/mpsc/boot/nocona.json
check_eq "6.12 mpsc: verdict" "$(jq -r .verdict "$r12" 2>/dev/null)" pass
check_eq "6.12 mpsc: L1_CACHE_BYTES" "$(fact "$r12" probe.l1_cache_bytes)" 128
check_eq "6.12 mpsc: line verdict" "$(fact "$r12" probe.line_verdict)" match
check_kunit "6.12 mpsc" "$r12"

# Both trees booted: make upgrade's report holds mpsc's pair of verdicts.
# The upgrade builds and boots nothing itself (docs/upgrade.md), so the 6.1
# side is booted here too (built first if this out= has no 6.1 mpsc yet).
check "make boot flavour=mpsc (6.1)" make boot flavour=mpsc out="$o"
up=$o/upgrade/6.1-6.12/upgrade.json
check "make upgrade from=6.1 to=6.12 flavour=mpsc" make upgrade from=6.1 to=6.12 flavour=mpsc out="$o"
check_eq "upgrade: mpsc on nocona, both trees' verdicts" \
	"$(jq -r '.flavours[] | select(.flavour == "mpsc") | .boot[] | select(.cpu == "nocona") | "\(.old_verdict) \(.new_verdict)"' "$up" 2>/dev/null)" \
	"$(jq -r .verdict "$o/6.1/mpsc/boot/nocona.json" 2>/dev/null) pass"
done_testing
