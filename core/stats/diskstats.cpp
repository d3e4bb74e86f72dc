// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/diskstats.h"

#include <array>
#include <charconv>

namespace ioprism::core {

namespace {

bool isWhitespace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The next whitespace-separated word of `text`, consumed; "" at the end.
std::string_view nextWord(std::string_view &text)
{
    std::size_t i = 0;
    while (i < text.size() && isWhitespace(text[i]))
        ++i;
    std::size_t j = i;
    while (j < text.size() && !isWhitespace(text[j]))
        ++j;
    const std::string_view word = text.substr(i, j - i);
    text.remove_prefix(j);
    return word;
}

template<typename T> bool toNumber(std::string_view word, T &out)
{
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), out);
    return ec == std::errc() && end == word.data() + word.size();
}

} // namespace

std::optional<DiskCounters> parseDiskStatFields(std::string_view text)
{
    constexpr std::size_t kMaxFields = 17;
    std::array<std::uint64_t, kMaxFields> v {};
    std::size_t n = 0;
    for (std::string_view word = nextWord(text); !word.empty(); word = nextWord(text)) {
        std::uint64_t value = 0;
        if (!toNumber(word, value))
            return std::nullopt;
        if (n < kMaxFields)
            v[n] = value;
        ++n; // fields beyond the known ones are counted, not kept
    }
    DiskCounters c;
    if (n == 4) {
        // Old partition layout: no merges, no times.
        c.readIos = v[0];
        c.readSectors = v[1];
        c.writeIos = v[2];
        c.writeSectors = v[3];
        c.fieldCount = 4;
        return c;
    }
    if (n < 11)
        return std::nullopt;
    c.readIos = v[0];
    c.readMerges = v[1];
    c.readSectors = v[2];
    c.readTicksMs = v[3];
    c.writeIos = v[4];
    c.writeMerges = v[5];
    c.writeSectors = v[6];
    c.writeTicksMs = v[7];
    c.inFlight = v[8];
    c.ioTicksMs = v[9];
    c.weightedTicksMs = v[10];
    c.fieldCount = 11;
    if (n >= 15) {
        c.discardIos = v[11];
        c.discardMerges = v[12];
        c.discardSectors = v[13];
        c.discardTicksMs = v[14];
        c.fieldCount = 15;
    }
    if (n >= 17) {
        c.flushIos = v[15];
        c.flushTicksMs = v[16];
        c.fieldCount = 17;
    }
    return c;
}

std::optional<DiskstatsLine> parseDiskstatsLine(std::string_view line)
{
    DiskstatsLine out;
    if (!toNumber(nextWord(line), out.major) || !toNumber(nextWord(line), out.minor))
        return std::nullopt;
    out.name = nextWord(line);
    if (out.name.empty())
        return std::nullopt;
    auto counters = parseDiskStatFields(line);
    if (!counters)
        return std::nullopt;
    out.counters = *counters;
    return out;
}

namespace {

template<typename F> void forEachLine(std::string_view text, F &&f)
{
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        if (f(text.substr(0, nl)))
            return;
        if (nl == std::string_view::npos)
            return;
        text.remove_prefix(nl + 1);
    }
}

} // namespace

std::vector<DiskstatsEntry> parseDiskstats(std::string_view text)
{
    std::vector<DiskstatsEntry> entries;
    forEachLine(text, [&](std::string_view line) {
        if (auto l = parseDiskstatsLine(line))
            entries.push_back({l->major, l->minor, std::string(l->name), l->counters});
        return false;
    });
    return entries;
}

std::optional<DiskCounters> findInDiskstats(std::string_view text, std::string_view name)
{
    std::optional<DiskCounters> found;
    forEachLine(text, [&](std::string_view line) {
        // Cheap test first: the name must appear on the line at all.
        if (line.find(name) == std::string_view::npos)
            return false;
        if (auto l = parseDiskstatsLine(line); l && l->name == name) {
            found = l->counters;
            return true;
        }
        return false;
    });
    return found;
}

std::optional<std::uint64_t> parseProcIoReadBytes(std::string_view text)
{
    std::optional<std::uint64_t> found;
    forEachLine(text, [&](std::string_view line) {
        constexpr std::string_view kKey = "read_bytes:";
        if (!line.starts_with(kKey))
            return false;
        line.remove_prefix(kKey.size());
        std::uint64_t value = 0;
        if (toNumber(nextWord(line), value) && nextWord(line).empty())
            found = value;
        return true;
    });
    return found;
}

} // namespace ioprism::core
