// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/profile_json.h"

#include "core/json/json_reader.h"
#include "core/profile/names.h"
#include "core/profile/units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace ioprism::core {

namespace {

using Json = nlohmann::json;

using Reader = JsonReadContext;

// A profile is the user's: every problem in one pass, each quoting the value given.
Reader profileReadContext(Problems &problems)
{
    return Reader(problems, Reader::Policy::CollectAll, Reader::Wording::ValueGiven);
}

// ------------------------------------------------------------------ scalar readers
// Each reader assigns `out` only when the value is good, so a bad field keeps the
// model's default and reading goes on to report the next problem.

// The parser stores non-negative integers as unsigned; documents built in code
// (profileFromJson) may hold them as signed.
bool isNonNegativeInteger(const Json &v)
{
    return v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0);
}

bool readUnsigned(
    Reader &r, const Json &v, const std::string &path, std::uint64_t max, std::uint64_t &out)
{
    if (isNonNegativeInteger(v)) {
        const auto u = v.get<std::uint64_t>();
        if (u <= max) {
            out = u;
            return true;
        }
    } else if (v.is_number_float()) {
        // 1e3 or 32.0 are whole numbers written as floats; accept them exactly.
        const double d = v.get<double>();
        if (d >= 0 && std::floor(d) == d && d < std::ldexp(1.0, 64)
            && static_cast<std::uint64_t>(d) <= max) {
            out = static_cast<std::uint64_t>(d);
            return true;
        }
    }
    r.error(path,
        "expected a whole number from 0 to " + std::to_string(max) + ", got " + jsonValueText(v));
    return false;
}

template<typename T> void readUint(Reader &r, const Json &v, const std::string &path, T &out)
{
    std::uint64_t u = 0;
    if (readUnsigned(r, v, path, std::numeric_limits<T>::max(), u))
        out = static_cast<T>(u);
}

void readSize(Reader &r, const Json &v, const std::string &path, std::uint64_t &out)
{
    std::optional<std::uint64_t> bytes;
    if (isNonNegativeInteger(v)) {
        bytes = v.get<std::uint64_t>();
    } else if (v.is_number_float()) {
        const double d = v.get<double>();
        if (d >= 0 && std::floor(d) == d && d < std::ldexp(1.0, 64))
            bytes = static_cast<std::uint64_t>(d);
    } else if (v.is_string()) {
        bytes = parseSize(v.get_ref<const std::string &>());
    }
    if (bytes)
        out = *bytes;
    else
        r.error(path,
            "expected a size such as 4096, 512B, 4KiB or 1MiB (units are binary; "
            "at most 2^64 - 1 bytes), got "
                + jsonValueText(v));
}

std::string_view unitName(DurationUnit unit)
{
    switch (unit) {
    case DurationUnit::Microseconds:
        return "microseconds";
    case DurationUnit::Milliseconds:
        return "milliseconds";
    case DurationUnit::Seconds:
        return "seconds";
    }
    return "seconds";
}

// Reads a duration into the model's unit `Duration` (seconds, milliseconds or
// microseconds). Numbers are in `bareUnit`; strings may carry units.
template<typename Duration>
void readDuration(Reader &r, const Json &v, const std::string &path, DurationUnit bareUnit,
    DurationUnit modelUnit, std::optional<Duration> (*convert)(const DurationParts &),
    Duration &out)
{
    std::optional<DurationParts> parts;
    if (v.is_string())
        parts = parseDurationParts(v.get_ref<const std::string &>(), bareUnit);
    else if (isNonNegativeInteger(v))
        parts = parseDurationParts(std::to_string(v.get<std::uint64_t>()), bareUnit);
    else if (v.is_number_float())
        parts = parseDurationParts(v.dump(), bareUnit); // "1.5"; exponents are rejected
    if (!parts) {
        r.error(path,
            "expected a duration such as 90 (" + std::string(unitName(bareUnit))
                + "), 1m30s, 500ms or 250us, got " + jsonValueText(v));
        return;
    }
    if (const auto value = convert(*parts)) {
        out = *value;
        return;
    }
    bool fractional = false;
    if (modelUnit == DurationUnit::Seconds)
        fractional = parts->microseconds != 0;
    else if (modelUnit == DurationUnit::Milliseconds)
        fractional = parts->microseconds % 1000 != 0;
    if (fractional)
        r.error(path,
            jsonValueText(v) + " is not a whole number of " + std::string(unitName(modelUnit)));
    else
        r.error(path, jsonValueText(v) + " is too long");
}

void readDouble(Reader &r, const Json &v, const std::string &path, double &out)
{
    if (v.is_number())
        out = v.get<double>();
    else
        r.wrongType(path, v, "a number");
}

void readBool(Reader &r, const Json &v, const std::string &path, bool &out)
{
    if (v.is_boolean())
        out = v.get<bool>();
    else
        r.wrongType(path, v, "true or false");
}

void readString(Reader &r, const Json &v, const std::string &path, std::string &out)
{
    if (v.is_string())
        out = v.get<std::string>();
    else
        r.wrongType(path, v, "a string");
}

template<typename E> void readEnum(Reader &r, const Json &v, const std::string &path, E &out)
{
    if (v.is_string()) {
        if (const auto e = parseEnum<E>(v.get_ref<const std::string &>())) {
            out = *e;
            return;
        }
        r.error(path, jsonValueText(v) + " is not one of: " + allowedNames<E>());
        return;
    }
    r.error(path, "expected one of: " + allowedNames<E>() + ", got " + jsonValueText(v));
}

// ------------------------------------------------------------------ fields
// A typed field of an object: read when it is there, its problem named by its path.

using ObjectReader = JsonObjectReader;

template<typename T> void uintField(ObjectReader &o, std::string_view key, T &out)
{
    o.field(key, [&](const Json &v, const std::string &p) { readUint(o.context(), v, p, out); });
}

// An optional whole number: absent or null = unset.
template<typename T>
void optionalUintField(ObjectReader &o, std::string_view key, std::optional<T> &out)
{
    o.field(key, [&](const Json &v, const std::string &p) {
        if (v.is_null()) {
            out.reset();
            return;
        }
        std::uint64_t u = 0;
        if (readUnsigned(o.context(), v, p, std::numeric_limits<T>::max(), u))
            out = static_cast<T>(u);
    });
}

void sizeField(ObjectReader &o, std::string_view key, std::uint64_t &out)
{
    o.field(key, [&](const Json &v, const std::string &p) { readSize(o.context(), v, p, out); });
}

void numberField(ObjectReader &o, std::string_view key, double &out)
{
    o.field(key, [&](const Json &v, const std::string &p) { readDouble(o.context(), v, p, out); });
}

void booleanField(ObjectReader &o, std::string_view key, bool &out)
{
    o.field(key, [&](const Json &v, const std::string &p) { readBool(o.context(), v, p, out); });
}

void stringField(ObjectReader &o, std::string_view key, std::string &out)
{
    o.field(key, [&](const Json &v, const std::string &p) { readString(o.context(), v, p, out); });
}

template<typename E> void enumerationField(ObjectReader &o, std::string_view key, E &out)
{
    o.field(key, [&](const Json &v, const std::string &p) { readEnum(o.context(), v, p, out); });
}

void secondsField(ObjectReader &o, std::string_view key, std::chrono::seconds &out)
{
    o.field(key, [&](const Json &v, const std::string &p) {
        readDuration(
            o.context(), v, p, DurationUnit::Seconds, DurationUnit::Seconds, &toSeconds, out);
    });
}

void millisecondsField(
    ObjectReader &o, std::string_view key, DurationUnit bareUnit, std::chrono::milliseconds &out)
{
    o.field(key, [&](const Json &v, const std::string &p) {
        readDuration(o.context(), v, p, bareUnit, DurationUnit::Milliseconds, &toMilliseconds, out);
    });
}

void microsecondsField(
    ObjectReader &o, std::string_view key, DurationUnit bareUnit, std::chrono::microseconds &out)
{
    o.field(key, [&](const Json &v, const std::string &p) {
        readDuration(o.context(), v, p, bareUnit, DurationUnit::Microseconds, &toMicroseconds, out);
    });
}

// ------------------------------------------------------------------ model readers

void readRegion(ObjectReader &o, Region &region)
{
    sizeField(o, "offset", region.offsetBytes);
    sizeField(o, "size", region.sizeBytes);
}

void readDataPattern(ObjectReader &o, DataPattern &pattern)
{
    enumerationField(o, "kind", pattern.kind);
    uintField(o, "byte", pattern.repeatingByte);
    uintField(o, "compressiblePercent", pattern.compressiblePercent);
}

void readDistribution(ObjectReader &o, RandomDistribution &d)
{
    enumerationField(o, "kind", d.kind);
    numberField(o, "theta", d.zipfTheta);
    numberField(o, "h", d.paretoH);
    numberField(o, "sigmaPercent", d.normalSigmaPercent);
    o.objects("zones", d.hotZones, [](ObjectReader &z, HotZone &zone) {
        numberField(z, "access", zone.accessPercent);
        numberField(z, "region", zone.regionPercent);
    });
}

void readLine(ObjectReader &o, SpecLine &line)
{
    sizeField(o, "transferSize", line.transferSizeBytes);
    uintField(o, "share", line.sharePercent);
    uintField(o, "percentRead", line.percentRead);
    uintField(o, "percentRandom", line.percentRandom);
    millisecondsField(o, "delay", DurationUnit::Milliseconds, line.delay);
    uintField(o, "burst", line.burstLength);
    // Iometer aligns on the transfer size unless told otherwise.
    line.alignmentBytes = line.transferSizeBytes;
    sizeField(o, "alignment", line.alignmentBytes);
    sizeField(o, "reply", line.replySizeBytes);
    o.object("distribution", [&](ObjectReader &d) { readDistribution(d, line.distribution); });
    o.object("rateLimit", [&](ObjectReader &rl) {
        numberField(rl, "iops", line.rateLimit.iops);
        numberField(rl, "mbps", line.rateLimit.megabytesPerSecond);
    });
    microsecondsField(o, "thinkTime", DurationUnit::Microseconds, line.thinkTime);
    o.field("dataPattern", [&](const Json &v, const std::string &p) {
        if (v.is_null()) {
            line.dataPattern.reset();
            return;
        }
        ObjectReader dp(o.context(), v, p);
        if (!dp.ok())
            return;
        DataPattern pattern;
        readDataPattern(dp, pattern);
        dp.finish();
        line.dataPattern = pattern;
    });
}

void readSpec(ObjectReader &o, AccessSpec &spec)
{
    stringField(o, "name", spec.name);
    enumerationField(o, "defaultAssignment", spec.defaultAssignment);
    optionalUintField(o, "queueDepth", spec.queueDepth);
    optionalUintField(o, "threads", spec.threads);
    o.objects("lines", spec.lines, readLine);
}

void readFileTree(ObjectReader &o, FileTree &tree)
{
    uintField(o, "depth", tree.depth);
    uintField(o, "filesPerLevel", tree.filesPerLevel);
    sizeField(o, "fileSize", tree.fileSizeBytes);
    uintField(o, "preInitOperations", tree.preInitOperations);
}

void readTarget(ObjectReader &o, Target &target)
{
    enumerationField(o, "kind", target.kind);
    stringField(o, "path", target.path);
    o.object("region", [&](ObjectReader &r) { readRegion(r, target.region); });
    sizeField(o, "fileSize", target.testFileSizeBytes);
    o.object("tree", [&](ObjectReader &t) { readFileTree(t, target.tree); });
    enumerationField(o, "cache", target.cacheMode);
    booleanField(o, "writeThrough", target.writeThrough);
    optionalUintField(o, "outstandingIos", target.outstandingIos);
    booleanField(o, "unresolved", target.unresolved);
}

void readWorker(ObjectReader &o, Worker &worker)
{
    stringField(o, "name", worker.name);
    enumerationField(o, "type", worker.type);
    uintField(o, "outstandingIos", worker.outstandingIos);
    // Vectors start empty (a fresh Profile), so array elements are simply appended.
    o.array("specs", [&](const Json &v, const std::string &p) {
        std::string name;
        readString(o.context(), v, p, name);
        worker.assignedSpecs.push_back(std::move(name));
    });
    o.array("cpuAffinity", [&](const Json &v, const std::string &p) {
        std::uint32_t cpu = 0;
        readUint(o.context(), v, p, cpu);
        worker.cpuAffinity.push_back(cpu);
    });
    o.field("seed", [&](const Json &v, const std::string &p) {
        if (v.is_null() || (v.is_string() && v.get_ref<const std::string &>() == "random")) {
            worker.seed.reset();
            return;
        }
        std::uint64_t seed = 0;
        if (v.is_number()
            && readUnsigned(o.context(), v, p, std::numeric_limits<std::uint64_t>::max(), seed))
            worker.seed = seed;
        else if (!v.is_number())
            o.context().error(p, "expected a whole number or \"random\", got " + jsonValueText(v));
    });
    o.object("dataPattern", [&](ObjectReader &dp) { readDataPattern(dp, worker.dataPattern); });
    o.object("defaultRegion", [&](ObjectReader &r) { readRegion(r, worker.defaultRegion); });
    booleanField(o, "testConnectionRate", worker.testConnectionRate);
    uintField(o, "transactionsPerConnection", worker.transactionsPerConnection);
    o.objects("targets", worker.targets, readTarget);
}

void readHost(ObjectReader &o, Host &host)
{
    uintField(o, "id", host.id);
    stringField(o, "name", host.name);
    stringField(o, "address", host.networkAddress);
    o.objects("workers", host.workers, readWorker);
}

void readCycling(ObjectReader &o, Cycling &c)
{
    uintField(o, "start", c.start);
    uintField(o, "step", c.step);
    uintField(o, "end", c.end);
    enumerationField(o, "stepType", c.stepType);
}

// A value of a sweep: a size for transferSize ("4KiB"), else a whole number.
void readSweepValue(ObjectReader &o, SweepParameter parameter, const Json &v,
    const std::string &path, std::uint64_t &out)
{
    if (parameter == SweepParameter::TransferSize)
        readSize(o.context(), v, path, out);
    else
        readUint(o.context(), v, path, out);
}

void readSweepAxis(ObjectReader &o, SweepAxis &axis)
{
    enumerationField(o, "parameter", axis.parameter);
    const auto value = [&](std::string_view key, std::uint64_t &out) {
        o.field(key, [&](const Json &v, const std::string &p) {
            readSweepValue(o, axis.parameter, v, p, out);
        });
    };
    o.array("values", [&](const Json &v, const std::string &p) {
        readSweepValue(o, axis.parameter, v, p, axis.values.emplace_back());
    });
    value("from", axis.from);
    value("to", axis.to);
    uintField(o, "multiply", axis.multiply);
    value("add", axis.add);
}

void readProfileSeries(ObjectReader &o, Series &series)
{
    o.objects("axes", series.axes, readSweepAxis);
    uintField(o, "repeat", series.repeat);
    uintField(o, "ios", series.ios);
    booleanField(o, "targetsInTurn", series.targetsInTurn);
    millisecondsField(o, "workerStagger", DurationUnit::Seconds, series.workerStagger);
}

// A name one of `parse` knows, else the problem lists them.
template<typename E>
void namedField(ObjectReader &o, std::string_view key, E &out,
    std::optional<E> (*parse)(std::string_view), std::string_view allowed)
{
    o.field(key, [&](const Json &v, const std::string &p) {
        if (v.is_string())
            if (const auto e = parse(v.get_ref<const std::string &>())) {
                out = *e;
                return;
            }
        o.context().error(p, jsonValueText(v) + " is not one of: " + std::string(allowed));
    });
}

// Percentages in the file, shares of the mean in the model.
void percentField(ObjectReader &o, std::string_view key, double &share)
{
    double percent = share * 100;
    numberField(o, key, percent);
    share = percent / 100;
}

void readSteadyState(ObjectReader &o, SteadyStateSetup &steady)
{
    namedField(
        o, "rule", steady.criteria.rule, &parseSteadyStateRule, "pts, fio-deviation, fio-slope");
    namedField(o, "metric", steady.metric, &parseSteadyStateMetric, "iops, mbps, mean, p99, p99.9");
    millisecondsField(o, "roundTime", DurationUnit::Seconds, steady.roundTime);
    uintField(o, "windowRounds", steady.criteria.windowRounds);
    percentField(o, "rangePercent", steady.criteria.rangeLimit);
    percentField(o, "slopePercent", steady.criteria.slopeLimit);
    uintField(o, "roundLimit", steady.criteria.roundLimit);
}

void readPrecondition(ObjectReader &o, PreconditionSetup &p)
{
    namedField(o, "kind", p.kind, &parsePreconditionKind, "sequential, workload");
    numberField(o, "capacityMultiple", p.capacityMultiple);
    secondsField(o, "time", p.time);
}

void readSetup(ObjectReader &o, TestSetup &s)
{
    stringField(o, "description", s.description);
    secondsField(o, "runTime", s.runTime);
    secondsField(o, "rampUp", s.rampUp);
    millisecondsField(o, "interval", DurationUnit::Seconds, s.interval);
    enumerationField(o, "recordFilter", s.recordFilter);
    o.field("defaultDiskWorkers", [&](const Json &v, const std::string &p) {
        if (v.is_null() || (v.is_string() && v.get_ref<const std::string &>() == "cpus")) {
            s.defaultDiskWorkers.reset();
            return;
        }
        std::uint64_t n = 0;
        if (!v.is_number()) {
            o.context().error(p, "expected a whole number or \"cpus\", got " + jsonValueText(v));
            return;
        }
        if (readUnsigned(o.context(), v, p, std::numeric_limits<std::uint32_t>::max(), n))
            s.defaultDiskWorkers = static_cast<std::uint32_t>(n);
    });
    uintField(o, "defaultNetworkWorkers", s.defaultNetworkWorkers);
    o.object("workerCycling", [&](ObjectReader &c) { readCycling(c, s.workerCycling); });
    o.object("targetCycling", [&](ObjectReader &c) { readCycling(c, s.targetCycling); });
    o.object("queueDepthCycling", [&](ObjectReader &c) { readCycling(c, s.queueDepthCycling); });
    enumerationField(o, "testType", s.testType);
    o.field("series", [&](const Json &v, const std::string &p) {
        if (v.is_null()) {
            s.series.reset();
            return;
        }
        ObjectReader nested(o.context(), v, p);
        if (!nested.ok())
            return;
        readProfileSeries(nested, s.series.emplace());
        nested.finish();
    });
    o.field("steadyState", [&](const Json &v, const std::string &p) {
        if (v.is_null()) {
            s.steadyState.reset();
            return;
        }
        ObjectReader nested(o.context(), v, p);
        if (!nested.ok())
            return;
        readSteadyState(nested, s.steadyState.emplace());
        nested.finish();
    });
    o.field("precondition", [&](const Json &v, const std::string &p) {
        if (v.is_null()) {
            s.precondition.reset();
            return;
        }
        ObjectReader nested(o.context(), v, p);
        if (!nested.ok())
            return;
        readPrecondition(nested, s.precondition.emplace());
        nested.finish();
    });
    uintField(o, "passes", s.passes);
    secondsField(o, "pauseBetweenTests", s.pauseBetweenTests);
}

// Reads the document into `profile`; false when the document is not a profile at all
// (not an object, or another format), in which case nothing else is worth reporting.
bool readProfile(Reader &r, const Json &document, Profile &profile)
{
    ObjectReader o(r, document, "");
    if (!o.ok())
        return false;
    const std::string expectedFormat(kProfileFormatName);
    if (const Json *format = o.take("format")) {
        if (!format->is_string() || format->get_ref<const std::string &>() != expectedFormat) {
            r.error("format",
                jsonValueText(*format) + " is not \"" + expectedFormat
                    + "\": this is not an IOPrism profile");
            return false;
        }
    } else {
        r.error("format", "missing: a profile starts with \"format\": \"" + expectedFormat + "\"");
    }
    const std::string supported = std::to_string(kProfileFormatVersion);
    if (const Json *version = o.take("version")) {
        if (!version->is_number_integer()) {
            r.error("version", "expected " + supported + ", got " + jsonValueText(*version));
        } else if (version->get<std::int64_t>() != kProfileFormatVersion) {
            r.error("version",
                jsonValueText(*version) + " is not supported: this IOPrism reads version "
                    + supported);
        }
    } else {
        r.error("version", "missing: add \"version\": " + supported);
    }
    o.object("setup", [&](ObjectReader &s) { readSetup(s, profile.setup); });
    o.objects("specs", profile.specs, readSpec);
    o.objects("hosts", profile.hosts, readHost);
    o.array("icfResultsDisplay", [&](const Json &v, const std::string &p) {
        std::string line;
        readString(r, v, p, line);
        profile.icfResultsDisplay.push_back(std::move(line));
    });
    o.finish();
    return true;
}

bool hasErrorsSince(const Problems &problems, std::size_t first)
{
    for (std::size_t i = first; i < problems.size(); ++i)
        if (problems[i].severity == Severity::Error)
            return true;
    return false;
}

// ------------------------------------------------------------------ syntax errors

// Finds where the text stops being JSON: nlohmann's DOM parser reports some errors
// (number overflow) without a position, its SAX interface always gives one.
class ErrorLocator : public nlohmann::json_sax<Json>
{
public:
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t &) override { return true; }
    bool string(string_t &) override { return true; }
    bool binary(binary_t &) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t &) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(
        std::size_t position, const std::string &, const nlohmann::detail::exception &ex) override
    {
        m_position = position;
        m_what = ex.what();
        m_found = true;
        return false;
    }

    bool found() const { return m_found; }
    std::size_t position() const { return m_position; }
    const std::string &what() const { return m_what; }

private:
    bool m_found = false;
    std::size_t m_position = 0;
    std::string m_what;
};

// Problem messages must be valid UTF-8 (they end up in terminals, Qt strings and JSON
// results), but nlohmann quotes the offending input bytes verbatim: show invalid bytes
// as \xNN instead.
std::string sanitizeUtf8(const std::string &text)
{
    std::string out;
    std::size_t i = 0;
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    while (i < text.size()) {
        const unsigned char c = byte(i);
        std::size_t length = 0;
        unsigned char low = 0x80;
        unsigned char high = 0xBF;
        if (c < 0x80)
            length = 1;
        else if (c >= 0xC2 && c <= 0xDF)
            length = 2;
        else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            low = c == 0xE0 ? 0xA0 : 0x80; // no overlong forms
            high = c == 0xED ? 0x9F : 0xBF; // no surrogates
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            low = c == 0xF0 ? 0x90 : 0x80;
            high = c == 0xF4 ? 0x8F : 0xBF;
        }
        bool valid = length > 0 && i + length <= text.size();
        for (std::size_t k = 1; valid && k < length; ++k) {
            const unsigned char cont = byte(i + k);
            valid = k == 1 ? (cont >= low && cont <= high) : (cont >= 0x80 && cont <= 0xBF);
        }
        if (valid) {
            out.append(text, i, length);
            i += length;
        } else {
            static constexpr char kHex[] = "0123456789ABCDEF";
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
            ++i;
        }
    }
    return out;
}

// nlohmann's message without its "[json.exception.parse_error.101] parse error at line
// 1, column 2: " prefix, which would repeat the position we give ourselves.
std::string syntaxDetail(const std::string &what)
{
    std::string detail = what;
    if (!detail.empty() && detail.front() == '[') {
        const auto close = detail.find("] ");
        if (close != std::string::npos)
            detail = detail.substr(close + 2);
    }
    if (detail.rfind("parse error", 0) == 0) {
        const auto colon = detail.find(": ");
        if (colon != std::string::npos)
            detail = detail.substr(colon + 2);
    }
    return sanitizeUtf8(detail);
}

// "line L:C" of the character at 1-based byte position `position` (nlohmann counts the
// offending character as read). Columns count UTF-8 characters, as editors show them.
std::string lineColumn(std::string_view text, std::size_t position)
{
    const std::size_t offset = std::min(position == 0 ? 0 : position - 1, text.size());
    std::size_t line = 1;
    std::size_t column = 1;
    for (std::size_t i = 0; i < offset; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++line;
            column = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ":" + std::to_string(column);
}

void reportSyntaxError(Reader &r, std::string_view text, const std::string &fallbackWhat)
{
    ErrorLocator locator;
    try {
        Json::sax_parse(text.begin(), text.end(), &locator);
    } catch (const std::exception &) {
        // The locator never throws; nlohmann may still run out of memory. Fall through.
    }
    if (locator.found())
        r.error("", lineColumn(text, locator.position()) + ": " + syntaxDetail(locator.what()));
    else
        r.error("", "not valid JSON: " + syntaxDetail(fallbackWhat));
}

// No profile nests deeper than 8 (hosts[0].workers[0].targets[0].region); a document
// nested far deeper is not a profile, and refusing it early bounds what a 4 MiB file of
// '[' can make the parser allocate (about 170 bytes per level).
constexpr std::size_t kMaxJsonDepth = 64;

// Builds the document from nlohmann's SAX events, and on the way reports keys that
// appear twice in one object (nlohmann keeps the last silently, which hides edits) and
// stops at nesting deeper than kMaxJsonDepth. The path is only built when a problem is
// found, so deep nesting costs linear time.
//
// This replaces Json::parse with a callback, whose DOM builder (nlohmann 3.11.2,
// json_sax.hpp end_object) searches the enclosing container for discarded values after
// every object: quadratic in the number of elements, 2.4 s for an array of 100,000 {}
// and minutes for the million a 4 MiB file can hold.
class DocumentBuilder : public nlohmann::json_sax<Json>
{
public:
    DocumentBuilder(Json &root, Reader &reader)
        : m_root(root)
        , m_reader(reader)
    { }

    bool null() override { return value(nullptr); }
    bool boolean(bool v) override { return value(v); }
    bool number_integer(number_integer_t v) override { return value(v); }
    bool number_unsigned(number_unsigned_t v) override { return value(v); }
    bool number_float(number_float_t v, const string_t &) override { return value(v); }
    bool string(string_t &v) override { return value(std::move(v)); }
    bool binary(binary_t &v) override { return value(Json::binary(std::move(v))); }

    bool start_object(std::size_t) override { return open(Json::object()); }
    bool start_array(std::size_t) override { return open(Json::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t &key) override
    {
        Frame &top = m_frames.back();
        top.pendingKey = key;
        if (!top.keys.insert(key).second)
            m_reader.error(
                currentPath(), "duplicate field: it appears more than once in this object");
        m_objectElement = &(*top.container)[key];
        return true;
    }

    bool parse_error(
        std::size_t, const std::string &, const nlohmann::detail::exception &ex) override
    {
        m_syntaxError = ex.what();
        return false;
    }

    // Set when the text is not JSON: nlohmann's message (the caller locates it).
    const std::optional<std::string> &syntaxError() const { return m_syntaxError; }
    bool tooDeep() const { return m_tooDeep; }

private:
    struct Frame {
        Json *container;
        std::set<std::string> keys; // objects: the keys seen
        std::string pendingKey; // objects: the key being read
        std::size_t nextIndex = 0; // arrays: the index of the element being read
    };

    // Places a value where the parser is: the root, the next array element, or the
    // value of the last key. Pointers stay valid: a container is only appended to
    // after the child it holds has been closed, and object members live in a std::map.
    Json *place(Json &&v)
    {
        if (m_frames.empty()) {
            m_root = std::move(v);
            return &m_root;
        }
        Json &parent = *m_frames.back().container;
        if (parent.is_array()) {
            parent.push_back(std::move(v));
            return &parent.back();
        }
        *m_objectElement = std::move(v);
        return m_objectElement;
    }

    template<typename T> bool value(T &&v)
    {
        place(Json(std::forward<T>(v)));
        elementDone();
        return true;
    }

    bool open(Json &&container)
    {
        if (m_frames.size() >= kMaxJsonDepth) {
            m_tooDeep = true;
            // No path: it would be kMaxJsonDepth components long.
            m_reader.error("",
                "nested more than " + std::to_string(kMaxJsonDepth)
                    + " levels deep; a profile needs at most 8");
            return false;
        }
        Json *placed = place(std::move(container));
        m_frames.push_back({placed, {}, {}, 0});
        return true;
    }

    bool close()
    {
        m_frames.pop_back();
        elementDone();
        return true;
    }

    void elementDone()
    {
        if (!m_frames.empty() && m_frames.back().container->is_array())
            ++m_frames.back().nextIndex;
    }

    std::string currentPath() const
    {
        std::string path;
        for (const Frame &frame : m_frames)
            path = frame.container->is_object() ? jsonKeyPath(path, frame.pendingKey)
                                                : jsonIndexPath(path, frame.nextIndex);
        return path;
    }

    Json &m_root;
    Reader &m_reader;
    std::vector<Frame> m_frames;
    Json *m_objectElement = nullptr;
    std::optional<std::string> m_syntaxError;
    bool m_tooDeep = false;
};

} // namespace

std::optional<Profile> profileFromJson(const nlohmann::json &document, Problems &problems)
{
    const std::size_t first = problems.size();
    Reader reader = profileReadContext(problems);
    Profile profile;
    try {
        if (!readProfile(reader, document, profile))
            return std::nullopt;
    } catch (const std::exception &e) {
        // Readers check types before every get(); this is only for bad_alloc and the like.
        reader.error("", std::string("cannot read the profile: ") + e.what());
        return std::nullopt;
    }
    if (hasErrorsSince(problems, first))
        return std::nullopt;
    return profile;
}

std::optional<Profile> parseProfileJson(std::string_view text, Problems &problems)
{
    const std::size_t first = problems.size();
    Reader reader = profileReadContext(problems);
    Json document;
    try {
        DocumentBuilder builder(document, reader);
        if (!Json::sax_parse(text.begin(), text.end(), &builder)) {
            if (builder.tooDeep())
                return std::nullopt;
            // Duplicate keys found before a syntax error are real but secondary.
            problems.resize(first);
            reportSyntaxError(reader, text, builder.syntaxError().value_or("not JSON"));
            return std::nullopt;
        }
    } catch (const Json::exception &e) {
        problems.resize(first);
        reportSyntaxError(reader, text, e.what());
        return std::nullopt;
    } catch (const std::exception &e) {
        problems.resize(first);
        reader.error("", std::string("cannot read the profile: ") + e.what());
        return std::nullopt;
    }
    auto profile = profileFromJson(document, problems);
    if (hasErrorsSince(problems, first))
        return std::nullopt;
    return profile;
}

void readAccessSpecJson(JsonObjectReader &o, AccessSpec &spec)
{
    readSpec(o, spec);
}

void readTargetJson(JsonObjectReader &o, Target &target)
{
    readTarget(o, target);
}

} // namespace ioprism::core
