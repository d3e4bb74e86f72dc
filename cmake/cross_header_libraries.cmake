# SPDX-License-Identifier: GPL-3.0-or-later
# Dependencies of the Windows cross build (MinGW-w64), from Debian's packages.
#
# The header-only libraries (Boost, nlohmann/json, CLI11, fmt) live in /usr/include,
# which must never be on the MinGW include path (its glibc and Linux headers would
# shadow the MinGW sysroot). A directory in the build tree holds symlinks to exactly
# those library folders; imported targets with the usual names point at it, so the
# rest of the build links them as it does natively. GoogleTest is built from its
# sources in /usr/src/googletest with the cross compiler.
set(IOPRISM_HOST_HEADERS "${CMAKE_BINARY_DIR}/host-headers")
file(MAKE_DIRECTORY "${IOPRISM_HOST_HEADERS}")
foreach(dir boost nlohmann CLI fmt)
    if(NOT EXISTS "/usr/include/${dir}")
        message(FATAL_ERROR "/usr/include/${dir} is missing: install the Debian packages "
                            "libboost1.81-dev nlohmann-json3-dev libcli11-dev libfmt-dev")
    endif()
    if(NOT EXISTS "${IOPRISM_HOST_HEADERS}/${dir}")
        file(CREATE_LINK "/usr/include/${dir}" "${IOPRISM_HOST_HEADERS}/${dir}" SYMBOLIC)
    endif()
endforeach()

function(ioprism_header_library target)
    add_library(${target} INTERFACE IMPORTED GLOBAL)
    # SYSTEM: their warnings are not ours (the build uses -Werror in CI).
    set_target_properties(${target} PROPERTIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${IOPRISM_HOST_HEADERS}"
                                               INTERFACE_INCLUDE_DIRECTORIES "${IOPRISM_HOST_HEADERS}")
endfunction()

ioprism_header_library(nlohmann_json::nlohmann_json)
ioprism_header_library(CLI11::CLI11)
ioprism_header_library(fmt::fmt-header-only)
set_property(TARGET fmt::fmt-header-only APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1)
set(IOPRISM_FMT fmt::fmt-header-only)
ioprism_header_library(Boost::headers)
# Asio needs Winsock even when only its timers and signal sets are used.
set_property(TARGET Boost::headers APPEND PROPERTY INTERFACE_LINK_LIBRARIES ws2_32 mswsock)

find_package(Threads REQUIRED)

if(IOPRISM_BUILD_GUI)
    # Qt 6 and QCustomPlot built for MinGW from Debian's source packages.
    include(${CMAKE_CURRENT_LIST_DIR}/windows_gui.cmake)
endif()

if(IOPRISM_BUILD_TESTS)
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    set(BUILD_GMOCK ON CACHE BOOL "" FORCE)
    add_subdirectory(/usr/src/googletest "${CMAKE_BINARY_DIR}/googletest" EXCLUDE_FROM_ALL SYSTEM)
    include(GoogleTest)
endif()
