# Sourced by the static-analysis scripts (tests/e2e/31-lint-static.sh,
# tests/slow/31-clang-analyzer.sh): which C files are ours, how they are
# compiled, and clang-tidy over them, one process per core.
# lint_files: the host tools' C files (the kernel code lives only in
# patches/; c2c/plugin.c needs the QEMU plugin header that 44-c2c fetches,
# and is 85-lint.sh's), then the unit tests and the harness's program.
lint_src61=$KF_OUT/6.1/src
lint_host=()
for f in lib/*.c config/*.c build/*.c package/*.c boot/*.c report/*.c bench/*.c upgrade/*.c bisect/*.c c2c/*.c system/*.c; do
	[ "$f" = c2c/plugin.c ] || lint_host+=("$f")
done
lint_files=("${lint_host[@]}" tests/unit/*.c tests/data/harness/*.c)
# The kconfig tools include the tree's kconfig headers and those Kbuild
# generates for its parser ('make $KF_OUT/6.1/kconfig/.built').
lint_inc=(-D_GNU_SOURCE -I. -Itests/unit/qemu-stub -isystem "$lint_src61/scripts/kconfig" -isystem "$KF_OUT/6.1/kconfig/scripts/kconfig")

# check_tidy DESC [CLANG-TIDY OPTION...]: clang-tidy with .clang-tidy's
# checks (and OPTIONs) on every file of lint_files; one check line.
check_tidy() {
	local desc=$1 f bad
	shift
	rm -f "$kf_tmp"/tidy.*
	for f in "${lint_files[@]}"; do
		{ clang-tidy --quiet "$@" "$f" -- -std=gnu11 "${lint_inc[@]}" > "$kf_tmp/tidy.${f//\//_}" 2>&1 ||
			{ echo "== $f"; cat "$kf_tmp/tidy.${f//\//_}"; } > "$kf_tmp/tidy.bad.${f//\//_}"; } &
		while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n; done
	done
	wait
	bad=$(find "$kf_tmp" -maxdepth 1 -name 'tidy.bad.*' | wc -l)
	if [ "$bad" = 0 ]; then
		ok "$desc: ${#lint_files[@]} files clean"
	else
		not_ok "$desc: $bad file(s) with findings"
		cat "$kf_tmp"/tidy.bad.* | grep -E 'warning:|error:' | head -n 40 | diag
	fi
}
