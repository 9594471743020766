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

say() { echo "  TREE    $kver: $*"; }
fail() { echo "kflavour: $*" >&2; exit 1; }

[ -r "$tarball" ] || fail "$tarball is missing; install it with: apt-get install $pkg"
mkdir -p "$kdir"

# Leftovers of an interrupted run (we hold the lock, so nobody else's).
rm -rf "$kdir"/.src.tmp.* "$kdir"/.src.old.*

series_hash() {
	(cat "$patchdir/series"
	 sed -e 's/#.*//' "$patchdir/series" | awk 'NF {print $1}' |
	 while read -r p; do
		[ -f "$patchdir/$p" ] || fail "$patchdir/series names $p, which does not exist; add it or drop the line"
		cat "$patchdir/$p"
	 done) | sha256sum | cut -d' ' -f1
}
sh=$(series_hash)
th=$(sha256sum "$tarball" | cut -d' ' -f1)
want="tarball=$th series=$sh"
if [ -d "$kdir/src" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	touch "$stamp"
	exit 0
fi

avail_mb=$(df -Pm "$kdir" | awk 'NR == 2 {print $4}')
if [ "$avail_mb" -lt "$need_mb" ]; then
	fail "not enough disk in $kdir to extract $pkg: need ${need_mb} MB, ${avail_mb} MB available; free space or use out=DIR"
fi

tmp=$kdir/.src.tmp.$$
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp"
say "extracting $tarball"
if ! tar -xJf "$tarball" -C "$tmp" --strip-components=1 2>"$tmp.err"; then
	cat "$tmp.err" >&2; rm -f "$tmp.err"
	fail "$tarball is corrupt; reinstall it with: apt-get install --reinstall $pkg"
fi
rm -f "$tmp.err"

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
done < <(sed -e 's/#.*//' "$patchdir/series")
say "applied $n patch(es) from $patchdir/series"

# Swap in the new tree; the old one is removed only after the swap.
[ -d "$kdir/src" ] && mv "$kdir/src" "$kdir/.src.old.$$"
mv "$tmp" "$kdir/src"
trap - EXIT
echo "$want" > "$stamp.tmp" && mv "$stamp.tmp" "$stamp"
rm -rf "$kdir/.src.old.$$"
