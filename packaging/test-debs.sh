#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the packages packaging/build-debs.sh made, checks what a user of this machine
# gets from them, and removes them again (scripts/quickstart.sh test runs it, as root or
# with sudo):
#   the programs (ioprism, ioprism-cli, ioprism-agent) run from /usr/bin and find their
#   libraries; `man ioprism-cli`, `man ioprism-agent` and `man ioprism` find their pages;
#   the menu entry, its icon and the AppStream metadata are where desktops look; an .icf
#   file is an Iometer configuration whose default application is IOPrism; the installed
#   GUI starts under Xvfb with an .icf file given the way the desktop entry gives it.
# If either package is installed already, it is left alone and the check skips (fails
# with IOPRISM_NO_SKIP=1).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

id=io.github.ioprism.IOPrism
version=$(sed -n 's/^project(IOPrism VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
cli_deb=build/deb/package/ioprism-cli_${version}-1_$(dpkg --print-architecture).deb
gui_deb=build/deb/package/ioprism_${version}-1_$(dpkg --print-architecture).deb
icf=$PWD/tests/fixtures/icf/reference.icf

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}
fail() {
    echo "FAILED: $*" >&2
    exit 1
}
installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"
}

for p in ioprism ioprism-cli; do
    if installed "$p"; then
        echo "skipped: $p is installed on this machine already; it is not replaced"
        [ "${IOPRISM_NO_SKIP:-}" = 1 ] && exit 1
        exit 0
    fi
done
[ -f "$cli_deb" ] && [ -f "$gui_deb" ] || fail "no packages: run packaging/build-debs.sh first"

tmp=$(mktemp -d)
cleanup() {
    as_root dpkg --purge ioprism ioprism-cli >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT

echo "== dpkg -i $(basename "$cli_deb") $(basename "$gui_deb")"
if ! as_root env DEBIAN_FRONTEND=noninteractive dpkg -i "$cli_deb" "$gui_deb" >"$tmp/dpkg.log" 2>&1; then
    cat "$tmp/dpkg.log"
    echo "== apt-get -f install (dependencies dpkg could not satisfy)"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get -f install -y -qq --no-install-recommends
fi
installed ioprism-cli && installed ioprism || fail "the packages did not install"

# A clean user: no settings, no mimeapps.list of the person running the tests.
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config XDG_DATA_HOME=$tmp/home/.local/share
mkdir -p "$HOME"
unset XDG_DATA_DIRS XDG_CONFIG_DIRS XDG_CURRENT_DESKTOP

got=$(/usr/bin/ioprism-cli --version)
[ "$got" = "ioprism-cli $version" ] || fail "ioprism-cli --version: $got"
echo "ioprism-cli --version: $got"
# The agent, from the CLI's package; and it needs its libraries (libssl3 through
# dpkg-shlibdeps): --version runs the dynamic linker on all of them.
got=$(/usr/bin/ioprism-agent --version)
[ "$got" = "ioprism-agent $version" ] || fail "ioprism-agent --version: $got"
echo "ioprism-agent --version: $got"
dpkg-query -W -f='${Depends}' ioprism-cli | grep -q 'libssl3' \
    || fail "ioprism-cli does not depend on libssl3 (the agent's and the CLI's TLS)"
got=$(/usr/bin/ioprism --version 2>/dev/null)
[ "$got" = "IOPrism $version" ] || fail "ioprism --version (no display): $got"
echo "ioprism --version (no display): $got"

for page in ioprism-cli ioprism-agent ioprism; do
    path=$(man -w "$page") || fail "man -w $page"
    echo "man -w $page: $path"
    MANWIDTH=80 man "$page" 2>/dev/null | grep -q "^NAME" || fail "man $page shows nothing"
done
MANWIDTH=80 man ioprism-cli 2>/dev/null | grep -q -- "--allow-device-writes" \
    || fail "man ioprism-cli lacks the options of run"
MANWIDTH=80 man ioprism-agent 2>/dev/null | grep -q -- "--token-file" \
    || fail "man ioprism-agent lacks its options"

for f in /usr/share/applications/$id.desktop /usr/share/metainfo/$id.metainfo.xml \
    /usr/share/mime/packages/$id.xml /usr/share/icons/hicolor/scalable/apps/$id.svg \
    /usr/share/icons/hicolor/48x48/apps/$id.png /usr/share/icons/hicolor/256x256/apps/$id.png \
    /usr/share/doc/ioprism-cli/copyright /usr/share/doc/ioprism/copyright \
    /usr/share/ioprism/presets/quick.json /usr/share/doc/ioprism-cli/user-guide.md; do
    [ -f "$f" ] || fail "$f is not installed"
done
echo "installed: desktop entry, AppStream metadata, MIME types, icons, copyright, presets, docs"
desktop-file-validate /usr/share/applications/$id.desktop || fail "desktop-file-validate"
appstreamcli validate --no-net /usr/share/metainfo/$id.metainfo.xml >/dev/null \
    || fail "appstreamcli validate"

# dpkg's triggers ran update-mime-database and update-desktop-database.
got=$(gio info -a standard::content-type "$icf" | sed -n 's/.*content-type: //p')
[ "$got" = application/x-iometer-config ] || fail "the type of reference.icf: $got"
echo "type of an .icf file: $got"
got=$(xdg-mime query default application/x-iometer-config)
[ "$got" = "$id.desktop" ] || fail "xdg-mime query default application/x-iometer-config: $got"
echo "default application for application/x-iometer-config: $got"
got=$(xdg-mime query default application/x-ioprism-profile)
[ "$got" = "$id.desktop" ] || fail "xdg-mime query default application/x-ioprism-profile: $got"
echo "default application for application/x-ioprism-profile: $got"

echo "== the installed GUI under Xvfb, opening an .icf as the desktop entry does (ioprism %f)"
cp "$icf" "$tmp/nightly.icf"
xvfb-run -a -s "-screen 0 1600x1000x24" bash -c '
    /usr/bin/ioprism "$1/nightly.icf" 2>"$1/gui.err" &
    pid=$!
    for _ in $(seq 50); do # up to 10 s for the window
        xwininfo -root -tree | grep -q "nightly.icf" && break
        kill -0 $pid 2>/dev/null || break
        sleep 0.2
    done
    sleep 1
    xwininfo -root -tree >"$1/windows.txt"
    import -window root "$1/gui.png"
    kill -0 $pid 2>/dev/null || { echo "the GUI exited:"; cat "$1/gui.err"; exit 1; }
    kill $pid
    wait $pid 2>/dev/null || true
' _ "$tmp" || fail "the installed GUI did not start"
grep "nightly.icf" "$tmp/windows.txt" | head -1 | sed 's/^ *//' \
    || fail "no window titled after the opened .icf"
! grep -q "cannot open" "$tmp/gui.err" || fail "$(cat "$tmp/gui.err")"
colours=$(identify -format '%k' "$tmp/gui.png")
[ "$colours" -gt 50 ] || fail "the screen holds $colours colours: no window drawn"
cp "$tmp/gui.png" build/deb/package/installed-gui.png
echo "screenshot: build/deb/package/installed-gui.png ($colours colours)"

echo "== dpkg --purge ioprism ioprism-cli"
as_root dpkg --purge ioprism ioprism-cli >/dev/null
! installed ioprism && ! installed ioprism-cli && [ ! -e /usr/bin/ioprism-cli ] \
    && [ ! -e /usr/bin/ioprism-agent ] \
    || fail "the packages were not removed"
[ ! -e /usr/share/applications/$id.desktop ] || fail "the desktop entry stayed"
echo "removed"
