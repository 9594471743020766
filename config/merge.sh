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
rm -f "$odir/$new" "$odir/$new.old" "$odir/config.json.kf-new"
trap 'rm -f "$odir/$new" "$odir/$new.old" "$odir/config.json.kf-new"' EXIT
# The log is emptied first: an earlier run's log is never shown as the cause.
if ! err=$( { : > "$log"; } 2>&1 ); then
	echo "kflavour: cannot write $log (${err##*: }); the previous .config of $f is unchanged" >&2
	exit 1
fi
# A failed attempt leaves .config and config.json (the last good config)
# alone; config.failed says what failed and config-failed.json holds the
# audit of the failed attempt, when it got that far.
failed() {	# failed REASON: record the failed attempt, exit 1
	[ -f "$odir/config.json.kf-new" ] && mv -f "$odir/config.json.kf-new" "$odir/config-failed.json"
	echo "$1" > "$odir/config.failed.tmp.$$" && mv -f "$odir/config.failed.tmp.$$" "$odir/config.failed"
	exit 1
}
# Syntax and conflicts between fragments first: they need no tree.
"$audit" --lint "$@" || failed "fragment check failed"

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
} > "$log" 2>&1 || { tail -n 20 "$log" >&2; echo "kflavour: merging $f failed; full log: $log" >&2; failed "merge failed (see config.log)"; }

"$audit" --srctree "$src" --config "$odir/$new" --json "$odir/config.json.kf-new" "$@" ||
	failed "audit failed (see config-failed.json)"
# The facts each flavour exists for (fragments/policy, config/policy.c).
"${KF_POLICY:?set by config/config.mk}" fragments/policy "$f" "$odir/$new" ||
	failed "policy violation"
mv -f "$odir/config.json.kf-new" "$odir/config.json"
rm -f "$odir/config.failed" "$odir/config-failed.json"

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
