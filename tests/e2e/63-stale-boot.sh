#!/bin/bash
# Issue 31: a boot record of an earlier bzImage, made the real way, is left
# out by every output alike (lib/records.h's current-boot rule). A flavour
# is built and booted on qemu64; every output counts that boot. Then it is
# rebuilt with one harmless symbol changed (CONFIG_DEFAULT_HOSTNAME) and not
# booted again: its record names the earlier bzImage, and report.json,
# kcidb.json, results.ktap and junit.xml all leave it out of the boots; the
# report and results name it. The outputs are written by the tools as make
# runs them, into this test's folder (out/'s own stay as they are).
# Cheap: the flavour is generic's recipe in a scratch checkout and its O=
# starts as a copy of generic's build (bisect/seed.sh), so its first build
# compiles nothing and the rebuild only what the hostname touches.
. tests/lib.sh
. tests/scratch.sh
o=$KF_OUT
k=$o/6.1
co=$kf_tmp/co
fl=stalecheck
rec=$k/$fl/boot/qemu64.json
t=$kf_tmp/outputs
cleanup() { rm -rf "$k/$fl" "$kf_tmp"; }
trap cleanup EXIT

# outputs: report.json, kcidb.json, results.ktap, junit.xml of the flavour.
outputs() {
	rm -rf "$t" && mkdir -p "$t" &&
	"$o/tools/report" --cpu-models boot/cpu-models \
		--json "$t/report.json" --html "$t/report.html" "$k" "$fl" > "$t/table.txt" &&
	"$o/tools/report-kcidb" --kdir "$k" --kver 6.1 --out "$t/kcidb.json" "$fl" &&
	"$o/tools/report-results" --kdir "$k" --ktap "$t/results.ktap" --junit "$t/junit.xml" "$fl"
}
# what each output says of the flavour's boots, on one line
seen() {
	jq -c '.flavours[0] | [.status, .stale_boots, [.boots[].cpu]]' "$t/report.json" | tr -d '\n'
	echo -n " kcidb:$(jq '[.tests[] | select(.path == "boot")] | length' "$t/kcidb.json")"
	echo -n " ktap:$(sed -n 2p "$t/results.ktap"),$(grep -c "^ok [0-9]* $fl.qemu64$" "$t/results.ktap")"
	echo " junit:$(grep -o '<testsuites [^>]*tests="[0-9]*"' "$t/junit.xml" | grep -o 'tests="[0-9]*"')"
}

scratch_checkout "$co"
sed "s/^description *=.*/description = generic, rebuilt without a boot by make check/" \
	flavours/generic.flavour > "$co/flavours/$fl.flavour"
rm -rf "$k/$fl"
[ -s "$k/generic/build.json" ] || check "generic is built" make build flavour=generic out="$o"
check "the flavour's O= starts as a copy of generic's" bisect/seed.sh "$k/generic" "$k/$fl"
check "built and booted on qemu64" make -C "$co" out="$o" flavour=$fl "$rec"
booted=$(jq -r .bzimage_sha256 "$rec" 2>/dev/null)
check_eq "the record names the bzImage built" "$booted" "$(jq -r .bzimage_sha256 "$k/$fl/build.json")"
check "the outputs of the booted flavour" outputs
check_eq "booted: every output counts the boot" "$(seen)" \
	'["booted",[],["qemu64"]] kcidb:1 ktap:1..1,1 junit:tests="1"'

# One harmless symbol changed, built, not booted.
printf 'CONFIG_DEFAULT_HOSTNAME="stale"\n' > "$co/fragments/stale-test.config"
sed -i 's/^\(fragments *=.*\)$/\1 stale-test/' "$co/flavours/$fl.flavour"
check "rebuilt with another hostname, no boot" make -C "$co" out="$o" build flavour=$fl
built=$(jq -r .bzimage_sha256 "$k/$fl/build.json" 2>/dev/null)
check "the rebuild made another bzImage; the record still names the earlier one" \
	test -n "$built" -a "$built" != "$booted" -a "$(jq -r .bzimage_sha256 "$rec")" = "$booted"
check "the outputs of the rebuilt flavour" outputs
check_eq "stale: no output counts the boot" "$(seen)" \
	'["built",["qemu64"],[]] kcidb:0 ktap:1..0,0 junit:tests="0"'
check "stale: the table names it" \
	grep -qx "left out, boots of an earlier $fl bzImage on: qemu64" "$t/table.txt"
check "stale: results.ktap names it" \
	grep -qxF "# left out, a boot of an earlier $fl bzImage than build.json's: $rec" "$t/results.ktap"
check "stale: junit.xml names it, in no testcase" bash -c "grep -qF \"<system-out>left out, a boot of an earlier $fl bzImage than build.json's: $rec</system-out>\" '$t/junit.xml' && ! grep -q '<testcase' '$t/junit.xml'"
check_eq "stale: kcidb.json has the rebuild's build, named by its bzImage" \
	"$(jq -r '.builds[0].id' "$t/kcidb.json")" "kflavour:$(jq -r .release "$k/$fl/build.json").$fl.${built:0:12}"
check_fails "stale: make's boot summary counts it as not as expected" 1 \
	"$fl on qemu64: booted an earlier bzImage than build.json's; make boots it again" \
	"$o/tools/boot-summary" "$rec"
done_testing
