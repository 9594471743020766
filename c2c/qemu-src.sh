#!/bin/bash
# qemu-src.sh DIR VERSION: the files c2c needs from Debian's qemu source
# package VERSION (the installed qemu-system-x86's source version), into
# DIR (c2c/qemu-src.mk). apt-get with a project-local sources list and
# lists directory under DIR/../apt: nothing in /etc changes, and it works
# as any user. Only what the plugins need is kept; DIR appears whole or not
# at all (extracted beside it, then renamed).
set -eo pipefail
dir=$1 version=$2
files="include/qemu/qemu-plugin.h tests/plugin/insn.c tests/plugin/mem.c"
apt=$(dirname "$dir")/apt
. /etc/os-release
suite=${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}
mirror=${KF_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${KF_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

mkdir -p "$apt/parts" "$apt/lists/partial" "$apt/cache/archives/partial"
# The same suites as the binary packages come from, as deb-src.
cat > "$apt/parts/kflavour-src.sources" <<SRC
Types: deb-src
URIs: $mirror
Suites: $suite $suite-updates
Components: main
Signed-By: $keyring

Types: deb-src
URIs: $security
Suites: $suite-security
Components: main
Signed-By: $keyring
SRC
opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$apt/parts"
      -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
      -o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)")
fail() {
	echo "kflavour: $*" >&2
	exit 2
}
apt-get "${opts[@]}" -q update > "$apt/update.log" 2>&1 ||
	fail "apt-get update of the deb-src lists in $apt/parts failed (log: $apt/update.log); check the network, or set KF_DEBIAN_MIRROR= to a reachable Debian mirror"
tmp=$dir.tmp.$$
trap 'rm -rf "$tmp"' EXIT
rm -rf "$tmp" && mkdir -p "$tmp/dl"
(cd "$tmp/dl" && apt-get "${opts[@]}" -q source --download-only "qemu=$version") > "$apt/source.log" 2>&1 ||
	fail "cannot fetch Debian's source package qemu=$version (log: $apt/source.log); it is the source of the installed qemu-system-x86: upgrade qemu-system-x86 to a version the mirror has (apt-get install qemu-system-x86), or set KF_DEBIAN_MIRROR= to a mirror (snapshot.debian.org) that has it"
orig=$(ls "$tmp"/dl/qemu_*.orig.tar.* 2>/dev/null | head -n 1)
deb=$(ls "$tmp"/dl/qemu_*.debian.tar.* 2>/dev/null | head -n 1)
[ -n "$orig" ] && [ -n "$deb" ] || fail "qemu=$version: no orig and debian tarball in $tmp/dl; see $apt/source.log"
# Any top directory: qemu-7.2.0/ in 7.2's.
mkdir "$tmp/src"
tar -xf "$orig" -C "$tmp/src" --wildcards --no-wildcards-match-slash $(printf "*/%s " $files)
top=src/$(ls "$tmp/src")
# Debian's patches must not change these files, or the orig tarball's
# copies are not what the installed QEMU was built from.
pat=$(printf '%s|' $files)
if tar -xOf "$deb" --wildcards 'debian/patches/*' 2>/dev/null | grep -E "^\+\+\+ [^ ]*(${pat%|})" >&2; then
	fail "qemu=$version: Debian's patches change the plugin files above; c2c/qemu-src.sh would have to apply them first"
fi
mkdir -p "$tmp/out"
for f in $files; do
	mkdir -p "$tmp/out/$(dirname "$f")"
	mv "$tmp/$top/$f" "$tmp/out/$f"
done
echo "$version" > "$tmp/out/VERSION"
rm -rf "$dir"
mv "$tmp/out" "$dir"
