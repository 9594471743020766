#!/bin/bash
# render.sh HTML PNG [DOM]: render report.html in headless Chromium: a
# 1280x2000 screenshot into PNG and, when DOM is given, the DOM after
# rendering into DOM (what the e2e test asserts on). Nothing is fetched:
# the report is one self-contained file, and Chromium's own network
# services are switched off.
set -eo pipefail
html=$(realpath "$1") png=$(realpath -m "$2") dom=${3:+$(realpath -m "$3")}
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$chromium" ] || { echo "kflavour: chromium not found; install it with 'make check-deps' (Debian package chromium)" >&2; exit 2; }
[ -f "$html" ] || { echo "kflavour: $1: no such report; run 'make report' first" >&2; exit 2; }
profile=$(mktemp -d /tmp/kf-chromium.XXXXXX)
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
	--disable-background-networking --disable-component-update --disable-sync
	--disable-dev-shm-usage --hide-scrollbars --user-data-dir="$profile")
mkdir -p "$(dirname "$png")"
rm -f "$png"
timeout 120 "$chromium" "${flags[@]}" --screenshot="$png" --window-size=1280,2000 \
	"file://$html" > "$profile/screenshot.log" 2>&1 || true
[ -s "$png" ] || { tail -n 20 "$profile/screenshot.log" >&2; echo "kflavour: chromium wrote no screenshot of $1" >&2; exit 1; }
echo "  PNG     $2"
if [ -n "$dom" ]; then
	timeout 120 "$chromium" "${flags[@]}" --dump-dom "file://$html" > "$dom.tmp" 2> "$profile/dom.log" || true
	[ -s "$dom.tmp" ] || { tail -n 20 "$profile/dom.log" >&2; rm -f "$dom.tmp"; echo "kflavour: chromium dumped no DOM of $1" >&2; exit 1; }
	mv "$dom.tmp" "$dom"
fi
