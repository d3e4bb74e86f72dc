# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when an OS #if appears outside platform/, when core/ includes Qt or OS headers,
# or when core/ includes a project header from outside core/ (platform/, ui/, app/, ...).
# Run by ctest as layout.portability.
#
# core's include directory holds core/ alone (core/CMakeLists.txt), so the compiler
# already refuses "platform/..." in core; the check below says why, and also catches
# headers found by other means (a system path that happens to have a platform/).
set(failures "")
file(GLOB_RECURSE sources ${ROOT}/core/*.h ${ROOT}/core/*.cpp ${ROOT}/ui/*.h ${ROOT}/ui/*.cpp
     ${ROOT}/app/*.h ${ROOT}/app/*.cpp ${ROOT}/tests/*.h ${ROOT}/tests/*.cpp)
# The platform layer's own tests may test one OS's code; every other test is portable
# (windows_*.cpp files are chosen by name in tests/CMakeLists.txt, not by #if).
list(FILTER sources EXCLUDE REGEX "/tests/platform/")
foreach(f ${sources})
    file(STRINGS ${f} lines)
    foreach(line IN LISTS lines)
        if(line MATCHES "^[ \t]*#[ \t]*(if|ifdef|ifndef|elif).*(_WIN32|_WIN64|__linux__|__APPLE__|_MSC_VER|__MINGW)")
            list(APPEND failures "${f}: OS conditional outside platform/: ${line}")
        endif()
    endforeach()
endforeach()
file(GLOB_RECURSE core_sources ${ROOT}/core/*.h ${ROOT}/core/*.cpp)
foreach(f ${core_sources})
    file(STRINGS ${f} lines)
    foreach(line IN LISTS lines)
        if(line MATCHES "^[ \t]*#[ \t]*include[ \t]*[<\"](Q[A-Za-z]+|Qt[A-Za-z]*/|unistd\\.h|fcntl\\.h|windows\\.h|liburing|linux/|sys/)")
            list(APPEND failures "${f}: Qt or OS header in core/: ${line}")
        endif()
        if(line MATCHES "^[ \t]*#[ \t]*include[ \t]*[<\"](platform|ui|app)/")
            list(APPEND failures "${f}: ${CMAKE_MATCH_1}/ header in core/ (core depends on nothing above it): ${line}")
        elseif(line MATCHES "^[ \t]*#[ \t]*include[ \t]*\"" AND NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*\"core/")
            list(APPEND failures "${f}: core/ includes its own headers as \"core/...\" and nothing else quoted: ${line}")
        endif()
    endforeach()
endforeach()
if(failures)
    list(JOIN failures "\n" text)
    message(FATAL_ERROR "${text}")
endif()
message(STATUS "layout ok: ${ROOT}")
