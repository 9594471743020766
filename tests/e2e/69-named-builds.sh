#!/bin/bash
# A target that names its flavours builds those and no others (issue 35).
# Three flavours of the default group in a scratch checkout, before generic
# in the serial chain of builds (build/build.mk): chain-a, chain-b (both
# generic's recipe) and chain-c (generic without RD_GZIP: the gzip
# initramfs cannot unpack, no /init, panic). make logdiff and make bisect
# name chain-b and chain-c: chain-a, ahead of them in the group, must be
# neither configured nor built nor booted, and the answers are what they
# were (the panic; exactly RD_GZIP). Then make flavour=chain-a builds
# chain-a alone, and flavour="chain-c chain-b" still builds one after the
# other, in that order.
# Cheap: chain-b's and chain-c's O= start as copies of generic's build
# (bisect/seed.sh), so Kbuild compiles only what RD_GZIP touches, and the
# bisection has one symbol: no step to build.
. tests/lib.sh
. tests/scratch.sh
o=$KF_OUT
k=$o/6.1
co=$kf_tmp/co
third=chain-a good=chain-b bad=chain-c
name=$good-$bad-qemu64
json=$k/bisect/$name.json
mk() { make -C "$co" out="$o" "$@"; }
cleanup() {
	rm -rf "${k:?}"/chain-[abc] "$k/bisect-$name" "$json"
	rmdir "$k/bisect" 2>/dev/null
	# make flavour=chain-a rewrote these with chain-a in them: older than
	# every boot record, the next make that wants them writes them again.
	touch -c -d @0 "$k/results.ktap" "$k/junit.xml" "$k/kcidb.json"
	make -s report-only flavour="$check_flavours" out="$o" > /dev/null 2>&1
	rm -rf "$kf_tmp"
}
trap cleanup EXIT

scratch_checkout "$co"
cat > "$co/fragments/named-test.config" <<'EOF'
# make check's panicking flavour (tests/e2e/69-named-builds.sh).
# kflavour: override
# CONFIG_RD_GZIP is not set
EOF
for f in $third $good; do
	sed "s/^description *=.*/description = generic, named or not by make check/" \
		flavours/generic.flavour > "$co/flavours/$f.flavour"
done
sed -e 's/^\(fragments *=.*\)$/\1 named-test/' -e 's/^description *=.*/description = generic without RD_GZIP/' \
	flavours/generic.flavour > "$co/flavours/$bad.flavour"
rm -rf "${k:?}"/chain-[abc] "$k/bisect-$name" "$json"
mk -s help > "$kf_tmp/help" 2>&1
check "the three are the group's first flavours, the unnamed one first" \
	grep -q "flavour=NAME.*now: $third $good $bad generic" "$kf_tmp/help"

[ -s "$k/generic/build.json" ] || check "generic is built" make build flavour=generic out="$o"
check "$good's O= starts as a copy of generic's" bisect/seed.sh "$k/generic" "$k/$good"
check "$bad's O= starts as a copy of generic's" bisect/seed.sh "$k/generic" "$k/$bad"

# 1. make logdiff a= b=: both boots made on qemu64 (their recipes' CPU).
check "make logdiff a=$good b=$bad" mk logdiff a=$good b=$bad
cp "$kf_tmp/last.out" "$kf_tmp/logdiff"
check "logdiff: $third was neither configured nor built nor booted (no O=)" test ! -e "$k/$third"
check "logdiff: $good and $bad built and booted on qemu64" \
	test -f "$k/$good/build.stamp" -a -f "$k/$bad/build.stamp" -a -s "$k/$good/boot/qemu64.json" -a -s "$k/$bad/boot/qemu64.json"
check_eq "logdiff: no build but theirs" \
	"$(grep -oE '^  BUILD   [a-z0-9-]+: done' "$kf_tmp/logdiff" | LC_ALL=C sort | tr -s ' \n' ' ')" \
	" BUILD $good: done BUILD $bad: done "
check "logdiff: the answer, $bad's panic against $good's boot" \
	grep -q "$bad/boot/qemu64.log" "$kf_tmp/logdiff"
check "logdiff: the panic is among the lines that differ" grep -q 'Kernel panic' "$kf_tmp/logdiff"

# 2. make bisect good= bad= (a no-op for chain-a: it still has nothing).
rm -rf "${k:?}/$third"
check "make bisect good=$good bad=$bad bisect_cpu=qemu64" mk bisect good=$good bad=$bad bisect_cpu=qemu64
grep '  BISECT  \|culprit' "$kf_tmp/last.out" | diag
check "bisect: $third was neither configured nor built nor booted (no O=)" test ! -e "$k/$third"
check_eq "bisect: the answer is exactly RD_GZIP" \
	"$(jq -r '.result.culprits | join(" ")' "$json" 2>/dev/null)" RD_GZIP

# 3. make flavour=chain-a: chain-a's build alone, no other flavour's.
check "$third's O= starts as a copy of generic's" bisect/seed.sh "$k/generic" "$k/$third"
touch "$kf_tmp/mark"
sleep 1
# One c2c run (runs=1): which flavours a target touches is the question here.
check "make flavour=$third cpu=qemu64 c2c_cpu=qemu64 runs=1" mk flavour=$third cpu=qemu64 c2c_cpu=qemu64 runs=1
check_eq "make flavour=$third: one build, $third's" \
	"$(grep -oE '^  BUILD   [a-z0-9-]+: done' "$kf_tmp/last.out")" "  BUILD   $third: done"
check_eq "make flavour=$third: no other build.stamp written" \
	"$(find "$k" -mindepth 2 -maxdepth 2 -name build.stamp -newer "$kf_tmp/mark")" "$k/$third/build.stamp"

# 4. flavour="chain-c chain-b": one after the other, in that order (each
# Kbuild finds its tree up to date, a few seconds each).
rm -f "$k/$good/build.stamp" "$k/$bad/build.stamp"
check "make build flavour=\"$bad $good\"" mk build flavour="$bad $good"
check "$good started once $bad had finished" jq -ne \
	--slurpfile b "$k/$bad/build.json" --slurpfile g "$k/$good/build.json" \
	'$g[0].started >= $b[0].finished - 1 and $b[0].finished > 0'
diag <<< "$bad $(jq -c '[.started, .finished]' "$k/$bad/build.json"), $good $(jq -c '[.started, .finished]' "$k/$good/build.json")"
done_testing
