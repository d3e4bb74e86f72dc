#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The emulator ctest runs every Windows test program through (CMAKE_CROSSCOMPILING_EMULATOR,
# set by cmake/toolchains/mingw-w64.cmake):
#
#   scripts/wine-run.sh PROGRAM.exe [ARGS...]
#
# It runs the program under wine64 with the environment the toolchain file gives it and
# exits with the program's status.
#
# Why not wine64 directly: in two of three CI runs one core test, a different one each
# time (pure computations that pass everywhere else, thousands of times in a row here),
# "Failed" under Wine, once in 0.00 s. A program that runs at all takes 20 ms or more
# under Wine and prints at least gtest's banner (or, for gtest_discover_tests, the test
# list) on stdout, so Wine itself had failed to start the program. When a start fails that way -- a non-zero
# status and nothing at all on stdout -- this starts the program again, at most twice,
# and says so on stderr and in $IOPRISM_WINE_RETRY_LOG (scripts/wine-ctest.sh prints that
# file after the run). A program that printed anything is never started again, so a
# test that fails, crashes or hangs once it runs still fails; a program that cannot
# start fails after three tries.
set -uo pipefail

wine64=${IOPRISM_WINE64:-/usr/lib/wine/wine64}
stdout_copy=$(mktemp)
stderr_copy=$(mktemp)
trap 'rm -f "$stdout_copy" "$stderr_copy"' EXIT

for attempt in 1 2 3; do
    # stdout streams through (ctest shows it live and on a timeout); a copy tells whether
    # the program printed anything. stderr is kept to be reported with a failed start.
    "$wine64" "$@" 2>"$stderr_copy" | tee "$stdout_copy"
    status=${PIPESTATUS[0]}
    cat "$stderr_copy" >&2
    if [ "$status" -eq 0 ] || [ -s "$stdout_copy" ] || [ "$attempt" -eq 3 ]; then
        exit "$status"
    fi
    {
        echo "wine-run: Wine did not start $* (attempt $attempt: status $status, nothing on stdout); starting it again"
        [ -s "$stderr_copy" ] && sed 's/^/wine-run:   stderr: /' "$stderr_copy"
    } | tee -a "${IOPRISM_WINE_RETRY_LOG:-/dev/null}" >&2
done
