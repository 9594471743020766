#!/bin/bash
# make check-repro (issue 3), whole: mpsc built twice without ccache in two
# out= directories gives a byte-identical bzImage. Too slow for make check
# (one or two whole builds); make check proves the same on a partial rebuild
# (tests/e2e/30-build.sh, the interrupted build; 35-distcc).
. tests/lib.sh
o=$KF_OUT
f=mpsc
rm -rf "$o/repro"
start=$SECONDS
check "make check-repro flavour=$f" make check-repro flavour=$f out="$o"
cp "$kf_tmp/last.out" "$kf_tmp/repro.out"
grep -E 'REPRO|done in' "$kf_tmp/repro.out" | diag
diag <<< "check-repro took $((SECONDS - start)) s"
check "REPRO says byte-identical" grep -q "REPRO   $f: bzImage byte-identical" "$kf_tmp/repro.out"
# repro.sh names the two images it compared, on the two lines after that.
mapfile -t imgs < <(sed -n 's#^  REPRO   '"$f"':   \(/.*bzImage\)$#\1#p' "$kf_tmp/repro.out")
check_eq "two images named" "${#imgs[@]}" 2
check "in two places, the same bytes" \
	bash -c '[ "$1" != "$2" ] && cmp "$1" "$2"' _ "${imgs[0]:-}" "${imgs[1]:-}"
check "the second build recorded no ccache use" jq -e '.ccache.enabled == false' "$o/repro/2/6.1/$f/build.json"
[ "$kf_failed" = 0 ] && rm -rf "$o/repro"
done_testing
