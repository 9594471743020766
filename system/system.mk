# system: the Debian system of the system boots (issue 46; docs/system-boot.md,
# "The Debian system").
#   make rootfs                      the cached root filesystem: $(rootfs)/<suite>-<key>.tar
#   make system flavour=X [deb=PATH] X's package installed in a copy of it:
#                                    $(kdir)/X/system/{vmlinuz,initrd.img,image.raw,image.json}
# rootfs= the cache directory, kver independent (default $(out)/rootfs; several
# out= may share one: it has its own lock). The key of the tarball's name is a
# hash of every input (system/rootfs.sh): same inputs, nothing downloaded.
rootfs ?= $(out)/rootfs
$(call check_path,rootfs,$(rootfs),the root filesystem cache; default $(out)/rootfs)
system_suite   := bookworm
system_variant := minbase
# What boots to multi-user.target on a virtio disk with a serial console
# and no network, and takes a kernel package offline (dpkg -i): linux-base
# is what Debian's linux-image packages depend on; zstd is initramfs-tools'
# default compression (without it, gzip and a warning).
system_include := systemd-sysv,udev,kmod,initramfs-tools,linux-base,zstd
# SOURCE_DATE_EPOCH of the root filesystem and the images: 2025-05-20, the
# date of the Debian snapshot this machine's apt sources name.
system_epoch   := 1747699200
# The root disk's driver, which the initrd must carry when it is a module.
system_root_driver ?= virtio_blk
# The hook for the guest's own files: SRC:DEST pairs copied into every
# image (SRC's mode kept) and the units enabled there. A stage adds to them
# (system_extras += $(tools)/x:/usr/local/sbin/x) and to system_extras_deps
# what make must make first.
system_extras ?=
system_units  ?=
system_extras_deps ?=
# The kernel package: deb=PATH, else the image package the flavour's
# make deb record names ($(kdir)/<flavour>/deb/deb.json, read by
# system-record). With make deb in the same command, that comes first.
$(if $(filter-out undefined,$(origin deb)),$(call check_path,deb,$(deb),a kernel package, linux-image-*.deb))

system_env = KF_ROOTFS_DIR='$(rootfs)' KF_SUITE=$(system_suite) KF_VARIANT=$(system_variant) \
	KF_INCLUDE=$(system_include) SOURCE_DATE_EPOCH=$(system_epoch) KF_RECORD='$(tools)/system-record'
# The tarball the inputs name: worked out once, and only for a goal that
# needs it (apt-get and mmdebstrap take seconds on a busy machine).
rootfs_tar = $(eval rootfs_tar := $$(shell $$(system_env) system/rootfs.sh key))$(rootfs_tar)

$(eval $(call tool,system-record,system/record.c system/explain.c lib/sha256.c $(records_src),-ljansson -lcrypto -lm))
$(tools)/system-record: system/explain.h

.PHONY: rootfs system
rootfs: $(tools)/system-record | deps
	@$(system_env) system/rootfs.sh make

system_images = $(foreach f,$(flavour),$(kdir)/$(f)/system/image.json)
system: $$(system_images) ; @:
# rootfs is phony: image.sh runs each time and does nothing while its
# stamp (package, root filesystem, extras, script) still holds.
$(kdir)/%/system/image.json: rootfs $(tools)/system-record system/image.sh $$(system_extras_deps) \
		$$(if $$(deb),,$$(if $$(deb_goal),$(kdir)/$$*/deb.stamp)) | deps
	@$(system_env) KF_ROOTFS_TAR='$(rootfs_tar)' KF_ROOTFS_REC='$(basename $(rootfs_tar)).json' \
		KF_ROOT_DRIVER=$(system_root_driver) KF_EXTRAS='$(system_extras)' KF_UNITS='$(system_units)' \
		KF_DEB_RECORD='$(kdir)/$*/deb/deb.json' system/image.sh '$(deb)' '$(kdir)/$*/system' '$*' '$(kver)'
