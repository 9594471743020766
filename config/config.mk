# config: tinyconfig + the recipe's fragments (the tree's merge_config.sh)
#         + olddefconfig, audited by config-audit -> $(kdir)/<flavour>/.config
#         and the committed defconfigs/<kver>/<flavour>_defconfig.

# Recipes become make variables: all_flavours, <f>_fragment_files, <f>_cpu...
# in $(flavours_mk) (named in the Makefile), written under a name of its own
# and renamed: an unlocked help/list may read it while this rule runs. With
# kf_readonly (help/list without the lock) it is up to date and not remade.
ifeq ($(kf_readonly),)
$(flavours_mk): $(wildcard flavours/*.flavour fragments/*.config fragments/$(kver)/*.config) \
		boot/cpu-models $(tools)/config-flavours
	@mkdir -p $(@D)
	@$(tools)/config-flavours $(kver) > $@.tmp.$$$$ && mv $@.tmp.$$$$ $@ || { rm -f $@.tmp.$$$$; exit 1; }
endif
include $(flavours_mk)

# group= selects the flavours of one group (a recipe's 'group' key), e.g.
# make group=debian; flavour= picks by name. Default: group default, the quick
# tiny flavours; all_flavours still has every recipe, so every flavour's
# rules exist and 'make config flavour=debian-cloud' works without group=.
# Checked against an up-to-date flavours.mk only: one older than a recipe,
# or written by an older kflavour (no groups), is remade and this file read
# again before any recipe runs. A broken recipe belongs to no group yet, so
# the error names the broken ones.
group ?= default
flavours_mk_stale := $(shell find flavours fragments boot/cpu-models -newer '$(flavours_mk)' -print -quit 2>/dev/null)
ifneq ($(all_groups),)
ifeq ($(flavours_mk_stale),)
ifeq ($(group_$(group)),)
$(error unknown group '$(group)'; valid: $(sort $(all_groups)) (the 'group' key of flavours/*.flavour)$(if $(broken_flavours),; left out as broken: $(foreach b,$(broken_flavours),$($(b)_broken))))
endif
endif
endif
# flavour= selects; default the group's. Checked once flavours.mk has been read, and
# against the recipes on disk too: one added since flavours.mk was written
# (make newflavour) is known before make remakes flavours.mk.
recipes := $(sort $(patsubst flavours/%.flavour,%,$(wildcard flavours/*.flavour)))
ifneq ($(filter command line environment,$(origin flavour)),)
ifeq ($(strip $(flavour))$(filter menuconfig nconfig oldconfig savefragment,$(MAKECMDGOALS)),)
$(error flavour= is empty; name flavours (flavour="k8 mpsc"), or leave flavour= out for group $(group): $(group_$(group)))
endif
endif
flavour ?= $(group_$(group))
ifneq ($(all_flavours)$(broken_flavours),)
flavour_unknown := $(filter-out $(all_flavours) $(broken_flavours) $(recipes),$(flavour))
ifneq ($(flavour_unknown),)
flavour_near := $(shell $(tools)/config-flavours --suggest '$(firstword $(flavour_unknown))' $(recipes))
$(error unknown flavour '$(flavour_unknown)'$(if $(flavour_near), (did you mean $(flavour_near)?)); valid: $(recipes) (flavours/*.flavour))
endif
endif
# A broken recipe blocks only itself: named, it is an error; in the default
# (all) it is left out with a warning; help and list name it.
ifneq ($(filter $(broken_flavours),$(flavour)),)
$(error flavour $(firstword $(filter $(broken_flavours),$(flavour))) has a broken recipe: $($(firstword $(filter $(broken_flavours),$(flavour)))_broken))
endif
$(foreach b,$(broken_flavours),$(warning broken recipe, flavour $(b) left out: $($(b)_broken)))

# The fragments alone (lines, conflicts) are checked first by lint, which
# needs no tree and is built without one.
$(eval $(call tool,config-lint,config/lint.c,))
# The end of an attempt: which .config is current, the unsaved edits, the
# failure records (lib/records.c reads them back).
$(eval $(call tool,config-commit,config/commit.c,))

# The audit's tools link the tree's own kconfig parser (built by Kbuild from
# the extracted tree into $(kdir)/kconfig), so they always match the tree.
kconfig_dir  := $(kdir)/kconfig/scripts/kconfig
kconfig_objs := $(addprefix $(kconfig_dir)/,confdata.o expr.o lexer.lex.o menu.o \
	parser.tab.o preprocess.o symbol.o util.o)
$(kdir)/kconfig/.built: $(tree_stamp)
	@echo "  KCONFIG $(kver): building the tree's kconfig parser"
	@$(MAKE) -s -C $(src) O=$(kdir)/kconfig allnoconfig >/dev/null
	@touch $@
# Where the kconfig API of 6.1 and 6.12 differs, the code follows what this
# tree's expr.h declares (recursive '=': read when the recipe runs, after
# the tree exists). 6.12's headers also need scripts/include.
kconfig_expr_h = $(src)/scripts/kconfig/expr.h
kconfig_flags = $(shell grep -q 'struct list_head menus;' $(kconfig_expr_h) && echo -DKF_SYM_MENUS) \
	$(shell grep -q 'const char \*filename;' $(kconfig_expr_h) && echo -DKF_MENU_FILENAME) \
	-isystem $(src)/scripts/kconfig -isystem $(src)/scripts/include -isystem $(kconfig_dir)

# Kconfig's compiler probes come from $(KF_PROBE_CACHE) (lib/probes.c,
# which answers kconfig's popen() calls): about 60 probes, most of a parse.
probes_wrap := -Wl,--wrap=popen,--wrap=pclose
# kconfig_tool NAME, SOURCES: $(ktools)/NAME, the tool template's build
# with lib/kconf.c and this tree's kconfig objects.
define kconfig_tool
$(call tool,$(1),$(2) lib/kconf.c lib/probes.c lib/proc.c lib/sha256.c $(records_src),$(kconfig_objs) -ljansson -lcrypto $(probes_wrap),$(ktools),$$(kconfig_flags))
$(ktools)/$(1): lib/kconf.h $(kdir)/kconfig/.built
endef
$(eval $(call kconfig_tool,config-audit,config/audit.c config/explain.c config/misses.c config/sysreq.c))
$(eval $(call kconfig_tool,config-diff,config/diff.c config/kdiff.c))
$(eval $(call kconfig_tool,config-prompts,config/prompts.c))
$(eval $(call kconfig_tool,config-savedefconfig,config/savedefconfig.c))
$(ktools)/config-audit: config/audit.h config/sysreq.h
$(ktools)/config-diff: config/kdiff.h

# Every symbol of fragments/policy must be one of this tree's Kconfig
# symbols (or its rule say gone=<kver>): a misspelt one would pass silently.
$(kdir)/kconfig.symbols: $(tree_stamp)
	@grep -rhoE --include='Kconfig*' '^[[:space:]]*(menu)?config[[:space:]]+[A-Za-z0-9_]+' $(src) | \
		awk '{print $$2}' | sort -u > $@.tmp.$$$$ && mv $@.tmp.$$$$ $@
$(kdir)/policy.checked: fragments/policy $(kdir)/kconfig.symbols $(tools)/config-policy
	@$(tools)/config-policy --symbols $(kdir)/kconfig.symbols $(kver) fragments/policy
	@touch $@

# tinyconfig's first half, allnoconfig over tiny-base.config, is the same
# for every tiny flavour of a tree and compiler: made once here, each merge
# starts from a copy (it was 4 s of a 9 s merge, most of it the kernel's
# Makefile and Kconfig probing the compiler).
tinyconfig_base := $(kdir)/tinyconfig.base
$(tinyconfig_base): $(kdir)/kconfig/.built $(out)/toolchain.stamp
	@$(MAKE) -s -C $(src) O=$(kdir)/kconfig KCONFIG_CONFIG=tinyconfig.base.tmp \
		KCONFIG_ALLCONFIG=$(src)/kernel/configs/tiny-base.config allnoconfig >/dev/null
	@mv $(kdir)/kconfig/tinyconfig.base.tmp $@

# config.stamp, not .config, is make's target: config-commit replaces .config
# only when its content changed, so an unchanged merge does not rebuild the kernel.
# A flavour on a base other than tinyconfig (recipe key 'base') merges onto
# that config file, KF_BASE; a missing one is merge.sh's clear error.
define flavour_config
# The flavour resolved once for this tree (config/flavour.schema.json): the
# later stages take it, not the recipe. Rewritten only when it changes
# (config-flavours --record leaves an equal file alone), so an edit of
# another recipe re-boots nothing.
$(kdir)/$(1)/flavour.json: $(flavours_mk) $(tools)/config-flavours
	@mkdir -p $$(@D)
	@$(tools)/config-flavours --record $(kver) $(1) $$@
$(kdir)/$(1)/config.stamp: $(tree_stamp) flavours/$(1).flavour $($(1)_fragment_files) \
		fragments/renames fragments/systemd.needs config/merge.sh $(tools)/config-lint $(ktools)/config-audit $(tools)/config-policy $(tools)/config-commit fragments/policy \
		$(wildcard $($(1)_base_file)) $(if $($(1)_base_file),,$(tinyconfig_base)) | $(kdir)/policy.checked \
		$(kdir)/$(1)/flavour.json
	@KF_LINT='$(tools)/config-lint' KF_POLICY='$(tools)/config-policy' KF_COMMIT='$(tools)/config-commit' KF_TINY='$(tinyconfig_base)' \
		KF_BASE='$($(1)_base_file)' KF_BASE_NAME='$($(1)_base)' \
		config/merge.sh $(1) '$(src)' '$(kdir)/$(1)' '$(ktools)/config-audit' $($(1)_fragment_files)
endef
$(foreach f,$(all_flavours),$(eval $(call flavour_config,$(f))))
config_stamps = $(foreach f,$(flavour),$(kdir)/$(f)/config.stamp)

.PHONY: config defconfigs check-defconfigs
config: $(config_stamps)

# savedefconfig output, committed, so a reviewer sees every real change;
# config-savedefconfig writes the tree's savedefconfig of every flavour
# named, Kconfig parsed once for all of them.
savedefconfigs = $(ktools)/config-savedefconfig --srctree $(src) \
	$(foreach f,$(flavour),$(kdir)/$(f)/.config $(kdir)/$(f)/defconfig)
defconfigs: $(config_stamps) $(ktools)/config-savedefconfig
	@mkdir -p defconfigs/$(kver)
	@$(savedefconfigs)
	@for f in $(flavour); do \
		cp $(kdir)/$$f/defconfig defconfigs/$(kver)/$${f}_defconfig.tmp; \
		mv defconfigs/$(kver)/$${f}_defconfig.tmp defconfigs/$(kver)/$${f}_defconfig; \
		echo "  DEFCONF defconfigs/$(kver)/$${f}_defconfig"; \
	done

check-defconfigs: $(config_stamps) $(ktools)/config-savedefconfig
	@$(savedefconfigs)
	@rc=0; for f in $(flavour); do \
		if ! diff -u --label defconfigs/$(kver)/$${f}_defconfig --label "merged $$f" \
			defconfigs/$(kver)/$${f}_defconfig $(kdir)/$$f/defconfig; then \
			echo "kflavour: defconfigs/$(kver)/$${f}_defconfig is out of date with fragments/ (diff above); run 'make defconfigs kver=$(kver)' and commit it" >&2; \
			rc=1; \
		fi; \
	done; exit $$rc

# menuconfig, savefragment, newflavour and the policy checker.
include config/edit.mk
