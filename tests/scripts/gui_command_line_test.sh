#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The desktop application's scripted command lines, which read results files off the GUI
# thread: a results file that cannot be opened ends --screenshots and --run with status
# 2 (not a screenshot or a run of something else), and two results files are compared
# before their screenshots are taken; --page refuses a page it does not know. Runs on the offscreen platform, with settings and
# data in a temporary home.
#
#   tests/scripts/gui_command_line_test.sh IOPRISM_BINARY SOURCE_DIR
set -uo pipefail
ioprism=$1
fixtures=$2/tests/fixtures/results
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data \
    XDG_RUNTIME_DIR=$work IOPRISM_DATA_DIR=$work/data
failures=0

# A results file (by its head) cut off in the middle.
printf '{"format": "ioprism-results", "version": 1, "run": {' >"$work/bad-results.json"

# expect NAME STATUS ARGS...: run the application, check its exit status.
expect() {
    local name=$1 want=$2
    shift 2
    timeout 120 "$ioprism" "$@" >"$work/$name.out" 2>"$work/$name.err"
    local status=$?
    if [ "$status" != "$want" ]; then
        echo "FAIL $name: status $status, expected $want; stderr:" >&2
        cat "$work/$name.err" >&2
        failures=$((failures + 1))
    else
        echo "ok   $name"
    fi
}

expect bad-screenshots 2 "$work/bad-results.json" --screenshots "$work/shots-bad"
grep -q "ioprism: cannot open .*bad-results.json" "$work/bad-screenshots.err" \
    || { echo "FAIL bad-screenshots: no 'cannot open' on stderr" >&2; failures=$((failures + 1)); }
[ ! -e "$work/shots-bad/setup.png" ] \
    || { echo "FAIL bad-screenshots: a screenshot was saved" >&2; failures=$((failures + 1)); }
expect bad-run 2 "$work/bad-results.json" --run --engine null
expect bad-compare 2 "$fixtures/v1.json" "$work/bad-results.json" --screenshots "$work/shots-bad2"
grep -q "ioprism: cannot compare the files given" "$work/bad-compare.err" \
    || { echo "FAIL bad-compare: no 'cannot compare' on stderr" >&2; failures=$((failures + 1)); }

expect compare 0 "$fixtures/v1.json" "$fixtures/v2.json" --screenshots "$work/shots-compare"
for page in history compare; do
    [ -s "$work/shots-compare/$page.png" ] \
        || { echo "FAIL compare: no $page.png" >&2; failures=$((failures + 1)); }
done

# --page: a name not known ends with status 2 and says which names are; --help lists it.
expect bad-page 2 --page nosuch
grep -q 'ioprism: --page: "nosuch" is not one of targets, specs' "$work/bad-page.err" \
    || { echo "FAIL bad-page: no '--page' message on stderr" >&2; failures=$((failures + 1)); }
# --engine: a kind this system does not offer (IOCP is Windows') is refused, not ignored.
expect foreign-engine 2 --engine iocp --run
grep -q 'ioprism: --engine: "iocp" is not offered on this system' "$work/foreign-engine.err" \
    || { echo "FAIL foreign-engine: no 'not offered' on stderr" >&2; failures=$((failures + 1)); }
expect help 0 --help
grep -q -- "--page <name>" "$work/help.out" \
    || { echo "FAIL help: --page not listed" >&2; failures=$((failures + 1)); }

[ "$failures" = 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
