# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=bash
# Sourced by the scripts that check the Windows build under Wine in a prefix of their own
# (wine-gui-test.sh, wine-agent-test.sh): the checks' reporting, and a fresh prefix.
# The caller sets WINEPREFIX (and WINEDEBUG, WINEARCH, WINEDLLOVERRIDES) and wine64.

failures=0
fail() {
    echo "FAIL $*" >&2
    failures=$((failures + 1))
}
ok() { echo "ok   $*"; }

# A fresh prefix, with one persistent server (scripts/wine-ctest.sh says why).
wine_fresh_prefix() {
    mkdir -p "$WINEPREFIX"
    wineserver -p </dev/null >/dev/null 2>&1
    DISPLAY= "$wine64" wineboot -i </dev/null >/dev/null 2>&1 || true
}

# The profile both checks run on the Windows build: one worker, random 4 KiB at 70 %
# reads, 8 I/Os in flight, for 3 s, on the test file TARGET (a Windows path) of SIZE.
wine_test_profile() { # FILE DESCRIPTION INTERVAL TARGET SIZE
    python3 - "$@" <<'PY'
import json, sys
path, description, interval, target, size = sys.argv[1:6]
spec = "RND4K Q8T1 70% read"
profile = {
    "format": "ioprism-profile", "version": 1,
    "setup": {"description": description, "runTime": "3s", "rampUp": "0s",
              "interval": interval},
    "specs": [{"name": spec, "queueDepth": 8,
               "lines": [{"transferSize": "4KiB", "share": 100, "percentRead": 70,
                          "percentRandom": 100, "alignment": "4KiB"}]}],
    "hosts": [{"id": 1, "name": "", "address": "", "workers": [{
        "name": "Worker 1", "outstandingIos": 8, "specs": [spec],
        "targets": [{"kind": "file", "path": target, "fileSize": size,
                     "cache": "direct"}]}]}]}
with open(path, "w") as f:
    json.dump(profile, f, indent=2)
PY
}

