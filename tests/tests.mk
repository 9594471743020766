# tests: 'make check' builds the C unit tests (cmocka) and runs tests/run,
# which also runs the end-to-end scripts in tests/e2e/ against this $(out).
test_cflags := $(KF_CFLAGS) -Wno-missing-prototypes
test_libs   := -lcmocka

# unit_test NAME, SOURCES, LIBS: $(out)/tests/NAME from tests/unit/NAME.c.
define unit_test
$(out)/tests/$(1): tests/unit/$(1).c $(call prog_src,$(2)) $(lib_hdr) | check-deps
	@mkdir -p $$(@D)
	$$(hostcc_cmd)$$(HOSTCC) $$(test_cflags) -o $$@ tests/unit/$(1).c $(call prog_src,$(2)) $(test_libs) $(3)
unit_tests += $(out)/tests/$(1)
endef

$(eval $(call unit_test,test_recipe,,))
$(eval $(call unit_test,test_util,,))
$(eval $(call unit_test,test_elf,lib/elf.c,-lelf))
$(eval $(call unit_test,test_record,lib/record.c,-ljansson))
$(eval $(call unit_test,test_records,$(records_src),-ljansson))
$(eval $(call unit_test,test_flavour_rec,$(records_src),-ljansson))
$(eval $(call unit_test,test_config_commit,$(records_src),-ljansson))
$(out)/tests/test_config_commit: config/commit.c
$(eval $(call unit_test,test_config_savefragment,,))
$(out)/tests/test_config_savefragment: config/savefragment.c
$(eval $(call unit_test,test_dotconfig,,))
$(eval $(call unit_test,test_cpumodels,,))
$(eval $(call unit_test,test_logparse,boot/logparse.c,))
$(out)/tests/test_logparse: boot/logparse.h lib/console.h
$(eval $(call unit_test,test_boot_qemu,boot/qemu.c boot/logparse.c,))
$(out)/tests/test_boot_qemu: boot/qemu.h boot/logparse.h lib/console.h
$(eval $(call unit_test,test_sysboot,boot/sysboot.c boot/logparse.c $(records_src),-ljansson -lm))
$(out)/tests/test_sysboot: boot/sysboot.h boot/logparse.h lib/console.h
$(eval $(call unit_test,test_build_kbuild,build/kbuild.c,))
$(eval $(call unit_test,test_build_ccremote,build/ccremote.c,))
$(eval $(call unit_test,test_audit_lint,,-ljansson))
$(eval $(call unit_test,test_audit_misses,config/misses.c lib/record.c,-ljansson))
$(out)/tests/test_audit_misses: config/audit.h
$(eval $(call unit_test,test_audit_sysreq,config/sysreq.c lib/record.c,-ljansson))
$(out)/tests/test_audit_sysreq: config/sysreq.h
$(eval $(call unit_test,test_system_explain,system/explain.c,))
$(out)/tests/test_system_explain: system/explain.h
$(eval $(call unit_test,test_policy,,))
$(eval $(call unit_test,test_logdiff,lib/logdiff.c,))
$(eval $(call unit_test,test_bisect_split,bisect/split.c,))
$(out)/tests/test_bisect_split: bisect/split.h
$(eval $(call unit_test,test_bisect_search,bisect/search.c bisect/split.c,))
$(out)/tests/test_bisect_search: bisect/search.h bisect/split.h
$(eval $(call unit_test,test_bisect_cmdpaths,,))
$(out)/tests/test_bisect_cmdpaths: bisect/cmdpaths.c
$(eval $(call unit_test,test_c2c_raw,c2c/raw.c,))
$(out)/tests/test_c2c_raw: c2c/raw.h lib/c2c.h
# The plugin's model without QEMU: plugin.c included against a declaration-
# only qemu-plugin.h (tests/unit/qemu-stub/), its callbacks fed by hand.
$(eval $(call unit_test,test_c2c_model,c2c/raw.c,-Itests/unit/qemu-stub))
$(out)/tests/test_c2c_model: c2c/plugin.c c2c/raw.h lib/c2c.h tests/unit/qemu-stub/qemu-plugin.h
$(eval $(call unit_test,test_report_model,$(report_lib_src),-ljansson -lm))

.PHONY: check unit-tests
unit-tests: $$(unit_tests)
check: check-deps unit-tests $$(host_tools)
	@KF_OUT='$(out)' tests/run '$(t)'

# check-slow: the checks too slow for make check's budget (tests/slow/: the
# 6.12 tree's config, upgrade and build, Debian's configs, check-repro's two
# builds, a new flavour end to end). make check needs the 6.1 tree alone.
.PHONY: check-slow
check-slow: check-deps $$(host_tools)
	@KF_OUT='$(out)' KF_SUITE=slow tests/run '$(t)'

# check-distro: a distro flavour (debian-cloud-mpsc) built and booted, the
# part of issue 16 too slow for make check's budget (docs/benchmarks.md).
.PHONY: check-distro
check-distro: check-deps $$(host_tools)
	@KF_OUT='$(out)' tests/distro/check-distro.sh
