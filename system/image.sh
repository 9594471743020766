#!/bin/bash
# image.sh DEB DIR FLAVOUR KVER: a flavour's system image (docs/system-boot.md,
# "The Debian system"). The kernel package DEB (empty: the image package
# of make deb's record KF_DEB_RECORD) is installed with dpkg -i
# into a copy of the cached root filesystem, so its own postinst runs
# initramfs-tools and makes the initrd; DIR (out/<kver>/<flavour>/system)
# then holds vmlinuz and initrd.img taken from the installed system, the
# system as an ext4 image (image.raw, booted with snapshot=on: never
# written) and its record image.json (system-record, C). Glue around
# mmdebstrap, mkfs.ext4 and system-record.
#
# From the environment (system/system.mk): KF_ROOTFS_TAR and KF_ROOTFS_REC
# (rootfs.sh make's), KF_SUITE, SOURCE_DATE_EPOCH, KF_RECORD, KF_ROOT_DRIVER
# (the root disk's driver, virtio_blk), KF_EXTRAS ("SRC:DEST ..." files
# copied into the image, a file's mode kept) and KF_UNITS (units enabled
# there): the hook by which the guest's own units come in. KF_IMAGE_MB: the
# image's size (default: the content plus a third, plus 256 MiB).
#
# Nothing is redone while DEB, the root filesystem, the extras and this
# script are those of DIR/image.stamp. Everything is made in a temporary
# directory beside DIR and renamed into place; a dead run's is removed.
set -eo pipefail
deb=$1 dir=$2 flavour=$3 kver=$4
: "${KF_ROOTFS_TAR:?}" "${KF_ROOTFS_REC:?}" "${KF_SUITE:?}" "${SOURCE_DATE_EPOCH:?}" "${KF_RECORD:?}"
export SOURCE_DATE_EPOCH
drv=${KF_ROOT_DRIVER:-virtio_blk}
mmdebstrap=${KF_MMDEBSTRAP:-mmdebstrap}
die() { echo "kflavour: system image $flavour: $*" >&2; exit 2; }

# No DEB: the image package of the flavour's make deb record.
if [ -z "$deb" ]; then
	[ -f "${KF_DEB_RECORD:-}" ] ||
		die "no kernel package: make it first (make deb flavour=$flavour; make deb system flavour=$flavour does both), or give deb=PATH"
	deb=$("$KF_RECORD" --deb-image "$KF_DEB_RECORD") || exit 2
fi
[ -f "$deb" ] || die "no kernel package $deb; make it with make deb flavour=$flavour, or give deb=PATH"
pkg=$(dpkg-deb -f "$deb" Package 2>/dev/null) ||
	die "$deb is not a Debian package (dpkg-deb cannot read it); make it again with make deb flavour=$flavour"
ver=$(dpkg-deb -f "$deb" Version)
# The kernel release: the package's /boot/vmlinuz-<release>.
rel=$(dpkg-deb -c "$deb" | sed -n 's|.* \./boot/vmlinuz-\(.*\)$|\1|p' | head -n1)
[ -n "$rel" ] || die "$deb ($pkg) holds no /boot/vmlinuz-<release>: not a kernel image package; give the linux-image package of make deb flavour=$flavour"
[ -f "$KF_ROOTFS_TAR" ] && [ -s "$KF_ROOTFS_REC" ] ||
	die "no root filesystem $KF_ROOTFS_TAR (with its record); make it: make rootfs"

extras_list=
for e in $KF_EXTRAS; do
	src=${e%%:*} dest=${e#*:}
	[ -f "$src" ] && [ "$dest" != "$e" ] && [ "${dest#/}" != "$dest" ] ||
		die "extra '$e' is not SRC:/DEST with SRC a file (system_extras in system/system.mk)"
	extras_list+="$dest $(stat -c %a "$src") $(sha256sum < "$src" | cut -c1-64)"$'\n'
done
stamp="deb=$(sha256sum < "$deb" | cut -c1-64) rootfs=$(sha256sum < "$KF_ROOTFS_REC" | cut -c1-64) \
extras=$(printf '%s%s' "$extras_list" "$KF_UNITS" | sha256sum | cut -c1-64) \
script=$(sha256sum < "$0" | cut -c1-64) driver=$drv size=${KF_IMAGE_MB:-auto}"
if [ -s "$dir/image.json" ] && [ "$(cat "$dir/image.stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi

parent=$(dirname "$dir")
mkdir -p "$parent"
# As root the work is done here; as an ordinary user, in mmdebstrap's user
# namespace, where the system's files are root's (mmdebstrap(1), unshare).
in_ns() {
	if [ "$(id -u)" = 0 ]; then "$@"; else "$mmdebstrap" --unshare-helper "$@"; fi
}
wipe() {
	[ -e "$1" ] || return 0
	rm -rf "$1" 2>/dev/null || in_ns rm -rf "$1" 2>/dev/null || rm -rf "$1"
}
# Under the make's lock on out=, a temporary directory is a dead run's.
for f in "$parent"/.tmp-system.* "$parent"/.old-system.*; do wipe "$f"; done
work=$parent/.tmp-system.$$
trap 'wipe "$work"' EXIT
trap 'exit 130' INT TERM
mkdir -p "$work/out"
# The unshared user writes the chroot and the image here.
chmod 0777 "$work"
log=$work/out/install.log

start=$(date +%s.%N)
echo "  SYSTEM  $flavour: $pkg $ver into a copy of $(basename "$KF_ROOTFS_TAR")"
hooks=(--setup-hook="tar-in $KF_ROOTFS_TAR /"
	--customize-hook="upload $deb /tmp/kf-kernel.deb"
	--customize-hook='chroot "$1" dpkg -i /tmp/kf-kernel.deb >&2 && rm -f "$1/tmp/kf-kernel.deb"')
for e in $KF_EXTRAS; do
	src=${e%%:*} dest=${e#*:}
	hooks+=(--customize-hook="mkdir -p \"\$1$(dirname "$dest")\""
		--customize-hook="upload $src $dest"
		--customize-hook="chmod $(stat -c %a "$src") \"\$1$dest\"")
done
for u in $KF_UNITS; do
	hooks+=(--customize-hook="chroot \"\$1\" systemctl enable $u >&2")
done
# The initrd's files as initramfs-tools lists them, and the kernel's
# built-in modules, for the record.
hooks+=(--customize-hook="chroot \"\$1\" lsinitramfs /boot/initrd.img-$rel > \"\$1/tmp/kf-initrd.list\""
	--customize-hook="download /tmp/kf-initrd.list $work/out/initrd.list"
	--customize-hook="download /boot/vmlinuz-$rel $work/out/vmlinuz"
	--customize-hook="download /boot/initrd.img-$rel $work/out/initrd.img"
	--customize-hook="download /lib/modules/$rel/modules.builtin $work/out/modules.builtin")
# No download: the custom variant installs nothing of apt's, and update is
# skipped; the root filesystem's own sources.list comes back with tar-in.
rc=0
TMPDIR=$work "$mmdebstrap" --mode=unshare --variant=custom --skip=update \
	"${hooks[@]}" "$KF_SUITE" "$work/root" > "$log" 2>&1 || rc=$?
# The log of a failure is kept beside the flavour's directory, the
# temporary one goes.
failed() {
	cp "$log" "$parent/system-install.log" 2>/dev/null || true
	"$KF_RECORD" --explain "$parent/system-install.log" --what "$1" --dir "$parent" \
		--user "$(id -un)" || true
	exit 2
}
if [ "$rc" != 0 ]; then
	failed "installing $deb into a copy of $KF_ROOTFS_TAR"
fi

# Reproducible: mtimes clamped to SOURCE_DATE_EPOCH (files the scripts
# wrote carry the time of the run), a UUID and directory hash seed from the
# flavour and kver, mkfs.ext4's own times from E2FSPROGS_FAKE_TIME, and
# ctimes and atimes set below.
uuid=$(printf 'kflavour-system %s %s' "$kver" "$flavour" | sha256sum |
	sed 's/^\(.\{8\}\)\(.\{4\}\)\(.\{4\}\)\(.\{4\}\)\(.\{12\}\).*/\1-\2-\3-\4-\5/')
in_ns find "$work/root" -newermt "@$SOURCE_DATE_EPOCH" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
if [ -n "${KF_IMAGE_MB:-}" ]; then
	mb=$KF_IMAGE_MB
else
	used=$(in_ns du -sm "$work/root" | cut -f1)
	mb=$(( (used * 4 / 3 + 256 + 63) / 64 * 64 ))
fi
rc=0
E2FSPROGS_FAKE_TIME=$SOURCE_DATE_EPOCH in_ns mkfs.ext4 -q -F -L kflavour -U "$uuid" \
	-E "hash_seed=$uuid" -d "$work/root" "$work/image.raw" "${mb}M" >> "$log" 2>&1 || rc=$?
if [ "$rc" != 0 ]; then
	failed "mkfs.ext4 -d of $flavour's system ($mb MiB)"
fi
# mkfs.ext4 -d (e2fsprogs 1.47.0) copies each file's ctime and atime, the
# time of this install: debugfs sets both to SOURCE_DATE_EPOCH in the
# image, as the mtimes are (a name debugfs cannot take is said in the log).
{
	echo "sif / ctime @$SOURCE_DATE_EPOCH"
	echo "sif / atime @$SOURCE_DATE_EPOCH"
	in_ns find "$work/root" -mindepth 1 -printf '%P\n' |
		awk -v e="$SOURCE_DATE_EPOCH" '{ printf "sif \"/%s\" ctime @%s\nsif \"/%s\" atime @%s\n", $0, e, $0, e }'
} > "$work/times.cmd"
rc=0
in_ns env E2FSPROGS_FAKE_TIME="$SOURCE_DATE_EPOCH" debugfs -w -f "$work/times.cmd" "$work/image.raw" \
	> "$work/times.log" 2>&1 || rc=$?
grep -v '^debugfs' "$work/times.log" >> "$log" || true
[ "$rc" = 0 ] || failed "debugfs setting the times of $flavour's image"
mv "$work/image.raw" "$work/out/image.raw"
end=$(date +%s.%N)

extra_args=()
for e in $KF_EXTRAS; do extra_args+=(--extra "${e#*:}"); done
for u in $KF_UNITS; do extra_args+=(--unit "$u"); done
"$KF_RECORD" --image --out "$work/out/image.json" --flavour "$flavour" --kver "$kver" \
	--rootfs-record "$KF_ROOTFS_REC" --deb "$deb" --package "$pkg" --version "$ver" \
	--release "$rel" --vmlinuz "$work/out/vmlinuz" --initrd "$work/out/initrd.img" \
	--initrd-list "$work/out/initrd.list" --builtin "$work/out/modules.builtin" \
	--root-driver "$drv" --image-file "$work/out/image.raw" --uuid "$uuid" \
	--seconds "$(echo "$end - $start" | bc)" "${extra_args[@]}" > "$work/out/summary"
echo "$stamp" > "$work/out/image.stamp"
rm -f "$work/out/modules.builtin" "$parent/system-install.log"
# Into place: two renames; a run stopped between them leaves no DIR, which
# the next run makes again.
[ ! -e "$dir" ] || mv "$dir" "$parent/.old-system.$$"
mv "$work/out" "$dir"
wipe "$parent/.old-system.$$"
echo "  SYSTEM  $flavour: $rel, $(cat "$dir/summary"), image $mb MiB in $(printf '%.0f' "$(echo "$end - $start" | bc)") s"
rm -f "$dir/summary"
