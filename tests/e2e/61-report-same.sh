#!/bin/bash
# Issue 15: the same recorded inputs (tests/data/report, README there) give
# byte-identical results.ktap, junit.xml, report.html, report.json and the
# terminal table before and after the stage records got their header and
# one shape. expected/ holds what the tools gave before (made by
# outputs.sh with the tools of the commit that added it, on the records as
# a real make wrote them); the fixture's records were then remade by
# refresh.sh replay. The only difference allowed is report.json's header:
# its top-level "record", "format", "flavour", "kver" and "release" lines
# (and the "kernel" line it had before) are deleted on both sides, the
# rest is compared byte for byte.
. tests/lib.sh
o=$KF_OUT
data=tests/data/report
now=$kf_tmp/now
check "the report and report-results tools build" make "$o/tools/report" "$o/tools/report-results" out="$o"
check "outputs of the fixture with these tools" "$data/outputs.sh" "$o/tools" "$now"
strip() { sed -E '/^  "(record|format|flavour|kver|release|kernel)": /d' "$1"; }
for f in table.txt report.html results.ktap junit.xml; do
	if cmp -s "$data/expected/$f" "$now/$f"; then ok "$f byte-identical"; else
		not_ok "$f byte-identical"; diff -u "$data/expected/$f" "$now/$f" | head -n 20 | diag; fi
done
if cmp -s <(strip "$data/expected/report.json") <(strip "$now/report.json"); then
	ok "report.json byte-identical apart from the header"
else
	not_ok "report.json byte-identical apart from the header"
	diff -u <(strip "$data/expected/report.json") <(strip "$now/report.json") | head -n 20 | diag
fi
check_eq "report.json's header" \
	"$(jq -c '[.record, .format, .flavour, .kver, .release]' "$now/report.json")" '["report",1,null,"6.1","6.1.192"]'
# The test can fail: one changed byte in a record shows.
cp -a "$data" "$kf_tmp/changed"
sed -i 's/"wall_seconds": \([0-9]\)/"wall_seconds": 9\1/' "$kf_tmp/changed/out/6.1/mpsc/boot/nocona.json"
"$kf_tmp/changed/outputs.sh" "$o/tools" "$kf_tmp/changed-now"
check "a changed record changes the outputs" bash -c "! cmp -s '$data/expected/junit.xml' '$kf_tmp/changed-now/junit.xml'"
done_testing
