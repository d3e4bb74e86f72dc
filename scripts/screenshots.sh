#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Screenshots of the desktop application for the README and docs/user-guide.md.
#
#   scripts/screenshots.sh [BUILD_DIR]     (default: build/dev, configured and built if needed)
#
# Launches the real application under Xvfb (1600x1000), opens a short profile on a temp
# test file, saves the Targets and Access Specifications pages, runs the test for real
# (the default engine: io_uring, else sync), then saves the Live and Results pages, into
# docs/screenshots/{targets,specs,live,results}.png. Settings and data go to a temporary
# home, so the user's own IOPrism settings are neither used nor changed.
#
#   IOPRISM_SCREENSHOT_LANGUAGE=de scripts/screenshots.sh
# runs the application in that language (LANG, LANGUAGE) and saves only the Live and
# Results pages, as docs/screenshots/{live,results}-de.png.
# Needs: xvfb, xauth (Debian: apt-get install xvfb xauth).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$here/build/dev}
out="$here/docs/screenshots"

if [ ! -x "$build/bin/ioprism" ]; then
    if [ "$build" = "$here/build/dev" ]; then
        (cd "$here" && cmake --preset dev >/dev/null)
    fi
    cmake --build "$build" --target ioprism
fi
command -v xvfb-run >/dev/null || { echo "screenshots.sh: xvfb-run not found (apt-get install xvfb xauth)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/var/tmp}/ioprism-screenshots.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/config" "$work/data" "$work/shots" "$out"

cat > "$work/profile.json" <<JSON
{
  "format": "ioprism-profile",
  "version": 1,
  "setup": {
    "description": "Screenshot run: sequential 1 MiB read and write, then random 4 KiB 70 % read",
    "runTime": "4s",
    "rampUp": "1s",
    "interval": "250ms"
  },
  "specs": [
    {"name": "SEQ1M Q8T1 Read", "queueDepth": 8,
     "lines": [{"transferSize": "1MiB", "share": 100, "percentRead": 100, "percentRandom": 0, "alignment": "1MiB"}]},
    {"name": "SEQ1M Q8T1 Write", "queueDepth": 8,
     "lines": [{"transferSize": "1MiB", "share": 100, "percentRead": 0, "percentRandom": 0, "alignment": "1MiB"}]},
    {"name": "RND4K Q32T1 70% read", "queueDepth": 32,
     "lines": [{"transferSize": "4KiB", "share": 100, "percentRead": 70, "percentRandom": 100, "alignment": "4KiB"}]}
  ],
  "hosts": [{"id": 1, "name": "", "address": "", "workers": [{
    "name": "Worker 1", "outstandingIos": 1,
    "specs": ["SEQ1M Q8T1 Read", "SEQ1M Q8T1 Write", "RND4K Q32T1 70% read"],
    "targets": [{"kind": "file", "path": "$work/ioprism-test.dat", "fileSize": "256MiB", "cache": "direct"}]
  }]}]
}
JSON

language=${IOPRISM_SCREENSHOT_LANGUAGE:-}
pages="targets specs live results"
suffix=
locale=()
if [ -n "$language" ]; then
    pages="live results"
    suffix=-$language
    locale=(LANG="${language}_$(echo "$language" | tr a-z A-Z).UTF-8" LANGUAGE="$language")
fi

echo "== running IOPrism under Xvfb (about 20 s)"
env "${locale[@]}" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_RUNTIME_DIR="$work" \
    timeout 180 xvfb-run -a -s "-screen 0 1600x1000x24" \
    "$build/bin/ioprism" "$work/profile.json" --screenshots "$work/shots"

saved=()
for page in $pages; do
    cp "$work/shots/$page.png" "$out/$page$suffix.png"
    saved+=("docs/screenshots/$page$suffix.png")
done
echo "== saved: ${saved[*]}"
