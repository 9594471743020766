# tree: /usr/src/linux-source-<kver>.tar.xz + patches/<kver>/series
#       -> $(src), prepared atomically, stamped with both inputs' hashes.
# tarball=, KF_NEED_MB= and KF_NEED_INODES= (disk and inodes needed to
# extract) are overridable for tests.
tarball      ?= /usr/src/linux-source-$(kver).tar.xz
series       := patches/$(kver)/series
# Its patches' paths from tree/series.sh, the one reading of a series file.
series_files := $(shell tree/series.sh --paths $(series) 2>/dev/null)
tree_stamp   := $(kdir)/tree.stamp

.PHONY: tree
tree: $(tree_stamp) ; @:

# Make compares times; tree/prepare.sh compares the hashes and only
# re-extracts when the tarball or the series really changed.
# wildcard: a missing file is prepare.sh's error to explain, not make's.
$(tree_stamp): $(wildcard $(tarball) $(series_files)) $(series) tree/prepare.sh tree/series.sh | deps
	@tree/prepare.sh '$(kver)' '$(tarball)' 'patches/$(kver)' '$(kdir)'
