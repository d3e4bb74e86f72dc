#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Windows GUI as a Windows user gets it, under Wine in a real window on an X server:
#
#   scripts/wine-gui-test.sh [BUILD_DIR]      (default build/windows-mingw, built and
#                                              packaged: cpack ... -B BUILD_DIR/package)
#
# 1. The installer (ioprism-<version>-win64.exe) installs silently (/S) into a fresh Wine
#    prefix: the GUI, the CLI, the agent, Qt's DLLs and plug-ins, the docs, the Start-menu entry and
#    the .icf association are checked.
# 2. The installed ioprism.exe opens its window on Xvfb and, with the IOCP engine, runs a
#    short profile on a test file: it saves its Live and Results pages (--screenshots),
#    writes the results (--results-json) and quits. Meanwhile the X server's own picture
#    of the window is taken (import). A crash, a missing DLL or plug-in, a blank picture
#    or results without I/O fail the test.
# 3. The uninstaller runs silently; nothing of the installation may be left: no folder,
#    no Start-menu entry, no association, no uninstall entry.
# The pictures stay in BUILD_DIR/wine-gui/ (docs/windows.md shows them); look at them.
# Needs: wine wine64 xvfb xauth imagemagick xdotool.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$here/build/windows-mingw}" && pwd)
installer=$(ls "$build"/package/ioprism-*-win64.exe 2>/dev/null | grep -v -- '-cli-' | head -1 || true)
[ -n "$installer" ] || { echo "error: no GUI installer in $build/package: build it first (cpack)" >&2; exit 2; }
for tool in xvfb-run import identify xdotool; do
    command -v $tool >/dev/null || { echo "error: $tool not found (apt-get install xvfb xauth imagemagick xdotool)" >&2; exit 2; }
done

out=$build/wine-gui
work=$(mktemp -d "${TMPDIR:-/var/tmp}/ioprism-wine-gui.XXXXXX")
rm -rf "$out"
mkdir -p "$out"
export WINEPREFIX=$work/prefix WINEDEBUG=-all WINEARCH=win64 WINEDLLOVERRIDES="mscoree,mshtml="
wine64=/usr/lib/wine/wine64
cleanup() {
    wineserver -k >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

# shellcheck source=scripts/wine-prefix.sh
. "$here/scripts/wine-prefix.sh"
wine_fresh_prefix
drive_c=$WINEPREFIX/drive_c
dest="$drive_c/Program Files/IOPrism"
win_dest='C:\Program Files\IOPrism'

# The default value of a registry key, and whether a key exists.
registry() { DISPLAY= "$wine64" reg query "$1" /ve 2>/dev/null | tr -d '\r' || true; }
key_exists() { DISPLAY= "$wine64" reg query "$1" >/dev/null 2>&1; }

# ---- 1. Install, silently.
DISPLAY= "$wine64" "$installer" /S "/D=$win_dest" </dev/null >"$out/install.log" 2>&1 \
    || fail "install: the installer ended with status $?"
for f in bin/ioprism.exe bin/ioprism-cli.exe bin/ioprism-agent.exe bin/Qt6Core.dll bin/Qt6Widgets.dll bin/qt.conf \
    bin/plugins/platforms/qwindows.dll share/doc/ioprism-cli/user-guide.md \
    share/doc/ioprism/licenses/qtbase/copyright Uninstall.exe; do
    [ -f "$dest/$f" ] || fail "install: $f is missing"
done
registry 'HKLM\Software\Classes\.icf' | grep -q 'IOPrism.icf' || fail "install: no .icf association"
registry 'HKLM\Software\Classes\IOPrism.icf\shell\open\command' | grep -qi 'ioprism.exe' \
    || fail "install: the .icf association does not open ioprism.exe"
key_exists 'HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall\IOPrism' \
    || fail "install: no uninstall entry"
menu=$(find "$drive_c" -path '*Start Menu*' -iname 'IOPrism*.lnk' 2>/dev/null | head -1)
[ -n "$menu" ] || fail "install: no Start-menu entry"
[ "$failures" = 0 ] && ok "installed into $win_dest, with the Start-menu entry and the .icf association"

# ---- 2. The installed GUI, in a real window: a short run on a test file with IOCP.
data=$drive_c/ioprism-gui-test
mkdir -p "$data/shots"
wine_test_profile "$data/profile.json" "Wine GUI test: random 4 KiB 70 % read" 250ms \
    'C:\ioprism-gui-test\ioprism-test.dat' 64MiB
# Under Xvfb (xvfb-run is a sh script, so the steps go in a file of their own): the
# window is looked for while the program runs, and its picture is the X server's. Wine's
# desktop process (explorer.exe) takes the display it was started with: the prefix's
# processes so far ran without one, so the server goes first and comes back inside.
wineserver -k >/dev/null 2>&1 || true
timeout 60 wineserver -w || true
cat >"$work/gui-run.sh" <<'SH'
"$wine64" "C:\\Program Files\\IOPrism\\bin\\ioprism.exe" --engine iocp \
    --screenshots 'C:\ioprism-gui-test\shots' --results-json 'C:\ioprism-gui-test\results.json' \
    'C:\ioprism-gui-test\profile.json' </dev/null >"$out/gui.out" 2>"$out/gui.err" &
gui=$!
window=$(timeout 180 xdotool search --sync --onlyvisible --name 'IOPrism' 2>/dev/null | head -1) || true
if [ -n "$window" ]; then
    echo "$window" >"$out/window-id"
    # Mapped is not yet painted: take the picture again until it shows something, for as
    # long as the program runs (its run alone takes 3 s).
    while kill -0 $gui 2>/dev/null; do
        import -window root "$out/x-window.png" 2>/dev/null || true
        deviation=$(identify -format '%[fx:standard_deviation]' "$out/x-window.png" 2>/dev/null || echo 0)
        awk -v d="$deviation" 'BEGIN { exit !(d > 0.02) }' && break
        sleep 0.5
    done
fi
status=0
wait $gui || status=$?
echo "$status" >"$out/gui-status"
wineserver -k >/dev/null 2>&1 || true # the desktop process, before its X server goes
SH
wine64=$wine64 out=$out timeout 600 xvfb-run -a -s "-screen 0 1600x1000x24" bash "$work/gui-run.sh" \
    || echo 124 >"$out/gui-status"
status=$(cat "$out/gui-status")
[ "$status" = 0 ] || { fail "gui: ioprism.exe ended with status $status; stderr:"; cat "$out/gui.err" >&2; }
[ -s "$out/window-id" ] && ok "gui: a window titled IOPrism appeared on the X server" \
    || fail "gui: no window titled IOPrism appeared on the X server"

# A picture is not blank when its pixels differ: the standard deviation of its grey
# levels (0..1) is well above a flat fill's 0.
not_blank() { # name file
    if [ ! -s "$2" ]; then
        fail "$1: no picture $2"
        return
    fi
    local deviation
    deviation=$(identify -format '%[fx:standard_deviation]' "$2" 2>/dev/null || echo 0)
    if awk -v d="$deviation" 'BEGIN { exit !(d > 0.02) }'; then
        ok "$1: picture not blank (deviation $deviation)"
    else
        fail "$1: picture is blank (deviation $deviation)"
    fi
}
cp "$data"/shots/*.png "$out/" 2>/dev/null || true
for page in targets live results; do
    not_blank "gui $page page" "$out/$page.png"
done
not_blank "X server's picture" "$out/x-window.png"

results=$data/results.json
if [ -s "$results" ]; then
    cp "$results" "$out/results.json"
    grep -q '"engine": *"iocp"' "$results" || fail "results: the engine is not iocp"
    # Total I/Os of the run's All scope: must be more than none.
    ios=$(grep -o '"ios": *[0-9]*' "$results" | head -1 | grep -o '[0-9]*$' || echo 0)
    [ "${ios:-0}" -gt 0 ] && ok "results: $ios I/Os with the IOCP engine" || fail "results: no I/O counted"
    # PDH's PhysicalDisk counters: Wine has none, Windows has them.
    # PDH's PhysicalDisk counters: Wine has none, and the run must say so (Windows has
    # them, and the overlay and verdict use them).
    if grep -q 'device counters unavailable: PDH' "$results"; then
        ok "results: says the device counters are unavailable (Wine's PDH has none)"
    elif grep -q '"available": *true' "$results"; then
        ok "results: device counters from PDH"
    else
        fail "results: neither device counters nor the note that PDH has none"
    fi
else
    fail "results: no results file written"
fi

# ---- 3. Uninstall, silently; nothing of the installation is left.
# The uninstaller copies itself to %TEMP% and returns at once while the copy works
# (`_?=` would keep it in place, but Wine quotes that argument, which contains a space,
# and NSIS then does not see it). So the persistent server goes, and `wineserver -w`
# waits until the last process of the prefix, the copy, has ended.
wineserver -k >/dev/null 2>&1 || true
DISPLAY= "$wine64" "$dest/Uninstall.exe" /S </dev/null >"$out/uninstall.log" 2>&1 \
    || fail "uninstall: the uninstaller ended with status $?"
timeout 300 wineserver -w || fail "uninstall: still running after 5 minutes"
if [ -e "$dest" ]; then
    fail "uninstall: left behind:"
    find "$dest" >&2
fi
registry 'HKLM\Software\Classes\.icf' | grep -q 'IOPrism.icf' && fail "uninstall: the .icf association is left"
key_exists 'HKLM\Software\Classes\IOPrism.icf' && fail "uninstall: the IOPrism.icf class is left"
[ -z "$(find "$drive_c" -path '*Start Menu*' -iname 'IOPrism*' 2>/dev/null)" ] \
    || fail "uninstall: a Start-menu entry is left"
key_exists 'HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall\IOPrism' \
    && fail "uninstall: the uninstall entry is left"
[ "$failures" = 0 ] && ok "uninstalled: nothing left"

[ "$failures" = 0 ] || { echo "$failures failure(s); pictures and logs in $out" >&2; exit 1; }
echo "== Windows GUI under Wine: all checks passed; pictures in $out"
