// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/sysfs.h"

#include "platform/linux/block_devices.h"

#include <charconv>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace ioprism::platform {

std::string readTextFile(const fs::path &path)
{
    std::ifstream in(path);
    if (!in)
        return {};
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string readAttribute(const fs::path &path)
{
    const std::string text = readTextFile(path);
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    std::size_t begin = 0, end = text.size();
    while (begin < end && blank(text[begin]))
        ++begin;
    while (end > begin && blank(text[end - 1]))
        --end;
    return text.substr(begin, end - begin);
}

std::optional<std::uint64_t> readNumberAttribute(const fs::path &path)
{
    const std::string text = readAttribute(path);
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || text.empty())
        return std::nullopt;
    return value;
}

std::string readQueueAttribute(const std::string &name, std::string_view attribute)
{
    const fs::path own = fs::path("/sys/class/block") / name / "queue" / attribute;
    std::error_code ec;
    if (fs::exists(own, ec))
        return readAttribute(own);
    if (const auto disk = wholeDiskOf(name); disk && *disk != name)
        return readAttribute(fs::path("/sys/class/block") / *disk / "queue" / attribute);
    return {};
}

} // namespace ioprism::platform
