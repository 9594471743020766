#!/bin/bash
# Config stage (issue 2): every flavour of both trees merges and passes the
# audit; the cache-line facts the product exists for are in the .configs;
# committed defconfigs match, and a fragment change without 'make defconfigs'
# is caught; config-savedefconfig writes what the kernel's make writes, and
# Kconfig's compiler probes are cached. Bad fragments are 20-audit's. make
# check does this on the 6.1 tree; tests/slow/15-config-6.12.sh runs it with kvers=6.12 (the other
# tree's extraction and configs cost more than make check's budget).
. tests/lib.sh
. tests/scratch.sh
o=$KF_OUT

val() { grep -E "^(# )?CONFIG_$2[= ]" "$o/$1/.config" | head -n 1; }

for kv in ${kvers:-6.1}; do
	check "make config, all flavours, kver=$kv" make config kver=$kv out="$o"
	check_eq "$kv mpsc: MPSC" "$(val $kv/mpsc MPSC)" "CONFIG_MPSC=y"
	check_eq "$kv mpsc: 128-byte lines" "$(val $kv/mpsc X86_L1_CACHE_SHIFT)" "CONFIG_X86_L1_CACHE_SHIFT=7"
	check_eq "$kv k8: MK8" "$(val $kv/k8 MK8)" "CONFIG_MK8=y"
	check_eq "$kv k8: 64-byte lines" "$(val $kv/k8 X86_L1_CACHE_SHIFT)" "CONFIG_X86_L1_CACHE_SHIFT=6"
	check_eq "$kv generic: GENERIC_CPU" "$(val $kv/generic GENERIC_CPU)" "CONFIG_GENERIC_CPU=y"
	check_eq "$kv generic: 64-byte lines" "$(val $kv/generic X86_L1_CACHE_SHIFT)" "CONFIG_X86_L1_CACHE_SHIFT=6"
	# tinyconfig is the base: tiny-base.config's EXPERT=y, which no fragment
	# sets, is in every flavour.
	check_eq "$kv: every flavour starts from tinyconfig (EXPERT=y)" \
		"$(cat "$o/$kv"/{generic,k8,mpsc}/.config | grep -c '^CONFIG_EXPERT=y$')" 3
	check_eq "$kv: audit recorded ok for every flavour" \
		"$(jq -r .ok "$o/$kv"/{generic,k8,mpsc}/config.json | sort -u)" true
	cp "$kf_tmp/last.out" "$kf_tmp/config-$kv.out"
	check "committed defconfigs/$kv match the fragments" make check-defconfigs kver=$kv out="$o"
	# tiny-systemd too (group systemd: 32-deb builds it in an out= of its
	# own), merged afresh and removed again, as this out='s report has the
	# default group alone. Its fragments and the default group's draw no
	# audit warning (a symbol the tree lacks, set off: fragments/renames).
	rm -rf "$o/$kv/tiny-systemd"
	check "committed defconfigs/$kv/tiny-systemd_defconfig matches the fragments" \
		make check-defconfigs flavour=tiny-systemd kver=$kv out="$o"
	cat "$kf_tmp/last.out" >> "$kf_tmp/config-$kv.out"
	rm -rf "$o/$kv/tiny-systemd"
	check_eq "$kv: no audit warning from the committed fragments" \
		"$(grep '^audit: ' "$kf_tmp/config-$kv.out")" ""
done

# config-savedefconfig (make defconfigs, check-defconfigs, savefragment)
# against the kernel's own make: an edited mpsc written back as olddefconfig
# writes it, and its savedefconfig, and generic's after it in the same call.
k=$o/6.1 sd=$kf_tmp/sd kd=$kf_tmp/kernel-sd
mkdir -p "$sd" "$kd"
cp "$k/mpsc/.config" "$sd/.config"
"$k/src/scripts/config" --file "$sd/.config" --disable MPSC --enable MK8 --set-val NR_CPUS 16
cp "$sd/.config" "$kd/.config"
check "config-savedefconfig --write-back: an edited mpsc, then generic" \
	"$k/tools/config-savedefconfig" --srctree "$k/src" --write-back "$sd/.config" "$sd/edited.def" \
	"$k/generic/.config" "$sd/generic.def"
make -s -C "$k/src" O="$kd" olddefconfig > /dev/null 2>&1 && make -s -C "$k/src" O="$kd" savedefconfig > /dev/null 2>&1
check "... the write-back is make olddefconfig's .config, byte for byte" cmp "$sd/.config" "$kd/.config"
check "... its savedefconfig is make savedefconfig's" cmp "$sd/edited.def" "$kd/defconfig"
check "... generic's, read second, is the committed one" cmp "$sd/generic.def" defconfigs/6.1/generic_defconfig
check_fails "config-savedefconfig: a CONFIG without its DEFCONFIG is a usage error" 2 \
	'usage: config-savedefconfig --srctree SRC' "$k/tools/config-savedefconfig" --srctree "$k/src" "$sd/.config"

# Kconfig's compiler probes come from KF_PROBE_CACHE (lib/probes.c). A
# compiler that logs its runs shows which parse ran them: the first runs
# them and fills an empty cache, the second runs none and writes the same
# .config, make olddefconfig's; a compiler the cache has not seen (the same
# one, rewritten) runs them again, as does a parse without the cache.
pc=$kf_tmp/probes cc=$kf_tmp/cc-logged
printf '#!/bin/sh\necho "$*" >> %s.log\nexec gcc "$@"\n' "$cc" > "$cc"
chmod +x "$cc"
pre=()
probe_parse() {	# probe_parse NAME [ENV...]: edited mpsc written back; prints the
	# compiler's runs but the one 'CC --version' that is part of the key
	: > "$cc.log"
	cp "$kd/.config" "$sd/$1.config"
	env CC="$cc" KF_PROBE_CACHE="$pc" "${@:2}" "${pre[@]}" "$k/tools/config-savedefconfig" \
		--srctree "$k/src" --write-back "$sd/$1.config" "$sd/$1.def" > "$kf_tmp/parse.out" 2>&1 ||
		{ echo failed; tail -n 20 "$kf_tmp/parse.out" >&2; }
	grep -q 'left .* behind' "$kf_tmp/parse.out" && echo "left its directory"
	grep -cvx -- --version "$cc.log"
}
# The filling parse runs under valgrind (lib/probes.c's own memory, with kconfig's).
pre=(valgrind --quiet --leak-check=full --show-leak-kinds=definite,indirect
	--errors-for-leak-kinds=definite,indirect --error-exitcode=99)
probed=$(probe_parse fill)
pre=()
check "probe cache: an empty one is filled, under valgrind (probes run: $probed, entries: $(ls "$pc" | wc -l))" \
	test "$probed" -gt 20 -a "$(ls "$pc" | wc -l)" -gt 40
# The second names the same cache relatively, from the directory holding it.
check_eq "probe cache: a second parse runs no probe (KF_PROBE_CACHE relative)" \
	"$(cd "$kf_tmp" && probe_parse hit KF_PROBE_CACHE=probes)" 0
check "... and writes make olddefconfig's .config" cmp "$sd/hit.config" "$kd/.config"
check "... and the same defconfig" cmp "$sd/hit.def" "$sd/fill.def"
echo "# rewritten" >> "$cc"
check "probe cache: a changed compiler runs its probes again" test "$(probe_parse changed)" -gt 20
check "probe cache: none (KF_PROBE_CACHE=) runs them every time" \
	test "$(probe_parse none KF_PROBE_CACHE=)" -gt 20
check "... and writes the same .config" cmp "$sd/none.config" "$kd/.config"

# No-op: judged by what it did, not by a clock (its speed is make bench's).
cstamps() { stat -c %y "$o"/6.1/{generic,k8,mpsc}/{config.stamp,.config}; }
before=$(cstamps)
make config out="$o" > "$kf_tmp/noop.out" 2>&1
if ! grep -q 'CONFIG ' "$kf_tmp/noop.out" && [ "$(cstamps)" = "$before" ]; then
	ok "an unchanged make config does nothing (no merge, stamps and .configs untouched)"
else
	not_ok "an unchanged make config does nothing"; diag < "$kf_tmp/noop.out"
fi

# A fragment change not followed by 'make defconfigs' fails, showing the diff.
# It runs on a copy of mpsc (mpsc2) so the real flavours' configs stay as
# they are and nothing gets rebuilt.
co=$kf_tmp/co
scratch_checkout "$co"
cp "$co/flavours/mpsc.flavour" "$co/flavours/mpsc2.flavour"
cp "$co/defconfigs/6.1/mpsc_defconfig" "$co/defconfigs/6.1/mpsc2_defconfig"
check "an untampered copy passes check-defconfigs" \
	make -C "$co" check-defconfigs flavour=mpsc2 out="$o"
printf '# kflavour: override\nCONFIG_NR_CPUS=4\n' >> "$co/fragments/cpu-mpsc.config"
check_fails "check-defconfigs fails on a tampered fragment, showing the diff" 2 \
	'^\+CONFIG_NR_CPUS=4' make -C "$co" check-defconfigs flavour=mpsc2 out="$o"
rm -rf "$o/6.1/mpsc2"
done_testing
