# deps: every Debian package the pipeline needs. As root, install what is
# missing; otherwise fail with the exact apt-get line. Runs before any stage.
# linux-config-<kver>: Debian's own configs, the bases of the debian-* flavours.
# qemu-system-data: qboot.rom, the firmware of every boot (boot/boot.mk).
# libglib2.0-dev, pkgconf: QEMU's own example plugins, c2c's cross-check.
# mmdebstrap, uidmap: the Debian root filesystem of the system boots (its
# unshare mode as an ordinary user needs newuidmap); e2fsprogs: mkfs.ext4 -d
# of the system image; zstd: reading the initramfs-tools initrd (system/).
# dpkg-dev, rsync, kmod: the tree's bindeb-pkg (make deb, package/): its
# dpkg-buildpackage and the build dependencies it checks.
deps_pipeline := gcc make flex bison bc libelf-dev libssl-dev cpio xz-utils \
	qemu-system-x86 qemu-system-data linux-source-$(kver) libjansson-dev ccache patch \
	linux-config-$(kver) libglib2.0-dev pkgconf mmdebstrap uidmap e2fsprogs zstd \
	dpkg-dev rsync kmod
# debhelper: bindeb-pkg's debian/rules runs dh_* from 6.12 on (its control
# file build-depends on debhelper-compat); 6.1's does not.
deps_pipeline += $(if $(filter 6.1,$(kver)),,debhelper)
# iproute2 and clang: the distcc farm's namespaces, and its server with
# another compiler (build/farm.sh, tests/e2e/36-farm-check.sh).
# redis-server: the shared compiler cache's server in the tests
# (build/farm.sh cache, tests/e2e/37-cache-check.sh, tests/slow/36-cache.sh).
deps_check := libcmocka-dev distcc chromium python3-jsonschema cppcheck jq \
	clang-tidy valgrind iproute2 clang redis-server

.PHONY: deps check-deps
deps:
	@mk/deps.sh $(deps_pipeline)
check-deps:
	@mk/deps.sh $(deps_pipeline) $(deps_check)
