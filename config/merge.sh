#!/bin/bash
# merge.sh FLAVOUR SRC ODIR AUDIT FRAGMENT...: the config stage for one flavour.
# tinyconfig, then the fragments with the tree's merge_config.sh, then
# olddefconfig, all into ODIR/.config.kf-new; the audit then checks that every
# requested value survived. Only an audited config replaces ODIR/.config, and
# only when it differs, so a failure leaves the previous .config intact.
set -eo pipefail
f=$1 src=$2 odir=$3 audit=$4
shift 4
new=.config.kf-new
log=$odir/config.log

mkdir -p "$odir"
rm -f "$odir/$new" "$odir/$new.old"
trap 'rm -f "$odir/$new" "$odir/$new.old"' EXIT
# Syntax and conflicts between fragments first: they need no tree.
"$audit" --lint "$@"

# tinyconfig spelled out with the tree's own pieces (allnoconfig over
# tiny-base.config, then the tiny.config fragments): 6.1's '%.config' rule
# merges onto a literal '.config', the previous result, not KCONFIG_CONFIG,
# which would make a fragment line, once removed, live on in the merge.
tiny=("$src/kernel/configs/tiny.config")
[ -f "$src/arch/x86/configs/tiny.config" ] && tiny+=("$src/arch/x86/configs/tiny.config")
# '&&': set -e does not stop a '{ }' that is the left side of '||'.
echo "  CONFIG  $f: tinyconfig + $(printf '%s ' "${@##*/}")"
{
	make -s -C "$src" O="$odir" KCONFIG_CONFIG="$new" \
		KCONFIG_ALLCONFIG="$src/kernel/configs/tiny-base.config" allnoconfig &&
	KCONFIG_CONFIG="$odir/$new" "$src/scripts/kconfig/merge_config.sh" -m -O "$odir" \
		"$odir/$new" "${tiny[@]}" "$@" &&
	make -s -C "$src" O="$odir" KCONFIG_CONFIG="$new" olddefconfig
} > "$log" 2>&1 || { tail -n 20 "$log" >&2; echo "kflavour: merging $f failed; full log: $log" >&2; exit 1; }

"$audit" --srctree "$src" --config "$odir/$new" --json "$odir/config.json" "$@"
# The facts each flavour exists for (fragments/policy, config/policy.c).
"${KF_POLICY:?set by config/config.mk}" fragments/policy "$f" "$odir/$new"

if cmp -s "$odir/$new" "$odir/.config"; then
	rm -f "$odir/$new"
else
	# Edits (make menuconfig) not saved by 'make savefragment' are kept aside.
	if [ -f "$odir/.config.merged" ] && ! cmp -s "$odir/.config" "$odir/.config.merged"; then
		cp "$odir/.config" "$odir/.config.unsaved"
		echo "kflavour: $f: .config had edits not saved by 'make savefragment'; kept in $odir/.config.unsaved" >&2
	fi
	mv "$odir/$new" "$odir/.config"
fi
# The config as merged: what 'make savefragment' compares an edited .config with.
cp "$odir/.config" "$odir/.config.merged.tmp" && mv "$odir/.config.merged.tmp" "$odir/.config.merged"
touch "$odir/config.stamp"
