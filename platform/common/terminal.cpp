// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/common/terminal.h"

#include <cstdio>

#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

namespace ioprism::platform {

bool isTerminal(StandardStream stream)
{
    FILE *file = stream == StandardStream::Output ? stdout : stderr;
#ifdef _WIN32
    return _isatty(_fileno(file)) != 0;
#else
    return ::isatty(::fileno(file)) != 0;
#endif
}

} // namespace ioprism::platform
