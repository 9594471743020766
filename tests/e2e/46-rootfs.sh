#!/bin/bash
# The Debian system's root filesystem (issue 46; docs/system-boot.md, "The
# Debian system"): make rootfs makes the cached bookworm root filesystem
# with mmdebstrap (a few minutes the first time, mostly download) and
# reuses it: the second make downloads nothing (it runs with no network at
# all). Bad input, each one line naming what and the fix, the cached root
# filesystem intact, nothing left behind: an interrupted mmdebstrap, no
# mirror, an ordinary user with no subordinate ids; two makes sharing one
# cache make it once (more in tests/slow/46-system.sh).
# The cache is the one tests/e2e/46-sysinstall.sh and 47-sysboot use,
# tests/lib.sh's kf_system_out/rootfs, but the makes here run on $KF_OUT:
# kf_system_out is locked by the background lane's make deb (32-deb) while
# this script runs in the main lane, and the cache has a lock of its own.
. tests/lib.sh
cache=$kf_system_out/rootfs
here=(out="$out" rootfs="$cache")
inc=systemd-sysv,udev,kmod,initramfs-tools,linux-base,zstd

check "make rootfs (mmdebstrap the first time, a few minutes)" make rootfs "${here[@]}"
tar=$(sed -n 's/.*ROOTFS  \(bookworm-[0-9a-f]*\).*/\1/p' "$kf_tmp/last.out" | head -n1)
tarf=$cache/$tar.tar rec=$cache/$tar.json
check "the root filesystem record matches system/rootfs.schema.json" valid "$rec" system/rootfs.schema.json
sum=$(sha "$tarf")
check_eq "the record's sha256 is the tarball's" "$(jq -r .sha256 "$rec")" "$sum"
check_eq "the tarball is read-only" "$(stat -c %A "$tarf")" "-r--r--r--"
check_eq "it holds systemd, udev, kmod, initramfs-tools, linux-base" \
	"$(tar -xOf "$tarf" ./var/lib/dpkg/status 2>/dev/null | grep -cE '^Package: (systemd-sysv|udev|kmod|initramfs-tools|linux-base)$')" 5
check_eq "its sources are this machine's" "$(jq -r '.sources[0]' "$rec")" \
	"$(apt-get indextargets --format 'deb $(SITE) $(RELEASE) $(COMPONENT)' 'Identifier: Packages' | grep ' bookworm main$' | head -n1)"

# Again, in a network namespace with nothing but loopback: a download would fail.
if unshare -n true 2>/dev/null; then
	check "a second make rootfs with no network at all" unshare -n make rootfs "${here[@]}"
	grep -q "ROOTFS  $tar (cached" "$kf_tmp/last.out" && ok "it reused $tar" ||
		{ not_ok "it reused $tar"; diag < "$kf_tmp/last.out"; }
else
	skip "a second make rootfs with no network at all" "unshare -n is not allowed here"
fi
check_eq "the tarball is unchanged" "$(sha "$tarf")" "$sum"

# An interrupted mmdebstrap (new inputs; a stand-in that writes part of a
# tarball and a chroot in its TMPDIR, then hangs) killed with its make:
# the next make finds the cache as it was and nothing left behind.
fake=$kf_tmp/fake-mmdebstrap
printf '#!/bin/bash\n[ "$1" = --version ] && exec mmdebstrap --version\nmkdir -p "$TMPDIR/mmdebstrap.fake/etc"\nhead -c 100000 /dev/zero\nexec sleep 300\n' > "$fake"
chmod +x "$fake"
KF_MMDEBSTRAP=$fake setsid make rootfs "${here[@]}" system_include="$inc,hello" > "$kf_tmp/int.out" 2>&1 &
pid=$!
for i in $(seq 1 60); do
	[ -n "$(ls "$cache"/.tmp-* 2>/dev/null)" ] && [ -d "$cache/.work/mmdebstrap.fake" ] && break
	sleep 1
done
[ -n "$(ls "$cache"/.tmp-* 2>/dev/null)" ] && ok "an interrupted mmdebstrap: its partial tarball was there" ||
	{ not_ok "an interrupted mmdebstrap: its partial tarball was there"; diag < "$kf_tmp/int.out"; }
kill -KILL -- -"$pid" 2>/dev/null; wait "$pid" 2>/dev/null
check "... the next make rootfs" make rootfs "${here[@]}"
grep -q "ROOTFS  $tar (cached" "$kf_tmp/last.out" && ok "... reuses the cache" || not_ok "... reuses the cache"
check_eq "... and removed what the killed one left" "$(find "$cache" -mindepth 1 -name '.*' -not -name .lock | wc -l)" 0
check_eq "... the tarball unchanged" "$(sha "$tarf")" "$sum"

# Two makes on two out= sharing one cache (rootfs=), new inputs: one makes
# it (a stand-in mmdebstrap, 15 s), the other waits on the cache's lock and
# reuses it: one mmdebstrap run in all.
shared=$kf_tmp/shared
mkdir -p "$shared/empty"
printf '#!/bin/bash\n[ "$1" = --version ] && exec mmdebstrap --version\necho run >> %s/runs\nsleep 15\ntar -C %s/empty -cf - .\n' \
	"$shared" "$shared" > "$kf_tmp/slow-mmdebstrap"
chmod +x "$kf_tmp/slow-mmdebstrap"
# Their tools first, so both reach the cache's lock within the 15 s.
for d in o1 o2; do make out="$kf_tmp/$d" "$kf_tmp/$d/tools/system-record" > /dev/null 2>&1; done
KF_MMDEBSTRAP=$kf_tmp/slow-mmdebstrap make rootfs out="$kf_tmp/o1" rootfs="$shared/cache" \
	system_include="$inc,hello" > "$kf_tmp/m1.out" 2>&1 &
p1=$!
for i in $(seq 1 60); do [ -s "$shared/runs" ] && break; sleep 1; done
KF_MMDEBSTRAP=$kf_tmp/slow-mmdebstrap make rootfs out="$kf_tmp/o2" rootfs="$shared/cache" \
	system_include="$inc,hello" > "$kf_tmp/m2.out" 2>&1 && ok "a second make on another out= sharing rootfs=" ||
	{ not_ok "a second make on another out= sharing rootfs="; diag < "$kf_tmp/m2.out"; }
wait "$p1" && ok "... the first one made it" || { not_ok "... the first one made it"; diag < "$kf_tmp/m1.out"; }
check_eq "... the second waited on the cache's lock and reused it" \
	"$(grep -c 'is in use by another make; waiting\|(cached: ' "$kf_tmp/m2.out")" 2
check_eq "... one mmdebstrap run in all" "$(wc -l < "$shared/runs")" 1

# No mirror: new inputs (another package) with no network.
if unshare -n true 2>/dev/null; then
	check_fails "no mirror reachable: one line naming it and the fix" 2 \
		'^kflavour: mmdebstrap bookworm for .* failed \(no-mirror\): .*check the network' \
		unshare -n make rootfs "${here[@]}" system_include="$inc,hello"
else
	skip "no mirror reachable" "unshare -n is not allowed here"
fi
check_eq "... the cached tarball intact" "$(sha "$tarf")" "$sum"
check_eq "... nothing left in the cache but tarballs, records and logs" \
	"$(find "$cache" -mindepth 1 -not -name '*.tar' -not -name '*.json' -not -name '*.log' -not -name .lock | wc -l)" 0
# A package apt does not know is found only after the essential ones are
# downloaded: tests/slow/46-system.sh, with a failing postinst and a full
# disk while the root filesystem is made.

# An ordinary user without subordinate ids: mmdebstrap's unshare mode cannot
# run, and the error says what to do, for that user (as root, the test makes
# the user kflavour-nosub; run as another user, it runs as that one only when
# it has no range either).
. tests/scratch.sh
if [ "$(id -u)" = 0 ]; then
	nosub=kflavour-nosub
	id "$nosub" > /dev/null 2>&1 ||
		useradd -K SUB_UID_COUNT=0 -K SUB_GID_COUNT=0 --create-home --shell /bin/bash "$nosub"
	usermod --del-subuids 1-4294967294 --del-subgids 1-4294967294 "$nosub" 2> /dev/null || true
	scratch_checkout "$kf_tmp/co"
	mkdir -p "$kf_tmp/nr"
	chown -R "$nosub:" "$kf_tmp/co" "$kf_tmp/nr"
	chmod 755 "$kf_tmp"
	check_fails "make rootfs as a user with no /etc/subuid range: what is missing, the fix for that user" 2 \
		"failed \(no-userns\): W: no entry in /etc/subuid for $nosub; .*usermod --add-subuids 100000-165535 --add-subgids 100000-165535 $nosub; log: " \
		runuser -u "$nosub" -- env HOME="/home/$nosub" make -C "$kf_tmp/co" rootfs out="$kf_tmp/nr"
	check_eq "... one line said, no traceback" "$(grep -c '^kflavour: \|Traceback' "$kf_tmp/last.out")" 1
elif ! grep -q "^$(id -un):" /etc/subuid; then
	check_fails "make rootfs with no /etc/subuid range: what is missing" 2 "failed \(no-userns\)" \
		make rootfs out="$kf_tmp/nr"
else
	skip "make rootfs as a user with no /etc/subuid range" "run as $(id -un), who has one"
fi
done_testing
