# SPDX-License-Identifier: GPL-3.0-or-later
# cmake -P: one man page from a program's --help, compressed for Debian (gzip -9n).
#   -DHELP2MAN= -DPERL= -DGZIP= -DPROGRAM=the built program
#   -DINCLUDE=packaging/man/<program>.h2m (its [NAME] is the page's name and summary)
#   -DCOMMANDS=ON|OFF -DCOMMANDS_SCRIPT=cli-commands.pl
#   -DOUT=<dir>/<program>.1  (writes OUT and OUT.gz)
get_filename_component(dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
set(includes --include ${INCLUDE})
if(COMMANDS)
    # The commands first: help2man places extra sections in the order it meets them.
    execute_process(COMMAND ${PERL} ${COMMANDS_SCRIPT} ${PROGRAM}
        OUTPUT_FILE ${OUT}.commands.h2m RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${COMMANDS_SCRIPT} ${PROGRAM} failed: ${rc}")
    endif()
    set(includes --include ${OUT}.commands.h2m ${includes})
endif()
# The page's date is the date of the last commit when the source is a git checkout
# (help2man reads SOURCE_DATE_EPOCH), so rebuilding the same source gives the same page.
if(NOT DEFINED ENV{SOURCE_DATE_EPOCH})
    execute_process(COMMAND git -C ${CMAKE_CURRENT_LIST_DIR} log -1 --format=%ct
        OUTPUT_VARIABLE epoch OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND epoch MATCHES "^[0-9]+$")
        set(ENV{SOURCE_DATE_EPOCH} ${epoch})
    endif()
endif()
set(ENV{LC_ALL} C.UTF-8)
execute_process(COMMAND ${HELP2MAN} --no-info ${includes}
        --output=${OUT} ${PROGRAM}
    RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "help2man ${PROGRAM} failed (${rc}): ${err}")
endif()
execute_process(COMMAND ${GZIP} -9nf ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip ${OUT} failed: ${rc}")
endif()
