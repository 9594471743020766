#!/bin/bash
# seed.sh FROM TO: start Kbuild O= directory TO as a copy of the finished
# build in FROM, so that Kbuild's own dependency tracking makes the next
# build there incremental. Not copied: FROM's boot records, logs and stamps.
# FROM's path is moved to TO in the .cmd files that name it, or Kbuild would
# build again what they describe: every kernel object's command maps the O=
# directory in its debug information (-fdebug-prefix-map=FROM=.,
# build/build.mk); Kbuild reads those files, never their mtimes. Under
# tools/, tools/build's .cmd and .d files name objtool's targets by absolute
# path, and keep their mtimes (every kernel object depends on the objtool
# binary's).
# A path is written in three forms: build.mk's as make's $(abspath) gives it
# (the out= given, through any symbolic link), Kbuild's and tools/' as the
# kernel's Makefile resolves O= (no link), and, where ccache compiled a tool
# (CCACHE_BASEDIR=<out>/<kver>, build/build.mk), relative to the tool's
# source directory: ../../../FROM/tools/... All three are moved.
# The copy keeps each file's mtime to the nanosecond (tar's POSIX format):
# a ccache hit writes an object within the second of its sources, and
# mtimes cut to the second would make make rebuild it, objtool with it, and
# with objtool every kernel object.
# Atomic: TO appears complete or not at all.
set -eo pipefail
from=${1%/} to=${2%/}
[ -f "$from/.config" ] || { echo "seed.sh: $from has no build to copy" >&2; exit 1; }
rm -rf "$to.tmp"
mkdir -p "$to.tmp"
tar -C "$from" --format=posix --exclude=./boot --exclude='./build.*' --exclude='./ccache*' \
	--exclude='./config.*' -cf - . | tar -C "$to.tmp" -xf -

# abs DIR [-P]: DIR's absolute path, logical (as given) or physical (-P).
abs() { (cd $2 "$(dirname "$1")" && echo "$(pwd $2)/$(basename "$1")"); }
# quote for a sed pattern and a replacement: no character of a path is special.
pat() { sed 's/[]\/$*.^#[]/\\&/g' <<< "$1"; }
rep() { sed 's/[\/&#]/\\&/g' <<< "$1"; }
moved= strings=()
for p in '' -P; do
	f=$(abs "$from" $p) t=$(abs "$to" $p)
	moved="$moved s#$(pat "$f")\([/=]\)#$(rep "$t")\1#g;"
	strings+=("$f")
done
# The relative form: FROM and TO are siblings, <out>/<kver>/<flavour>.
if [ "$(dirname "$(abs "$from")")" = "$(dirname "$(abs "$to")")" ]; then
	f=${from##*/} t=${to##*/}
	moved="$moved s#\(\.\./\)$(pat "$f")/#\1$(rep "$t")/#g;"
	strings+=("../$f/")
fi
names=()
for s in "${strings[@]}"; do names+=(-e "$s"); done

{ grep -rlFZ --include='*.cmd' --exclude-dir=tools "${names[@]}" "$to.tmp" || [ $? = 1 ]; } |
	xargs -0r sed -i "$moved"
[ ! -d "$to.tmp/tools" ] ||
{ grep -rlF --include='*.cmd' --include='*.d' "${names[@]}" "$to.tmp/tools" || [ $? = 1 ]; } |
	while IFS= read -r f; do
		# sed -i would give the file a new mtime: keep the old one.
		touch -r "$f" "$f.mtime" && sed -i "$moved" "$f" && touch -r "$f.mtime" "$f" && rm "$f.mtime"
	done
rm -rf "$to"
mv "$to.tmp" "$to"
