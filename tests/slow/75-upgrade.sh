#!/bin/bash
# make upgrade (issue 18): each flavour's 6.1 final config carried to the 6.12
# tree. Config only: no kernel is built. The new-prompt lists are compared
# with the 6.12 tree's own listnewconfig, run here on its own; the gone list
# must name the microcode loaders folded into MICROCODE in 6.6; the JSON must
# validate against the schema; and a fragment line that the new tree cannot
# honour must show under "fragments that stop applying" in the audit's words.
. tests/lib.sh
. tests/scratch.sh
. tests/series.sh
o=$KF_OUT
up=$o/upgrade/6.1-6.12
# The flavours plain 'make upgrade' carries (group default: make list shows
# each flavour's group on its second line), and one on Debian's cloud config
# (17-distro has configured it on both trees), each checked the same way.
flavours="$(make -s list out="$o" | awk '/^[^ ]/ {f = $1} /; group default\)$/ {print f}') debian-cloud"
validate() { /usr/bin/python3 -m jsonschema -i "$1" upgrade/upgrade.schema.json; }

check "make upgrade from=6.1 to=6.12 write=1 ($(echo $flavours))" \
	make upgrade from=6.1 to=6.12 write=1 flavour="$flavours" out="$o"
cp "$kf_tmp/last.out" "$kf_tmp/upgrade.out"
check "the summary gives the counts first" \
	grep -Eq '^  flavour +new-prompts +undecided +gone +changed +stop-applying +boot-diffs' "$kf_tmp/upgrade.out"
check "upgrade.json validates against upgrade/upgrade.schema.json" validate "$up/upgrade.json"
check "upgrade.html has the upgrade section" grep -q '<section id="upgrade">' "$up/upgrade.html"

# The 6.12 tree's own listnewconfig on each old final config, in an O= dir
# of this test's own (the first run builds conf there).
kdir=$kf_tmp/o
mkdir -p "$kdir"
for f in $flavours; do
	cp "$o/6.1/$f/.config" "$kdir/old-$f.config"
	make -s -C "$o/6.12/src" O="$kdir" KCONFIG_CONFIG="old-$f.config" listnewconfig 2> "$kf_tmp/lnc.err" |
		sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p' | sort > "$kf_tmp/want-$f"
	jq -r --arg f "$f" '.flavours[] | select(.flavour == $f) | .new_prompts[].symbol' "$up/upgrade.json" |
		sort > "$kf_tmp/got-$f"
	n=$(wc -l < "$kf_tmp/want-$f")
	if [ "$n" -gt 0 ] && cmp -s "$kf_tmp/want-$f" "$kf_tmp/got-$f"; then
		ok "$f: new prompts are the 6.12 tree's listnewconfig ($n symbols)"
	else
		not_ok "$f: new prompts are the 6.12 tree's listnewconfig"
		diff "$kf_tmp/want-$f" "$kf_tmp/got-$f" | head -n 10 | diag
	fi
	for s in MICROCODE_INTEL MICROCODE_AMD; do
		jq -e --arg f "$f" --arg s "$s" '[.flavours[] | select(.flavour == $f) | .gone[]
			| select(.symbol == $s and .successor == "MICROCODE"
				and (.requested_by | any(startswith("fragments/microcode.config:"))))] | length == 1' \
			"$up/upgrade.json" > /dev/null &&
			ok "$f: gone lists $s, successor MICROCODE, requested by fragments/microcode.config" ||
			not_ok "$f: gone lists $s with successor MICROCODE"
	done
	# write=1: the undecided prompts as a fragment lint accepts.
	und=$up/$f.undecided.config
	check "$f: $f.undecided.config is a valid fragment" "$o/tools/config-lint" "$und"
	check_eq "$f: it holds every undecided prompt" \
		"$(grep -cE '^(CONFIG_|# CONFIG_.* is not set)' "$und")" \
		"$(jq --arg f "$f" '.flavours[] | select(.flavour == $f) | .counts.undecided' "$up/upgrade.json")"
done
check "the terminal details name MICROCODE_INTEL's successor" \
	grep -q 'CONFIG_MICROCODE_INTEL=y -> MICROCODE: ' "$kf_tmp/upgrade.out"

# Boot: the tool run on two fixture flavours' records (generic as the old
# boots, mpsc as the new): a model booted on one side only is left out, and
# the facts that differ are the ones jq finds in the records themselves.
fx=tests/data/report/out/6.1
check "boot: upgrade on fixture records" "$o/6.12/tools/upgrade" --srctree "$o/6.12/src" \
	--flavour generic --old "$o/6.1/generic/.config" --carried "$up/generic/carried.config" \
	--newprompts "$up/generic/listnewconfig" --json "$kf_tmp/boot.json" \
	--old-boot "$fx/generic/boot" --new-boot "$fx/mpsc/boot"
check_eq "boot: the models booted on both sides" \
	"$(jq -r '[.boot[].cpu] | join(" ")' "$kf_tmp/boot.json" 2>/dev/null)" "nocona qemu64"
check_eq "boot: nocona's differing facts are the records' own" \
	"$(jq -r '[.boot[] | select(.cpu == "nocona") | .facts[].fact] | sort | join(" ")' "$kf_tmp/boot.json" 2>/dev/null)" \
	"$(jq -rn --slurpfile a "$fx/generic/boot/nocona.json" --slurpfile b "$fx/mpsc/boot/nocona.json" \
		'[($a[0].facts + $b[0].facts) | keys[] as $k | select($a[0].facts[$k] != $b[0].facts[$k]) | $k] | sort | join(" ")')"
# Both trees booted for real (40-boot boots mpsc on 6.1; 6.12's boot is make
# check-slow's, tests/slow/45-probe-6.12.sh, which checks this pair itself):
# the report must hold the pair with both verdicts.
if [ -s "$o/6.1/mpsc/boot/nocona.json" ] && [ -s "$o/6.12/mpsc/boot/nocona.json" ]; then
	check_eq "boot: mpsc on nocona, both trees' verdicts" \
		"$(jq -r '.flavours[] | select(.flavour == "mpsc") | .boot[] | select(.cpu == "nocona") | "\(.old_verdict) \(.new_verdict)"' "$up/upgrade.json")" \
		"$(jq -r .verdict "$o/6.1/mpsc/boot/nocona.json") $(jq -r .verdict "$o/6.12/mpsc/boot/nocona.json")"
else
	skip "boot: mpsc on nocona, both trees' verdicts" \
		"6.12's mpsc is booted only by make check-slow (tests/slow/45-probe-6.12.sh), which checks this pair"
fi

# Bad input: a clear message and make's status 2.
check_fails "to=9.9: names the valid trees" 2 'to=9\.9 is not known; valid: ' \
	make upgrade to=9.9 out="$o"
check_fails "old=FILE that does not exist: named" 2 'kflavour: /nonexistent\.config: no such config' \
	make upgrade old=/nonexistent.config name=nothing out="$o"

# A fragment line for a symbol the 6.12 tree lacks (MICROCODE_INTEL, which
# 6.1 honours): in a scratch checkout, on a flavour of its own (upgr), so the
# real flavours' configs stay as they are.
co=$kf_tmp/co
scratch_checkout "$co"
sed 's/^fragments *=.*/& upgrade-test/' "$co/flavours/generic.flavour" > "$co/flavours/upgr.flavour"
printf '# upgrade-test: a request 6.1 honours and 6.12 cannot\nCONFIG_MICROCODE_INTEL=y\n' \
	> "$co/fragments/upgrade-test.config"
check "scratch: make upgrade flavour=upgr (its 6.12 audit fails, the report goes on)" \
	make -C "$co" upgrade flavour=upgr out="$o"
cp "$kf_tmp/last.out" "$kf_tmp/scratch.out"
jq -e '[.flavours[] | select(.flavour == "upgr") | .stop_applying.misses[]
	| select(.symbol == "MICROCODE_INTEL" and .kind == "unknown-symbol"
		and .file == "fragments/upgrade-test.config" and .line == 2)] | length == 1' \
	"$up/upgrade.json" > /dev/null &&
	ok "scratch: MICROCODE_INTEL is under stop_applying with its fragment line" ||
	not_ok "scratch: MICROCODE_INTEL is under stop_applying with its fragment line"
# A failed audit is recorded in config-failed.json (config.json stays the
# last good config's): that is the record the upgrade report quotes.
check_eq "scratch: in the 6.12 audit's own words" \
	"$(jq -r '.flavours[] | select(.flavour == "upgr") | .stop_applying.misses[0].reason' "$up/upgrade.json")" \
	"$(jq -r '.misses[0].reason' "$o/6.12/upgr/config-failed.json" 2>/dev/null)"
check "scratch: the terminal shows the miss and the audit's fix" \
	grep -Eq '^fragments that stop applying \(1\):$' "$kf_tmp/scratch.out"
check "scratch: ... with the audit's fix" \
	grep -q 'fix: request CONFIG_MICROCODE instead' "$kf_tmp/scratch.out"
check "scratch: ... and the renames hint" \
	grep -q 'MICROCODE_INTEL -> MICROCODE: since 6.6' "$kf_tmp/scratch.out"
check "scratch: upgrade.json validates" validate "$up/upgrade.json"
rm -rf "$o/6.1/upgr" "$o/6.12/upgr" "$up/upgr"
for kv in 6.1 6.12; do rm -f "$o/$kv/flavours-$(printf %s "$co" | md5sum | cut -c1-8).mk"; done
# valgrind on make upgrade's tools, on the inputs the run above left, and
# the 6.12 patch series linted with that tree's checkpatch (85-lint lints
# 6.1's; both need this tree, which make check does not extract).
vg=(valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99)
t=$o/tools
up=$o/upgrade/6.1-6.12
[ -s "$up/generic/carried.config" ] ||
	check "make upgrade flavour=generic: the upgrade tools' inputs" make upgrade flavour=generic out="$o"
check "valgrind: upgrade" "${vg[@]}" "$o/6.12/tools/upgrade" --srctree "$o/6.12/src" --flavour generic \
	--old "$o/6.1/generic/.config" --carried "$up/generic/carried.config" \
	--newprompts "$up/generic/listnewconfig" --json "$kf_tmp/upgrade.json" \
	--undecided "$kf_tmp/undecided.config" --audit "$o/6.12/generic/config.json" \
	--old-boot "$o/6.1/generic/boot" --new-boot "$o/6.12/generic/boot" \
	--old-fragments fragments/microcode.config fragments/6.12/microcode.config
check "valgrind: upgrade-report" "${vg[@]}" "$t/upgrade-report" --from 6.1 --to 6.12 \
	--json "$kf_tmp/u.json" --html "$kf_tmp/u.html" "$kf_tmp/upgrade.json"

lint_series 6.12
done_testing
