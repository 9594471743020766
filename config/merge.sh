#!/bin/bash
# merge.sh FLAVOUR SRC ODIR AUDIT FRAGMENT...: the config stage for one flavour.
# tinyconfig (or the recipe's base), then the fragments with the tree's merge_config.sh,
# into ODIR/.config.kf-new; the audit then does olddefconfig's work with the
# tree's kconfig and checks that every requested value survived, and
# config-commit (config/commit.c) decides what becomes current: only an
# audited config replaces ODIR/.config, and only when it differs, so a
# failure leaves the previous .config intact.
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
# alone: config-commit --failed records it (config.failed, and the audit in
# config-failed.json when it got that far).
commit=${KF_COMMIT:?set by config/config.mk}
failed() {	# failed REASON: record the failed attempt, exit 1
	"$commit" --failed "$1" "$odir"
	exit 1
}
# Syntax and conflicts between fragments first: they need no tree.
"${KF_LINT:?set by config/config.mk}" "$@" || failed "fragment check failed"

# tinyconfig spelled out with the tree's own pieces (allnoconfig over
# tiny-base.config, then the tiny.config fragments): 6.1's '%.config' rule
# merges onto a literal '.config', the previous result, not KCONFIG_CONFIG,
# which would make a fragment line, once removed, live on in the merge.
# The allnoconfig is config.mk's, made once per tree: KF_TINY.
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
		cp "${KF_TINY:?set by config/config.mk}" "$odir/$new"
		tiny_files=("${tiny[@]}")
	fi &&
	KCONFIG_CONFIG="$odir/$new" "$src/scripts/kconfig/merge_config.sh" -m -O "$odir" \
		"$odir/$new" "${tiny_files[@]}" "$@"
} > "$log" 2>&1 || { tail -n 20 "$log" >&2; echo "kflavour: merging $f failed; full log: $log" >&2; failed "merge failed (see config.log)"; }

# The audit does make olddefconfig's work first (--olddefconfig: the same
# kconfig, byte-identical output), so the tree's Kconfig is parsed once.
# --needs: can this config boot systemd (docs/system-boot.md)? Its answer
# goes into config.json; a miss is shown, not failed.
"$audit" --srctree "$src" --config "$odir/$new" --flavour "$f" --olddefconfig "$log" \
	--json "$odir/config.json.kf-new" --needs fragments/systemd.needs "${base[@]}" "$@" || {
	[ -f "$odir/config.json.kf-new" ] || tail -n 5 "$log" >&2
	failed "audit failed (see config-failed.json)"
}
# The facts each flavour exists for (fragments/policy, config/policy.c).
"${KF_POLICY:?set by config/config.mk}" fragments/policy "$f" "$odir/$new" ||
	failed "policy violation"
# The audited config replaces .config only when it differs, edits not saved
# by 'make savefragment' kept aside; .config.merged, config.json, config.stamp.
"$commit" --flavour "$f" "$odir"
