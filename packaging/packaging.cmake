# CPack: a .deb on Linux; an NSIS installer for the Windows CLI, built by the
# windows-mingw cross build with Debian's makensis (docs/windows.md):
#   cmake --preset windows-mingw && cmake --build --preset windows-mingw
#   cpack --config build/windows-mingw/CPackConfig.cmake -B build/windows-mingw/package
set(CPACK_PACKAGE_NAME ioprism)
set(CPACK_PACKAGE_VENDOR "IOPrism")
set(CPACK_PACKAGE_CONTACT "IOPrism developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    set(CPACK_GENERATOR DEB)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
elseif(WIN32)
    # The CLI is one static .exe (the MinGW toolchain links libstdc++ and winpthread in),
    # so the installer holds just bin\ioprism-cli.exe; it offers to add bin\ to PATH.
    set(CPACK_GENERATOR NSIS)
    set(CPACK_PACKAGE_INSTALL_DIRECTORY "IOPrism")
    set(CPACK_PACKAGE_FILE_NAME "ioprism-cli-${PROJECT_VERSION}-win64")
    set(CPACK_NSIS_DISPLAY_NAME "IOPrism CLI ${PROJECT_VERSION}")
    set(CPACK_NSIS_PACKAGE_NAME "IOPrism CLI")
    set(CPACK_NSIS_INSTALL_ROOT "$PROGRAMFILES64")
    set(CPACK_NSIS_MODIFY_PATH ON)
    set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
    set(CPACK_NSIS_MANIFEST_DPI_AWARE ON)
    if(EXISTS "${PROJECT_SOURCE_DIR}/LICENSE")
        set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
    else()
        # Without a license file CPack would show CMake's own: show none instead.
        set(CPACK_NSIS_IGNORE_LICENSE_PAGE ON)
    endif()
    if(CMAKE_CROSSCOMPILING)
        # Debian's nsis package: makensis runs on the build machine.
        find_program(IOPRISM_MAKENSIS makensis)
        if(IOPRISM_MAKENSIS)
            set(CPACK_NSIS_EXECUTABLE "${IOPRISM_MAKENSIS}")
        endif()
    endif()
endif()
include(CPack)
