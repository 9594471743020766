#!/bin/bash
# linktree.sh FROM_KDIR TO_KDIR: give another out= directory (TO_KDIR is its
# <out>/<kver>) the prepared tree of FROM_KDIR, as hard links: no extraction,
# no extra disk, and a source path of its own. Safe because nothing writes
# to a prepared tree (Kbuild builds O=, prepare.sh replaces trees whole).
# The tree stamp is copied, so the tree stage sees the tree as prepared.
set -eo pipefail
from=$1 to=$2
[ -d "$from/src" ] && [ -s "$from/tree.stamp" ] ||
	{ echo "kflavour: no prepared tree in $from; run 'make tree' first" >&2; exit 1; }
mkdir -p "$to"
rm -rf "$to"/.src.link.*
if [ -d "$to/src" ] && cmp -s "$from/tree.stamp" "$to/tree.stamp"; then
	exit 0
fi
rm -rf "$to/src"
cp -al "$from/src" "$to/.src.link.$$"
mv "$to/.src.link.$$" "$to/src"
cp "$from/tree.stamp" "$to/tree.stamp.tmp.$$"
mv "$to/tree.stamp.tmp.$$" "$to/tree.stamp"
