// SPDX-License-Identifier: GPL-3.0-or-later
// Writing a profile (core/profile/profile_json.h): the documented field order, sizes and
// durations in the units a user writes them, defaults left out where they do not matter.
#include "core/profile/names.h"
#include "core/profile/profile_json.h"
#include "core/profile/units.h"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <string>

namespace ioprism::core {

namespace {

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

// A share of the model as the percentage the file keeps (read back as percent / 100):
// the shortest one that reads back to exactly this share, as a person wrote it (7, not
// 7.000000000000001, which is 0.07 x 100), so that a profile written and read is the
// same profile.
double percentOfShare(double share)
{
    const double approx = share * 100;
    if (!std::isfinite(approx))
        return approx;
    for (int digits = 1; digits <= 17; ++digits) {
        const std::string text = fmt::format("{:.{}g}", approx, digits);
        double percent = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), percent);
        if (ec == std::errc() && percent / 100 == share)
            return percent;
    }
    // Its neighbours (a share a percentage read gave is always among their quotients).
    double below = approx;
    double above = approx;
    for (int step = 0; step < 64; ++step) {
        below = std::nextafter(below, -INFINITY);
        above = std::nextafter(above, INFINITY);
        if (below / 100 == share)
            return below;
        if (above / 100 == share)
            return above;
    }
    return approx;
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
    if (s.steadyState) {
        const SteadyStateSetup &steady = *s.steadyState;
        J t = J::object();
        t["rule"] = std::string(steadyStateRuleName(steady.criteria.rule));
        t["metric"] = std::string(steadyStateMetricName(steady.metric));
        t["roundTime"] = formatDuration(steady.roundTime);
        t["windowRounds"] = steady.criteria.windowRounds;
        t["rangePercent"] = percentOfShare(steady.criteria.rangeLimit);
        t["slopePercent"] = percentOfShare(steady.criteria.slopeLimit);
        t["roundLimit"] = steady.criteria.roundLimit;
        j["steadyState"] = std::move(t);
    }
    if (s.precondition) {
        J t = J::object();
        t["kind"] = std::string(preconditionKindName(s.precondition->kind));
        t["capacityMultiple"] = s.precondition->capacityMultiple;
        t["time"] = formatDuration(s.precondition->time);
        j["precondition"] = std::move(t);
    }
    // Written only when set, so that a profile without them reads as it always did.
    if (s.passes != 1)
        j["passes"] = s.passes;
    if (s.pauseBetweenTests.count() != 0)
        j["pauseBetweenTests"] = formatDuration(s.pauseBetweenTests);
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

nlohmann::json profileToJson(const Profile &profile)
{
    return profileJson<nlohmann::json>(profile);
}

nlohmann::ordered_json profileToOrderedJson(const Profile &profile)
{
    return profileJson<nlohmann::ordered_json>(profile);
}

nlohmann::ordered_json accessSpecToOrderedJson(const AccessSpec &spec)
{
    return specJson<nlohmann::ordered_json>(spec);
}

nlohmann::ordered_json targetToOrderedJson(const Target &target)
{
    return targetJson<nlohmann::ordered_json>(target);
}

std::string writeProfileJson(const Profile &profile)
{
    return profileToOrderedJson(profile).dump(
               2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
        + "\n";
}

} // namespace ioprism::core
