#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every source file of the repository names its licence with an SPDX identifier in its
# first lines (after a #! line): C++ sources and headers, CMake files, scripts. Lists
# the files without one and fails; `--fix` adds the line to them.
#
#   scripts/check-spdx.sh [--fix]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly spdx="SPDX-License-Identifier: GPL-3.0-or-later"
fix=false
[ "${1:-}" = "--fix" ] && fix=true

sources() {
    git ls-files -- '*.cpp' '*.h' '*.h.in' '*.cmake' 'CMakeLists.txt' '**/CMakeLists.txt' \
        '*.sh' '*.py'
    # Scripts without an extension: anything tracked under bench/ scripts/ packaging/ .ci/
    # that starts with #!
    git ls-files -- bench scripts packaging .ci | while read -r f; do
        [ -f "$f" ] && [ "$(head -c 2 "$f")" = "#!" ] && echo "$f"
    done
}

missing=()
while read -r f; do
    head -n 3 "$f" | grep -q "$spdx" || missing+=("$f")
done < <(sources | sort -u)

if [ ${#missing[@]} -eq 0 ]; then
    echo "spdx: every source names its licence"
    exit 0
fi
if ! $fix; then
    printf 'spdx: no "%s" in the first lines of:\n' "$spdx" >&2
    printf '  %s\n' "${missing[@]}" >&2
    echo "spdx: scripts/check-spdx.sh --fix adds it" >&2
    exit 1
fi
for f in "${missing[@]}"; do
    case "$f" in
    *.cpp | *.h | *.h.in) comment="// $spdx" ;;
    *) comment="# $spdx" ;;
    esac
    if [ "$(head -c 2 "$f")" = "#!" ]; then
        { head -n 1 "$f"; echo "$comment"; tail -n +2 "$f"; } >"$f.spdx"
    else
        { echo "$comment"; cat "$f"; } >"$f.spdx"
    fi
    chmod --reference="$f" "$f.spdx"
    mv "$f.spdx" "$f"
done
echo "spdx: added the identifier to ${#missing[@]} files"
