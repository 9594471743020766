# The TCG plugins, built against the plugin header of the QEMU that runs
# them: Debian ships it in no binary package, so it comes from Debian's
# qemu source package of the installed qemu-system-x86's version
# (c2c/qemu-src.sh: apt-get source with a sources list and lists directory
# under $(out)/qemu-src; nothing in /etc changes). Fetched once per
# version: the extracted files are the cache, and a second make downloads
# nothing.
#   $(c2c_plugin)        c2c/plugin.c
#   $(c2c_insn_plugin)   QEMU's tests/plugin/insn.c, the cross-check
#   $(c2c_mem_plugin)    QEMU's tests/plugin/mem.c, the cross-check

qemu_bin ?= qemu-system-x86_64
# The plugin API c2c/plugin.c is written for (QEMU 7.2).
c2c_plugin_api := 1

# Deferred, and asked once: only a c2c goal needs it.
qemu_src_version = $(eval qemu_src_version := $$(shell dpkg-query -W \
	-f='$$$${source:Version}' qemu-system-x86 2>/dev/null))$(qemu_src_version)
qemu_src = $(out)/qemu-src/$(subst :,_,$(qemu_src_version))
c2c_plugin_dir = $(out)/c2c-plugins/$(subst :,_,$(qemu_src_version))
c2c_plugin      = $(c2c_plugin_dir)/kf-c2c.so
c2c_insn_plugin = $(c2c_plugin_dir)/libinsn.so
c2c_mem_plugin  = $(c2c_plugin_dir)/libmem.so

plugin_cflags := -shared -fPIC -O2 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -D_GNU_SOURCE

$(out)/qemu-src/%/VERSION: c2c/qemu-src.sh | deps
	@if [ -z '$(qemu_src_version)' ]; then \
		echo "kflavour: qemu-system-x86 is not installed (dpkg-query knows no source version); run make deps" >&2; exit 2; fi
	@echo "  FETCH   Debian source qemu=$(qemu_src_version) (plugin header, insn.c, mem.c)"
	@c2c/qemu-src.sh '$(@D)' '$(qemu_src_version)'

# The QEMU that runs the boots must take -plugin: a QEMU built without
# plugin support rejects the option.
$(c2c_plugin_dir)/qemu-plugins.ok: | deps
	@mkdir -p $(@D)
	@if ! $(qemu_bin) -plugin file=/dev/null -version > $@.log 2>&1; then \
		echo "kflavour: $(qemu_bin) does not take -plugin ($$(tail -n 1 $@.log)): it was built without TCG plugin support; install Debian's qemu-system-x86 (apt-get install qemu-system-x86), which has it" >&2; exit 2; fi
	@touch $@

# The header's API version, before anything is compiled against it.
define c2c_api_check
v=$$(sed -n 's/^#define QEMU_PLUGIN_VERSION \([0-9]*\).*/\1/p' $(qemu_src)/include/qemu/qemu-plugin.h); \
if [ "$$v" != '$(c2c_plugin_api)' ]; then \
	echo "kflavour: $(qemu_src)/include/qemu/qemu-plugin.h is plugin API $${v:-unknown}, c2c/plugin.c is written for API $(c2c_plugin_api) (QEMU 7.2); port c2c/plugin.c to it (docs/c2c.md), or install a qemu-system-x86 of API $(c2c_plugin_api)" >&2; \
	exit 2; fi
endef

$(c2c_plugin): c2c/plugin.c lib/c2c.h $$(qemu_src)/VERSION $$(c2c_plugin_dir)/qemu-plugins.ok
	@$(c2c_api_check)
	$(hostcc_cmd)$(HOSTCC) $(plugin_cflags) -I$(qemu_src)/include/qemu -o $@.tmp c2c/plugin.c && mv $@.tmp $@

# QEMU's own plugins: their code as it is (glib, its warnings not ours).
$(c2c_plugin_dir)/lib%.so: $$(qemu_src)/VERSION $$(c2c_plugin_dir)/qemu-plugins.ok
	@$(c2c_api_check)
	$(hostcc_cmd)$(HOSTCC) -shared -fPIC -O2 -I$(qemu_src)/include/qemu \
		$$(pkg-config --cflags glib-2.0) -o $@.tmp $(qemu_src)/tests/plugin/$*.c \
		$$(pkg-config --libs glib-2.0) && mv $@.tmp $@
