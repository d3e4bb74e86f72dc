# SPDX-License-Identifier: GPL-3.0-or-later
# Project-wide warning flags as an INTERFACE target every first-party target links.
add_library(ioprism_warnings INTERFACE)
if(MSVC)
    target_compile_options(ioprism_warnings INTERFACE /W4 /permissive-)
    if(IOPRISM_WERROR)
        target_compile_options(ioprism_warnings INTERFACE /WX)
    endif()
else()
    target_compile_options(ioprism_warnings INTERFACE -Wall -Wextra -Wpedantic -Wno-missing-field-initializers)
    if(IOPRISM_WERROR)
        target_compile_options(ioprism_warnings INTERFACE -Werror)
    endif()
    # GCC 12 at -O2/-O3 reports impossible overlaps in std::string's inlined memcpy
    # (-Wrestrict on `"literal" + std::string`, GCC bug 105329): a false positive in
    # libstdc++, not in our code, that fails -Werror release builds at random places.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
        target_compile_options(ioprism_warnings INTERFACE -Wno-restrict)
    endif()
endif()
