// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/common/data_dir.h"

#include <cstdlib>
#include <string>

#ifdef _WIN32
#include <stdlib.h> // _wgetenv
#endif

namespace ioprism::platform {

namespace {

core::OpError noDataFolder(std::string why)
{
    return {std::make_error_code(std::errc::no_such_file_or_directory), "find the data folder", {},
        std::move(why)};
}

// getenv is not thread safe against setenv; IOPrism never sets its environment, and the
// data folder is looked up from the command's thread.
#ifdef _WIN32
// Wide on Windows: a user name outside the ANSI code page must not garble the path.
std::filesystem::path environmentPath(const wchar_t *name)
{
    const wchar_t *value = _wgetenv(name); // NOLINT(concurrency-mt-unsafe)
    return value ? std::filesystem::path(value) : std::filesystem::path();
}
#else
std::filesystem::path environmentPath(const char *name)
{
    const char *value = std::getenv(name); // NOLINT(concurrency-mt-unsafe)
    return value ? std::filesystem::path(value) : std::filesystem::path();
}
#endif

} // namespace

core::Result<std::filesystem::path> userDataDirectory()
{
#ifdef _WIN32
    if (auto over = environmentPath(L"IOPRISM_DATA_DIR"); !over.empty())
        return over;
    if (auto local = environmentPath(L"LOCALAPPDATA"); !local.empty())
        return local / "IOPrism";
    return noDataFolder("LOCALAPPDATA is not set; set IOPRISM_DATA_DIR");
#else
    if (auto over = environmentPath(kDataDirVariable); !over.empty())
        return over;
    // The XDG Base Directory rules: a relative XDG_DATA_HOME is invalid and ignored.
    if (auto xdg = environmentPath("XDG_DATA_HOME"); !xdg.empty() && xdg.is_absolute())
        return xdg / "ioprism";
    if (auto home = environmentPath("HOME"); !home.empty())
        return home / ".local" / "share" / "ioprism";
    return noDataFolder("neither XDG_DATA_HOME nor HOME is set; set IOPRISM_DATA_DIR");
#endif
}

core::Result<std::filesystem::path> runLibraryDirectory()
{
    auto base = userDataDirectory();
    if (!base)
        return base.error();
    return *base / "runs";
}

} // namespace ioprism::platform
