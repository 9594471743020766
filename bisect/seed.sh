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
# Atomic: TO appears complete or not at all.
set -eo pipefail
from=${1%/} to=${2%/}
[ -f "$from/.config" ] || { echo "seed.sh: $from has no build to copy" >&2; exit 1; }
rm -rf "$to.tmp"
mkdir -p "$to.tmp"
tar -C "$from" --exclude=./boot --exclude='./build.*' --exclude='./ccache*' \
	--exclude='./config.*' -cf - . | tar -C "$to.tmp" -xf -
moved="s#$from\([/=]\)#$to\1#g"
{ grep -rlFZ --include='*.cmd' --exclude-dir=tools -- "$from" "$to.tmp" || [ $? = 1 ]; } |
	xargs -0r sed -i "$moved"
grep -rlF --include='*.cmd' --include='*.d' "$from" "$to.tmp/tools" 2>/dev/null |
	while IFS= read -r f; do
		# sed -i would give the file a new mtime: keep the old one.
		touch -r "$f" "$f.mtime" && sed -i "$moved" "$f" && touch -r "$f.mtime" "$f" && rm "$f.mtime"
	done
rm -rf "$to"
mv "$to.tmp" "$to"
