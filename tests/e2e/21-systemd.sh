#!/bin/bash
# Can this flavour boot systemd? (issue 46): the audit checks each final
# .config against fragments/systemd.needs (systemd 252's REQUIREMENTS) at
# config time, before any build. The tiny flavours' config records name
# what they miss, with menu paths; in a scratch checkout, generic plus
# fragments/systemd.config has it all, and the same with CGROUPS turned off
# is named before anything is built; a broken needs file is a clear error.
# docs/system-boot.md. Nothing is built here.
. tests/lib.sh
. tests/scratch.sh
o=$KF_OUT
co=$kf_tmp/co
schema() { /usr/bin/python3 -W ignore -m jsonschema -i "$1" config/config.schema.json; }
missing() { jq -r '[.systemd.missing[].symbol] | join(" ")' "$1" 2>/dev/null; }

check "make config: the default group's flavours" make config out="$o"
for f in generic k8 mpsc; do
	r=$o/6.1/$f/config.json
	check "$f: config.json matches config/config.schema.json" schema "$r"
	check_eq "$f: the tiny flavour cannot boot systemd: what it misses" "$(missing "$r")" \
		"CGROUPS INOTIFY_USER SIGNALFD TIMERFD EPOLL NET UNIX FHANDLE"
done
r=$o/6.1/generic/config.json
check_eq "generic: CGROUPS with its menu path and Kconfig line" \
	"$(jq -r '.systemd.missing[] | select(.symbol == "CGROUPS") | "\(.menu)|\(.defined_at)|\(.want)|\(.final)"' "$r")" \
	"General setup > Control Group support|init/Kconfig:946|y|n"
check_eq "generic: UNIX under Networking support, y or m" \
	"$(jq -r '.systemd.missing[] | select(.symbol == "UNIX") | "\(.menu)|\(.want)"' "$r")" \
	"Networking support > Networking options > Unix domain sockets|y or m"
check_eq "generic: the record names systemd 252 and the needs file" \
	"$(jq -r '.systemd | "\(.init) \(.version) \(.file) \(.ok)"' "$r")" \
	"systemd 252 fragments/systemd.needs false"

# A flavour that has what systemd needs, and the same with CGROUPS off.
scratch_checkout "$co"
sed -e 's/^fragments .*/& systemd/' -e 's/^description .*/description = generic, with what systemd needs/' \
	"$co/flavours/generic.flavour" > "$co/flavours/sysd.flavour"
printf '# kflavour: override\n# CONFIG_CGROUPS is not set\n' > "$co/fragments/no-cgroups.config"
sed -e 's/^fragments .*/& no-cgroups/' -e 's/^description .*/description = sysd without CGROUPS/' \
	"$co/flavours/sysd.flavour" > "$co/flavours/sysd-nocg.flavour"
rm -rf "$o/6.1/sysd" "$o/6.1/sysd-nocg"
check "make config flavour=sysd (generic + fragments/systemd.config)" \
	make -C "$co" config flavour=sysd out="$o"
grep -q '  SYSTEMD sysd: has what systemd 252 requires of the kernel' "$kf_tmp/last.out" &&
	ok "sysd: the config stage says it can boot systemd" ||
	{ not_ok "sysd: the config stage says it can boot systemd"; diag < "$kf_tmp/last.out"; }
check_eq "sysd: config.json: ok, nothing missing" \
	"$(jq -r '"\(.systemd.ok) \(.systemd.missing | length)"' "$o/6.1/sysd/config.json")" "true 0"
check "make config flavour=sysd-nocg (CGROUPS off)" make -C "$co" config flavour=sysd-nocg out="$o"
grep -q '  SYSTEMD sysd-nocg: cannot boot systemd 252, missing CGROUPS (' "$kf_tmp/last.out" &&
	ok "sysd-nocg: the config stage names CGROUPS" ||
	{ not_ok "sysd-nocg: the config stage names CGROUPS"; diag < "$kf_tmp/last.out"; }
r=$o/6.1/sysd-nocg/config.json
check_eq "sysd-nocg: config.json names CGROUPS alone, with its menu path" \
	"$(jq -r '.systemd | "\(.ok) \([.missing[] | "\(.symbol)=\(.want) (\(.final)): \(.menu)"] | join(";"))"' "$r")" \
	"false CGROUPS=y (n): General setup > Control Group support"
check "sysd-nocg: config.json matches the schema" schema "$r"
[ ! -e "$o/6.1/sysd-nocg/build.json" ] && [ ! -e "$o/6.1/sysd-nocg/vmlinux" ] &&
	ok "sysd-nocg: named before any build (no build.json, no vmlinux)" ||
	not_ok "sysd-nocg: named before any build"
# The report tool itself, its outputs in kf_tmp: out/6.1/report.json is
# the run's own.
check "the report of the two (configured, not built)" \
	bash -c "cd '$co' && '$o/tools/report' --cpu-models boot/cpu-models \
		--json '$kf_tmp/report.json' --html '$kf_tmp/report.html' '$o/6.1' sysd sysd-nocg"
grep -Eq '^systemd needs +ok +1 missing: CGROUPS' "$kf_tmp/last.out" &&
	ok "report: the systemd needs row, ok and 1 missing: CGROUPS" ||
	{ not_ok "report: the systemd needs row"; grep -i systemd "$kf_tmp/last.out" | diag; }
check "report.json matches report/report.schema.json" \
	/usr/bin/python3 -W ignore -m jsonschema -i "$kf_tmp/report.json" report/report.schema.json
check_eq "report.json: sysd-nocg's systemd check with its menu path" \
	"$(jq -r '.flavours[] | select(.name == "sysd-nocg") | .config.systemd.missing[0] | "\(.symbol): \(.menu)"' "$kf_tmp/report.json")" \
	"CGROUPS: General setup > Control Group support"
grep -q 'CONFIG_CGROUPS=y</code> <span class="missing">General setup &gt; Control Group support' "$kf_tmp/report.html" &&
	ok "report.html: CONFIG_CGROUPS=y and its menu path" || not_ok "report.html: CONFIG_CGROUPS=y and its menu path"

# A broken needs file stops the config stage, named; the last .config stays.
good=$(sha "$o/6.1/sysd/.config")
printf 'required CGROUPS yes\n' >> "$co/fragments/systemd.needs"
printf '# CONFIG_KCMP is not set\n' >> "$co/fragments/systemd.config"
check_fails "a bad needs line: exit 2, file:line and the fix" 2 \
	"fragments/systemd.needs:[0-9]+: CGROUPS: value 'yes' is none of y, m, n" \
	make -C "$co" config flavour=sysd out="$o"
check_eq "a bad needs line: sysd's .config unchanged" "$(sha "$o/6.1/sysd/.config")" "$good"
rm -rf "$o/6.1/sysd" "$o/6.1/sysd-nocg" "$co"
done_testing
