# Host tools: one C file per job, linked with lib/, built into $(tools).
# Every C file is built with the same strict flags, into a temporary name
# then renamed: an unlocked 'make list' may run a tool while it is rebuilt.
HOSTCC     ?= gcc
KF_CFLAGS  := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wshadow \
	-Wstrict-prototypes -Wmissing-prototypes -D_GNU_SOURCE
lib_src    := lib/util.c lib/recipe.c lib/strbuf.c lib/dotconfig.c lib/cpumodels.c lib/policy.c lib/conline.c lib/fragment.c lib/renames.c
lib_hdr    := lib/kf.h lib/dotconfig.h lib/cpumodels.h lib/record.h lib/records.h lib/proc.h lib/policy.h lib/elf.h lib/conline.h lib/fragment.h lib/renames.h
# What a tool that reads the stage records links (with -ljansson): the typed
# readers (lib/records.h) and the one JSON layer under them.
records_src := lib/records.c lib/record.c

# A compile shows as Kbuild's do: "  HOSTCC  report", the whole command
# with V=1, nothing with make -s. The compiler's messages show either way.
hostcc_cmd = $(if $(filter 1,$(V)),,@$(if $(findstring s,$(firstword -$(MAKEFLAGS))),,echo '  HOSTCC  $(patsubst $(tools)/%,%,$(if $(filter %.o,$@),$@,$(notdir $@)))'; ))

# lib/ is compiled once per out=, into $(tools)/lib/*.o, and linked into
# each tool and unit test: not once per program (some 80 of them), which was
# most of a cold make check's first minute. -MMD: each object's headers.
lib_objdir := $(tools)/lib
lib_obj = $(patsubst lib/%.c,$(lib_objdir)/%.o,$(1))
$(lib_objdir)/%.o: lib/%.c | deps
	@mkdir -p $(@D)
	$(hostcc_cmd)$(HOSTCC) $(KF_CFLAGS) -MMD -MP -MT $@ -MF $@.d.tmp.$$$$ -c -o $@.tmp.$$$$ $< && \
		mv $@.d.tmp.$$$$ $@.d && mv $@.tmp.$$$$ $@
-include $(wildcard $(lib_objdir)/*.o.d)

# prog_src SOURCES: what a program's link line takes for SOURCES and lib/:
# the lib/ files as their objects, but for lib/kconf.c and lib/probes.c,
# which the kconfig tools compile with their tree's headers (kconf.h
# includes kconfig's lkc.h; config/config.mk).
lib_per_tree := lib/kconf.c lib/probes.c
lib_shared = $(filter-out $(lib_per_tree),$(filter lib/%.c,$(1)))
prog_src = $(filter-out $(call lib_shared,$(1)),$(1)) $(call lib_obj,$(sort $(call lib_shared,$(1)) $(lib_src)))

# tool NAME, SOURCES, LIBS[, DIR, FLAGS]: DIR/NAME from SOURCES + lib/, linked
# with LIBS, compiled with FLAGS too (expanded when the recipe runs). DIR is
# $(tools) by default; a tool of another DIR (a tree's, config/config.mk's
# kconfig_tool) is not one of $(host_tools), which need no tree.
define tool
$(or $(4),$(tools))/$(1): $(call prog_src,$(2)) $(lib_hdr) | deps
	@mkdir -p $$(@D)
	$$(hostcc_cmd)$$(HOSTCC) $$(KF_CFLAGS) $(5) -o $$@.tmp.$$$$$$$$ $(call prog_src,$(2)) $(3) && mv $$@.tmp.$$$$$$$$ $$@
$(if $(4),,host_tools += $(tools)/$(1))
endef

$(eval $(call tool,config-flavours,config/flavours.c $(records_src),-ljansson))
