# SPDX-License-Identifier: GPL-3.0-or-later
# CPack: two Debian packages on Linux (docs/install.md); an NSIS installer of the Windows
# GUI and CLI, built by the windows-mingw cross build with Debian's makensis (docs/windows.md):
#   cmake --preset windows-mingw && cmake --build --preset windows-mingw
#   cpack --config build/windows-mingw/CPackConfig.cmake -B build/windows-mingw/package
set(CPACK_PACKAGE_NAME ioprism)
set(CPACK_PACKAGE_VENDOR "IOPrism")
set(CPACK_PACKAGE_CONTACT "IOPrism developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    include(${CMAKE_CURRENT_LIST_DIR}/install.cmake)
    # packaging/build-debs.sh builds these with Debian's hardening flags and checks them
    # with lintian; by hand: cpack --config build/release/CPackConfig.cmake.
    #   ioprism-cli_<version>-1_<arch>.deb  the CLI (no Qt), its man page, presets, docs
    #   ioprism_<version>-1_<arch>.deb      the GUI and its desktop integration
    set(CPACK_GENERATOR DEB)
    set(CPACK_DEB_COMPONENT_INSTALL ON)
    set(CPACK_COMPONENTS_ALL cli)
    if(IOPRISM_BUILD_GUI)
        list(APPEND CPACK_COMPONENTS_ALL gui)
    endif()
    set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # name_version-release_arch.deb
    set(CPACK_DEBIAN_PACKAGE_RELEASE ${IOPRISM_DEB_RELEASE})
    set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${IOPRISM_DEB_MAINTAINER}")
    set(CPACK_DEBIAN_PACKAGE_SECTION utils)
    set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
    set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${IOPRISM_HOMEPAGE}")
    set(CPACK_DEBIAN_PACKAGE_SOURCE ioprism) # both come from one source, as the changelog says
    set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
    # Depends from the libraries the binaries link (dpkg-shlibdeps); stripped binaries.
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
    set(CPACK_STRIP_FILES ON)

    # Each package's synopsis is the first line of its description. CPack would put the
    # project's summary above it unless that summary is CPack's placeholder, so it is.
    set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")

    # What IOPrism is, the first paragraph of both packages' long descriptions.
    set(IOPRISM_DEB_ABOUT "IOPrism drives disks, SSDs, arrays and file systems with a controlled workload:
Iometer-style access specifications (transfer size, % read, % random, queue
depth, alignment, bursts) plus distributions, rate limits and data patterns,
through io_uring with direct I/O. It times every I/O on its own monotonic
clock and reports throughput, IOPS, latency percentiles and CPU use, with the
device's own counters beside them and a verdict on whether they agree.")

    set(CPACK_DEBIAN_CLI_PACKAGE_NAME ioprism-cli)
    # udisks2 opens raw devices for a user who may not open them, after polkit asks
    # (docs/targets.md "Privilege"); test files and root need nothing, hence only a
    # recommendation.
    set(CPACK_DEBIAN_CLI_PACKAGE_RECOMMENDS "udisks2")
    set(CPACK_DEBIAN_CLI_DESCRIPTION "storage benchmark with device-level truth - command line
${IOPRISM_DEB_ABOUT}

This package holds ioprism-cli, the headless front end: it runs profiles,
presets and Iometer .icf files, validates and converts them, and writes CSV
(Iometer's layout) and JSON results. It also holds ioprism-agent, which runs
tests on this host for a controller on another one (over TLS, with a token),
the presets as profiles and the documentation. The desktop application is in
the package ioprism.")

    set(CPACK_DEBIAN_GUI_PACKAGE_NAME ioprism)
    # libqt6svg6 holds Qt's SVG icon engine and image plug-ins, which draw the icons;
    # nothing links it, so dpkg-shlibdeps cannot see it. Qt falls back to X11 (XWayland)
    # without qt6-wayland, hence only a recommendation; likewise qt6-translations-l10n,
    # Qt's own texts (file dialogs, message-box buttons) in the user's language beside
    # IOPrism's translations, which are built in.
    set(CPACK_DEBIAN_GUI_PACKAGE_DEPENDS "ioprism-cli (= ${IOPRISM_DEB_VERSION}), libqt6svg6")
    set(CPACK_DEBIAN_GUI_PACKAGE_RECOMMENDS "qt6-wayland, qt6-translations-l10n")
    set(CPACK_DEBIAN_GUI_DESCRIPTION "storage benchmark with device-level truth - desktop application
${IOPRISM_DEB_ABOUT}

This package holds ioprism, the Qt 6 desktop application, a modern Iometer:
workers and their targets, access specifications, and live plots of
throughput, IOPS, latency percentiles and CPU with the device's figures over
them. It opens IOPrism profiles and Iometer .icf files from the file manager.")
elseif(WIN32)
    include(${CMAKE_CURRENT_LIST_DIR}/windows.cmake)
    # One installer of everything built: the GUI (with Qt) and the CLI. The install rules
    # name components for the Debian packages; NSIS would otherwise offer them as choices.
    set(CPACK_GENERATOR NSIS)
    set(CPACK_MONOLITHIC_INSTALL ON)
    set(CPACK_PACKAGE_INSTALL_DIRECTORY "IOPrism")
    set(CPACK_NSIS_INSTALL_ROOT "$PROGRAMFILES64")
    set(CPACK_NSIS_MODIFY_PATH ON) # offers to put bin\ (the CLI) on PATH
    set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
    set(CPACK_NSIS_MANIFEST_DPI_AWARE ON)
    set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
    if(IOPRISM_BUILD_GUI)
        set(CPACK_PACKAGE_FILE_NAME "ioprism-${PROJECT_VERSION}-win64")
        set(CPACK_NSIS_DISPLAY_NAME "IOPrism ${PROJECT_VERSION}")
        set(CPACK_NSIS_PACKAGE_NAME "IOPrism")
        # The Start menu entry, the installer's and the uninstaller's icon, and the icon
        # in "Apps & features".
        set(CPACK_PACKAGE_EXECUTABLES ioprism "IOPrism")
        set(CPACK_NSIS_MUI_ICON "${IOPRISM_ICO}")
        set(CPACK_NSIS_MUI_UNIICON "${IOPRISM_ICO}")
        # CPack writes these values unescaped into CPackConfig.cmake, which it reads back:
        # hence "\\\\" for one backslash and "\\\"" for one double quote in the .nsi.
        set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\\\ioprism.exe")
        # Iometer's .icf files open in IOPrism (ProgID IOPrism.icf, under the machine's
        # classes as the installation is for all users); the uninstaller removes both
        # keys (.icf only while it still names IOPrism), and tells Explorer either way.
        set(IOPRISM_NSIS_CLASSES "HKLM 'Software\\\\Classes")
        set(CPACK_NSIS_EXTRA_INSTALL_COMMANDS "
            WriteRegStr ${IOPRISM_NSIS_CLASSES}\\\\.icf' '' 'IOPrism.icf'
            WriteRegStr ${IOPRISM_NSIS_CLASSES}\\\\IOPrism.icf' '' 'Iometer configuration'
            WriteRegStr ${IOPRISM_NSIS_CLASSES}\\\\IOPrism.icf\\\\DefaultIcon' '' '$INSTDIR\\\\bin\\\\ioprism.exe,0'
            WriteRegStr ${IOPRISM_NSIS_CLASSES}\\\\IOPrism.icf\\\\shell\\\\open\\\\command' '' '\\\"$INSTDIR\\\\bin\\\\ioprism.exe\\\" \\\"%1\\\"'
            System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'")
        set(CPACK_NSIS_EXTRA_UNINSTALL_COMMANDS "
            ReadRegStr $0 ${IOPRISM_NSIS_CLASSES}\\\\.icf' ''
            StrCmp $0 'IOPrism.icf' 0 +2
            DeleteRegKey ${IOPRISM_NSIS_CLASSES}\\\\.icf'
            DeleteRegKey ${IOPRISM_NSIS_CLASSES}\\\\IOPrism.icf'
            System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'")
    else()
        set(CPACK_PACKAGE_FILE_NAME "ioprism-cli-${PROJECT_VERSION}-win64")
        set(CPACK_NSIS_DISPLAY_NAME "IOPrism CLI ${PROJECT_VERSION}")
        set(CPACK_NSIS_PACKAGE_NAME "IOPrism CLI")
    endif()
    if(CMAKE_CROSSCOMPILING)
        # Debian's nsis package: makensis runs on the build machine, building a 64-bit
        # installer (makensis-amd64.sh says why).
        find_program(IOPRISM_MAKENSIS makensis)
        if(IOPRISM_MAKENSIS)
            set(CPACK_NSIS_EXECUTABLE "${CMAKE_CURRENT_LIST_DIR}/makensis-amd64.sh")
        endif()
    endif()
endif()
include(CPack)
