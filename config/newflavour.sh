#!/bin/bash
# newflavour.sh MAKE NAME CPU MODEL KVER SRC KCONFIG_ODIR NEWFLAVOUR
# Glue for 'make newflavour' (config/edit.mk); the checks and the files are
# config/newflavour.c's. What a processor-family choice implies is asked of the
# tree's own kconfig: allnoconfig with 64BIT and the choice forced, whose
# config newflavour reads, shows whether the choice stands on x86-64, and
# its X86_L1_CACHE_SHIFT (the defaults of arch/x86/Kconfig.cpu, evaluated,
# not re-read by hand).
# Then the new flavour goes through the config stage (merge, audit, policy)
# and gets its defconfig, so its three files are ready to commit.
set -eo pipefail
make=$1 name=$2 cpu=${3#CONFIG_} model=$4 kver=$5 src=$6 kodir=$7 newflavour=$8
kcpu=$src/arch/x86/Kconfig.cpu

die() { echo "kflavour: newflavour $name: $*" >&2; exit 2; }

# Name, model, existing files, and CPU as a choice of Kconfig.cpu.
"$newflavour" --check -- "$name" "$cpu" "$model" "$kcpu" > /dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'CONFIG_64BIT=y\nCONFIG_%s=y\n' "$cpu" > "$tmp/want"
make -s -C "$src" O="$kodir" KCONFIG_CONFIG="$tmp/config" KCONFIG_ALLCONFIG="$tmp/want" \
	allnoconfig > "$tmp/log" 2>&1 || { cat "$tmp/log" >&2; die "the tree's kconfig failed (above)"; }
"$newflavour" -- "$name" "$cpu" "$model" "$kcpu" "$tmp/config"
$make defconfigs flavour="$name" name= choice= model= || {
	echo "kflavour: newflavour $name: the new flavour does not pass the config stage (above); fix fragments/cpu-$name.config or flavours/$name.flavour, then 'make defconfigs flavour=$name'" >&2
	exit 1
}
echo "  NEW     flavour $name; commit flavours/$name.flavour fragments/cpu-$name.config defconfigs/$kver/${name}_defconfig"
for d in defconfigs/*/; do
	k=$(basename "$d")
	[ "$k" = "$kver" ] || echo "  NEW     and run 'make defconfigs flavour=$name kver=$k' for defconfigs/$k/ (commit it too)"
done
