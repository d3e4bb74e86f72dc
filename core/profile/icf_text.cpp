// SPDX-License-Identifier: GPL-3.0-or-later
// Text helpers, lines and keywords of the .icf reader and writer (icf_internal.h).
#include "core/profile/icf_internal.h"

#include <algorithm>
#include <fmt/format.h>

namespace ioprism::core::icf_detail {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

bool equalsNoCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (toLowerAscii(a[i]) != toLowerAscii(b[i]))
            return false;
    return true;
}

bool startsWithNoCase(std::string_view s, std::string_view prefix)
{
    return s.size() >= prefix.size() && equalsNoCase(s.substr(0, prefix.size()), prefix);
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool allDigits(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return isDigit(c); });
}

bool isValidUtf8(std::string_view s)
{
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t extra = 0;
        if (c < 0x80)
            extra = 0;
        else if ((c & 0xE0) == 0xC0 && c >= 0xC2)
            extra = 1;
        else if ((c & 0xF0) == 0xE0)
            extra = 2;
        else if ((c & 0xF8) == 0xF0 && c <= 0xF4)
            extra = 3;
        else
            return false;
        if (i + extra >= s.size())
            return false;
        for (std::size_t k = 1; k <= extra; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
                return false;
        i += extra + 1;
    }
    return true;
}

// The text in quotes for a message: escaped, shortened, safe to show whatever the input.
std::string quote(std::string_view s)
{
    constexpr std::size_t kMaxShown = 60;
    const bool utf8 = isValidUtf8(s);
    std::string out = "\"";
    std::size_t shown = 0;
    for (const char ch : s) {
        if (shown++ == kMaxShown) {
            out += "...";
            break;
        }
        const auto c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += ch;
        } else if (c < 0x20 || c == 0x7F || (c >= 0x80 && !utf8)) {
            out += fmt::format("\\x{:02x}", c);
        } else {
            out += ch;
        }
    }
    out += '"';
    return out;
}

// Header comparison ignores case, runs of whitespace and spaces next to commas, so that
// "'Manager ID, manager name" and "'manager id,manager name" are the same keyword.
std::string normalizeHeader(std::string_view text)
{
    std::string out;
    bool pendingSpace = false;
    for (const char c : text) {
        if (isSpace(c)) {
            pendingSpace = !out.empty();
            continue;
        }
        if (c == ',') {
            pendingSpace = false;
            out += ',';
            continue;
        }
        if (pendingSpace && out.back() != ',')
            out += ' ';
        pendingSpace = false;
        out += toLowerAscii(c);
    }
    return out;
}

// Values are separated by commas and/or whitespace; empty fields are not values.
std::vector<std::string_view> splitValues(std::string_view s)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ',' || isSpace(s[i])))
            ++i;
        const std::size_t start = i;
        while (i < s.size() && s[i] != ',' && !isSpace(s[i]))
            ++i;
        if (i > start)
            out.push_back(s.substr(start, i - start));
    }
    return out;
}

// Iometer reads a ' only in the first column. Leading spaces are forgiven for hand-made
// files, but a tab always starts a value, so a description "'quoted'" stays a value.
bool startsHeader(std::string_view raw)
{
    std::size_t i = 0;
    while (i < raw.size() && raw[i] == ' ')
        ++i;
    return i < raw.size() && raw[i] == '\'';
}

std::vector<Line> splitLines(std::string_view text)
{
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    std::vector<Line> lines;
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t j = i;
        while (j < text.size() && text[j] != '\n' && text[j] != '\r')
            ++j;
        const std::string_view raw = text.substr(i, j - i);
        Line line;
        line.number = lines.size() + 1;
        line.text = trim(raw);
        line.header = startsHeader(raw);
        line.blank = line.text.empty();
        lines.push_back(line);
        if (j < text.size() && text[j] == '\r' && j + 1 < text.size() && text[j + 1] == '\n')
            j += 2;
        else
            j += 1;
        i = j;
    }
    return lines;
}

bool isVersionLine(const Line &l)
{
    if (l.header || !startsWithNoCase(l.text, "version"))
        return false;
    return l.text.size() == 7 || isSpace(l.text[7]) || isDigit(l.text[7]);
}

// The runs of digits in a line: Iometer's GetVersion (ICF_ifstream.cpp) takes the first
// three as the version, whatever stands around them ("Version 1.1.0", "1998.10.08").
std::vector<std::uint64_t> digitRuns(std::string_view text)
{
    std::vector<std::uint64_t> runs;
    std::size_t i = 0;
    while (i < text.size()) {
        if (!isDigit(text[i])) {
            ++i;
            continue;
        }
        // Capped so that major * 10^10 below cannot wrap; no release comes near.
        constexpr std::uint64_t kMaxPart = 999999;
        std::uint64_t v = 0;
        for (; i < text.size() && isDigit(text[i]); ++i)
            v = std::min<std::uint64_t>(v * 10 + std::uint64_t(text[i] - '0'), kMaxPart);
        runs.push_back(v);
    }
    return runs;
}

// A first line without the word "Version" that GetVersion still reads: any value line
// holding three whole numbers. Only the first and the last line of a file are taken so,
// since a value line like the run time "0 1 30" holds three numbers too.
bool isBareVersionLine(const Line &l)
{
    return !l.header && !l.blank && digitRuns(l.text).size() >= 3;
}

// The version number as GetVersion makes it: a date 1998.10.08 is 19981008; 1.1.0 and
// later are major * 10^10 + middle * 10^5 + minor, so above every date. GetVersion's
// special case for the "3.26.97" of the OLTP file shipped with 1998.01.05 (32697 counts
// as 19980105) is kept, but since 1.1.0 that file reads as 3 * 10^10 + ..., a new-format
// file, and so it does here (Iometer's own compatibility fixture oltp_32697 says so).
std::uint64_t iometerVersion(const std::vector<std::uint64_t> &runs)
{
    const std::uint64_t major = runs.at(0), middle = runs.at(1), minor = runs.at(2);
    const std::uint64_t v = major > 1900 ? major * 10000 + middle * 100 + minor
                                         : major * 10000000000ull + middle * 100000 + minor;
    return v == 32697 ? 19980105 : v;
}

// Headers Iometer writes under a keyword to label columns ("'\thours   minutes ...").
bool isColumnComment(const Line &l)
{
    return l.text.size() > 1 && isSpace(l.text[1]);
}

SectionId sectionOf(const Line &l)
{
    if (!l.header)
        return SectionId::None;
    std::string k = normalizeHeader(l.text);
    while (!k.empty() && (k.back() == '=' || k.back() == ' '))
        k.pop_back();
    if (k == "'test setup")
        return SectionId::TestSetup;
    if (k == "'results display")
        return SectionId::ResultsDisplay;
    if (k == "'access specifications")
        return SectionId::AccessSpecs;
    if (k == "'manager list")
        return SectionId::ManagerList;
    return SectionId::None;
}

// A top-level ' line that looks like a section title: upper-case words then '='s.
bool looksLikeSectionTitle(const Line &l)
{
    return l.header && l.text.find("==") != l.text.npos;
}

// Whether a header is a keyword (or an END) rather than a comment labelling columns.
bool isKeyword(const Line &l)
{
    static constexpr std::array<std::string_view, 30> kKeywords = {
        kw::description,
        kw::runTime,
        kw::legacyWorkers,
        kw::diskWorkers,
        kw::networkWorkers,
        kw::recordResults,
        kw::workerCycling,
        kw::diskCycling,
        kw::queueCycling,
        kw::testType,
        kw::specName,
        kw::manager,
        kw::networkAddress,
        kw::worker,
        kw::workerType,
        kw::defaults,
        kw::queueOld,
        kw::queueNew,
        kw::diskOld,
        kw::diskNew,
        kw::diskRandom,
        kw::localInterface,
        kw::viOutstanding,
        kw::assigned,
        kw::targets,
        kw::target,
        kw::targetType,
        kw::targetManager,
        kw::rampUpPrefix,
        kw::endTarget,
    };
    if (!l.header)
        return false;
    const std::string k = normalizeHeader(l.text);
    if (k.starts_with("'end") || k.starts_with(kw::rampUpPrefix))
        return true;
    return std::find(kKeywords.begin(), kKeywords.end(), k) != kKeywords.end();
}

} // namespace ioprism::core::icf_detail
