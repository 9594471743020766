# bench: 'make bench' measures the pipeline's speed in one run (on 2 cores
# 45 to 100 minutes with the distro flavour, about half without: distro=):
# cold builds one make per flavour against all in one make (one jobserver),
# a first make against its CPU floor, boots, no-ops, raw Kbuild, ccache cold
# and warm, a fragment toggle, one distro flavour beside the tiny ones, a
# distcc farm (root), c2c: the plugin's cost and make c2c's wall time, and
# the shared cache (root): warm, cold, unreachable.
# Scratch out= directories under $(out)/bench share this out's tree by hard
# links; the table goes to $(out)/bench/report.txt (docs/benchmarks.md).
$(eval $(call tool,bench,bench/bench.c bench/run.c bench/steps.c bench/farm.c bench/c2c.c bench/remote.c bench/sysboot.c bench/table.c $(records_src) lib/proc.c,-ljansson))
$(tools)/bench: bench/bench.h

distro ?= debian-cloud-mpsc
# step 13: the small systemd-capable flavour's system boot against its
# static-init boot (sysboot_flavour=: left out); the Debian system from $(rootfs)
sysboot_flavour ?= tiny-systemd
# steps="4 5 6": only those steps, on the scratch out= an earlier run left
steps ?=

.PHONY: bench
bench: $(tools)/bench $(tools)/farm-net $(tree_stamp) $(flavours_mk)
	@echo "  BENCH   $(kver) $(flavour)$(if $(distro), + $(distro)): cold builds in $(out)/bench, 45 to 100 min on 2 cores with a distro flavour, half without"
	@KF_TOOLS='$(tools)' $(tools)/bench --top '$(top)' --tree '$(kdir)' --out '$(out)/bench' --kver $(kver) \
		--jobs $(jobs) --flavours '$(flavour)' --distro '$(distro)' --steps '$(steps)' \
		--sysboot '$(sysboot_flavour)' --rootfs '$(abspath $(rootfs))' \
		--kcppflags '$(kbuild_cppflags)' --report '$(out)/bench/report.txt'
