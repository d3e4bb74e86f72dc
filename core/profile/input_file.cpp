// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/input_file.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <fmt/format.h>
#include <fstream>
#include <system_error>

namespace ioprism::core {

namespace {

Problem error(std::string message)
{
    return {Severity::Error, {}, std::move(message)};
}

std::string cannotRead(const std::filesystem::path &path, std::error_code ec)
{
    return "cannot read " + path.string() + ": " + ec.message();
}

std::string_view typeName(std::filesystem::file_type type)
{
    switch (type) {
    case std::filesystem::file_type::block:
        return "a block device";
    case std::filesystem::file_type::character:
        return "a character device";
    case std::filesystem::file_type::fifo:
        return "a FIFO (named pipe)";
    case std::filesystem::file_type::socket:
        return "a socket";
    default:
        return "not a regular file";
    }
}

// "1.0 GiB is larger than the 4 MiB limit for profiles"; the exact size is added when
// one decimal would hide that it is over the limit (4 MiB + 1 byte reads "4.0 MiB").
std::string tooLarge(std::uint64_t size, std::uint64_t maxBytes, std::string_view kindPlural)
{
    std::string shown = describeSize(size);
    if (size - maxBytes <= maxBytes / 20 && shown != fmt::format("{} bytes", size))
        shown += fmt::format(" ({} bytes)", size);
    return fmt::format(
        "{} is larger than the {} limit for {}", shown, describeSize(maxBytes), kindPlural);
}

} // namespace

std::optional<std::string> readAtMost(std::istream &in, std::uint64_t maxBytes)
{
    std::string text;
    std::array<char, std::size_t {64} * 1024> chunk {};
    // One byte more than allowed tells "exactly the limit" from "over it" (no limit at
    // all when maxBytes is the largest value: then + 1 would wrap to reading nothing).
    std::uint64_t wanted = maxBytes == UINT64_MAX ? maxBytes : maxBytes + 1;
    while (wanted > 0 && in) {
        const auto n = static_cast<std::streamsize>(
            std::min<std::uint64_t>(wanted, static_cast<std::uint64_t>(chunk.size())));
        in.read(chunk.data(), n);
        const auto got = in.gcount();
        text.append(chunk.data(), static_cast<std::size_t>(got));
        wanted -= static_cast<std::uint64_t>(got);
    }
    if (in.bad() || text.size() > maxBytes)
        return std::nullopt;
    return text;
}

InputFileText readInputFile(
    const std::filesystem::path &path, std::uint64_t maxBytes, std::string_view kindPlural)
{
    namespace fs = std::filesystem;
    InputFileText result;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (status.type() == fs::file_type::not_found) {
        result.problem = error(
            cannotRead(path, ec ? ec : std::make_error_code(std::errc::no_such_file_or_directory)));
        return result;
    }
    if (ec) {
        result.problem = error(cannotRead(path, ec));
        return result;
    }
    if (status.type() == fs::file_type::directory) {
        result.problem = error("is a directory, not a file");
        return result;
    }
    if (status.type() != fs::file_type::regular) {
        result.problem
            = error(fmt::format("is {}; only regular files are read", typeName(status.type())));
        return result;
    }
    const std::uintmax_t size = fs::file_size(path, ec);
    if (!ec && size > maxBytes) {
        result.problem = error(tooLarge(size, maxBytes, kindPlural));
        return result;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        result.problem = error(cannotRead(path, std::error_code(errno, std::generic_category())));
        return result;
    }
    auto text = readAtMost(in, maxBytes);
    if (!text) {
        result.problem = in.bad()
            ? error(cannotRead(path, std::make_error_code(std::errc::io_error)))
            : error(fmt::format("is larger than the {} limit for {} (it grew while being read)",
                describeSize(maxBytes), kindPlural));
        return result;
    }
    result.text = std::move(*text);
    return result;
}

} // namespace ioprism::core
