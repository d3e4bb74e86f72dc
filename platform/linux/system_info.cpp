// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/system_info.h"

#include "platform/common/system.h"
#include "platform/linux/block_devices.h"
#include "platform/linux/sysfs.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <pthread.h>
#include <sstream>
#include <sys/utsname.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ioprism::platform {

namespace {

std::string_view trim(std::string_view s)
{
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!s.empty() && blank(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && blank(s.back()))
        s.remove_suffix(1);
    return s;
}

template<typename F> void forEachLine(std::string_view text, F &&f)
{
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        f(text.substr(0, nl));
        if (nl == std::string_view::npos)
            break;
        text.remove_prefix(nl + 1);
    }
}

// os-release values are shell-quoted: "..." with \" \\ \$ \` escapes, or '...'.
std::string unquoteShell(std::string_view v)
{
    v = trim(v);
    if (v.size() >= 2 && v.front() == '\'' && v.back() == '\'')
        return std::string(v.substr(1, v.size() - 2));
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') {
        v = v.substr(1, v.size() - 2);
        std::string out;
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (v[i] == '\\' && i + 1 < v.size())
                ++i;
            out += v[i];
        }
        return out;
    }
    return std::string(v);
}

// "key<tabs> : value" lines of /proc/cpuinfo; calls f(key, value) for each.
template<typename F> void forEachCpuInfoField(std::string_view text, F &&f)
{
    forEachLine(text, [&](std::string_view line) {
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos)
            return;
        f(trim(line.substr(0, colon)), trim(line.substr(colon + 1)));
    });
}

std::optional<std::uint64_t> readSysfsNumber(const fs::path &path)
{
    return parseSysfsNumber(readTextFile(path));
}

std::string readSysfsText(const fs::path &path)
{
    return parseSysfsText(readTextFile(path));
}

} // namespace

// ---------------------------------------------------------------- pure parsers

std::string parseOsRelease(std::string_view text)
{
    std::string pretty, name, version;
    forEachLine(text, [&](std::string_view line) {
        line = trim(line);
        if (line.empty() || line.front() == '#')
            return;
        const std::size_t eq = line.find('=');
        if (eq == std::string_view::npos)
            return;
        const std::string_view key = trim(line.substr(0, eq));
        if (key == "PRETTY_NAME")
            pretty = unquoteShell(line.substr(eq + 1));
        else if (key == "NAME")
            name = unquoteShell(line.substr(eq + 1));
        else if (key == "VERSION")
            version = unquoteShell(line.substr(eq + 1));
    });
    if (!pretty.empty())
        return pretty;
    if (!name.empty() && !version.empty())
        return name + " " + version;
    return name;
}

std::string parseCpuModel(std::string_view text)
{
    // In order of preference: the first one present wins.
    static constexpr std::string_view kKeys[]
        = {"model name", "Model", "Hardware", "cpu model", "cpu"};
    std::string found[std::size(kKeys)];
    forEachCpuInfoField(text, [&](std::string_view key, std::string_view value) {
        for (std::size_t i = 0; i < std::size(kKeys); ++i)
            if (key == kKeys[i] && found[i].empty())
                found[i] = std::string(value);
    });
    for (const auto &model : found)
        if (!model.empty())
            return model;
    return {};
}

std::uint32_t parseCpuInfoProcessorCount(std::string_view text)
{
    std::uint32_t count = 0;
    forEachCpuInfoField(text, [&](std::string_view key, std::string_view) {
        if (key == "processor")
            ++count;
    });
    return count;
}

std::string parseSysfsText(std::string_view text)
{
    return std::string(trim(text));
}

std::optional<std::uint64_t> parseSysfsNumber(std::string_view text)
{
    text = trim(text);
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return value;
}

// ---------------------------------------------------------------- live system

core::Environment describeEnvironment()
{
    core::Environment env;
    struct utsname u {
    };
    if (::uname(&u) == 0) {
        env.hostName = u.nodename;
        env.kernel = u.release;
    }
    env.osName = parseOsRelease(readTextFile("/etc/os-release"));
    if (env.osName.empty())
        env.osName = parseOsRelease(readTextFile("/usr/lib/os-release"));
    if (env.osName.empty() && u.sysname[0] != '\0')
        env.osName = u.sysname;

    const std::string cpuinfo = readTextFile("/proc/cpuinfo");
    env.cpuModel = parseCpuModel(cpuinfo);
    const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
    env.cpuCount
        = online > 0 ? static_cast<std::uint32_t>(online) : parseCpuInfoProcessorCount(cpuinfo);
    return env;
}

core::DeviceFacts describeDevice(const std::string &targetPath)
{
    core::DeviceFacts facts;
    facts.path = targetPath;

    const std::optional<std::string> name = blockDeviceCarrying(targetPath);
    if (!name)
        return facts;

    facts.name = *name;
    const fs::path self = fs::path("/sys/class/block") / *name;
    facts.sizeBytes = readSysfsNumber(self / "size").value_or(0) * 512; // always 512-byte units

    const std::string disk = wholeDiskOf(*name).value_or(*name);
    const fs::path dir = fs::path("/sys/block") / disk;
    facts.model = deviceModelOf(disk);
    facts.rotational = readSysfsNumber(dir / "queue/rotational").value_or(0) != 0;
    facts.scheduler = parseActiveScheduler(readTextFile(dir / "queue/scheduler"));
    facts.logicalSectorBytes
        = static_cast<std::uint32_t>(readSysfsNumber(dir / "queue/logical_block_size").value_or(0));
    facts.physicalSectorBytes = static_cast<std::uint32_t>(
        readSysfsNumber(dir / "queue/physical_block_size").value_or(0));
    facts.nrRequests
        = static_cast<std::uint32_t>(readSysfsNumber(dir / "queue/nr_requests").value_or(0));
    facts.writeCache = readSysfsText(dir / "queue/write_cache");
    return facts;
}

void nameCurrentThread(const char *name)
{
    // At most 15 characters; a longer name is refused (ERANGE) and the thread keeps the
    // process's, which only loses the latency verdict its facts about this thread.
    ::pthread_setname_np(::pthread_self(), name);
}

std::uint64_t currentProcessId()
{
    return static_cast<std::uint64_t>(::getpid());
}

bool fileReadableByOthers(const std::string &path)
{
    std::error_code ec;
    const auto perms = fs::status(path, ec).permissions();
    return !ec && (perms & (fs::perms::group_read | fs::perms::others_read)) != fs::perms::none;
}

} // namespace ioprism::platform
