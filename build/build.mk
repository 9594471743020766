# build: Kbuild O=$(kdir)/<flavour> bzImage for every selected flavour.
#        -> $(kdir)/<f>/build.stamp (make's target), build.log, build.json
# Every flavour's Kbuild is a recipe of this one make, so all of them share
# its jobserver (-j$(jobs)). docs/build.md explains the choices below.

$(eval $(call tool,build-progress,build/progress.c build/kbuild.c build/ccremote.c lib/proc.c $(records_src),-ljansson))
$(eval $(call tool,build-facts,build/facts.c build/kbuild.c build/ccremote.c lib/elf.c lib/sha256.c $(records_src),-lelf -ljansson -lcrypto))
$(eval $(call tool,cache-check,build/cachecheck.c build/ccremote.c lib/proc.c lib/sha256.c,-lcrypto))
$(eval $(call tool,farm-check,build/farmcheck.c lib/elf.c lib/proc.c,-lelf))
$(eval $(call tool,farm-net,build/farmnet.c lib/proc.c,))
build_tools := $(tools)/build-progress $(tools)/build-facts
$(build_tools): build/kbuild.h build/ccremote.h
$(tools)/cache-check: build/ccremote.h
# A build's inputs are the tools' sources, not their binaries: tools rebuilt
# from the same sources (another out=, another user) rebuild no kernel.
build_tool_src := build/progress.c build/facts.c build/kbuild.c build/kbuild.h build/build.mk \
	build/ccremote.c build/ccremote.h

# Toolchain: rewritten only when the compiler or linker version changes, so
# its mtime is a build input like any file (the Kbuild 'filechk' idiom).
toolchain_stamp := $(out)/toolchain.stamp
.PHONY: kf-build-force
$(toolchain_stamp): kf-build-force
	@mkdir -p $(@D)
	@{ gcc --version | head -n 1; ld --version | head -n 1; } > $@.tmp.$$$$; \
	if cmp -s $@.tmp.$$$$ $@; then rm -f $@.tmp.$$$$; else mv $@.tmp.$$$$ $@; fi

# ccache (CCACHE=0: off) and distcc (DISTCC_HOSTS set) through Debian's
# masquerade directories: Kbuild always runs plain "gcc", so its recorded
# commands (.cmd) do not change, and turning either on or off never makes
# Kbuild rebuild a tree. CCACHE_BASEDIR=$(kdir) makes the paths ccache hashes
# relative to <out>/<kver>, so another out= directory gets cache hits.
CCACHE_DIR ?= $(HOME)/.cache/ccache
ccache_on := $(if $(filter-out 0,$(CCACHE)),$(if $(wildcard /usr/lib/ccache/gcc),1))
distcc_on := $(if $(strip $(DISTCC_HOSTS)),$(if $(wildcard /usr/lib/distcc/gcc),1))
ifneq ($(strip $(DISTCC_HOSTS)),)
ifeq ($(distcc_on),)
$(error DISTCC_HOSTS is set but distcc is not installed; apt-get install distcc)
endif
endif
# distcc's timeouts (docs/build.md "A distcc farm"): a host that accepts a
# connection and never answers (a stopped distccd, a hung machine) holds a
# compile for DISTCC_IO_TIMEOUT seconds to send and again to answer
# (distcc's default 300), then distcc sends that compile to another host or
# compiles it here, and avoids the host for DISTCC_BACKOFF_PERIOD seconds
# (default 60). 0 would end the backoff: distcc 3.4 then sends a compile to
# a refusing host again and again, forever (seen here). Connecting has its
# own fixed 4 s timeout. Set either on the command line or environment.
DISTCC_IO_TIMEOUT ?= 60
DISTCC_BACKOFF_PERIOD ?= 120
ifneq ($(distcc_on),)
ifeq ($(filter-out 0,$(DISTCC_BACKOFF_PERIOD)),)
$(error DISTCC_BACKOFF_PERIOD=0 makes distcc retry a refusing host forever; give it seconds, e.g. 120)
endif
endif
# ccache_remote=redis://[:PASSWORD@]HOST[:PORT]: ccache's remote storage,
# shared by a team, read and written by every flavour's build as well as the
# local cache (docs/build.md "A shared compiler cache"). Its URL reaches the
# tools in the environment (KF_CCACHE_REMOTE), never on a command line, and
# every message shows the password as ***. Before any build, cache-check
# --form refuses a malformed URL, another scheme and a ccache without Redis
# support; build-progress then probes the server (2 s) and builds with the
# local cache only, warning once, when it does not answer or refuses the
# password; ccache itself gives up on it after CCR_CONNECT_MS/
# CCR_OPERATION_MS per compile (build/ccremote.h). Off with CCACHE=0.
ccache_remote ?=
ccremote_want := $(if $(filter-out 0,$(CCACHE)),$(if $(strip $(ccache_remote)),1))
build_path := $(if $(ccache_on),/usr/lib/ccache:,$(if $(distcc_on),/usr/lib/distcc:))$(PATH)

# distcc would run "gcc" as "x86_64-linux-gnu-gcc" (its cross rewrite), also
# for the "gcc --version" Kbuild runs: CONFIG_CC_VERSION_TEXT would change,
# Kbuild would reconfigure and rebuild everything, and the image would name
# another compiler. DISTCC_NO_REWRITE_CROSS=1 keeps the name: that is what
# distcc 3.4 reads; its man page says DISTCC_NO_CROSS_REWRITE (set both).
# ccache runs in depend mode: a miss costs one compile, not a preprocessor
# run and a compile (direct mode, 1.27-1.45x a build without ccache);
# Kbuild's -Wp,-MMD dependency file is what it hashes (docs/build.md).
# ccache with a base directory compiles "../src/mm/x.c", not "$(src)/mm/x.c",
# so Kbuild's -fmacro-prefix-map=$(src)/= no longer strips __FILE__ and the
# objects would differ from a build without ccache. The second map strips the
# relative form (O= is always $(kdir)/<f>, the tree $(kdir)/src). It is given
# with and without ccache, so the command Kbuild records does not change.
kbuild_cppflags := -fmacro-prefix-map=../src/=
# Objects built with -g (arch/x86/boot, realmode; every object of a distro
# config with DEBUG_INFO) name the directory they were compiled in. Mapping
# the O= directory to '.' keeps that name the same in every out=, and
# ccache, which hashes that directory for -g objects, hashes the mapped one:
# a warm build in another out= hits them too (docs/build.md).
kbuild_debugmap = -fdebug-prefix-map=$(abspath $(kdir)/$(1))=.
# Host programs (scripts/kconfig/conf, fixdep, modpost, objtool) get no map
# from Kbuild, and Kbuild gives them the tree by its absolute path, so
# __FILE__ in a header (kconfig's lkc.h) puts that path in the binary. The
# base directory makes their compile a ccache hit from any tree, so the
# headers package would carry whichever tree's path the cache held: the
# same map as the kernel's objects strips it (docs/system-boot.md).
kbuild_hostmap = -fmacro-prefix-map=$(or $(realpath $(src)),$(abspath $(src)))/=

# distcc's client log, verbose: its "compile F on HOST completed ok" lines
# are the only record of where each compile ran (the terse log has only the
# failures); about 60 lines per compile, 5 MB for 1,000. build-facts counts
# them into build.json's "distcc" (build/kbuild.h kb_distcc_count).
# kbuild_env FLAVOUR: the environment of one flavour's Kbuild.
# KBUILD_BUILD_TIMESTAMP is the tree's release date: the mtime of the
# extracted top Makefile, which Debian sets to the package's changelog date.
kbuild_env = env $(addprefix -u ,$(cmdline_vars)) -u ccache_remote PATH='$(build_path)' \
	KBUILD_BUILD_TIMESTAMP="$$(LC_ALL=C date -u -r $(src)/Makefile)" \
	KBUILD_BUILD_USER=kflavour KBUILD_BUILD_HOST=kflavour KBUILD_BUILD_VERSION=1 \
	KCPPFLAGS='$(kbuild_cppflags) $(call kbuild_debugmap,$(1))' HOSTCFLAGS='$(kbuild_hostmap)' \
	$(if $(ccache_on),CCACHE_DIR='$(CCACHE_DIR)' CCACHE_BASEDIR='$(kdir)' CCACHE_DEPEND=1 \
		CCACHE_STATSLOG='$(kdir)/$(1)/ccache.log' $(if $(distcc_on),CCACHE_PREFIX=distcc),CCACHE_DISABLE=1) \
	$(if $(distcc_on),DISTCC_HOSTS='$(DISTCC_HOSTS)' DISTCC_NO_REWRITE_CROSS=1 DISTCC_NO_CROSS_REWRITE=1 \
		DISTCC_IO_TIMEOUT='$(DISTCC_IO_TIMEOUT)' DISTCC_BACKOFF_PERIOD='$(DISTCC_BACKOFF_PERIOD)' \
		DISTCC_LOG='$(kdir)/$(1)/distcc.log' DISTCC_VERBOSE=1)

# Our command-line variables (out=, flavour=, cpu=...) must not reach Kbuild,
# where e.g. 'out' is a variable of its own: make passes them in MAKEFLAGS
# (emptied by MAKEOVERRIDES :=) and in the environment (env -u).
cmdline_vars = $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(v)))

# .config is replaced by the config stage only when its content changes; the
# empty recipe makes make look at its mtime again after config.stamp's recipe.
define flavour_build
$(kdir)/$(1)/.config: $(kdir)/$(1)/config.stamp ;
$(kdir)/$(1)/build.stamp: MAKEOVERRIDES :=
$(kdir)/$(1)/build.stamp: export KF_CCACHE_REMOTE := $(if $(ccremote_want),$(ccache_remote))
$(kdir)/$(1)/build.stamp: $(kdir)/$(1)/.config $(tree_stamp) $(toolchain_stamp) \
		$(build_tool_src) $(kdir)/$(1)/modules.want | $(build_tools) $$$$(call build_after,$(1)) \
		$(if $(ccremote_want),kf-cache-form)
	@rm -f $$@
	@if [ -f $(kdir)/$(1)/ccache.log ]; then \
		cat $(kdir)/$(1)/ccache.log >> $(kdir)/$(1)/ccache-history.log && rm -f $(kdir)/$(1)/ccache.log; fi
	@rm -f $(kdir)/$(1)/distcc.log
	@if [ -f $(kdir)/$(1)/build.json ]; then mv -f $(kdir)/$(1)/build.json $(kdir)/$(1)/.build.json.prev; fi
	@$$(call kbuild_env,$(1)) $$(if $$(dry_run),,$(tools)/build-progress --name $(1) \
		--log $(kdir)/$(1)/build.log \
		$$$$(cmp -s $(kdir)/$(1)/modules.want $(kdir)/$(1)/modules.built && \
			echo --expect-json $(kdir)/$(1)/.build.json.prev) --expect-config $(kdir)/$(1)/.config \
		$(if $(filter 1,$(modules)),--modules) --interval $(progress_interval) \
		$(if $(ccremote_want),--remote-state $(kdir)/$(1)/ccache-remote) --) \
		$$(MAKE) -C $(src) O=$(kdir)/$(1) bzImage $(if $(filter 1,$(modules)),modules)
	@$(tools)/build-facts --flavour $(1) --kver $(kver) --odir $(kdir)/$(1) \
		--ccache $(if $(ccache_on),1,0) --ccache-log $(kdir)/$(1)/ccache.log \
		$(if $(ccremote_want),--ccache-remote-state $(kdir)/$(1)/ccache-remote) \
		$(if $(distcc_on),--distcc-hosts '$(DISTCC_HOSTS)' --distcc-log $(kdir)/$(1)/distcc.log)
	@cp $(kdir)/$(1)/modules.want $(kdir)/$(1)/modules.built
	@touch $$@
endef
progress_interval ?= 10
# make -n runs the line above anyway (it names $(MAKE)): Kbuild then prints
# its commands as it does under -n, and build-progress stays out of it, so
# the last build's build.log is not replaced by a dry run's output.
dry_run = $(findstring n,$(firstword -$(MAKEFLAGS)))
# modules=1 builds a flavour's modules too (a distro config has thousands);
# default bzImage only, which is all the boot needs. modules.want changes
# only when modules= does, so switching it re-runs Kbuild, nothing else.
# modules.built is the setting of the last good build: the object count of
# a build with the other setting is no total for this one's progress (the
# previous build.json stays, for build-facts' last_full_build).
modules ?= 0
$(kdir)/%/modules.want: kf-build-force
	@mkdir -p $(@D)
	@echo '$(modules)' | cmp -s - $@ || echo '$(modules)' > $@
$(foreach f,$(all_flavours),$(eval $(call flavour_build,$(f))))
build_stamps = $(foreach f,$(flavour),$(kdir)/$(f)/build.stamp)

# The flavours build one after another under the one jobserver:
# each Kbuild alone keeps $(jobs) slots busy on a small machine, and several
# at once only compete for the CPU caches (on 2 cores 0-6% slower than one
# after another, docs/build.md). A finished flavour boots while the
# next one compiles. overlap=1 starts them all at once: for machines with
# more cores than one Kbuild keeps busy (docs/build.md).
# Only the builds this make's goals need are chained (an order-only
# prerequisite is built when missing): a goal that names its flavours
# another way sets builds_for_<goal> (bisect: good= bad=, logdiff: a= b=,
# diffconfig: none); every other goal needs flavour='s. Read when make
# reaches a stamp (second expansion): the stage files set them later.
overlap ?= 0
build_order = $(call kf_uniq,$(foreach g,$(goals),$(if \
	$(filter undefined,$(origin builds_for_$(g))),$(flavour),$(builds_for_$(g)))))
# build_after F: the stamp F's build waits for, the build before it in build_order.
build_after = $(if $(filter 1,$(overlap)),,$(patsubst %,$(kdir)/%/build.stamp,$(call \
	kf_word_before,$(1),$(build_order))))
kf_uniq = $(if $(1),$(firstword $(1)) $(call kf_uniq,$(filter-out $(firstword $(1)),$(1))))
# kf_word_before W, LIST: the word before W in LIST; none when W is first or absent.
kf_word_before = $(if $(filter $(1),$(word 2,$(2))),$(word 1,$(2)),$(if \
	$(word 3,$(2)),$(call kf_word_before,$(1),$(wordlist 2,$(words $(2)),$(2)))))

.PHONY: build check-repro
build: $$(build_stamps) ; @:

# check-repro: the flavour built twice without ccache in two out=
# directories, bzImage compared byte for byte. The first build is this out's
# when every object in it came from the compiler (no ccache hit in any build
# of that O= directory: ccache.log + ccache-history.log); else $(out)/repro/1.
# The second is always $(out)/repro/2. Both share this tree (hard links).
check-repro: $$(build_stamps) $(tools)/build-facts
	@for f in $(flavour); do \
		build/repro.sh '$(MAKE)' '$(top)' '$(out)' '$(kver)' "$$f" || exit 1; \
	done

# farm-check: each host of the user's DISTCC_HOSTS compiles a probe; the
# object must equal this machine's (build/farmcheck.c). Run it before a long
# build: a host with another compiler would make other objects.
.PHONY: farm-check
farm-check: $(tools)/farm-check
	@$(if $(strip $(DISTCC_HOSTS)),,echo "kflavour: farm-check: DISTCC_HOSTS is empty; give the hosts, e.g. make farm-check DISTCC_HOSTS='host1/4 host2/4'" >&2; exit 2;)
	@$(tools)/farm-check --hosts '$(DISTCC_HOSTS)' --timeout '$(farm_check_timeout)'
# Seconds a host may take to answer the probe (its DISTCC_IO_TIMEOUT).
farm_check_timeout ?= 20

# cache-check: the shared cache of ccache_remote answers, accepts the
# password, stores an object and returns it (build/cachecheck.c, with
# ccache itself). kf-cache-form: its form and ccache's Redis support only,
# before any build that uses it.
.PHONY: cache-check kf-cache-form
cache-check kf-cache-form: export KF_CCACHE_REMOTE := $(ccache_remote)
cache-check: $(tools)/cache-check
	@$(tools)/cache-check --timeout '$(cache_check_timeout)'
kf-cache-form: $(tools)/cache-check
	@$(tools)/cache-check --form --quiet
# Seconds the server may take to answer each step.
cache_check_timeout ?= 5
