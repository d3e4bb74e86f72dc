#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Qt 6 and QCustomPlot for Windows (MinGW-w64), built from Debian's own source packages.
#
#   scripts/build-qt-mingw.sh            build when missing; print the install prefix
#   scripts/build-qt-mingw.sh --prefix   print the prefix this recipe builds to, no build
#
# Debian ships no Qt for MinGW, but it ships Qt's source: `apt-get source` gives qtbase
# 6.4.2 (the host Qt's own version, whose moc, rcc, uic and lrelease the cross build
# uses through QT_HOST_PATH=/usr) and QCustomPlot 2.1.0, with Debian's patches applied by
# dpkg-source (QCustomPlot's 02_fix_header_build.patch is the one Qt 6's moc needs).
# Nothing else is downloaded. The result goes into a cache outside the repository,
# keyed by the source versions and this recipe's options, and is reused when present:
#
#   ${IOPRISM_CACHE:-/var/cache/ioprism}/qt-<version>-mingw-<key>   Qt + QCustomPlot
#   ${IOPRISM_CACHE:-/var/cache/ioprism}/qt-mingw                   symlink to the above
#
# The windows-mingw preset looks in .../qt-mingw (IOPRISM_QT_MINGW_PREFIX). Modules:
# Core, Gui, Widgets, PrintSupport and Test, the `windows` platform plugin and the
# styles; network, SQL, D-Bus, OpenGL, Concurrent and XML are off. No QtSvg: qt6-svg's
# source is not on this project's Debian mirror, so the Windows build embeds the icons
# as PNG renderings of their SVGs (ui/CMakeLists.txt). Licence texts of what is built go
# into <prefix>/licenses for the installer. Needs: dpkg-dev, the MinGW-w64 compilers,
# qt6-base-dev (the host tools) and a deb-src line for the Debian archive in use, which
# the script adds (as root) when apt has none.
set -euo pipefail

cache=${IOPRISM_CACHE:-/var/cache/ioprism}
jobs=${IOPRISM_JOBS:-$(nproc)}
host_triplet=x86_64-w64-mingw32
# Debian keeps the host Qt's CMake packages in the multiarch directory.
host_cmake=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/cmake

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# The host's own versions: the cross build's moc and rcc must be the same Qt.
source_version() { # binary package
    dpkg-query -W -f='${source:Version}' "$1"
}
qt_version=$(source_version qt6-base-dev)
qcp_version=$(source_version libqcustomplot-dev)

# Everything that changes the result is in the key; change `recipe` when the steps do.
recipe=4
qt_features=(
    -DFEATURE_network=OFF -DFEATURE_sql=OFF -DFEATURE_dbus=OFF -DFEATURE_opengl=OFF
    -DINPUT_opengl=no -DFEATURE_concurrent=OFF -DFEATURE_xml=OFF
    # Debian's tarball has no src/3rdparty/wintab; dynamicgl stays on without OpenGL
    # and breaks qwindowswindow.cpp.
    -DFEATURE_tabletevent=OFF -DFEATURE_dynamicgl=OFF
    # Self-contained DLLs: Qt's bundled zlib, PCRE2, libpng, HarfBuzz and FreeType, not
    # MinGW sysroot libraries that would have to ship too.
    -DFEATURE_system_zlib=OFF -DFEATURE_system_pcre2=OFF -DFEATURE_system_png=OFF
    -DFEATURE_system_harfbuzz=OFF -DFEATURE_system_freetype=OFF -DFEATURE_system_jpeg=OFF
    -DFEATURE_vulkan=OFF
    # What the GUI does not use, left out to cut the build's CPU time (a cold CI run
    # builds this): 1,019 compile steps become about 840. HarfBuzz is Qt's shaper for
    # complex scripts (Qt shapes Latin and German text without it); FreeType stays, the
    # offscreen platform plugin (the GUI tests under Wine) draws text with it. direct2d
    # stays too: QtGui's DirectWrite font engine is built only with it, and PrintSupport
    # needs that engine. Its platform plugin (direct2d, which compiles the windows
    # plugin's 49 sources again, 56 steps) is built only with Direct2D 1.1, which
    # nothing here needs: off. PDF and PrintSupport stay (QCustomPlot's savePdf).
    -DFEATURE_harfbuzz=OFF -DFEATURE_jpeg=OFF -DFEATURE_gif=OFF -DFEATURE_direct2d1_1=OFF
    -DFEATURE_textmarkdownreader=OFF -DFEATURE_textmarkdownwriter=OFF
    -DFEATURE_textodfwriter=OFF -DFEATURE_graphicsview=OFF -DFEATURE_mdiarea=OFF
    -DFEATURE_wizard=OFF -DFEATURE_calendarwidget=OFF -DFEATURE_datetimeedit=OFF
    -DFEATURE_fontdialog=OFF -DFEATURE_colordialog=OFF -DFEATURE_lcdnumber=OFF
    -DFEATURE_dial=OFF -DFEATURE_keysequenceedit=OFF -DFEATURE_columnview=OFF
    -DFEATURE_undoview=OFF -DFEATURE_undostack=OFF -DFEATURE_splashscreen=OFF
    -DFEATURE_systemtrayicon=OFF -DFEATURE_fontcombobox=OFF -DFEATURE_toolbox=OFF
    -DFEATURE_commandlinkbutton=OFF -DFEATURE_errormessage=OFF
    -DFEATURE_printpreviewwidget=OFF -DFEATURE_printpreviewdialog=OFF
    -DFEATURE_sessionmanager=OFF -DFEATURE_islamiccivilcalendar=OFF
    -DFEATURE_jalalicalendar=OFF -DFEATURE_gestures=OFF
    # -O0, not Qt's -O2 (and -O3 for QtGui): -O1 took a third less compile time per file,
    # -O0 less again, and a cold CI machine builds all of it. The GUI's speed is Qt
    # painting a few plots; every measured figure comes from the engine, which is our
    # code at the windows-mingw preset's own -O2.
    -DQT_USE_DEFAULT_CMAKE_OPTIMIZATION_FLAGS=ON "-DCMAKE_C_FLAGS_RELEASE=-O0 -DNDEBUG"
    "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG")
compiler_version=$(${host_triplet}-g++-posix -dumpfullversion)
key=$(printf '%s\n' "$recipe" "$qt_version" "$qcp_version" "$compiler_version" \
    "${qt_features[@]}" | sha256sum | cut -c1-12)
prefix="$cache/qt-${qt_version%%+*}-mingw-$key"

if [ "${1:-}" = "--prefix" ]; then
    echo "$prefix"
    exit 0
fi
if [ -f "$prefix/.complete" ]; then
    ln -sfn "$prefix" "$cache/qt-mingw"
    echo "$prefix"
    exit 0
fi

src="$cache/src"
work="$cache/build-$key"
as_root mkdir -p "$cache"
as_root chown "$(id -u):$(id -g)" "$cache"
mkdir -p "$src"

if ! apt-cache showsrc qt6-base 2>/dev/null | grep -q '^Package:'; then
    echo "== adding deb-src for the Debian archive apt uses (/etc/apt/sources.list.d/ioprism-deb-src.sources)"
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
        sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
            as_root tee /etc/apt/sources.list.d/ioprism-deb-src.sources >/dev/null
    else
        grep -h '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' |
            as_root tee /etc/apt/sources.list.d/ioprism-deb-src.list >/dev/null
    fi
    as_root apt-get update -qq
fi

fetch_source() { # source package, version, directory
    if [ ! -f "$src/$3/.extracted" ]; then
        echo "== apt-get source $1=$2"
        rm -rf "${src:?}/$3"
        (cd "$src" && apt-get source -qq --download-only "$1=$2" &&
            dpkg-source --no-check -x "$1_${2#*:}.dsc" "$3" >/dev/null)
        touch "$src/$3/.extracted"
    fi
}
fetch_source qt6-base "$qt_version" qtbase
fetch_source qcustomplot "$qcp_version" qcustomplot

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
export CCACHE_BASEDIR="$cache" CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime

cross=(-DCMAKE_SYSTEM_NAME=Windows -DCMAKE_SYSTEM_PROCESSOR=x86_64
    -DCMAKE_C_COMPILER=${host_triplet}-gcc-posix -DCMAKE_CXX_COMPILER=${host_triplet}-g++-posix
    -DCMAKE_RC_COMPILER=${host_triplet}-windres -DCMAKE_FIND_ROOT_PATH=/usr/${host_triplet}
    -DQT_HOST_PATH=/usr -DQT_HOST_PATH_CMAKE_DIR="$host_cmake")

# qtbase is the long part (minutes on 2 cores): an interrupted build goes on
# from where it stopped, and a qtbase already installed is not built again.
if [ ! -f "$prefix/.qtbase" ]; then
echo "== qtbase $qt_version for Windows into $prefix (${jobs} jobs)"
rm -rf "$prefix"
cmake -G Ninja -S "$src/qtbase" -B "$work/qtbase" -Wno-dev \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" "${cross[@]}" \
    -DBUILD_SHARED_LIBS=ON -DQT_BUILD_EXAMPLES=OFF -DQT_BUILD_TESTS=OFF \
    "${launcher[@]}" "${qt_features[@]}" >"$work.configure.log" 2>&1 ||
    { tail -40 "$work.configure.log"; exit 1; }
cmake --build "$work/qtbase" -j "$jobs"
cmake --install "$work/qtbase" >/dev/null
touch "$prefix/.qtbase"
fi

# One 35,000-line file, compiled on one core while the other waits: at -O1, not CMake's
# Release -O3 (minutes on a cold machine).
echo "== QCustomPlot $qcp_version for Windows"
cmake -G Ninja -S "$src/qcustomplot" -B "$work/qcustomplot" -Wno-dev \
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" \
    -DCMAKE_INSTALL_PREFIX="$prefix" -DUSE_QT_VERSION=6 \
    "${cross[@]}" -DCMAKE_FIND_ROOT_PATH="/usr/${host_triplet};$prefix" -DQt6_DIR="$prefix/lib/cmake/Qt6" \
    "${launcher[@]}" >"$work.qcp.log" 2>&1 || { tail -40 "$work.qcp.log"; exit 1; }
cmake --build "$work/qcustomplot" -j "$jobs"
cmake --install "$work/qcustomplot" >/dev/null

# The runtime DLLs of the -posix compilers that Qt's DLLs link against.
for dll in libstdc++-6.dll libgcc_s_seh-1.dll libwinpthread-1.dll; do
    cp "$(${host_triplet}-g++-posix -print-file-name="$dll")" "$prefix/bin/"
done

mkdir -p "$prefix/licenses/qtbase" "$prefix/licenses/qcustomplot" "$prefix/licenses/mingw-w64"
cp "$src"/qtbase/LICENSES/* "$src/qtbase/debian/copyright" "$prefix/licenses/qtbase/"
cp "$src/qcustomplot/GPL.txt" "$src/qcustomplot/debian/copyright" "$prefix/licenses/qcustomplot/"
cp /usr/share/doc/gcc-mingw-w64-base/copyright "$prefix/licenses/mingw-w64/gcc-copyright"
cp /usr/share/doc/mingw-w64-common/copyright "$prefix/licenses/mingw-w64/mingw-w64-copyright"
printf '%s\n' "qtbase $qt_version" "qcustomplot $qcp_version" "gcc $compiler_version" \
    "recipe $recipe" >"$prefix/.complete"
rm -rf "$work" "$work".*.log
ln -sfn "$prefix" "$cache/qt-mingw"
echo "$prefix"
