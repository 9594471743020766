#!/bin/bash
# savefragment.sh MAKE FLAVOUR KVER SRC ODIR SAVEFRAGMENT POLICY TO 'NAMES' 'FILES' 'AFFECTED' SAVEDEFCONFIG
# Glue for 'make savefragment' (config/edit.mk); the logic and the choices
# (which fragment, which other trees' defconfigs) are config/savefragment.c's.
# ODIR/.config (edited) against ODIR/.config.merged (as merge.sh wrote it):
# the tree's savedefconfig of both, their set difference (savefragment changes),
# written into the flavour's own fragment or the fragment TO names (savefragment
# apply), shown as a diff, then the config stage and the defconfigs again,
# and a check that the new merge gives the edited config. An edit that
# breaks fragments/policy is refused before anything is written.
set -eo pipefail
make=$1 f=$2 kver=$3 src=$4 odir=$5 savefragment=$6 policy=$7 to=$8
read -ra files <<< "${10}"
affected=${11} savedefconfig=${12}
cfg=$odir/.config merged=$odir/.config.merged

say() { echo "  SAVE    $f: $*"; }
die() { echo "kflavour: savefragment $f: $*" >&2; exit 2; }

[ -f "$cfg" ] || die "no $cfg; run 'make menuconfig flavour=$f' (or oldconfig) first"
[ -f "$merged" ] || die "no $merged (the config as merged) to compare with; run 'make config flavour=$f', then edit, then savefragment"

# The target: the fragment to= names, else the flavour's own (new when the
# recipe has none: apply merges it last).
target=$("$savefragment" target "$f" "$to" "$9" "${10}")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# What scripts/config or a hand edit left open is resolved the way a build
# would resolve it (--write-back: olddefconfig), so the comparison is between
# two real configs; and the tree's savedefconfig of both, Kconfig parsed once.
"$savedefconfig" --srctree "$src" --write-back "$cfg" "$tmp/edited.def" "$merged" "$tmp/merged.def" \
	> "$tmp/log" 2>&1 || { cat "$tmp/log" >&2; die "the tree's kconfig failed on $cfg or $merged (above)"; }
if cmp -s "$cfg" "$merged"; then
	say ".config is as merged: nothing to save"
	exit 0
fi
cp "$cfg" "$tmp/edited"
"$policy" fragments/policy "$f" "$tmp/edited" || {
	echo "kflavour: savefragment $f: the edited config breaks fragments/policy (above); nothing written." >&2
	echo "kflavour: change the edit ('make menuconfig flavour=$f'), or the policy if it is what is wrong" >&2
	exit 1
}
"$savefragment" changes "$merged" "$tmp/edited" "$tmp/merged.def" "$tmp/edited.def" "${files[@]}" > "$tmp/changes"
if [ ! -s "$tmp/changes" ]; then
	say ".config differs from the merge only where savedefconfig sees no choice: nothing to save"
	exit 0
fi

if [ -n "$to" ]; then
	say "writing to the shared fragment $target (to=$to), used by: $affected"
fi
cp "$target" "$tmp/before" 2>/dev/null || : > "$tmp/before"
"$savefragment" apply "$f" "$target" "$tmp/changes" "${files[@]}"
diff -u --label "a/$target" --label "b/$target" "$tmp/before" "$target" || true
recipe=flavours/$f.flavour
if [ -z "$to" ]; then
	cp "$recipe" "$tmp/recipe"
	"$savefragment" add-fragment "$recipe" "flavour-$f"
	diff -u --label "a/$recipe" --label "b/$recipe" "$tmp/recipe" "$recipe" || true
fi

# The config stage and the defconfigs again, for every flavour concerned.
$make config defconfigs flavour="$affected" || {
	echo "kflavour: savefragment $f: $target is written (diff above), but the config stage failed (above); fix $target, then run 'make defconfigs flavour=\"$affected\"'" >&2
	exit 1
}
if ! "$savefragment" compare "$tmp/edited" "$cfg" > "$tmp/compare"; then
	cp "$tmp/edited" "$odir/.config.unsaved"
	echo "kflavour: savefragment $f: the new merge does not give the edited config:" >&2
	cat "$tmp/compare" >&2
	echo "kflavour: the edited config is kept in $odir/.config.unsaved; fix $target by hand" >&2
	exit 1
fi
say "saved in $target; the merge now gives the edited config"
"$savefragment" others "$kver" $affected
