// SPDX-License-Identifier: GPL-3.0-or-later
// Reading the kernel's text files (sysfs, procfs): the one reader the Linux backend
// uses, so that the device listing, the safety checks, the counters, the io_poll check
// and the environment description read the same attribute the same way.
//
// Never throws: a missing or unreadable file reads as "" (or nullopt for a number).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ioprism::platform {

// The whole file.
std::string readTextFile(const std::filesystem::path &path);
// The file without leading and trailing white space (one sysfs value).
std::string readAttribute(const std::filesystem::path &path);
// A decimal number attribute; nullopt when missing or not a number.
std::optional<std::uint64_t> readNumberAttribute(const std::filesystem::path &path);

template<typename T> T readNumber(const std::filesystem::path &path, T fallback = 0)
{
    const auto value = readNumberAttribute(path);
    return value ? static_cast<T>(*value) : fallback;
}

// An attribute of a block device's request queue (/sys/class/block/NAME/queue/...): a
// partition has none of its own, so its whole disk's is read.
std::string readQueueAttribute(const std::string &name, std::string_view attribute);

} // namespace ioprism::platform
