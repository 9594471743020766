# kflavour: pick, build, boot and compare x86-64 kernel flavours.
#
# This file only sets the variables every stage shares, takes the lock on
# $(out), and includes the stages in pipeline order. 'make help' is the map.

SHELL := /bin/bash
.SHELLFLAGS := -eo pipefail -c
.DELETE_ON_ERROR:
.SUFFIXES:
MAKEFLAGS += --no-builtin-rules --no-print-directory

top := $(CURDIR)
# User variables (make help lists them).
kver    ?= 6.1
out     ?= $(top)/out
include mk/paths.mk
override out := $(abspath $(out))
jobs    ?= $(shell nproc)
wait    ?= 1
cpu     ?=
CCACHE  ?= 1
# make deb packages flavours as distros ship them, with their modules
# (package/package.mk); build/build.mk's default is bzImage only.
ifneq ($(filter deb,$(MAKECMDGOALS)),)
modules ?= 1
endif
# Kconfig's compiler probes, kept across parses and out= directories
# (config/probes.c); empty: every parse runs them, as the kernel's make does.
KF_PROBE_CACHE ?= $(out)/kconfig-probes
export KF_PROBE_CACHE

kvers := $(notdir $(wildcard patches/*))
ifeq ($(filter $(kver),$(kvers)),)
$(error kver=$(kver) is not known; valid: $(kvers) (one per patches/<kver>/))
endif

# Goals that only read the checkout run without the lock on $(out).
# 'check' locks nothing itself: its tests run make, which takes the lock.
nolock_goals := help list deps check-deps check
goals := $(or $(MAKECMDGOALS),all)
# The recipes as make variables; config/config.mk makes it. One file per
# checkout: several checkouts may share one out= (the tests do).
flavours_mk := $(out)/$(kver)/flavours-$(shell printf %s '$(top)' | md5sum | cut -c1-8).mk
# help and list read flavours_mk and the flavours tool: without the lock only
# while both are up to date (kf_readonly: nothing is remade); a stale one is
# remade under the lock, so a goal without the lock writes nothing in $(out).
ifneq ($(filter help list,$(goals)),)
ifeq ($(filter-out $(nolock_goals),$(goals)),)
kf_stale := $(shell test -f '$(flavours_mk)' -a -x '$(out)/tools/config-flavours' && \
	find flavours fragments boot/cpu-models '$(out)/tools/config-flavours' -newer '$(flavours_mk)' -print -quit && \
	find config/flavours.c lib -newer '$(out)/tools/config-flavours' -print -quit || echo missing)
ifneq ($(kf_stale),)
nolock_goals := $(filter-out help list,$(nolock_goals))
else
kf_readonly := 1
endif
endif
endif

# Destructive goals are refused before the lock writes anything in $(out).
ifneq ($(filter clean distclean,$(goals)),)
ifneq ($(shell mk/ours '$(out)' 2>/dev/null && echo ours),ours)
$(error refusing to $(filter clean distclean,$(goals)): out=$(out) is not a kflavour output directory ($(shell \
	mk/ours '$(out)' 2>&1)); nothing deleted. Check out=, or delete it yourself)
endif
endif

ifeq ($(filter-out $(nolock_goals),$(goals)),)
unlocked := 1
endif
# mk/lock hands the make it runs KF_LOCKED, the real path of the out= it
# locked: the makes of its recipes on that out= run inside the lock, and a
# make on another out= (build/repro.sh, bench) takes that out='s own lock.
ifneq ($(KF_LOCKED),)
ifeq ($(KF_LOCKED),$(realpath $(out)))
unlocked := 1
endif
endif

ifeq ($(unlocked),)
# Outer make: run the real one under an exclusive lock on $(out), with one
# jobserver of $(jobs) slots unless the caller gave -j already. The recipe
# looks, not the parse: GNU make 4.3 puts a command line's -jN in MAKEFLAGS
# only for recipes (4.4 while parsing too). With -jN given, the real make
# joins this one's jobserver of N slots; a -j$(jobs) of ours would replace
# it ("-j2 forced in submake"): make -j3 built with 2 jobs on 2 cores.
# exec: the shell gives way to the lock, as a one-command recipe's does, so
# a Ctrl-C reaches the make under it (tests/e2e/70-robust.sh).
.PHONY: $(goals) kf-locked
$(goals): kf-locked ; @:
kf-locked:
	@case " $${MAKEFLAGS%%-- *}" in *" -j"*) j= ;; *) j=-j$(jobs) ;; esac; \
	exec mk/lock '$(out)' '$(wait)' $(MAKE) $$j $(MAKECMDGOALS)
else

kdir    := $(out)/$(kver)
src     := $(kdir)/src
tools   := $(out)/tools
ktools  := $(kdir)/tools

.DEFAULT_GOAL := all
.SECONDEXPANSION:
.PHONY: all
all: report

include mk/deps.mk
include mk/tools.mk
include tree/tree.mk
include config/config.mk
include build/build.mk
include package/package.mk
include system/system.mk
include boot/boot.mk
include c2c/c2c.mk
include report/report.mk
include upgrade/upgrade.mk
include bisect/bisect.mk
include tests/tests.mk
include bench/bench.mk
include mk/help.mk

.PHONY: tools
tools: $$(host_tools)

endif
