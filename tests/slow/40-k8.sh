#!/bin/bash
# k8, and plain make of every flavour (issue 31). make check builds and boots
# generic and mpsc, the 64- and 128-byte kernels (tests/lib.sh
# check_flavours); k8 is one whole cold build more, so it is checked here:
# README's main command, make, builds and boots the default group's three
# flavours on every CPU model; k8 is compiled for K8 and lays out its
# per-CPU data as generic does (both 64-byte lines); on its own model the
# probe finds its line size right and the KUnit suite passes.
. tests/lib.sh
. tests/records.sh
o=$KF_OUT
r=$o/6.1

check "make: every flavour, the whole matrix, results and report" make out="$o"
verdicts=$(for f in generic k8 mpsc; do for c in qemu64 opteron nocona core2 i686; do
	printf '%s/%s=%s ' $f $c "$(jq -r .verdict "$r/$f/boot/$c.json" 2>/dev/null)"; done; done)
check_eq "15 boot records, pass everywhere but i686 (refused)" "$verdicts" \
"generic/qemu64=pass generic/opteron=pass generic/nocona=pass generic/core2=pass generic/i686=refused \
k8/qemu64=pass k8/opteron=pass k8/nocona=pass k8/core2=pass k8/i686=refused \
mpsc/qemu64=pass mpsc/opteron=pass mpsc/nocona=pass mpsc/core2=pass mpsc/i686=refused "
check_eq "report.json: all three booted" \
	"$(jq -c '[.flavours[] | "\(.name)=\(.status)"]' "$r/report.json")" '["generic=booted","k8=booted","mpsc=booted"]'
check_eq "kcidb.json: three builds" "$(jq '.builds | length' "$r/kcidb.json")" 3

# The build: -march=k8, and generic's per-CPU layout.
check_eq "k8: init/.main.o.cmd has -march=k8" \
	"$(grep -oE -- '-m(arch|tune)=[a-z0-9-]+' "$r/k8/init/.main.o.cmd" | sort -u | tr '\n' ' ')" "-march=k8 "
check_eq "k8: build.json march/mtune" "$(jq -r '"\(.march)/\(.mtune)"' "$r/k8/build.json")" k8/null
pc() { jq -r ".sections[\"$2\"]" "$r/$1/build.json"; }
check_eq "k8 and generic have the same .data..percpu (both 64-byte lines)" \
	"$(pc k8 .data..percpu)" "$(pc generic .data..percpu)"

# The boots on its own model.
rec=$r/k8/boot/opteron.json
tpc=$(jq -r '[.facts | to_entries[] | select(.key | endswith(".thread_siblings_list")) | .value] | join(" ")' "$rec")
check_eq "k8 on opteron: two cores of one thread" "$tpc" "0 1"
check_eq "k8 on opteron: L1_CACHE_BYTES" "$(fact "$rec" probe.l1_cache_bytes)" 64
check_eq "k8 on opteron: line verdict" "$(fact "$rec" probe.line_verdict)" match
check_kunit "k8 on opteron" "$rec"
done_testing
