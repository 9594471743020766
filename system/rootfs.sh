#!/bin/bash
# rootfs.sh key|make: the cached Debian root filesystem of the system boots
# (docs/system-boot.md, "The Debian system"). Glue around mmdebstrap; the
# record and the explanation of a failure are system-record's (C).
#
#   rootfs.sh key    print the tarball the inputs name: DIR/SUITE-HASH.tar
#   rootfs.sh make   make it unless it is there, then its record DIR/SUITE-HASH.json
#
# From the environment (system/system.mk): KF_ROOTFS_DIR (the cache, kver
# independent), KF_SUITE, KF_VARIANT, KF_INCLUDE (comma-separated),
# SOURCE_DATE_EPOCH, KF_RECORD (the system-record tool), KF_MMDEBSTRAP (the
# command, a test's stand-in).
#
# The name is the sha256 of every input: mmdebstrap's version, suite,
# variant, packages, SOURCE_DATE_EPOCH, the apt sources taken from this
# machine and the hooks below. Same inputs, same file: a second make
# downloads nothing. The tarball is written to a temporary name and renamed,
# under a lock on DIR/.lock; it is never written again (system images are
# made from copies: system/image.sh).
set -eo pipefail
mode=$1
dir=${KF_ROOTFS_DIR:?} suite=${KF_SUITE:?} variant=${KF_VARIANT:?} include=${KF_INCLUDE:?}
: "${SOURCE_DATE_EPOCH:?}"
export SOURCE_DATE_EPOCH
mmdebstrap=${KF_MMDEBSTRAP:-mmdebstrap}
die() { echo "kflavour: rootfs: $*" >&2; exit 2; }

# The machine's own apt sources of SUITE (SUITE, SUITE-updates,
# SUITE-security), one "deb URI SUITE COMPONENTS" line each, as apt itself
# lists them: the chroot fetches from the same mirrors as the machine.
sources=$(apt-get indextargets --format '$(SITE) $(RELEASE) $(COMPONENT)' 'Identifier: Packages' 2>/dev/null |
	awk -v s="$suite" '$2 == s || $2 == s "-updates" || $2 == s "-security" {
		k = $1 " " $2; if (!(k in c)) o[n++] = k; if (index(" " c[k] " ", " " $3 " ") == 0) c[k] = c[k] " " $3 }
		END { for (i = 0; i < n; i++) print "deb " o[i] c[o[i]] }') || true
[ -n "$sources" ] || die "this machine's apt sources have no $suite suite (apt-get indextargets lists none); add Debian $suite to /etc/apt/sources.list.d/ (deb http://deb.debian.org/debian $suite main), run apt-get update, then make again"

# The hooks, part of the name. resolv.conf and hostname are the host's
# otherwise (mmdebstrap copies them; SOURCE_DATE_EPOCH section of its man
# page), with the host's mode: the guest has no network, and one name on
# every machine.
hooks=('rm -f "$1/etc/resolv.conf"'
	'echo kflavour > "$1/etc/hostname" && chmod 0644 "$1/etc/hostname"')

version=$("$mmdebstrap" --version 2>/dev/null | head -n1) || die "cannot run $mmdebstrap --version; install it: apt-get install mmdebstrap (make deps)"
key=$(printf '%s\n' "$version" "suite=$suite" "variant=$variant" "include=$include" \
	"epoch=$SOURCE_DATE_EPOCH" "$sources" "${hooks[@]}" | sha256sum | cut -c1-16)
name=$suite-$key
tar=$dir/$name.tar
if [ "$mode" = key ]; then
	echo "$tar"
	exit 0
fi
[ "$mode" = make ] || die "usage: rootfs.sh key|make"
: "${KF_RECORD:?}"

mkdir -p "$dir" || die "cannot create the root filesystem cache $dir; choose rootfs= a directory you can write"
exec 8>> "$dir/.lock" || die "cannot open the lock $dir/.lock; choose rootfs= a directory you can write"
if ! flock -n 8; then
	echo "kflavour: rootfs: $dir is in use by another make; waiting for it..." >&2
	flock 8
fi

record() {
	"$KF_RECORD" --rootfs --out "$dir/$name.json" --tar "$tar" --suite "$suite" \
		--variant "$variant" --include "$include" --mmdebstrap "$version" \
		--epoch "$SOURCE_DATE_EPOCH" --key "$key" --sources <(printf '%s\n' "$sources") "$@"
}
# Under the lock, a temporary file or work directory is a dead run's: it
# goes before anything else. Its chroot may hold files of the unshared
# user's subordinate ids, which only that namespace can remove.
# mmdebstrap's temporary chroot is made in TMPDIR, here under DIR: an
# interrupted run leaves it where the next one clears it, and a disk that
# fills is the cache's disk, named in the error.
wipe() {
	[ -e "$1" ] || return 0
	rm -rf "$1" 2>/dev/null || "$mmdebstrap" --unshare-helper rm -rf "$1" 2>/dev/null || rm -rf "$1"
}
for f in "$dir"/.tmp-* "$dir/.work"; do wipe "$f"; done

# Made before, by this make or another: a record is all it may lack (a make
# stopped between the rename and the record).
if [ -f "$tar" ]; then
	[ -s "$dir/$name.json" ] || record
	echo "  ROOTFS  $name (cached: $tar)"
	exit 0
fi

mkdir -p "$dir/.work"
# In unshare mode the unshared user writes the chroot there (mmdebstrap(1),
# TMPDIR).
chmod 0777 "$dir/.work"
tmp=$dir/.tmp-$name.$$
log=$dir/$name.log
trap 'wipe "$tmp"; wipe "$dir/.work"' EXIT
trap 'exit 130' INT TERM

echo "  ROOTFS  $name: mmdebstrap $suite --variant=$variant --include=$include (a few minutes, mostly download)"
hookargs=()
for h in "${hooks[@]}"; do hookargs+=(--customize-hook="$h"); done
start=$(date +%s.%N)
# Unshare mode as root too: the user namespace is then not unshared, the
# mount, pid and other namespaces are (mmdebstrap(1)): the same steps as an
# ordinary user's, and nothing mounted on the host. /dev's nodes are left
# out of the tarball: an ordinary user's tar-in cannot make them, and the
# guest's devtmpfs holds them.
rc=0
: > "$log"
TMPDIR=$dir/.work "$mmdebstrap" --mode=unshare --variant="$variant" --include="$include" \
	"${hookargs[@]}" "$suite" - - \
	< <(printf '%s\n' "$sources") 2>> "$log" |
	mmtarfilter --path-exclude='/dev/*' 2>> "$log" > "$tmp" || rc=$?
if [ "$rc" != 0 ] || [ ! -s "$tmp" ]; then
	"$KF_RECORD" --explain "$log" --what "mmdebstrap $suite for $tar" --dir "$dir" \
		--user "$(id -un)" || true
	exit 2
fi
end=$(date +%s.%N)
mv -f "$tmp" "$tar"
# The cache is read-only from now on: a copy is what an image changes.
chmod a-w "$tar"
record --seconds "$(echo "$end - $start" | bc)" --log "$log"
echo "  ROOTFS  $name: $(du -h "$tar" | cut -f1) in $(printf '%.0f' "$(echo "$end - $start" | bc)") s"
