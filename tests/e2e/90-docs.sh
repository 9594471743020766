#!/bin/bash
# Docs agree with the code (issue 9): every target 'make help' lists is
# documented in docs/guide.md, every error message of docs/troubleshooting.md
# still exists in the code, the README shows the two set-up commands, and
# host tools print as make help's V=1 says (issue 35), and the one-reader
# greps of docs/architecture.md find nothing but the readers in lib/.
. tests/lib.sh
make -s help out="$KF_OUT" > "$kf_tmp/help" 2>&1
mapfile -t targets < <(grep -oE '^  make [a-z][a-z0-9-]*' "$kf_tmp/help" | awk '{print $2}' | sort -u)
[ ${#targets[@]} -gt 10 ] && ok "make help lists ${#targets[@]} targets" || not_ok "make help lists targets"
missing=()
for t in "${targets[@]}"; do
	grep -q "make $t\b" docs/guide.md || missing+=("$t")
done
check_eq "every make help target is documented in docs/guide.md" "${missing[*]}" ""
# Each quoted message in troubleshooting.md (its "### `...`" headings) must be
# found in the code, so the doc cannot outlive a message.
mapfile -t msgs < <(sed -n 's/^### `\(.*\)`$/\1/p' docs/troubleshooting.md)
[ ${#msgs[@]} -gt 10 ] && ok "docs/troubleshooting.md quotes ${#msgs[@]} messages" ||
	not_ok "docs/troubleshooting.md quotes messages (${#msgs[@]} found as '### \`...\`' lines)"
stale=()
for msg in "${msgs[@]}"; do
	grep -rqF -- "$msg" Makefile mk lib tree config build boot report upgrade c2c || stale+=("$msg")
done
check_eq "every message in docs/troubleshooting.md exists in the code" "${stale[*]}" ""
# V=1 as make help says: a host tool's compile is one line, as Kbuild's
# are, its whole gcc command with V=1, and the compiler's errors either
# way (a fresh out= compiles config-flavours for help).
make help out="$kf_tmp/h1" > "$kf_tmp/h1.out" 2>&1
check "a host tool's compile shows as '  HOSTCC  config-flavours', no gcc line" \
	sh -c "grep -qx '  HOSTCC  config-flavours' '$kf_tmp/h1.out' && ! grep -q '^gcc ' '$kf_tmp/h1.out'"
make help out="$kf_tmp/h2" V=1 > "$kf_tmp/h2.out" 2>&1
check "V=1: its whole gcc command" grep -q '^gcc -std=gnu11 .* -o .*/tools/config-flavours' "$kf_tmp/h2.out"
check_fails "a failing compile: the compiler's error shows" 2 'nonexistent.h: No such file' \
	make help out="$kf_tmp/h3" HOSTCC='gcc -include nonexistent.h'
# docs/architecture.md's greps for a format read outside its one reader
# (issue 47's proofs: where a recipe is parsed, a flavour's name derived,
# the CPU model table read, ELF read, console lines split): each line's
# comment ends in ": FILE", the one file it must print, its reader (in lib/
# for the C tools' formats; so its pattern still matches the code it looks
# for), or ": (none)", and then it must print nothing.
mapfile -t greps < <(awk '/`tests\/e2e\/90-docs.sh` runs every line of this block and wants exactly the$/ { on = 1; next }
	on && /^```$/ { if (++fence == 2) exit; next } fence == 1' docs/architecture.md)
dline=${greps[0]-}
wrong=() named=()
for g in "${greps[@]:1}"; do
	got=$(bash -c "$dline; $g" 2>&1)
	want=${g##*# } want=${want##*: }
	case $want in
	'(none)') [ -z "$got" ] || wrong+=("${g##*# }: printed $got") ;;
	*/*) named+=("$want")
		[ "$got" = "$want" ] || wrong+=("${g##*# }: printed ${got:-nothing}") ;;
	*) wrong+=("${g##*# }: names no file (its reader, e.g. lib/recipe.c) nor (none)") ;;
	esac
done
[[ $dline == d=* ]] && [ ${#greps[@]} -gt 8 ] && ok "docs/architecture.md: $((${#greps[@]} - 1)) one-reader greps" ||
	not_ok "docs/architecture.md: the one-reader greps (${#greps[@]} lines, first '$dline')"
check_eq "each one-reader grep prints exactly the file it names" "${wrong[*]}" ""
check_eq "the five proofs of issue 47 name their readers" \
	"$(for f in lib/recipe.c lib/cpumodels.c lib/elf.c lib/conline.c; do
		printf '%s\n' "${named[@]}" | grep -qx "$f" || echo "$f"; done)" ""
# Issue 47: docs/architecture.md names every tool the tool templates build
# (mk/tools.mk's tool and config/config.mk's kconfig_tool, wherever a stage
# calls them) in its tools table, and every record kind (each schema's
# "record" constant) in its record-header table.
mapfile -t tools < <(grep -ohE 'call (kconfig_)?tool,[a-z0-9-]+' Makefile mk/*.mk */*.mk | sed 's/.*tool,//' | sort -u)
table=$(sed -n '/^## Host tools/,/^## out/p' docs/architecture.md)
missing=()
for t in "${tools[@]}"; do grep -qF "\`$t\`" <<< "$table" || missing+=("$t"); done
[ ${#tools[@]} -gt 20 ] && ok "the tool templates build ${#tools[@]} tools" || not_ok "tools of the templates (${#tools[@]} found)"
check_eq "every tool of the templates is in docs/architecture.md's tools table" "${missing[*]}" ""
mapfile -t kinds < <(for f in */*.schema.json; do jq -r '.properties.record.const // empty' "$f"; done | sort -u)
header=$(grep '^| `record` |' docs/architecture.md)
missing=()
for k in "${kinds[@]}"; do grep -qF "\`$k\`" <<< "$header" || missing+=("$k"); done
[ ${#kinds[@]} -gt 5 ] && ok "the schemas declare ${#kinds[@]} record kinds" || not_ok "record kinds of the schemas (${#kinds[@]} found)"
check_eq "every record kind is in docs/architecture.md's record-header table" "${missing[*]}" ""
# No tool outside lib/ includes another stage's header except through lib/:
# a stage's C includes its own folder's headers (no '/' in the name) and
# lib/'s ("../lib/NAME"); any other quoted #include is another stage's (the
# unit tests, which link the code they test, are not tools).
cross_includes() {	# FILE...: each quoted #include of another folder
	grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' "$@" |
		grep -vE '#[[:space:]]*include[[:space:]]*"\.\./lib/[^/"]+"'
}
mapfile -t stage_c < <(find . -path ./out -prune -o -path ./tests -prune -o -path ./lib -prune -o \
	-path './.*' -prune -o -type f \( -name '*.c' -o -name '*.h' \) -print | sed 's|^\./||' | sort)
[ ${#stage_c[@]} -gt 50 ] && ok "C files outside lib/ and tests/: ${#stage_c[@]}" ||
	not_ok "C files outside lib/ and tests/ (${#stage_c[@]} found)"
check_eq "no tool includes another stage's header but through lib/" "$(cross_includes "${stage_c[@]}")" ""
printf '#include "report.h"\n#include "../lib/kf.h"\n# include "../report/report.h"\n#include "boot/console.h"\n' \
	> "$kf_tmp/cross.c"
check_eq "... the check finds another stage's header, however spelt" \
	"$(cross_includes "$kf_tmp/cross.c" | cut -d: -f2 | tr '\n' ' ')" "3 4 "
# And lib/ is under every stage: it includes no stage's header at all.
check_eq "lib/ includes no stage's header" \
	"$(grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' lib/*.c lib/*.h)" ""
check "README shows make and make check" grep -qE '^make +#' README.md
check "README shows make check" grep -qE '^make check' README.md
check ".ci/run runs make check" grep -q '^make check$' .ci/run
done_testing
