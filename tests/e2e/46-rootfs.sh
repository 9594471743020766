#!/bin/bash
# lane: after
# The Debian system (issue 46; docs/system-boot.md, "The Debian system"):
# make rootfs makes the cached bookworm root filesystem with mmdebstrap (a
# few minutes the first time, mostly download) and reuses it: the second
# make downloads nothing (it runs with no network at all). A kernel package
# installed into a copy of it (make system) gets its initramfs-tools
# initrd, with the root disk's driver (virtio_blk, a module: the package
# is tiny-systemd's, made by tests/e2e/32-deb.sh in the background lane,
# hence 'lane: after'); the cached tarball's checksum does not change. Bad
# input, each one line naming what and the fix, the cached root filesystem and the earlier image intact, nothing
# left behind: an interrupted mmdebstrap, no mirror, a package whose
# dependency the system lacks, a disk that fills while the image is made,
# an ordinary user with no subordinate ids (more in tests/slow/46-system.sh).
. tests/lib.sh
o=$kf_system_out
sha() { sha256sum "$1" 2>/dev/null | cut -d' ' -f1; }
valid() { /usr/bin/python3 -W ignore -m jsonschema -i "$1" "$2"; }
inc=systemd-sysv,udev,kmod,initramfs-tools,linux-base,zstd

check "make rootfs (mmdebstrap the first time, a few minutes)" make rootfs out="$o"
tar=$(sed -n 's/.*ROOTFS  \(bookworm-[0-9a-f]*\).*/\1/p' "$kf_tmp/last.out" | head -n1)
tarf=$o/rootfs/$tar.tar rec=$o/rootfs/$tar.json
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
	check "a second make rootfs with no network at all" unshare -n make rootfs out="$o"
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
KF_MMDEBSTRAP=$fake setsid make rootfs out="$o" system_include="$inc,hello" > "$kf_tmp/int.out" 2>&1 &
pid=$!
for i in $(seq 1 60); do
	[ -n "$(ls "$o"/rootfs/.tmp-* 2>/dev/null)" ] && [ -d "$o/rootfs/.work/mmdebstrap.fake" ] && break
	sleep 1
done
[ -n "$(ls "$o"/rootfs/.tmp-* 2>/dev/null)" ] && ok "an interrupted mmdebstrap: its partial tarball was there" ||
	{ not_ok "an interrupted mmdebstrap: its partial tarball was there"; diag < "$kf_tmp/int.out"; }
kill -KILL -- -"$pid" 2>/dev/null; wait "$pid" 2>/dev/null
check "... the next make rootfs" make rootfs out="$o"
grep -q "ROOTFS  $tar (cached" "$kf_tmp/last.out" && ok "... reuses the cache" || not_ok "... reuses the cache"
check_eq "... and removed what the killed one left" "$(find "$o/rootfs" -mindepth 1 -name '.*' -not -name .lock | wc -l)" 0
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

# A kernel package: tiny-systemd's, from make deb (tests/e2e/32-deb.sh, in
# the background lane before this script; VIRTIO_BLK=m). Debian's own cloud
# kernel installed the same way: tests/slow/46-system.sh.
f=tiny-systemd
sys=$o/6.1/$f/system
deb=$(jq -r '.packages[] | select(.kind == "image") | .path' "$o/6.1/$f/deb/deb.json" 2>/dev/null)
if [ ! -f "$deb" ]; then
	deb=
	not_ok "$f is packaged ($o/6.1/$f/deb/deb.json, from tests/e2e/32-deb.sh)"
else
	rel=$(jq -r .release "$o/6.1/$f/deb/deb.json")
	rm -rf "$sys"
	check "make system flavour=$f: its package installed in a copy of the root filesystem" \
		make system flavour=$f out="$o"
	check "image.json matches system/image.schema.json" valid "$sys/image.json" system/image.schema.json
	check_eq "the package installed, from the record" "$(jq -r '"\(.package.name) \(.package.version)"' "$sys/image.json")" \
		"$(dpkg-deb -f "$deb" Package Version | awk '{print $2}' | paste -sd' ')"
	check_eq "the initrd was made by its postinst and carries virtio_blk" \
		"$(jq -r '"\(.initrd.root_driver) \(.initrd.root_driver_in)"' "$sys/image.json")" "virtio_blk initrd"
	grep -q '/virtio_blk\.ko' "$sys/initrd.list" && ok "initrd.list (lsinitramfs) has virtio_blk.ko" ||
		not_ok "initrd.list (lsinitramfs) has virtio_blk.ko"
	check_eq "the record's module count is initrd.list's" "$(jq -r .initrd.modules "$sys/image.json")" \
		"$(grep -cE '\.ko(\.(xz|zst|gz))?$' "$sys/initrd.list")"
	check_eq "vmlinuz is the package's" "$(sha "$sys/vmlinuz")" \
		"$(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./boot/vmlinuz-$rel" | sha256sum | cut -d' ' -f1)"
	check_eq "image.raw is ext4 with the record's UUID" "$(blkid -o value -s UUID "$sys/image.raw")" \
		"$(jq -r .image.uuid "$sys/image.json")"
	check_eq "the record's image sha256 is image.raw's" "$(jq -r .image.sha256 "$sys/image.json")" "$(sha "$sys/image.raw")"
	check_eq "the image holds the kernel's modules" \
		"$(debugfs -R "ls -p /usr/lib/modules/$rel/kernel" "$sys/image.raw" 2>/dev/null | grep -c drivers)" 1
	check_eq "it records the root filesystem it copied" "$(jq -r .rootfs.sha256 "$sys/image.json")" "$sum"
	check_eq "the cached tarball is unchanged" "$(sha "$tarf")" "$sum"
	t0=$(stat -c %Y "$sys/image.raw")
	check "make system again" make system flavour=$f out="$o"
	check_eq "a second make system remakes nothing" "$(stat -c %Y "$sys/image.raw")" "$t0"
fi

# Bad input. No package: k8 is never packaged here.
rm -rf "$o/6.1/k8/deb"
check_fails "make system with no package: make deb first, or deb=" 2 \
	'no kernel package: make it first \(make deb flavour=k8; make deb system flavour=k8 does both\), or give deb=PATH' \
	make system flavour=k8 out="$o"
# No mirror: new inputs (another package) with no network.
if unshare -n true 2>/dev/null; then
	check_fails "no mirror reachable: one line naming it and the fix" 2 \
		'^kflavour: mmdebstrap bookworm for .* failed \(no-mirror\): .*check the network' \
		unshare -n make rootfs out="$o" system_include="$inc,hello"
else
	skip "no mirror reachable" "unshare -n is not allowed here"
fi
check_eq "... the cached tarball intact" "$(sha "$tarf")" "$sum"
check_eq "... nothing left in the cache but tarballs, records and logs" \
	"$(find "$o/rootfs" -mindepth 1 -not -name '*.tar' -not -name '*.json' -not -name '*.log' -not -name .lock | wc -l)" 0
# A package apt does not know is found only after the essential ones are
# downloaded: tests/slow/46-system.sh, with a failing postinst and a full
# disk while the root filesystem is made.

# A kernel package whose dependency the system lacks: dpkg -i fails.
if [ -n "$deb" ]; then
	pk=$kf_tmp/pk
	mkdir -p "$pk/DEBIAN" "$pk/boot"
	echo not-a-kernel > "$pk/boot/vmlinuz-0.0.1-kftest"
	printf 'Package: linux-image-0.0.1-kftest\nVersion: 1\nArchitecture: amd64\nMaintainer: kflavour <kflavour@invalid>\nDepends: kflavour-missing-dep\nDescription: a kernel package whose dependency no system has\n' \
		> "$pk/DEBIAN/control"
	dpkg-deb --build "$pk" "$kf_tmp/kftest.deb" > /dev/null
	img=$(sha "$sys/image.raw") js=$(sha "$sys/image.json")
	check_fails "a package that fails to install: its missing dependency named" 2 \
		'failed \(depends\): linux-image-0.0.1-kftest depends on kflavour-missing-dep, which the system lacks' \
		make system flavour=$f deb="$kf_tmp/kftest.deb" out="$o"
	check_eq "... the earlier image and its record intact" "$(sha "$sys/image.raw") $(sha "$sys/image.json")" "$img $js"
	check_eq "... no temporary directory left" "$(find "$o/6.1/$f" -maxdepth 1 -name '.tmp-*' | wc -l)" 0

	# A disk that fills: out= on a 150 MiB tmpfs in a private mount
	# namespace, with a copy of the earlier system; the root filesystem
	# stays in its cache.
	if unshare -m true 2>/dev/null; then
		small=$kf_tmp/small
		mkdir -p "$small"
		check_fails "a disk that fills while the image is made: named, with the fix" 2 \
			'failed \(disk-full\): .*No space left on device.*free space on that disk' \
			unshare -m bash -c 'mount -t tmpfs -o size=150m kftest "$1" || exit 9
				d=$1/out/6.1/$5; mkdir -p "$d/system"; cp "$2/image.json" "$d/system/"
				rc=0; make system flavour=$5 deb="$3" out="$1/out" rootfs="$4" || rc=$?
				cmp -s "$2/image.json" "$d/system/image.json" && echo "# record intact"
				echo "# left: $(find "$d" -mindepth 1 -maxdepth 1 -name ".*" | wc -l)"
				exit $rc' _ "$small" "$sys" "$deb" "$o/rootfs" "$f"
		check_eq "... that out='s earlier image record intact, no temporary left" \
			"$(grep -E '^# (record intact|left: 0)$' "$kf_tmp/last.out" | wc -l)" 2
	else
		skip "a disk that fills" "unshare -m is not allowed here"
	fi
fi

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
