# SPDX-License-Identifier: GPL-3.0-or-later
# What `cmake --install` puts where on Linux, in the two components that become the two
# Debian packages (packaging.cmake; docs/install.md lists every file):
#   cli -> ioprism-cli  the CLI and the agent (ioprism-agent) with their man pages, the
#                       presets, the documentation
#   gui -> ioprism      the GUI and its man page, the desktop entry, the MIME types of
#                       profiles and .icf files, the icon in the hicolor theme, the
#                       AppStream metadata
# Both carry the Debian copyright file and changelog under share/doc/<package>/.
#
# Generated at build time: the man pages (help2man from the programs' real --help; the GUI
# prints it without a display) and the PNG icons (rsvg-convert from the SVG). Without
# those tools the build still works and installs everything else; the packaging step of
# scripts/quickstart.sh installs them (Debian: help2man, librsvg2-bin).
include(GNUInstallDirs)

# One id everywhere: the desktop entry, the icon, the AppStream component, the MIME
# package and QGuiApplication::desktopFileName (app/gui/main.cpp).
set(IOPRISM_APP_ID io.github.ioprism.IOPrism)
set(IOPRISM_DEB_MAINTAINER "IOPrism developers <ioprism@users.noreply.github.com>")
set(IOPRISM_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
# The date of this version's release: the Debian changelog entry (and, by hand, the
# AppStream <release> of resources/io.github.ioprism.IOPrism.metainfo.xml).
set(IOPRISM_RELEASE_DATE_RFC2822 "Tue, 24 Nov 2026 00:00:00 +0000")
set(IOPRISM_DEB_RELEASE 1)
set(IOPRISM_DEB_VERSION "${PROJECT_VERSION}-${IOPRISM_DEB_RELEASE}")

set(src ${PROJECT_SOURCE_DIR})
set(out ${PROJECT_BINARY_DIR}/packaging)
# IOPRISM_CLI_DOC_DIR and IOPRISM_GUI_DOC_DIR come from the top CMakeLists.txt: the GUI
# looks for the user guide and the copyright file there.

# ---- ioprism-cli: presets and documentation
install(DIRECTORY ${src}/resources/presets/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ioprism/presets
    COMPONENT cli FILES_MATCHING PATTERN "*.json")
file(GLOB IOPRISM_DOCS CONFIGURE_DEPENDS ${src}/docs/*.md)
install(FILES ${IOPRISM_DOCS} DESTINATION ${IOPRISM_CLI_DOC_DIR} COMPONENT cli)
# The user guide shows them (screenshots/live.png, relative to the guide).
install(DIRECTORY ${src}/docs/screenshots DESTINATION ${IOPRISM_CLI_DOC_DIR} COMPONENT cli
    FILES_MATCHING PATTERN "*.png")

# ---- Stripped like Debian's dh_strip does: CPack's strip (CPACK_STRIP_FILES, or
# `cmake --install --strip`) keeps the compiler's .comment and .note sections.
if(CMAKE_OBJCOPY)
    foreach(component cli gui)
        if(component STREQUAL "gui" AND NOT IOPRISM_BUILD_GUI)
            continue()
        endif()
        if(component STREQUAL "cli")
            set(programs ioprism-cli ioprism-agent)
        else()
            set(programs ioprism)
        endif()
        foreach(program ${programs})
            install(CODE "
                if(CMAKE_INSTALL_DO_STRIP)
                    execute_process(COMMAND \"${CMAKE_OBJCOPY}\" --remove-section=.comment
                        --remove-section=.note
                        \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/${program}\")
                endif()" COMPONENT ${component})
        endforeach()
    endforeach()
endif()

# ---- Lintian's overrides, each with its reason (packaging/lintian/<package>).
install(FILES ${src}/packaging/lintian/ioprism-cli
    DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides COMPONENT cli)
if(IOPRISM_BUILD_GUI)
    install(FILES ${src}/packaging/lintian/ioprism
        DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides COMPONENT gui)
endif()

# ---- Debian's copyright file and changelog, in each package's doc directory. The
# changelog is compressed the way Debian wants it: gzip -9n (no name, no time stamp).
configure_file(${src}/packaging/changelog.Debian.in ${out}/changelog.Debian @ONLY)
find_program(IOPRISM_GZIP gzip)
set(IOPRISM_GENERATED_FILES "")
if(IOPRISM_GZIP)
    add_custom_command(OUTPUT ${out}/changelog.Debian.gz
        COMMAND ${IOPRISM_GZIP} -9nkf ${out}/changelog.Debian
        DEPENDS ${out}/changelog.Debian VERBATIM)
    list(APPEND IOPRISM_GENERATED_FILES ${out}/changelog.Debian.gz)
endif()
foreach(component cli gui)
    if(component STREQUAL "gui" AND NOT IOPRISM_BUILD_GUI)
        continue()
    endif()
    if(component STREQUAL "cli")
        set(docdir ${IOPRISM_CLI_DOC_DIR})
    else()
        set(docdir ${IOPRISM_GUI_DOC_DIR})
    endif()
    install(FILES ${src}/packaging/copyright DESTINATION ${docdir} COMPONENT ${component})
    if(IOPRISM_GZIP)
        install(FILES ${out}/changelog.Debian.gz DESTINATION ${docdir} COMPONENT ${component})
    endif()
endforeach()

# ---- Man pages, from the programs' --help (help2man; the CLI's page also gets every
# command's --help through packaging/man/cli-commands.pl). Not when cross-compiling (the
# programs must run here), nor in the sanitizer builds, which are not for installing.
find_program(IOPRISM_HELP2MAN help2man)
find_program(IOPRISM_PERL perl)
if(CMAKE_CROSSCOMPILING OR CMAKE_CXX_FLAGS MATCHES "-fsanitize")
    # no man pages
elseif(IOPRISM_HELP2MAN AND IOPRISM_PERL AND IOPRISM_GZIP)
    set(man_programs ioprism-cli ioprism-agent)
    if(IOPRISM_BUILD_GUI)
        list(APPEND man_programs ioprism)
    endif()
    foreach(program ${man_programs})
        if(program STREQUAL "ioprism-cli")
            set(component cli)
            set(commands ON)
        elseif(program STREQUAL "ioprism-agent")
            set(component cli)
            set(commands OFF)
        else()
            set(component gui)
            set(commands OFF)
        endif()
        set(page ${out}/man/${program}.1)
        add_custom_command(OUTPUT ${page}.gz
            COMMAND ${CMAKE_COMMAND} -DHELP2MAN=${IOPRISM_HELP2MAN} -DPERL=${IOPRISM_PERL}
                -DGZIP=${IOPRISM_GZIP} -DPROGRAM=$<TARGET_FILE:${program}>
                -DINCLUDE=${src}/packaging/man/${program}.h2m -DCOMMANDS=${commands}
                -DCOMMANDS_SCRIPT=${src}/packaging/man/cli-commands.pl -DOUT=${page}
                -P ${src}/packaging/man/make_man_page.cmake
            DEPENDS ${program} ${src}/packaging/man/${program}.h2m
                ${src}/packaging/man/cli-commands.pl ${src}/packaging/man/make_man_page.cmake
            COMMENT "Man page ${program}.1 from ${program} --help"
            VERBATIM)
        list(APPEND IOPRISM_GENERATED_FILES ${page}.gz)
        install(FILES ${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT ${component})
    endforeach()
else()
    message(STATUS "help2man not found: no man pages (Debian: apt-get install help2man)")
endif()

# ---- The desktop integration of the GUI
if(IOPRISM_BUILD_GUI)
    install(FILES ${src}/resources/${IOPRISM_APP_ID}.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT gui)
    install(FILES ${src}/resources/${IOPRISM_APP_ID}.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo COMPONENT gui)
    install(FILES ${src}/resources/${IOPRISM_APP_ID}.mime.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages COMPONENT gui
        RENAME ${IOPRISM_APP_ID}.xml)
    install(FILES ${src}/resources/icons/ioprism.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps COMPONENT gui
        RENAME ${IOPRISM_APP_ID}.svg)
    # PNGs for menus and software centres that do not draw SVG.
    find_program(IOPRISM_RSVG_CONVERT rsvg-convert)
    if(IOPRISM_RSVG_CONVERT)
        foreach(size 16 22 24 32 48 64 128 256)
            set(png ${out}/icons/${size}x${size}/${IOPRISM_APP_ID}.png)
            add_custom_command(OUTPUT ${png}
                COMMAND ${IOPRISM_RSVG_CONVERT} --width=${size} --height=${size}
                    --output=${png} ${src}/resources/icons/ioprism.svg
                DEPENDS ${src}/resources/icons/ioprism.svg VERBATIM)
            list(APPEND IOPRISM_GENERATED_FILES ${png})
            install(FILES ${png}
                DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps
                COMPONENT gui)
        endforeach()
    else()
        message(STATUS "rsvg-convert not found: the icon is installed as SVG only "
                       "(Debian: apt-get install librsvg2-bin)")
    endif()

    # A plain `cmake --install` to the configured prefix refreshes the desktop's caches,
    # so the menu entry, its icon and the file associations show at once. Staged installs
    # (DESTDIR, CPack, --prefix) do not: Debian's triggers do it when the package is
    # installed.
    install(CODE "
        if(\"\$ENV{DESTDIR}\" STREQUAL \"\" AND \"\${CMAKE_INSTALL_PREFIX}\" STREQUAL \"${CMAKE_INSTALL_PREFIX}\")
            set(share \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}\")
            foreach(step \"update-mime-database;\${share}/mime\"
                         \"update-desktop-database;-q;\${share}/applications\"
                         \"gtk-update-icon-cache;-q;-t;-f;\${share}/icons/hicolor\")
                list(POP_FRONT step tool)
                find_program(found_\${tool} \${tool})
                if(found_\${tool})
                    execute_process(COMMAND \${found_\${tool}} \${step})
                endif()
            endforeach()
        endif()" COMPONENT gui)
endif()

add_custom_target(ioprism_install_files ALL DEPENDS ${IOPRISM_GENERATED_FILES})

# ---- Checks of the installed metadata (ctest -L packaging): each skips (77) when its
# tool is missing, or fails when IOPRISM_NO_SKIP=1.
if(IOPRISM_BUILD_TESTS AND IOPRISM_BUILD_GUI)
    foreach(check desktop metainfo mime)
        add_test(NAME packaging.${check}
            COMMAND sh ${src}/packaging/check-metadata.sh ${check} ${src} ${PROJECT_VERSION})
        set_tests_properties(packaging.${check} PROPERTIES LABELS packaging SKIP_RETURN_CODE 77)
    endforeach()
endif()
