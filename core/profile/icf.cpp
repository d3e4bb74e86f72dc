// SPDX-License-Identifier: GPL-3.0-or-later
// Iometer .icf import and export. The keywords and layouts follow what Iometer's own
// reader accepts and its writer produces (CPageSetup, AccessSpecList, Manager and
// Worker SaveConfig/LoadConfig in Iometer 1.1.0 and 2006.07.27); docs/icf.md lists them.
#include "core/profile/icf.h"

#include "core/profile/names.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <exception>
#include <fmt/format.h>
#include <limits>
#include <utility>
#include <vector>

namespace ioprism::core {
namespace {

// Iometer keeps most numbers in a C `int`: larger values do not survive its reader.
constexpr std::uint64_t kIntMax = 2147483647;
constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kMaxSectors = kU64Max / kIcfSectorBytes;
// After this many errors the rest of the file is not worth reading (binary garbage).
constexpr std::size_t kMaxErrors = 50;
constexpr std::string_view kVersionLine = "Version 1.1.0 ";
// Section title lines are padded with '=' to this width, as Iometer writes them.
constexpr std::size_t kTitleWidth = 80;

// ------------------------------------------------------------------ text helpers

constexpr char toLowerAscii(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

constexpr bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

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

// ------------------------------------------------------------------ lines

struct Line {
    std::size_t number = 0;
    std::string_view text; // surrounding whitespace removed
    bool header = false; // a ' line (Iometer calls them comments)
    bool blank = false;
};

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

// Access specifications have names, alignment and reply since Iometer 1998.05.21; older
// files list nameless lines (AccessSpecList::LoadConfig picks the reader by version).
constexpr std::uint64_t kFirstNamedSpecsVersion = 19980521;

// Headers Iometer writes under a keyword to label columns ("'\thours   minutes ...").
bool isColumnComment(const Line &l)
{
    return l.text.size() > 1 && isSpace(l.text[1]);
}

enum class SectionId { None, TestSetup, ResultsDisplay, AccessSpecs, ManagerList };

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

// ------------------------------------------------------------------ keywords

namespace kw {
constexpr std::string_view endTestSetup = "'end test setup";
constexpr std::string_view endResultsDisplay = "'end results display";
constexpr std::string_view endAccessSpecs = "'end access specifications";
constexpr std::string_view endManagerList = "'end manager list";
constexpr std::string_view endManager = "'end manager";
constexpr std::string_view endWorker = "'end worker";
constexpr std::string_view endDefaults = "'end default target settings for worker";
constexpr std::string_view endAssigned = "'end assigned access specs";
constexpr std::string_view endTargets = "'end target assignments";
constexpr std::string_view endTarget = "'end target";

constexpr std::string_view description = "'test description";
constexpr std::string_view runTime = "'run time";
constexpr std::string_view rampUpPrefix = "'ramp up time";
constexpr std::string_view legacyWorkers = "'default workers to spawn";
constexpr std::string_view diskWorkers = "'default disk workers to spawn";
constexpr std::string_view networkWorkers = "'default network workers to spawn";
constexpr std::string_view recordResults = "'record results";
constexpr std::string_view workerCycling = "'worker cycling";
constexpr std::string_view diskCycling = "'disk cycling";
constexpr std::string_view queueCycling = "'queue depth cycling";
constexpr std::string_view testType = "'test type";

constexpr std::string_view specName = "'access specification name,default assignment";
// Before 1998.05.21: no name, alignment or reply (AccessSpecList::LoadConfigOld).
constexpr std::string_view oldSpecColumns = "'size,% of size,% reads,% random,delay,burst";

constexpr std::string_view manager = "'manager id,manager name";
constexpr std::string_view networkAddress = "'manager network address";
constexpr std::string_view worker = "'worker";
constexpr std::string_view workerType = "'worker type";
constexpr std::string_view defaults = "'default target settings for worker";
constexpr std::string_view queueOld
    = "'number of outstanding ios,test connection rate,transactions per connection";
constexpr std::string_view queueNew = "'number of outstanding ios,test connection rate,"
                                      "transactions per connection,use fixed seed,fixed seed value";
constexpr std::string_view diskOld = "'disk maximum size,starting sector";
constexpr std::string_view diskNew = "'disk maximum size,starting sector,data pattern";
// Seen in generated files for pre-1.1.0 development builds: 0 = the old pseudo-random
// buffer, 1 = random data (read as full random).
constexpr std::string_view diskRandom = "'disk maximum size,starting sector,use random data";
constexpr std::string_view localInterface = "'local network interface";
constexpr std::string_view viOutstanding = "'vi outstanding ios";
constexpr std::string_view assigned = "'assigned access specs";
constexpr std::string_view targets = "'target assignments";
constexpr std::string_view target = "'target";
constexpr std::string_view targetType = "'target type";
constexpr std::string_view targetManager = "'target manager id,manager name";
} // namespace kw

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

// Iometer's keyword tables, in the order of its enums (so the legacy integer forms map
// by index).
constexpr std::array<std::string_view, 8> kTestTypeNames = {
    "NORMAL",
    "CYCLE_TARGETS",
    "CYCLE_WORKERS",
    "INCREMENT_TARGETS_PARALLEL",
    "INCREMENT_TARGETS_SERIAL",
    "CYCLE_WORKERS_AND_TARGETS",
    "CYCLE_OUTSTANDING_IOS",
    "CYCLE_OUTSTANDING_IOS_AND_TARGETS",
};
constexpr std::array<TestType, 8> kTestTypes = {
    TestType::Normal,
    TestType::CycleTargets,
    TestType::CycleWorkers,
    TestType::IncrementTargetsParallel,
    TestType::IncrementTargetsSerial,
    TestType::CycleWorkersAndTargets,
    TestType::CycleOutstandingIos,
    TestType::CycleOutstandingIosAndTargets,
};

constexpr std::array<std::string_view, 5> kRecordNames
    = {"ALL", "NO_TARGETS", "NO_WORKERS", "NO_MANAGERS", "NONE"};

constexpr std::array<std::string_view, 4> kAssignmentNames = {"NONE", "ALL", "DISK", "NET"};
constexpr std::array<SpecAssignment, 4> kAssignments
    = {SpecAssignment::None, SpecAssignment::All, SpecAssignment::Disk, SpecAssignment::Network};

template<std::size_t N>
std::optional<std::size_t> indexOfNoCase(
    const std::array<std::string_view, N> &names, std::string_view token)
{
    for (std::size_t i = 0; i < N; ++i)
        if (equalsNoCase(names[i], token))
            return i;
    return std::nullopt;
}

template<std::size_t N> std::string joinNames(const std::array<std::string_view, N> &names)
{
    std::string out;
    for (const auto n : names) {
        if (!out.empty())
            out += ", ";
        out += n;
    }
    return out;
}

// ------------------------------------------------------------------ target names

// Linux partitions: sdb1, hda2, vda3, xvda1 and nvme0n1p2, mmcblk0p1, loop0p1, md0p1.
bool isPartitionName(std::string_view d)
{
    if (d.empty() || !isDigit(d.back()))
        return false;
    std::size_t end = d.size();
    while (end > 0 && isDigit(d[end - 1]))
        --end; // d[end..] is the trailing number
    if (end >= 2 && d[end - 1] == 'p' && isDigit(d[end - 2]))
        return true;
    for (const std::string_view prefix : {"sd", "hd", "vd", "xvd"}) {
        if (d.size() > prefix.size() && d.substr(0, prefix.size()) == prefix) {
            const std::string_view letters = d.substr(prefix.size(), end - prefix.size());
            if (!letters.empty() && std::all_of(letters.begin(), letters.end(), [](char c) {
                    return c >= 'a' && c <= 'z';
                }))
                return true;
        }
    }
    return false;
}

bool isDriveLetterName(std::string_view t)
{
    return t.size() >= 2 && ((t[0] >= 'A' && t[0] <= 'Z') || (t[0] >= 'a' && t[0] <= 'z'))
        && t[1] == ':';
}

// `1: "ATA Model Rev"`: Iometer's newer Windows disk view of a physical drive.
bool isNumberedDriveName(std::string_view t)
{
    std::size_t i = 0;
    while (i < t.size() && isDigit(t[i]))
        ++i;
    return i > 0 && i < t.size() && t[i] == ':' && (i + 1 == t.size() || isSpace(t[i + 1]));
}

// Linux logical disks are reported as "<mount point> [<file system type>]".
bool isMountName(std::string_view t)
{
    const auto open = t.rfind(" [");
    return !t.empty() && t.back() == ']' && open != t.npos && open > 0;
}

// Whether Iometer itself could have reported this name for a test-file (logical) disk.
bool isIometerVolumeName(std::string_view t)
{
    return isDriveLetterName(t) || isMountName(t) || t.substr(0, 2) == "\\\\";
}

// ------------------------------------------------------------------ the parser

struct Block {
    std::string_view title; // for messages: "TEST SETUP section", "worker"
    std::size_t line = 0; // where it starts
    std::string_view endKey; // normalized
    std::string_view endText; // as Iometer writes it
};

class Parser
{
public:
    Parser(std::string_view text, Problems &problems)
        : m_lines(splitLines(text))
        , m_problems(problems)
    { }

    std::optional<Profile> run()
    {
        try {
            parseFile();
        } catch (const Stop &) {
            // The structural error is already reported.
        } catch (const std::exception &e) {
            report(Severity::Error, 0, fmt::format("cannot read the file: {}", e.what()));
        } catch (...) {
            report(Severity::Error, 0, "cannot read the file");
        }
        if (m_hasErrors)
            return std::nullopt;
        return std::move(m_profile);
    }

private:
    struct Stop {
    };

    // RAII: the blocks being read, innermost last, so that an END of an outer block seen
    // early is reported as the inner block's missing END.
    class OpenBlock
    {
    public:
        OpenBlock(Parser &p, const Block &b)
            : m_parser(p)
        {
            m_parser.m_open.push_back(&b);
        }
        ~OpenBlock() { m_parser.m_open.pop_back(); }
        OpenBlock(const OpenBlock &) = delete;
        OpenBlock &operator=(const OpenBlock &) = delete;

    private:
        Parser &m_parser;
    };

    // ---- reporting

    void report(Severity severity, std::size_t line, std::string message)
    {
        const std::string path = line > 0 ? fmt::format("line {}", line) : std::string();
        m_problems.push_back({severity, path, std::move(message)});
        if (severity == Severity::Error) {
            m_hasErrors = true;
            if (++m_errorCount >= kMaxErrors) {
                m_problems.push_back({Severity::Error, path,
                    fmt::format("{} errors; the rest of the file is not read", kMaxErrors)});
                throw Stop {};
            }
        }
    }
    void error(std::size_t line, std::string message)
    {
        report(Severity::Error, line, std::move(message));
    }
    void warning(std::size_t line, std::string message)
    {
        report(Severity::Warning, line, std::move(message));
    }
    [[noreturn]] void stop(std::size_t line, std::string message)
    {
        error(line, std::move(message));
        throw Stop {};
    }

    // ---- the cursor

    bool atEnd() const { return m_pos >= m_lines.size(); }
    const Line &peek() const { return m_lines[m_pos]; }
    const Line &take() { return m_lines[m_pos++]; }
    void skipBlank()
    {
        while (!atEnd() && peek().blank)
            ++m_pos;
    }
    std::size_t lastLine() const { return m_lines.empty() ? 1 : m_lines.back().number; }

    [[noreturn]] void stopUnclosed(const Block &b, const Line *at)
    {
        if (at == nullptr)
            stop(lastLine(),
                fmt::format("the file ends inside the {} started on line {}: "
                            "missing \"{}\" (file truncated?)",
                    b.title, b.line, b.endText));
        stop(at->number,
            fmt::format(
                "missing \"{}\" for the {} started on line {}", b.endText, b.title, b.line));
    }

    // The next ' line of block `b`. Value lines where a header belongs are reported and
    // skipped; the end of the file, a section title, a Version line or the END of an
    // enclosing block mean `b` was never closed.
    const Line &nextHeader(const Block &b)
    {
        for (;;) {
            skipBlank();
            if (atEnd())
                stopUnclosed(b, nullptr);
            const Line &l = peek();
            if (isVersionLine(l))
                stopUnclosed(b, &l);
            if (!l.header) {
                error(l.number,
                    fmt::format("unexpected value line {} in the {}; expected a ' "
                                "line",
                        quote(l.text), b.title));
                ++m_pos;
                continue;
            }
            if (sectionOf(l) != SectionId::None)
                stopUnclosed(b, &l);
            const std::string k = normalizeHeader(l.text);
            for (const Block *outer : m_open)
                if (outer != &b && k == outer->endKey)
                    stopUnclosed(b, &l);
            return take();
        }
    }

    // The value line under `header`, even when blank; nullptr (reported) when the next
    // line is a keyword. Comment lines between the two (column labels) are skipped, as
    // Iometer does; unlike Iometer, a keyword is never taken for a comment, so a missing
    // value is reported instead of shifting every value after it.
    const Line *value(const Line &header)
    {
        while (
            !atEnd() && peek().header && !isKeyword(peek()) && sectionOf(peek()) == SectionId::None)
            ++m_pos;
        if (!atEnd() && !peek().header && !isVersionLine(peek()))
            return &take();
        error(header.number, fmt::format("{} has no value line", quote(header.text)));
        return nullptr;
    }

    // Skips the value lines of an unknown keyword.
    void skipValues()
    {
        while (!atEnd() && !peek().header && !isVersionLine(peek()))
            ++m_pos;
    }

    void unknownKeyword(const Line &h, const Block &b)
    {
        error(h.number, fmt::format("unknown keyword {} in the {}", quote(h.text), b.title));
        skipValues();
    }

    // ---- values

    bool expectCount(const Line &l, const std::vector<std::string_view> &values, std::size_t count,
        std::string_view names)
    {
        if (values.size() == count)
            return true;
        error(l.number,
            fmt::format("expected {} value{} ({}), got {}", count, count == 1 ? "" : "s", names,
                values.size()));
        return false;
    }

    // The six values every access-spec line starts with, in both of Iometer's formats
    // (size, % of size, % reads, % random, delay, burst), as a line; nullopt when one is
    // not a number in its range (each reported). `*share` is the % of size as read.
    std::optional<SpecLine> specLineStart(
        const Line &d, const std::vector<std::string_view> &t, std::uint64_t *share)
    {
        const auto size = number(d, t[0], kIntMax, "size");
        const auto shareRead = number(d, t[1], 100, "% of size");
        const auto reads = number(d, t[2], 100, "% reads");
        const auto random = number(d, t[3], 100, "% random");
        const auto delay = number(d, t[4], kIntMax, "delay");
        const auto burst = number(d, t[5], kIntMax, "burst");
        if (!(size && shareRead && reads && random && delay && burst))
            return std::nullopt;
        *share = *shareRead;
        SpecLine line;
        line.transferSizeBytes = *size;
        line.sharePercent = static_cast<std::uint32_t>(*shareRead);
        line.percentRead = static_cast<std::uint32_t>(*reads);
        line.percentRandom = static_cast<std::uint32_t>(*random);
        line.delay = std::chrono::milliseconds(static_cast<std::int64_t>(*delay));
        line.burstLength = static_cast<std::uint32_t>(*burst);
        return line;
    }

    // A whole decimal number in [0, max]; nullopt (reported) otherwise.
    std::optional<std::uint64_t> number(
        const Line &l, std::string_view token, std::uint64_t max, std::string_view what)
    {
        std::string_view digits = token;
        bool negative = false;
        if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) {
            negative = digits.front() == '-';
            digits.remove_prefix(1);
        }
        if (!allDigits(digits)) {
            error(l.number, fmt::format("{}: {} is not a whole number", what, quote(token)));
            return std::nullopt;
        }
        std::uint64_t v = 0;
        bool tooLarge = false;
        for (const char c : digits) {
            const auto d = static_cast<std::uint64_t>(c - '0');
            if (v > (kU64Max - d) / 10) {
                tooLarge = true;
                break;
            }
            v = v * 10 + d;
        }
        if (negative && (v != 0 || tooLarge)) {
            error(l.number, fmt::format("{}: {} is negative", what, token.substr(0, 40)));
            return std::nullopt;
        }
        if (tooLarge || v > max) {
            error(l.number,
                fmt::format("{}: {} is too large (at most {})", what, token.substr(0, 40), max));
            return std::nullopt;
        }
        return v;
    }

    std::optional<std::uint32_t> number32(
        const Line &l, std::string_view token, std::uint64_t max, std::string_view what)
    {
        const auto v = number(l, token, std::min(max, kIntMax), what);
        if (!v)
            return std::nullopt;
        return static_cast<std::uint32_t>(*v);
    }

    std::optional<bool> enabled(const Line &l, std::string_view token, std::string_view what)
    {
        if (equalsNoCase(token, "ENABLED"))
            return true;
        if (equalsNoCase(token, "DISABLED"))
            return false;
        error(l.number, fmt::format("{}: {} is not ENABLED or DISABLED", what, quote(token)));
        return std::nullopt;
    }

    std::optional<StepType> stepType(const Line &l, std::string_view token)
    {
        if (equalsNoCase(token, "LINEAR") || token == "0")
            return StepType::Linear;
        if (equalsNoCase(token, "EXPONENTIAL") || token == "1")
            return StepType::Exponential;
        error(l.number, fmt::format("step type: {} is not LINEAR or EXPONENTIAL", quote(token)));
        return std::nullopt;
    }

    // ---- the file

    void parseFile()
    {
        skipBlank();
        bool leadingVersion = false;
        if (!atEnd() && (isVersionLine(peek()) || isBareVersionLine(peek()))) {
            parseVersion(take());
            leadingVersion = true;
        }
        std::size_t lastNonBlank = 0;
        for (const Line &l : m_lines)
            if (!l.blank)
                lastNonBlank = l.number;
        bool trailingVersion = false;
        std::array<std::size_t, 5> seenAt {};
        for (;;) {
            skipBlank();
            if (atEnd())
                break;
            const Line &l = take();
            // A file that opened with a bare version line closes with one too.
            if (isVersionLine(l)
                || (leadingVersion && l.number == lastNonBlank && isBareVersionLine(l))) {
                parseVersion(l);
                trailingVersion = true;
                skipBlank();
                if (!atEnd())
                    error(peek().number, "text after the closing Version line");
                break;
            }
            if (!l.header) {
                error(
                    l.number, fmt::format("unexpected line {} outside any section", quote(l.text)));
                continue;
            }
            const SectionId id = sectionOf(l);
            if (id == SectionId::None) {
                if (looksLikeSectionTitle(l))
                    error(l.number, fmt::format("unknown section {}", quote(l.text)));
                else
                    error(l.number,
                        fmt::format("unknown keyword {} outside any section", quote(l.text)));
                skipToNextSection();
                continue;
            }
            auto &seen = seenAt[static_cast<std::size_t>(id)];
            if (seen != 0)
                error(l.number,
                    fmt::format(
                        "a second {} section (the first is on line {})", quote(l.text), seen));
            seen = l.number;
            switch (id) {
            case SectionId::TestSetup:
                parseTestSetup(l);
                break;
            case SectionId::ResultsDisplay:
                parseResultsDisplay(l);
                break;
            case SectionId::AccessSpecs:
                parseAccessSpecs(l);
                break;
            case SectionId::ManagerList:
                parseManagerList(l);
                break;
            case SectionId::None:
                break;
            }
        }
        if (std::all_of(seenAt.begin(), seenAt.end(), [](std::size_t s) { return s == 0; })) {
            error(lastLine(),
                "not an Iometer configuration file: no TEST SETUP, RESULTS "
                "DISPLAY, ACCESS SPECIFICATIONS or MANAGER LIST section");
            return;
        }
        if (leadingVersion && !trailingVersion)
            error(lastLine(), "the file ends without its closing Version line (file truncated?)");
        assignOldFormatSpecs();
        checkAssignedSpecs();
    }

    void skipToNextSection()
    {
        while (!atEnd() && sectionOf(peek()) == SectionId::None && !isVersionLine(peek()))
            ++m_pos;
    }

    // "Version 1.1.0", a date "Version 2006.07.27" or a bare "1998.10.08": read as
    // Iometer's GetVersion reads them (the first three numbers on the line). Most of what
    // differs between releases is told apart by the header lines themselves; the access
    // specifications' format is chosen by this number, as Iometer chooses it.
    void parseVersion(const Line &l)
    {
        const auto runs = digitRuns(l.text);
        if (runs.size() < 3) {
            error(l.number,
                fmt::format(
                    "{} is not a version line (expected \"Version 1.1.0\")", quote(l.text)));
            return;
        }
        if (!m_version)
            m_version = iometerVersion(runs);
    }

    // ---- TEST SETUP

    void parseTestSetup(const Line &start)
    {
        const Block b {"TEST SETUP section", start.number, kw::endTestSetup, "'END test setup"};
        OpenBlock open(*this, b);
        TestSetup &ts = m_profile.setup;
        for (;;) {
            const Line &h = nextHeader(b);
            const std::string k = normalizeHeader(h.text);
            if (k == b.endKey)
                return;
            if (isColumnComment(h))
                continue;
            if (k == kw::description) {
                if (const Line *v = value(h))
                    ts.description = std::string(v->text);
            } else if (k == kw::runTime) {
                const Line *v = value(h);
                if (!v)
                    continue;
                const auto t = splitValues(v->text);
                if (!expectCount(*v, t, 3, "hours, minutes, seconds"))
                    continue;
                const auto hours = number(*v, t[0], kIntMax, "hours");
                const auto minutes = number(*v, t[1], kIntMax, "minutes");
                const auto seconds = number(*v, t[2], kIntMax, "seconds");
                if (hours && minutes && seconds)
                    ts.runTime = std::chrono::seconds(
                        static_cast<std::int64_t>(*hours * 3600 + *minutes * 60 + *seconds));
            } else if (k.starts_with(kw::rampUpPrefix)) {
                const Line *v = value(h);
                if (!v)
                    continue;
                const auto t = splitValues(v->text);
                if (!expectCount(*v, t, 1, "ramp up seconds"))
                    continue;
                if (const auto s = number(*v, t[0], kIntMax, "ramp up time"))
                    ts.rampUp = std::chrono::seconds(static_cast<std::int64_t>(*s));
            } else if (k == kw::diskWorkers || k == kw::legacyWorkers) {
                const Line *v = value(h);
                if (!v)
                    continue;
                const auto t = splitValues(v->text);
                if (!expectCount(*v, t, 1, "number of workers or NUMBER_OF_CPUS"))
                    continue;
                if (equalsNoCase(t[0], "NUMBER_OF_CPUS")) {
                    ts.defaultDiskWorkers.reset();
                } else if (const auto n = number32(*v, t[0], kIntMax, "disk workers")) {
                    // Before 1999 "number of CPUs" was written as 0.
                    if (k == kw::legacyWorkers && *n == 0)
                        ts.defaultDiskWorkers.reset();
                    else
                        ts.defaultDiskWorkers = *n;
                }
            } else if (k == kw::networkWorkers) {
                const Line *v = value(h);
                if (!v)
                    continue;
                const auto t = splitValues(v->text);
                if (!expectCount(*v, t, 1, "number of workers or NUMBER_OF_CPUS"))
                    continue;
                if (equalsNoCase(t[0], "NUMBER_OF_CPUS")) {
                    ts.defaultNetworkWorkers = 0;
                    warning(v->number,
                        "NUMBER_OF_CPUS network workers cannot be held (IOPrism "
                        "counts network workers only by number); 0 is used");
                } else if (const auto n = number32(*v, t[0], kIntMax, "network workers")) {
                    ts.defaultNetworkWorkers = *n;
                }
            } else if (k == kw::recordResults) {
                parseRecordResults(h);
            } else if (k == kw::workerCycling) {
                parseCycling(h, ts.workerCycling, false);
            } else if (k == kw::diskCycling) {
                parseCycling(h, ts.targetCycling, false);
            } else if (k == kw::queueCycling) {
                parseCycling(h, ts.queueDepthCycling, true);
            } else if (k == kw::testType) {
                const Line *v = value(h);
                if (!v)
                    continue;
                const auto t = splitValues(v->text);
                if (!expectCount(*v, t, 1, "test type"))
                    continue;
                if (const auto i = indexOfNoCase(kTestTypeNames, t[0])) {
                    ts.testType = kTestTypes[*i];
                } else if (allDigits(t[0])) {
                    // Files older than the keywords hold the index.
                    if (const auto n = number(*v, t[0], kTestTypes.size() - 1, "test type"))
                        ts.testType = kTestTypes[*n];
                } else {
                    error(v->number,
                        fmt::format("test type: {} is not one of {}", quote(t[0]),
                            joinNames(kTestTypeNames)));
                }
            } else {
                unknownKeyword(h, b);
            }
        }
    }

    // Iometer's filters and the rows they keep: ALL (everything), NO_TARGETS (no target
    // rows), NO_WORKERS (no worker rows, hence no target rows either), NO_MANAGERS (only
    // the ALL row), NONE. IOPrism's RecordFilter has no "summary only" value, so
    // NO_MANAGERS becomes the nearest filter that records more.
    void parseRecordResults(const Line &h)
    {
        const Line *v = value(h);
        if (!v)
            return;
        const auto t = splitValues(v->text);
        if (!expectCount(*v, t, 1, "record results"))
            return;
        std::optional<std::size_t> index = indexOfNoCase(kRecordNames, t[0]);
        if (!index && allDigits(t[0])) {
            // Files older than the keywords hold the index.
            if (const auto n = number(*v, t[0], kRecordNames.size() - 1, "record results"))
                index = static_cast<std::size_t>(*n);
        } else if (!index) {
            error(v->number,
                fmt::format(
                    "record results: {} is not one of {}", quote(t[0]), joinNames(kRecordNames)));
        }
        if (!index)
            return;
        RecordFilter &f = m_profile.setup.recordFilter;
        switch (*index) {
        case 0:
            f = RecordFilter::All;
            break;
        case 1:
            f = RecordFilter::NoTargets;
            break;
        case 2:
            f = RecordFilter::NoTargetsNoWorkers;
            break;
        case 3:
            f = RecordFilter::NoTargetsNoWorkers;
            warning(v->number,
                "NO_MANAGERS (only the ALL row) has no IOPrism equivalent; "
                "host rows are recorded too (as for NO_WORKERS)");
            break;
        default:
            f = RecordFilter::None;
            break;
        }
    }

    void parseCycling(const Line &h, Cycling &c, bool withEnd)
    {
        const Line *v = value(h);
        if (!v)
            return;
        const auto t = splitValues(v->text);
        if (!expectCount(*v, t, withEnd ? 4 : 3,
                withEnd ? "start, end, step, step type" : "start, step, step type"))
            return;
        std::size_t i = 0;
        const auto start = number32(*v, t[i++], kIntMax, "start");
        std::optional<std::uint32_t> end = c.end;
        if (withEnd)
            end = number32(*v, t[i++], kIntMax, "end");
        const auto step = number32(*v, t[i++], kIntMax, "step");
        const auto type = stepType(*v, t[i]);
        if (start && end && step && type) {
            c.start = *start;
            c.end = *end;
            c.step = *step;
            c.stepType = *type;
        }
    }

    // ---- RESULTS DISPLAY: kept verbatim, one entry per line

    void parseResultsDisplay(const Line &start)
    {
        const Block b {
            "RESULTS DISPLAY section", start.number, kw::endResultsDisplay, "'END results display"};
        OpenBlock open(*this, b);
        std::vector<std::string> entries;
        bool afterHeader = false;
        for (;;) {
            if (atEnd())
                stopUnclosed(b, nullptr);
            const Line &l = peek();
            if (isVersionLine(l) || sectionOf(l) != SectionId::None)
                stopUnclosed(b, &l);
            ++m_pos;
            if (l.header) {
                if (normalizeHeader(l.text) == b.endKey)
                    break;
                entries.emplace_back(l.text);
                afterHeader = true;
                continue;
            }
            if (l.blank && !afterHeader)
                continue;
            entries.emplace_back(l.text);
            afterHeader = false;
        }
        m_profile.icfResultsDisplay = std::move(entries);
    }

    // ---- ACCESS SPECIFICATIONS

    void parseAccessSpecs(const Line &start)
    {
        const Block b {"ACCESS SPECIFICATIONS section", start.number, kw::endAccessSpecs,
            "'END access specifications"};
        OpenBlock open(*this, b);
        bool first = true;
        for (;;) {
            const Line &h = nextHeader(b);
            const std::string k = normalizeHeader(h.text);
            if (k == b.endKey)
                return;
            // Iometer picks the reader by the file's version; a file without one (which
            // Iometer refuses) is told by its column line.
            const bool oldVersion = m_version && *m_version < kFirstNamedSpecsVersion;
            if (first && k != kw::specName && (oldVersion || k == kw::oldSpecColumns))
                parseOldSpecs();
            else if (k == kw::specName)
                parseSpec(h);
            else if (!isColumnComment(h))
                unknownKeyword(h, b);
            first = false;
        }
    }

    // The pre-1998.05.21 list, as AccessSpecList::LoadConfigOld reads it: after one
    // column line, lines of size, % of size, % reads, % random, delay, burst up to the
    // next ' line; consecutive lines make one spec when their shares reach 100. A line of
    // 0 % is discarded, shares past 100 are an error and a spec left short of 100 at the
    // end is dropped (Iometer deletes it without a word; IOPrism warns).
    void parseOldSpecs()
    {
        AccessSpec spec;
        std::uint64_t shareSum = 0;
        std::size_t firstLine = 0;
        for (;;) {
            skipBlank();
            if (atEnd() || peek().header || isVersionLine(peek()))
                break;
            const Line &d = take();
            const auto t = splitValues(d.text);
            if (!expectCount(d, t, 6, "size, % of size, % reads, % random, delay, burst"))
                continue;
            std::uint64_t share = 0;
            auto line = specLineStart(d, t, &share);
            if (!line)
                continue;
            if (share == 0) {
                warning(d.number, "a line of 0 % of the access is discarded, as Iometer does");
                continue;
            }
            if (spec.lines.empty())
                firstLine = d.number;
            // InitAccessSpecLine sets the alignment to the default size (2048) before
            // the size is read, so Iometer 1.1.0 aligns every old line on 2048 bytes.
            line->alignmentBytes = 2048;
            spec.lines.push_back(*line);
            shareSum += share;
            if (shareSum > 100) {
                error(d.number,
                    fmt::format("the shares (% of size) of the access specification starting "
                                "on line {} add up to {}, past 100",
                        firstLine, shareSum));
                spec = {};
                shareSum = 0;
                continue;
            }
            if (shareSum == 100) {
                spec.defaultAssignment = SpecAssignment::All;
                spec.name = oldSpecName(spec);
                m_oldFormatSpecs.push_back(spec.name);
                m_profile.specs.push_back(std::move(spec));
                spec = {};
                shareSum = 0;
            }
        }
        if (!spec.lines.empty())
            warning(firstLine,
                fmt::format("the access specification starting here adds up to {} %, not "
                            "100; dropped, as Iometer drops it",
                    shareSum));
    }

    bool specNameTaken(const std::string &name) const
    {
        return equalsNoCase(name, kIdleSpecName)
            || std::any_of(m_profile.specs.begin(), m_profile.specs.end(),
                [&](const AccessSpec &s) { return equalsNoCase(s.name, name); });
    }

    // Old specs have no name: a one-line spec is named as AccessSpecList::SmartName does
    // ("4 KiB random 67% reads", then " 2", " 3" for repeats), others "Untitled n" as
    // NextUntitled numbers them.
    std::string oldSpecName(const AccessSpec &spec) const
    {
        if (spec.lines.size() != 1) {
            std::size_t n
                = std::size_t(std::count_if(m_profile.specs.begin(), m_profile.specs.end(),
                    [](const AccessSpec &s) { return s.name.starts_with("Untitled"); }));
            std::string name;
            do
                name = fmt::format("Untitled {}", ++n);
            while (specNameTaken(name));
            return name;
        }
        const SpecLine &l = spec.lines[0];
        std::string base = l.transferSizeBytes == 512 ? std::string("512 B")
            : l.transferSizeBytes == 1048576          ? std::string("1 MiB")
                                             : fmt::format("{} KiB", l.transferSizeBytes / 1024);
        base += l.percentRandom == 0 ? std::string(" sequential")
            : l.percentRandom == 100 ? std::string(" random")
                                     : fmt::format(" {}% random", l.percentRandom);
        base += l.percentRead == 0 ? std::string(" writes")
            : l.percentRead == 100 ? std::string(" reads")
                                   : fmt::format(" {}% reads", l.percentRead);
        std::string name = base;
        for (int n = 2; specNameTaken(name); ++n)
            name = fmt::format("{} {}", base, n);
        return name;
    }

    void parseSpec(const Line &h)
    {
        const Line *v = value(h);
        if (!v)
            return;
        AccessSpec spec;
        bool ok = true;
        // Iometer names cannot hold commas; the assignment follows the last one.
        const auto comma = v->text.rfind(',');
        if (comma == std::string_view::npos) {
            error(v->number,
                fmt::format("expected \"name,default assignment\", got {}", quote(v->text)));
            ok = false;
            spec.name = std::string(v->text);
        } else {
            spec.name = std::string(trim(v->text.substr(0, comma)));
            const std::string_view a = trim(v->text.substr(comma + 1));
            if (const auto i = indexOfNoCase(kAssignmentNames, a)) {
                spec.defaultAssignment = kAssignments[*i];
            } else if (allDigits(a)) {
                if (const auto n = number(*v, a, kAssignments.size() - 1, "default assignment"))
                    spec.defaultAssignment = kAssignments[*n];
                else
                    ok = false;
            } else {
                error(v->number,
                    fmt::format("default assignment: {} is not one of {}", quote(a),
                        joinNames(kAssignmentNames)));
                ok = false;
            }
        }

        // Iometer requires a ' line (the column names) between the name and the lines.
        skipBlank();
        if (!atEnd() && peek().header && !isKeyword(peek()) && sectionOf(peek()) == SectionId::None)
            ++m_pos;
        else
            error(v->number,
                "expected the column line \"'size,% of size,% reads,% random,"
                "delay,burst,align,reply\" after the access specification name");

        std::uint64_t shareSum = 0;
        bool linesOk = true;
        std::size_t lineCount = 0;
        for (;;) {
            skipBlank();
            if (atEnd() || peek().header || isVersionLine(peek()))
                break;
            const Line &d = take();
            ++lineCount;
            const auto t = splitValues(d.text);
            if (!expectCount(d, t, 8,
                    "size, % of size, % reads, % random, delay, burst, align, "
                    "reply")) {
                linesOk = false;
                continue;
            }
            std::uint64_t share = 0;
            auto line = specLineStart(d, t, &share);
            const auto align = number(d, t[6], kIntMax, "align");
            const auto reply = number(d, t[7], kIntMax, "reply");
            if (!(line && align && reply)) {
                linesOk = false;
                continue;
            }
            line->alignmentBytes = *align; // 0 = sector boundaries, as in Iometer
            line->replySizeBytes = *reply;
            shareSum += share;
            spec.lines.push_back(*line);
        }
        if (lineCount == 0) {
            error(v->number, fmt::format("access specification {} has no lines", quote(spec.name)));
            return;
        }
        if (lineCount > kMaxSpecLines)
            error(v->number,
                fmt::format("access specification {} has {} lines (at most {})", quote(spec.name),
                    lineCount, kMaxSpecLines));
        if (linesOk && shareSum != 100)
            error(v->number,
                fmt::format("the shares (% of size) of access specification {} add up to "
                            "{}, not 100",
                    quote(spec.name), shareSum));
        if (!ok || !linesOk)
            return;
        // Iometer finds its own Idle under this name (AccessSpecList::LoadConfigNew looks
        // names up without case), and a worker assigned Idle never runs (Worker::
        // HasActiveCurrentSpec compares with the built-in Idle), whatever lines the file
        // gives it.
        if (equalsNoCase(spec.name, kIdleSpecName)) {
            warning(v->number,
                fmt::format("access specification {} is Iometer's built-in Idle; its lines are "
                            "not used and workers assigned it do no I/O",
                    quote(spec.name)));
            return;
        }
        // Like Iometer, a later spec of the same name replaces the earlier one.
        for (auto &existing : m_profile.specs) {
            if (existing.name == spec.name) {
                warning(v->number,
                    fmt::format("access specification {} is defined twice; "
                                "the later definition is used",
                        quote(spec.name)));
                existing = std::move(spec);
                return;
            }
        }
        m_profile.specs.push_back(std::move(spec));
    }

    // ---- MANAGER LIST

    void parseManagerList(const Line &start)
    {
        const Block b {
            "MANAGER LIST section", start.number, kw::endManagerList, "'END manager list"};
        OpenBlock open(*this, b);
        for (;;) {
            const Line &h = nextHeader(b);
            const std::string k = normalizeHeader(h.text);
            if (k == b.endKey)
                return;
            if (k == kw::manager)
                parseManager(h);
            else if (!isColumnComment(h))
                unknownKeyword(h, b);
        }
    }

    // "1,name": the ID, then the rest of the line (names may hold spaces and commas).
    void parseIdAndName(const Line &v, std::uint32_t &id, std::string &name, std::string_view what)
    {
        std::size_t i = 0;
        const std::string_view t = v.text;
        if (i < t.size() && (t[i] == '-' || t[i] == '+'))
            ++i;
        while (i < t.size() && isDigit(t[i]))
            ++i;
        if (i == 0 || (i == 1 && !isDigit(t[0]))) {
            error(v.number, fmt::format("expected \"{} ID,name\", got {}", what, quote(t)));
            return;
        }
        if (const auto n = number32(v, t.substr(0, i), kIntMax, fmt::format("{} ID", what)))
            id = *n;
        std::string_view rest = trim(t.substr(i));
        if (!rest.empty() && rest.front() == ',')
            rest = trim(rest.substr(1));
        name = std::string(rest);
    }

    void parseManager(const Line &h)
    {
        Host host;
        const Block b {"manager", h.number, kw::endManager, "'End manager"};
        OpenBlock open(*this, b);
        if (const Line *v = value(h))
            parseIdAndName(*v, host.id, host.name, "manager");
        for (;;) {
            const Line &hh = nextHeader(b);
            const std::string k = normalizeHeader(hh.text);
            if (k == b.endKey)
                break;
            if (k == kw::networkAddress) {
                // Iometer writes an empty value line for the local manager; editors that
                // drop blank lines lose it, so a missing line means "local" too.
                if (!atEnd() && !peek().header && !isVersionLine(peek()))
                    host.networkAddress = std::string(take().text);
                else
                    host.networkAddress.clear();
            } else if (k == kw::worker) {
                parseWorker(hh, host);
            } else if (!isColumnComment(hh)) {
                unknownKeyword(hh, b);
            }
        }
        m_profile.hosts.push_back(std::move(host));
    }

    void parseWorker(const Line &h, Host &host)
    {
        Worker w;
        // Before 1.1.0 Iometer had no data pattern setting and wrote one random buffer
        // again and again: pseudo-random. A file that names a pattern overrides this.
        w.dataPattern.kind = DataPatternKind::PseudoRandom;
        // An empty worker ("'Worker" directly followed by a ' line) is legal in Iometer.
        if (!atEnd() && !peek().header && !isVersionLine(peek()))
            w.name = std::string(take().text);

        const Block b {"worker", h.number, kw::endWorker, "'End worker"};
        OpenBlock open(*this, b);
        bool typed = false;
        bool network = false;
        std::vector<std::pair<std::size_t, std::string>> assigned;
        for (;;) {
            const Line &hh = nextHeader(b);
            const std::string k = normalizeHeader(hh.text);
            if (k == b.endKey)
                break;
            if (k == kw::workerType) {
                const Line *v = value(hh);
                if (!v)
                    continue;
                const auto t = splitValues(v->text);
                if (t.size() == 1 && equalsNoCase(t[0], "DISK")) {
                    network = false;
                } else if (!t.empty() && t.size() <= 2 && equalsNoCase(t[0], "NETWORK")
                    && (t.size() == 1 || equalsNoCase(t[1], "TCP") || equalsNoCase(t[1], "VI"))) {
                    network = true;
                    if (t.size() == 2 && equalsNoCase(t[1], "VI"))
                        warning(v->number,
                            "VI network workers are not supported; the worker "
                            "is kept as a TCP network worker");
                } else {
                    error(v->number,
                        fmt::format("worker type: {} is not DISK, NETWORK,TCP or "
                                    "NETWORK,VI",
                            quote(v->text)));
                    continue;
                }
                w.type = network ? WorkerType::Network : WorkerType::Disk;
                typed = true;
            } else if (k == kw::defaults) {
                parseWorkerDefaults(hh, w, network);
            } else if (k == kw::assigned) {
                parseAssigned(hh, w);
            } else if (k == kw::targets) {
                parseTargets(hh, w, network);
            } else if (!isColumnComment(hh)) {
                unknownKeyword(hh, b);
            }
        }
        if (!typed)
            error(h.number, fmt::format("worker {} has no 'Worker type line", quote(w.name)));

        // Iometer has one region per worker; each target gets it.
        for (auto &t : w.targets) {
            t.region = w.defaultRegion;
            if (t.kind == TargetKind::TestFile && w.defaultRegion.sizeBytes > 0)
                t.testFileSizeBytes = w.defaultRegion.offsetBytes + w.defaultRegion.sizeBytes;
        }
        for (std::size_t i = 0; i < w.targets.size(); ++i) {
            const Target &t = w.targets[i];
            if (t.kind == TargetKind::TestFile && w.defaultRegion.sizeBytes == 0)
                warning(m_targetLines[i],
                    fmt::format("disk maximum size 0: Iometer would grow its test file on "
                                "{} to fill the volume; IOPrism uses a {} GiB test file "
                                "(set testFileSizeBytes to change it)",
                        quote(t.path), t.testFileSizeBytes / kGiB));
        }
        m_targetLines.clear();
        host.workers.push_back(std::move(w));
    }

    void parseWorkerDefaults(const Line &h, Worker &w, bool network)
    {
        const Block b {"default target settings", h.number, kw::endDefaults,
            "'End default target settings for worker"};
        OpenBlock open(*this, b);
        for (;;) {
            const Line &hh = nextHeader(b);
            const std::string k = normalizeHeader(hh.text);
            if (k == b.endKey)
                return;
            if (k == kw::queueNew || k == kw::queueOld) {
                const bool withSeed = k == kw::queueNew;
                const Line *v = value(hh);
                if (!v)
                    continue;
                const auto t = splitValues(v->text);
                if (!expectCount(*v, t, withSeed ? 5 : 3,
                        withSeed ? "outstanding IOs, test connection rate, transactions "
                                   "per connection, use fixed seed, fixed seed value"
                                 : "outstanding IOs, test connection rate, "
                                   "transactions per connection"))
                    continue;
                if (const auto n = number32(*v, t[0], kIntMax, "outstanding IOs"))
                    w.outstandingIos = *n;
                if (const auto e = enabled(*v, t[1], "test connection rate"))
                    w.testConnectionRate = *e;
                if (const auto n = number32(*v, t[2], kIntMax, "transactions per connection"))
                    w.transactionsPerConnection = *n;
                if (withSeed) {
                    const auto use = enabled(*v, t[3], "use fixed seed");
                    const auto seed = number(*v, t[4], kU64Max, "fixed seed value");
                    if (use && seed) {
                        if (*use)
                            w.seed = *seed;
                        else
                            w.seed.reset();
                    }
                }
            } else if (k == kw::diskNew || k == kw::diskOld || k == kw::diskRandom) {
                const Line *v = value(hh);
                if (!v)
                    continue;
                if (network) {
                    error(hh.number, "a NETWORK worker cannot have disk settings");
                    continue;
                }
                const bool withPattern = k != kw::diskOld;
                const auto t = splitValues(v->text);
                if (!expectCount(*v, t, withPattern ? 3 : 2,
                        k == kw::diskNew          ? "disk maximum size, starting sector, data "
                                                    "pattern"
                            : k == kw::diskRandom ? "disk maximum size, starting sector, use "
                                                    "random data"
                                                  : "disk maximum size, starting sector"))
                    continue;
                const auto size = number(*v, t[0], kMaxSectors, "disk maximum size (sectors)");
                const auto start = number(*v, t[1], kMaxSectors, "starting sector");
                if (size && start) {
                    if (*size > kMaxSectors - *start) {
                        error(v->number, "the disk region ends beyond 2^64 bytes");
                    } else {
                        w.defaultRegion.sizeBytes = *size * kIcfSectorBytes;
                        w.defaultRegion.offsetBytes = *start * kIcfSectorBytes;
                    }
                }
                if (k == kw::diskNew) {
                    if (const auto p = number(*v, t[2], 2, "data pattern")) {
                        static constexpr std::array<DataPatternKind, 3> kinds
                            = {DataPatternKind::RepeatingBytes, DataPatternKind::PseudoRandom,
                                DataPatternKind::FullRandom};
                        w.dataPattern.kind = kinds[*p];
                    }
                } else if (k == kw::diskRandom) {
                    if (const auto p = number(*v, t[2], 1, "use random data"))
                        w.dataPattern.kind
                            = *p == 1 ? DataPatternKind::FullRandom : DataPatternKind::PseudoRandom;
                }
            } else if (k == kw::localInterface || k == kw::viOutstanding) {
                if (const Line *v = value(hh))
                    warning(v->number,
                        fmt::format("{} {} cannot be held in an IOPrism profile; dropped",
                            quote(hh.text), quote(v->text)));
            } else if (!isColumnComment(hh)) {
                unknownKeyword(hh, b);
            }
        }
    }

    void parseAssigned(const Line &h, Worker &w)
    {
        const Block b {
            "assigned access specs", h.number, kw::endAssigned, "'End assigned access specs"};
        OpenBlock open(*this, b);
        for (;;) {
            skipBlank();
            if (atEnd())
                stopUnclosed(b, nullptr);
            const Line &l = peek();
            if (l.header || isVersionLine(l)) {
                (void)nextHeader(b); // reports an unclosed block, else consumes the line
                if (normalizeHeader(l.text) == b.endKey)
                    return;
                if (!isColumnComment(l))
                    error(l.number,
                        fmt::format("unexpected {} in the assigned access specs; "
                                    "expected a spec name",
                            quote(l.text)));
                continue;
            }
            ++m_pos;
            // Any case of "idle" is Iometer's built-in Idle (names are found without case).
            w.assignedSpecs.emplace_back(
                equalsNoCase(l.text, kIdleSpecName) ? kIdleSpecName : l.text);
            m_assignedRefs.emplace_back(l.number, w.assignedSpecs.back());
        }
    }

    void parseTargets(const Line &h, Worker &w, bool networkWorker)
    {
        const Block b {"target assignments", h.number, kw::endTargets, "'End target assignments"};
        OpenBlock open(*this, b);
        for (;;) {
            const Line &hh = nextHeader(b);
            const std::string k = normalizeHeader(hh.text);
            if (k == b.endKey)
                return;
            if (k == kw::target)
                parseTarget(hh, w, networkWorker);
            else if (!isColumnComment(hh))
                unknownKeyword(hh, b);
        }
    }

    void parseTarget(const Line &h, Worker &w, bool networkWorker)
    {
        const Block b {"target", h.number, kw::endTarget, "'End target"};
        OpenBlock open(*this, b);
        std::string name;
        std::size_t nameLine = h.number;
        if (const Line *v = value(h)) {
            name = std::string(v->text);
            nameLine = v->number;
        }
        enum class Type { Unknown, Disk, Network };
        Type type = Type::Unknown;
        bool typeError = false;
        for (;;) {
            const Line &hh = nextHeader(b);
            const std::string k = normalizeHeader(hh.text);
            if (k == b.endKey)
                break;
            if (k == kw::targetType) {
                const Line *v = value(hh);
                if (!v)
                    continue;
                const auto t = splitValues(v->text);
                if (t.size() == 1 && equalsNoCase(t[0], "DISK")) {
                    type = Type::Disk;
                } else if (t.size() == 2 && equalsNoCase(t[0], "NETWORK")
                    && (equalsNoCase(t[1], "TCP") || equalsNoCase(t[1], "VI"))) {
                    type = Type::Network;
                } else {
                    error(v->number,
                        fmt::format("target type: {} is not DISK, NETWORK,TCP or "
                                    "NETWORK,VI",
                            quote(v->text)));
                    typeError = true;
                }
            } else if (k == kw::targetManager) {
                (void)value(hh); // the manager owning a network target; not held
            } else if (!isColumnComment(hh)) {
                unknownKeyword(hh, b);
            }
        }
        if (typeError)
            return;
        if (type == Type::Unknown) {
            error(h.number, fmt::format("target {} has no 'Target type line", quote(name)));
            return;
        }
        if (type == Type::Network) {
            if (!networkWorker)
                error(h.number,
                    fmt::format("a DISK worker cannot have the network target {}", quote(name)));
            else
                warning(nameLine,
                    fmt::format("network target {} cannot be held in an IOPrism "
                                "profile; dropped",
                        quote(name)));
            return;
        }
        if (networkWorker) {
            error(h.number,
                fmt::format("a NETWORK worker cannot have the disk target {}", quote(name)));
            return;
        }
        Target t;
        t.path = name;
        t.kind = icfTargetKind(name);
        w.targets.push_back(std::move(t));
        m_targetLines.push_back(nameLine);
    }

    // Old specs are assigned to every worker: they load with "assign to all" and
    // Iometer then calls AssignDefaultAccessSpecs (AccessSpecList::LoadConfig). A worker
    // the file gives its own list keeps it.
    void assignOldFormatSpecs()
    {
        for (auto &host : m_profile.hosts)
            for (auto &w : host.workers)
                if (w.assignedSpecs.empty())
                    w.assignedSpecs = m_oldFormatSpecs;
    }

    // Iometer looks assigned specs up by name once the whole file is read.
    void checkAssignedSpecs()
    {
        for (const auto &[line, name] : m_assignedRefs) {
            if (findSpec(m_profile, name) != nullptr || isIdleSpec(m_profile, name))
                continue; // "Idle": Iometer's built-in spec, the worker idles
            warning(line,
                fmt::format("assigned access specification {} is not defined in "
                            "this file",
                    quote(name)));
        }
    }

    std::vector<Line> m_lines;
    std::size_t m_pos = 0;
    Problems &m_problems;
    std::size_t m_errorCount = 0;
    bool m_hasErrors = false;
    std::vector<const Block *> m_open;
    std::vector<std::pair<std::size_t, std::string>> m_assignedRefs;
    std::vector<std::size_t> m_targetLines; // of the current worker's targets
    std::optional<std::uint64_t> m_version; // from the first version line, as GetVersion
    // Specs read in the pre-1998.05.21 format: every worker runs them (below).
    std::vector<std::string> m_oldFormatSpecs;
    Profile m_profile;
};

// ------------------------------------------------------------------ the writer

class Writer
{
public:
    explicit Writer(Problems &warnings)
        : m_warnings(warnings)
    { }

    std::string write(const Profile &p)
    {
        line(kVersionLine);
        writeTestSetup(p.setup);
        writeResultsDisplay(p.icfResultsDisplay);
        writeAccessSpecs(p.specs);
        writeManagerList(p);
        line(kVersionLine);
        return std::move(m_out);
    }

private:
    void line(std::string_view s)
    {
        m_out += s;
        m_out += '\n';
    }
    void value(std::string_view s)
    {
        m_out += '\t';
        line(s);
    }
    void title(std::string_view name)
    {
        std::string t = fmt::format("'{} ", name);
        if (t.size() < kTitleWidth)
            t.append(kTitleWidth - t.size(), '=');
        line(t);
    }
    void warn(std::string path, std::string message)
    {
        m_warnings.push_back({Severity::Warning, std::move(path), std::move(message)});
    }

    // A value must stay on one line, and be text: the reader takes a control byte (a NUL,
    // DEL, the Ctrl-Z where Windows' text streams end) for a binary file.
    std::string oneLine(std::string_view text, const std::string &path)
    {
        std::string s(text);
        bool breaks = false, controls = false;
        for (char &c : s) {
            const auto b = static_cast<unsigned char>(c);
            if (c == '\r' || c == '\n') {
                c = ' ';
                breaks = true;
            } else if ((b < 0x20 && c != '\t') || b == 0x7f) {
                c = ' ';
                controls = true;
            }
        }
        if (breaks)
            warn(path, "line breaks replaced by spaces (an .icf value is one line)");
        if (controls)
            warn(path, "control characters replaced by spaces (an .icf file is plain text)");
        return s;
    }

    // Iometer reads a spec name up to its first comma, and only these characters.
    std::string specName(std::string_view name, const std::string &path)
    {
        std::string s = oneLine(name, path);
        if (s.find(',') != std::string::npos) {
            std::replace(s.begin(), s.end(), ',', '-');
            warn(path, fmt::format("Iometer names cannot hold commas; written as {}", quote(s)));
        }
        static constexpr std::string_view kTokenChars
            = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz1234567890"
              "`~!@#$%^&*()-_=+[]{}\\:;\"'./<>? ";
        const auto first = s.find_first_not_of(kTokenChars);
        if (first != std::string::npos)
            warn(path,
                fmt::format("Iometer reads this name only up to the character at offset "
                            "{}, as {}",
                    first, quote(trim(std::string_view(s).substr(0, first)))));
        return s;
    }

    std::uint64_t clampInt(std::uint64_t v, const std::string &path)
    {
        if (v <= kIntMax)
            return v;
        warn(path,
            fmt::format(
                "{} is too large for Iometer (at most {}); {} written", v, kIntMax, kIntMax));
        return kIntMax;
    }

    std::uint64_t seconds(std::chrono::seconds s, const std::string &path)
    {
        if (s.count() >= 0)
            return static_cast<std::uint64_t>(s.count());
        warn(path, "a negative duration cannot be written; 0 written");
        return 0;
    }

    static std::string_view stepName(StepType t)
    {
        return t == StepType::Exponential ? "EXPONENTIAL" : "LINEAR";
    }

    void writeTestSetup(const TestSetup &s)
    {
        title("TEST SETUP");
        line("'Test Description");
        value(oneLine(s.description, "setup.description"));

        const std::uint64_t run = seconds(s.runTime, "setup.runTime");
        line("'Run Time");
        line(fmt::format("'\t{:<11}{:<11}{}", "hours", "minutes", "seconds"));
        line(fmt::format("\t{:<11}{:<11}{}", clampInt(run / 3600, "setup.runTime"),
            (run % 3600) / 60, run % 60));

        line("'Ramp Up Time (s)");
        value(std::to_string(clampInt(seconds(s.rampUp, "setup.rampUp"), "setup.rampUp")));

        line("'Default Disk Workers to Spawn");
        value(s.defaultDiskWorkers
                ? std::to_string(clampInt(*s.defaultDiskWorkers, "setup.defaultDiskWorkers"))
                : std::string("NUMBER_OF_CPUS"));
        line("'Default Network Workers to Spawn");
        value(std::to_string(clampInt(s.defaultNetworkWorkers, "setup.defaultNetworkWorkers")));

        line("'Record Results");
        switch (s.recordFilter) {
        case RecordFilter::All:
            value("ALL");
            break;
        case RecordFilter::NoTargets:
            value("NO_TARGETS");
            break;
        case RecordFilter::NoWorkers:
            warn("setup.recordFilter",
                "Iometer cannot drop worker rows and keep target rows; "
                "ALL written");
            value("ALL");
            break;
        case RecordFilter::NoTargetsNoWorkers:
            value("NO_WORKERS");
            break;
        case RecordFilter::None:
            value("NONE");
            break;
        }

        writeCycling("Worker Cycling", s.workerCycling, "setup.workerCycling", false);
        writeCycling("Disk Cycling", s.targetCycling, "setup.targetCycling", false);
        writeCycling("Queue Depth Cycling", s.queueDepthCycling, "setup.queueDepthCycling", true);

        line("'Test Type");
        const auto index = static_cast<std::size_t>(
            std::find(kTestTypes.begin(), kTestTypes.end(), s.testType) - kTestTypes.begin());
        value(index < kTestTypeNames.size() ? kTestTypeNames[index] : kTestTypeNames[0]);
        line("'END test setup");
        if (s.series)
            warn("setup.series",
                "a series is an IOPrism extension; not written (Iometer runs one step per spec, "
                "or its own cycling)");

        if (s.interval != TestSetup {}.interval)
            warn("setup.interval",
                fmt::format("{} ms: the sampling interval has no place in "
                            "an .icf file; not written",
                    s.interval.count()));
    }

    void writeCycling(
        std::string_view name, const Cycling &c, const std::string &path, bool withEnd)
    {
        line(fmt::format("'{}", name));
        const std::uint64_t start = clampInt(c.start, path + ".start");
        const std::uint64_t step = clampInt(c.step, path + ".step");
        if (withEnd) {
            line(fmt::format("'\t{:<11}{:<11}{:<11}{}", "start", "end", "step", "step type"));
            line(fmt::format("\t{:<11}{:<11}{:<11}{}", start, clampInt(c.end, path + ".end"), step,
                stepName(c.stepType)));
        } else {
            line(fmt::format("'\t{:<11}{:<11}{}", "start", "step", "step type"));
            line(fmt::format("\t{:<11}{:<11}{}", start, step, stepName(c.stepType)));
            if (c.end != Cycling {}.end)
                warn(path + ".end",
                    fmt::format("{}: Iometer's {} has no end; not written", c.end, name));
        }
    }

    void writeResultsDisplay(const std::vector<std::string> &entries)
    {
        title("RESULTS DISPLAY");
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const std::string text = oneLine(entries[i], fmt::format("icfResultsDisplay[{}]", i));
            if (!text.empty() && text.front() == '\'')
                line(text);
            else
                value(text);
        }
        line("'END results display");
    }

    void writeAccessSpecs(const std::vector<AccessSpec> &specs)
    {
        title("ACCESS SPECIFICATIONS");
        for (std::size_t i = 0; i < specs.size(); ++i) {
            const AccessSpec &spec = specs[i];
            const std::string path = fmt::format("specs[{}]", i);
            line("'Access specification name,default assignment");
            const auto a = static_cast<std::size_t>(
                std::find(kAssignments.begin(), kAssignments.end(), spec.defaultAssignment)
                - kAssignments.begin());
            value(fmt::format("{},{}", specName(spec.name, path + ".name"),
                a < kAssignmentNames.size() ? kAssignmentNames[a] : "NONE"));
            line("'size,% of size,% reads,% random,delay,burst,align,reply");
            if (spec.lines.size() > kMaxSpecLines)
                warn(path + ".lines",
                    fmt::format(
                        "{} lines: Iometer loads at most {}", spec.lines.size(), kMaxSpecLines));
            for (std::size_t j = 0; j < spec.lines.size(); ++j)
                writeSpecLine(spec.lines[j], fmt::format("{}.lines[{}]", path, j));
            if (spec.queueDepth)
                warn(path + ".queueDepth",
                    "per-spec queue depth is an IOPrism extension; not "
                    "written (the workers' outstanding IOs apply)");
            if (spec.threads)
                warn(path + ".threads",
                    "per-spec thread count is an IOPrism extension; not "
                    "written");
        }
        line("'END access specifications");
    }

    void writeSpecLine(const SpecLine &l, const std::string &path)
    {
        const std::int64_t delayMs = l.delay.count();
        std::uint64_t delay = 0;
        if (delayMs < 0)
            warn(path + ".delay", "a negative delay cannot be written; 0 written");
        else
            delay = clampInt(static_cast<std::uint64_t>(delayMs), path + ".delay");
        value(fmt::format("{},{},{},{},{},{},{},{}",
            clampInt(l.transferSizeBytes, path + ".transferSizeBytes"),
            clampInt(l.sharePercent, path + ".sharePercent"),
            clampInt(l.percentRead, path + ".percentRead"),
            clampInt(l.percentRandom, path + ".percentRandom"), delay,
            clampInt(l.burstLength, path + ".burstLength"),
            clampInt(l.alignmentBytes, path + ".alignmentBytes"),
            clampInt(l.replySizeBytes, path + ".replySizeBytes")));
        if (l.distribution.kind != DistributionKind::Uniform)
            warn(path + ".distribution",
                "Iometer only draws uniform random offsets; the "
                "distribution is not written");
        if (l.rateLimit != RateLimit {})
            warn(path + ".rateLimit", "rate limits are an IOPrism extension; not written");
        if (l.thinkTime != std::chrono::microseconds {0})
            warn(path + ".thinkTime",
                "think time is an IOPrism extension; not written (Iometer "
                "only has the delay before each burst)");
        if (l.dataPattern)
            warn(path + ".dataPattern",
                "Iometer sets the data pattern per worker; the line's "
                "pattern is not written");
    }

    void writeManagerList(const Profile &p)
    {
        title("MANAGER LIST");
        for (std::size_t h = 0; h < p.hosts.size(); ++h) {
            const Host &host = p.hosts[h];
            const std::string path = fmt::format("hosts[{}]", h);
            line("'Manager ID, manager name");
            value(fmt::format(
                "{},{}", clampInt(host.id, path + ".id"), oneLine(host.name, path + ".name")));
            line("'Manager network address");
            value(oneLine(host.networkAddress, path + ".networkAddress"));
            for (std::size_t w = 0; w < host.workers.size(); ++w)
                writeWorker(p, host.workers[w], fmt::format("{}.workers[{}]", path, w));
            line("'End manager");
        }
        line("'END manager list");
    }

    static int patternNumber(DataPatternKind k)
    {
        switch (k) {
        case DataPatternKind::RepeatingBytes:
        case DataPatternKind::Zeros:
            return 0;
        case DataPatternKind::PseudoRandom:
            return 1;
        case DataPatternKind::FullRandom:
        case DataPatternKind::Compressible:
            return 2;
        }
        return 2;
    }

    void writeWorker(const Profile &p, const Worker &w, const std::string &path)
    {
        const bool network = w.type == WorkerType::Network;
        line("'Worker");
        value(oneLine(w.name, path + ".name"));
        line("'Worker type");
        value(network ? "NETWORK,TCP" : "DISK");

        line("'Default target settings for worker");
        line("'Number of outstanding IOs,test connection rate,transactions per connection,use "
             "fixed seed,fixed seed value");
        value(fmt::format("{},{},{},{},{}", clampInt(w.outstandingIos, path + ".outstandingIos"),
            w.testConnectionRate ? "ENABLED" : "DISABLED",
            clampInt(w.transactionsPerConnection, path + ".transactionsPerConnection"),
            w.seed ? "ENABLED" : "DISABLED", w.seed.value_or(0)));
        if (!network) {
            const Region r = sectorRegion(w.defaultRegion, path + ".defaultRegion");
            line("'Disk maximum size,starting sector,Data pattern");
            value(fmt::format("{},{},{}", r.sizeBytes / kIcfSectorBytes,
                r.offsetBytes / kIcfSectorBytes, patternNumber(w.dataPattern.kind)));
            warnDataPattern(w.dataPattern, path + ".dataPattern");
        } else if (w.dataPattern != Worker {}.dataPattern
            && w.dataPattern.kind != DataPatternKind::PseudoRandom) {
            warn(path + ".dataPattern",
                "network workers have no data pattern in .icf files; "
                "not written");
        }
        line("'End default target settings for worker");

        line("'Assigned access specs");
        for (std::size_t i = 0; i < w.assignedSpecs.size(); ++i) {
            const std::string &name = w.assignedSpecs[i];
            const std::string specPath = fmt::format("{}.assignedSpecs[{}]", path, i);
            // The same rewriting as the spec's own name, without repeating its warnings.
            std::string written = oneLine(name, specPath);
            if (findSpec(p, name) != nullptr)
                std::replace(written.begin(), written.end(), ',', '-');
            value(written);
        }
        line("'End assigned access specs");

        line("'Target assignments");
        for (std::size_t t = 0; t < w.targets.size(); ++t) {
            const std::string targetPath = fmt::format("{}.targets[{}]", path, t);
            if (network) {
                warn(targetPath,
                    "IOPrism holds no network targets for Iometer's network "
                    "workers; not written");
                continue;
            }
            writeTarget(w, w.targets[t], targetPath);
        }
        line("'End target assignments");
        line("'End worker");

        if (!w.cpuAffinity.empty())
            warn(path + ".cpuAffinity", "CPU affinity is an IOPrism extension; not written");
    }

    void warnDataPattern(const DataPattern &d, const std::string &path)
    {
        switch (d.kind) {
        case DataPatternKind::Zeros:
            warn(path, "Iometer has no all-zero pattern; repeating bytes (0) written");
            break;
        case DataPatternKind::Compressible:
            warn(path, "Iometer has no compressible pattern; full random (2) written");
            break;
        case DataPatternKind::RepeatingBytes:
            if (d.repeatingByte != DataPattern {}.repeatingByte)
                warn(path + ".repeatingByte",
                    "Iometer chooses the repeated byte itself; not "
                    "written");
            break;
        case DataPatternKind::PseudoRandom:
        case DataPatternKind::FullRandom:
            break;
        }
    }

    // Iometer counts in 512-byte sectors: the start is rounded down and the size up, so
    // the written region still covers the profile's.
    Region sectorRegion(const Region &r, const std::string &path)
    {
        Region out = r;
        if (r.offsetBytes % kIcfSectorBytes == 0 && r.sizeBytes % kIcfSectorBytes == 0)
            return out;
        out.offsetBytes = r.offsetBytes / kIcfSectorBytes * kIcfSectorBytes;
        const std::uint64_t end = r.offsetBytes + r.sizeBytes;
        const std::uint64_t endSectors = end / kIcfSectorBytes + (end % kIcfSectorBytes ? 1 : 0);
        out.sizeBytes = r.sizeBytes == 0 ? 0 : endSectors * kIcfSectorBytes - out.offsetBytes;
        warn(path,
            fmt::format("offset {} and size {} bytes are not whole 512-byte sectors; "
                        "written as sectors {} + {}",
                r.offsetBytes, r.sizeBytes, out.offsetBytes / kIcfSectorBytes,
                out.sizeBytes / kIcfSectorBytes));
        return out;
    }

    void writeTarget(const Worker &w, const Target &t, const std::string &path)
    {
        line("'Target");
        value(oneLine(t.path, path + ".path"));
        line("'Target type");
        value("DISK");
        line("'End target");

        const TargetKind implied = icfTargetKind(t.path);
        if (implied != t.kind)
            warn(path + ".kind",
                fmt::format(".icf files carry no target kind; {} will be read "
                            "back as a {} target, not a {} one",
                    quote(t.path), targetKindWords(implied), targetKindWords(t.kind)));
        if (t.kind == TargetKind::FileTree)
            warn(path + ".tree",
                "Iometer has no file trees (an IOPrism extension): the tree's folder is "
                "written as a disk target");
        if (t.kind == TargetKind::TestFile && !isIometerVolumeName(t.path))
            warn(path + ".path",
                fmt::format("Iometer names a test-file target by its volume "
                            "(`C:`, `/mnt/data [ext4]`) and creates iobw.tst "
                            "there; {} must be re-pointed in Iometer",
                    quote(t.path)));
        if (t.region != w.defaultRegion)
            warn(path + ".region",
                "Iometer has one disk region per worker; the worker's "
                "defaultRegion is written instead");
        if (t.kind == TargetKind::TestFile) {
            const std::uint64_t impliedSize = w.defaultRegion.sizeBytes > 0
                ? w.defaultRegion.offsetBytes + w.defaultRegion.sizeBytes
                : Target {}.testFileSizeBytes;
            if (t.testFileSizeBytes != impliedSize)
                warn(path + ".testFileSizeBytes",
                    "Iometer sizes its test file by the worker's disk maximum size; the "
                    "test-file size is not written");
        }
        if (t.cacheMode != CacheMode::Direct)
            warn(path + ".cacheMode",
                "Iometer always bypasses the OS cache; buffered I/O is "
                "not written");
        if (t.writeThrough)
            warn(path + ".writeThrough", "write-through is an IOPrism extension; not written");
        if (t.outstandingIos && *t.outstandingIos != w.outstandingIos)
            warn(path + ".outstandingIos",
                "Iometer sets outstanding IOs per worker; the "
                "target's own value is not written");
    }

    Problems &m_warnings;
    std::string m_out;
};

} // namespace

// ------------------------------------------------------------------ public API

std::optional<Profile> parseIcf(std::string_view text, Problems &problems)
{
    // Iometer reads with a text-mode stream, which on Windows ends at a Ctrl-Z (the end
    // mark of old DOS text files): what follows one is not read.
    text = text.substr(0, text.find('\x1a'));
    // Iometer writes plain text: a control byte other than white space (a NUL, the 0x7f
    // of an executable's header) means the file is something else. One message says so,
    // instead of one "unexpected line" of escaped bytes per line of the file.
    const auto binary = std::find_if(text.begin(), text.end(), [](char c) {
        const auto b = static_cast<unsigned char>(c);
        return (b < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v')
            || b == 0x7f;
    });
    if (binary != text.end()) {
        const auto at = std::size_t(binary - text.begin());
        const auto line = std::size_t(std::count(text.begin(), binary, '\n')) + 1;
        problems.push_back({Severity::Error, fmt::format("line {}", line),
            fmt::format("not an Iometer configuration file: binary data (byte 0x{:02x} at "
                        "offset {})",
                static_cast<unsigned char>(*binary), at)});
        return std::nullopt;
    }
    try {
        Parser parser(text, problems);
        return parser.run();
    } catch (...) {
        // Only allocation failures get here; report without allocating much.
        try {
            problems.push_back({Severity::Error, "", "cannot read the file: out of memory"});
        } catch (...) { }
        return std::nullopt;
    }
}

std::string writeIcf(const Profile &profile, Problems &warnings)
{
    try {
        Writer writer(warnings);
        return writer.write(profile);
    } catch (...) {
        return {};
    }
}

TargetKind icfTargetKind(std::string_view iometerName)
{
    const std::string_view t = trim(iometerName);
    if (startsWithNoCase(t, "PHYSICALDRIVE:") || startsWithNoCase(t, "\\\\.\\PhysicalDrive")
        || startsWithNoCase(t, "\\\\?\\PhysicalDrive") || isNumberedDriveName(t))
        return TargetKind::PhysicalDrive;
    if (t.substr(0, 4) == "\\\\.\\" || t.substr(0, 4) == "\\\\?\\") {
        const std::string_view rest = t.substr(4);
        return isDriveLetterName(rest) && rest.size() <= 3 ? TargetKind::Volume
                                                           : TargetKind::PhysicalDrive;
    }
    if (isDriveLetterName(t) || t.substr(0, 2) == "\\\\" || isMountName(t))
        return TargetKind::TestFile;
    if (t.substr(0, 5) == "/dev/")
        return isPartitionName(t.substr(5)) ? TargetKind::Partition : TargetKind::BlockDevice;
    if (!t.empty() && t.front() == '/')
        return TargetKind::TestFile;
    return isPartitionName(t) ? TargetKind::Partition : TargetKind::BlockDevice;
}

bool isWindowsVolumeName(std::string_view iometerName)
{
    const std::string_view t = trim(iometerName);
    return isDriveLetterName(t) || t.substr(0, 2) == "\\\\";
}

std::optional<IometerVolume> iometerVolume(std::string_view iometerName)
{
    constexpr std::string_view kTestFile = "iobw.tst";
    const std::string_view t = trim(iometerName);
    const auto volume = [&](std::string_view folder, char separator, std::string_view type) {
        IometerVolume v {std::string(t), std::string(folder), std::string(type), {}};
        v.testFile = v.folder;
        if (v.testFile.empty() || v.testFile.back() != separator)
            v.testFile += separator;
        v.testFile += kTestFile;
        return v;
    };
    if (isMountName(t)) {
        if (t.front() != '/')
            return std::nullopt; // Iometer reports mount points absolute
        const auto open = t.rfind(" [");
        return volume(t.substr(0, open), '/', t.substr(open + 2, t.size() - open - 3));
    }
    if (t.substr(0, 2) == "\\\\") {
        // \\server\share, not a device path (\\.\X:) and not a file in a share.
        const std::string_view rest = t.substr(2);
        if (rest.starts_with(".\\") || rest.starts_with("?\\"))
            return std::nullopt;
        const auto slash = rest.find('\\');
        if (slash == rest.npos || slash == 0 || slash + 1 == rest.size()
            || rest.find('\\', slash + 1) != rest.npos)
            return std::nullopt;
        return volume(t, '\\', {});
    }
    if (isDriveLetterName(t)) {
        if (t.size() > 2 && t[2] == '/')
            return std::nullopt; // C:/data/x.tst: a path, as Windows also writes them
        if (t.size() == 2 || t[2] != '\\') {
            const std::string root = std::string(t.substr(0, 2)) + '\\';
            return volume(root, '\\', {}); // C:, C:Label, C: "Label": the drive's root
        }
        // C:\mnt\disk1:label, a mount point; C:\data\file.tst is a file, no volume.
        const auto label = t.rfind(':');
        if (label <= 2)
            return std::nullopt;
        return volume(t.substr(0, label), '\\', {});
    }
    return std::nullopt;
}

namespace {

// Calls fn(target, its path field) for every target of the profile.
void forEachTarget(Profile &profile, const std::function<void(Target &, std::string)> &fn)
{
    for (std::size_t h = 0; h < profile.hosts.size(); ++h) {
        auto &workers = profile.hosts[h].workers;
        for (std::size_t w = 0; w < workers.size(); ++w)
            for (std::size_t t = 0; t < workers[w].targets.size(); ++t)
                fn(workers[w].targets[t],
                    fmt::format("hosts[{}].workers[{}].targets[{}].path", h, w, t));
    }
}

// The platform's answer; a predicate that throws says "does not exist".
bool existsHere(const std::function<bool(const Target &)> &exists, const Target &target)
{
    try {
        return exists(target);
    } catch (...) {
        return false;
    }
}

} // namespace

Problems locateIometerTestFiles(
    Profile &profile, const std::function<bool(const IometerVolume &)> &isHere)
{
    Problems warnings;
    if (!isHere)
        return warnings;
    forEachTarget(profile, [&](Target &target, std::string path) {
        if (target.kind != TargetKind::TestFile)
            return;
        const auto volume = iometerVolume(target.path);
        if (!volume)
            return;
        bool here = false;
        try {
            here = isHere(*volume);
        } catch (...) {
            here = false;
        }
        if (!here)
            return;
        warnings.push_back({Severity::Warning, std::move(path),
            fmt::format("Iometer's volume {} is its test file {} on this machine",
                quote(target.path), quote(volume->testFile))});
        target.path = volume->testFile;
    });
    return warnings;
}

Problems markUnresolvedTargets(Profile &profile, const std::function<bool(const Target &)> &exists)
{
    Problems warnings;
    if (!exists)
        return warnings;
    forEachTarget(profile, [&](Target &target, std::string path) {
        target.unresolved = !existsHere(exists, target);
        if (target.unresolved)
            warnings.push_back({Severity::Warning, std::move(path),
                fmt::format("{} does not exist on this machine; re-point it before running",
                    quote(target.path))});
    });
    return warnings;
}

} // namespace ioprism::core
