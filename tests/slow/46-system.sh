#!/bin/bash
# The Debian system's cases too slow or too network-hungry for make check
# (docs/system-boot.md, "The Debian system"; tests/e2e/46-rootfs.sh and
# 46-sysinstall.sh have the rest): a package apt does not know (found only
# after the essential packages are downloaded), a kernel package whose
# postinst fails, a disk that fills while the root filesystem is made, the
# image made twice (what is reproducible), the image booted to
# multi-user.target with neither it nor the cached tarball changed,
# Debian's own cloud kernel package installed (its initrd with
# virtio_blk), and make rootfs and make system as an ordinary user
# (mmdebstrap's unshare mode), whose root filesystem must be the same
# bytes as root's.
. tests/lib.sh
. tests/scratch.sh
o=$KF_OUT
inc=systemd-sysv,udev,kmod,initramfs-tools,linux-base,zstd

check "make rootfs" make rootfs out="$o"
tar=$(sed -n 's/.*ROOTFS  \(bookworm-[0-9a-f]*\).*/\1/p' "$kf_tmp/last.out" | head -n1)
tarf=$o/rootfs/$tar.tar
sum=$(sha "$tarf")

check_fails "a package apt does not know: named, with the fix" 2 \
	"failed \(no-package\): apt knows no package kflavour-no-such-package; correct the package list" \
	make rootfs out="$o" system_include="$inc,kflavour-no-such-package"
check_eq "... the cached tarball intact" "$(sha "$tarf")" "$sum"

# A disk that fills while the root filesystem is made: the cache on a
# 30 MiB tmpfs (apt's lists alone are more).
if unshare -m true 2>/dev/null; then
	mkdir -p "$kf_tmp/small"
	check_fails "a disk that fills while the root filesystem is made: named, with the fix" 2 \
		'failed \(disk-full\): .*(No space left on device|Disk full).*free space on that disk' \
		unshare -m bash -c 'mount -t tmpfs -o size=30m kftest "$1" || exit 9
			rc=0; make rootfs out="$2" rootfs="$1" || rc=$?
			echo "# left: $(find "$1" -mindepth 1 -not -name "*.log" -not -name .lock | wc -l)"
			exit $rc' _ "$kf_tmp/small" "$o"
	grep -qx '# left: 0' "$kf_tmp/last.out" && ok "... nothing left but its log" ||
		not_ok "... nothing left but its log"
else
	skip "a disk that fills while the root filesystem is made" "unshare -m is not allowed here"
fi

# Debian's cloud kernel package (VIRTIO_BLK=m), fetched once into out=.
debs=$o/debs
mkdir -p "$debs"
deb=$(ls "$debs"/linux-image-6.1.0-*-cloud-amd64_*.deb 2>/dev/null | head -n1)
if [ -z "$deb" ]; then
	name=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null | awk '/Depends: linux-image-6/ {print $2; exit}')
	(cd "$debs" && apt-get download -q "$name" > /dev/null 2>&1)
	deb=$(ls "$debs"/linux-image-6.1.0-*-cloud-amd64_*.deb 2>/dev/null | head -n1)
fi
if [ -z "$deb" ]; then
	not_ok "Debian's cloud kernel package downloaded (apt-get download linux-image-6.1.0-*-cloud-amd64)"
	done_testing
fi

# A kernel package whose postinst fails.
pk=$kf_tmp/pk
mkdir -p "$pk/DEBIAN" "$pk/boot"
echo not-a-kernel > "$pk/boot/vmlinuz-0.0.1-kftest"
printf 'Package: linux-image-0.0.1-kftest\nVersion: 1\nArchitecture: amd64\nMaintainer: kflavour <kflavour@invalid>\nDescription: a kernel package whose postinst fails\n' \
	> "$pk/DEBIAN/control"
printf '#!/bin/sh\necho "linux-image-0.0.1-kftest: this postinst fails on purpose (kflavour test)" >&2\nexit 1\n' \
	> "$pk/DEBIAN/postinst"
chmod 755 "$pk/DEBIAN/postinst"
dpkg-deb --build "$pk" "$kf_tmp/postinst.deb" > /dev/null
check_fails "a package whose postinst fails: named, with its script's status" 2 \
	'failed \(package-failed\): package linux-image-0.0.1-kftest failed to install: .*post-installation script subprocess returned error exit status 1' \
	make system flavour=tiny-systemd deb="$kf_tmp/postinst.deb" out="$o"
check "... its log kept beside the flavour's directory" \
	grep -q 'this postinst fails on purpose' "$o/6.1/tiny-systemd/system-install.log"

# The image made twice from the same inputs.
a=$o/6.1/debian-cloud/system
rm -rf "$a"
check "make system flavour=debian-cloud" make system flavour=debian-cloud deb="$deb" out="$o"
check "image.json matches system/image.schema.json" valid "$a/image.json" system/image.schema.json
check_eq "Debian's package installed, from the record" "$(jq -r '"\(.package.name) \(.package.version)"' "$a/image.json")" \
	"$(dpkg-deb -f "$deb" Package Version | awk '{print $2}' | paste -sd' ')"
check_eq "its postinst made the initrd, which carries virtio_blk" \
	"$(jq -r '"\(.initrd.root_driver) \(.initrd.root_driver_in)"' "$a/image.json")" "virtio_blk initrd"
check_eq "vmlinuz is the package's" "$(sha "$a/vmlinuz")" \
	"$(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./boot/vmlinuz-$(jq -r .release "$a/image.json")" | sha256sum | cut -d' ' -f1)"
cp -p "$a/image.json" "$kf_tmp/first.json"
rm -rf "$a"
check "make system flavour=debian-cloud again, from nothing" make system flavour=debian-cloud deb="$deb" out="$o"
for f in kernel initrd; do
	check_eq "the $f is the same bytes both times" "$(jq -r ".$f.sha256" "$a/image.json")" \
		"$(jq -r ".$f.sha256" "$kf_tmp/first.json")"
done
check_eq "the image is the same bytes both times" "$(jq -r .image.sha256 "$a/image.json")" \
	"$(jq -r .image.sha256 "$kf_tmp/first.json")"

# Booted to multi-user.target (snapshot=on, so a copy-on-write overlay
# takes every write): neither the image nor the cached tarball changes.
log=$kf_tmp/boot.log
qemu-system-x86_64 -accel tcg -nodefaults -nographic -no-reboot -nic none -serial stdio \
	-cpu qemu64 -smp 2 -machine pc -m 1G -kernel "$a/vmlinuz" -initrd "$a/initrd.img" \
	-append "root=/dev/vda rw console=ttyS0 panic=-1" \
	-drive "if=virtio,format=raw,snapshot=on,file=$a/image.raw" > "$log" 2>&1 &
q=$! t0=$SECONDS
while kill -0 "$q" 2>/dev/null && [ $((SECONDS - t0)) -lt 400 ] &&
	! grep -aq 'Reached target.*multi-user.target' "$log"; do sleep 1; done
kill "$q" 2>/dev/null; wait "$q" 2>/dev/null
grep -aq 'Reached target.*multi-user.target' "$log" &&
	ok "the image boots to multi-user.target under TCG ($((SECONDS - t0)) s)" ||
	{ not_ok "the image boots to multi-user.target under TCG"; tail -n 15 "$log" | diag; }
check_eq "... no failed unit" "$(grep -ac 'FAILED' "$log")" 0
check_eq "... image.raw unchanged by the boot" "$(sha "$a/image.raw")" "$(jq -r .image.sha256 "$a/image.json")"
check_eq "... the cached tarball unchanged" "$(sha "$tarf")" "$sum"

# As an ordinary user: its own cache, its own out=, a copy of the checkout.
co=$kf_tmp/co nr=$kf_tmp/out
scratch_checkout "$co"
mkdir -p "$nr"
cp "$deb" "$kf_tmp/"
udeb=$kf_tmp/$(basename "$deb")
if [ "$(id -u)" = 0 ]; then
	user=kflavour-test
	id "$user" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$user"
	grep -q "^$user:" /etc/subuid || usermod --add-subuids 100000-165535 --add-subgids 100000-165535 "$user"
	chown -R "$user:" "$kf_tmp"
	chmod 755 "$kf_tmp"
	run() { runuser -u "$user" -- env HOME="/home/$user" "$@"; }
else
	user=$(id -un)
	run() { "$@"; }
fi
check "make rootfs as $user (unshare mode; a few minutes)" run make -C "$co" rootfs out="$nr"
utar=$(ls "$nr"/rootfs/bookworm-*.tar 2>/dev/null | head -n1)
check_eq "$user's root filesystem has root's name (the same inputs)" "$(basename "$utar" .tar)" "$tar"
check "its record matches the schema" valid "${utar%.tar}.json" system/rootfs.schema.json
if [ "$(sha "$utar")" = "$sum" ]; then
	ok "$user's root filesystem is root's, byte for byte"
else
	not_ok "$user's root filesystem is root's, byte for byte"
	diff <(tar -tvf "$tarf" 2>/dev/null) <(tar -tvf "$utar" 2>/dev/null) | head -n 20 | diag
fi
check "make system flavour=debian-cloud as $user" \
	run make -C "$co" system flavour=debian-cloud deb="$udeb" out="$nr"
check_eq "... its initrd carries virtio_blk" \
	"$(jq -r .initrd.root_driver_in "$nr/6.1/debian-cloud/system/image.json")" initrd
check_eq "... the same initrd as root's" "$(jq -r .initrd.sha256 "$nr/6.1/debian-cloud/system/image.json")" \
	"$(jq -r .initrd.sha256 "$a/image.json")"
check_eq "... the image's files are root's inside it" \
	"$(debugfs -R 'stat /etc/passwd' "$nr/6.1/debian-cloud/system/image.raw" 2>/dev/null | grep -oE 'User: +[0-9]+' | tr -s ' ')" "User: 0"
done_testing
