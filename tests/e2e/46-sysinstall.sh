#!/bin/bash
# lane: after
# A kernel package installed in the Debian system (issue 46;
# docs/system-boot.md, "The Debian system"): make system installs
# tiny-systemd's package (made by tests/e2e/32-deb.sh in the background
# lane, hence 'lane: after'; VIRTIO_BLK=m) into a copy of the root
# filesystem tests/e2e/46-rootfs.sh cached, so its postinst makes an
# initramfs-tools initrd with the root disk's driver; the cached tarball's
# checksum does not change, and a second make system remakes nothing. Bad
# input, each one line naming what and the fix, the earlier image and its
# record intact, nothing left behind: no package, a package whose
# dependency the system lacks, a disk that fills while the image is made.
. tests/lib.sh
o=$kf_system_out

# The cached root filesystem, which 46-rootfs made (run alone, this makes it).
check "make rootfs on $o" make rootfs out="$o"
tar=$(sed -n 's/.*ROOTFS  \(bookworm-[0-9a-f]*\).*/\1/p' "$kf_tmp/last.out" | head -n1)
tarf=$o/rootfs/$tar.tar
sum=$(jq -r .sha256 "$o/rootfs/$tar.json" 2>/dev/null)
[ -n "$tar" ] && [ "$(sha "$tarf")" = "$sum" ] && ok "... $tar, its sha256 the record's" ||
	{ not_ok "... its sha256 the record's"; diag < "$kf_tmp/last.out"; }

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

done_testing
