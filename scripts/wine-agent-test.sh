#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Windows agent under Wine, driven by the Linux CLI over loopback (issue 28, item 6):
#
#   scripts/wine-agent-test.sh [WINDOWS_BUILD_DIR [LINUX_CLI]]
#       default build/windows-mingw (with ioprism-agent.exe built) and build/dev/bin/ioprism-cli
#
# 1. ioprism-agent.exe starts in a fresh Wine prefix, in plaintext on 127.0.0.1 (the MinGW
#    build has no TLS: docs/agents.md), allowing C:\ioprism-agent-test only; its token
#    file is a Windows path as Wine sees it (Z:\...).
# 2. The Linux `ioprism-cli agents` reaches it: a Windows host with the IOCP engine.
# 3. The Linux `ioprism-cli run --manager` runs a short profile on it with the IOCP engine,
#    on a test file as the agent spells it (C:\ioprism-agent-test\test.dat): the results
#    JSON must have I/O, the agent's Windows and the iocp engine.
# 4. The agent is stopped; the prefix and every file go (nothing is left behind).
# Needs: wine wine64 python3 (to read the JSON).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$here/build/windows-mingw}" && pwd)
cli=${2:-$here/build/dev/bin/ioprism-cli}
agent=$build/bin/ioprism-agent.exe
[ -f "$agent" ] || { echo "error: $agent is missing: cmake --build --preset windows-mingw --target ioprism-agent" >&2; exit 2; }
[ -x "$cli" ] || { echo "error: $cli is missing: cmake --build --preset dev --target ioprism-cli" >&2; exit 2; }
wine64=/usr/lib/wine/wine64
[ -x "$wine64" ] || { echo "error: $wine64 not found (apt-get install wine64)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "error: python3 not found" >&2; exit 2; }

out=$build/wine-agent
work=$(mktemp -d "${TMPDIR:-/var/tmp}/ioprism-wine-agent.XXXXXX")
rm -rf "$out"
mkdir -p "$out"
export WINEPREFIX=$work/prefix WINEDEBUG=-all WINEARCH=win64 WINEDLLOVERRIDES="mscoree,mshtml=" DISPLAY=
agent_pid=
cleanup() {
    if [ -n "$agent_pid" ]; then
        kill -KILL "$agent_pid" 2>/dev/null || true
        wait "$agent_pid" 2>/dev/null || true
    fi
    wineserver -k >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

# shellcheck source=scripts/wine-prefix.sh
. "$here/scripts/wine-prefix.sh"
wine_fresh_prefix
root=$WINEPREFIX/drive_c/ioprism-agent-test
mkdir -p "$root"
win_root='C:\ioprism-agent-test'
openssl rand -hex 32 >"$work/token" 2>/dev/null || head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$work/token"
chmod 600 "$work/token"
# The token file as the Windows agent opens it: Wine's Z: drive is the Linux root.
win_token="Z:${work//\//\\}\\token"

# A free loopback port (the kernel's choice for port 0); the agent takes no port 0.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# ---- 1. The agent. Wine may fail to start a program once (scripts/wine-run.sh): tried
# up to three times, each on a new port, until it says it listens.
port=
for attempt in 1 2 3; do
    port=$(free_port)
    "$wine64" "$agent" --plaintext --listen "127.0.0.1:$port" --token-file "$win_token" \
        --allow "$win_root" </dev/null >"$out/agent.out" 2>"$out/agent.log" &
    agent_pid=$!
    for _ in $(seq 1 600); do # 120 s: Wine is slow to start a program the first time
        grep -q ' listening on ' "$out/agent.log" 2>/dev/null && break
        kill -0 "$agent_pid" 2>/dev/null || break
        sleep 0.2
    done
    grep -q ' listening on ' "$out/agent.log" && break
    echo "note: the agent did not start (attempt $attempt):" >&2
    cat "$out/agent.log" >&2
    kill -KILL "$agent_pid" 2>/dev/null || true
    wait "$agent_pid" 2>/dev/null || true
    agent_pid=
done
if [ -z "$agent_pid" ]; then
    echo "FAIL the Windows agent did not start under Wine" >&2
    exit 1
fi
ok "agent: $(grep -o 'ioprism-agent .* listening on .*' "$out/agent.log" | tr -d '\r')"
address=127.0.0.1:$port
export IOPRISM_DATA_DIR=$work/data

# ---- 2. The Linux CLI lists it.
status=0
"$cli" agents "$address" --plaintext --token-file "$work/token" --json >"$out/agents.json" \
    2>"$out/agents.err" || status=$?
if [ "$status" != 0 ]; then
    fail "agents: status $status: $(cat "$out/agents.err" "$out/agents.json")"
elif python3 - "$out/agents.json" "$win_root" <<'PY'; then
import json, sys
agents = json.load(open(sys.argv[1]))
a = agents[0]
problems = []
if not a.get("reachable"): problems.append("not reachable")
if "Windows" not in a.get("os", ""): problems.append("os is " + repr(a.get("os")))
if "iocp" not in a.get("engines", []): problems.append("engines are " + repr(a.get("engines")))
if sys.argv[2].lower() not in [r.lower() for r in a.get("allowed", [])]:
    problems.append("allowed roots are " + repr(a.get("allowed")))
print("; ".join(problems) or "{} ({}), engines {}".format(a.get("host"), a.get("os"), ", ".join(a.get("engines", []))))
sys.exit(1 if problems else 0)
PY
    ok "agents: the Linux CLI reaches the Windows agent"
else
    fail "agents: $(cat "$out/agents.json")"
fi

# ---- 3. A short run on it with IOCP, on a test file the agent makes.
wine_test_profile "$work/profile.json" "Wine agent test: random 4 KiB 70 % read" 500ms \
    "$win_root\\test.dat" 16MiB
status=0
"$cli" run "$work/profile.json" --manager "$address" --plaintext --token-file "$work/token" \
    --engine iocp --json "$out/results.json" -q >"$out/run.out" 2>"$out/run.err" || status=$?
if [ "$status" != 0 ]; then
    fail "run: status $status: $(cat "$out/run.out" "$out/run.err")"
elif python3 - "$out/results.json" <<'PY'; then
import json, sys
r = json.load(open(sys.argv[1]))
problems = []
total = r["summary"]
ios = sum(s["scopes"][0]["total"]["ios"] for s in r["steps"])
if ios <= 0: problems.append("no I/O")
# One manager: the run's environment is the agent's (a run of several has it per host).
env = r["hosts"][0]["environment"] if "hosts" in r else r["environment"]
if "Windows" not in env.get("os_name", ""): problems.append("the host's OS is " + repr(env.get("os_name")))
if env.get("engine") != "iocp": problems.append("the engine is " + repr(env.get("engine")))
if r.get("error"): problems.append("error: " + str(r["error"]))
print("; ".join(problems) or "{} I/Os, {:.0f} IOPS".format(ios, total["iops"]))
sys.exit(1 if problems else 0)
PY
    ok "run: the Linux CLI ran a profile on the Windows agent with IOCP"
else
    fail "run: $(cat "$out/run.err")"
fi
[ -f "$root/test.dat" ] || fail "run: the agent made no test file in $win_root"

# ---- 4. Stop the agent: SIGTERM (Wine passes it on as the console's stop), then the
# prefix's server ends whatever is left.
kill -TERM "$agent_pid" 2>/dev/null || true
for _ in $(seq 1 100); do
    kill -0 "$agent_pid" 2>/dev/null || break
    sleep 0.2
done
if kill -0 "$agent_pid" 2>/dev/null; then
    echo "note: the agent did not end on SIGTERM within 20 s; ended with the Wine server"
    wineserver -k >/dev/null 2>&1 || true
fi
wait "$agent_pid" 2>/dev/null || true
agent_pid=
ok "agent stopped"

echo "== agent log (also in $out):"
tr -d '\r' <"$out/agent.log"
if [ "$failures" != 0 ]; then
    echo "FAIL: $failures check(s) of the Windows agent under Wine failed" >&2
    exit 1
fi
echo "ok: the Windows agent under Wine, driven by the Linux CLI"
