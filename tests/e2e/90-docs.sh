#!/bin/bash
# Docs agree with the code (issue 9): every target 'make help' lists is
# documented in docs/guide.md, every error message of docs/troubleshooting.md
# still exists in the code, and the README shows the two set-up commands.
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
	grep -rqF -- "$msg" Makefile mk lib tree config build boot report upgrade || stale+=("$msg")
done
check_eq "every message in docs/troubleshooting.md exists in the code" "${stale[*]}" ""
check "README shows make and make check" grep -qE '^make +#' README.md
check "README shows make check" grep -qE '^make check' README.md
check ".ci/run runs make check" grep -q '^make check$' .ci/run
done_testing
