# SPDX-License-Identifier: GPL-3.0-or-later
# What the Windows installer (NSIS, packaging.cmake) installs, below the folder the user
# picks (C:\Program Files\IOPrism by default); docs/windows.md lists it for users:
#   bin\ioprism.exe, bin\ioprism-cli.exe     the GUI and the CLI
#   bin\ioprism-agent.exe                    the agent (plaintext on loopback only: the
#                                            MinGW build has no TLS, docs/agents.md)
#   bin\*.dll, bin\qt.conf, bin\plugins\     Qt, QCustomPlot and the MinGW runtime, built
#                                            from Debian's source packages
#                                            (scripts/build-qt-mingw.sh), and Qt's
#                                            platform, style and image plug-ins
#   share\doc\ioprism-cli\                   the user guide and the other docs with their
#                                            screenshots (Help > User Guide opens it)
#   share\doc\ioprism\copyright, licenses\   IOPrism's licence and those of what the
#                                            installer carries
# The translations are compiled into ioprism.exe. The same relative layout as the Linux
# installation, so the GUI finds its files the same way (ui/help.cpp).
set(src ${PROJECT_SOURCE_DIR})

file(GLOB IOPRISM_DOCS CONFIGURE_DEPENDS ${src}/docs/*.md)
install(FILES ${IOPRISM_DOCS} DESTINATION ${IOPRISM_CLI_DOC_DIR} COMPONENT cli)
install(DIRECTORY ${src}/docs/screenshots DESTINATION ${IOPRISM_CLI_DOC_DIR} COMPONENT cli
    FILES_MATCHING PATTERN "*.png")
install(FILES ${src}/LICENSE DESTINATION ${IOPRISM_GUI_DOC_DIR} RENAME copyright COMPONENT cli)

if(IOPRISM_BUILD_GUI)
    install(FILES ${IOPRISM_QT_DEPLOY_FILES} ${IOPRISM_QT_CONF} DESTINATION bin COMPONENT gui)
    foreach(plugin IN LISTS IOPRISM_QT_DEPLOY_PLUGINS)
        get_filename_component(folder "${plugin}" DIRECTORY)
        install(FILES "${IOPRISM_QT_MINGW_ROOT}/plugins/${plugin}" DESTINATION bin/plugins/${folder}
            COMPONENT gui)
    endforeach()
    install(DIRECTORY "${IOPRISM_QT_MINGW_ROOT}/licenses/" DESTINATION ${IOPRISM_GUI_DOC_DIR}/licenses
        COMPONENT gui)
endif()
