#!/bin/bash
# seed.sh FROM TO: start Kbuild O= directory TO as a copy of the finished
# build in FROM, so that Kbuild's own dependency tracking makes the next
# build there incremental. Not copied: FROM's boot records, logs and stamps.
# tools/objtool is built by tools/build, whose .cmd files name their targets
# by absolute path: those paths are moved to TO, or objtool would be built
# again, and every kernel object depends on the objtool binary's mtime.
# Atomic: TO appears complete or not at all.
set -eo pipefail
from=${1%/} to=${2%/}
[ -f "$from/.config" ] || { echo "seed.sh: $from has no build to copy" >&2; exit 1; }
rm -rf "$to.tmp"
mkdir -p "$to.tmp"
tar -C "$from" --exclude=./boot --exclude='./build.*' --exclude='./ccache*' \
	--exclude='./config.*' -cf - . | tar -C "$to.tmp" -xf -
grep -rlF --include='*.cmd' --include='*.d' "$from/" "$to.tmp/tools" 2>/dev/null |
	while IFS= read -r f; do
		# sed -i would give the file a new mtime: keep the old one.
		touch -r "$f" "$f.mtime" && sed -i "s#$from/#$to/#g" "$f" && touch -r "$f.mtime" "$f" && rm "$f.mtime"
	done
rm -rf "$to"
mv "$to.tmp" "$to"
