// SPDX-License-Identifier: GPL-3.0-or-later
// Iometer .icf import: the file, its version, TEST SETUP, RESULTS DISPLAY and ACCESS
// SPECIFICATIONS sections (icf_read_managers.cpp reads the MANAGER LIST). The keywords and
// layouts follow what Iometer's own reader accepts (CPageSetup, AccessSpecList, Manager and
// Worker LoadConfig in Iometer 1.1.0 and 2006.07.27); docs/icf.md lists them.
#include "core/profile/icf_parser.h"
#include "core/profile/names.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <fmt/format.h>

namespace ioprism::core {
namespace icf_detail {

// The next ' line of block `b`. Value lines where a header belongs are reported and
// skipped; the end of the file, a section title, a Version line or the END of an
// enclosing block mean `b` was never closed.
const Line &Parser::nextHeader(const Block &b)
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
const Line *Parser::value(const Line &header)
{
    while (!atEnd() && peek().header && !isKeyword(peek()) && sectionOf(peek()) == SectionId::None)
        ++m_pos;
    if (!atEnd() && !peek().header && !isVersionLine(peek()))
        return &take();
    error(header.number, fmt::format("{} has no value line", quote(header.text)));
    return nullptr;
}

// Skips the value lines of an unknown keyword.
void Parser::skipValues()
{
    while (!atEnd() && !peek().header && !isVersionLine(peek()))
        ++m_pos;
}

void Parser::unknownKeyword(const Line &h, const Block &b)
{
    error(h.number, fmt::format("unknown keyword {} in the {}", quote(h.text), b.title));
    skipValues();
}

bool Parser::expectCount(const Line &l, const std::vector<std::string_view> &values,
    std::size_t count, std::string_view names)
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
std::optional<SpecLine> Parser::specLineStart(
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
std::optional<std::uint64_t> Parser::number(
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

std::optional<std::uint32_t> Parser::number32(
    const Line &l, std::string_view token, std::uint64_t max, std::string_view what)
{
    const auto v = number(l, token, std::min(max, kIntMax), what);
    if (!v)
        return std::nullopt;
    return static_cast<std::uint32_t>(*v);
}

std::optional<bool> Parser::enabled(const Line &l, std::string_view token, std::string_view what)
{
    if (equalsNoCase(token, "ENABLED"))
        return true;
    if (equalsNoCase(token, "DISABLED"))
        return false;
    error(l.number, fmt::format("{}: {} is not ENABLED or DISABLED", what, quote(token)));
    return std::nullopt;
}

std::optional<StepType> Parser::stepType(const Line &l, std::string_view token)
{
    if (equalsNoCase(token, "LINEAR") || token == "0")
        return StepType::Linear;
    if (equalsNoCase(token, "EXPONENTIAL") || token == "1")
        return StepType::Exponential;
    error(l.number, fmt::format("step type: {} is not LINEAR or EXPONENTIAL", quote(token)));
    return std::nullopt;
}

void Parser::parseFile()
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
            error(l.number, fmt::format("unexpected line {} outside any section", quote(l.text)));
            continue;
        }
        const SectionId id = sectionOf(l);
        if (id == SectionId::None) {
            if (looksLikeSectionTitle(l))
                error(l.number, fmt::format("unknown section {}", quote(l.text)));
            else
                error(
                    l.number, fmt::format("unknown keyword {} outside any section", quote(l.text)));
            skipToNextSection();
            continue;
        }
        auto &seen = seenAt[static_cast<std::size_t>(id)];
        if (seen != 0)
            error(l.number,
                fmt::format("a second {} section (the first is on line {})", quote(l.text), seen));
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

void Parser::skipToNextSection()
{
    while (!atEnd() && sectionOf(peek()) == SectionId::None && !isVersionLine(peek()))
        ++m_pos;
}

// "Version 1.1.0", a date "Version 2006.07.27" or a bare "1998.10.08": read as
// Iometer's GetVersion reads them (the first three numbers on the line). Most of what
// differs between releases is told apart by the header lines themselves; the access
// specifications' format is chosen by this number, as Iometer chooses it.
void Parser::parseVersion(const Line &l)
{
    const auto runs = digitRuns(l.text);
    if (runs.size() < 3) {
        error(l.number,
            fmt::format("{} is not a version line (expected \"Version 1.1.0\")", quote(l.text)));
        return;
    }
    if (!m_version)
        m_version = iometerVersion(runs);
}

void Parser::parseTestSetup(const Line &start)
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
            parseRunTime(h);
        } else if (k.starts_with(kw::rampUpPrefix)) {
            parseRampUp(h);
        } else if (k == kw::diskWorkers || k == kw::legacyWorkers) {
            parseDiskWorkers(h, k == kw::legacyWorkers);
        } else if (k == kw::networkWorkers) {
            parseNetworkWorkers(h);
        } else if (k == kw::recordResults) {
            parseRecordResults(h);
        } else if (k == kw::workerCycling) {
            parseCycling(h, ts.workerCycling, false);
        } else if (k == kw::diskCycling) {
            parseCycling(h, ts.targetCycling, false);
        } else if (k == kw::queueCycling) {
            parseCycling(h, ts.queueDepthCycling, true);
        } else if (k == kw::testType) {
            parseTestType(h);
        } else {
            unknownKeyword(h, b);
        }
    }
}

// 'Run time: hours, minutes, seconds.
void Parser::parseRunTime(const Line &h)
{
    TestSetup &ts = m_profile.setup;
    const Line *v = value(h);
    if (!v)
        return;
    const auto t = splitValues(v->text);
    if (!expectCount(*v, t, 3, "hours, minutes, seconds"))
        return;
    const auto hours = number(*v, t[0], kIntMax, "hours");
    const auto minutes = number(*v, t[1], kIntMax, "minutes");
    const auto seconds = number(*v, t[2], kIntMax, "seconds");
    if (hours && minutes && seconds)
        ts.runTime = std::chrono::seconds(
            static_cast<std::int64_t>(*hours * 3600 + *minutes * 60 + *seconds));
}

// 'Ramp up time (s).
void Parser::parseRampUp(const Line &h)
{
    TestSetup &ts = m_profile.setup;
    const Line *v = value(h);
    if (!v)
        return;
    const auto t = splitValues(v->text);
    if (!expectCount(*v, t, 1, "ramp up seconds"))
        return;
    if (const auto s = number(*v, t[0], kIntMax, "ramp up time"))
        ts.rampUp = std::chrono::seconds(static_cast<std::int64_t>(*s));
}

// 'Default disk workers to spawn (or the legacy 'Default workers to spawn).
void Parser::parseDiskWorkers(const Line &h, bool legacy)
{
    TestSetup &ts = m_profile.setup;
    const Line *v = value(h);
    if (!v)
        return;
    const auto t = splitValues(v->text);
    if (!expectCount(*v, t, 1, "number of workers or NUMBER_OF_CPUS"))
        return;
    if (equalsNoCase(t[0], "NUMBER_OF_CPUS")) {
        ts.defaultDiskWorkers.reset();
    } else if (const auto n = number32(*v, t[0], kIntMax, "disk workers")) {
        // Before 1999 "number of CPUs" was written as 0.
        if (legacy && *n == 0)
            ts.defaultDiskWorkers.reset();
        else
            ts.defaultDiskWorkers = *n;
    }
}

// 'Default network workers to spawn.
void Parser::parseNetworkWorkers(const Line &h)
{
    TestSetup &ts = m_profile.setup;
    const Line *v = value(h);
    if (!v)
        return;
    const auto t = splitValues(v->text);
    if (!expectCount(*v, t, 1, "number of workers or NUMBER_OF_CPUS"))
        return;
    if (equalsNoCase(t[0], "NUMBER_OF_CPUS")) {
        ts.defaultNetworkWorkers = 0;
        warning(v->number,
            "NUMBER_OF_CPUS network workers cannot be held (IOPrism "
            "counts network workers only by number); 0 is used");
    } else if (const auto n = number32(*v, t[0], kIntMax, "network workers")) {
        ts.defaultNetworkWorkers = *n;
    }
}

// 'Test type: a name from kTestTypeNames, or its index in older files.
void Parser::parseTestType(const Line &h)
{
    TestSetup &ts = m_profile.setup;
    const Line *v = value(h);
    if (!v)
        return;
    const auto t = splitValues(v->text);
    if (!expectCount(*v, t, 1, "test type"))
        return;
    if (const auto i = indexOfNoCase(kTestTypeNames, t[0])) {
        ts.testType = kTestTypes[*i];
    } else if (allDigits(t[0])) {
        // Files older than the keywords hold the index.
        if (const auto n = number(*v, t[0], kTestTypes.size() - 1, "test type"))
            ts.testType = kTestTypes[*n];
    } else {
        error(v->number,
            fmt::format("test type: {} is not one of {}", quote(t[0]), joinNames(kTestTypeNames)));
    }
}

// Iometer's filters and the rows they keep: ALL (everything), NO_TARGETS (no target
// rows), NO_WORKERS (no worker rows, hence no target rows either), NO_MANAGERS (only
// the ALL row), NONE. IOPrism's RecordFilter has no "summary only" value, so
// NO_MANAGERS becomes the nearest filter that records more.
void Parser::parseRecordResults(const Line &h)
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

void Parser::parseCycling(const Line &h, Cycling &c, bool withEnd)
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

void Parser::parseResultsDisplay(const Line &start)
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

void Parser::parseAccessSpecs(const Line &start)
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
void Parser::parseOldSpecs()
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

bool Parser::specNameTaken(const std::string &name) const
{
    return equalsNoCase(name, kIdleSpecName)
        || std::any_of(m_profile.specs.begin(), m_profile.specs.end(),
            [&](const AccessSpec &s) { return equalsNoCase(s.name, name); });
}

// Old specs have no name: a one-line spec is named as AccessSpecList::SmartName does
// ("4 KiB random 67% reads", then " 2", " 3" for repeats), others "Untitled n" as
// NextUntitled numbers them.
std::string Parser::oldSpecName(const AccessSpec &spec) const
{
    if (spec.lines.size() != 1) {
        std::size_t n = std::size_t(std::count_if(m_profile.specs.begin(), m_profile.specs.end(),
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

void Parser::parseSpec(const Line &h)
{
    const Line *v = value(h);
    if (!v)
        return;
    AccessSpec spec;
    const bool ok = parseSpecName(*v, spec);

    // Iometer requires a ' line (the column names) between the name and the lines.
    skipBlank();
    if (!atEnd() && peek().header && !isKeyword(peek()) && sectionOf(peek()) == SectionId::None)
        ++m_pos;
    else
        error(v->number,
            "expected the column line \"'size,% of size,% reads,% random,"
            "delay,burst,align,reply\" after the access specification name");

    std::uint64_t shareSum = 0;
    std::size_t lineCount = 0;
    const bool linesOk = parseSpecLines(spec, lineCount, shareSum);
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
    addSpec(*v, std::move(spec));
}

// The line "name,default assignment" of an access specification into `spec`; false
// when it is not usable (reported).
bool Parser::parseSpecName(const Line &v, AccessSpec &spec)
{
    bool ok = true;
    // Iometer names cannot hold commas; the assignment follows the last one.
    const auto comma = v.text.rfind(',');
    if (comma == std::string_view::npos) {
        error(v.number, fmt::format("expected \"name,default assignment\", got {}", quote(v.text)));
        ok = false;
        spec.name = std::string(v.text);
    } else {
        spec.name = std::string(trim(v.text.substr(0, comma)));
        const std::string_view a = trim(v.text.substr(comma + 1));
        if (const auto i = indexOfNoCase(kAssignmentNames, a)) {
            spec.defaultAssignment = kAssignments[*i];
        } else if (allDigits(a)) {
            if (const auto n = number(v, a, kAssignments.size() - 1, "default assignment"))
                spec.defaultAssignment = kAssignments[*n];
            else
                ok = false;
        } else {
            error(v.number,
                fmt::format("default assignment: {} is not one of {}", quote(a),
                    joinNames(kAssignmentNames)));
            ok = false;
        }
    }

    return ok;
}

// The value lines of an access specification, up to the next ' line, into `spec`;
// counts them and sums their shares. False when one is not usable (reported).
bool Parser::parseSpecLines(AccessSpec &spec, std::size_t &lineCount, std::uint64_t &shareSum)
{
    bool linesOk = true;
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
    return linesOk;
}

// Adds a read access specification to the profile, as Iometer would take it.
void Parser::addSpec(const Line &v, AccessSpec spec)
{
    // Iometer finds its own Idle under this name (AccessSpecList::LoadConfigNew looks
    // names up without case), and a worker assigned Idle never runs (Worker::
    // HasActiveCurrentSpec compares with the built-in Idle), whatever lines the file
    // gives it.
    if (equalsNoCase(spec.name, kIdleSpecName)) {
        warning(v.number,
            fmt::format("access specification {} is Iometer's built-in Idle; its lines are "
                        "not used and workers assigned it do no I/O",
                quote(spec.name)));
        return;
    }
    // Like Iometer, a later spec of the same name replaces the earlier one.
    for (auto &existing : m_profile.specs) {
        if (existing.name == spec.name) {
            warning(v.number,
                fmt::format("access specification {} is defined twice; "
                            "the later definition is used",
                    quote(spec.name)));
            existing = std::move(spec);
            return;
        }
    }
    m_profile.specs.push_back(std::move(spec));
}

} // namespace icf_detail

using icf_detail::Parser;

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

} // namespace ioprism::core
