# CPack: a .deb on Linux (the NSIS installer for the Windows CLI comes with the
# Windows backend).
set(CPACK_PACKAGE_NAME ioprism)
set(CPACK_PACKAGE_VENDOR "IOPrism")
set(CPACK_PACKAGE_CONTACT "IOPrism developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    set(CPACK_GENERATOR DEB)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
endif()
include(CPack)
