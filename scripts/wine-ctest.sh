#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs the Windows test suite (the windows-mingw cross build) under Wine:
#
#   scripts/wine-ctest.sh [CTEST ARGS...]     e.g. -R core_tests, -j2, --timeout 900
#
# Each test executable runs as a few shards (tests/CMakeLists.txt); GTEST_FILTER picks
# cases inside them, e.g. GTEST_FILTER='IocpEngine.*' scripts/wine-ctest.sh -R platform
#
# ctest runs every test executable through Wine (CMAKE_CROSSCOMPILING_EMULATOR, set by
# cmake/toolchains/mingw-w64.cmake). Wine is slow to start a process when its server is
# not running, and a wineserver started by a test keeps ctest's output pipe open, so this
# script does what ENVIRONMENT.md prescribes: create the prefix, start one persistent
# wineserver and boot the prefix once (output to /dev/null), run ctest, stop the server.
# Build first: cmake --preset windows-mingw && cmake --build --preset windows-mingw
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${IOPRISM_WINDOWS_BUILD_DIR:-$here/build/windows-mingw}
if [ ! -f "$build/CMakeCache.txt" ]; then
    echo "error: $build is not configured: run cmake --preset windows-mingw first" >&2
    exit 2
fi
# The prefix the toolchain file gave the emulator (IOPRISM_WINEPREFIX in the cache).
prefix=$(sed -n 's/^IOPRISM_WINEPREFIX:PATH=//p' "$build/CMakeCache.txt")
[ -n "$prefix" ] || prefix=$build/wineprefix

export WINEPREFIX=$prefix WINEDEBUG=-all WINEARCH=win64 WINEDLLOVERRIDES="mscoree,mshtml=" DISPLAY=
wine64=/usr/lib/wine/wine64
command -v wineserver >/dev/null || { echo "error: wineserver not found (apt-get install wine wine64)" >&2; exit 2; }
[ -x "$wine64" ] || { echo "error: $wine64 not found (apt-get install wine64)" >&2; exit 2; }

mkdir -p "$WINEPREFIX"
stop_server() { wineserver -k >/dev/null 2>&1 || true; }
trap stop_server EXIT
# -p: persist until killed, so every test reuses this server. No inherited pipes.
stop_server # one left by an earlier run that was killed would refuse a second
wineserver -p </dev/null >/dev/null 2>&1
"$wine64" wineboot -i </dev/null >/dev/null 2>&1 || true

# scripts/wine-run.sh (the emulator) notes here every program Wine failed to start and
# that was started again; printed after the run, so a Wine that starts badly shows.
export IOPRISM_WINE_RETRY_LOG=$build/wine-run-retries.log
rm -f "$IOPRISM_WINE_RETRY_LOG"
report_retries() {
    if [ -s "$IOPRISM_WINE_RETRY_LOG" ]; then
        echo "== Wine failed to start a test program $(grep -c '^wine-run: Wine did not start' "$IOPRISM_WINE_RETRY_LOG") time(s); started again:"
        cat "$IOPRISM_WINE_RETRY_LOG"
    fi
}

cd "$here"
status=0
if [ -n "${IOPRISM_WINDOWS_BUILD_DIR:-}" ]; then
    ctest --test-dir "$build" --output-on-failure --timeout 600 "$@" || status=$?
else
    ctest --preset windows-mingw "$@" || status=$?
fi
report_retries
# What each failed test printed, again at the end, where a CI log is read.
[ "$status" -ne 0 ] && "$here/scripts/ctest-failures.sh" "$build"
exit "$status"
