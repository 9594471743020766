#!/bin/bash
# series.sh [--paths] SERIES: the one reading of a quilt series file
# (patches/<kver>/series), for tree/prepare.sh, tree/tree.mk and the tests
# that lint the series (tests/series.sh). Its patches in order, one line
# each: "PATCH [-pN]" (the patch as the series names it, relative to the
# series' folder, and quilt's -pN option, when the line has one), or with
# --paths the patch's path (SERIES' folder/PATCH). Comments ('#' to the end
# of the line) and blank lines are dropped, as quilt reads the file.
set -eo pipefail
paths=
[ "$1" != --paths ] || { paths=1; shift; }
[ $# = 1 ] || { echo "usage: tree/series.sh [--paths] SERIES" >&2; exit 2; }
sed -e 's/#.*//' "$1" | awk -v dir="$(dirname "$1")" -v paths="$paths" \
	'NF { if (paths) print dir "/" $1; else print $1, $2 }'
