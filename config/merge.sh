#!/bin/bash
# merge.sh FLAVOUR SRC ODIR AUDIT FRAGMENT...: the config stage for one flavour.
# tinyconfig (or the recipe's base), then the fragments with the tree's merge_config.sh, then
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
# A distro base (recipe key 'base', KF_BASE from config.mk: Debian's config
# or the team's own) replaces tinyconfig: it is the first file of the merge,
# kept as ODIR/base.config for the audit, which tells its values apart from
# the fragments' requests.
base=() tiny_files=()
if [ -n "$KF_BASE" ]; then
	[ -r "$KF_BASE" ] || {
		echo "kflavour: $f: base ${KF_BASE_NAME:-$KF_BASE}: $KF_BASE is missing; for debian:<name> install linux-config-<kver> ('make deps' as root), for file:<path> fix the path in flavours/$f.flavour" >&2
		exit 2
	}
	case $KF_BASE in
	*.xz) xz -dc "$KF_BASE" > "$odir/base.config.tmp" ;;
	*) cp "$KF_BASE" "$odir/base.config.tmp" ;;
	esac
	mv "$odir/base.config.tmp" "$odir/base.config"
	base=(--base "$odir/base.config")
fi
# '&&': set -e does not stop a '{ }' that is the left side of '||'.
echo "  CONFIG  $f: ${KF_BASE_NAME:-tinyconfig} + $(printf '%s ' "${@##*/}")"
{
	if [ -n "$KF_BASE" ]; then
		cp "$odir/base.config" "$odir/$new"
	else
		make -s -C "$src" O="$odir" KCONFIG_CONFIG="$new" \
			KCONFIG_ALLCONFIG="$src/kernel/configs/tiny-base.config" allnoconfig
		tiny_files=("${tiny[@]}")
	fi &&
	KCONFIG_CONFIG="$odir/$new" "$src/scripts/kconfig/merge_config.sh" -m -O "$odir" \
		"$odir/$new" "${tiny_files[@]}" "$@" &&
	make -s -C "$src" O="$odir" KCONFIG_CONFIG="$new" olddefconfig
} > "$log" 2>&1 || { tail -n 20 "$log" >&2; echo "kflavour: merging $f failed; full log: $log" >&2; exit 1; }

"$audit" --srctree "$src" --config "$odir/$new" --json "$odir/config.json" "${base[@]}" "$@"
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
