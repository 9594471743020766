#!/bin/bash
# make check-distro (issues 16, 46, 45): flavours on Debian's cloud-amd64
# config (about 4x a tiny flavour's objects, 10x with modules: not part of
# make check's budget), each in turn (KF_DISTRO_FLAVOURS, default
# debian-cloud-mpsc then debian-cloud):
# - built and booted on its CPU model with the static init: the boot
#   passes, the probe's L1 line is the config's and matches the model, the
#   x86_flavour KUnit suite passes; the report shows it;
# - packaged twice (make deb), from two builds: the .debs byte-identical;
# - installed in the Debian system and booted to multi-user.target on its
#   CPU model, no failed unit, the modules loaded named in the report.
# Then make c2c of the two (issue 45). Results and times go in
# docs/benchmarks.md.
. tests/lib.sh
. tests/records.sh
o=$KF_OUT

# distro_flavour F: all of the above for one flavour.
distro_flavour() {
local f=$1 start cpu rec shift_ j first sb nm m1
start=$(date +%s)
check "make flavour=$f: config, build, boot, report" make flavour="$f" out="$o"
echo "# $f: $(( $(date +%s) - start )) s"
cpu=$(jq -r .model.name "$o/6.1/$f/flavour.json" 2>/dev/null)
rec=$o/6.1/$f/boot/$cpu.json
shift_=$(sed -n 's/^CONFIG_X86_L1_CACHE_SHIFT=//p' "$o/6.1/$f/.config")
check_eq "$f on $cpu: verdict" "$(jq -r .verdict "$rec" 2>/dev/null)" pass
check_eq "$f on $cpu: L1_CACHE_BYTES, the config's" "$(fact "$rec" probe.l1_cache_bytes)" "$((1 << ${shift_:-0}))"
check_eq "$f on $cpu: line verdict" "$(fact "$rec" probe.line_verdict)" match
check_kunit "$f on $cpu" "$rec"
check "the report has $f" bash -c "make report-only flavour='generic $f' out='$o' | grep -q '$f'"

# Its package (issue 46, docs/system-boot.md "Packages"): make deb, the tree's
# bindeb-pkg with the modules; then a second package build from a second
# build in the same place (the first O= moved aside, ccache on): every .deb
# byte-identical. (Between two out= directories the headers package differs
# in Kbuild's .cmd files, which name the path: tests/slow/32-deb-repro.sh.)
# KF_DISTRO_DEB=0 leaves it out.
if [ "${KF_DISTRO_DEB:-1}" != 0 ]; then
	j=$o/6.1/$f/deb/deb.json first=$o/6.1/$f.first-build
	start=$(date +%s)
	check "make deb flavour=$f" make deb flavour="$f" out="$o"
	grep -E '^  DEB ' "$kf_tmp/last.out" | diag
	echo "# make deb $f: $(( $(date +%s) - start )) s"
	check "$f: deb.json matches package/deb.schema.json" \
		/usr/bin/python3 -W ignore -m jsonschema -i "$j" package/deb.schema.json
	n=$(jq -r '.packages[] | select(.kind == "image") | .modules' "$j" 2>/dev/null)
	[ "${n:-0}" -gt 100 ] 2>/dev/null && ok "$f: the image package holds $n modules" ||
		not_ok "$f: the image package holds its modules (${n:-none})"
	check "$f: virtio_blk.ko among them" \
		jq -e '.packages[] | select(.kind == "image") | .module_files | index("kernel/drivers/block/virtio_blk.ko")' "$j"
	check_eq "$f: the package names carry the kver and the flavour" \
		"$(jq -r '.release | test("^6\\.1\\.[0-9]+-kf-'"$f"'$")' "$j")" true
	rm -rf "$first"
	mv "$o/6.1/$f" "$first"
	start=$(date +%s)
	check "make deb flavour=$f again, from a second build in the same place" make deb flavour="$f" out="$o"
	echo "# second build and make deb $f: $(( $(date +%s) - start )) s"
	sums() { jq -r '.packages[] | "\(.file) \(.bytes) \(.sha256)"' "$1"; }
	check_eq "$f: two package builds, every .deb byte-identical" "$(sums "$j" 2>&1)" "$(sums "$first/deb/deb.json")"
	[ "$kf_failed" = 0 ] && rm -rf "$first"

	# Installed in the Debian system and booted to systemd (issue 46,
	# docs/system-boot.md): its own package, its postinst's initrd, on its
	# CPU model; no failed unit; the modules loaded named in the report.
	sb=$o/6.1/$f/sysboot/$cpu.json
	start=$(date +%s)
	check "make system sysboot flavour=$f cpu=$cpu" make system sysboot flavour="$f" cpu="$cpu" out="$o"
	grep -E '^  (ROOTFS|SYSTEM|SYSBOOT) ' "$kf_tmp/last.out" | diag
	echo "# make system sysboot $f: $(( $(date +%s) - start )) s"
	check "$f: sysboot/$cpu.json matches boot/sysboot.schema.json" \
		/usr/bin/python3 -W ignore -m jsonschema -i "$sb" boot/sysboot.schema.json
	check_eq "$f on $cpu: system boot verdict, multi-user.target, failed units" \
		"$(jq -r '"\(.verdict) \(.system.multi_user_reached) \(.system.failed_units | length)"' "$sb" 2>/dev/null)" \
		"pass true 0"
	check_eq "$f on $cpu: the kernel booted is the package's release" \
		"$(jq -r .release "$sb" 2>/dev/null)" "$(jq -r .release "$j" 2>/dev/null)"
	nm=$(jq -r '.system.modules | length' "$sb" 2>/dev/null)
	[ "${nm:-0}" -gt 0 ] 2>/dev/null && ok "$f on $cpu: $nm modules loaded" ||
		not_ok "$f on $cpu: modules loaded (${nm:-none})"
	check_eq "$f on $cpu: the root disk's driver came from the initrd" \
		"$(jq -r '.system.root.modules | index("virtio_blk") != null' "$sb" 2>/dev/null)" true
	make report-only flavour="$f" out="$o" > "$kf_tmp/report.txt" 2>&1
	m1=$(jq -r '.system.modules[0]' "$sb" 2>/dev/null)
	grep -E "modules loaded .*${m1:-none}" "$kf_tmp/report.txt" | diag
	grep -qE "modules loaded .*[0-9]+: .*${m1:-none}" "$kf_tmp/report.txt" &&
		ok "the report names the modules loaded ($m1, ...)" ||
		not_ok "the report names the modules loaded ($m1, ...)"
fi
}
for f in ${KF_DISTRO_FLAVOURS:-debian-cloud-mpsc debian-cloud}; do
	distro_flavour "$f"
done

# What 128-byte padding does in Debian's own kernel (issue 45; docs/c2c.md,
# "Distro kernels"): make c2c on debian-cloud and debian-cloud-mpsc (SLUB,
# a real layout), bzImage each, the pipe workload on nocona under TCG's
# multi-threaded mode. KF_DISTRO_C2C=0 leaves it out.
if [ "${KF_DISTRO_C2C:-1}" != 0 ]; then
	start=$(date +%s)
	check "make c2c flavour='debian-cloud debian-cloud-mpsc'" \
		make c2c flavour='debian-cloud debian-cloud-mpsc' runs="${KF_DISTRO_C2C_RUNS:-3}" out="$o"
	echo "# make c2c debian-cloud debian-cloud-mpsc: $(( $(date +%s) - start )) s"
	for g in debian-cloud debian-cloud-mpsc; do
		c=$o/6.1/$g/c2c/nocona.json
		check "$g: c2c/nocona.json matches c2c/c2c.schema.json" \
			/usr/bin/python3 -W ignore -m jsonschema -i "$c" c2c/c2c.schema.json
		check_eq "$g: attributed from its vmlinux and the probe's facts (2 CPUs' per-CPU areas)" \
			"$(jq -r '.attribution | "\(.vmlinux != null) \(.kernel_text_phys != null) \(.percpu_phys | length)"' "$c" 2>/dev/null)" \
			"true true 2"
	done
	make report-only flavour='debian-cloud debian-cloud-mpsc' out="$o" > "$kf_tmp/c2c-report.txt" 2>&1
	sed -n '/^Cache-line contention/,/^$/p' "$kf_tmp/c2c-report.txt" | diag
	grep -q '^Cache-line contention (emulated): pipe on nocona' "$kf_tmp/c2c-report.txt" &&
		ok "the report compares the two under c2c" ||
		not_ok "the report compares the two under c2c"
fi
done_testing
