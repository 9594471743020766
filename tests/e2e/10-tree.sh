#!/bin/bash
# Tree stage: extraction and patching are atomic and stamped; bad patches and
# bad tarballs fail clearly and leave the previous tree in use. A tiny
# tarball stands in for linux-source so each case takes seconds.
. tests/lib.sh
. tests/scratch.sh

co=$kf_tmp/co
o=$kf_tmp/out
scratch_checkout "$co"
mkdir -p "$kf_tmp/t/linux-source-6.1"
printf 'VERSION = 6\nPATCHLEVEL = 1\n' > "$kf_tmp/t/linux-source-6.1/Makefile"
printf 'hello\n' > "$kf_tmp/t/linux-source-6.1/README"
tar -C "$kf_tmp/t" -cJf "$kf_tmp/tiny.tar.xz" linux-source-6.1
: > "$co/patches/6.1/series"
mk() { make -C "$co" tree kver=6.1 out="$o" tarball="$kf_tmp/tiny.tar.xz" "$@"; }

check "fresh make tree extracts into out/6.1/src" mk
check_eq "extracted README" "$(cat "$o/6.1/src/README")" hello

# No-op: judged by what it did, not by a clock (its speed is make bench's).
t0=$(stat -c %y "$o/6.1/tree.stamp" "$o/6.1/src/README")
mk > "$kf_tmp/noop.out" 2>&1
if ! grep -q extracting "$kf_tmp/noop.out" && [ "$(stat -c %y "$o/6.1/tree.stamp" "$o/6.1/src/README")" = "$t0" ]; then
	ok "second make tree is a no-op (nothing extracted, stamp untouched)"
else
	not_ok "second make tree is a no-op"; diag < "$kf_tmp/noop.out"
fi

cat > "$co/patches/6.1/0001-greet.patch" <<'P'
Subject: [PATCH] README: greet the world

Signed-off-by: kflavour tests <kflavour@example.org>
---
--- a/README
+++ b/README
@@ -1 +1 @@
-hello
+hello world
P
echo 0001-greet.patch > "$co/patches/6.1/series"
check "adding a patch re-prepares the tree" mk
check_eq "patched README" "$(cat "$o/6.1/src/README")" "hello world"
good=$(sha "$o/6.1/src/README")
stamp=$(sha "$o/6.1/tree.stamp")

# A patch whose context does not match: the error names it and its hunk.
cat > "$co/patches/6.1/0002-bad.patch" <<'P'
Subject: [PATCH] README: a patch against another tree

--- a/README
+++ b/README
@@ -1 +1 @@
-goodbye
+farewell
P
echo 0002-bad.patch >> "$co/patches/6.1/series"
check_fails "a patch that does not apply is named with its failing hunk" 2 \
	'0002-bad.patch does not apply.*' mk
grep -q 'Hunk #1 FAILED' "$kf_tmp/last.out" && ok "failing hunk shown" || not_ok "failing hunk shown"
check_eq "previous tree still there after a bad patch" "$(sha "$o/6.1/src/README")" "$good"
check_eq "stamp unchanged after a bad patch" "$(sha "$o/6.1/tree.stamp")" "$stamp"
check_eq "no half-patched directory left" "$(ls -d "$o"/6.1/.src.* 2>/dev/null | wc -l)" 0
echo 0001-greet.patch > "$co/patches/6.1/series"

check_fails "a series naming a missing patch is an error" 2 \
	'series names 0009-gone.patch, which does not exist' \
	bash -c "echo 0009-gone.patch >> '$co/patches/6.1/series' && make -C '$co' tree out='$o' tarball='$kf_tmp/tiny.tar.xz'"
echo 0001-greet.patch > "$co/patches/6.1/series"

head -c 100 "$kf_tmp/tiny.tar.xz" > "$kf_tmp/corrupt.tar.xz"
check_fails "a corrupt tarball names the package to reinstall" 2 \
	'corrupt; reinstall it with: apt-get install --reinstall linux-source-6.1' \
	make -C "$co" tree out="$o" tarball="$kf_tmp/corrupt.tar.xz"
check_eq "previous tree intact after a corrupt tarball" "$(sha "$o/6.1/src/README")" "$good"

check_fails "a missing tarball names the package to install" 2 \
	'install it with: apt-get install linux-source-6.1' \
	make -C "$co" tree out="$kf_tmp/out2" tarball="$kf_tmp/none.tar.xz"

check_fails "short disk stops before extracting, with the figures" 2 \
	'not enough disk .* need 99999999 MB, [0-9]+ MB available' \
	make -C "$co" tree out="$kf_tmp/out3" tarball="$kf_tmp/tiny.tar.xz" KF_NEED_MB=99999999
check_eq "nothing extracted when disk is short" "$(ls "$kf_tmp/out3/6.1" 2>/dev/null | grep -c src)" 0

done_testing
