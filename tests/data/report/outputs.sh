#!/bin/bash
# outputs.sh TOOLS OUTDIR: what the report stage makes of this fixture, with
# the report and report-results tools in TOOLS: OUTDIR/table.txt (the terminal
# table), report.json, report.html, results.ktap, junit.xml. The inputs are
# all here (README): out/6.1 (records, flavour.json among them, and logs),
# fragments/ and cpu-models (flavours/ only for make's fragment lists), read relative to this folder so the outputs name no machine's
# paths. tests/e2e/61-report-same.sh compares them with expected/.
set -eo pipefail
tools=$(realpath "$1")
mkdir -p "$2"
outdir=$(realpath "$2")
cd "$(dirname "$0")"
args=()
for f in generic k8 mpsc; do	# FLAVOUR=its fragment files, as make passes them
	files=$(sed -n 's/^fragments *= *//p' "flavours/$f.flavour" | xargs printf 'fragments/%s.config,')
	args+=("$f=${files%,}")
done
"$tools/report" --width 100 --cpu-models cpu-models \
	--json "$outdir/report.json" --html "$outdir/report.html" out/6.1 "${args[@]}" |
	grep -v '^wrote ' > "$outdir/table.txt"
"$tools/report-results" --kdir out/6.1 --ktap "$outdir/results.ktap" --junit "$outdir/junit.xml"
