#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# After a ctest run that failed, what each failed test printed, for the end of a CI log:
#
#   scripts/ctest-failures.sh BUILD_DIR
#
# ctest printed each failure's output where it happened, often thousands of lines up, and
# a CI log is read from its end. For a shard (tests/CMakeLists.txt: many gtest cases in one
# process) that is each failed case, whole, from its RUN line to its FAILED line; for a
# test that failed no case (it crashed, hung, or is one case) the last 60 lines.
set -euo pipefail
build=${1:?usage: scripts/ctest-failures.sh BUILD_DIR}
failed_list=$build/Testing/Temporary/LastTestsFailed.log
log=$build/Testing/Temporary/LastTest.log
[ -s "$failed_list" ] && [ -f "$log" ] || exit 0
output=$(mktemp)
trap 'rm -f "$output"' EXIT
while IFS=: read -r _ name; do
    echo "== output of the failed test $name"
    awk -v name="$name" '
        $0 ~ ("Testing: " name "$") { on = 1 }
        on { print }
        on && /^Test (Failed|Passed)|^Test time/ && ++seen == 2 { exit }' "$log" >"$output"
    awk '/^\[ RUN      \]/ { block = "" }
        { block = block $0 "\n" }
        /^\[  FAILED  \] .*\([0-9]+ ms\)$/ { printf "%s", block; found = 1 }
        END { exit !found }' "$output" | tail -n 300 || tail -n 60 "$output"
done <"$failed_list"
