#!/bin/bash
# seed.sh FROM TO: start Kbuild O= directory TO as a copy of the finished
# build in FROM, so that Kbuild's own dependency tracking makes the next
# build there incremental. Not copied: FROM's boot records, logs and stamps.
# FROM's path is moved to TO in the .cmd files that name it (and tools/'
# .d files), in its three forms, by bisect-cmdpaths (bisect/cmdpaths.c says
# why and how), from $KF_TOOLS (make's $(tools); default the checkout's
# out/tools).
# The copy keeps each file's mtime to the nanosecond (tar's POSIX format):
# a ccache hit writes an object within the second of its sources, and
# mtimes cut to the second would make make rebuild it, objtool with it, and
# with objtool every kernel object.
# Atomic: TO appears complete or not at all.
set -eo pipefail
from=${1%/} to=${2%/}
[ -f "$from/.config" ] || { echo "seed.sh: $from has no build to copy" >&2; exit 1; }
# The tool is make's to build: make bisect has; run alone, it is made here.
top=$(cd "$(dirname "$0")/.." && pwd)
tools=${KF_TOOLS:-$top/out/tools}
cmdpaths=$tools/bisect-cmdpaths
[ -x "$cmdpaths" ] || make -s -C "$top" out="${tools%/tools}" "$cmdpaths" >&2 ||
	{ echo "seed.sh: $cmdpaths could not be built (above); run 'make $cmdpaths'" >&2; exit 2; }
rm -rf "$to.tmp"
trap 'rm -rf "$to.tmp"' EXIT
mkdir -p "$to.tmp"
tar -C "$from" --format=posix --exclude=./boot --exclude='./build.*' --exclude='./ccache*' \
	--exclude='./config.*' -cf - . | tar -C "$to.tmp" -xf -

"$cmdpaths" "$from" "$to" "$to.tmp"
rm -rf "$to"
mv "$to.tmp" "$to"
