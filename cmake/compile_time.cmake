# SPDX-License-Identifier: GPL-3.0-or-later
# What keeps a cold build (a fresh CI machine builds everything) within its time.
#
# Precompiled headers for the targets whose files spend most of their compile time
# parsing the same third-party headers: Qt and QCustomPlot in the GUI and its tests,
# GoogleTest and nlohmann/json in the test suites. Measured in the asan build
# (2026-11-28): tests/ui/series_test.cpp 41.7 s without, 23.6 s with (the header itself
# compiles once per target in about 40 s); tests/core/report_test.cpp 26.3 s → 21.5 s.
# A cold CI machine builds all of it, so this is most of what decides whether CI fits.
#
# Only third-party headers go in (and ui/plots/qcp_library.h, QCustomPlot's own with the
# one definition it needs first): our own change often, and a precompiled header that
# changes rebuilds its whole target. clang-tidy reads the same compile commands without
# the precompiled header (scripts/lint.sh), so a file that forgets an #include it needs
# is still reported there. ccache caches these compiles when its sloppiness allows
# precompiled headers (scripts/quickstart.sh sets CCACHE_SLOPPINESS).
# The tsan preset (ThreadSanitizer): it builds only core_tests' threaded tests
# (scripts/quickstart.sh), and core and tests/ compile only what those link.
set(IOPRISM_TSAN_BUILD OFF)
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=thread")
    set(IOPRISM_TSAN_BUILD ON)
endif()

option(IOPRISM_PRECOMPILED_HEADERS "Precompile the third-party headers of the GUI and the tests" ON)

set(IOPRISM_PCH_TEST_HEADERS <gtest/gtest.h> <gmock/gmock.h> <nlohmann/json.hpp>
    <algorithm> <chrono> <filesystem> <fstream> <functional> <map> <memory> <optional>
    <sstream> <string> <thread> <vector>)
# QCustomPlot through qcp_library.h, as every file of ours includes it: a precompiled
# <qcustomplot.h> comes first in each file, before the header could define
# QCUSTOMPLOT_USE_LIBRARY, and a Windows build then connects no QCustomPlot signal (no
# hover, no linked axes: the Wine suite's plot tests failed so in stop 41's CI).
set(IOPRISM_PCH_QT_HEADERS <QtWidgets> "${PROJECT_SOURCE_DIR}/ui/plots/qcp_library.h")
# The CLI's commands: CLI11 is header-only and large.
set(IOPRISM_PCH_CLI_HEADERS <CLI/CLI.hpp> <nlohmann/json.hpp> <fmt/format.h> <filesystem> <iostream>
    <optional> <string> <vector>)

# ioprism_precompile(target SET...), SET one of TEST, QT, CLI: the header sets the target's files share.
function(ioprism_precompile target)
    if(NOT IOPRISM_PRECOMPILED_HEADERS OR IOPRISM_BUILD_FUZZERS)
        return()
    endif()
    set(headers)
    foreach(set IN LISTS ARGN)
        list(APPEND headers ${IOPRISM_PCH_${set}_HEADERS})
    endforeach()
    target_precompile_headers(${target} PRIVATE ${headers})
endfunction()

# ioprism_asan_only(target INTERFACE|PRIVATE): in the asan preset, the target's files with
# ASan but without UBSan. UBSan is kept where the arithmetic is: core (histograms,
# statistics, verdicts, the readers of outside data, the agents' message reader) and
# platform (the engines' offsets and alignment), which every suite drives. It is left out
# of the tests' own files (results_reader_test.cpp 38 s with ASan, 56 s with both), of
# net/, Boost.Beast's and Asio's templates over a thin layer of ours (tls_openssl.cpp
# 200 s with both, 103 s with ASan only), and of the GUI's, the CLI's and the agent's
# own files, which are Qt, CLI11 and text. The UBSan runtime is linked all the same
# (CMAKE_EXE_LINKER_FLAGS).
function(ioprism_asan_only target scope)
    if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=address,undefined" AND NOT IOPRISM_BUILD_FUZZERS)
        target_compile_options(${target} ${scope} -fno-sanitize=undefined)
    endif()
endfunction()

# Unity builds (CMake's UNITY_BUILD): a target's files compiled a batch at a time, as one
# file each batch. Most of core's compile time is nlohmann/json's and fmt's templates,
# instantiated again in every file that uses them; a batch instantiates them once
# (run_library.cpp, compare.cpp and profile_json_write.cpp: 54.2 s as three files, 33.3 s
# as one, asan flags). A cold CI machine compiles core five times (asan, tsan, fuzz,
# MinGW, the .debs), so this is where its time goes. Off by default and in the dev
# preset: there a change recompiles its whole batch. Files of a target must therefore not
# define the same name in their anonymous namespaces, nor leave a using-directive at
# namespace scope for the next file of the batch; those that do are left out of batches
# (SKIP_UNITY_BUILD_INCLUSION) with the reason beside them. (The CLI's files all open
# core's names in ioprism::cli alike: one reaching the next changes nothing there.)
option(IOPRISM_UNITY_BUILD "Compile core, the GUI, its tests and the CLI's commands in batches (unity build)" OFF)
# core's files left out of batches, wherever they are compiled (core, the fuzzers): their
# using-directives at namespace scope would reach the next file of a batch:
# `using namespace icf_detail;` (units.cpp has its own trim and isSpace), and
# results_reader.cpp's `using namespace results_read;` in its anonymous namespace.
set(IOPRISM_UNITY_SKIP ${PROJECT_SOURCE_DIR}/core/profile/icf_volumes.cpp
    ${PROJECT_SOURCE_DIR}/core/profile/icf_write.cpp ${PROJECT_SOURCE_DIR}/core/report/results_reader.cpp)
function(ioprism_unity target)
    if(IOPRISM_UNITY_BUILD)
        set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
        set_source_files_properties(${IOPRISM_UNITY_SKIP} TARGET_DIRECTORY ${target}
            PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
endfunction()
