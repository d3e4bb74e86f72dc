# SPDX-License-Identifier: GPL-3.0-or-later
# Cross build for 64-bit Windows with MinGW-w64 (Debian's g++-mingw-w64-x86-64-posix),
# tests run under Wine. Used by the `windows-mingw` preset; see docs/windows.md.
#
#   cmake --preset windows-mingw && cmake --build --preset windows-mingw
#   scripts/wine-ctest.sh          (ctest --preset windows-mingw with one Wine server)
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

# The -posix variants: the win32-thread variant has no std::mutex / std::thread.
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)

# Libraries and headers only from the MinGW sysroot; never /usr/include (its glibc
# headers would shadow MinGW's). Header-only libraries from Debian's /usr/include come
# in through a directory of symlinks instead (cmake/cross_header_libraries.cmake).
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# GCC 12 warns -Wrestrict about libstdc++'s own std::string concatenation at -O2 and above
# (a false positive, GCC bug 105651, fixed in GCC 13); with -Werror it would fail the
# Release build of any file that writes "text" + std::string.
set(CMAKE_CXX_FLAGS_INIT "-Wno-restrict")

# One self-contained .exe: no libstdc++/libgcc/winpthread DLLs to ship or to find
# under Wine.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -static-libgcc -static-libstdc++")

# Windows 10 API level: GetQueuedCompletionStatusEx, SetFileCompletionNotificationModes,
# FileStorageInfo and the processor-group calls; Asio wants it defined too.
add_compile_definitions(_WIN32_WINNT=0x0A00 WINVER=0x0A00)

# Test executables run under Wine: ctest, gtest_discover_tests and add_test(COMMAND
# <target>) prefix this. WINEDEBUG=-all keeps Wine's fixme lines out of test output
# (and out of --gtest_list_tests); no display, no Mono/Gecko installer prompts.
# scripts/wine-ctest.sh starts one persistent wineserver for this prefix first.
if(NOT DEFINED IOPRISM_WINEPREFIX)
    set(IOPRISM_WINEPREFIX "${CMAKE_BINARY_DIR}/wineprefix")
endif()
set(IOPRISM_WINEPREFIX "${IOPRISM_WINEPREFIX}" CACHE PATH "Wine prefix for running the tests")
find_program(IOPRISM_WINE64 NAMES wine64 PATHS /usr/lib/wine NO_DEFAULT_PATH)
if(NOT IOPRISM_WINE64)
    find_program(IOPRISM_WINE64 NAMES wine64 wine)
endif()
# scripts/wine-run.sh runs the program under ${IOPRISM_WINE64} and starts it again when
# Wine failed to start it at all (see there why).
if(IOPRISM_WINE64)
    set(CMAKE_CROSSCOMPILING_EMULATOR
        env WINEPREFIX=${IOPRISM_WINEPREFIX} WINEDEBUG=-all WINEARCH=win64
        WINEDLLOVERRIDES=mscoree,mshtml= DISPLAY= IOPRISM_WINE64=${IOPRISM_WINE64}
        ${CMAKE_CURRENT_LIST_DIR}/../../scripts/wine-run.sh)
endif()
