# tests/records.sh: sourced by tests that read boot records (boot/<cpu>.json).
# fact RECORD KEY: a fact the guest reported, or "absent".
fact() { jq -r --arg k "$2" '.facts[$k] // "absent"' "$1" 2>/dev/null; }
# check_kunit DESC RECORD: ok when the record's KTAP has the x86_flavour
# suite (the probe's KUnit tests, patches/<kver>/0002) with 8 or more cases
# and none failed.
check_kunit() {
	local n bad
	read -r n bad <<< "$(jq -r '[.ktap.results[] | select(.suite == "x86_flavour")] |
		"\(length) \([.[] | select(.ok | not)] | length)"' "$2" 2>/dev/null)"
	if [ "${n:-0}" -ge 8 ] && [ "$bad" = 0 ]; then ok "$1: KUnit x86_flavour passes ($n cases)"
	else not_ok "$1: KUnit x86_flavour passes (${n:-no} cases, ${bad:-?} failed)"; fi
}
