#!/bin/bash
# Issue 15: every stage record a real make writes (config.json, build.json,
# boot/<cpu>.json, report.json) is valid against the schema beside the
# stage that writes it, with the common header (lib/record.h); a record
# without it, or in another shape, is not.
. tests/lib.sh
o=$KF_OUT
check "make report: the records of every stage" make report flavour="$check_flavours" out="$o"
make check-records flavour="$check_flavours" out="$o" > "$kf_tmp/records" 2>&1 && ok "make check-records" ||
	{ not_ok "make check-records"; diag < "$kf_tmp/records"; }
for kind in flavour config.json build.json boot report.json; do
	check "check-records read the $kind records" grep -q "RECORDS [1-9][0-9]* ${kind%.json}" "$kf_tmp/records"
done
v() { /usr/bin/python3 -W ignore -m jsonschema -i "$1" "$2"; }
check_eq "each record's header" \
	"$(for r in "$o"/6.1/mpsc/config.json "$o"/6.1/mpsc/build.json "$o"/6.1/mpsc/boot/nocona.json; do
		jq -c '[.record, .format, .flavour, .kver, (.release | test("^6\\.1\\."))]' "$r"; done | tr -d '\n')" \
	'["config",1,"mpsc","6.1",true]["build",1,"mpsc","6.1",true]["boot",1,"mpsc","6.1",true]'
# Issue 47: the flavour resolved once, the record boot-runner takes.
check_eq "flavour.json: mpsc resolved for 6.1 (its recipe's model, memory, smp, fragments)" \
	"$(jq -c '[.record, .flavour, .kver, .recipe, .model.name, .memory, .smp, (.fragments | length), .base.name]' "$o/6.1/mpsc/flavour.json")" \
	'["flavour","mpsc","6.1","flavours/mpsc.flavour","nocona","1G+256M","2,sockets=1,cores=1,threads=2",6,"tinyconfig"]'
check_fails "boot-runner refuses a config record given as the flavour's, naming it" 2 \
	"$o/6.1/mpsc/config.json: .*run make config" "$o/tools/boot-runner" --kernel "$o/6.1/mpsc/arch/x86/boot/bzImage" \
	--initrd "$o/6.1/initramfs.cpio.gz" --flavour-record "$o/6.1/mpsc/config.json" --out "$kf_tmp/nb"
check_eq "config.json: the CPU choice and line size from the tree's kconfig" \
	"$(jq -c '[.cpu_choice, .l1_cache_shift, (.cpu_choice_values | index("MPSC") != null)]' "$o/6.1/mpsc/config.json")" \
	'["MPSC",7,true]'
check_eq "boot record: the console read by the runner" \
	"$(jq -c '.console | [.swiotlb_mapped, .hwalign, .end_marker]' "$o/6.1/mpsc/boot/nocona.json")" '[true,null,true]'
jq 'del(.format)' "$o/6.1/mpsc/build.json" > "$kf_tmp/noheader.json"
check_fails "a build.json without its header does not validate" 1 "format" \
	v "$kf_tmp/noheader.json" build/build.schema.json
jq '.audit = "ok"' "$o/6.1/mpsc/config.json" > "$kf_tmp/shape.json"
check_fails "a config.json in another shape does not validate" 1 "audit" \
	v "$kf_tmp/shape.json" config/config.schema.json
jq '.facts["uname.release"] = 6' "$o/6.1/mpsc/boot/nocona.json" > "$kf_tmp/fact.json"
check_fails "a boot record with a fact that is not a string does not validate" 1 "6" \
	v "$kf_tmp/fact.json" boot/boot.schema.json
done_testing
