#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs every libFuzzer target built by the `fuzz` preset for a bounded time, each from its
# seed corpus in the repository (docs/testing.md, "Fuzzing"). Exits non-zero as soon as a
# target finds a crash, a sanitizer report, a failed round trip, a leak, an input slower
# than 10 s or one that needs more than 2 GiB; the input is saved in build/fuzz/artifacts.
#
#   scripts/fuzz.sh [SECONDS]    seconds per target (default 36: six targets, two at a
#                                time, under two minutes in all); build first with
#                                cmake --preset fuzz && cmake --build --preset fuzz
#
# What each target discovers is kept in build/fuzz/corpus/<target> (the seeds are read in
# place, never copied), so later runs start from where the last one stopped.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
seconds=${1:-36}
out=build/fuzz
mkdir -p "$out/artifacts"

# Two targets at a time: each is one process on one core, and the machine has two.
parallel=${IOPRISM_FUZZ_JOBS:-2}

run_one() { # target [libFuzzer options...] -- seed directories...
    local target=$1
    shift
    local options=()
    while [ "$1" != "--" ]; do
        options+=("$1")
        shift
    done
    shift
    mkdir -p "$out/corpus/$target"
    local log="$out/$target.log"
    if ! "$out/bin/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix="$out/artifacts/$target-" "${options[@]}" \
        "$out/corpus/$target" "$@" >"$log" 2>&1; then
        tail -n 60 "$log"
        echo "== $target FAILED: the input is in $out/artifacts (full log: $log)"
        return 1
    fi
    echo "== $target: $(grep -E '^Done|#[0-9]+.*(DONE|pulse)' "$log" | tail -n 1 || true)"
}

running=0
failed=0
# Waits for one target to end; remembers a failure, so that the others still finish and
# their logs stay whole.
reap() {
    if ! wait -n; then failed=1; fi
    running=$((running - 1))
}

fuzz() { # as run_one, in the background
    [ "$running" -lt "$parallel" ] || reap
    echo "== fuzzing $1 for ${seconds}s"
    run_one "$@" &
    running=$((running + 1))
}

fuzz profile_json_fuzzer -dict=tests/fuzz/profile_json.dict -- resources/presets
fuzz icf_fuzzer -- tests/fixtures/icf tests/golden/icf
fuzz results_json_fuzzer -dict=tests/fuzz/results_json.dict -- tests/golden/report tests/fuzz/results_seeds
# The same seeds written as a run library's entry and read as `history` and `show` do.
fuzz results_library_fuzzer -dict=tests/fuzz/results_json.dict -- tests/golden/report tests/fuzz/results_seeds
# The run session's messages, seeded with one message of each type (written by
# RunSession.WhatCrossesTheLoopbackIsWhatTheFarSideSentFieldForField under
# IOPRISM_SESSION_SEEDS=tests/fuzz/session_seeds).
fuzz session_codec_fuzzer -dict=tests/fuzz/results_json.dict -- tests/fuzz/session_seeds
# The agent protocol's control messages, and the agent's service fed each input before and
# after the hello; seeded with one message of each type (written by
# AgentMessages.EveryMessageDecodesToTheMessageEncoded under
# IOPRISM_AGENT_SEEDS=tests/fuzz/agent_seeds).
fuzz agent_messages_fuzzer -dict=tests/fuzz/agent_messages.dict -- tests/fuzz/agent_seeds
while [ "$running" -gt 0 ]; do reap; done
exit "$failed"
