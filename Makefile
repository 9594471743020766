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
override out := $(abspath $(out))
jobs    ?= $(shell nproc)
wait    ?= 1
cpu     ?=
CCACHE  ?= 1

kvers := $(notdir $(wildcard patches/*))
ifeq ($(filter $(kver),$(kvers)),)
$(error kver=$(kver) is not known; valid: $(kvers) (one per patches/<kver>/))
endif

# Goals that only read the checkout run without the lock on $(out).
# 'check' locks nothing itself: its tests run make, which takes the lock.
nolock_goals := help list deps check-deps check
goals := $(or $(MAKECMDGOALS),all)

ifeq ($(KF_LOCKED)$(filter-out $(nolock_goals),$(goals)),)
unlocked := 1
endif
ifneq ($(KF_LOCKED),)
unlocked := 1
endif

ifeq ($(unlocked),)
# Outer make: run the real one under an exclusive lock on $(out), with one
# jobserver of $(jobs) slots unless the caller gave -j already.
jflag := $(if $(filter -j%,$(MAKEFLAGS)),,-j$(jobs))
.PHONY: $(goals) kf-locked
$(goals): kf-locked ; @:
kf-locked:
	@mkdir -p '$(out)'
	@mk/lock '$(out)' '$(wait)' $(MAKE) $(jflag) KF_LOCKED=1 $(MAKECMDGOALS)
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
include boot/boot.mk
include report/report.mk
include upgrade/upgrade.mk
include bisect/bisect.mk
include tests/tests.mk
include bench/bench.mk
include mk/help.mk

.PHONY: tools
tools: $$(host_tools)

endif
