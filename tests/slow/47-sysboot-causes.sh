#!/bin/bash
# The system boot's causes, end to end (issue 46's must-show; docs/
# system-boot.md): two variants of tiny-systemd in a scratch checkout, each
# built with its modules, packaged, installed in the Debian system and
# booted to systemd; tests/unit/test_sysboot.c has their recorded logs.
# - nocg, CGROUPS turned off: the config stage's check names CGROUPS before
#   anything is built; the system boot fails with systemd's own reason
#   (systemd-refused); the static-init boot of the same kernel passes.
# - novblk, the root disk's driver off: the package's initrd has no
#   virtio_blk, the system boot is no-root and its cause names
#   CONFIG_VIRTIO_BLK.
# Two cold builds of about 900 objects each (a config change misses every
# ccache entry): check-slow's.
. tests/lib.sh
. tests/scratch.sh
o=$KF_OUT
k=$o/6.1
co=$kf_tmp/co

scratch_checkout "$co"
variant() {	# variant NAME DESCRIPTION LINE: tiny-systemd plus one override
	printf '# kflavour: override\n%s\n' "$3" > "$co/fragments/$1.config"
	sed -e "s/^fragments .*/& $1/" -e "s/^description .*/description = $2/" \
		-e 's/^group .*/group = test/' "$co/flavours/tiny-systemd.flavour" > "$co/flavours/$1.flavour"
}
variant nocg "tiny-systemd without CGROUPS" '# CONFIG_CGROUPS is not set'
variant novblk "tiny-systemd without its root disk's driver" '# CONFIG_VIRTIO_BLK is not set'
rm -rf "$k/nocg" "$k/novblk"

# --- CGROUPS off -----------------------------------------------------------
check "make config flavour=nocg" make -C "$co" config flavour=nocg out="$o"
grep -q '  SYSTEMD nocg: cannot boot systemd 252, missing CGROUPS (' "$kf_tmp/last.out" &&
	ok "the static check names CGROUPS at config time" ||
	{ not_ok "the static check names CGROUPS at config time"; diag < "$kf_tmp/last.out"; }
check_eq "... before anything is built" "$(ls "$k/nocg/build.stamp" "$k/nocg/vmlinux" 2>/dev/null)" ""
check_eq "... config.json: CGROUPS alone, with its menu path" \
	"$(jq -r '[.systemd.missing[] | "\(.symbol) \(.menu)"] | join(";")' "$k/nocg/config.json")" \
	"CGROUPS General setup > Control Group support"

# One make: the package's kernel is what both boots run (make deb's
# release); the system boot fails as expected, so make fails, -k lets the
# static-init boot run too.
check_fails "make -k deb system sysboot boot flavour=nocg: the system boot fails" 2 \
	'system boots not as expected:.*nocg/sysboot/qemu64.json' \
	make -C "$co" -k deb system sysboot boot flavour=nocg cpu=qemu64 out="$o"
grep -E '^  (BUILD|DEB|SYSTEM|SYSBOOT|BOOT) +nocg|^          ' "$kf_tmp/last.out" | grep -v 'BUILD   nocg: [A-Z]* [0-9]' | diag
s=$k/nocg/sysboot/qemu64.json b=$k/nocg/boot/qemu64.json
check "its record matches boot/sysboot.schema.json" valid "$s" boot/sysboot.schema.json
check_eq "the system boot: systemd-refused" "$(jq -r .verdict "$s")" systemd-refused
check "... the cause is systemd's own console line, and names CGROUPS" \
	jq -e '.cause | test("Failed to mount API filesystems") and test("CGROUPS")' "$s"
check_eq "the static-init boot of the same kernel: pass" \
	"$(jq -r '"\(.verdict) \(.exit_status)"' "$b")" "pass 33"
check_eq "... the same kernel both times" "$(jq -r .bzimage_sha256 "$b")" "$(jq -r .bzimage_sha256 "$s")"

# --- the root disk's driver off --------------------------------------------
check_fails "make -k deb system sysboot flavour=novblk: the system boot fails" 2 \
	'system boots not as expected:.*novblk/sysboot/qemu64.json' \
	make -C "$co" -k deb system sysboot flavour=novblk cpu=qemu64 out="$o"
grep -E '^  (SYSTEM|SYSBOOT) +novblk|^          ' "$kf_tmp/last.out" | diag
s=$k/novblk/sysboot/qemu64.json
check_eq "its initrd has no virtio_blk (the kernel has none to give)" \
	"$(grep -c '/virtio_blk\.ko' "$k/novblk/system/initrd.list")" 0
check_eq "the system boot: no-root" "$(jq -r .verdict "$s")" no-root
check "... the cause names the driver: CONFIG_VIRTIO_BLK" \
	jq -e '.cause | test("root device /dev/vda not found") and test("CONFIG_VIRTIO_BLK is not set")' "$s"

# The report's system boot row, one column a flavour, names both verdicts.
make -C "$co" report-only flavour='nocg novblk' out="$o" > "$kf_tmp/report" 2>&1
grep -iE 'system boot|systemd-refused|no-root' "$kf_tmp/report" | diag
row=$(grep -E '^system boot ' "$kf_tmp/report")
case $row in
*systemd-refused*no-root*) ok "the report's system boot row: nocg systemd-refused, novblk no-root" ;;
*) not_ok "the report's system boot row: nocg systemd-refused, novblk no-root ($row)" ;;
esac
rm -rf "$k/nocg" "$k/novblk"
done_testing
