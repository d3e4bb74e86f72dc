// SPDX-License-Identifier: GPL-3.0-or-later
// Internals shared by the .icf reader (icf_read*.cpp), writer (icf_write.cpp) and the
// volume helpers (icf_volumes.cpp): text helpers, lines, keywords, Iometer's tables.
#pragma once

#include "core/profile/icf.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ioprism::core::icf_detail {

// Iometer keeps most numbers in a C `int`: larger values do not survive its reader.
inline constexpr std::uint64_t kIntMax = 2147483647;
inline constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
inline constexpr std::uint64_t kMaxSectors = kU64Max / kIcfSectorBytes;
// After this many errors the rest of the file is not worth reading (binary garbage).
inline constexpr std::size_t kMaxErrors = 50;
inline constexpr std::string_view kVersionLine = "Version 1.1.0 ";
// Section title lines are padded with '=' to this width, as Iometer writes them.
inline constexpr std::size_t kTitleWidth = 80;

// ------------------------------------------------------------------ text helpers

constexpr char toLowerAscii(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

constexpr bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

std::string_view trim(std::string_view s);

bool equalsNoCase(std::string_view a, std::string_view b);

bool startsWithNoCase(std::string_view s, std::string_view prefix);

bool isDigit(char c);

bool allDigits(std::string_view s);

bool isValidUtf8(std::string_view s);

std::string quote(std::string_view s);

std::string normalizeHeader(std::string_view text);

std::vector<std::string_view> splitValues(std::string_view s);

// ------------------------------------------------------------------ lines

struct Line {
    std::size_t number = 0;
    std::string_view text; // surrounding whitespace removed
    bool header = false; // a ' line (Iometer calls them comments)
    bool blank = false;
};

bool startsHeader(std::string_view raw);

std::vector<Line> splitLines(std::string_view text);

bool isVersionLine(const Line &l);

std::vector<std::uint64_t> digitRuns(std::string_view text);

bool isBareVersionLine(const Line &l);

std::uint64_t iometerVersion(const std::vector<std::uint64_t> &runs);

// Access specifications have names, alignment and reply since Iometer 1998.05.21; older
// files list nameless lines (AccessSpecList::LoadConfig picks the reader by version).
inline constexpr std::uint64_t kFirstNamedSpecsVersion = 19980521;

bool isColumnComment(const Line &l);

enum class SectionId { None, TestSetup, ResultsDisplay, AccessSpecs, ManagerList };

SectionId sectionOf(const Line &l);

bool looksLikeSectionTitle(const Line &l);

// ------------------------------------------------------------------ keywords

namespace kw {
inline constexpr std::string_view endTestSetup = "'end test setup";
inline constexpr std::string_view endResultsDisplay = "'end results display";
inline constexpr std::string_view endAccessSpecs = "'end access specifications";
inline constexpr std::string_view endManagerList = "'end manager list";
inline constexpr std::string_view endManager = "'end manager";
inline constexpr std::string_view endWorker = "'end worker";
inline constexpr std::string_view endDefaults = "'end default target settings for worker";
inline constexpr std::string_view endAssigned = "'end assigned access specs";
inline constexpr std::string_view endTargets = "'end target assignments";
inline constexpr std::string_view endTarget = "'end target";

inline constexpr std::string_view description = "'test description";
inline constexpr std::string_view runTime = "'run time";
inline constexpr std::string_view rampUpPrefix = "'ramp up time";
inline constexpr std::string_view legacyWorkers = "'default workers to spawn";
inline constexpr std::string_view diskWorkers = "'default disk workers to spawn";
inline constexpr std::string_view networkWorkers = "'default network workers to spawn";
inline constexpr std::string_view recordResults = "'record results";
inline constexpr std::string_view workerCycling = "'worker cycling";
inline constexpr std::string_view diskCycling = "'disk cycling";
inline constexpr std::string_view queueCycling = "'queue depth cycling";
inline constexpr std::string_view testType = "'test type";

inline constexpr std::string_view specName = "'access specification name,default assignment";
// Before 1998.05.21: no name, alignment or reply (AccessSpecList::LoadConfigOld).
inline constexpr std::string_view oldSpecColumns = "'size,% of size,% reads,% random,delay,burst";

inline constexpr std::string_view manager = "'manager id,manager name";
inline constexpr std::string_view networkAddress = "'manager network address";
inline constexpr std::string_view worker = "'worker";
inline constexpr std::string_view workerType = "'worker type";
inline constexpr std::string_view defaults = "'default target settings for worker";
inline constexpr std::string_view queueOld
    = "'number of outstanding ios,test connection rate,transactions per connection";
inline constexpr std::string_view queueNew
    = "'number of outstanding ios,test connection rate,"
      "transactions per connection,use fixed seed,fixed seed value";
inline constexpr std::string_view diskOld = "'disk maximum size,starting sector";
inline constexpr std::string_view diskNew = "'disk maximum size,starting sector,data pattern";
// Seen in generated files for pre-1.1.0 development builds: 0 = the old pseudo-random
// buffer, 1 = random data (read as full random).
inline constexpr std::string_view diskRandom = "'disk maximum size,starting sector,use random data";
inline constexpr std::string_view localInterface = "'local network interface";
inline constexpr std::string_view viOutstanding = "'vi outstanding ios";
inline constexpr std::string_view assigned = "'assigned access specs";
inline constexpr std::string_view targets = "'target assignments";
inline constexpr std::string_view target = "'target";
inline constexpr std::string_view targetType = "'target type";
inline constexpr std::string_view targetManager = "'target manager id,manager name";
} // namespace kw

bool isKeyword(const Line &l);

// Iometer's keyword tables, in the order of its enums (so the legacy integer forms map
// by index).
inline constexpr std::array<std::string_view, 8> kTestTypeNames = {
    "NORMAL",
    "CYCLE_TARGETS",
    "CYCLE_WORKERS",
    "INCREMENT_TARGETS_PARALLEL",
    "INCREMENT_TARGETS_SERIAL",
    "CYCLE_WORKERS_AND_TARGETS",
    "CYCLE_OUTSTANDING_IOS",
    "CYCLE_OUTSTANDING_IOS_AND_TARGETS",
};
inline constexpr std::array<TestType, 8> kTestTypes = {
    TestType::Normal,
    TestType::CycleTargets,
    TestType::CycleWorkers,
    TestType::IncrementTargetsParallel,
    TestType::IncrementTargetsSerial,
    TestType::CycleWorkersAndTargets,
    TestType::CycleOutstandingIos,
    TestType::CycleOutstandingIosAndTargets,
};

inline constexpr std::array<std::string_view, 5> kRecordNames
    = {"ALL", "NO_TARGETS", "NO_WORKERS", "NO_MANAGERS", "NONE"};

inline constexpr std::array<std::string_view, 4> kAssignmentNames = {"NONE", "ALL", "DISK", "NET"};
inline constexpr std::array<SpecAssignment, 4> kAssignments
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

// Whether Iometer itself could have reported this name for a test-file (logical) disk.
bool isIometerVolumeName(std::string_view t);

} // namespace ioprism::core::icf_detail
