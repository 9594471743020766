#!/bin/bash
# make check-distro (issue 16): a flavour on Debian's cloud-amd64 config,
# built (bzImage; about 4x the objects of a tiny flavour, so not part of
# make check's 45-minute budget) and booted on its CPU model with the static
# init: the boot passes, the probe sees 128-byte lines that match Nocona,
# and the x86_flavour KUnit suite passes; the report shows it. Result and
# time go in docs/benchmarks.md.
. tests/lib.sh
. tests/records.sh
o=$KF_OUT
f=${KF_DISTRO_FLAVOUR:-debian-cloud-mpsc}
rec=$o/6.1/$f/boot/nocona.json

start=$(date +%s)
check "make flavour=$f: config, build, boot, report" make flavour="$f" out="$o"
echo "# $f: $(( $(date +%s) - start )) s"
check_eq "$f on nocona: verdict" "$(jq -r .verdict "$rec" 2>/dev/null)" pass
check_eq "$f on nocona: L1_CACHE_BYTES" "$(fact "$rec" probe.l1_cache_bytes)" 128
check_eq "$f on nocona: line verdict" "$(fact "$rec" probe.line_verdict)" match
check_kunit "$f on nocona" "$rec"
check "the report has $f" bash -c "make report-only flavour='generic $f' out='$o' | grep -q '$f'"
done_testing
