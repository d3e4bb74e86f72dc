#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# clang-tidy (the repo's .clang-tidy, every finding an error) on the C++ sources that
# changed, through a build's compile_commands.json (build/dev unless --build says another
# with the GUI: it must be built, the GUI's generated headers are needed). quickstart.sh
# test runs it on its build/asan.
#
#   scripts/lint.sh             sources changed since the last commit older than 6 hours
#                               (the root commit if none), committed or not
#   scripts/lint.sh --base REV  sources changed since REV
#   scripts/lint.sh --all       every source (about 14 minutes on a 2-core VM)
#   scripts/lint.sh --build DIR ... through DIR's compile commands (default build/dev)
#
# A file linted clean before and unchanged since (the same preprocessed text, command,
# .clang-tidy and clang-tidy) is not linted again: IOPRISM_LINT_CACHE (default
# ~/.cache/ioprism-lint) keeps the keys of clean files.
#
# Linted: the .cpp files under core/ platform/ net/ mpi/ app/ ui/ that the dev build compiles
# (platform/windows/ is checked by the MinGW build, not here), plus, for each changed
# header, one source that includes it directly; headers are checked through them. tests/ is not linted: the
# checks are about product code (its threads, I/O and ownership), a test's mistakes show
# up as failing or flaky tests under the sanitizers, and GoogleTest's macros expand into
# code those checks were not written for.
# Exits non-zero on any finding.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
build=build/dev

base=
all=false
while [ $# -gt 0 ]; do
    case "$1" in
    --all) all=true ;;
    --base) base=${2:?--base needs a revision}; shift ;;
    --build) build=${2:?--build needs a build directory}; shift ;;
    *) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
    shift
done

db=$build/compile_commands.json
if [ ! -f "$db" ]; then
    echo "lint: $db is missing: configure and build it first" >&2
    exit 2
fi

dirs=(core platform net mpi app ui)
if $all; then
    mapfile -t candidates < <(git ls-files -- "${dirs[@]/%//*.cpp}")
    echo "== clang-tidy: every source"
else
    if [ -z "$base" ]; then
        base=$(git rev-list -1 --before='6 hours ago' HEAD)
        [ -n "$base" ] || base=$(git rev-list --max-parents=0 HEAD | tail -n 1)
    fi
    # Changed since base: committed, staged, in the working tree, and new files. A file
    # whose only change is its licence line (scripts/check-spdx.sh) has nothing to lint.
    mapfile -t changed < <({
        git diff --numstat --no-renames --diff-filter=d -I 'SPDX-License-Identifier' "$base" \
            -- "${dirs[@]}" | cut -f3
        git ls-files --others --exclude-standard -- "${dirs[@]}"
    } | sort -u)
    candidates=()
    headers=()
    for f in "${changed[@]}"; do
        case "$f" in
        *.cpp) candidates+=("$f") ;;
        *.h) headers+=("$f") ;;
        esac
    done
    # A changed header is checked through one source that includes it directly: a changed
    # source that does, else the first that does (a grep: cheap). clang-tidy reports a
    # header's findings through any includer, so one is enough; every includer of a
    # central header (core/counters.h has dozens) would make the lint of a small change
    # take most of a CI run.
    for h in "${headers[@]}"; do
        mapfile -t includers < <(git grep -l -F "#include \"$h\"" -- "${dirs[@]/%//*.cpp}" || true)
        [ ${#includers[@]} -gt 0 ] || continue
        covered=false
        for c in "${candidates[@]}"; do
            for i in "${includers[@]}"; do
                [ "$c" = "$i" ] && covered=true
            done
        done
        $covered || candidates+=("${includers[0]}")
    done
    echo "== clang-tidy: sources changed since $(git log -1 --format='%h %cr' "$base")"
fi

# The build's precompiled headers are GCC's (cmake/compile_time.cmake): clang-tidy
# reads the same commands without them, so each file is parsed with its own #includes
# only, and one that needs a header it does not include is reported.
tidy_db=$(mktemp -d)
trap 'rm -rf "$tidy_db"' EXIT
# A unity build's batches (cmake/compile_time.cmake) are listed as one file each
# (Unity/unity_N_cxx.cxx): each source a batch includes gets the batch's command, so every
# file is linted alone, as it compiles in the dev build.
python3 -c 'import json,os,re,sys
out=[]
for e in json.load(open(sys.argv[1])):
    e["command"]=re.sub(r" -Winvalid-pch| -include \S*/cmake_pch\.hxx(?=\s)","",e["command"])
    path=os.path.join(e["directory"], e["file"])
    if re.search(r"/Unity/unity_[0-9]+_[a-z]+\.[a-z]+$", path):
        sources=re.findall(r"^#include \"(.*)\"$", open(path).read(), re.M)
        if not sources:
            sys.exit("lint: no sources found in the batch " + path + " (a new CMake format?)")
        for src in sources:
            out.append(dict(e, file=src, command=e["command"].replace(path, src)))
    else:
        out.append(e)
json.dump(out,open(sys.argv[2],"w"))' "$db" "$tidy_db/compile_commands.json"

# Only what the build compiles (its compile commands are what clang-tidy needs).
mapfile -t known < <(python3 -c 'import json,os,sys
for e in json.load(open(sys.argv[1])):
    print(os.path.normpath(os.path.join(e["directory"], e["file"])))' "$tidy_db/compile_commands.json")
declare -A compiled=()
for k in "${known[@]}"; do compiled[$k]=1; done
files=()
for f in $(printf '%s\n' "${candidates[@]}" | sort -u); do
    [ -n "${compiled[$here/$f]:-}" ] && files+=("$f")
done
if [ ${#files[@]} -eq 0 ]; then
    echo "   nothing to lint"
    exit 0
fi
echo "   ${#files[@]} file(s): ${files[*]}"

# Files linted clean before, unchanged, are not linted again: a file's key is what
# clang-tidy's verdict depends on -- clang-tidy's version, .clang-tidy, the file's compile
# command and the file as preprocessed with its comments kept (NOLINT), every header it
# includes expanded -- with this clone's path taken out, so that another clone (CI's)
# finds what this one linted. Clean keys are kept in $IOPRISM_LINT_CACHE; a finding keeps
# none. Preprocessing is about 0.3 s a file; clang-tidy 10 to 40 s.
cache=${IOPRISM_LINT_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/ioprism-lint}
# A folder that cannot be made (read-only home): no cache, every file linted.
mkdir -p "$cache" 2>/dev/null || cache=/nonexistent
mapfile -t keyed < <(python3 -c 'import concurrent.futures,hashlib,json,os,shlex,subprocess,sys
db, root, config = sys.argv[1], sys.argv[2], sys.argv[3]
files = sys.argv[4:]
commands = {os.path.normpath(os.path.join(e["directory"], e["file"])): e
    for e in json.load(open(db))}
tool = subprocess.run(["clang-tidy", "--version"], capture_output=True, text=True).stdout
def key(f):
    e = commands[os.path.join(root, f)]
    args = shlex.split(e["command"])
    # The command, then the same command preprocessing to stdout instead of compiling.
    i = args.index("-o")
    pre = args[:i] + args[i + 2:]
    pre = [a for a in pre if a != "-c"] + ["-E", "-P", "-C", "-o", "-"]
    out = subprocess.run(pre, cwd=e["directory"], capture_output=True)
    if out.returncode != 0:
        return f + " -"
    h = hashlib.sha256()
    for part in (tool.encode(), open(config, "rb").read(),
                 " ".join(args[:i] + args[i + 2:]).encode(), out.stdout):
        h.update(part.replace(root.encode(), b"ROOT"))
        h.update(b"\0")
    return f + " " + h.hexdigest()
with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
    for line in pool.map(key, files):
        print(line)' "$tidy_db/compile_commands.json" "$here" "$here/.clang-tidy" "${files[@]}")
files=()
keys=()
for line in "${keyed[@]}"; do
    f=${line% *}
    k=${line##* }
    if [ "$k" != "-" ] && [ -e "$cache/$k" ]; then
        continue
    fi
    files+=("$f")
    keys+=("$k")
done
if [ ${#files[@]} -eq 0 ]; then
    echo "   each linted clean before, unchanged ($cache)"
    exit 0
fi
[ ${#files[@]} -eq ${#keyed[@]} ] || echo "   ${#files[@]} of them changed since they were linted clean; the rest unchanged ($cache)"

# run-clang-tidy takes regexes on the absolute path: anchor and escape each file.
regexes=()
for f in "${files[@]}"; do
    regexes+=("^$(printf '%s' "$here/$f" | sed 's/[].[^$*+?(){}|\\]/\\&/g')\$")
done
# Its per-file "clang-tidy ... " command lines and clang's "N warnings generated" are
# noise; the findings (file:line: warning/error) and their context are what remains.
set +e
# The dev build is GCC: a GCC-only flag (-Wno-restrict, cmake/warnings.cmake) is not an
# error to clang.
run-clang-tidy -p "$tidy_db" -quiet -j "$(nproc)" -extra-arg=-Wno-unknown-warning-option \
    "${regexes[@]}" 2>&1 \
    | grep -v -E '^(clang-tidy-?[0-9]* |[0-9]+ warnings? (and [0-9]+ errors? )?generated|Suppressed [0-9]+ warnings|Use -header-filter|Running clang-tidy)'
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
    echo "lint: clang-tidy found problems (above)" >&2
    exit 1
fi
for k in "${keys[@]}"; do
    [ "$k" = "-" ] || { : >"$cache/$k"; } 2>/dev/null || true
done
echo "   clean"
