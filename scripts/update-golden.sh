#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Rewrites the golden files (tests/golden) from the writers as they are now, after an
# intended change of a writer. The golden tests, run with IOPRISM_UPDATE_GOLDEN=1, write
# each file and then FAIL (so a CI run with the variable set can never pass); this script
# expects that, runs the same tests again without the variable to prove the new files
# match, and shows what changed. Review `git diff tests/golden` before committing it.
#
#   scripts/update-golden.sh [BUILD_DIR]     (default: build/dev, built beforehand)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${1:-build/dev}
tests="$build/bin/core_tests"
readonly filter='ReportGolden.*:IcfExport.GoldenFilesMatchByteForByte'
[ -x "$tests" ] || { echo "no $tests: build first (cmake --build --preset dev)" >&2; exit 2; }

if IOPRISM_UPDATE_GOLDEN=1 "$tests" --gtest_filter="$filter" --gtest_brief=1 >/dev/null; then
    echo "the golden tests passed with IOPRISM_UPDATE_GOLDEN=1: they must fail when rewriting" >&2
    exit 1
fi
# Now the files must match; a failure here is a writer that is not deterministic.
"$tests" --gtest_filter="$filter" --gtest_brief=1
git status --short -- tests/golden
echo "golden files rewritten: review 'git diff tests/golden' and commit"
