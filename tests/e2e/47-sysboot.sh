#!/bin/bash
# lane: after
# The system boot (issue 46; docs/system-boot.md, "The system boot"): the
# small systemd-capable flavour's package (tiny-systemd, packaged by
# tests/e2e/32-deb.sh, VIRTIO_BLK=m) installed in its Debian system
# (make system, tests/e2e/46-sysinstall.sh; on the root filesystem 46-rootfs cached) boots
# to multi-user.target: the facts unit prints systemd's facts, the root
# disk's driver came as a module from the initrd, no unit failed, QEMU exits
# 33; the record is valid and the image is never written. An unchanged
# make sysboot boots nothing. (After the background lane, where 32-deb made
# the package, on tests/lib.sh's kf_system_out.) The cheap negative case: generic's kernel (no
# block layer, no virtio) on the same image, no initrd: no-root, its cause
# naming CONFIG_VIRTIO_BLK. The other verdicts: tests/unit/test_sysboot.c on
# recorded real boots.
. tests/lib.sh
o=$kf_system_out
k=$o/6.1
f=tiny-systemd
s=$k/$f/system
r=$k/$f/sysboot/qemu64.json

if [ ! -s "$k/$f/deb/deb.json" ]; then
	not_ok "$f is packaged ($k/$f/deb/deb.json, from tests/e2e/32-deb.sh)"
	done_testing
fi
rm -rf "$k/$f/sysboot"
check "make system sysboot flavour=$f (systemd under TCG: about a minute)" \
	make system sysboot flavour=$f out="$o"
grep -q "  SYSBOOT $f on qemu64: pass (" "$kf_tmp/last.out" && ok "the SYSBOOT line says pass" ||
	{ not_ok "the SYSBOOT line says pass"; diag < "$kf_tmp/last.out"; }
check "sysboot/qemu64.json matches boot/sysboot.schema.json" valid "$r" boot/sysboot.schema.json
check_eq "verdict, QEMU's exit status (isa-debug-exit), cause" \
	"$(jq -r '"\(.record) \(.verdict) \(.exit_status) \(.cause)"' "$r")" "sysboot pass 33 null"
check_eq "multi-user.target reached, no failed unit" \
	"$(jq -r '"\(.system.multi_user_reached) \(.system.failed_units | length)"' "$r")" "true 0"
mu=$(jq -r '.system.multi_user_seconds' "$r")
awk -v m="$mu" -v u="$(jq -r .system.userspace_seconds "$r")" 'BEGIN { exit !(m > u && u > 0) }' &&
	ok "time to multi-user.target ($mu s) after systemd's start" ||
	not_ok "time to multi-user.target ($mu s) after systemd's start"
check_eq "the root disk: vda, virtio_blk a module (from the initrd), virtio-pci built in" \
	"$(jq -r '"\(.system.root.device) \(.system.root.drivers | join(",")) \(.system.root.modules | join(","))"' "$r")" \
	"vda virtio_blk,virtio-pci virtio_blk"
jq -e '.system.modules | index("virtio_blk")' "$r" > /dev/null && ok "virtio_blk among the modules loaded" ||
	not_ok "virtio_blk among the modules loaded"
jq -e '.system.memory.used_kb > 0 and .system.memory.used_kb < .system.memory.total_kb' "$r" > /dev/null &&
	ok "memory in use: $(jq -r .system.memory.used_kb "$r") kB" || not_ok "memory in use"
check_eq "the facts unit's KTAP: 6 tests, none failed" \
	"$(jq -r '[.ktap.results[] | select(.suite == "kflavour_system")] | "\(length) \(map(select(.ok | not)) | length)"' "$r")" "6 0"
check_eq "the probe's facts, as the static init prints them" \
	"$(jq -r '[.facts | keys[] | select(startswith("probe."))] | length > 10' "$r")" "true"
check_eq "the kernel booted is the flavour's bzImage, its release the package's" \
	"$(jq -r '"\(.bzimage_sha256) \(.release)"' "$r")" \
	"$(sha "$k/$f/arch/x86/boot/bzImage") $(jq -r .release "$s/image.json")"
check_eq "the image was not written (snapshot=on): its sha256 is still the record's" \
	"$(sha "$s/image.raw")" "$(jq -r .image.sha256 "$s/image.json")"
t0=$(stat -c %Y "$r")
check "make sysboot again" make sysboot flavour=$f out="$o"
check_eq "... boots nothing again" "$(stat -c %Y "$r")" "$t0"

# The cheap negative case: a kernel that cannot find the root disk
# (generic's, from the main lane's out=).
neg=$kf_tmp/neg g=$KF_OUT/6.1/generic
check_fails "generic's kernel on the image: no-root, the missing driver named" 1 \
	'^          root device /dev/vda not found: .*CONFIG_VIRTIO_BLK is not set: the kernel has no virtio_blk' \
	"$o/tools/boot-runner" --disk "$s/image.raw" --kernel "$g/arch/x86/boot/bzImage" \
	--flavour-record "$g/flavour.json" --config "$g/.config" --kver 6.1 --out "$neg"
check_eq "... its record: no-root, the cause, the kernel's line" \
	"$(jq -r '"\(.verdict) \(.cause | test("CONFIG_BLOCK is not set")) \(.initrd_sha256)"' "$neg/qemu64.json")" \
	"no-root true null"
check "... its record matches the schema" valid "$neg/qemu64.json" boot/sysboot.schema.json
check_eq "... the image still unwritten" "$(sha "$s/image.raw")" "$(jq -r .image.sha256 "$s/image.json")"
# The cached root filesystem the image was copied from, after both boots:
# its sha256 is still the one its record had when it was made.
check_eq "the cached root filesystem unchanged after the boots" \
	"$(sha "$(jq -r .rootfs.tar "$s/image.json")")" "$(jq -r .rootfs.sha256 "$s/image.json")"
done_testing
