# c2c: cache-line contention and instruction counts, measured in the guest
# by a QEMU TCG plugin (docs/c2c.md).
#   make c2c    each selected flavour's workload, runs= times, on one machine
#               (plain make and make report: workload=pipe, for the report)
# -> $(kdir)/<flavour>/c2c/<cpu>.json (workload=pipe) or <workload>.<cpu>.json,
#    from the runs in $(kdir)/<flavour>/c2c/runs/<workload>/<cpu>/<n>/

include c2c/qemu-src.mk

# The one machine every flavour of a comparison runs on, whatever its
# recipe says: RAM below 4 GiB (the plugin reads physical addresses, which
# QEMU 7.2 gives as RAM-block offsets above 4 GiB), 2 CPUs. The CPU model
# sets the line size the kernel sees: nocona (128-byte cache_alignment) by
# default, as the comparison of generic against mpsc needs. c2c_cpu= names
# it: cpu= is the CPU models a boot target boots on (boot/boot.mk), one
# meaning everywhere, so make c2c refuses it by name.
c2c_cpu    ?= nocona
c2c_memory := 1G
c2c_smp    := 2
runs       ?= 5
workload   ?= pipe
# TCG's threads for the runs: multi (a host thread per vCPU: both CPUs
# busy at once, what contention is made of) or single (round robin, the
# cheaper; docs/c2c.md, "Two TCG modes").
tcg        ?= multi
c2c_workloads := pipe futex fault calib-8 calib-64 calib-128 calib-same
ifneq ($(filter c2c all report report-only,$(goals)),)
ifneq ($(filter c2c,$(MAKECMDGOALS)),)
ifneq ($(cpu),)
$(error make c2c: cpu= is the CPU models the boot targets boot on; the one machine c2c runs on is c2c_cpu=NAME (default nocona))
endif
endif
ifneq ($(words $(c2c_cpu)),1)
$(error make c2c runs on one machine: give one c2c_cpu= (now '$(c2c_cpu)'))
endif
ifneq ($(cpu_names),)
ifneq ($(filter-out $(cpu_names),$(c2c_cpu)),)
$(error unknown c2c_cpu '$(c2c_cpu)'; valid: $(cpu_names) (boot/cpu-models))
endif
endif
ifeq ($(filter $(workload),$(c2c_workloads)),)
$(error unknown workload '$(workload)'; valid: $(c2c_workloads) (docs/c2c.md))
endif
ifeq ($(filter $(tcg),single multi),)
$(error tcg=$(tcg): want multi (a host thread per vCPU) or single (round robin) (docs/c2c.md))
endif
ifeq ($(shell [ '$(runs)' -ge 1 ] 2>/dev/null && echo ok),)
$(error runs=$(runs): want a number of runs >= 1)
endif
endif

# The machine as a file rewritten only when it changes (boot.mk's model
# stamps): another memory or smp runs every run again.
c2c_machine_stamp := $(kdir)/models/c2c-machine
.PHONY: kf-c2c-machine-force
$(c2c_machine_stamp): kf-c2c-machine-force
	@mkdir -p $(@D)
	@printf '%s\n' 'memory=$(c2c_memory) smp=$(c2c_smp) tcg=$(tcg) crosscheck=$(crosscheck)' > $@.tmp.$$$$; \
	if cmp -s $@.tmp.$$$$ $@; then rm -f $@.tmp.$$$$; else mv $@.tmp.$$$$ $@; fi

# crosscheck=1: QEMU's own insn plugin (built from the same source
# package) beside ours in every run, in its per-vCPU mode (a callback per
# instruction): its per-vCPU counts are in each run's log ("qemu: cpu N
# insns: M"). Costly: a callback per instruction, 2 minutes and a 1 GB log
# a run (it prints every repeated instruction); docs/c2c.md.
crosscheck ?=
c2c_cross_plugins = $(if $(filter 1,$(crosscheck)),--plugin file=$(c2c_insn_plugin))

# The calibration counts user-space accesses, the workloads kernel ones.
c2c_count = $(if $(filter calib-%,$(1)),user,kernel)

$(eval $(call tool,c2c-record,c2c/record.c c2c/raw.c c2c/attrib.c lib/elf.c $(records_src),-ljansson -lm -lelf))
$(tools)/c2c-record: c2c/raw.h lib/c2c.h c2c/attrib.h

# c2c_run FLAVOUR WORKLOAD CPU N: one boot with the plugin, nokaslr: the
# host maps the kernel image's lines to vmlinux's addresses. The runner exits
# 1 when the boot's verdict is not pass (the workload failed, or the kernel
# lacks what it needs): the run stays for c2c-record to name, and a retry
# file beside it runs it again next time.
c2c_rundir = $(kdir)/$(1)/c2c/runs/$(2)/$(3)/$(4)
define c2c_run
$(call c2c_rundir,$(1),$(2),$(3),$(4))/$(3).json: $(kdir)/$(1)/arch/x86/boot/bzImage $(initramfs) \
		$(c2c_plugin) $(if $(filter 1,$(crosscheck)),$(c2c_insn_plugin)) \
		$(call model_stamp,$(3)) $(c2c_machine_stamp) c2c/c2c.mk \
		$(if $(wildcard $(call c2c_rundir,$(1),$(2),$(3),$(4))/retry),kf-records-force) \
		| $(tools)/boot-runner $(kdir)/$(1)/flavour.json
	@rm -f $$(@D)/retry $$(@D)/$(3).raw
	@$(tools)/boot-runner --kernel $(kdir)/$(1)/arch/x86/boot/bzImage \
		--initrd $(initramfs) --flavour-record $(kdir)/$(1)/flavour.json --cpu $(3) \
		--models $(boot_models) --kver $(kver) --out $$(@D) --quiet \
		--memory $(c2c_memory) --smp $(c2c_smp) --tcg $(tcg) --append 'nokaslr kflavour.c2c=$(2)' \
		--timeout $(boot_timeout) --hang-timeout $(hang_timeout) --bios '$(qemu_bios)' \
		--plugin file=$(c2c_plugin),out=$$(@D)/$(3).raw,count=$(call c2c_count,$(2)),tcg=$(tcg) \
		$(c2c_cross_plugins) \
		|| { rc=$$$$?; [ $$$$rc = 1 ] || exit $$$$rc; touch $$(@D)/retry; }
endef

c2c_nums := $(shell seq 1 $(runs) 2>/dev/null)
c2c_record = $(kdir)/$(1)/c2c/$(if $(filter pipe,$(2)),,$(2).)$(3).json
c2c_runs = $(foreach n,$(c2c_nums),$(call c2c_rundir,$(1),$(2),$(3),$(n))/$(3).json)

# c2c_rec FLAVOUR WORKLOAD CPU: the record of runs= runs, its lines
# attributed to the objects of the flavour's vmlinux (c2c/attrib.h).
# A new c2c-record rewrites it from the same runs (no boot).
define c2c_rec
$(call c2c_record,$(1),$(2),$(3)): $(call c2c_runs,$(1),$(2),$(3)) $(tools)/c2c-record
	@$(tools)/c2c-record --out $$@ --flavour $(1) --kver $(kver) --cpu $(3) \
		--workload $(2) --vmlinux $(kdir)/$(1)/vmlinux $(foreach r,$(call c2c_runs,$(1),$(2),$(3)),--run $(r)) \
		$(if $(filter c2c,$(goals)),,|| echo "kflavour: no c2c record of $(1) (above); the report leaves it out" >&2)
endef

# Plain make and make report run it too (the report's section "Cache-line
# contention (emulated)"), for the selected flavours, on the one machine.
# There a flavour whose runs cannot make a record is said and left out of
# the report; make c2c stops on it.
c2c_goals := c2c all report
c2c_wanted := $(filter $(c2c_goals),$(goals))
ifneq ($(c2c_wanted),)
$(foreach f,$(flavour),$(foreach n,$(c2c_nums),$(eval $(call c2c_run,$(f),$(workload),$(c2c_cpu),$(n)))))
$(foreach f,$(flavour),$(eval $(call c2c_rec,$(f),$(workload),$(c2c_cpu))))
endif
c2c_want = $(if $(c2c_wanted),$(foreach f,$(flavour),$(call c2c_record,$(f),$(workload),$(c2c_cpu))))

.PHONY: c2c c2c-plugins
c2c: $(foreach f,$(flavour),$(call c2c_record,$(f),$(workload),$(c2c_cpu))) | $(tools)/c2c-record
	@$(tools)/c2c-record --summary $^
c2c-plugins: $(c2c_plugin) $(c2c_insn_plugin) $(c2c_mem_plugin)
