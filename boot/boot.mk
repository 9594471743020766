# boot: each flavour's bzImage in QEMU (TCG), with a static C init in an
# initramfs, on the CPU models of boot/cpu-models (docs/boot.md).
#   make boot     each selected flavour on its recipe's cpu
#   make matrix   each selected flavour on every model (cpu=NAME: one model)
# -> $(kdir)/<flavour>/boot/<cpu>.log .json, $(kdir)/results.ktap junit.xml

# boot/cpu-models is read by lib/cpumodels.c only: config/flavours.c puts
# it into $(flavours_mk) as cpu_names and cpu_model_<name> (its line).
# cpu= is checked against an up-to-date one only (as group= in config.mk):
# a model added since is known once make has remade it.
boot_models := boot/cpu-models
ifneq ($(cpu),)
ifneq ($(cpu_names),)
ifeq ($(flavours_mk_stale),)
ifneq ($(filter-out $(cpu_names),$(cpu)),)
$(error unknown cpu '$(filter-out $(cpu_names),$(cpu))'; valid: $(cpu_names) (boot/cpu-models))
endif
endif
endif
endif

# Firmware: qboot, whose MP table lists every CPU, so the flavours see
# HyperThreading siblings without ACPI (boot/runner.c, docs/boot.md);
# qemu_bios= boots QEMU's default SeaBIOS. A record depends on the file.
qemu_bios ?= /usr/share/qemu/qboot.rom

# Seconds: a whole boot, and silence on the console, before the verdict 'hang'.
boot_timeout ?= 180
hang_timeout ?= 30

$(eval $(call tool,boot-runner,boot/runner.c boot/qemu.c boot/sysboot.c boot/logparse.c lib/sha256.c $(records_src) lib/proc.c,-ljansson -lcrypto -lm))
$(eval $(call tool,boot-summary,boot/summary.c $(records_src),-ljansson))
$(tools)/boot-runner: boot/qemu.h boot/sysboot.h boot/logparse.h lib/console.h

# The guest init: static, stripped (no build paths), not a host tool.
$(tools)/boot-init: boot/init.c boot/guest.c boot/guest.h lib/console.h | deps
	@mkdir -p $(@D)
	$(hostcc_cmd)$(HOSTCC) $(KF_CFLAGS) -static -s -o $@ boot/init.c boot/guest.c

# The tree's own cpio writer, built as a host tool of this kver.
$(ktools)/gen_init_cpio: $(tree_stamp)
	@mkdir -p $(@D)
	$(hostcc_cmd)$(HOSTCC) -O2 -o $@ $(src)/usr/gen_init_cpio.c

# Reproducible: fixed time stamps (-t 0, the staged init's mtime), gzip -n.
initramfs := $(kdir)/initramfs.cpio.gz
initramfs_dir := $(kdir)/initramfs.d
$(initramfs): $(tools)/boot-init $(ktools)/gen_init_cpio boot/boot.mk
	@echo "  CPIO    $@"
	@rm -rf $(initramfs_dir) && mkdir -p $(initramfs_dir)
	@cp $(tools)/boot-init $(initramfs_dir)/init && touch -d @0 $(initramfs_dir)/init
	@printf '%s\n' 'dir /dev 0755 0 0' 'nod /dev/console 0600 0 0 c 5 1' \
		'dir /proc 0755 0 0' 'dir /sys 0755 0 0' \
		'file /init $(initramfs_dir)/init 0755 0 0' > $(initramfs_dir)/list
	@$(ktools)/gen_init_cpio -t 0 $(initramfs_dir)/list | gzip -n -9 > $@.tmp
	@mv $@.tmp $@

.PHONY: initramfs
initramfs: $(initramfs)

# Each CPU model's line of boot/cpu-models as a file of its own, rewritten
# only when that line changes (the Kbuild 'filechk' idiom): editing one
# model re-boots only the records of that model.
model_stamp = $(kdir)/models/$(1).model
.PHONY: kf-model-force
$(kdir)/models/%.model: kf-model-force
	@mkdir -p $(@D)
	@printf '%s\n' '$(cpu_model_$*)' > $@.tmp.$$$$; \
	if cmp -s $@.tmp.$$$$ $@; then rm -f $@.tmp.$$$$; else mv $@.tmp.$$$$ $@; fi

# The kernel a record boots is the bzImage, not build.stamp: a build that
# Kbuild found up to date leaves bzImage alone and boots nothing again.
# (Its empty recipe makes make look at its mtime after build.stamp's.)
$(foreach f,$(all_flavours),$(eval $(kdir)/$(f)/arch/x86/boot/bzImage: $(kdir)/$(f)/build.stamp ;))

# boot_record FLAVOUR CPU: one boot. The runner exits 0 when the verdict is
# the expected one, 1 when not: then the record stays (for the summary,
# results.ktap, junit.xml and the report, which it is newer than, so they
# are rewritten) and <cpu>.retry beside it makes the next make boot it
# again; other boots go on. Exit 2 (setup error) stops make.
# The runner is order-only: changing it does not invalidate records.
define boot_record
$(kdir)/$(1)/boot/$(2).json: $(kdir)/$(1)/arch/x86/boot/bzImage $(initramfs) \
		$(kdir)/$(1)/flavour.json $(call model_stamp,$(2)) $(qemu_bios) \
		$(if $(wildcard $(kdir)/$(1)/boot/$(2).retry),kf-records-force) | $(tools)/boot-runner
	@rm -f $(kdir)/$(1)/boot/$(2).retry
	@$(tools)/boot-runner --kernel $(kdir)/$(1)/arch/x86/boot/bzImage \
		--initrd $(initramfs) --flavour-record $(kdir)/$(1)/flavour.json --cpu $(2) \
		--models $(boot_models) --kver $(kver) --out $(kdir)/$(1)/boot \
		--timeout $(boot_timeout) --hang-timeout $(hang_timeout) --bios '$(qemu_bios)' \
		|| { rc=$$$$?; [ $$$$rc = 1 ] || exit $$$$rc; touch $(kdir)/$(1)/boot/$(2).retry; }
endef
$(foreach f,$(all_flavours),$(foreach c,$(cpu_names),$(eval $(call boot_record,$(f),$(c)))))

boot_records   = $(foreach f,$(flavour),$(kdir)/$(f)/boot/$($(f)_cpu).json)
matrix_cpus    = $(or $(cpu),$(cpu_names))
matrix_records = $(foreach f,$(flavour),$(foreach c,$(matrix_cpus),$(kdir)/$(f)/boot/$(c).json))
# The boots this make wants: 'make boot' each flavour on its own model;
# every other stage (make, report, matrix, results) the whole matrix.
want_records   = $(if $(filter boot,$(MAKECMDGOALS)),$(boot_records),$(matrix_records))

# results.ktap and junit.xml: targets of their own, rewritten when a boot
# record this make wants was (re)made, or when any record under $(kdir) is
# newer than they are (booted by an earlier make with other flavour=/cpu=).
# They cover every record found (report-results, the report's renderers of
# them: report/ktap.c, report/junit.c). Only the wanted records are prerequisites:
# a record of a flavour not selected is read, never remade.
results_ktap := $(kdir)/results.ktap
junit_xml    := $(kdir)/junit.xml
records_newer = $(if $(wildcard $(1)),$(shell find $(kdir) -mindepth 3 -maxdepth 3 \
	-path '*/boot/*.json' -newer $(1) -print -quit 2>/dev/null))
.PHONY: kf-records-force
$(results_ktap): $$(want_records) $(if $(call records_newer,$(results_ktap)),kf-records-force) \
		| $(tools)/report-results
	@$(tools)/report-results --kdir $(kdir) --ktap $@
	@echo "  KTAP    $@"
$(junit_xml): $$(want_records) $(if $(call records_newer,$(junit_xml)),kf-records-force) \
		| $(tools)/report-results
	@$(tools)/report-results --kdir $(kdir) --junit $@
	@echo "  JUNIT   $@"

# The summary and exit status: only the boots this make asked for.
boot_check = $(tools)/boot-summary $(1)

.PHONY: boot matrix results
boot: $$(boot_records) $(results_ktap) $(junit_xml) $(tools)/boot-summary
	@$(call boot_check,$(boot_records))
matrix: $$(matrix_records) $(results_ktap) $(junit_xml) $(tools)/boot-summary
	@$(call boot_check,$(matrix_records))
results: $(results_ktap) $(junit_xml)

# ---- the system boot (docs/system-boot.md) ----------------------------------
# A flavour's package booted to multi-user.target in its Debian system
# (system/system.mk's image): the package's vmlinuz and initrd, the image on
# a virtio disk (snapshot=on, never written), no network, serial console.
# The facts unit (boot/sysfacts.c, static like the init) prints systemd's
# facts once multi-user.target is reached and ends QEMU through the same
# isa-debug-exit; it comes into every image through system.mk's hook.
#   make sysboot flavour=X   (X packaged: make deb flavour=X first, or
#                             make deb sysboot flavour=X)
# -> $(kdir)/<flavour>/sysboot/<cpu>.log .json (boot/sysboot.schema.json)
$(tools)/boot-sysfacts: boot/sysfacts.c boot/guest.c boot/guest.h lib/console.h | deps
	@mkdir -p $(@D)
	$(hostcc_cmd)$(HOSTCC) $(KF_CFLAGS) -static -s -o $@ boot/sysfacts.c boot/guest.c
system_extras += $(tools)/boot-sysfacts:/usr/local/sbin/kflavour-sysfacts \
	boot/kflavour-sysfacts.service:/etc/systemd/system/kflavour-sysfacts.service
system_units += kflavour-sysfacts.service
system_extras_deps += $(tools)/boot-sysfacts boot/kflavour-sysfacts.service

# Seconds: systemd under TCG takes 30-60 s to multi-user.target here
# (docs/system-boot.md, "Costs"); its job status lines keep the console
# busy, so two minutes of silence is a hang.
sysboot_timeout ?= 600
sysboot_hang_timeout ?= 120

# sysboot_record FLAVOUR CPU: one system boot; a verdict not the expected
# one keeps its record and <cpu>.retry, as boot_record does.
define sysboot_record
$(kdir)/$(1)/sysboot/$(2).json: $(kdir)/$(1)/system/image.json $(kdir)/$(1)/flavour.json \
		$(call model_stamp,$(2)) $(qemu_bios) \
		$(if $(wildcard $(kdir)/$(1)/sysboot/$(2).retry),kf-records-force) | $(tools)/boot-runner
	@rm -f $(kdir)/$(1)/sysboot/$(2).retry
	@$(tools)/boot-runner --disk $(kdir)/$(1)/system/image.raw \
		--kernel $(kdir)/$(1)/system/vmlinuz --initrd $(kdir)/$(1)/system/initrd.img \
		--initrd-list $(kdir)/$(1)/system/initrd.list --image-record $$< \
		--config $(kdir)/$(1)/.config --config-record $(kdir)/$(1)/config.json \
		--flavour-record $(kdir)/$(1)/flavour.json --cpu $(2) --models $(boot_models) \
		--kver $(kver) --out $(kdir)/$(1)/sysboot --timeout $(sysboot_timeout) \
		--hang-timeout $(sysboot_hang_timeout) --bios '$(qemu_bios)' \
		|| { rc=$$$$?; [ $$$$rc = 1 ] || exit $$$$rc; touch $(kdir)/$(1)/sysboot/$(2).retry; }
endef
$(foreach f,$(all_flavours),$(foreach c,$(cpu_names),$(eval $(call sysboot_record,$(f),$(c)))))

sysboot_records = $(foreach f,$(flavour),$(foreach c,$(or $(cpu),$($(f)_cpu)),$(kdir)/$(f)/sysboot/$(c).json))
.PHONY: sysboot
sysboot: $$(sysboot_records)
	@bad=; for r in $(sysboot_records); do [ ! -e "$${r%.json}.retry" ] || bad="$$bad $$r"; done; \
	[ -z "$$bad" ] || { echo "kflavour: system boots not as expected:$$bad" >&2; exit 1; }

# Flavours of group debian boot this way too once packaged (their deb.json
# is there): plain make and make report make their system boot.
sysboot_default = $(foreach f,$(flavour),$(if $(and $(filter debian,$($(f)_group)),\
	$(wildcard $(kdir)/$(f)/deb/deb.json)),$(kdir)/$(f)/sysboot/$($(f)_cpu).json))
report: $$(sysboot_default)
