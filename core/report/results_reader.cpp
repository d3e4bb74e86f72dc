// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/results_reader.h"

#include "core/profile/names.h"
#include "core/profile/profile_json.h"
#include "core/report/results_json.h"
#include "core/report/results_read_parts.h"
#include "core/run/resolved_plan.h"
#include "core/run/resolved_plan_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <tuple>

namespace ioprism::core {

TextPosition textPosition(std::string_view text, std::size_t byteOffset)
{
    TextPosition p;
    const std::size_t end = std::min(byteOffset, text.size());
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++p.line;
            p.column = 1;
        } else {
            ++p.column;
        }
    }
    return p;
}

namespace {

using namespace results_read;

void readDeviceCounters(const Node &n, DeviceMap &map, DeviceTail &d)
{
    const Node devices = n["devices"];
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const Node d = devices.at(i);
        WatchedDevice w;
        w.name = d["name"].string();
        w.role = enumByName(d["role"],
            {DeviceRole::Target, DeviceRole::Disk, DeviceRole::Slave, DeviceRole::Backing},
            [](DeviceRole role) { return toString(role); });
        w.via = d["via"].stringOrEmpty();
        w.inTotal = d["in_total"].boolean();
        map.devices.push_back(std::move(w));
    }
    const Node targets = n["targets"];
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const Node t = targets.at(i);
        TargetDevices td;
        td.targetPath = t["path"].string();
        if (!t["device"].isNull()) {
            const std::string name = t["device"].string();
            for (std::size_t d = 0; d < map.devices.size() && !td.device; ++d)
                if (map.devices[d].name == name)
                    td.device = d;
            if (!td.device)
                fail(t["device"], fmt::format("\"{}\" is not in device_counters.devices", name));
        }
        td.note = t["note"].string();
        map.targets.push_back(std::move(td));
    }
    const Node tail = n["tail"];
    if (!tail.isNull()) {
        d.sampled = true;
        d.seconds = tail["seconds"].numberOrNan();
        d.idle = tail["idle"].boolean();
        d.pendingWriteBytes = tail["pending_write_bytes"].u64();
        d.flushedWriteBytes = tail["flushed_write_bytes"].u64();
        d.remainingWriteBytes = tail["remaining_write_bytes"].u64();
        d.total = deviceFiguresOf(tail["total"]);
        d.devices = perDeviceOf(tail["devices"]);
    }
}

std::vector<std::string> stringsOf(const Node &n)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n.size(); ++i)
        out.push_back(n.at(i).string());
    return out;
}

// A host's facts: the environment without its targets (and each of RunResult::hosts).
void readHostFacts(const Node &n, Environment &e)
{
    e.hostName = n["host_name"].string();
    e.osName = n["os_name"].string();
    e.kernel = n["kernel"].string();
    e.cpuModel = n["cpu_model"].string();
    e.cpuCount = n["cpu_count"].u32();
    e.engine = n["engine"].string();
    if (n.has("reap_batch")) // absent in files written before it: each I/O was reaped alone
        e.reapBatch = std::max<std::uint32_t>(n["reap_batch"].u32(), 1);
    e.commandLine = n["command_line"].string();
    e.notices = stringsOf(n["notices"]);
    const Node devices = n["devices"];
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const Node d = devices.at(i);
        DeviceFacts f;
        f.path = d["path"].string();
        f.name = d["name"].string();
        f.model = d["model"].string();
        f.sizeBytes = d["size_bytes"].u64();
        f.rotational = d["rotational"].boolean();
        f.scheduler = d["scheduler"].string();
        f.logicalSectorBytes = d["logical_sector_bytes"].u32();
        f.physicalSectorBytes = d["physical_sector_bytes"].u32();
        f.nrRequests = d["nr_requests"].u32();
        f.writeCache = d["write_cache"].string();
        e.devices.push_back(std::move(f));
    }
}

// The environment; returns the targets' facts (environment.targets).
std::vector<TargetInfo> readEnvironment(const Node &n, RunResult &r)
{
    readHostFacts(n, r.environment);
    r.engine = r.environment.engine;
    r.notices = r.environment.notices;
    // The targets' facts, in the order of the plan's workers and their targets. Format 3
    // keeps them in the plan too (where they are read from); they stay here for readers
    // of earlier formats, and files of those have them only here (planOfOldFile).
    const Node targets = n["targets"];
    std::vector<TargetInfo> infos;
    for (std::size_t i = 0; i < targets.size(); ++i)
        infos.push_back(decodeTargetInfo(targets.at(i)));
    return infos;
}

// A run of several hosts (absent in a run of one): who each is, its facts and devices.
void readHosts(const Node &n, RunResult &r)
{
    for (std::size_t i = 0; !n.isNull() && i < n.size(); ++i) {
        const Node h = n.at(i);
        RunHost host;
        host.name = h["name"].string();
        host.rank = h["rank"].index();
        host.agent = h["agent"].stringOrEmpty();
        // Absent from files written before clocks were measured: the controller's clock.
        if (h.has("clock_offset_ns"))
            host.clockOffsetNs = h["clock_offset_ns"].i64();
        if (h.has("clock_uncertainty_ns"))
            host.clockUncertaintyNs = h["clock_uncertainty_ns"].i64();
        host.environment.toolVersion = h["tool_version"].string();
        readHostFacts(h["environment"], host.environment);
        readDeviceCounters(h["device_counters"], host.deviceMap, host.deviceTail);
        r.hosts.push_back(std::move(host));
    }
}

// "2024-05-01T12:30:15.250Z", as the writer makes it (UTC, milliseconds).
std::chrono::system_clock::time_point timestampOf(const Node &n)
{
    const std::string text = n.string();
    int year = 0;
    unsigned month = 0, day = 0, hour = 0, minute = 0, second = 0, ms = 0;
    char tail = 0;
    // NOLINTNEXTLINE(cert-err34-c): every field is checked below, and the length first.
    const int fields = text.size() == 24
        ? std::sscanf(text.c_str(), "%4d-%2u-%2uT%2u:%2u:%2u.%3u%c", &year, &month, &day, &hour,
            &minute, &second, &ms, &tail)
        : 0;
    using namespace std::chrono;
    const year_month_day date {
        std::chrono::year {year}, std::chrono::month {month}, std::chrono::day {day}};
    if (fields != 8 || tail != 'Z' || !date.ok() || hour > 23 || minute > 59 || second > 59)
        fail(n, fmt::format("\"{}\" is not a UTC time like 2024-05-01T12:30:15.250Z", text));
    // The system clock counts nanoseconds in 64 bits, about 292 years either side of
    // 1970; a run started outside that was not written by IOPrism (and would overflow).
    if (year < 1970 || year > 2200)
        fail(n, fmt::format("\"{}\" is not a time a run can have started (1970 to 2200)", text));
    return sys_days {date} + hours {hour} + minutes {minute} + seconds {second} + milliseconds {ms};
}

void readError(const Node &n, RunResult &r)
{
    if (n.isNull())
        return;
    OpError e;
    e.operation = n["operation"].string();
    e.path = n["path"].string();
    const Node code = n["code"];
    if (!code.json().is_number_integer())
        code.wrongType("a whole number");
    const auto value = code.json().get<std::int64_t>();
    if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max())
        fail(code, fmt::format("{} is not an error code", value));
    e.code = std::error_code(static_cast<int>(value), std::system_category());
    e.detail = n["detail"].string();
    r.error = std::move(e);
}

void readStuckIo(const Node &n, RunResult &r)
{
    if (n.isNull())
        return;
    StuckIo s;
    s.ios = n["ios"].u32();
    s.oldestSeconds = n["oldest_seconds"].numberOrNan();
    s.targets = stringsOf(n["targets"]);
    r.stuckIo = std::move(s);
}

// The intervals name their scopes without the target's path (the steps have it): each
// target scope gets the path of the step scope that is the same target, as it had in the
// run (the time series has it as a column).
void intervalTargetPaths(RunResult &r)
{
    std::map<std::tuple<int, int, std::string>, std::string> paths;
    for (const auto &step : r.steps)
        for (const auto &scope : step.scopes)
            if (scope.scope.kind == Scope::Kind::Target)
                paths.emplace(std::tuple(scope.scope.worker, scope.scope.target, scope.scope.label),
                    scope.scope.targetPath);
    for (auto &sample : r.intervals)
        for (auto &scope : sample.scopes) {
            Scope &s = scope.scope;
            if (s.kind != Scope::Kind::Target || !s.targetPath.empty())
                continue;
            const auto found = paths.find(std::tuple(s.worker, s.target, s.label));
            if (found != paths.end())
                s.targetPath = found->second;
        }
}

// ---------------------------------------------------------------- the plan

// Files before format 3 kept no plan. The simplest honest one is built from what they
// have (docs/results.md, "Reading results back"): the profile and its specs, each step as
// the file names it (readStep, readSeries), and one worker holding every target's facts
// in file order, running no spec at no depth: the file does not say which worker ran
// what, where, at which depth.
void planOfOldFile(RunResult &r, const std::vector<TargetInfo> &infos)
{
    r.plan.specs = r.plan.profile.specs;
    ResolvedWorker worker;
    for (const TargetInfo &info : infos) {
        ResolvedTarget target;
        target.info = info;
        target.target.path = info.path;
        worker.targets.push_back(std::move(target));
    }
    if (!worker.targets.empty())
        r.plan.workers.push_back(std::move(worker));
}

Profile profileOf(const Node &profile)
{
    Problems problems;
    auto p = profileFromJson(profile.json(), problems);
    if (!p) {
        std::string first = "not a valid profile";
        for (const auto &problem : problems)
            if (problem.severity == Severity::Error) {
                first = problem.toString();
                break;
            }
        failAt(profile, "profile", first);
    }
    return std::move(*p);
}

RunResult readDocument(const Node &doc, int version)
{
    RunResult r;
    r.runId = doc["run_id"].u64();
    r.startedAt = timestampOf(doc["started_at"]);
    if (doc.has("time_origin_at"))
        r.timeOriginAt = timestampOf(doc["time_origin_at"]);
    r.environment.toolVersion = doc["tool"]["version"].string();

    Profile profile = profileOf(doc["profile"]);
    const std::vector<TargetInfo> infos = readEnvironment(doc["environment"], r);
    // Since format 3 the file keeps the plan the run executed; nothing here plans again.
    const bool planKept = version >= 3;
    if (planKept)
        r.plan = decodeResolvedPlan(doc["plan"], std::move(profile));
    else
        r.plan.profile = std::move(profile);

    if (doc.has("preconditioning"))
        readPreconditioning(doc["preconditioning"], r);
    const Node steps = doc["steps"];
    for (std::size_t i = 0; i < steps.size(); ++i)
        readStep(steps.at(i), r, planKept);
    if (doc.has("series")) {
        if (!r.plan.profile.setup.series)
            failAt(doc, "series", "present, but the profile has no series");
        readSeries(doc["series"], r, planKept);
    }
    if (!planKept)
        planOfOldFile(r, infos);
    // Files written before the planner set cycling steps' points (all of format 1 and 2,
    // and format 3 until then) get them as the planner would.
    setCyclingPoints(r.plan.profile.setup, r.plan.steps);
    // Version 1: one object per interval; since 2, columns.
    const Node intervals = doc["intervals"];
    if (version == 1)
        for (std::size_t i = 0; i < intervals.size(); ++i)
            r.intervals.push_back(intervalOf(intervals.at(i), r.runId));
    else
        readIntervalColumns(intervals, r);
    intervalTargetPaths(r);
    readDeviceCounters(doc["device_counters"], r.deviceMap, r.deviceTail);
    readHosts(doc.optional("hosts"), r);
    readError(doc["error"], r);
    r.stoppedByUser = doc["stoppedByUser"].boolean();
    readStuckIo(doc.optional("stuck_io"), r);
    return r;
}

} // namespace

namespace {

// What the document is before its fields are read: parsed, an object, of our format, of a
// version this build reads.
struct Checked {
    Json document;
    std::string error;
    int version = 0;
    bool newerVersion = false;
};

// A headline needs neither the intervals nor the histograms: the parser skips building
// them (it still checks their syntax, so a damaged file is still found damaged).
bool skippedForHeadline(int depth, Json::parse_event_t event, const Json &parsed)
{
    if (event != Json::parse_event_t::key)
        return true;
    const auto &key = parsed.get_ref<const std::string &>();
    return !((depth == 1 && key == "intervals") || key == "histogram_ns" || key == "iometer_bins");
}

// The document's format and version, refused with the first problem.
void checkFormat(const Json &document, JsonReadContext &context, Checked &out)
{
    const Node doc(document, "", context);
    if (!document.is_object())
        failAt(doc, "",
            fmt::format("not an IOPrism results file: the document is {}, not an object",
                jsonTypeName(document)));
    if (!document.contains("format"))
        failAt(doc, "", "not an IOPrism results file: it has no \"format\" field");
    const std::string format = doc["format"].string();
    if (format == kProfileFormatName)
        failAt(doc, "format", "this is an IOPrism profile, not a results file");
    if (format != kResultsFormatName)
        failAt(doc, "format",
            fmt::format(
                "\"{}\" is not \"{}\": not an IOPrism results file", format, kResultsFormatName));
    const Node version = doc["version"];
    if (!version.json().is_number_integer())
        version.wrongType("a whole number");
    const auto v = version.json().get<std::int64_t>();
    if (v < 1)
        failAt(doc, "version", fmt::format("{} is not a version of the results format", v));
    out.version = v > std::numeric_limits<int>::max() ? std::numeric_limits<int>::max()
                                                      : static_cast<int>(v);
    if (v > kResultsFormatVersion) {
        out.newerVersion = true;
        failAt(doc, "",
            fmt::format("results format version {} was written by a newer IOPrism; this "
                        "IOPrism ({}) reads version {} at most: update IOPrism to "
                        "open it",
                v, IOPRISM_VERSION, kResultsFormatVersion));
    }
}

// Why the text is not JSON, from the parser's error.
std::string syntaxError(std::string_view text, const Json::parse_error &e)
{
    // e.byte counts from 1 and is the byte where the parser stopped.
    const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    const TextPosition at = textPosition(text, offset);
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return "empty file: not a results JSON";
    if (text[first] != '{' && text[first] != '[')
        return "not JSON (it does not start with '{')";
    if (e.byte >= text.size())
        return fmt::format("truncated: the JSON ends at line {}, column {} before it is complete "
                           "(a file cut short, e.g. by a full disk or a copy that did not finish)",
            at.line, at.column);
    return fmt::format("not valid JSON at line {}, column {}: {}", at.line, at.column, e.what());
}

Checked parseAndCheck(std::string_view text, bool headlineOnly)
{
    Checked out;
    try {
        out.document = headlineOnly ? Json::parse(text.begin(), text.end(), skippedForHeadline)
                                    : Json::parse(text.begin(), text.end());
    } catch (const Json::parse_error &e) {
        out.error = syntaxError(text, e);
        return out;
    } catch (const std::exception &e) {
        out.error = fmt::format("cannot read the results: {}", e.what());
        return out;
    }
    out.error = firstJsonReadError(
        [&](JsonReadContext &context) { checkFormat(out.document, context, out); },
        "cannot read the results: ");
    return out;
}

std::string profileName(const Profile &profile)
{
    if (!profile.setup.description.empty())
        return profile.setup.description;
    std::string names;
    for (const auto &spec : profile.specs)
        names += (names.empty() ? "" : ", ") + spec.name;
    return names.empty() ? std::string("(no specs)") : names;
}

} // namespace

std::string_view toString(RunOutcome outcome)
{
    switch (outcome) {
    case RunOutcome::Complete:
        return "complete";
    case RunOutcome::Stopped:
        return "stopped";
    case RunOutcome::Failed:
        return "failed";
    }
    return "";
}

RunOutcome runOutcome(const RunResult &result)
{
    if (result.error)
        return RunOutcome::Failed;
    const bool cut = std::any_of(
        result.steps.begin(), result.steps.end(), [](const StepResult &s) { return !s.complete; });
    return result.stoppedByUser || cut ? RunOutcome::Stopped : RunOutcome::Complete;
}

ResultsRead readResultsJson(std::string_view text)
{
    ResultsRead out;
    Checked checked = parseAndCheck(text, false);
    out.version = checked.version;
    out.newerVersion = checked.newerVersion;
    if (!checked.error.empty()) {
        out.error = std::move(checked.error);
        return out;
    }
    // Every access is checked; anything else (bad_alloc) still becomes a message, since a
    // reader of outside data must not end the process.
    out.error = firstJsonReadError(
        [&](JsonReadContext &context) {
            out.result = readDocument(Node(checked.document, "", context), checked.version);
        },
        "cannot read the results: ");
    if (!out.error.empty())
        out.result.reset();
    return out;
}

namespace {

// The headline's targets and device models (environment.targets, else the profile's).
void headlineTargets(const Node &doc, const Profile &profile, ResultsHeadline &h)
{
    const Node env = doc["environment"];
    const Node targets = env["targets"];
    const Node devices = env["devices"];
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const std::string path = targets.at(i)["path"].string();
        std::string model;
        for (std::size_t d = 0; d < devices.size(); ++d)
            if (devices.at(d)["path"].string() == path)
                model = devices.at(d)["model"].string();
        h.targets.push_back(path);
        h.deviceModels.push_back(model);
    }
    // A run refused before preparing its targets has no facts of them: its profile's.
    if (h.targets.empty())
        for (const auto &host : profile.hosts)
            for (const auto &worker : host.workers)
                for (const auto &target : worker.targets)
                    if (std::find(h.targets.begin(), h.targets.end(), target.path)
                        == h.targets.end()) {
                        h.targets.push_back(target.path);
                        h.deviceModels.emplace_back();
                    }
}

ResultsHeadline headlineOf(const Node &doc)
{
    ResultsHeadline h;
    h.startedAt = timestampOf(doc["started_at"]);
    h.toolVersion = doc["tool"]["version"].string();
    const Profile profile = profileOf(doc["profile"]);
    h.profileName = profileName(profile);
    h.engine = doc["environment"]["engine"].string();
    headlineTargets(doc, profile, h);
    const Node steps = doc["steps"];
    h.steps = steps.size();
    h.iops = h.megabytesPerSecond = h.meanLatencyUs = h.p99LatencyUs
        = std::numeric_limits<double>::quiet_NaN();
    bool cut = false;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const Node step = steps.at(i);
        cut |= !step["complete"].boolean();
        const Verdict v = verdictOf(step["devices"]["verdict"]["verdict"]);
        if (notability(v) > notability(h.verdict))
            h.verdict = v;
        // The step's All scope (first in scopes); a step that completed no I/O (an
        // Idle pause, a step failed at its start) has no figure to show.
        const Node scopes = step["scopes"];
        if (scopes.size() == 0)
            continue;
        const Node total = scopes.at(0)["total"];
        const double iops = total["iops"].numberOrNan();
        if (total["ios"].u64() == 0 || !std::isfinite(iops) || (h.figureStep && !(iops > h.iops)))
            continue;
        h.figureStep = i;
        h.figureStepName = step["name"].string();
        h.iops = iops;
        h.megabytesPerSecond = total["mbps"].numberOrNan();
        h.meanLatencyUs = total["latency_us"]["mean"].numberOrNan();
        h.p99LatencyUs = total["latency_us"]["p99"].numberOrNan();
    }
    const Node error = doc["error"];
    if (!error.isNull()) {
        h.outcome = RunOutcome::Failed;
        h.error = error["text"].string();
    } else if (doc["stoppedByUser"].boolean() || cut) {
        h.outcome = RunOutcome::Stopped;
    }
    return h;
}

} // namespace

ResultsHeadlineRead readResultsHeadline(std::string_view text)
{
    ResultsHeadlineRead out;
    Checked checked = parseAndCheck(text, true);
    if (!checked.error.empty()) {
        out.error = std::move(checked.error);
        return out;
    }
    out.error = firstJsonReadError(
        [&](JsonReadContext &context) {
            out.headline = headlineOf(Node(checked.document, "", context));
        },
        "cannot read the results: ");
    if (!out.error.empty())
        out.headline.reset();
    return out;
}

std::string headlineFigureLabel(const ResultsHeadline &headline)
{
    if (headline.steps < 2 || !headline.figureStep)
        return {};
    return fmt::format("best of {}: {}", headline.steps, headline.figureStepName);
}

std::string shortenedText(std::string_view text, std::size_t maxChars)
{
    constexpr std::string_view kEllipsis = "\xE2\x80\xA6"; // U+2026 in UTF-8
    // A code point starts at every byte that is not a continuation byte (10xxxxxx).
    const auto isStart = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (!isStart(text[i]))
            continue;
        if (chars + 1 == maxChars) {
            // Room for one more: the rest if it is that one character, else the ellipsis.
            std::size_t next = i + 1;
            while (next < text.size() && !isStart(text[next]))
                ++next;
            if (next >= text.size())
                return std::string(text);
            return std::string(text.substr(0, i)) + std::string(kEllipsis);
        }
        ++chars;
    }
    return std::string(text);
}

} // namespace ioprism::core
