#!/bin/bash
# make deb, reproducible (issue 46): tiny-systemd packaged in make check's
# out= (tests/e2e/32-deb.sh) and again from a second build in another out=
# directory, without ccache (every object from the compiler, another source
# and O= path): the image and linux-libc-dev packages byte-identical, the
# headers package different only in Kbuild's .cmd files, objtool (its debug
# info) and devicetable-offsets.s (its option list), which name the source
# path: the host programs under scripts/ are the same. First, make
# build and make deb in one O=: a make build after a make deb gives the
# bzImage it gave before. Too slow for make check: a whole build of a
# flavour with modules. docs/system-boot.md, "Packages".
. tests/lib.sh
o=$KF_OUT
f=tiny-systemd
# The second out= stays when a check fails, and a run after that reuses its
# build (it is still one without ccache, checked below).
o2=$o/deb-repro
# make build and make deb in one O=: the release switches (release.want),
# and a make build after a make deb gives the bzImage it gave before it.
rel() { jq -r '"\(.release) \(.bzimage_sha256)"' "$o/6.1/$f/build.json"; }
check "make build flavour=$f modules=1" make build flavour=$f modules=1 out="$o"
before=$(rel)
check "make deb flavour=$f (make check's out=)" make deb flavour=$f out="$o"
case $(rel) in *-kf-$f" "*) ok "make deb: build.json has the release naming the flavour" ;;
*) not_ok "make deb: build.json has the release naming the flavour ($(rel))" ;; esac
check "make build flavour=$f modules=1, after make deb" make build flavour=$f modules=1 out="$o"
check_eq "make build after make deb: the tree's release and the same bzImage as before" "$(rel)" "$before"
case $before in *-kf-*) not_ok "make build's release is the tree's ($before)" ;; *) ok "make build's release is the tree's" ;; esac
check "make deb flavour=$f again" make deb flavour=$f out="$o"
check "the tree linked into a second out=" build/linktree.sh "$o/6.1" "$o2/6.1"
start=$SECONDS
# Its packages made afresh: a run after a failed one reuses the build only.
rm -f "$o2/6.1/$f/deb.stamp"
check "make deb flavour=$f in the second out=, CCACHE=0" make deb flavour=$f out="$o2" CCACHE=0
grep -E '^  (BUILD|DEB) ' "$kf_tmp/last.out" | diag
diag <<< "the second build and packages took $((SECONDS - start)) s"
j1=$o/6.1/$f/deb/deb.json j2=$o2/6.1/$f/deb/deb.json
check "the second build compiled every object (no ccache)" \
	jq -e '.ccache.enabled == false and ([.compiled, .last_full_build.compiled] | max) > 500' \
	"$o2/6.1/$f/build.json"
# The image and linux-libc-dev packages are the same bytes. The headers
# package is the O='s scripts/ and include/ as builddeb finds them: what an
# external module's build reads (include/, arch/x86/include/, .config,
# Module.symvers) is the same, but Kbuild's .cmd files (and
# include/config/auto.conf.cmd, the Kconfig files read) name the source path,
# as given (this out='s) or as ccache rewrote it (../src); so do objtool,
# built with -g (its debug info), and scripts/mod/devicetable-offsets.s,
# whose header lists gcc's options, the path maps among them. Only those may
# differ: the host programs under scripts/ name no tree (build/build.mk,
# kbuild_hostmap; docs/system-boot.md, "Packages").
sums() { jq -r '.packages[] | select(.kind != "headers") | "\(.file) \(.bytes) \(.sha256)"' "$1"; }
check_eq "the image and linux-libc-dev packages byte-identical (name, size, sha256)" "$(sums "$j2")" "$(sums "$j1")"
n=0 want=0
while read -r p1; do
	want=$((want + 1))
	cmp -s "$p1" "$o2/6.1/$f/deb/$(basename "$p1")" && n=$((n + 1)) ||
		cmp "$p1" "$o2/6.1/$f/deb/$(basename "$p1")" 2>&1 | diag
done < <(jq -r '.packages[] | select(.kind != "headers") | .path' "$j1")
check_eq "cmp: the same bytes" "$n" "$want"
h1=$(jq -r '.packages[] | select(.kind == "headers") | .path' "$j1")
h2=$o2/6.1/$f/deb/$(basename "$h1")
mkdir -p "$kf_tmp/h1" "$kf_tmp/h2"
dpkg-deb -x "$h1" "$kf_tmp/h1" && dpkg-deb -x "$h2" "$kf_tmp/h2"
check_eq "the headers packages hold the same files" \
	"$(cd "$kf_tmp/h2" && find . | sort | md5sum)" "$(cd "$kf_tmp/h1" && find . | sort | md5sum)"
differ=$(diff -rq "$kf_tmp/h1" "$kf_tmp/h2" 2>/dev/null | sed -n "s|^Files $kf_tmp/h1/usr/src/linux-headers-[^/]*/\(.*\) and .* differ$|\1|p")
other=$(grep -vE '\.cmd$|^scripts/mod/devicetable-offsets\.s$|^tools/objtool/objtool$' <<< "$differ" || true)
diag <<< "headers: $(grep -c . <<< "$differ") files differ, $(grep -c '\.cmd$' <<< "$differ") of them .cmd files: $(grep -v '\.cmd$' <<< "$differ" | tr '\n' ' ')"
check_eq "the headers differ only in Kbuild's .cmd files, objtool and devicetable-offsets.s" "$other" ""
[ "$kf_failed" = 0 ] && rm -rf "$o2"
done_testing
