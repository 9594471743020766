# help: the map of the project. Every target listed here is documented in
# docs/guide.md (tests/e2e/90-docs.sh checks it).
.PHONY: help list
list: $(flavours_mk)
	@$(tools)/config-flavours --list $(kver)

# build/farm.sh holds farm_net's one default; read for help only.
farm_net_default = $(if $(filter help,$(MAKECMDGOALS)),$(shell sed -n 's/^farm_net_default=//p' build/farm.sh))

define help_text
kflavour - pick, build, boot and compare x86-64 kernel flavours

Pipeline (each target runs the stages before it):
  make                  all flavours: tree, config, build, every flavour on every
                        CPU model (the matrix), results, c2c, report
  make flavour=mpsc     the same for one flavour (several: flavour="k8 mpsc")
  make tree             extract $(tarball) and apply patches/$(kver)/series
  make config           merge fragments into out/<kver>/<flavour>/.config and audit it
  make build            build bzImage for each flavour (one jobserver)
  make deb flavour=tiny-systemd   the flavour as Debian packages: the tree's bindeb-pkg
                        with its modules, release <version>-kf-<flavour>, reproducible;
                        out/<kver>/<flavour>/deb/ and its record deb.json
  make boot             boot each flavour in QEMU on its own CPU model (quick)
  make matrix           boot each flavour on every CPU model (cpu= limits)
  make results          out/<kver>/results.ktap and junit.xml from the boot records
  make kcidb            out/<kver>/kcidb.json (KernelCI KCIDB 5.3) of builds and boots
  make check-kcidb      validate kcidb.json: report/kcidb.schema.json, KCIDB's if there (kcidb_schema=)
  make check-records    validate every stage record against its schema (docs/architecture.md)
  make report           comparison table, report.json and report.html (its c2c
                        section of workload=, default pipe)
  make report-only      the report from what out/ has now, running no stage
  make report-png       screenshot of report.html (headless Chromium)
  make initramfs        the guest init packed for QEMU
  make c2c              cache-line contention in perf c2c's terms (load HITMs, stores,
                        HITMs at 128 bytes only and at 64 only) and instructions of a
                        workload, measured by a TCG plugin; runs=N (5) on one machine
                        (c2c_cpu=, default nocona), tcg=multi|single (multi: both vCPUs at
                        once), workload=pipe|futex|fault|calib-8|calib-64|calib-128|calib-same,
                        crosscheck=1 loads QEMU's insn plugin per vCPU too (slow; docs/c2c.md)
  make c2c-plugins      the TCG plugins, built against Debian's qemu source package
  make rootfs           the cached Debian 12 root filesystem (mmdebstrap, once per
                        machine: out/rootfs/, rootfs=DIR; docs/system-boot.md)
  make system flavour=X   X's kernel package (deb=PATH, else make deb's) installed
                        in a copy of it: out/<kver>/X/system/ vmlinuz, initrd.img,
                        image.raw, image.json
  make sysboot flavour=X  boot X's package in that system to multi-user.target
                        (QEMU, virtio disk, snapshot=on): verdict and its cause,
                        systemd's facts in out/<kver>/X/sysboot/<cpu>.json

Configs:
  make list             flavours with their fragments and CPU model
  make defconfigs       write defconfigs/<kver>/<flavour>_defconfig (commit them)
  make check-defconfigs fail if a committed defconfig is out of date
  make diffconfig a=generic b=mpsc   config difference of two flavours (by menu when large)
  make logdiff a=generic b=mpsc logdiff_cpu=nocona   normalised boot-log difference
  make menuconfig flavour=mpsc       edit a flavour's config (also nconfig, oldconfig)
  make savefragment flavour=mpsc     put those edits into the flavour's fragment
  make newflavour name=core2 choice=MCORE2 model=core2   scaffold a new flavour
  make upgrade from=6.1 to=6.12   what moving each flavour to the new tree does:
                        new prompts, gone, changed, stop applying, boot (docs/upgrade.md)
  make upgrade old=FILE name=NAME  the same for any config (plain or .xz)
  make bisect good=generic bad=mine bisect_cpu=qemu64   the config change that breaks a boot

Checks:
  make check            all tests (unit, end to end); ends with each script's seconds,
                        the skips by name and "N passed, N failed, N skipped";
                        scripts marked "# lane: background" run beside, niced
  make check t=REGEX    only the tests whose name matches
  make check-slow       checks too slow for make check (tests/slow/): plain make
                        (k8 built and booted too; make check builds generic and
                        mpsc), the 6.12 tree (config, mpsc built and booted,
                        make upgrade), the distro configs, check-repro, a new
                        flavour end to end, clang-tidy's static analyzer
  make check-distro     debian-cloud-mpsc and debian-cloud (Debian's config) each
                        built, booted, packaged twice (compared), installed and
                        booted to systemd; then make c2c of the two: hours
  make unit-tests       build the C unit tests (cmocka)
  make check-repro flavour=generic   two builds, byte-identical bzImage
  make farm-check DISTCC_HOSTS=...   each distcc host reachable and compiling
                        with this machine's gcc (a probe's object compared)
  make cache-check ccache_remote=...   the shared cache answers, takes the
                        password, stores an object and returns it (with ccache)
  make bench            speed ratios in one run: builds, boots, no-ops, ccache,
                        a fragment toggle, distro=FLAVOUR, a distcc farm, c2c,
                        the shared cache, a system boot (sysboot_flavour=, default
                        tiny-systemd) (steps="12 13": only some; docs/benchmarks.md)
  make deps             check (as root: install) the Debian packages needed
  make check-deps       the same, with what the tests need too
  make clean            remove out/<kver>/
  make distclean        remove all of out/

Variables:
  flavour=NAME...       flavours to work on (default: group's; now: $(flavour))
  group=NAME            the flavours of one recipe group (default: default; groups: $(sort $(all_groups)))
  modules=1             build modules too, not only bzImage (distro configs)
  kver=6.1|6.12         kernel tree (default 6.1; now: $(kver))
  out=DIR               output directory (default ./out; now: $(out))
  cpu=NAME...           the CPU models the boot targets boot on (matrix, and what
                        make, report and results want; boot/cpu-models): one
                        meaning everywhere, refused where it meant another
  c2c_cpu=NAME          the one machine make c2c (and make, report) runs on (nocona)
  bisect_cpu=NAME       the one CPU model make bisect boots on
  logdiff_cpu=NAME...   the CPU models make logdiff compares on
  choice=SYMBOL         newflavour's processor-family choice (MCORE2)
  good= bad= on=...     bisect: flavours, and verdict|kunit:SUITE.CASE|fact:KEY
  jobs=N                make jobs (default nproc: $(jobs))
  overlap=1             build the flavours at once, not one after another
                        (for more cores than one Kbuild keeps busy)
  wait=0                exit at once if another make holds out/ (default: wait;
                        busy: a line "kflavour: busy:", make exits 2)
  runs=N workload=W     make c2c: runs per flavour (5), the guest workload (pipe)
  CCACHE=0              build without ccache
  ccache_remote=redis://[:PASSWORD@]HOST[:PORT]   a team's shared compiler cache
                        (ccache's Redis remote storage, read and written by every
                        build; give it in the environment: make's command line is
                        in ps); password letters, digits, . _ ~ - only; shown as
                        ***; a server that does not answer is skipped with a
                        warning (docs/build.md "A shared compiler cache")
  KF_PROBE_CACHE=DIR    Kconfig's compiler probes kept there (default
                        out/kconfig-probes; empty: every parse probes)
  V=1                   host tools' whole gcc commands, not "  HOSTCC  name" lines
  DISTCC_HOSTS=...      compile on these distcc hosts (check them: make farm-check)
  farm_net=RANGE        build/farm.sh's addresses (a /30 per server; default
                        $(farm_net_default)): refused when any interface or route
                        of this machine is on it (docs/build.md)
  DISTCC_IO_TIMEOUT=S   seconds a host may stay silent before its compile is
                        redone here (default 60); DISTCC_BACKOFF_PERIOD=S how
                        long a failed host is then avoided (default 120)
  from=KVER to=KVER     make upgrade's trees (default 6.1 and 6.12)
  write=1               make upgrade also writes <flavour>.undecided.config

Flavours (flavours/*.flavour; CPU models: boot/cpu-models):
endef
export help_text

help: $(flavours_mk)
	@echo "$$help_text"
	@$(tools)/config-flavours --list $(kver) | sed 's/^/  /'

.PHONY: clean distclean
# Only in an out= kflavour made (mk/ours): a mistyped out= deletes nothing.
clean distclean:
	@mk/ours '$(out)' || { echo "kflavour: refusing to $@: out=$(out) is not a kflavour output directory (reason above); nothing deleted. Check out=, or delete it yourself" >&2; exit 2; }
	rm -rf '$(if $(filter clean,$@),$(kdir),$(out))'
