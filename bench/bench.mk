# bench: 'make bench' measures the build stage in one run (about 45 minutes
# on 2 cores): cold builds one flavour per make against all under one
# jobserver, no-op, raw Kbuild against 'make build', ccache cold and warm.
# Scratch out= directories under $(out)/bench share this out's tree by hard
# links; the table goes to $(out)/bench/report.txt (docs/benchmarks.md).
$(eval $(call tool,kf-bench,bench/bench.c,-ljansson))

.PHONY: bench
bench: $(tools)/kf-bench $(tree_stamp) $(flavours_mk)
	@echo "  BENCH   $(kver) $(flavour): cold builds in $(out)/bench, about 45 minutes on 2 cores"
	@$(tools)/kf-bench --top '$(top)' --tree '$(kdir)' --out '$(out)/bench' --kver $(kver) \
		--jobs $(jobs) --flavours '$(flavour)' --report '$(out)/bench/report.txt'
