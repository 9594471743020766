#!/bin/bash
# carry.sh SRC CONFIG DIR: what the tree SRC makes of CONFIG (plain or .xz),
# with the tree's own kconfig, in DIR/o (an O= directory of its own, so the
# real flavour's config is never touched):
#   DIR/listnewconfig   the tree's 'make listnewconfig' for CONFIG
#   DIR/carried.config  the tree's 'make olddefconfig' of CONFIG
# Both are written only when both commands succeeded.
set -eo pipefail
src=$1 config=$2 dir=$3
[ -r "$config" ] || { echo "kflavour: $config: no such config; run 'make config kver=<from>' first, or give old=FILE" >&2; exit 1; }
mkdir -p "$dir/o"
work=$dir/o/upgrade.config
case $config in
*.xz) xz -dc "$config" > "$work" ;;
*) cp "$config" "$work" ;;
esac
log=$dir/carry.log
{
	make -s -C "$src" O="$dir/o" KCONFIG_CONFIG=upgrade.config listnewconfig > "$dir/listnewconfig.tmp" &&
	make -s -C "$src" O="$dir/o" KCONFIG_CONFIG=upgrade.config olddefconfig
} 2> "$log" || { tail -n 20 "$log" >&2; echo "kflavour: the tree $src could not read $config; full log: $log" >&2; exit 1; }
mv "$work" "$dir/carried.config"
mv "$dir/listnewconfig.tmp" "$dir/listnewconfig"
