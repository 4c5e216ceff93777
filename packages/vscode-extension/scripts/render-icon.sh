#!/usr/bin/env sh
# Renders images/icon.svg to images/icon.png (128x128, transparent corners)
# with Debian's headless chromium. Run it after editing the SVG.
set -eu
dir="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
{ printf '<html><body style="margin:0;background:transparent">'; cat "$dir/images/icon.svg"; printf '</body></html>'; } > "$tmp/icon.html"
chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars \
  --default-background-color=00000000 --window-size=128,128 \
  --screenshot="$dir/images/icon.png" "file://$tmp/icon.html"
