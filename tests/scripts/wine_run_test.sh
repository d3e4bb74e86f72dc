#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# scripts/wine-run.sh starts a program again only when Wine failed to start it (a
# non-zero status and nothing on stdout), at most three starts in all, and never a
# program that ran and failed. Fake "wine64" programs stand in for Wine: each counts its
# starts in a file, and fails its first N starts without printing.
#
#   tests/scripts/wine_run_test.sh SOURCE_DIR
set -uo pipefail
run=$1/scripts/wine-run.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# fake NAME BODY: a wine64 stand-in whose start count is in $work/NAME.starts.
fake() {
    cat >"$work/$1" <<FAKE
#!/usr/bin/env bash
n=\$(( \$(cat "$work/$1.starts" 2>/dev/null || echo 0) + 1 ))
echo \$n >"$work/$1.starts"
$2
FAKE
    chmod +x "$work/$1"
}

# expect NAME STATUS STARTS STDOUT: run the wrapper with fake NAME as Wine and check.
expect() {
    local out status starts
    out=$(IOPRISM_WINE64=$work/$1 IOPRISM_WINE_RETRY_LOG=$work/$1.log "$run" prog.exe --arg 2>"$work/$1.err")
    status=$?
    starts=$(cat "$work/$1.starts")
    if [ "$status" != "$2" ] || [ "$starts" != "$3" ] || [ "$out" != "$4" ]; then
        echo "FAIL $1: status $status (want $2), starts $starts (want $3), stdout '$out' (want '$4')"
        cat "$work/$1.err"
        failures=$((failures + 1))
    else
        echo "ok   $1: status $status after $starts start(s)"
    fi
}

# Wine fails to start it once, then it runs and passes: one retry, logged with Wine's words.
fake flaky_start 'if [ $n -eq 1 ]; then echo "wine: could not load kernel32.dll" >&2; exit 1; fi; echo "[  PASSED  ] 1 test. args: $*"'
expect flaky_start 0 2 "[  PASSED  ] 1 test. args: prog.exe --arg"
grep -q "attempt 1: status 1, nothing on stdout" "$work/flaky_start.log" &&
    grep -q "stderr: wine: could not load kernel32.dll" "$work/flaky_start.log" ||
    { echo "FAIL flaky_start: the retry log lacks the failed start"; failures=$((failures + 1)); }

# A test that runs and fails is never started again, and keeps its status.
fake test_fails 'echo "[  FAILED  ] Suite.Test"; exit 1'
expect test_fails 1 1 "[  FAILED  ] Suite.Test"
[ ! -s "$work/test_fails.log" ] || { echo "FAIL test_fails: logged as a retry"; failures=$((failures + 1)); }

# A program that never starts fails after three starts, with its status.
fake never_starts 'exit 53'
expect never_starts 53 3 ""

# A program that passes without printing (e.g. an empty test list) runs once.
fake silent_pass 'exit 0'
expect silent_pass 0 1 ""

[ "$failures" -eq 0 ] || exit 1
