# package: make deb flavour=X, the flavour as a distro ships it: the tree's
#          own bindeb-pkg in its Kbuild O=, modules included
#          -> $(kdir)/<f>/deb/*.deb, the .changes and .buildinfo, deb.json
#          (package-record, package/deb.schema.json), deb.log
# docs/system-boot.md, "Packages", explains the choices below.

$(eval $(call tool,package-record,package/record.c lib/proc.c lib/sha256.c lib/record.c,-ljansson -lcrypto))
$(eval $(call tool,package-changelog,package/changelog.c,))
deb_tools := $(tools)/package-record $(tools)/package-changelog
# The packages' inputs are the tools' sources, not their binaries (as a
# build's, build/build.mk): tools relinked for a change in lib/ package
# nothing again.
deb_tool_src := package/record.c package/changelog.c package/package.mk

# The packaged kernel's release names the flavour: 6.1.192-kf-<flavour>
# (uname -r, /lib/modules/<release>/, linux-image-<release>), so two
# flavours' packages never share a name or a modules directory. It is set
# by LOCALVERSION in the flavour's Kbuild environment for the builds of a
# make deb only: a plain make build of the same O= has the tree's own
# release (6.1.192), and its bzImage stays what it always was.
# release.want holds the setting of the last build, as modules.want holds
# modules=: a change re-runs Kbuild, which rebuilds what the release is in
# (init/version.o, the modules' vermagic) and links again (a make build
# after a make deb, and the other way). An O= never packaged has none and
# its builds do not depend on one. The Makefile turns modules=1 on for
# make deb: a packaged flavour carries its modules.
deb_goal := $(filter deb,$(goals))
deb_localversion = $(if $(deb_goal),-kf-$(1))
ifneq ($(deb_goal),)
ifneq ($(modules),1)
$(error make deb packages a flavour with its modules: leave modules= out, or give modules=1)
endif
endif
define flavour_release
$(if $(deb_goal)$(wildcard $(kdir)/$(1)/release.want),$(kdir)/$(1)/build.stamp: $(kdir)/$(1)/release.want)
$(if $(deb_goal),$(kdir)/$(1)/build.stamp: export LOCALVERSION := -kf-$(1))
$(kdir)/$(1)/release.want: kf-build-force
	@mkdir -p $$(@D)
	@echo '$(call deb_localversion,$(1))' | cmp -s - $$@ || echo '$(call deb_localversion,$(1))' > $$@
endef
$(foreach f,$(all_flavours),$(eval $(call flavour_release,$(f))))

# Reproducible packages: the same inputs give byte-identical .debs.
# - SOURCE_DATE_EPOCH, the tree's release date (its top Makefile's mtime, as
#   KBUILD_BUILD_TIMESTAMP): dpkg-deb dates the archive members and clamps
#   every file's mtime to it.
# - mkdebian dates debian/changelog with the time it runs (date -R), and
#   builddeb puts the changelog in every package: dpkg-buildpackage's init
#   hook, package-changelog, dates it by SOURCE_DATE_EPOCH before anything
#   reads it (DPKG_FLAGS is the tree's own variable for dpkg-buildpackage).
# - KDEB_PKGVERSION <release>-1: mkdebian's default revision counts the O=
#   directory's builds (.version); its revision 1 is also the
#   KBUILD_BUILD_VERSION debian/rules passes, the one every build has.
# - the maintainer (DEBFULLNAME and DEBEMAIL apart: 6.1's mkdebian also
#   took "NAME <EMAIL>" in DEBEMAIL, 6.12's wraps it in <> again, and
#   debhelper's dh_installchangelogs then installs an empty changelog),
#   the changelog's distribution
#   (KDEB_CHANGELOG_DIST; mkdebian asks lsb_release) and the source name
#   (KDEB_SOURCENAME, which names the .changes) fixed, not the machine's.
# - deb_compress=gzip (KDEB_COMPRESS, dpkg-deb -Z): xz, Debian's own choice,
#   took 29 CPU s for the headers package alone, gzip 2.5 s (11 MB against
#   8 MB); both are deterministic. deb_compress=xz gives Debian's.
# - scripts/unifdef is built first: builddeb collects the headers package
#   (the O='s scripts/) before its libc-dev step builds unifdef, so a first
#   packaging would lack the file a later one of the same build has.
# KBUILD_BUILD_TIMESTAMP, USER, HOST, the compiler cache and the path maps
# are the build's own (kbuild_env, build/build.mk): debian/rules' build
# step finds everything built and compiles nothing.
deb_revision := 1
deb_compress ?= gzip
# build-progress runs bindeb-pkg for its log, its error lines and its
# seconds (deb.json); its lines count objects, and packaging makes none:
# one a minute says it is still at work.
deb_progress_interval := 60
deb_env = $(call kbuild_env,$(1)) LOCALVERSION=$(call deb_localversion,$(1)) \
	SOURCE_DATE_EPOCH="$$(stat -c %Y $(src)/Makefile)" \
	KDEB_PKGVERSION="$$(cat $(kdir)/$(1)/include/config/kernel.release)-$(deb_revision)" \
	KDEB_SOURCENAME=linux-kf-$(1) KDEB_CHANGELOG_DIST=kflavour KDEB_COMPRESS='$(deb_compress)' \
	DEBEMAIL=kflavour@kflavour.invalid DEBFULLNAME=kflavour EMAIL=
deb_dpkg_flags = '--hook-init=$(tools)/package-changelog debian/changelog'

# The packages: dpkg-buildpackage writes them, the .buildinfo and the
# .changes beside the O= directory, in $(kdir), named by the version
# (<release>-1, the release naming the flavour); package-record moves the
# files the .changes lists into deb.tmp/, checks their SHA-256, writes
# deb.json there, and deb.tmp/ replaces deb/. An interrupted run leaves
# deb.tmp/ or files in $(kdir) that the next one removes first; deb/ is
# the last complete one. The O='s debian/ (staging copies of every
# package's files) goes once the packages are made. deb.want holds
# deb_compress: another one makes the packages again.
define flavour_deb
$(kdir)/$(1)/deb.stamp: MAKEOVERRIDES :=
$(kdir)/$(1)/deb.want: kf-build-force
	@mkdir -p $$(@D)
	@echo '$(deb_compress)' | cmp -s - $$@ || echo '$(deb_compress)' > $$@
$(kdir)/$(1)/deb.stamp: $(kdir)/$(1)/build.stamp $(kdir)/$(1)/deb.want $(deb_tool_src) | $(deb_tools) $(build_tools)
	@rm -f $$@
	@rm -rf $(kdir)/$(1)/deb.tmp $(kdir)/$(1)/deb.old $(kdir)/$(1)/debian
	@rm -f $(kdir)/*_*-kf-$(1)-$(deb_revision)_*.deb $(kdir)/*_*-kf-$(1)-$(deb_revision)_*.buildinfo \
		$(kdir)/*_*-kf-$(1)-$(deb_revision)_*.changes
	@mkdir -p $(kdir)/$(1)/deb.tmp
	@echo "  DEB     $(1): the tree's bindeb-pkg, release $$$$(cat $(kdir)/$(1)/include/config/kernel.release); log $(kdir)/$(1)/deb.log"
	@$$(call deb_env,$(1)) $$(MAKE) -s -C $(src) O=$(kdir)/$(1) scripts_unifdef
	@$$(call deb_env,$(1)) $(tools)/build-progress --name $(1) --log $(kdir)/$(1)/deb.log \
		--interval $(deb_progress_interval) -- \
		$$(MAKE) -C $(src) O=$(kdir)/$(1) bindeb-pkg DPKG_FLAGS="$(deb_dpkg_flags)"
	@$(tools)/package-record --flavour $(1) --kver $(kver) \
		--changes "$(kdir)/linux-kf-$(1)_$$$$(cat $(kdir)/$(1)/include/config/kernel.release)-$(deb_revision)_$$$$(cat $(kdir)/$(1)/debian/arch).changes" \
		--to $(kdir)/$(1)/deb.tmp --dir $(kdir)/$(1)/deb \
		--source-date-epoch "$$$$(stat -c %Y $(src)/Makefile)" --log $(kdir)/$(1)/deb.log
	@if [ -d $(kdir)/$(1)/deb ]; then mv $(kdir)/$(1)/deb $(kdir)/$(1)/deb.old; fi
	@mv $(kdir)/$(1)/deb.tmp $(kdir)/$(1)/deb
	@rm -rf $(kdir)/$(1)/deb.old $(kdir)/$(1)/debian
	@touch $$@
endef
$(foreach f,$(all_flavours),$(eval $(call flavour_deb,$(f))))

.PHONY: deb
deb: $$(foreach f,$$(flavour),$(kdir)/$$(f)/deb.stamp) ; @:
