#!/bin/bash
# repro.sh MAKE TOP OUT KVER FLAVOUR: 'make check-repro' for one flavour.
# Two builds without ccache in two out= directories must give the same
# bzImage. The first is OUT's own build when every object in it came from
# the compiler, none from ccache (build-facts --from-compiler); otherwise
# OUT/repro/1. The second is always OUT/repro/2: an interrupted second
# build resumes there (tests/e2e/30-build.sh).
set -eo pipefail
make=$1 top=$2 out=$3 kver=$4 f=$5
kdir=$out/$kver
say() { echo "  REPRO   $f: $*"; }

build_in() {	# build_in OUTDIR: FLAVOUR built there, compiler only
	"$top/build/linktree.sh" "$kdir" "$1/$kver"
	say "building in $1 (CCACHE=0)"
	# Another out=: the nested make takes that out='s lock itself (Makefile).
	$make -C "$top" build flavour="$f" kver="$kver" out="$1" CCACHE=0 DISTCC_HOSTS=
}

if "$out/tools/build-facts" --from-compiler --odir "$kdir/$f"; then
	first=$kdir/$f
	say "first build: $first (every object from the compiler, no ccache hit)"
else
	build_in "$out/repro/1"
	first=$out/repro/1/$kver/$f
fi
build_in "$out/repro/2"
second=$out/repro/2/$kver/$f

a=$first/arch/x86/boot/bzImage b=$second/arch/x86/boot/bzImage
if cmp -s "$a" "$b"; then
	say "bzImage byte-identical: $(stat -c %s "$a") bytes, sha256 $(sha256sum < "$a" | cut -c1-16)..."
	say "  $a"
	say "  $b"
	exit 0
fi
echo "kflavour: $f is not reproducible: $a and $b differ" >&2
cmp "$a" "$b" >&2 || true
echo "kflavour: compare the builds with: diffoscope $first/vmlinux $second/vmlinux" >&2
exit 1
