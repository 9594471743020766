#!/bin/bash
# prepare.sh KVER TARBALL PATCHDIR KDIR: extract TARBALL and apply the quilt
# series PATCHDIR/series into KDIR/src, atomically: all of it happens in a
# temporary directory that is renamed into place only when every patch
# applied. KDIR/tree.stamp records the inputs' hashes; when they are unchanged
# the tree is left alone. A failure leaves the previous tree as it was.
set -eo pipefail
kver=$1 tarball=$2 patchdir=$3 kdir=$4
stamp=$kdir/tree.stamp
pkg=linux-source-$kver
need_mb=${KF_NEED_MB:-1800}
# linux-source-6.12 holds about 90,000 files and directories.
need_inodes=${KF_NEED_INODES:-100000}

say() { echo "  TREE    $kver: $*"; }
fail() { echo "kflavour: $*" >&2; exit 1; }

[ -r "$tarball" ] || fail "$tarball is missing; install it with: apt-get install $pkg"
mkdir -p "$kdir"

# Leftovers of an interrupted run (we hold the lock, so nobody else's).
rm -rf "$kdir"/.src.tmp.* "$kdir"/.src.old.*

# The series' patches, one "PATCH [-pN]" line each, from tree/series.sh,
# the one reading of a series file: read once here, for the hash and the
# patching.
series=$("$(dirname "$0")/series.sh" "$patchdir/series")
series_hash() {
	(cat "$patchdir/series"
	 while read -r p _; do
		[ -n "$p" ] || continue
		[ -f "$patchdir/$p" ] || fail "$patchdir/series names $p, which does not exist; add it or drop the line"
		cat "$patchdir/$p"
	 done <<< "$series") | sha256sum | cut -d' ' -f1
}
sh=$(series_hash)
th=$(sha256sum "$tarball" | cut -d' ' -f1)
want="tarball=$th series=$sh"
if [ -d "$kdir/src" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	touch "$stamp"
	exit 0
fi

# What the file system holding KDIR has free: "MB inodes" (inodes "-" when
# it does not count them, as btrfs).
free_now() {
	echo "$(df -Pm "$kdir" | awk 'NR == 2 {print $4}') $(df -Pi "$kdir" | awk 'NR == 2 {print ($2 > 0 ? $4 : "-")}')"
}
read -r avail_mb avail_inodes <<< "$(free_now)"
if [ "$avail_mb" -lt "$need_mb" ]; then
	fail "not enough disk in $kdir to extract $pkg: need ${need_mb} MB, ${avail_mb} MB available; free space or use out=DIR"
fi
if [ "$avail_inodes" != - ] && [ "$avail_inodes" -lt "$need_inodes" ]; then
	fail "not enough inodes in $kdir to extract $pkg: need $need_inodes, $avail_inodes free; delete files there or use out=DIR on another file system"
fi

tmp=$kdir/.src.tmp.$$
# tar's errors go outside KDIR: a full KDIR could not take them.
errf=$(mktemp)
trap 'rm -rf "$tmp" "$errf"' EXIT
if ! err=$(mkdir "$tmp" 2>&1); then
	case $err in
	*"Read-only file system"*) fail "$kdir is on a read-only file system; cannot extract $pkg there; use out=DIR on a writable one" ;;
	*) fail "cannot write in $kdir (${err##*: }); use out=DIR you can write" ;;
	esac
fi
say "extracting $tarball"
# tar's own errors can run to thousands of lines: the cause is classified
# and the first few shown. The archive is called corrupt only when it fails
# its own test (xz -t).
if ! tar -xJf "$tarball" -C "$tmp" --strip-components=1 2>"$errf"; then
	read -r free_mb free_inodes <<< "$(free_now)"
	head -n 3 "$errf" >&2
	n=$(wc -l < "$errf")
	[ "$n" -le 3 ] || echo "  ... and $((n - 3)) more lines of tar errors" >&2
	# A short write ("Wrote only N of M bytes") is tar's word for a full disk.
	if grep -qE 'No space left on device|Wrote only [0-9]+ of' "$errf"; then
		if [ "$free_inodes" = 0 ]; then
			fail "inodes exhausted in $kdir while extracting $pkg: 0 free now, about $need_inodes needed; delete files there or use out=DIR on another file system"
		fi
		fail "disk full in $kdir while extracting $pkg: $free_mb MB free now, about $need_mb MB needed; free space or use out=DIR"
	elif grep -q 'Disk quota exceeded' "$errf"; then
		fail "disk quota exceeded in $kdir while extracting $pkg: about $need_mb MB and $need_inodes inodes needed; raise the quota or use out=DIR"
	elif grep -q 'Read-only file system' "$errf"; then
		fail "$kdir is on a read-only file system; cannot extract $pkg there; use out=DIR on a writable one"
	elif ! xz -t "$tarball" 2>/dev/null; then
		fail "$tarball is corrupt; reinstall it with: apt-get install --reinstall $pkg"
	fi
	fail "extracting $tarball into $kdir failed (tar's errors above), though the archive tests good; check that file system"
fi
rm -f "$errf"
trap 'rm -rf "$tmp"' EXIT

n=0
while read -r p opt; do
	[ -n "$p" ] || continue
	# quilt series lines may carry a -pN option; -p1 is the default
	level=${opt:--p1}
	if ! out=$(patch -d "$tmp" "$level" --forward --batch --no-backup-if-mismatch -r - < "$patchdir/$p" 2>&1); then
		echo "$out" | grep -E 'FAILED|can.t find file|malformed|Only garbage|Reversed|patching file' >&2 || echo "$out" >&2
		fail "$patchdir/$p does not apply to $pkg (hunks above); the previous tree in $kdir/src is unchanged"
	fi
	n=$((n + 1))
done <<< "$series"
say "applied $n patch(es) from $patchdir/series"

# Swap in the new tree; the old one is removed only after the swap.
[ -d "$kdir/src" ] && mv "$kdir/src" "$kdir/.src.old.$$"
mv "$tmp" "$kdir/src"
trap - EXIT
echo "$want" > "$stamp.tmp" && mv "$stamp.tmp" "$stamp"
rm -rf "$kdir/.src.old.$$"
