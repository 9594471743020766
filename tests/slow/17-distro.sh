#!/bin/bash
# Distro bases (issue 16): flavours on Debian's own configs (recipe key
# 'base'), about 2,800 and 6,400 symbols, through the config stage on both
# trees with no hand pruning: merge, audit (fragments strict, the base's
# values summarised by cause), policy, check-defconfigs and diffconfig at
# that scale; a team's own config (base = file:...) the repository has never
# seen. Building and booting them is 'make check-distro' (too slow for CI).
. tests/lib.sh
. tests/scratch.sh
o=$KF_OUT

val() { grep -E "^(# )?CONFIG_$2[= ]" "$o/$1/.config" | head -n 1; }

for kv in 6.1 6.12; do
	fl='debian-cloud debian-cloud-mpsc'
	[ $kv = 6.1 ] && fl="$fl debian-amd64"
	# One flavour merged again even when up to date: its output is checked.
	rm -f "$o/$kv/debian-cloud-mpsc/config.stamp"
	check "make config flavour='$fl' kver=$kv: merge, audit and policy pass" \
		make config flavour="$fl" kver=$kv out="$o"
	cp "$kf_tmp/last.out" "$kf_tmp/cfg"
	check "$kv: every fragment request audited present" \
		grep -q "AUDIT   debian-cloud-mpsc: .* all present" "$kf_tmp/cfg"
	check "$kv: no base value is reported as a requested value lost" \
		bash -c "! grep -q 'requested, final' '$kf_tmp/cfg'"
	check "$kv: base values not kept are summarised per cause" \
		grep -Eq "BASE +[0-9]+ computed by Kconfig .*CC_VERSION_TEXT" "$kf_tmp/cfg"
	check_eq "$kv debian-cloud-mpsc: MPSC" "$(val $kv/debian-cloud-mpsc MPSC)" "CONFIG_MPSC=y"
	check_eq "$kv debian-cloud-mpsc: 128-byte lines" \
		"$(val $kv/debian-cloud-mpsc X86_L1_CACHE_SHIFT)" "CONFIG_X86_L1_CACHE_SHIFT=7"
	# Debian's values, which no fragment sets, are there: the base is used.
	check_eq "$kv debian-cloud: Debian's MAXSMP kept" "$(val $kv/debian-cloud MAXSMP)" "CONFIG_MAXSMP=y"
	check_eq "$kv debian-cloud: the probe on top" \
		"$(val $kv/debian-cloud X86_FLAVOUR_PROBE_KUNIT_TEST)" "CONFIG_X86_FLAVOUR_PROBE_KUNIT_TEST=y"
	# Reproducible images: no signing key generated per build (docs/build.md).
	check_eq "$kv debian-cloud-mpsc: no per-build signing key in vmlinux" \
		"$(val $kv/debian-cloud-mpsc MODULE_SIG_KEY) / $(val $kv/debian-cloud-mpsc MODULE_SIG_ALL)" \
		'CONFIG_MODULE_SIG_KEY="" / # CONFIG_MODULE_SIG_ALL is not set'
	check "$kv debian-cloud: config.json has every lost base value with its cause" \
		jq -e '.ok and (.base.values > 2000) and (.base.not_kept | map(.symbol) | index("CC_VERSION_TEXT"))
			and (.base.not_kept_by_cause["no-prompt"] > 0)' "$o/$kv/debian-cloud/config.json"
	check "committed defconfigs/$kv/debian-* match" \
		make check-defconfigs flavour="$fl" kver=$kv out="$o"
	make diffconfig a=debian-cloud b=debian-cloud-mpsc kver=$kv out="$o" > "$kf_tmp/dc" 2>&1
	check "$kv diffconfig debian-cloud -> debian-cloud-mpsc: in full, MPSC and the line size" \
		bash -c "grep -q '^ MPSC n -> y' '$kf_tmp/dc' && grep -q '^ X86_L1_CACHE_SHIFT 6 -> 7' '$kf_tmp/dc'"
	check "$kv diffconfig debian-cloud -> debian-cloud-mpsc fits a screen" \
		test "$(wc -l < "$kf_tmp/dc")" -lt 40
done

# Thousands of differences: by Kconfig menu, every symbol in the JSON.
make diffconfig a=generic b=debian-amd64 out="$o" > "$kf_tmp/big" 2>&1
check "diffconfig generic -> debian-amd64 is summarised by Kconfig menu" \
	grep -q "differences, more than 100: by Kconfig menu" "$kf_tmp/big"
check "... in under a screen" test "$(wc -l < "$kf_tmp/big")" -lt 40
check "... with every symbol in the JSON" \
	jq -e '(.symbols | length) > 1000 and (.symbols | length) == .differences' \
	"$o/6.1/diffconfig-generic-debian-amd64.json"

# A team's own full config, never seen by the repository: Debian's rt config
# with a line of the team's, as base = file:... in a scratch checkout.
co=$kf_tmp/co
scratch_checkout "$co"
mkdir -p "$co/configs"
xz -dc /usr/src/linux-config-6.1/config.amd64_rt_amd64.xz |
	sed -e 's/^CONFIG_HZ_250=y$/# CONFIG_HZ_250 is not set/' \
		-e 's/^# CONFIG_HZ_1000 is not set$/CONFIG_HZ_1000=y/' > "$co/configs/team.config"
sed -e 's/^base .*/base        = file:configs\/team.config/' -e 's/^group .*/group       = team/' \
	"$co/flavours/debian-cloud.flavour" > "$co/flavours/team.flavour"
make -C "$co" config group=team out="$o" > "$kf_tmp/team" 2>&1
check "base = file:configs/team.config: config and audit pass" \
	grep -q "AUDIT   team: .* all present" "$kf_tmp/team"
check_eq "team: the team's own value is kept" "$(val 6.1/team HZ_1000)" "CONFIG_HZ_1000=y"
check "team: base values this tree cannot keep are summarised, not failed" \
	grep -Eq "BASE    team: [0-9]+ of [0-9]+ base values kept" "$kf_tmp/team"
make -C "$co" diffconfig a=debian-cloud b=team out="$o" > "$kf_tmp/teamdc" 2>&1
check "diffconfig debian-cloud -> team works" grep -q "by Kconfig menu" "$kf_tmp/teamdc"

# Bad bases: the recipe's file and line, or the missing file, and a fix.
sed -i 's/^base .*/base        = file:..\/elsewhere.config/' "$co/flavours/team.flavour"
check_fails "base = file:../x is refused naming the recipe line" 2 \
	"flavours/team.flavour:[0-9]+: base 'file:../elsewhere.config' is not" make -C "$co" config group=team out="$o"
sed -i 's/^base .*/base        = debian:amd64_none_nosuch/' "$co/flavours/team.flavour"
check_fails "base = debian:<unknown> names the missing file and the package" 2 \
	"config.amd64_none_nosuch.xz is missing; for debian:<name> install linux-config" \
	make -C "$co" config group=team out="$o"
check_fails "group=nosuch is refused with the valid groups" 2 \
	"unknown group 'nosuch'; valid: debian default" make config group=nosuch out="$o"
rm -rf "$o/6.1/team"
done_testing
