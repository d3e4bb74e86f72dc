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
