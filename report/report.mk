# report: compare the selected flavours from what the config, build and boot
# stages left in $(kdir) (docs/report.md).
#   make report                     the table; $(kdir)/report.json, report.html
#   make report-only                the same from what is there, running no stage
#   make report-png                 and $(kdir)/report.png (headless Chromium)
#   make diffconfig a=F b=F         flavour F to F (config/kdiff.c: in full, or by menu)
#   make logdiff a=F b=G [cpu=C..]  consoles of F and G on each C (default: F's cpu)
#   make logdiff a=F cpu="C D.."    F's console on C against D, ...

report_src := report/report.c report/model.c report/kconfig.c report/logdiff.c \
	report/table.c report/json.c report/html.c report/svg.c
$(eval $(call tool,report,$(report_src),-ljansson -lm))
$(tools)/report: report/report.h
$(out)/tests/test_logdiff $(out)/tests/test_report_model: report/report.h

# Each selected flavour with its fragment files, in merge order:
# generic=fragments/base.config,fragments/probe.config,...
report_empty :=
report_space := $(report_empty) $(report_empty)
report_comma := ,
report_args = $(foreach f,$(flavour),$(f)=$(subst $(report_space),$(report_comma),$(strip $($(f)_fragment_files))))
report_run = $(tools)/report --cpu-models boot/cpu-models --recipes flavours

.PHONY: report report-only report-png diffconfig logdiff
# boot_records (boot/boot.mk): the selected flavours' default boots, which
# pull in their builds and configs; the report reads whatever else is there.
# report-only reads what is there and runs nothing else (VALGRIND=valgrind
# runs the tool under it: tests/e2e/85-lint.sh).
VALGRIND ?=
report: $(tools)/report $$(boot_records)
	@mkdir -p $(kdir)
	@$(report_run) $(kdir) $(report_args)
report-only: $(tools)/report
	@mkdir -p $(kdir)
	@$(VALGRIND) $(report_run) $(kdir) $(report_args)

report-png: report | check-deps
	@report/render.sh $(kdir)/report.html $(kdir)/report.png

# a= and b= name flavours; checked once flavours.mk has been read.
ifneq ($(all_flavours),)
ifneq ($(filter diffconfig logdiff,$(MAKECMDGOALS)),)
ifeq ($(a),)
$(error a= is missing; usage: make diffconfig a=FLAVOUR b=FLAVOUR, make logdiff a=FLAVOUR b=FLAVOUR [cpu=MODEL...] or a=FLAVOUR cpu="MODEL MODEL..."; flavours: $(all_flavours))
endif
ifneq ($(words $(a) $(b)),$(words $(filter $(all_flavours),$(a) $(b))))
$(error unknown flavour '$(filter-out $(all_flavours),$(a) $(b))' in a=/b=; valid: $(all_flavours) (flavours/*.flavour))
endif
endif
ifneq ($(filter diffconfig,$(MAKECMDGOALS)),)
ifneq ($(words $(a) $(b)),2)
$(error diffconfig compares two flavours: make diffconfig a=FLAVOUR b=FLAVOUR; flavours: $(all_flavours))
endif
endif
ifneq ($(filter logdiff,$(MAKECMDGOALS)),)
ifeq ($(b)$(word 2,$(cpu)),)
$(error logdiff needs b=FLAVOUR, or two CPU models: make logdiff a=$(a) b=FLAVOUR [cpu=MODEL], make logdiff a=$(a) cpu="MODEL MODEL")
endif
endif
endif

diffconfig: $$(kdir)/$$(a)/config.stamp $$(kdir)/$$(b)/config.stamp $$(ktools)/audit
	@echo "# diffconfig $(a) -> $(b) ($(kdir)/$(a)/.config -> $(kdir)/$(b)/.config)"
	@$(ktools)/audit --srctree $(src) --diff $(kdir)/$(a)/.config $(kdir)/$(b)/.config \
		--json $(kdir)/diffconfig-$(a)-$(b).json

# Two flavours on each CPU model, or one flavour across CPU models; each
# boot record is made (boot, build, config) when it is missing.
report_ld_cpus = $(if $(b),$(or $(cpu),$($(a)_cpu)),$(cpu))
report_ld_records = $(foreach c,$(report_ld_cpus),$(foreach f,$(a) $(b),$(kdir)/$(f)/boot/$(c).json))
logdiff: $(tools)/report $$(report_ld_records)
ifneq ($(b),)
	@for c in $(report_ld_cpus); do \
		$(tools)/report --logdiff --label-a $(a)/boot/$$c.log --label-b $(b)/boot/$$c.log \
			$(kdir)/$(a)/boot/$$c.log $(kdir)/$(b)/boot/$$c.log; \
	done
else
	@set -- $(cpu); first=$$1; shift; for c; do \
		$(tools)/report --logdiff --label-a $(a)/boot/$$first.log --label-b $(a)/boot/$$c.log \
			$(kdir)/$(a)/boot/$$first.log $(kdir)/$(a)/boot/$$c.log; \
	done
endif
