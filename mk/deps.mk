# deps: every Debian package the pipeline needs. As root, install what is
# missing; otherwise fail with the exact apt-get line. Runs before any stage.
# linux-config-<kver>: Debian's own configs, the bases of the debian-* flavours.
# qemu-system-data: qboot.rom, the firmware of every boot (boot/boot.mk).
deps_pipeline := gcc make flex bison bc libelf-dev libssl-dev cpio xz-utils \
	qemu-system-x86 qemu-system-data linux-source-$(kver) libjansson-dev ccache patch \
	linux-config-$(kver)
deps_check := libcmocka-dev distcc chromium python3-jsonschema cppcheck jq \
	clang-tidy valgrind

.PHONY: deps check-deps
deps:
	@mk/deps.sh $(deps_pipeline)
check-deps:
	@mk/deps.sh $(deps_pipeline) $(deps_check)
