# SPDX-License-Identifier: GPL-3.0-or-later
# Every dependency comes from Debian's packages (see README "Quick start"); nothing is
# downloaded at build time.
if(CMAKE_CROSSCOMPILING AND WIN32)
    # MinGW-w64 cross build (windows-mingw preset): same targets, from a symlinked
    # header directory and GoogleTest's sources.
    include(${CMAKE_CURRENT_LIST_DIR}/cross_header_libraries.cmake)
    return()
endif()

find_package(nlohmann_json 3.11 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(fmt REQUIRED)
# fmt as Debian's compiled library (libfmt.so), not header-only: with FMT_HEADER_ONLY every
# file that formats compiles fmt's implementation again (core/report/results_json.cpp:
# 32 s with it, 20 s without, in the asan build). The MinGW build, which has no libfmt
# for Windows, stays header-only (cross_header_libraries.cmake).
set(IOPRISM_FMT fmt::fmt)
find_package(Boost 1.81 REQUIRED CONFIG)
find_package(Threads REQUIRED)
# TLS for the agents' network transport (net/): OpenSSL 3 (Debian: libssl-dev). A build
# without it (the MinGW cross build returns above) has plaintext on loopback only.
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    find_package(OpenSSL 3 REQUIRED)
else()
    find_package(OpenSSL 3)
endif()

# MPI for ioprism-mpi (docs/cluster.md): Open MPI (Debian: libopenmpi-dev). Optional: a
# build without it is the same minus ioprism-mpi and its tests.
set(IOPRISM_MPI_FOUND OFF)
if(IOPRISM_BUILD_MPI)
    # MPI's C interface from C++ (the project has no C): not the deprecated C++ bindings.
    set(MPI_CXX_SKIP_MPICXX ON)
    find_package(MPI COMPONENTS CXX)
    if(MPI_CXX_FOUND)
        set(IOPRISM_MPI_FOUND ON)
        find_program(IOPRISM_MPIEXEC NAMES mpirun mpiexec)
    else()
        message(STATUS "MPI not found: no ioprism-mpi (Debian: libopenmpi-dev openmpi-bin)")
    endif()
endif()

if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    find_package(PkgConfig REQUIRED)
    pkg_check_modules(URING REQUIRED IMPORTED_TARGET liburing)
    # sd-bus: raw devices opened by udisks2 over the system D-Bus (libsystemd-dev).
    pkg_check_modules(SYSTEMD REQUIRED IMPORTED_TARGET libsystemd)
endif()

if(IOPRISM_BUILD_GUI)
    # PrintSupport before QCustomPlotQt6: its target links Qt6::PrintSupport without
    # looking it up.
    # LinguistTools: lupdate and lrelease for the GUI's translations (Debian:
    # qt6-tools-dev, qt6-l10n-tools).
    find_package(Qt6 6.4 REQUIRED COMPONENTS Core Gui Widgets PrintSupport Test Svg LinguistTools)
    find_package(QCustomPlotQt6 REQUIRED CONFIG)
endif()

if(IOPRISM_BUILD_TESTS)
    find_package(GTest REQUIRED)
    include(GoogleTest)
endif()
