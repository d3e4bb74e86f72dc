// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/profile_json.h"

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

std::string joinPath(const std::string &base, std::string_view key)
{
    return base.empty() ? std::string(key) : base + "." + std::string(key);
}

std::string indexPath(const std::string &base, std::size_t index)
{
    return base + "[" + std::to_string(index) + "]";
}

// A short rendering of a JSON value for messages: scalars as written, containers by
// kind, long strings cut so that one bad value cannot flood the output.
std::string describe(const Json &value)
{
    constexpr std::size_t kMaxChars = 40;
    switch (value.type()) {
    case Json::value_t::object:
        return "an object";
    case Json::value_t::array:
        return "an array";
    case Json::value_t::string: {
        std::string s = value.get_ref<const std::string &>();
        if (s.size() > kMaxChars) {
            // Cut on a UTF-8 character boundary.
            std::size_t cut = kMaxChars;
            while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
                --cut;
            s = s.substr(0, cut) + "...";
        }
        return Json(s).dump(-1, ' ', false, Json::error_handler_t::replace);
    }
    case Json::value_t::null:
    case Json::value_t::boolean:
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
        return value.dump();
    case Json::value_t::binary:
    case Json::value_t::discarded:
        break;
    }
    return "an unreadable value";
}

// Edit distance, to suggest the field a misspelt key probably meant.
std::size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const char ca = static_cast<char>(std::tolower(static_cast<unsigned char>(a[i - 1])));
            const char cb = static_cast<char>(std::tolower(static_cast<unsigned char>(b[j - 1])));
            const std::size_t substitute = diagonal + (ca == cb ? 0 : 1);
            diagonal = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitute});
        }
    }
    return row[b.size()];
}

class Reader
{
public:
    explicit Reader(Problems &problems)
        : m_problems(problems)
    { }

    void error(std::string path, std::string message)
    {
        m_problems.push_back({Severity::Error, std::move(path), std::move(message)});
    }

private:
    Problems &m_problems;
};

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
    r.error(
        path, "expected a whole number from 0 to " + std::to_string(max) + ", got " + describe(v));
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
                + describe(v));
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
                + "), 1m30s, 500ms or 250us, got " + describe(v));
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
        r.error(
            path, describe(v) + " is not a whole number of " + std::string(unitName(modelUnit)));
    else
        r.error(path, describe(v) + " is too long");
}

void readDouble(Reader &r, const Json &v, const std::string &path, double &out)
{
    if (v.is_number())
        out = v.get<double>();
    else
        r.error(path, "expected a number, got " + describe(v));
}

void readBool(Reader &r, const Json &v, const std::string &path, bool &out)
{
    if (v.is_boolean())
        out = v.get<bool>();
    else
        r.error(path, "expected true or false, got " + describe(v));
}

void readString(Reader &r, const Json &v, const std::string &path, std::string &out)
{
    if (v.is_string())
        out = v.get<std::string>();
    else
        r.error(path, "expected a string, got " + describe(v));
}

template<typename E> void readEnum(Reader &r, const Json &v, const std::string &path, E &out)
{
    if (v.is_string()) {
        if (const auto e = parseEnum<E>(v.get_ref<const std::string &>())) {
            out = *e;
            return;
        }
        r.error(path, describe(v) + " is not one of: " + allowedNames<E>());
        return;
    }
    r.error(path, "expected one of: " + allowedNames<E>() + ", got " + describe(v));
}

// ------------------------------------------------------------------ objects

// Reads the fields of one JSON object. Every field the reader asks for is remembered,
// so finish() can report the others as unknown (with a suggestion for typos).
class ObjectReader
{
public:
    ObjectReader(Reader &reader, const Json &json, std::string path)
        : m_reader(reader)
        , m_json(json)
        , m_path(std::move(path))
        , m_ok(json.is_object())
    {
        if (!m_ok)
            m_reader.error(m_path, "expected an object, got " + describe(json));
    }

    ObjectReader(const ObjectReader &) = delete;
    ObjectReader &operator=(const ObjectReader &) = delete;

    bool ok() const { return m_ok; }
    Reader &reader() { return m_reader; }
    std::string path(std::string_view key) const { return joinPath(m_path, key); }

    const Json *take(std::string_view key)
    {
        m_known.emplace_back(key);
        if (!m_ok)
            return nullptr;
        const auto it = m_json.find(std::string(key));
        return it == m_json.end() ? nullptr : &*it;
    }

    bool has(std::string_view key) const
    {
        return m_ok && m_json.find(std::string(key)) != m_json.end();
    }

    template<typename Fn> void field(std::string_view key, Fn &&fn)
    {
        if (const Json *v = take(key))
            fn(*v, path(key));
    }

    template<typename T> void uint(std::string_view key, T &out)
    {
        field(key, [&](const Json &v, const std::string &p) { readUint(m_reader, v, p, out); });
    }

    // An optional whole number: absent or null = unset.
    template<typename T> void optionalUint(std::string_view key, std::optional<T> &out)
    {
        field(key, [&](const Json &v, const std::string &p) {
            if (v.is_null()) {
                out.reset();
                return;
            }
            T value {};
            std::uint64_t u = 0;
            if (readUnsigned(m_reader, v, p, std::numeric_limits<T>::max(), u)) {
                value = static_cast<T>(u);
                out = value;
            }
        });
    }

    void size(std::string_view key, std::uint64_t &out)
    {
        field(key, [&](const Json &v, const std::string &p) { readSize(m_reader, v, p, out); });
    }

    void number(std::string_view key, double &out)
    {
        field(key, [&](const Json &v, const std::string &p) { readDouble(m_reader, v, p, out); });
    }

    void boolean(std::string_view key, bool &out)
    {
        field(key, [&](const Json &v, const std::string &p) { readBool(m_reader, v, p, out); });
    }

    void string(std::string_view key, std::string &out)
    {
        field(key, [&](const Json &v, const std::string &p) { readString(m_reader, v, p, out); });
    }

    template<typename E> void enumeration(std::string_view key, E &out)
    {
        field(key, [&](const Json &v, const std::string &p) { readEnum(m_reader, v, p, out); });
    }

    void seconds(std::string_view key, std::chrono::seconds &out)
    {
        field(key, [&](const Json &v, const std::string &p) {
            readDuration(
                m_reader, v, p, DurationUnit::Seconds, DurationUnit::Seconds, &toSeconds, out);
        });
    }

    void milliseconds(std::string_view key, DurationUnit bareUnit, std::chrono::milliseconds &out)
    {
        field(key, [&](const Json &v, const std::string &p) {
            readDuration(
                m_reader, v, p, bareUnit, DurationUnit::Milliseconds, &toMilliseconds, out);
        });
    }

    void microseconds(std::string_view key, DurationUnit bareUnit, std::chrono::microseconds &out)
    {
        field(key, [&](const Json &v, const std::string &p) {
            readDuration(
                m_reader, v, p, bareUnit, DurationUnit::Microseconds, &toMicroseconds, out);
        });
    }

    // A nested object: fn(ObjectReader &) reads its fields.
    template<typename Fn> void object(std::string_view key, Fn &&fn)
    {
        field(key, [&](const Json &v, const std::string &p) {
            ObjectReader nested(m_reader, v, p);
            if (!nested.ok())
                return;
            fn(nested);
            nested.finish();
        });
    }

    // An array: fn(const Json &element, const std::string &elementPath) per element.
    template<typename Fn> void array(std::string_view key, Fn &&fn)
    {
        field(key, [&](const Json &v, const std::string &p) {
            if (!v.is_array()) {
                m_reader.error(p, "expected an array, got " + describe(v));
                return;
            }
            for (std::size_t i = 0; i < v.size(); ++i)
                fn(v[i], indexPath(p, i));
        });
    }

    // An array of objects read into a vector, each element by read(ObjectReader &, T &).
    template<typename T, typename Fn>
    void objects(std::string_view key, std::vector<T> &out, Fn &&read)
    {
        field(key, [&](const Json &v, const std::string &p) {
            if (!v.is_array()) {
                m_reader.error(p, "expected an array, got " + describe(v));
                return;
            }
            out.clear();
            for (std::size_t i = 0; i < v.size(); ++i) {
                T item {};
                ObjectReader element(m_reader, v[i], indexPath(p, i));
                if (element.ok()) {
                    read(element, item);
                    element.finish();
                }
                out.push_back(std::move(item));
            }
        });
    }

    void finish()
    {
        if (!m_ok)
            return;
        for (const auto &[key, value] : m_json.items()) {
            if (std::find(m_known.begin(), m_known.end(), key) != m_known.end())
                continue;
            std::string message = "unknown field";
            std::size_t best = std::numeric_limits<std::size_t>::max();
            std::string suggestion;
            for (const auto &known : m_known) {
                const std::size_t d = editDistance(key, known);
                if (d < best) {
                    best = d;
                    suggestion = known;
                }
            }
            if (!suggestion.empty() && best <= std::max<std::size_t>(1, suggestion.size() / 3))
                message += " (did you mean \"" + suggestion + "\"?)";
            m_reader.error(path(key), message);
        }
    }

private:
    Reader &m_reader;
    const Json &m_json;
    std::string m_path;
    bool m_ok;
    std::vector<std::string> m_known;
};

// ------------------------------------------------------------------ model readers

void readRegion(ObjectReader &o, Region &region)
{
    o.size("offset", region.offsetBytes);
    o.size("size", region.sizeBytes);
}

void readDataPattern(ObjectReader &o, DataPattern &pattern)
{
    o.enumeration("kind", pattern.kind);
    o.uint("byte", pattern.repeatingByte);
    o.uint("compressiblePercent", pattern.compressiblePercent);
}

void readDistribution(ObjectReader &o, RandomDistribution &d)
{
    o.enumeration("kind", d.kind);
    o.number("theta", d.zipfTheta);
    o.number("h", d.paretoH);
    o.number("sigmaPercent", d.normalSigmaPercent);
    o.objects("zones", d.hotZones, [](ObjectReader &z, HotZone &zone) {
        z.number("access", zone.accessPercent);
        z.number("region", zone.regionPercent);
    });
}

void readLine(ObjectReader &o, SpecLine &line)
{
    o.size("transferSize", line.transferSizeBytes);
    o.uint("share", line.sharePercent);
    o.uint("percentRead", line.percentRead);
    o.uint("percentRandom", line.percentRandom);
    o.milliseconds("delay", DurationUnit::Milliseconds, line.delay);
    o.uint("burst", line.burstLength);
    // Iometer aligns on the transfer size unless told otherwise.
    line.alignmentBytes = line.transferSizeBytes;
    o.size("alignment", line.alignmentBytes);
    o.size("reply", line.replySizeBytes);
    o.object("distribution", [&](ObjectReader &d) { readDistribution(d, line.distribution); });
    o.object("rateLimit", [&](ObjectReader &rl) {
        rl.number("iops", line.rateLimit.iops);
        rl.number("mbps", line.rateLimit.megabytesPerSecond);
    });
    o.microseconds("thinkTime", DurationUnit::Microseconds, line.thinkTime);
    o.field("dataPattern", [&](const Json &v, const std::string &p) {
        if (v.is_null()) {
            line.dataPattern.reset();
            return;
        }
        ObjectReader dp(o.reader(), v, p);
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
    o.string("name", spec.name);
    o.enumeration("defaultAssignment", spec.defaultAssignment);
    o.optionalUint("queueDepth", spec.queueDepth);
    o.optionalUint("threads", spec.threads);
    o.objects("lines", spec.lines, readLine);
}

void readFileTree(ObjectReader &o, FileTree &tree)
{
    o.uint("depth", tree.depth);
    o.uint("filesPerLevel", tree.filesPerLevel);
    o.size("fileSize", tree.fileSizeBytes);
    o.uint("preInitOperations", tree.preInitOperations);
}

void readTarget(ObjectReader &o, Target &target)
{
    o.enumeration("kind", target.kind);
    o.string("path", target.path);
    o.object("region", [&](ObjectReader &r) { readRegion(r, target.region); });
    o.size("fileSize", target.testFileSizeBytes);
    o.object("tree", [&](ObjectReader &t) { readFileTree(t, target.tree); });
    o.enumeration("cache", target.cacheMode);
    o.boolean("writeThrough", target.writeThrough);
    o.optionalUint("outstandingIos", target.outstandingIos);
    o.boolean("unresolved", target.unresolved);
}

void readWorker(ObjectReader &o, Worker &worker)
{
    o.string("name", worker.name);
    o.enumeration("type", worker.type);
    o.uint("outstandingIos", worker.outstandingIos);
    // Vectors start empty (a fresh Profile), so array elements are simply appended.
    o.array("specs", [&](const Json &v, const std::string &p) {
        std::string name;
        readString(o.reader(), v, p, name);
        worker.assignedSpecs.push_back(std::move(name));
    });
    o.array("cpuAffinity", [&](const Json &v, const std::string &p) {
        std::uint32_t cpu = 0;
        readUint(o.reader(), v, p, cpu);
        worker.cpuAffinity.push_back(cpu);
    });
    o.field("seed", [&](const Json &v, const std::string &p) {
        if (v.is_null() || (v.is_string() && v.get_ref<const std::string &>() == "random")) {
            worker.seed.reset();
            return;
        }
        std::uint64_t seed = 0;
        if (v.is_number()
            && readUnsigned(o.reader(), v, p, std::numeric_limits<std::uint64_t>::max(), seed))
            worker.seed = seed;
        else if (!v.is_number())
            o.reader().error(p, "expected a whole number or \"random\", got " + describe(v));
    });
    o.object("dataPattern", [&](ObjectReader &dp) { readDataPattern(dp, worker.dataPattern); });
    o.object("defaultRegion", [&](ObjectReader &r) { readRegion(r, worker.defaultRegion); });
    o.boolean("testConnectionRate", worker.testConnectionRate);
    o.uint("transactionsPerConnection", worker.transactionsPerConnection);
    o.objects("targets", worker.targets, readTarget);
}

void readHost(ObjectReader &o, Host &host)
{
    o.uint("id", host.id);
    o.string("name", host.name);
    o.string("address", host.networkAddress);
    o.objects("workers", host.workers, readWorker);
}

void readCycling(ObjectReader &o, Cycling &c)
{
    o.uint("start", c.start);
    o.uint("step", c.step);
    o.uint("end", c.end);
    o.enumeration("stepType", c.stepType);
}

// A value of a sweep: a size for transferSize ("4KiB"), else a whole number.
void readSweepValue(ObjectReader &o, SweepParameter parameter, const Json &v,
    const std::string &path, std::uint64_t &out)
{
    if (parameter == SweepParameter::TransferSize)
        readSize(o.reader(), v, path, out);
    else
        readUint(o.reader(), v, path, out);
}

void readSweepAxis(ObjectReader &o, SweepAxis &axis)
{
    o.enumeration("parameter", axis.parameter);
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
    o.uint("multiply", axis.multiply);
    value("add", axis.add);
}

void readSeries(ObjectReader &o, Series &series)
{
    o.objects("axes", series.axes, readSweepAxis);
    o.uint("repeat", series.repeat);
    o.uint("ios", series.ios);
    o.boolean("targetsInTurn", series.targetsInTurn);
    o.milliseconds("workerStagger", DurationUnit::Seconds, series.workerStagger);
}

void readSetup(ObjectReader &o, TestSetup &s)
{
    o.string("description", s.description);
    o.seconds("runTime", s.runTime);
    o.seconds("rampUp", s.rampUp);
    o.milliseconds("interval", DurationUnit::Seconds, s.interval);
    o.enumeration("recordFilter", s.recordFilter);
    o.field("defaultDiskWorkers", [&](const Json &v, const std::string &p) {
        if (v.is_null() || (v.is_string() && v.get_ref<const std::string &>() == "cpus")) {
            s.defaultDiskWorkers.reset();
            return;
        }
        std::uint64_t n = 0;
        if (!v.is_number()) {
            o.reader().error(p, "expected a whole number or \"cpus\", got " + describe(v));
            return;
        }
        if (readUnsigned(o.reader(), v, p, std::numeric_limits<std::uint32_t>::max(), n))
            s.defaultDiskWorkers = static_cast<std::uint32_t>(n);
    });
    o.uint("defaultNetworkWorkers", s.defaultNetworkWorkers);
    o.object("workerCycling", [&](ObjectReader &c) { readCycling(c, s.workerCycling); });
    o.object("targetCycling", [&](ObjectReader &c) { readCycling(c, s.targetCycling); });
    o.object("queueDepthCycling", [&](ObjectReader &c) { readCycling(c, s.queueDepthCycling); });
    o.enumeration("testType", s.testType);
    o.field("series", [&](const Json &v, const std::string &p) {
        if (v.is_null()) {
            s.series.reset();
            return;
        }
        ObjectReader nested(o.reader(), v, p);
        if (!nested.ok())
            return;
        readSeries(nested, s.series.emplace());
        nested.finish();
    });
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
                describe(*format) + " is not \"" + expectedFormat
                    + "\": this is not an IOPrism profile");
            return false;
        }
    } else {
        r.error("format", "missing: a profile starts with \"format\": \"" + expectedFormat + "\"");
    }
    const std::string supported = std::to_string(kProfileFormatVersion);
    if (const Json *version = o.take("version")) {
        if (!version->is_number_integer()) {
            r.error("version", "expected " + supported + ", got " + describe(*version));
        } else if (version->get<std::int64_t>() != kProfileFormatVersion) {
            r.error("version",
                describe(*version) + " is not supported: this IOPrism reads version " + supported);
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
            path = frame.container->is_object() ? joinPath(path, frame.pendingKey)
                                                : indexPath(path, frame.nextIndex);
        return path;
    }

    Json &m_root;
    Reader &m_reader;
    std::vector<Frame> m_frames;
    Json *m_objectElement = nullptr;
    std::optional<std::string> m_syntaxError;
    bool m_tooDeep = false;
};

// ------------------------------------------------------------------ writer

template<typename J> J sizeJson(std::uint64_t bytes)
{
    const std::string text = formatSize(bytes);
    // A plain byte count reads better as a number; units need a string.
    if (text.find_first_not_of("0123456789") == std::string::npos)
        return J(bytes);
    return J(text);
}

template<typename J> J regionJson(const Region &region)
{
    J j = J::object();
    j["offset"] = sizeJson<J>(region.offsetBytes);
    j["size"] = sizeJson<J>(region.sizeBytes);
    return j;
}

// Writes the parameter of the active kind, and the others only when they differ from
// the model's defaults, so the file stays short and still round-trips exactly.
template<typename J> J dataPatternJson(const DataPattern &pattern)
{
    const DataPattern defaults;
    J j = J::object();
    j["kind"] = std::string(toString(pattern.kind));
    if (pattern.kind == DataPatternKind::RepeatingBytes
        || pattern.repeatingByte != defaults.repeatingByte)
        j["byte"] = pattern.repeatingByte;
    if (pattern.kind == DataPatternKind::Compressible
        || pattern.compressiblePercent != defaults.compressiblePercent)
        j["compressiblePercent"] = pattern.compressiblePercent;
    return j;
}

template<typename J> J distributionJson(const RandomDistribution &d)
{
    const RandomDistribution defaults;
    // Bitwise comparison keeps -0.0 (== 0.0 but a different value) round-tripping.
    const auto differs
        = [](double a, double b) { return !(a == b) || std::signbit(a) != std::signbit(b); };
    J j = J::object();
    j["kind"] = std::string(toString(d.kind));
    if (d.kind == DistributionKind::Zipf || differs(d.zipfTheta, defaults.zipfTheta))
        j["theta"] = d.zipfTheta;
    if (d.kind == DistributionKind::Pareto || differs(d.paretoH, defaults.paretoH))
        j["h"] = d.paretoH;
    if (d.kind == DistributionKind::Normal
        || differs(d.normalSigmaPercent, defaults.normalSigmaPercent))
        j["sigmaPercent"] = d.normalSigmaPercent;
    if (d.kind == DistributionKind::HotZones || !d.hotZones.empty()) {
        J zones = J::array();
        for (const auto &zone : d.hotZones) {
            J z = J::object();
            z["access"] = zone.accessPercent;
            z["region"] = zone.regionPercent;
            zones.push_back(std::move(z));
        }
        j["zones"] = std::move(zones);
    }
    return j;
}

template<typename J> J lineJson(const SpecLine &line)
{
    J j = J::object();
    j["transferSize"] = sizeJson<J>(line.transferSizeBytes);
    j["share"] = line.sharePercent;
    j["percentRead"] = line.percentRead;
    j["percentRandom"] = line.percentRandom;
    j["delay"] = formatDuration(line.delay);
    j["burst"] = line.burstLength;
    j["alignment"] = sizeJson<J>(line.alignmentBytes);
    j["reply"] = sizeJson<J>(line.replySizeBytes);
    j["distribution"] = distributionJson<J>(line.distribution);
    J rate = J::object();
    rate["iops"] = line.rateLimit.iops;
    rate["mbps"] = line.rateLimit.megabytesPerSecond;
    j["rateLimit"] = std::move(rate);
    j["thinkTime"] = formatDuration(line.thinkTime);
    if (line.dataPattern)
        j["dataPattern"] = dataPatternJson<J>(*line.dataPattern);
    return j;
}

template<typename J> J specJson(const AccessSpec &spec)
{
    J j = J::object();
    j["name"] = spec.name;
    j["defaultAssignment"] = std::string(toString(spec.defaultAssignment));
    if (spec.queueDepth)
        j["queueDepth"] = *spec.queueDepth;
    if (spec.threads)
        j["threads"] = *spec.threads;
    J lines = J::array();
    for (const auto &line : spec.lines)
        lines.push_back(lineJson<J>(line));
    j["lines"] = std::move(lines);
    return j;
}

template<typename J> J targetJson(const Target &target)
{
    J j = J::object();
    j["kind"] = std::string(toString(target.kind));
    j["path"] = target.path;
    j["region"] = regionJson<J>(target.region);
    if (target.kind == TargetKind::TestFile
        || target.testFileSizeBytes != Target {}.testFileSizeBytes)
        j["fileSize"] = sizeJson<J>(target.testFileSizeBytes);
    if (target.kind == TargetKind::FileTree || target.tree != FileTree {}) {
        J tree = J::object();
        tree["depth"] = target.tree.depth;
        tree["filesPerLevel"] = target.tree.filesPerLevel;
        tree["fileSize"] = sizeJson<J>(target.tree.fileSizeBytes);
        tree["preInitOperations"] = target.tree.preInitOperations;
        j["tree"] = std::move(tree);
    }
    j["cache"] = std::string(toString(target.cacheMode));
    j["writeThrough"] = target.writeThrough;
    if (target.outstandingIos)
        j["outstandingIos"] = *target.outstandingIos;
    if (target.unresolved)
        j["unresolved"] = true;
    return j;
}

template<typename J> J workerJson(const Worker &worker)
{
    J j = J::object();
    j["name"] = worker.name;
    j["type"] = std::string(toString(worker.type));
    j["outstandingIos"] = worker.outstandingIos;
    j["specs"] = worker.assignedSpecs;
    j["cpuAffinity"] = worker.cpuAffinity;
    j["seed"] = worker.seed ? J(*worker.seed) : J("random");
    j["dataPattern"] = dataPatternJson<J>(worker.dataPattern);
    j["defaultRegion"] = regionJson<J>(worker.defaultRegion);
    j["testConnectionRate"] = worker.testConnectionRate;
    j["transactionsPerConnection"] = worker.transactionsPerConnection;
    J targets = J::array();
    for (const auto &target : worker.targets)
        targets.push_back(targetJson<J>(target));
    j["targets"] = std::move(targets);
    return j;
}

template<typename J> J cyclingJson(const Cycling &c)
{
    J j = J::object();
    j["start"] = c.start;
    j["step"] = c.step;
    j["end"] = c.end;
    j["stepType"] = std::string(toString(c.stepType));
    return j;
}

template<typename J> J sweepValueJson(SweepParameter parameter, std::uint64_t v)
{
    return parameter == SweepParameter::TransferSize ? sizeJson<J>(v) : J(v);
}

template<typename J> J seriesJson(const Series &series)
{
    J j = J::object();
    J axes = J::array();
    for (const auto &axis : series.axes) {
        J a = J::object();
        a["parameter"] = std::string(toString(axis.parameter));
        if (!axis.values.empty()) {
            J values = J::array();
            for (auto v : axis.values)
                values.push_back(sweepValueJson<J>(axis.parameter, v));
            a["values"] = std::move(values);
        } else {
            a["from"] = sweepValueJson<J>(axis.parameter, axis.from);
            a["to"] = sweepValueJson<J>(axis.parameter, axis.to);
            if (axis.multiply > 0)
                a["multiply"] = axis.multiply;
            if (axis.add > 0)
                a["add"] = sweepValueJson<J>(axis.parameter, axis.add);
        }
        axes.push_back(std::move(a));
    }
    j["axes"] = std::move(axes);
    j["repeat"] = series.repeat;
    j["ios"] = series.ios;
    j["targetsInTurn"] = series.targetsInTurn;
    j["workerStagger"] = formatDuration(series.workerStagger);
    return j;
}

template<typename J> J setupJson(const TestSetup &s)
{
    J j = J::object();
    j["description"] = s.description;
    j["runTime"] = formatDuration(s.runTime);
    j["rampUp"] = formatDuration(s.rampUp);
    j["interval"] = formatDuration(s.interval);
    j["recordFilter"] = std::string(toString(s.recordFilter));
    j["defaultDiskWorkers"] = s.defaultDiskWorkers ? J(*s.defaultDiskWorkers) : J("cpus");
    j["defaultNetworkWorkers"] = s.defaultNetworkWorkers;
    j["workerCycling"] = cyclingJson<J>(s.workerCycling);
    j["targetCycling"] = cyclingJson<J>(s.targetCycling);
    j["queueDepthCycling"] = cyclingJson<J>(s.queueDepthCycling);
    j["testType"] = std::string(toString(s.testType));
    if (s.series)
        j["series"] = seriesJson<J>(*s.series);
    return j;
}

template<typename J> J profileJson(const Profile &profile)
{
    J j = J::object();
    j["format"] = std::string(kProfileFormatName);
    j["version"] = kProfileFormatVersion;
    j["setup"] = setupJson<J>(profile.setup);
    J specs = J::array();
    for (const auto &spec : profile.specs)
        specs.push_back(specJson<J>(spec));
    j["specs"] = std::move(specs);
    J hosts = J::array();
    for (const auto &host : profile.hosts) {
        J h = J::object();
        h["id"] = host.id;
        h["name"] = host.name;
        h["address"] = host.networkAddress;
        J workers = J::array();
        for (const auto &worker : host.workers)
            workers.push_back(workerJson<J>(worker));
        h["workers"] = std::move(workers);
        hosts.push_back(std::move(h));
    }
    j["hosts"] = std::move(hosts);
    if (!profile.icfResultsDisplay.empty())
        j["icfResultsDisplay"] = profile.icfResultsDisplay;
    return j;
}

} // namespace

std::optional<Profile> profileFromJson(const nlohmann::json &document, Problems &problems)
{
    const std::size_t first = problems.size();
    Reader reader(problems);
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
    Reader reader(problems);
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

nlohmann::json profileToJson(const Profile &profile)
{
    return profileJson<nlohmann::json>(profile);
}

nlohmann::ordered_json profileToOrderedJson(const Profile &profile)
{
    return profileJson<nlohmann::ordered_json>(profile);
}

std::string writeProfileJson(const Profile &profile)
{
    return profileToOrderedJson(profile).dump(
               2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
        + "\n";
}

} // namespace ioprism::core
