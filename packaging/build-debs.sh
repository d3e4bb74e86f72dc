#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds IOPrism's two Debian packages and checks them with lintian:
#   build/deb/package/ioprism-cli_<version>-1_<arch>.deb  (the CLI, no Qt)
#   build/deb/package/ioprism_<version>-1_<arch>.deb      (the GUI, desktop integration)
#
#   packaging/build-debs.sh          (docs/install.md; scripts/quickstart.sh test runs it)
#
# A release build in build/deb without the tests, compiled with the flags Debian's own
# packages get from dpkg-buildflags (stack protector, _FORTIFY_SOURCE, full RELRO, PIE)
# so that lintian finds no unhardened binary. Incremental: a second run takes seconds.
# Needs: the build packages of scripts/quickstart.sh, plus help2man, librsvg2-bin,
# dpkg-dev, lintian.
#
# Warnings are not errors here, even in CI: at -O3 GCC 12 reports -Wrestrict inside
# libstdc++'s std::string operator+ (GCC bug 105329, a false positive), and the code's
# warnings are already errors in the dev, sanitizer and MinGW builds of the test command.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build_dir=build/deb

# Debian's flags, without -g: the packages ship stripped binaries and no debug package,
# and the debug information would double the build time. CMake takes CXXFLAGS and
# LDFLAGS from the environment; the preprocessor's flags go in with CXXFLAGS.
eval "$(DEB_BUILD_MAINT_OPTIONS=hardening=+all DEB_CXXFLAGS_MAINT_STRIP=-g dpkg-buildflags --export=sh)"
export CXXFLAGS="$CPPFLAGS $CXXFLAGS" LDFLAGS

launcher=()
if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# The flags are read when the cache is made: a build directory made with other flags
# would keep them, so it is made again.
if [ -f "$build_dir/CMakeCache.txt" ] \
    && ! grep -qxF "CMAKE_CXX_FLAGS:STRING=$CXXFLAGS" "$build_dir/CMakeCache.txt"; then
    rm -rf "$build_dir"
fi
# No ioprism-mpi: the packages do not ship it (it would make them depend on Open MPI).
# Debian's optimisation (dpkg-buildflags' -O2) rather than CMake's Release -O3: what Debian
# builds its own packages with, and less compile time on a cold CI machine.
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-DNDEBUG \
    -DIOPRISM_BUILD_TESTS=OFF \
    -DIOPRISM_BUILD_MPI=OFF -DIOPRISM_UNITY_BUILD=ON -DIOPRISM_WERROR=OFF "${launcher[@]}" >/dev/null
cmake --build "$build_dir" -j2

rm -rf "$build_dir/package"
cpack --config "$build_dir/CPackConfig.cmake" -B "$build_dir/package" >/dev/null
debs=("$build_dir"/package/*.deb)
ls -l "${debs[@]}"

echo "== lintian"
# Info tags are shown too; an error or a warning fails. The overrides, each with its
# reason, are in packaging/lintian/ (--show-overrides would count them as failures).
lintian --display-info --fail-on error,warning "${debs[@]}"
echo "lintian: no errors or warnings"
