# tree: /usr/src/linux-source-<kver>.tar.xz + patches/<kver>/series
#       -> $(src), prepared atomically, stamped with both inputs' hashes.
tarball      := /usr/src/linux-source-$(kver).tar.xz
series       := patches/$(kver)/series
series_files := $(addprefix patches/$(kver)/,$(shell sed -e 's/\#.*//' $(series) 2>/dev/null | awk '{print $$1}'))
tree_stamp   := $(kdir)/tree.stamp

.PHONY: tree
tree: $(tree_stamp) ; @:

# Make compares times; tree/prepare.sh compares the hashes and only
# re-extracts when the tarball or the series really changed.
$(tree_stamp): $(wildcard $(tarball)) $(series) $(series_files) tree/prepare.sh | deps
	@tree/prepare.sh '$(kver)' '$(tarball)' 'patches/$(kver)' '$(kdir)'
