# bisect: which config differences between two flavours change their boot.
#   make bisect good=F bad=G bisect_cpu=C [on=verdict|kunit:SUITE.CASE|fact:KEY]
#   (bisect_cpu=: the one CPU model both boot on; cpu= is the boot targets'
#   list of models, refused here by name)
# -> $(kdir)/bisect/<good>-<bad>-<cpu>.json (every step and the answer);
#    steps build in one O= directory, $(kdir)/bisect-<good>-<bad>-<cpu>
#    (docs/bisect.md). bisect (C) decides; make supplies the commands.

$(eval $(call tool,bisect,bisect/bisect.c bisect/search.c bisect/split.c \
	lib/logdiff.c lib/sha256.c lib/proc.c $(records_src),-ljansson -lcrypto -lm))
$(tools)/bisect: bisect/search.h bisect/split.h lib/logdiff.h lib/console.h
# The seed's path move in a copied O= (bisect/seed.sh is its glue).
$(eval $(call tool,bisect-cmdpaths,bisect/cmdpaths.c,))

ifneq ($(filter bisect,$(MAKECMDGOALS)),)
ifneq ($(cpu),)
$(error make bisect: cpu= is the CPU models the boot targets boot on; bisect's one model is bisect_cpu=MODEL)
endif
ifeq ($(and $(good),$(bad),$(bisect_cpu)),)
$(error usage: make bisect good=FLAVOUR bad=FLAVOUR bisect_cpu=MODEL [on=verdict|kunit:SUITE.CASE|fact:KEY]; flavours: $(all_flavours))
endif
ifneq ($(words $(bisect_cpu)),1)
$(error make bisect boots on one CPU model: give one bisect_cpu= (now '$(bisect_cpu)'))
endif
ifneq ($(cpu_names),)
ifneq ($(filter-out $(cpu_names),$(bisect_cpu)),)
$(error unknown bisect_cpu '$(bisect_cpu)'; valid: $(cpu_names) (boot/cpu-models))
endif
endif
# Checked once flavours.mk has been read (make restarts after making it).
ifneq ($(all_flavours),)
ifneq ($(filter-out $(all_flavours),$(good) $(bad)),)
$(error unknown flavour '$(filter-out $(all_flavours),$(good) $(bad))'; valid: $(all_flavours) (flavours/*.flavour))
endif
endif
ifeq ($(good),$(bad))
$(error good= and bad= are both $(good): bisect two different flavours)
endif
endif

# The two flavours' builds, none of the group's (build/build.mk).
builds_for_bisect = $(good) $(bad)
bisect_name := $(good)-$(bad)-$(bisect_cpu)
bisect_json := $(kdir)/bisect/$(bisect_name).json
# One level below $(kdir), like every flavour's O=: ccache's base directory
# then makes the same relative paths, and the steps hit the flavours' cache.
bisect_work := $(kdir)/bisect-$(bisect_name)

# The commands bisect runs, each in /bin/sh -c, through the environment
# (the Kbuild environment quotes too much for an argument): the same
# kbuild_env as make build, so a step compiles exactly as a flavour does.
bisect: export KF_BISECT_OLDDEFCONFIG = $(call kbuild_env,bisect-$(bisect_name)) \
	$(MAKE) -s -C $(src) O=$(bisect_work) olddefconfig
bisect: export KF_BISECT_BUILD = $(call kbuild_env,bisect-$(bisect_name)) \
	$(MAKE) -C $(src) O=$(bisect_work) bzImage
bisect: export KF_BISECT_BOOT = $(tools)/boot-runner --kernel $(bisect_work)/arch/x86/boot/bzImage \
	--initrd $(initramfs) --flavour-record $(kdir)/$(bad)/flavour.json --cpu $(bisect_cpu) --models $(boot_models) \
	--kver $(kver) --timeout $(boot_timeout) --hang-timeout $(hang_timeout) --bios '$(qemu_bios)' \
	--quiet --out "$$1"
bisect: MAKEOVERRIDES :=

# Both boots first (the usual targets: config, build and boot as needed);
# bisect reads each flavour from its flavour.json, as the boots do.
# The first step's O= starts as a copy of the good flavour's build
# (bisect/seed.sh), so Kbuild's own dependency tracking makes every step an
# incremental build.
.PHONY: bisect
bisect: $$(kdir)/$$(good)/boot/$$(bisect_cpu).json $$(kdir)/$$(bad)/boot/$$(bisect_cpu).json \
		$(tools)/bisect $(ktools)/config-prompts $(tools)/boot-runner $(initramfs) bisect/seed.sh \
		$(tools)/bisect-cmdpaths
	@mkdir -p $(kdir)/bisect
	@[ -f $(bisect_work)/.config ] || KF_TOOLS='$(tools)' bisect/seed.sh $(kdir)/$(good) $(bisect_work)
	@# MAKE= names $$(MAKE) on this line: make then hands its jobserver to
	@# the Kbuild that bisect starts.
	@MAKE='$(MAKE)' $(VALGRIND) $(tools)/bisect --cpu $(bisect_cpu) --kver $(kver) \
		--good-dir $(kdir)/$(good) --bad-dir $(kdir)/$(bad) --on '$(on)' \
		--work $(bisect_work) --json $(bisect_json) --src $(src) --prompts $(ktools)/config-prompts
