# SPDX-License-Identifier: GPL-3.0-or-later
# translations.complete: every text of the GUI is translated into German, and every
# count ("%n steps") has its English plural forms.
#
# lupdate runs over ui/ into copies of the committed catalogues (the sources' texts added,
# those gone dropped, as `--target update_translations` does), then the copies are read:
# an unfinished German message (a new text nobody translated, or one marked unfinished)
# or an unfinished English plural fails, each named.
#   cmake -DLUPDATE=... -DSOURCE_DIR=... -DWORK_DIR=... "-DOPTIONS=..." -P check_translations.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failed FALSE)
foreach(language de en)
    set(ts ${WORK_DIR}/ioprism_${language}.ts)
    file(COPY ${SOURCE_DIR}/resources/translations/ioprism_${language}.ts DESTINATION ${WORK_DIR})
    set(extra)
    if(language STREQUAL "en")
        set(extra -pluralonly)
    endif()
    execute_process(COMMAND ${LUPDATE} ${extra} ${OPTIONS} -ts ${ts}
        RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "lupdate failed for ${language}:\n${out}")
    endif()
    file(READ ${ts} text)
    # One message per list item: split at each <message> (the numerus attribute is kept).
    string(REPLACE "<message" ";<message" messages "${text}")
    set(unfinished 0)
    foreach(message IN LISTS messages)
        if(NOT message MATCHES "^<message")
            continue()
        endif()
        if(language STREQUAL "en" AND NOT message MATCHES "numerus=\"yes\"")
            continue()
        endif()
        if(message MATCHES "type=\"unfinished\"" OR message MATCHES "<translation>[ \n]*</translation>")
            math(EXPR unfinished "${unfinished} + 1")
            string(REGEX MATCH "<source>[^<]*</source>" source "${message}")
            message(STATUS "unfinished (${language}): ${source}")
        endif()
    endforeach()
    if(unfinished GREATER 0)
        message(STATUS "ioprism_${language}.ts: ${unfinished} unfinished; run "
            "`cmake --build <build> --target update_translations` and translate them")
        set(failed TRUE)
    else()
        message(STATUS "ioprism_${language}.ts: complete")
    endif()
endforeach()
if(failed)
    message(FATAL_ERROR "translations are incomplete")
endif()
