# edit: change flavours the way distro teams do (docs/flavours.md).
#   make menuconfig|nconfig|oldconfig flavour=F   the tree's configurator on F's config
#   make savefragment flavour=F [to=FRAGMENT]     those edits into fragments/flavour-F.config
#   make newflavour name=N choice=SYMBOL model=M  scaffold flavours/N.flavour + fragments/cpu-N.config
# and the policy (fragments/policy) that config/merge.sh checks on every run.
# Included by config/config.mk, after the recipes (flavours.mk) are read.

$(eval $(call tool,config-policy,config/policy.c,))
$(eval $(call tool,config-savefragment,config/savefragment.c,))
$(eval $(call tool,config-newflavour,config/newflavour.c,))

# The one flavour an edit works on: named on the command line (or in the
# environment), never the default "all".
edit_goals   := menuconfig nconfig oldconfig savefragment
edit_recipes := $(sort $(patsubst flavours/%.flavour,%,$(wildcard flavours/*.flavour)))
edit_flavour := $(if $(filter file default undefined,$(origin flavour)),,$(if \
	$(filter 1,$(words $(flavour))),$(strip $(flavour))))
ifneq ($(filter $(edit_goals),$(MAKECMDGOALS)),)
ifeq ($(edit_flavour),)
$(error make $(firstword $(filter $(edit_goals),$(MAKECMDGOALS))) edits one flavour: name exactly one, e.g. flavour=mpsc (flavours: $(edit_recipes)))
endif
endif

.PHONY: $(edit_goals) newflavour

# menuconfig/nconfig draw with ncurses: mk/deps.sh names the package to
# install (and, as root, installs it). oldconfig needs nothing more.
menuconfig nconfig: edit_deps = mk/deps.sh libncurses-dev || { \
	echo "kflavour: make $@ needs the ncurses headers (above); 'make oldconfig flavour=$(edit_flavour)' needs none" >&2; exit 2; }

# Edits not saved yet are kept: the configurator continues on them. Otherwise
# the config stage runs first, so the edit starts from the current merge.
menuconfig nconfig oldconfig: $(tools)/config-policy $(flavours_mk)
	@$(or $(edit_deps),:)
	@d='$(kdir)/$(edit_flavour)'; \
	if [ -f "$$d/.config.merged" ] && [ -f "$$d/.config" ] && ! cmp -s "$$d/.config" "$$d/.config.merged"; then \
		echo "  EDIT    $(edit_flavour): continuing the edits not saved yet ('make savefragment flavour=$(edit_flavour)' keeps them)"; \
	else \
		[ -f "$$d/.config.merged" ] || rm -f "$$d/config.stamp"; \
		$(MAKE) config flavour=$(edit_flavour); \
	fi
	@$(MAKE) -C '$(src)' O='$(kdir)/$(edit_flavour)' $@
	@echo "  EDIT    $(edit_flavour): $(kdir)/$(edit_flavour)/.config; 'make savefragment flavour=$(edit_flavour)' writes the changes into a fragment"
	@$(tools)/config-policy fragments/policy $(edit_flavour) '$(kdir)/$(edit_flavour)/.config' || \
		echo "kflavour: these edits break fragments/policy (above): savefragment will refuse them" >&2

# to=NAME (or a fragment path) sends the edits to that fragment of the
# recipe instead of the flavour's own; every flavour using it is remerged.
to_name := $(basename $(notdir $(to)))
edit_affected := $(strip $(if $(to_name),$(foreach g,$(filter $(edit_recipes),$(all_flavours)),$(if \
	$(filter $(to_name),$($(g)_fragments)),$(g))),$(edit_flavour)))

savefragment: $(tools)/config-savefragment $(tools)/config-policy $(ktools)/config-savedefconfig $(flavours_mk)
	@config/savefragment.sh '$(MAKE)' '$(edit_flavour)' '$(kver)' '$(src)' \
		'$(kdir)/$(edit_flavour)' '$(tools)/config-savefragment' '$(tools)/config-policy' '$(to_name)' \
		'$($(edit_flavour)_fragments)' '$($(edit_flavour)_fragment_files)' \
		'$(edit_affected)' '$(ktools)/config-savedefconfig'

# choice= is newflavour's Kconfig symbol (the "Processor family" choice);
# cpu= is the boot targets' CPU models everywhere, refused here by name.
ifneq ($(filter newflavour,$(MAKECMDGOALS)),)
ifneq ($(cpu),)
$(error make newflavour: cpu= is the CPU models the boot targets boot on; the processor-family symbol is choice=SYMBOL (e.g. choice=$(cpu)), the new flavour's CPU model model=NAME)
endif
newflavour_cpu := $(choice)
ifeq ($(and $(name),$(newflavour_cpu),$(model)),)
$(error make newflavour needs name=, choice= and model=, e.g. 'make newflavour name=core2 choice=MCORE2 model=core2' (choice: a processor-family symbol of arch/x86/Kconfig.cpu; model: a name in boot/cpu-models))
endif
endif

newflavour: $(tools)/config-newflavour $(kdir)/kconfig/.built
	@config/newflavour.sh '$(MAKE)' '$(name)' '$(newflavour_cpu)' '$(model)' '$(kver)' \
		'$(src)' '$(kdir)/kconfig' '$(tools)/config-newflavour'
