#!/bin/bash
# refresh.sh copy KDIR      take the fixture's records and logs from the
#                           out/<kver>/ of a real 'make' (KDIR), unchanged
# refresh.sh replay OUT     remake them with the current tools of the
#                           out= OUT (after 'make' there): the audit on the
#                           recorded .config, the runner's parser on the
#                           recorded logs (boot-runner --replay), and
#                           the flavour records (refresh.sh flavours)
# refresh.sh flavours TOOLS each flavour's flavour.json, as the config stage
#                           writes it (TOOLS/config-flavours --record), from
#                           the fixture's recipes, fragments and cpu-models
# The fixture and the one mechanical step (build.json) are in the README.
set -eo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fx=out/6.1
# What the fixture holds: generic and mpsc built and booted, k8 only
# configured (a half-finished out/ is part of what the report must show).
boots="generic/boot/qemu64 generic/boot/nocona mpsc/boot/nocona mpsc/boot/qemu64 mpsc/boot/i686"
configs="generic k8 mpsc"
builds="generic mpsc"
arg=$(realpath "${2:-.}")	# before the cd
cd "$here"
case $1 in
copy)
	kdir=$arg
	rm -rf "$fx"
	for f in $configs; do
		mkdir -p "$fx/$f"
		cp "$kdir/$f/.config" "$kdir/$f/config.json" "$fx/$f/"
	done
	for f in $builds; do cp "$kdir/$f/build.json" "$fx/$f/"; done
	for b in $boots; do
		mkdir -p "$fx/$(dirname "$b")"
		cp "$kdir/$b.json" "$kdir/$b.log" "$fx/$(dirname "$b")/"
	done
	;;
flavours)
	# config-flavours reads flavours/, fragments/ and boot/cpu-models of
	# the directory it runs in: the fixture's copies, through links.
	tools=$arg tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	mkdir "$tmp/boot"
	ln -s "$here/flavours" "$here/fragments" "$tmp/"
	ln -s "$here/cpu-models" "$tmp/boot/cpu-models"
	for f in $configs; do
		(cd "$tmp" && "$tools/config-flavours" --record 6.1 "$f" "$here/$fx/$f/flavour.json")
	done
	;;
replay)
	out=$arg
	"$here/refresh.sh" flavours "$out/tools"
	for f in $configs; do
		frags=$(sed -n 's/^fragments *= *//p' "flavours/$f.flavour" | xargs printf 'fragments/%s.config ')
		# shellcheck disable=SC2086 # one word per fragment
		"$out/6.1/tools/config-audit" --srctree "$out/6.1/src" --config "$fx/$f/.config" --flavour "$f" \
			--json "$fx/$f/config.json" --renames fragments/renames \
			--needs fragments/systemd.needs $frags > /dev/null
	done
	# build.json cannot be remade without the build: the header is added
	# to a record from before it (format 0), nothing else changes.
	for f in $builds; do
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
if "format" not in r:
    r = {"record": "build", "format": 1, "flavour": r.pop("flavour"),
         "kver": r.pop("kver"), "release": r.pop("release"), **r}
open(sys.argv[1], "w").write(json.dumps(r, indent=2) + "\n")' "$fx/$f/build.json"
	done
	for b in $boots; do "$out/tools/boot-runner" --replay "$fx/$b.json"; done
	;;
*)
	echo "usage: $0 copy KDIR | replay OUT | flavours TOOLS (tests/data/report/README)" >&2
	exit 2
	;;
esac
