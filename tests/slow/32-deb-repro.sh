#!/bin/bash
# make deb, reproducible (issue 46): tiny-systemd packaged in make check's
# out= (tests/e2e/32-deb.sh) and again from a second build in another out=
# directory, without ccache (every object from the compiler, another source
# and O= path): every .deb byte-identical, the records the same but for
# their paths. Too slow for make check: a whole build of a flavour with
# modules. docs/system-boot.md, "Packages".
. tests/lib.sh
o=$KF_OUT
f=tiny-systemd
o2=$o/deb-repro
rm -rf "$o2"
check "make deb flavour=$f (make check's out=)" make deb flavour=$f out="$o"
check "the tree linked into a second out=" build/linktree.sh "$o/6.1" "$o2/6.1"
start=$SECONDS
check "make deb flavour=$f in the second out=, CCACHE=0" make deb flavour=$f out="$o2" CCACHE=0
grep -E '^  (BUILD|DEB) ' "$kf_tmp/last.out" | diag
diag <<< "the second build and packages took $((SECONDS - start)) s"
j1=$o/6.1/$f/deb/deb.json j2=$o2/6.1/$f/deb/deb.json
check "the second build compiled every object (no ccache)" jq -e '.ccache.enabled == false and .compiled > 500' \
	"$o2/6.1/$f/build.json"
sums() { jq -r '.packages[] | "\(.file) \(.bytes) \(.sha256)"' "$1"; }
check_eq "every .deb byte-identical (name, size, sha256)" "$(sums "$j2")" "$(sums "$j1")"
n=0
while read -r p1; do
	p2=$o2/6.1/$f/deb/$(basename "$p1")
	cmp -s "$p1" "$p2" && n=$((n + 1)) || { cmp "$p1" "$p2" 2>&1 | diag; }
done < <(jq -r '.packages[].path' "$j1")
check_eq "cmp: each of the $(jq '.packages | length' "$j1") .debs the same bytes" "$n" "$(jq '.packages | length' "$j1")"
strip() { jq -c 'del(.dir) | .packages[] |= del(.path)' "$1"; }
check_eq "the records the same but for their paths" "$(strip "$j2")" "$(strip "$j1")"
[ "$kf_failed" = 0 ] && rm -rf "$o2"
done_testing
