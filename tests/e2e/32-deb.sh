#!/bin/bash
# lane: background
# (A cold build with modules: in the background lane, on an out= of its
# own, beside the main lane's scripts; tests/lib.sh, kf_system_out.)
# make deb (issue 46): the small systemd-capable flavour, tiny-systemd, packaged
# by the tree's own bindeb-pkg in its O=, with its modules. Its record,
# deb/deb.json: valid against package/deb.schema.json; the package names
# carry the flavour and the kver (release <kernelversion>-kf-tiny-systemd);
# the image package holds modules, virtio_blk.ko (its root disk's driver)
# among them, and /boot/vmlinuz-<release>, the very bzImage the build made;
# every sha256 and size is the file's. Nothing is left beside the O=
# directory. An unchanged make deb does nothing; the packages made again
# from the same build are byte-identical (two whole builds in two out=
# directories: tests/slow/32-deb-repro.sh). Bad input: an unknown flavour,
# modules=0. docs/system-boot.md, "Packages". On the 6.1 tree; with
# kver=6.12, tests/slow/32-deb-6.12.sh.
. tests/lib.sh
kver=${kver:-6.1}
o=$kf_system_out
k=$o/$kver
f=tiny-systemd
d=$k/$f/deb
j=$d/deb.json
src=$k/src

# --- bad input: nothing is built or written --------------------------------
check_fails "make deb flavour=nosuch: unknown flavour, named with the valid ones" 2 \
	"unknown flavour 'nosuch'.*valid: .*$f" make deb flavour=nosuch kver=$kver out="$o"
check_fails "make deb modules=0: refused, it packages the modules" 2 \
	'make deb packages a flavour with its modules' make deb flavour=$f modules=0 kver=$kver out="$o"

# (Its committed defconfig: tests/e2e/15-config.sh, on each tree.)
# --- make deb -------------------------------------------------------------
start=$SECONDS
check "make deb flavour=$f" make deb flavour=$f kver=$kver out="$o"
cp "$kf_tmp/last.out" "$kf_tmp/deb.out"
grep -E '^  (BUILD|DEB) ' "$kf_tmp/deb.out" | diag
diag <<< "make deb took $((SECONDS - start)) s"
kv=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$src/Makefile" | paste -sd.)
rel=$kv-kf-$f
check "deb.json matches package/deb.schema.json" \
	/usr/bin/python3 -W ignore -m jsonschema -i "$j" package/deb.schema.json
check_eq "the release names the kver and the flavour" "$(jq -r '"\(.kver) \(.release) \(.flavour)"' "$j")" \
	"$kver $rel $f"
case $kv in "$kver".*) ok "the kernel version $kv is of kver $kver" ;; *) not_ok "the kernel version $kv is of kver $kver" ;; esac
check_eq "build.json and the O='s kernel.release: the packaged release" \
	"$(jq -r .release "$k/$f/build.json") $(cat "$k/$f/include/config/kernel.release")" "$rel $rel"
check_eq "the packages: image, headers, libc-dev, each named with the release's version" \
	"$(jq -r '[.packages[] | "\(.kind)=\(.name)_\(.version)"] | sort | join(" ")' "$j")" \
	"headers=linux-headers-${rel}_$rel-1 image=linux-image-${rel}_$rel-1 libc-dev=linux-libc-dev_$rel-1"
check_eq "the record names the image package" "$(jq -r .image "$j")" "linux-image-$rel"
img=$(jq -r '.packages[] | select(.kind == "image") | .path' "$j")
check_eq "the image's vmlinuz and modules directory" \
	"$(jq -r '.packages[] | select(.kind == "image") | "\(.vmlinuz) \(.modules_dir)"' "$j")" \
	"/boot/vmlinuz-$rel /lib/modules/$rel"
n=$(jq -r '.packages[] | select(.kind == "image") | .modules' "$j")
[ "${n:-0}" -gt 0 ] 2>/dev/null && ok "the image package holds $n modules" || not_ok "the image package holds modules ($n)"
check "virtio_blk.ko among them (the root disk's driver, a module)" \
	jq -e '.packages[] | select(.kind == "image") | .module_files | index("kernel/drivers/block/virtio_blk.ko")' "$j"
dpkg-deb --contents "$img" > "$kf_tmp/contents"
check_eq "the module count is the package's .ko files" \
	"$(grep -c "\./lib/modules/$rel/.*\.ko$" "$kf_tmp/contents")" "$n"
check_eq "no module count for the other packages" \
	"$(jq -c '[.packages[] | select(.kind != "image") | .modules]' "$j")" "[null,null]"
bad=
while read -r p sha bytes; do
	[ "$(sha256sum < "$p" | cut -d' ' -f1) $(stat -c %s "$p")" = "$sha $bytes" ] || bad+=" $p"
	[ "$(dirname "$p")" = "$d" ] || bad+=" $p(dir)"
done < <(jq -r '.packages[] | "\(.path) \(.sha256) \(.bytes)"' "$j")
check_eq "each package's sha256 and size are its file's, in deb/" "$bad" ""
check "the .changes is in deb/" test -s "$d/$(jq -r .changes "$j")"
dpkg-deb --fsys-tarfile "$img" | tar -xOf - "./boot/vmlinuz-$rel" > "$kf_tmp/vmlinuz"
check_eq "the package's vmlinuz is the build's bzImage (build.json's sha256)" \
	"$(sha256sum < "$kf_tmp/vmlinuz" | cut -d' ' -f1)" "$(jq -r .bzimage_sha256 "$k/$f/build.json")"
check_eq "the package's vmlinuz is the O='s bzImage" \
	"$(sha256sum < "$kf_tmp/vmlinuz" | cut -d' ' -f1)" "$(sha256sum < "$k/$f/arch/x86/boot/bzImage" | cut -d' ' -f1)"
check_eq "dpkg-deb: the image package's fields" \
	"$(dpkg-deb --field "$img" Package Version Architecture | tr '\n' ' ')" \
	"Package: linux-image-$rel Version: $rel-1 Architecture: amd64 "
check_eq "its changelog is dated SOURCE_DATE_EPOCH (the tree's release date), by kflavour" \
	"$(dpkg-deb --fsys-tarfile "$img" | tar -xOf - "./usr/share/doc/linux-image-$rel/changelog.Debian.gz" |
		zcat | sed -n 's/^ -- //p')" \
	"kflavour <kflavour@kflavour.invalid>  $(LC_ALL=C date -u -R -r "$src/Makefile")"
check "deb.json has bindeb-pkg's seconds (deb.log's trailer)" jq -e '.wall_seconds > 0 and .cpu_seconds > 0' "$j"
check_eq "nothing left beside the O= directory (no .deb, .changes, .buildinfo in out/$kver)" \
	"$(ls "$k" | grep -E '\.(deb|changes|buildinfo)$' || true)" ""
check_eq "no deb.tmp, deb.old or debian/ left in the O= directory" \
	"$(ls -d "$k/$f/deb.tmp" "$k/$f/deb.old" "$k/$f/debian" 2>/dev/null || true)" ""

# Host programs name no source tree: Kbuild gives them the tree's absolute
# path and no macro map, so kconfig's lkc.h put "<out>/6.1/src/scripts/..."
# in scripts/kconfig/conf, and ccache's base directory served that compile
# from whichever out= made it first (make check's own, here). build/build.mk
# maps it (kbuild_hostmap). Kbuild's .cmd files and objtool's debug info
# name the tree by design and are not host programs' __FILE__.
hdr=$(jq -r '.packages[] | select(.kind == "headers") | .path' "$j")
mkdir -p "$kf_tmp/hdr" && dpkg-deb -x "$hdr" "$kf_tmp/hdr"
named=
elves=0
while read -r p; do
	[ "$(head -c 4 "$p" | tr -d '\177')" = ELF ] || continue
	elves=$((elves + 1))
	grep -qF "/$kver/src/" "$p" && named+=" ${p#"$kf_tmp/hdr/usr/src/"}"
done < <(find "$kf_tmp/hdr" -path '*/scripts/*' -type f)
# (6.1's package has 19 of them; 6.12's three: fixdep, modpost, sorttable.)
[ -f "$kf_tmp/hdr/usr/src/linux-headers-$rel/scripts/basic/fixdep" ] &&
	[ -f "$kf_tmp/hdr/usr/src/linux-headers-$rel/scripts/mod/modpost" ] &&
	ok "the headers package holds $elves host programs and objects under scripts/, fixdep and modpost among them" ||
	not_ok "the headers package holds host programs under scripts/, fixdep and modpost among them ($elves)"
check_eq "none names a source tree's path (scripts/kconfig/conf: lkc.h's __FILE__)" "$named" ""

# --- package-record and package-changelog alone, under valgrind --------------
v=$kf_tmp/vg
mkdir -p "$v/from" "$v/to"
cp "$d"/*.deb "$d"/*.buildinfo "$d"/*.changes "$v/from/"
sde=$(jq -r .source_date_epoch "$j")
vg "package-record on the real packages (copies)" "$KF_TOOLS/package-record" --flavour $f --kver $kver \
	--changes "$v/from/$(jq -r .changes "$j")" --to "$v/to" --dir "$v/final" \
	--source-date-epoch "$sde" --log "$k/$f/deb.log" --quiet
strip() { jq -c 'del(.dir) | .packages[] |= del(.path)' "$1"; }
check_eq "package-record alone writes the same record (but for its paths)" "$(strip "$v/to/deb.json")" "$(strip "$j")"
check_eq "and moved every file the .changes lists, and the .changes" \
	"$(ls "$v/from" | wc -l) $(ls "$v/to" | grep -vc deb.json)" "0 $(ls "$d" | grep -vc deb.json)"
printf 'x (1) d; urgency=low\n\n  * c\n\n -- kflavour <k@k>  Mon, 07 Dec 2026 14:00:00 +0000\n' > "$v/changelog"
SOURCE_DATE_EPOCH=0 vg "package-changelog" "$KF_TOOLS/package-changelog" "$v/changelog"
check_eq "package-changelog: the trailer dated SOURCE_DATE_EPOCH" "$(tail -n 1 "$v/changelog")" \
	" -- kflavour <k@k>  Thu, 01 Jan 1970 00:00:00 +0000"
check_fails "package-changelog without SOURCE_DATE_EPOCH: named, exit 2" 2 'SOURCE_DATE_EPOCH is not set' \
	env -u SOURCE_DATE_EPOCH "$KF_TOOLS/package-changelog" "$v/changelog"
# A package that is not what its .changes says: named, nothing written.
mkdir -p "$v/bad" "$v/bad-to"
cp "$d"/*.deb "$d"/*.buildinfo "$d"/*.changes "$v/bad/"
printf 'x' >> "$v/bad/$(basename "$img")"
check_fails "package-record: a package whose SHA-256 is not the .changes': named, exit 2" 2 \
	"$(basename "$img"): size or SHA-256 is not what .* lists" \
	"$KF_TOOLS/package-record" --flavour $f --kver $kver --changes "$v/bad/$(jq -r .changes "$j")" \
	--to "$v/bad-to" --dir "$v/final" --source-date-epoch "$sde"
check_eq "and no record written" "$(ls "$v/bad-to/deb.json" 2>/dev/null || true)" ""

# --- again: unchanged, nothing; the packages made again, the same bytes ---
sums() { jq -r '.packages[] | "\(.file) \(.sha256)"' "$j"; }
before=$(sums) stamp=$(stat -c %y "$j")
check "an unchanged make deb" make deb flavour=$f kver=$kver out="$o"
if ! grep -qE '^  (BUILD|DEB) ' "$kf_tmp/last.out" && [ "$(stat -c %y "$j")" = "$stamp" ]; then
	ok "an unchanged make deb does nothing (no build, no packages)"
else
	not_ok "an unchanged make deb does nothing"; diag < "$kf_tmp/last.out"
fi
rm -f "$k/$f/deb.stamp"
check "make deb again from the same build" make deb flavour=$f kver=$kver out="$o"
if grep -q "^  DEB     $f: " "$kf_tmp/last.out" && ! grep -qE "^  BUILD   $f: (CC|LD)" "$kf_tmp/last.out"; then
	ok "the packages made again, nothing compiled"
else
	not_ok "the packages made again, nothing compiled"; diag < "$kf_tmp/last.out"
fi
check_eq "the packages made again are byte-identical" "$(sums)" "$before"

done_testing
