# SPDX-License-Identifier: GPL-3.0-or-later
# Qt 6 and QCustomPlot for the Windows GUI of the MinGW cross build (windows-mingw preset).
#
# Debian ships no Qt for MinGW; scripts/build-qt-mingw.sh builds it from Debian's own
# source packages (qtbase and qcustomplot, the host's versions) into a cache outside the
# repository, /var/cache/ioprism/qt-mingw by default. The host's Qt (qt6-base-dev,
# qt6-tools-dev) provides moc, rcc, uic and lrelease through QT_HOST_PATH.
#
# Defines IOPRISM_QT_DEPLOY_FILES / IOPRISM_QT_DEPLOY_PLUGINS (what ioprism.exe needs
# beside it) and copies them into the build's bin/ so that the GUI and ui_tests run from
# there under Wine; packaging/windows.cmake installs the same files.
# The script's cache folder is IOPRISM_CACHE when set (as for the script), else
# /var/cache/ioprism.
if(DEFINED ENV{IOPRISM_CACHE})
    set(IOPRISM_QT_MINGW_DEFAULT "$ENV{IOPRISM_CACHE}/qt-mingw")
else()
    set(IOPRISM_QT_MINGW_DEFAULT "/var/cache/ioprism/qt-mingw")
endif()
set(IOPRISM_QT_MINGW_PREFIX "${IOPRISM_QT_MINGW_DEFAULT}" CACHE PATH
    "Qt 6 for MinGW-w64 built by scripts/build-qt-mingw.sh")
if(NOT EXISTS "${IOPRISM_QT_MINGW_PREFIX}/lib/cmake/Qt6/Qt6Config.cmake"
   OR NOT EXISTS "${IOPRISM_QT_MINGW_PREFIX}/lib/cmake/QCustomPlotQt6/QCustomPlotQt6Config.cmake")
    message(FATAL_ERROR "No Qt 6 for MinGW-w64 in ${IOPRISM_QT_MINGW_PREFIX}: build it with "
                        "scripts/build-qt-mingw.sh (from Debian's source packages, about 20 min "
                        "on 2 cores, once), or configure with -DIOPRISM_BUILD_GUI=OFF for the "
                        "CLI only")
endif()
# The real folder (the cache key is in its name): a rebuilt Qt is a new path for ccache
# and the dependency scanner.
get_filename_component(IOPRISM_QT_MINGW_ROOT "${IOPRISM_QT_MINGW_PREFIX}" REALPATH)

# The host Qt's CMake packages are in Debian's multiarch folder.
file(GLOB IOPRISM_HOST_QT_INFO LIST_DIRECTORIES true "/usr/lib/*/cmake/Qt6HostInfo")
if(NOT IOPRISM_HOST_QT_INFO)
    message(FATAL_ERROR "The host's Qt 6 is missing (Debian: qt6-base-dev qt6-tools-dev)")
endif()
list(GET IOPRISM_HOST_QT_INFO 0 IOPRISM_HOST_QT_INFO)
get_filename_component(QT_HOST_PATH_CMAKE_DIR "${IOPRISM_HOST_QT_INFO}" DIRECTORY)
set(QT_HOST_PATH /usr)

list(APPEND CMAKE_FIND_ROOT_PATH "${IOPRISM_QT_MINGW_ROOT}")
set(Qt6_DIR "${IOPRISM_QT_MINGW_ROOT}/lib/cmake/Qt6")
set(QCustomPlotQt6_DIR "${IOPRISM_QT_MINGW_ROOT}/lib/cmake/QCustomPlotQt6")
find_package(Qt6 6.4 REQUIRED COMPONENTS Core Gui Widgets PrintSupport Test LinguistTools)
find_package(QCustomPlotQt6 REQUIRED CONFIG)

# What ioprism.exe needs beside it: Qt's DLLs and QCustomPlot's, the MinGW runtime DLLs
# they link, and the plug-ins (the `windows` platform, `offscreen` for the tests, the
# native styles, the image formats) under plugins/, where qt.conf (Prefix = .) points Qt,
# so that nothing is looked up in the build machine's cache folder.
set(IOPRISM_QT_DEPLOY_FILES)
foreach(dll Qt6Core Qt6Gui Qt6Widgets Qt6PrintSupport libstdc++-6 libgcc_s_seh-1 libwinpthread-1)
    if(NOT EXISTS "${IOPRISM_QT_MINGW_ROOT}/bin/${dll}.dll")
        message(FATAL_ERROR "${IOPRISM_QT_MINGW_ROOT}/bin/${dll}.dll is missing: build Qt again "
                            "(scripts/build-qt-mingw.sh)")
    endif()
    list(APPEND IOPRISM_QT_DEPLOY_FILES "${IOPRISM_QT_MINGW_ROOT}/bin/${dll}.dll")
endforeach()
file(GLOB IOPRISM_QCUSTOMPLOT_DLL "${IOPRISM_QT_MINGW_ROOT}/bin/*QCustomPlot*.dll")
list(APPEND IOPRISM_QT_DEPLOY_FILES ${IOPRISM_QCUSTOMPLOT_DLL})
set(IOPRISM_QT_DEPLOY_PLUGINS)
foreach(plugin platforms/qwindows platforms/qoffscreen)
    if(NOT EXISTS "${IOPRISM_QT_MINGW_ROOT}/plugins/${plugin}.dll")
        message(FATAL_ERROR "Qt's ${plugin} plug-in is missing in ${IOPRISM_QT_MINGW_ROOT}")
    endif()
    list(APPEND IOPRISM_QT_DEPLOY_PLUGINS "${plugin}.dll")
endforeach()
file(GLOB IOPRISM_QT_MORE_PLUGINS RELATIVE "${IOPRISM_QT_MINGW_ROOT}/plugins"
    "${IOPRISM_QT_MINGW_ROOT}/plugins/styles/*.dll" "${IOPRISM_QT_MINGW_ROOT}/plugins/imageformats/*.dll")
list(APPEND IOPRISM_QT_DEPLOY_PLUGINS ${IOPRISM_QT_MORE_PLUGINS})

# The build's bin/ is laid out as an installation is (packaging/windows.cmake), so that
# the GUI and ui_tests.exe run from there under Wine; Qt6Test.dll only for the tests.
set(IOPRISM_QT_CONF "${CMAKE_BINARY_DIR}/qt.conf")
file(WRITE "${IOPRISM_QT_CONF}.in" "[Paths]\nPrefix = .\n")
configure_file("${IOPRISM_QT_CONF}.in" "${IOPRISM_QT_CONF}" COPYONLY)
file(COPY ${IOPRISM_QT_DEPLOY_FILES} "${IOPRISM_QT_MINGW_ROOT}/bin/Qt6Test.dll" "${IOPRISM_QT_CONF}"
    DESTINATION "${CMAKE_RUNTIME_OUTPUT_DIRECTORY}")
foreach(plugin IN LISTS IOPRISM_QT_DEPLOY_PLUGINS)
    get_filename_component(folder "${plugin}" DIRECTORY)
    file(COPY "${IOPRISM_QT_MINGW_ROOT}/plugins/${plugin}"
        DESTINATION "${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/plugins/${folder}")
endforeach()

# No QtSvg here (scripts/build-qt-mingw.sh): the icons go in as PNG (ui/CMakeLists.txt).
set(IOPRISM_ICONS_AS_PNG ON)
