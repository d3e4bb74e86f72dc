#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# IOPrism quick start: installs what is missing (Debian 12 packages only), builds, then
# runs the main job or the whole test suite.
#
#   scripts/quickstart.sh run [ARGS...]  GUI when a display is available; otherwise the
#                                        CLI's default quick benchmark on a test file in
#                                        the current directory (ARGS go to the program)
#   scripts/quickstart.sh test           every test: one build with ASan + UBSan (GUI,
#                                        CLI, agent, MPI and every suite), clang-tidy on
#                                        the sources changed in the last 6 hours
#                                        (scripts/lint.sh), the whole suite under the
#                                        sanitizers (Xvfb for the GUI), the core's run and
#                                        stats tests under ThreadSanitizer, the readers of
#                                        outside data fuzzed 36 s each (clang libFuzzer,
#                                        scripts/fuzz.sh), Qt for Windows from Debian's
#                                        source packages (once, into /var/cache/ioprism:
#                                        scripts/build-qt-mingw.sh), the Windows cross
#                                        build (MinGW-w64: GUI and CLI) with its tests
#                                        under Wine, the Windows installer (NSIS)
#                                        installed, its GUI run in a window on Xvfb and
#                                        uninstalled under Wine, the Windows agent under
#                                        Wine driven by the Linux CLI, and the Debian
#                                        packages: built, lintian, installed, checked
#                                        (menu entry, .icf association, man pages, the GUI
#                                        under Xvfb) and removed again. The Windows side
#                                        builds beside the Linux steps at nice 19
#                                        (build/windows-side.log), the Debian packages
#                                        below both (SCHED_IDLE, build/debs.log).
#
# Running it twice is fast: packages are installed only when missing and the builds are
# incremental. Environment: CI=true adds -Werror; IOPRISM_NO_SKIP=1 turns tests that skip
# for lack of root or a device into failures (CI sets it).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
# ccache (the builds use it when installed): paths relative to this clone, so that a
# clone in another folder (CI's) reuses what an earlier build compiled; room for the six
# build trees (asan, tsan, fuzz, MinGW, the .debs; dev and release for working).
export CCACHE_BASEDIR="$here" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
# The GUI's and the tests' precompiled headers (cmake/compile_time.cmake): ccache
# caches the files that use one only with this sloppiness (its manual, "Precompiled
# headers").
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
mode=${1:-}
[ $# -gt 0 ] && shift

# qt6-tools-dev and qt6-l10n-tools: Qt's LinguistTools (lupdate, lrelease) for the GUI's
# translations.
build_packages=(cmake ninja-build g++ pkg-config git ccache
    qt6-base-dev qt6-svg-dev qt6-tools-dev qt6-l10n-tools libqcustomplot-dev libqcustomplot2.1-qt6
    libboost1.81-dev liburing-dev libsystemd-dev libssl-dev libgtest-dev libgmock-dev
    nlohmann-json3-dev libcli11-dev libfmt-dev)
# udisks2, polkitd, dbus-daemon and udev: the raw-device test as an unprivileged user
# starts them itself (tests/e2e/broker_test.cpp); libglib2.0-bin: its gdbus calls. Open
# MPI: ioprism-mpi and its tests under mpirun (docs/cluster.md).
test_packages=(xvfb xauth imagemagick util-linux e2fsprogs fdisk btrfs-progs fio clang
    udisks2 polkitd dbus-daemon udev libglib2.0-bin libopenmpi-dev openmpi-bin)
# The Windows GUI's Qt is built from Debian's source packages (scripts/build-qt-mingw.sh:
# dpkg-dev unpacks them); its icons are rendered from the SVGs (librsvg2-bin, and
# ImageMagick for the .ico); xdotool finds the window in the Wine GUI test.
windows_packages=(g++-mingw-w64-x86-64-posix gcc-mingw-w64-x86-64-posix mingw-w64-x86-64-dev
    mingw-w64-tools wine wine64 nsis dpkg-dev librsvg2-bin imagemagick xdotool)
# The Debian packages: man pages from --help, PNG icons from the SVG, the checks of the
# desktop entry, the AppStream metadata and the MIME types, lintian, and what
# packaging/test-debs.sh looks at after installing them.
deb_packages=(help2man librsvg2-bin dpkg-dev lintian desktop-file-utils appstream
    shared-mime-info libglib2.0-bin xdg-utils x11-utils man-db)

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_missing() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "== installing: ${missing[*]}"
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

# The core tests that start threads: the run (workers, sampler, stall watch, refusals),
# its latch, and the interval and tail bookkeeping the sampler thread feeds.
tsan_tests='^(Run|RunStall|RunRefusal|RunDevices|Sampler|Latch|AtomicLatencyHistogram|ResolvedPlan|IntervalHistory|DeviceTail)\.'

werror=OFF
[ "${CI:-}" = "true" ] && werror=ON

# A stage line with the time since the start (m:ss), so a slow CI run shows where.
stage() {
    printf '== [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"
}

build() { # preset
    cmake --preset "$1" -DIOPRISM_WERROR="$werror" >/dev/null
    cmake --build --preset "$1"
}

case "$mode" in
run)
    install_missing "${build_packages[@]}"
    # Only the program it runs, not the test suites: from a fresh clone that is the
    # difference between minutes and a coffee.
    cmake --preset release -DIOPRISM_WERROR="$werror" >/dev/null
    bin="$here/build/release/bin"
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
        cmake --build --preset release --target ioprism
        exec "$bin/ioprism" "$@"
    fi
    cmake --build --preset release --target ioprism-cli
    echo "== no display: running the quick benchmark on a test file in $(pwd)"
    exec "$bin/ioprism-cli" run "$@"
    ;;
test)
    install_missing "${build_packages[@]}" "${test_packages[@]}"
    mkdir -p build
    # The Windows side runs beside the Linux steps at nice 19, on what they leave idle (a
    # test waiting on I/O, a linker): its packages, Qt for Windows (about 27 minutes of
    # the two cores the first time, then found in its cache) and the MinGW build. The
    # Windows steps below wait for it.
    windows_side() {
        install_missing "${windows_packages[@]}" "${deb_packages[@]}"
        stage "Windows packages ready"
        # The Debian packages' release build (its own tree, build/deb, nothing shared) on
        # what both sides leave idle (SCHED_IDLE: below even nice 19), from now on rather
        # than after the Windows build: a cold machine's cores are busy to the end either
        # way, and the steps after the Windows build (Wine, the installer) use one core.
        # Its status goes to build/debs.status, which the last steps wait for. A session
        # of its own (setsid), so that an early exit stops its whole build (the trap).
        setsid bash -c 'chrt --idle 0 nice -n 19 packaging/build-debs.sh >build/debs.log 2>&1
            status=$?
            echo "== the Debian packages: build ended after $((SECONDS / 60)) min $((SECONDS % 60)) s, status $status" >>build/debs.log
            echo $status >build/debs.status' &
        echo $! >build/debs.pgid
        nice -n 19 scripts/build-qt-mingw.sh
        stage "Qt for Windows ready"
        nice -n 19 cmake --preset windows-mingw -DIOPRISM_WERROR="$werror" >/dev/null
        nice -n 19 cmake --build --preset windows-mingw
        stage "Windows build done"
    }
    rm -f build/debs.status build/debs.pgid
    (windows_side) >build/windows-side.log 2>&1 &
    windows_job=$!
    stop_sides() {
        kill $windows_job 2>/dev/null || true
        if [ -f build/debs.pgid ] && [ ! -f build/debs.status ]; then
            kill -- "-$(cat build/debs.pgid)" 2>/dev/null || true
        fi
    }
    trap stop_sides EXIT
    # One Linux build for the whole suite: ASan + UBSan, the GUI included, so that every
    # test, the GUI's too, runs under the sanitizers once, and no second build of the same
    # code is made only to run the tests again.
    stage "ASan + UBSan build (everything)"
    build asan
    stage "licence lines, clang-tidy"
    scripts/check-spdx.sh
    scripts/lint.sh --build build/asan
    stage "every test under ASan + UBSan"
    # A real X server for the GUI tests that open a window; the rest are offscreen. Three
    # at a time on two cores: the longest tests mostly wait (an mpirun's Ctrl-C, agents'
    # runs, a device's tail), and a third test uses that time.
    if ! xvfb-run -a -s "-screen 0 1600x1000x24" ctest --preset asan --timeout 900 -j3; then
        scripts/ctest-failures.sh build/asan
        exit 1
    fi
    stage "the run's threads under ThreadSanitizer (core tests of run, sampler, latch)"
    cmake --preset tsan -DIOPRISM_WERROR="$werror" >/dev/null
    cmake --build --preset tsan --target core_tests
    TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
        ctest --preset tsan --timeout 900 -R "$tsan_tests"
    stage "fuzzers' build"
    build fuzz
    stage "fuzzing the readers of outside data (36 s per target, two at a time)"
    scripts/fuzz.sh 36
    stage "waiting for the Windows side (packages, Qt for Windows, MinGW build)"
    if ! wait $windows_job; then
        tail -60 build/windows-side.log
        echo "error: the Windows side failed (build/windows-side.log)" >&2
        exit 1
    fi
    grep '^== \[' build/windows-side.log
    stage "Windows build: tests under Wine (the GUI's offscreen)"
    # Each executable's cases in 4 shards (tests/CMakeLists.txt), two at a time.
    scripts/wine-ctest.sh --timeout 900 -j2
    stage "Windows installer (NSIS): GUI and CLI; installed, started and removed under Wine"
    cpack --config build/windows-mingw/CPackConfig.cmake -B build/windows-mingw/package >/dev/null
    scripts/wine-gui-test.sh build/windows-mingw
    stage "the Windows agent under Wine, driven by the Linux CLI over loopback"
    scripts/wine-agent-test.sh build/windows-mingw build/asan/bin/ioprism-cli
    stage "Debian packages: build (release, hardened), lintian"
    # Started by the Windows side; its status file says when it is done.
    while [ ! -f build/debs.status ]; do sleep 2; done
    if [ "$(cat build/debs.status)" != 0 ]; then
        tail -60 build/debs.log
        echo "error: the Debian packages' build failed (build/debs.log)" >&2
        exit 1
    fi
    grep -v '^\[' build/debs.log || true
    stage "Debian packages: install, check what a user gets, remove"
    packaging/test-debs.sh # dpkg with sudo when not root
    stage "all passed"
    ;;
*)
    sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
