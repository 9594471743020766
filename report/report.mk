# report: compare the selected flavours from what the config, build and boot
# stages left in $(kdir) (docs/report.md).
#   make report                     the table; $(kdir)/report.json, report.html
#   make report-only                the same from what is there, running no stage
#   make report-png                 and $(kdir)/report.png (headless Chromium)
#   make diffconfig a=F b=F         flavour F to F (config/kdiff.c: in full, or by menu)
#   make logdiff a=F b=G [logdiff_cpu=C..]  consoles of F and G on each C (default: F's cpu)
#   make logdiff a=F logdiff_cpu="C D.."    F's console on C against D, ...
#   (cpu= is the boot targets' models, one meaning everywhere: refused here)

# The model (report/report.h), its renderers (report/render.h) and the page
# frame (lib/page.h: report.css built in, upgrade-report's too): report,
# report-kcidb and test_report_model (tests/tests.mk) link the same list.
report_page := lib/page.c
report_lib_src := report/load.c report/derive.c report/compare.c report/kconfig.c \
	lib/logdiff.c report/rows.c report/table.c report/json.c \
	report/html.c report/svg.c report/c2c.c report/ktap.c report/junit.c \
	$(report_page) $(records_src)
$(tools)/report $(tools)/report-kcidb $(tools)/upgrade-report: lib/page.h report/report.css
$(eval $(call tool,report,report/report.c $(report_lib_src),-ljansson -lm))
$(tools)/report: report/report.h report/render.h lib/logdiff.h lib/console.h
$(out)/tests/test_logdiff $(out)/tests/test_report_model: report/report.h report/render.h lib/logdiff.h \
	lib/page.h report/report.css lib/console.h

# Each selected flavour with its fragment files, in merge order:
# generic=fragments/base.config,fragments/probe.config,...
report_empty :=
report_space := $(report_empty) $(report_empty)
report_comma := ,
report_args = $(foreach f,$(flavour),$(f)=$(subst $(report_space),$(report_comma),$(strip $($(f)_fragment_files))))
report_run = $(tools)/report --cpu-models boot/cpu-models --c2c-cpu $(c2c_cpu) \
	--c2c-workload $(workload)

# kcidb.json: builds and boots in KernelCI's KCIDB 5.3 format, remade when
# a boot record or a build is. check-kcidb validates it (Debian's
# python3-jsonschema) against report/kcidb.schema.json, the subset of KCIDB
# 5.3 report-kcidb writes, and then against KCIDB's full schema when
# kcidb_schema names one: by default the copy CI keeps beside the checkout,
# skipped (and said so) when it is not there; one given on the command line
# must exist. Nothing outside the checkout is needed.
$(eval $(call tool,report-kcidb,report/kcidb.c $(report_lib_src),-ljansson -lm))
$(tools)/report-kcidb: report/report.h report/render.h
# results.ktap and junit.xml (boot/boot.mk's rules): the same model rendered.
$(eval $(call tool,report-results,report/results.c $(report_lib_src),-ljansson -lm))
$(tools)/report-results: report/report.h report/render.h
kcidb_json := $(kdir)/kcidb.json
kcidb_schema ?= $(top)/../shared/kcidb/kcidb.v5.3.schema.json
kcidb_optional := $(filter file,$(origin kcidb_schema))
$(kcidb_json): $$(want_records) $(if $(call records_newer,$(kcidb_json)),kf-records-force) \
		| $(tools)/report-kcidb
	@$(tools)/report-kcidb --kdir $(kdir) --kver $(kver) --compiler $(toolchain_stamp) \
		--out $@ $(flavour)
	@echo "  KCIDB   $@"

.PHONY: kcidb check-kcidb
kcidb: $(kcidb_json)
check-kcidb: $(kcidb_json)
	@/usr/bin/python3 -W ignore -m jsonschema -i $(kcidb_json) report/kcidb.schema.json
	@echo "  KCIDB   $(kcidb_json) valid against report/kcidb.schema.json"
	@if test -f '$(kcidb_schema)'; then \
		/usr/bin/python3 -W ignore -m jsonschema -i $(kcidb_json) '$(kcidb_schema)' && \
		echo "  KCIDB   $(kcidb_json) valid against KCIDB's full schema $(kcidb_schema)"; \
	elif test -n '$(kcidb_optional)'; then \
		echo "  KCIDB   skipped KCIDB's full schema: $(kcidb_schema) is not there (kcidb_schema=FILE)"; \
	else echo "no such kcidb_schema file: $(kcidb_schema)" >&2; exit 2; fi

# check-records: every stage record in $(kdir) (config.json, build.json,
# boot/<cpu>.json, report.json, and c2c/*.json when make c2c made any, deb/deb.json
# when make deb made any, system/image.json and rootfs/*.json when make system
# and make rootfs made any) valid against the schema beside the stage
# that writes it (docs/architecture.md, "Records"), with Debian's
# python3-jsonschema. It reads what is there; make report makes them all.
.PHONY: check-records
check-records:
	@shopt -s nullglob; \
	valid() { \
		local schema=$$1 what=$$2 args=() f; shift 2; \
		for f; do args+=(-i "$$f"); done; \
		[ $$# -gt 0 ] || { echo "no $$what in $(kdir); run make report first" >&2; exit 2; }; \
		/usr/bin/python3 -W ignore -m jsonschema "$${args[@]}" "$$schema" || exit 1; \
		echo "  RECORDS $$# $$what valid against $$schema"; \
	}; \
	valid config/flavour.schema.json "flavour records" $(kdir)/*/flavour.json; \
	valid config/config.schema.json config.json $(kdir)/*/config.json; \
	valid build/build.schema.json build.json $(kdir)/*/build.json; \
	valid boot/boot.schema.json "boot records" $(kdir)/*/boot/*.json; \
	sysb=($(kdir)/*/sysboot/*.json); \
	[ $${#sysb[@]} = 0 ] || valid boot/sysboot.schema.json "system boot records" "$${sysb[@]}"; \
	valid report/report.schema.json report.json $(kdir)/report.json; \
	c2c=($(kdir)/*/c2c/*.json); runs=($(kdir)/*/c2c/runs/*/*/*/*.json); \
	[ $${#c2c[@]} = 0 ] || valid c2c/c2c.schema.json "c2c records" "$${c2c[@]}"; \
	[ $${#runs[@]} = 0 ] || valid boot/boot.schema.json "c2c runs' boot records" "$${runs[@]}"; \
	debs=($(kdir)/*/deb/deb.json); \
	[ $${#debs[@]} = 0 ] || valid package/deb.schema.json "deb records" "$${debs[@]}"; \
	img=($(kdir)/*/system/image.json); rfs=($(rootfs)/*.json); \
	[ $${#img[@]} = 0 ] || valid system/image.schema.json "system image records" "$${img[@]}"; \
	[ $${#rfs[@]} = 0 ] || valid system/rootfs.schema.json "root filesystem records" "$${rfs[@]}"

.PHONY: report report-only report-png diffconfig logdiff
# want_records (boot/boot.mk): every selected flavour on every CPU model
# (make boot: on its own), which pull in builds and configs; with them
# results.ktap, junit.xml and kcidb.json. The report reads whatever is there.
# report-only reads what is there and runs nothing else (VALGRIND=valgrind
# runs the tool under it: tests/e2e/85-lint.sh).
VALGRIND ?=
report: $(tools)/report $$(want_records) $$(c2c_want) $(results_ktap) $(junit_xml) $(kcidb_json)
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
$(error a= is missing; usage: make diffconfig a=FLAVOUR b=FLAVOUR, make logdiff a=FLAVOUR b=FLAVOUR [logdiff_cpu=MODEL...] or a=FLAVOUR logdiff_cpu="MODEL MODEL..."; flavours: $(all_flavours))
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
ifneq ($(cpu),)
$(error make logdiff: cpu= is the CPU models the boot targets boot on; the models logdiff compares on are logdiff_cpu="MODEL...")
endif
ifeq ($(b)$(word 2,$(logdiff_cpu)),)
$(error logdiff needs b=FLAVOUR, or two CPU models: make logdiff a=$(a) b=FLAVOUR [logdiff_cpu=MODEL], make logdiff a=$(a) logdiff_cpu="MODEL MODEL")
endif
ifneq ($(cpu_names),)
ifneq ($(filter-out $(cpu_names),$(logdiff_cpu)),)
$(error unknown logdiff_cpu '$(filter-out $(cpu_names),$(logdiff_cpu))'; valid: $(cpu_names) (boot/cpu-models))
endif
endif
endif
endif

# What a= and b= name is all they build (build/build.mk): diffconfig's
# configs only, logdiff's boots.
builds_for_diffconfig =
builds_for_logdiff = $(a) $(b)
diffconfig: $$(kdir)/$$(a)/config.stamp $$(kdir)/$$(b)/config.stamp $$(ktools)/config-diff
	@echo "# diffconfig $(a) -> $(b) ($(kdir)/$(a)/.config -> $(kdir)/$(b)/.config)"
	@$(ktools)/config-diff --srctree $(src) --label-a $(a) --label-b $(b) \
		$(kdir)/$(a)/.config $(kdir)/$(b)/.config \
		--json $(kdir)/diffconfig-$(a)-$(b).json

# Two flavours on each CPU model, or one flavour across CPU models; each
# boot record is made (boot, build, config) when it is missing.
report_ld_cpus = $(if $(b),$(or $(logdiff_cpu),$($(a)_cpu)),$(logdiff_cpu))
report_ld_records = $(foreach c,$(report_ld_cpus),$(foreach f,$(a) $(b),$(kdir)/$(f)/boot/$(c).json))
logdiff: $(tools)/report $$(report_ld_records)
ifneq ($(b),)
	@for c in $(report_ld_cpus); do \
		$(tools)/report --logdiff --label-a $(a)/boot/$$c.log --label-b $(b)/boot/$$c.log \
			$(kdir)/$(a)/boot/$$c.log $(kdir)/$(b)/boot/$$c.log; \
	done
else
	@set -- $(logdiff_cpu); first=$$1; shift; for c; do \
		$(tools)/report --logdiff --label-a $(a)/boot/$$first.log --label-b $(a)/boot/$$c.log \
			$(kdir)/$(a)/boot/$$first.log $(kdir)/$(a)/boot/$$c.log; \
	done
endif
