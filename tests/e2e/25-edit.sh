#!/bin/bash
# Editing flavours (issue 8): the menuconfig -> savefragment round trip,
# newflavour, the policy (fragments/policy), and their errors.
# Everything runs in a scratch copy of the checkout. The round trip and the
# policy case use their own out= that shares this run's prepared tree (hard
# links, build/linktree.sh), so the real mpsc's .config, config.stamp and
# build are never touched; newflavour configures core2 in this run's out=
# (tests/slow/65-newflavour.sh builds, boots and reports it). Nothing is built here.
. tests/lib.sh
. tests/scratch.sh
o=$KF_OUT
co=$kf_tmp/co
eo=$kf_tmp/out
m=$eo/6.1/mpsc
frag=$co/fragments/flavour-mpsc.config
defc=$co/defconfigs/6.1/mpsc_defconfig

check "the 6.1 tree is prepared" make tree out="$o"
scratch_checkout "$co"
# A shared fragment's edit reconfigures every flavour using it, and on
# Debian's config (debian-cloud-mpsc uses cpu-mpsc) that costs minutes of
# merge_config.sh: here debian-cloud-mpsc is mpsc's recipe under its name;
# 17-distro (make check-slow) covers the real one.
sed -i -e 's/^base *=.*/base = tinyconfig/' -e "s/^fragments *=.*/$(grep '^fragments' flavours/mpsc.flavour)/" \
	"$co/flavours/debian-cloud-mpsc.flavour"
cp "$top/flavours/mpsc.flavour" "$kf_tmp/mpsc.flavour.orig"
# Hard links (build/linktree.sh): the tree cannot change under this test.
check "a second out= shares the prepared tree" build/linktree.sh "$o/6.1" "$eo/6.1"
touch -r "$o/6.1/tree.stamp" "$eo/6.1/tree.stamp"
for d in 6.1/kconfig 6.1/tools tools; do
	[ -d "$o/$d" ] && mkdir -p "$(dirname "$eo/$d")" && cp -a "$o/$d" "$eo/$d"
done
mk() { make -C "$co" out="$eo" "$@"; }
setcfg() { "$o/6.1/src/scripts/config" --file "$m/.config" "$@"; }
val() { grep -E "^(# )?CONFIG_$2[= ]" "$1" | head -n 1; }
snap() { (cd "$co" && find flavours fragments defconfigs -type f | sort | xargs sha256sum); }

# (d) Errors first: they are cheap, and must create nothing.
s0=$(snap)
check_fails "menuconfig without flavour= is an error" 2 \
	'make menuconfig edits one flavour: name exactly one, e.g. flavour=mpsc' mk menuconfig
check_fails "menuconfig with two flavours is an error" 2 \
	'make menuconfig edits one flavour' mk menuconfig flavour="k8 mpsc"
check_fails "nconfig with an empty flavour= is an error" 2 'make nconfig edits one flavour' mk nconfig flavour=
check_fails "savefragment without flavour= is an error" 2 'make savefragment edits one flavour' mk savefragment
check_fails "newflavour without cpu= and model= names all three" 2 \
	'make newflavour needs name=, choice= and model=' mk newflavour name=c3
check_fails "newflavour: an upper-case name is refused" 2 \
	"name 'Core2' is not a flavour name: use lowercase" mk newflavour name=Core2 choice=MCORE2 model=core2
check_fails "newflavour: a name with a slash is refused" 2 \
	"name 'a/b' is not a flavour name" mk newflavour name=a/b choice=MCORE2 model=core2
check_fails "newflavour: an unknown cpu lists the x86-64 choices" 2 \
	"cpu 'MFOO' is not a processor-family choice in .*Kconfig.cpu; x86-64 choices in this tree: .*MCORE2" \
	mk newflavour name=c3 choice=MFOO model=core2
check_fails "newflavour: a symbol that is no processor family is refused" 2 \
	"cpu 'SMP' is not a processor-family choice" mk newflavour name=c3 choice=SMP model=core2
check_fails "newflavour: a 32-bit processor family is refused" 2 \
	"cpu 'M686' \(Pentium-Pro\) is a 32-bit processor family" mk newflavour name=c3 choice=M686 model=core2
check_fails "newflavour: an unknown model lists boot/cpu-models" 2 \
	"model 'pentium9' is not a CPU model in boot/cpu-models; use one of: .*core2" \
	mk newflavour name=c3 choice=MCORE2 model=pentium9
check_fails "newflavour: a model expected to refuse every kernel is refused" 2 \
	"model 'i686' is expected to give 'refused' \(boot/cpu-models\).*use a model that passes: qemu64" \
	mk newflavour name=c3 choice=MCORE2 model=i686
check_fails "newflavour never overwrites a flavour" 2 \
	'flavours/mpsc.flavour already exists; newflavour never overwrites' mk newflavour name=mpsc choice=MPSC model=nocona
check_eq "the refused commands created and changed no file" "$(snap)" "$s0"

# (a) The round trip: merge, edit with the tree's scripts/config, save.
check "make config flavour=mpsc (own out=)" mk config flavour=mpsc
check "merge.sh keeps the config as merged in .config.merged" cmp "$m/.config" "$m/.config.merged"
check "oldconfig runs the tree's configurator on mpsc's config" mk oldconfig flavour=mpsc < /dev/null
check_fails "savefragment with no edit has nothing to save" 0 'nothing to save' mk savefragment flavour=mpsc
check_eq "... and creates no fragment" "$(ls "$frag" 2>/dev/null)" ""
def0=$(sha "$defc")
setcfg --set-val NR_CPUS 16 --enable PRINTK_TIME
check "savefragment flavour=mpsc after NR_CPUS 8->16 and PRINTK_TIME=y" mk savefragment flavour=mpsc
grep -q '^+CONFIG_PRINTK_TIME=y' "$kf_tmp/last.out" && ok "savefragment shows the change as a diff" ||
	not_ok "savefragment shows the change as a diff"
check_eq "fragment: NR_CPUS=16 after the override marker (base.config sets 8)" \
	"$(grep -B1 '^CONFIG_NR_CPUS=' "$frag" | tr '\n' '|')" "# kflavour: override|CONFIG_NR_CPUS=16|"
check_eq "fragment: PRINTK_TIME=y" "$(val "$frag" PRINTK_TIME)" "CONFIG_PRINTK_TIME=y"
check_eq "fragment: only the two settings edited (savedefconfig difference)" "$(grep -c '^CONFIG_' "$frag")" 2
check "fragment starts with a comment header" grep -q '^# flavour-mpsc: ' "$frag"
check "the recipe merges flavour-mpsc last" grep -Eq '^fragments *= .* flavour-mpsc$' "$co/flavours/mpsc.flavour"
[ "$(sha "$defc")" != "$def0" ] && ok "defconfigs/6.1/mpsc_defconfig changed" ||
	not_ok "defconfigs/6.1/mpsc_defconfig changed"
check_eq "the defconfig holds the edit" "$(grep -cx 'CONFIG_NR_CPUS=16\|CONFIG_PRINTK_TIME=y' "$defc")" 2
shared_same=1
for f in "$top"/fragments/*.config; do cmp -s "$f" "$co/fragments/${f##*/}" || shared_same=0; done
check_eq "no shared fragment was rewritten" "$shared_same" 1
check_eq "the real checkout is untouched" \
	"$(ls "$top/fragments/flavour-mpsc.config" 2>/dev/null; cmp -s "$kf_tmp/mpsc.flavour.orig" "$top/flavours/mpsc.flavour" || echo changed)" ""

setcfg --set-val NR_CPUS 32
check "a second edit of NR_CPUS is saved" mk savefragment flavour=mpsc
check_eq "NR_CPUS updated in place, not duplicated" "$(grep -c 'NR_CPUS' "$frag")" 1
check_eq "... to 32" "$(val "$frag" NR_CPUS)" "CONFIG_NR_CPUS=32"
check_eq "one override marker" "$(grep -c '^# kflavour: override' "$frag")" 1
check_eq "the recipe names flavour-mpsc once" "$(grep -o 'flavour-mpsc' "$co/flavours/mpsc.flavour" | wc -l)" 1

rm -f "$m/.config" "$m/.config.merged" "$m/config.stamp"
check "a fresh merge of mpsc" mk config flavour=mpsc
check_eq "reproduces NR_CPUS=32" "$(val "$m/.config" NR_CPUS)" "CONFIG_NR_CPUS=32"
check_eq "reproduces PRINTK_TIME=y" "$(val "$m/.config" PRINTK_TIME)" "CONFIG_PRINTK_TIME=y"
check "and matches the saved defconfig" mk check-defconfigs flavour=mpsc

# to=: a named shared fragment; refused where a later fragment would win.
s1=$(snap)
setcfg --set-val NR_CPUS 4
check_fails "to=base is refused: flavour-mpsc, merged later, sets NR_CPUS" 2 \
	'CONFIG_NR_CPUS=4 would not last: fragments/flavour-mpsc.config:[0-9]+, merged after it, sets CONFIG_NR_CPUS=32' \
	mk savefragment flavour=mpsc to=base
check_eq "... and nothing was written" "$(snap)" "$s1"
check_fails "to= must name a fragment of the recipe" 2 \
	'to=cpu-k8 is not a fragment of flavours/mpsc.flavour' mk savefragment flavour=mpsc to=cpu-k8
setcfg --set-val NR_CPUS 32 --set-val LOG_BUF_SHIFT 16
check "to=cpu-mpsc writes that shared fragment, named explicitly" mk savefragment flavour=mpsc to=cpu-mpsc
check_eq "cpu-mpsc.config holds the edit" "$(val "$co/fragments/cpu-mpsc.config" LOG_BUF_SHIFT)" "CONFIG_LOG_BUF_SHIFT=16"
grep -q 'writing to the shared fragment fragments/cpu-mpsc.config (to=cpu-mpsc), used by: debian-cloud-mpsc mpsc' "$kf_tmp/last.out" &&
	ok "savefragment says which flavours use the shared fragment" ||
	not_ok "savefragment says which flavours use the shared fragment"
cp "$top/fragments/cpu-mpsc.config" "$co/fragments/cpu-mpsc.config"

# An edit that breaks the policy is refused before anything is written.
s2=$(snap)
setcfg --disable MPSC --enable GENERIC_CPU
check_fails "savefragment refuses an edit that breaks fragments/policy" 2 \
	'flavour mpsc violates fragments/policy:[0-9]+: CONFIG_MPSC required y, actual n \(why: .+\)' \
	mk savefragment flavour=mpsc
grep -q 'breaks fragments/policy (above); nothing written' "$kf_tmp/last.out" &&
	ok "... saying nothing was written" || not_ok "... saying nothing was written"
check_eq "... and nothing was" "$(snap)" "$s2"

# (c) The policy rejects a tampered mpsc fragment that the audit accepts:
# GENERIC_CPU=y, with MPSC off and 64-byte lines so every request survives.
before=$(sha "$m/.config")
cat >> "$co/fragments/cpu-mpsc.config" <<'EOF'
# kflavour: override
# CONFIG_MPSC is not set
# kflavour: override
CONFIG_GENERIC_CPU=y
# kflavour: override
CONFIG_X86_L1_CACHE_SHIFT=6
EOF
check_fails "the policy rejects mpsc with GENERIC_CPU=y: symbol, flavour, required, actual, note" 2 \
	'policy: flavour mpsc violates fragments/policy:[0-9]+: CONFIG_X86_L1_CACHE_SHIFT required 7, actual 6 \(why: .*128-byte.*\)' \
	mk config flavour=mpsc
grep -q 'CONFIG_MPSC required y, actual n' "$kf_tmp/last.out" && ok "... and names MPSC too" ||
	not_ok "... and names MPSC too"
check_eq "the previous .config is intact" "$(sha "$m/.config")" "$before"
check_eq "no temporary config left" "$(ls "$m"/.config.kf-new* 2>/dev/null | wc -l)" 0
cp "$top/fragments/cpu-mpsc.config" "$co/fragments/cpu-mpsc.config"

# (b) newflavour: scaffolded files pass the config stage (audit + policy).
check "newflavour name=core2 choice=MCORE2 model=core2" \
	make -C "$co" newflavour name=core2 choice=MCORE2 model=core2 out="$o"
r=$co/flavours/core2.flavour
gen=$(sed -n 's/^fragments *= *//p' "$co/flavours/generic.flavour")
check_eq "recipe: generic's fragments with cpu-core2" "$(sed -n 's/^fragments *= *//p' "$r")" "${gen/cpu-generic/cpu-core2}"
check_eq "recipe: the QEMU model" "$(sed -n 's/^cpu *= *//p' "$r")" core2
check_eq "recipe: memory and smp defaults" "$(grep -cE '^(memory *= 512M|smp *= 2)$' "$r")" 2
check_eq "fragment: the choice" "$(val "$co/fragments/cpu-core2.config" MCORE2)" "CONFIG_MCORE2=y"
check_eq "fragment: the tree's cache line for MCORE2" \
	"$(val "$co/fragments/cpu-core2.config" X86_L1_CACHE_SHIFT)" "CONFIG_X86_L1_CACHE_SHIFT=6"
check_eq "defconfig written" "$(grep -c '^CONFIG_MCORE2=y' "$co/defconfigs/6.1/core2_defconfig" 2>/dev/null)" 1
check "make config flavour=core2 passes (audit + policy)" make -C "$co" config flavour=core2 out="$o"
check_eq "core2's .config has MCORE2" "$(val "$o/6.1/core2/.config" MCORE2)" "CONFIG_MCORE2=y"
check_eq "core2 is in make list" "$(make -s -C "$co" list out="$o" | awk '$1 == "core2" {print $2}')" core2
check_fails "newflavour refuses core2 a second time" 2 'flavours/core2.flavour already exists' \
	make -C "$co" newflavour name=core2 choice=MCORE2 model=core2 out="$o"

done_testing
