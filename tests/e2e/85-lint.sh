#!/bin/bash
# Static and dynamic checks of our own code: gcc -Werror is in every build;
# here cppcheck and clang-tidy on c2c/plugin.c (every other host C file is
# 31-lint-static.sh's), valgrind on each host tool run on real inputs, and
# checkpatch --strict plus W=1 on the kernel patch series.
. tests/lib.sh
. tests/series.sh
o=$KF_OUT
src61=$o/6.1/src
t=$o/tools

# c2c/plugin.c is QEMU's, not a host tool, but ours: linted against the
# plugin header make c2c-plugins fetched (tests/e2e/44-c2c.sh did).
qplug=$(ls -d "$o"/qemu-src/[0-9]*/include/qemu 2>/dev/null | head -n 1)
check "the QEMU plugin header to lint c2c/plugin.c against (make c2c-plugins)" test -s "$qplug/qemu-plugin.h"
if cppcheck --quiet --error-exitcode=1 --enable=warning,style,performance,portability \
	--inline-suppr --suppress=missingIncludeSystem --suppress=missingInclude --std=c11 \
	c2c/plugin.c -D_GNU_SOURCE -I. -I"$qplug" > "$kf_tmp/cppcheck" 2>&1; then
	ok "cppcheck: c2c/plugin.c clean"
else
	not_ok "cppcheck: c2c/plugin.c"; head -n 40 "$kf_tmp/cppcheck" | diag
fi
if clang-tidy --quiet c2c/plugin.c -- -std=gnu11 -D_GNU_SOURCE -I. -isystem "$qplug" > "$kf_tmp/tidy" 2>&1; then
	ok "clang-tidy: c2c/plugin.c clean"
else
	not_ok "clang-tidy: c2c/plugin.c"; grep -E 'warning:|error:' "$kf_tmp/tidy" | head -n 40 | diag
fi

# valgrind: each tool on real inputs must succeed with no memory error and
# no definite or indirect leak. make check-deps installs valgrind and make
# check builds the tools: a missing one fails, it is not passed over.
vg=(valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99)
check "valgrind: flavours" "${vg[@]}" "$t/config-flavours" 6.1
check "valgrind: lint" "${vg[@]}" "$t/config-lint" fragments/base.config fragments/cpu-mpsc.config
check "valgrind: boot-runner --parse" "${vg[@]}" "$t/boot-runner" --parse tests/data/logs/pass-mpsc-nocona.log
c2crun=$o/6.1/generic/c2c/runs/calib-8/nocona/1/nocona.json
check "valgrind: c2c-record (a run of tests/e2e/44-c2c.sh)" "${vg[@]}" "$t/c2c-record" --out "$kf_tmp/c2c.json" \
	--flavour generic --kver 6.1 --cpu nocona --workload calib-8 --run "$c2crun" --run "$c2crun" \
	--vmlinux "$o/6.1/generic/vmlinux"
check "valgrind: c2c-record --summary" "${vg[@]}" "$t/c2c-record" --summary "$kf_tmp/c2c.json"
# farm-check against a port nothing listens on, on loopback (no packet
# leaves): the probe compiled here, the host's failure named; exit 1.
check_fails "valgrind: farm-check" 1 "host 127.0.0.1:9/1 of DISTCC_HOSTS did not compile the probe" \
	"${vg[@]}" "$t/farm-check" --hosts "127.0.0.1:9/1" --timeout 5 --dir "$kf_tmp/farm-check"
check "valgrind: report" make -s report-only out="$o" VALGRIND="${vg[*]}"
# The kernel patches: checkpatch --strict clean, and no new W=1 warnings.
# The 6.12 series, with that tree's checkpatch, and valgrind on make
# upgrade's tools are tests/slow/75-upgrade.sh's (they need the 6.12 tree).
lint_series 6.1

# W=1 on the C files the series adds, compiled in the mpsc tree; then the
# same objects again without W=1 so the build's command lines stay as Kbuild
# recorded them.
mapfile -t newc < <(awk '/^--- \/dev\/null/ {n=1; next} n && /^\+\+\+ b\// {sub(/^\+\+\+ b\//, ""); if ($1 ~ /\.c$/) print $1; n=0}' patches/6.1/*.patch | sort -u)
objs=("${newc[@]/%.c/.o}")
if [ ${#objs[@]} -gt 0 ] && [ -s "$o/6.1/mpsc/.config" ]; then
	make -s -C "$src61" O="$o/6.1/mpsc" W=1 "${objs[@]}" > "$kf_tmp/w1" 2>&1
	rc=$?
	if [ $rc = 0 ] && ! grep -q 'warning:' "$kf_tmp/w1"; then
		ok "make W=1: ${objs[*]} build without warnings"
	else
		not_ok "make W=1: ${objs[*]}"; head -n 30 "$kf_tmp/w1" | diag
	fi
	make -s -C "$src61" O="$o/6.1/mpsc" "${objs[@]}" > /dev/null 2>&1
else
	not_ok "W=1: the series adds C files and mpsc is configured"
fi
done_testing
