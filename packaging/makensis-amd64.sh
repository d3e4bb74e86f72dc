#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# makensis for a 64-bit installer: Debian's nsis ships the amd64-unicode stubs and
# plug-ins, but makensis builds a 32-bit installer unless told `Target amd64-unicode`
# before the script, which CPack's NSIS template cannot say. A 64-bit installer installs
# into the 64-bit Program Files folder and runs under a 64-bit-only Wine (CI).
exec makensis "-XTarget amd64-unicode" "$@"
