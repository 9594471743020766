# tests/series.sh: sourced by the tests that lint a kernel patch series.
# lint_series KV: patches/KV/series is checkpatch --strict clean with KV's
# own checkpatch (out/KV/src), and every patch is signed off. 85-lint runs
# it on 6.1; tests/slow/75-upgrade.sh, which has the 6.12 tree, on 6.12.
lint_series() {
	local kv=$1 s=$KF_OUT/$1/src pl
	mapfile -t pl < <(tree/series.sh --paths "patches/$kv/series")
	if [ ${#pl[@]} = 0 ]; then not_ok "patches/$kv/series is empty"; return; fi
	if (cd "$s" && scripts/checkpatch.pl --strict --no-signoff -q "${pl[@]/#/$top/}") > "$kf_tmp/cp" 2>&1 &&
		! grep -qE '^(ERROR|WARNING|CHECK)' "$kf_tmp/cp"; then
		ok "checkpatch --strict: patches/$kv clean (${#pl[@]} patches)"
	else
		not_ok "checkpatch --strict: patches/$kv"; head -n 30 "$kf_tmp/cp" | diag
	fi
	grep -q 'Signed-off-by: ' "${pl[@]}" && ok "patches/$kv carry Signed-off-by" || not_ok "patches/$kv carry Signed-off-by"
}
