# upgrade: what moving each flavour from the tree from= to the tree to= does
# (docs/upgrade.md): new prompts, gone and changed symbols, fragments that
# stop applying, boot differences.
#   make upgrade from=6.1 to=6.12 [flavour=...] [write=1]
#   make upgrade old=FILE [name=NAME]   any config (plain or .xz) instead:
#                                       olddefconfig on from=, then the same
# -> $(out)/upgrade/<from>-<to>/upgrade.json (upgrade/upgrade.schema.json),
#    upgrade.html (upgrade-NAME.json/.html for old=), <flavour>/ (the carried
#    config, listnewconfig output), <flavour>.undecided.config with write=1.
from ?= 6.1
to   ?= 6.12
old  ?=
name ?= custom
write ?=
upgrade_dir  := $(out)/upgrade/$(from)-$(to)
upgrade_tool := $(out)/$(to)/tools/upgrade
upgrade_flavours = $(if $(old),$(name),$(flavour))
# A config given with old= has a report of its own beside the flavours'.
upgrade_report = $(upgrade_dir)/upgrade$(if $(old),-$(name))

# Built by 'make kver=<to> upgrade-tool': it links that tree's kconfig, like
# the audit (config/config.mk).
$(eval $(call kconfig_tool,upgrade,upgrade/upgrade.c))
$(eval $(call tool,upgrade-report,upgrade/report.c $(report_page) lib/record.c,-ljansson))

.PHONY: upgrade upgrade-tool upgrade-flavours
upgrade-tool: $(ktools)/upgrade $(tools)/upgrade-report $(tools)/config-flavours

# The old final configs, then the new tree's configs (whose audit may fail:
# that is section 4 of the report, so the upgrade goes on), then the report.
upgrade:
	$(if $(filter $(from),$(kvers)),,$(error from=$(from) is not known; valid: $(kvers)))
	$(if $(filter $(to),$(kvers)),,$(error to=$(to) is not known; valid: $(kvers)))
	$(if $(and $(old),$(filter $(name),$(recipes))),$(error name=$(name) is a flavour's name; give the config given with old= another name=))
	@$(MAKE) kver=$(from) $(if $(old),tree,config)
	@$(MAKE) kver=$(to) $(if $(old),tree,-k config) || \
		echo "kflavour: some requests stop applying on $(to) (audit above); the upgrade report lists them"
	@$(MAKE) -s kver=$(to) upgrade-tool
	@$(MAKE) upgrade-flavours
	@$(tools)/upgrade-report --from $(from) --to $(to) --json $(upgrade_report).json \
		--html $(upgrade_report).html $(foreach f,$(upgrade_flavours),$(upgrade_dir)/$(f)/upgrade.json)

# The new tree's latest audit of a flavour: config-flavours --audit asks
# lib/records.c's kf_config_state_read(), the one reader of the config
# stage's rule (a failed attempt's record is config-failed.json;
# config.json stays the last good config's).

# One flavour: carry its old final config to the new tree, then the tool.
# Fragment lists come from the recipes as each tree resolves them.
frag_files = $$$$($(tools)/config-flavours --fragments $(1) $(2))
define upgrade_flavour
.PHONY: upgrade-$(1)
upgrade-flavours: upgrade-$(1)
upgrade-$(1):
	@echo "  UPGRADE $(1): $(from) -> $(to)"
	$(if $(old),@upgrade/carry.sh '$(out)/$(from)/src' '$(old)' '$(upgrade_dir)/$(1)/from')
	@upgrade/carry.sh '$(out)/$(to)/src' \
		'$(if $(old),$(upgrade_dir)/$(1)/from/carried.config,$(out)/$(from)/$(1)/.config)' \
		'$(upgrade_dir)/$(1)'
	@$(upgrade_tool) --srctree '$(out)/$(to)/src' --flavour $(1) \
		--old '$(if $(old),$(upgrade_dir)/$(1)/from/carried.config,$(out)/$(from)/$(1)/.config)' \
		--carried '$(upgrade_dir)/$(1)/carried.config' \
		--newprompts '$(upgrade_dir)/$(1)/listnewconfig' \
		--json '$(upgrade_dir)/$(1)/upgrade.json' \
		$(if $(write),--undecided '$(upgrade_dir)/$(1).undecided.config') \
		$(if $(old),,--audit "$$$$($(tools)/config-flavours --audit '$(out)/$(to)/$(1)')" \
			--old-boot '$(out)/$(from)/$(1)/boot' --new-boot '$(out)/$(to)/$(1)/boot' \
			--old-fragments "$(call frag_files,$(from),$(1))" -- $(call frag_files,$(to),$(1)))
endef
$(foreach f,$(upgrade_flavours),$(eval $(call upgrade_flavour,$(f))))
