// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/compare.h"

#include "core/profile/names.h"
#include "core/profile/profile_json.h"
#include "core/profile/series.h"
#include "core/profile/sweep_parameter.h"
#include "core/profile/units.h"
#include "core/report/csv.h"
#include "core/report/results_json.h"
#include "core/report/step_summary.h"
#include "core/run/series_result.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

namespace ioprism::core {

std::string_view metricKey(CompareMetric metric)
{
    switch (metric) {
    case CompareMetric::Iops:
        return "iops";
    case CompareMetric::MegabytesPerSecond:
        return "mbps";
    case CompareMetric::MeanLatencyUs:
        return "mean_latency_us";
    case CompareMetric::P99LatencyUs:
        return "p99_latency_us";
    case CompareMetric::FilesPerSecond:
        return "files_per_s";
    }
    return "";
}

std::string_view metricLabel(CompareMetric metric)
{
    switch (metric) {
    case CompareMetric::Iops:
        return "IOPS";
    case CompareMetric::MegabytesPerSecond:
        return "MB/s";
    case CompareMetric::MeanLatencyUs:
        return "mean latency";
    case CompareMetric::P99LatencyUs:
        return "p99 latency";
    case CompareMetric::FilesPerSecond:
        return "files/s";
    }
    return "";
}

bool higherIsBetter(CompareMetric metric)
{
    return metric == CompareMetric::Iops || metric == CompareMetric::MegabytesPerSecond
        || metric == CompareMetric::FilesPerSecond;
}

std::string formatMetric(CompareMetric metric, double value)
{
    if (!std::isfinite(value))
        return "-";
    switch (metric) {
    case CompareMetric::Iops:
    case CompareMetric::FilesPerSecond:
        return fmt::format("{:.0f}", value);
    case CompareMetric::MegabytesPerSecond:
        return fmt::format("{:.1f}", value);
    case CompareMetric::MeanLatencyUs:
    case CompareMetric::P99LatencyUs:
        return formatLatencyUs(value);
    }
    return "";
}

std::string_view runColor(std::size_t index)
{
    // Tableau's ten minus grey and olive, which read poorly on white and on black.
    static constexpr std::array<std::string_view, 8> kColors {
        "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};
    return kColors[index % kColors.size()];
}

ComparisonCurves comparisonCurves(const std::vector<const RunResult *> &runs)
{
    ComparisonCurves c;
    // The one parameter every run's series sweeps, when they all have one axis of it.
    bool common = !runs.empty();
    for (const RunResult *r : runs) {
        const auto &series = r->plan.profile.setup.series;
        if (!series || series->axes.size() != 1
            || (c.axis && *c.axis != series->axes[0].parameter)) {
            common = false;
            break;
        }
        c.axis = series->axes[0].parameter;
    }
    if (!common)
        c.axis.reset();
    for (const RunResult *r : runs) {
        std::vector<std::pair<double, double>> curve;
        if (c.axis) {
            const auto points = seriesPoints(*r);
            for (const auto &p : points)
                if (!p.values.empty() && p.specIndex == points.front().specIndex
                    && p.target == points.front().target)
                    curve.emplace_back(static_cast<double>(p.values[0]), p.iops.median);
            for (const auto v : sweepValues(r->plan.profile.setup.series->axes[0]))
                c.ticks.push_back(v);
        } else {
            for (const auto &s : r->intervals)
                if (s.phase == RunPhase::Measuring && !s.scopes.empty())
                    curve.emplace_back(s.endSeconds, s.scopes.front().figures.total.iops);
        }
        c.runs.push_back(std::move(curve));
    }
    std::sort(c.ticks.begin(), c.ticks.end());
    c.ticks.erase(std::unique(c.ticks.begin(), c.ticks.end()), c.ticks.end());
    c.logX = c.axis && sweepTraits(*c.axis).logScale;
    return c;
}

std::string_view toString(ChangeSense sense)
{
    switch (sense) {
    case ChangeSense::Baseline:
        return "baseline";
    case ChangeSense::Better:
        return "better";
    case ChangeSense::Worse:
        return "worse";
    case ChangeSense::Same:
        return "same";
    case ChangeSense::Unknown:
        return "n/a";
    }
    return "";
}

Change changeOf(CompareMetric metric, double baseline, double value)
{
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    Change c;
    if (!std::isfinite(baseline) || !std::isfinite(value)) {
        c.absolute = nan;
        c.percent = nan;
        return c;
    }
    c.absolute = value - baseline;
    c.percent = baseline != 0 ? c.absolute / baseline * 100 : nan;
    if (c.absolute == 0)
        c.sense = ChangeSense::Same;
    else
        c.sense
            = (c.absolute > 0) == higherIsBetter(metric) ? ChangeSense::Better : ChangeSense::Worse;
    return c;
}

bool CompareRow::matched() const
{
    for (const auto &r : runs)
        if (!r)
            return false;
    return true;
}

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

MetricValues stepValues(const StepResult &step)
{
    MetricValues v;
    v.values.fill(kNan);
    if (step.scopes.empty())
        return v;
    const DirectionFigures &t = step.scopes.front().figures.total;
    v.values[std::size_t(CompareMetric::Iops)] = t.iops;
    v.values[std::size_t(CompareMetric::MegabytesPerSecond)] = t.megabytesPerSecond;
    // No I/O completed: there is no latency to compare (0 would read "infinitely fast").
    if (t.ios > 0) {
        v.values[std::size_t(CompareMetric::MeanLatencyUs)] = t.latency.meanUs;
        v.values[std::size_t(CompareMetric::P99LatencyUs)] = t.latency.p99Us;
    }
    if (const auto &c = step.scopes.front().figures.connections)
        v.values[std::size_t(CompareMetric::FilesPerSecond)] = c->open.perSecond;
    return v;
}

MetricValues pointValues(const SeriesPointResult &p)
{
    MetricValues v;
    v.values.fill(kNan);
    v.values[std::size_t(CompareMetric::Iops)] = p.iops.median;
    v.values[std::size_t(CompareMetric::MegabytesPerSecond)] = p.megabytesPerSecond.median;
    v.values[std::size_t(CompareMetric::MeanLatencyUs)] = p.meanLatencyUs.median;
    v.values[std::size_t(CompareMetric::P99LatencyUs)] = p.p99LatencyUs.median;
    if (p.connectionsValid)
        v.values[std::size_t(CompareMetric::FilesPerSecond)] = p.filesPerSecond.median;
    return v;
}

// The rows of one run, each with the key it is matched by.
struct KeyedRow {
    std::string key;
    CompareRow row; // runs not yet sized
    MetricValues values;
};

std::vector<KeyedRow> rowsOf(const RunResult &r)
{
    std::vector<KeyedRow> out;
    std::map<std::string, int> seen;
    // A run in passes (setup.passes) is compared by each test's best pass, named as the
    // test, as its summary shows it (core/report/step_summary.h): a run of 5 passes then
    // matches one of a single pass, and the best of one run's passes the best of another's.
    std::vector<std::pair<const StepResult *, std::string>> shown;
    if (r.plan.profile.setup.passesPerTest() > 1)
        for (const auto &row : stepSummary(r))
            shown.emplace_back(&r.steps[row.step], row.name);
    else
        for (const auto &step : r.steps)
            shown.emplace_back(&step, step.stepName);
    for (const auto &[stepPtr, stepName] : shown) {
        const StepResult &step = *stepPtr;
        // A cycling step's point is the plan's (for the Series view): compare keeps
        // matching cycling runs step by step, as before their steps had points.
        const bool point = step.step < r.plan.steps.size()
            && seriesPointOf(r.plan.profile.setup, r.plan.steps[step.step]);
        if (point)
            continue;
        KeyedRow k;
        k.row.kind = CompareRow::Kind::Step;
        k.row.name = stepName;
        k.row.spec
            = step.step < r.plan.steps.size() ? r.plan.steps[step.step].specName : step.stepName;
        // A name that repeats (the same spec twice in a test) is matched by occurrence.
        const int n = ++seen[stepName];
        if (n > 1)
            k.row.name += fmt::format(" (#{})", n);
        k.key = "step\n" + k.row.name;
        k.values = stepValues(step);
        out.push_back(std::move(k));
    }
    const auto &series = r.plan.profile.setup.series;
    if (!series)
        return out;
    for (const auto &p : seriesPoints(r)) {
        KeyedRow k;
        k.row.kind = CompareRow::Kind::Point;
        k.row.spec = p.specName;
        std::string keyValues, shown;
        for (std::size_t a = 0; a < p.values.size(); ++a) {
            const SweepParameter parameter = a < series->axes.size() ? series->axes[a].parameter
                                                                     : SweepParameter::TransferSize;
            keyValues += fmt::format("{}{}={}", a ? " " : "", toString(parameter), p.values[a]);
            shown += fmt::format("{}{} {}", a ? ", " : "", toString(parameter),
                describeSweepValue(parameter, p.values[a]));
        }
        k.row.pointValues = keyValues;
        k.row.target = p.target;
        k.row.name = fmt::format(
            "{}: {}{}", p.specName, shown, p.target.empty() ? std::string() : " on " + p.target);
        k.key = fmt::format("point\n{}\n{}\n{}", p.specName, keyValues, p.target);
        k.values = pointValues(p);
        out.push_back(std::move(k));
    }
    return out;
}

// ---------------------------------------------------------------- setup differences

// Every leaf of a JSON document by its path ("hosts[0].workers[0].targets[0].cache").
void flatten(
    const nlohmann::json &j, const std::string &path, std::map<std::string, std::string> &out)
{
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            flatten(it.value(), path.empty() ? it.key() : path + "." + it.key(), out);
    } else if (j.is_array() && !j.empty()) {
        for (std::size_t i = 0; i < j.size(); ++i)
            flatten(j[i], fmt::format("{}[{}]", path, i), out);
    } else {
        out[path] = j.is_string()
            ? j.get<std::string>()
            : j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
}

std::string lastKey(const std::string &path)
{
    const auto dot = path.rfind('.');
    std::string key = dot == std::string::npos ? path : path.substr(dot + 1);
    if (const auto bracket = key.find('['); bracket != std::string::npos)
        key.resize(bracket);
    return key;
}

// The profile's field names, as people say them where the name alone is unclear.
std::string describeProfileField(const std::string &key)
{
    static const std::map<std::string, std::string> names
        = {{"cache", "cache mode"}, {"outstandingIos", "queue depth (outstanding I/Os)"},
            {"transferSizeBytes", "transfer size"}, {"percentRead", "% read"},
            {"percentRandom", "% random"}, {"runTime", "run time"}, {"rampUp", "ramp-up"},
            {"testFileSizeBytes", "test file size"}};
    const auto it = names.find(key);
    return it != names.end() ? it->second : key;
}

// The same field in every run, as text; "(none)" where a run has none.
void addIfDifferent(std::vector<SetupDifference> &out, std::string what, std::string path,
    std::vector<std::string> values)
{
    for (const auto &v : values)
        if (v != values.front()) {
            out.push_back({std::move(what), std::move(path), std::move(values)});
            return;
        }
}

std::vector<SetupDifference> setupDifferences(const std::vector<const RunResult *> &runs)
{
    std::vector<SetupDifference> out;
    auto each = [&](auto field) {
        std::vector<std::string> values;
        values.reserve(runs.size());
        for (const RunResult *r : runs)
            values.push_back(field(*r));
        return values;
    };
    addIfDifferent(out, "IOPrism version", "tool.version",
        each([](const RunResult &r) { return r.environment.toolVersion; }));
    addIfDifferent(out, "engine", "environment.engine", each([](const RunResult &r) {
        return !r.engine.empty() ? r.engine : r.environment.engine;
    }));
    addIfDifferent(out, "reap batch", "environment.reap_batch",
        each([](const RunResult &r) { return std::to_string(r.environment.reapBatch); }));
    addIfDifferent(out, "host", "environment.host_name",
        each([](const RunResult &r) { return r.environment.hostName; }));
    addIfDifferent(out, "OS", "environment.os_name",
        each([](const RunResult &r) { return r.environment.osName; }));
    addIfDifferent(out, "kernel", "environment.kernel",
        each([](const RunResult &r) { return r.environment.kernel; }));
    addIfDifferent(out, "CPU", "environment.cpu_model", each([](const RunResult &r) {
        return fmt::format("{} ({} CPUs)", r.environment.cpuModel, r.environment.cpuCount);
    }));

    std::size_t devices = 0;
    for (const RunResult *r : runs)
        devices = std::max(devices, r->environment.devices.size());
    for (std::size_t d = 0; d < devices; ++d) {
        auto fact = [&](const char *what, const char *key, auto get) {
            addIfDifferent(out, fmt::format("{} (target {})", what, d + 1),
                fmt::format("environment.devices[{}].{}", d, key), each([&](const RunResult &r) {
                    return d < r.environment.devices.size() ? get(r.environment.devices[d])
                                                            : std::string("(none)");
                }));
        };
        fact("device", "name", [](const DeviceFacts &f) { return f.name; });
        fact("device model", "model", [](const DeviceFacts &f) { return f.model; });
        fact("device size", "size_bytes",
            [](const DeviceFacts &f) { return fmt::format("{}", f.sizeBytes); });
        fact("I/O scheduler", "scheduler", [](const DeviceFacts &f) { return f.scheduler; });
        fact("write cache", "write_cache", [](const DeviceFacts &f) { return f.writeCache; });
    }

    // The profiles, field by field. Seeds are left out: the run draws new ones unless the
    // profile fixes them, so any two runs would differ there.
    std::vector<std::map<std::string, std::string>> profiles;
    std::map<std::string, bool> paths;
    for (const RunResult *r : runs) {
        std::map<std::string, std::string> flat;
        flatten(profileToJson(r->plan.profile), "", flat);
        for (const auto &[path, value] : flat)
            paths[path] = true;
        profiles.push_back(std::move(flat));
    }
    for (const auto &[path, unused] : paths) {
        if (lastKey(path) == "seed")
            continue;
        std::vector<std::string> values;
        for (const auto &flat : profiles) {
            const auto it = flat.find(path);
            values.push_back(it != flat.end() ? it->second : std::string("(none)"));
        }
        addIfDifferent(
            out, describeProfileField(lastKey(path)), "profile." + path, std::move(values));
    }
    return out;
}

std::string numberText(double v)
{
    return std::isfinite(v) ? fmt::format("{}", v) : std::string();
}

nlohmann::ordered_json jsonNumber(double v)
{
    return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

std::string_view kindName(CompareRow::Kind kind)
{
    return kind == CompareRow::Kind::Step ? "step" : "point";
}

std::string isoTime(std::chrono::system_clock::time_point time)
{
    const UtcTime t = utcTime(time);
    return fmt::format(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", t.year, t.month, t.day, t.hour, t.minute, t.second);
}

} // namespace

Comparison compareRuns(const std::vector<const RunResult *> &runs, std::size_t baseline)
{
    Comparison c;
    c.baseline = baseline;
    std::map<std::string, std::size_t> index; // key -> row
    // The baseline's rows first, in its order; then what only the others have.
    std::vector<std::size_t> order {baseline};
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (i != baseline)
            order.push_back(i);
    for (std::size_t i : order) {
        for (auto &k : rowsOf(*runs[i])) {
            auto [it, added] = index.try_emplace(k.key, c.rows.size());
            if (added) {
                k.row.runs.resize(runs.size());
                c.rows.push_back(std::move(k.row));
            }
            c.rows[it->second].runs[i] = k.values;
        }
    }
    c.differences = setupDifferences(runs);
    bool files = false;
    for (const auto &row : c.rows)
        for (const auto &values : row.runs)
            files |= values && std::isfinite((*values)[CompareMetric::FilesPerSecond]);
    for (CompareMetric m : kCompareMetrics)
        if (m != CompareMetric::FilesPerSecond || files)
            c.metrics.push_back(m);
    return c;
}

std::string writeComparisonCsv(const Comparison &c, const std::vector<const RunResult *> &runs,
    const std::vector<std::string> &labels)
{
    std::string out = "row_kind,row,spec,point_values,target,matched,metric,better_when,run,"
                      "file,is_baseline,value,baseline_value,change,change_percent,sense\n";
    for (const auto &row : c.rows) {
        const auto &base = row.runs[c.baseline];
        for (CompareMetric m : c.metrics) {
            for (std::size_t i = 0; i < runs.size(); ++i) {
                const double value = row.runs[i] ? (*row.runs[i])[m] : kNan;
                const double b = base ? (*base)[m] : kNan;
                const Change change = changeOf(m, b, value);
                const bool isBase = i == c.baseline;
                out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                    kindName(row.kind), csvField(row.name), csvField(row.spec),
                    csvField(row.pointValues), csvField(row.target), row.matched() ? 1 : 0,
                    metricKey(m), higherIsBetter(m) ? "higher" : "lower", i + 1,
                    csvField(labels[i]), isBase ? 1 : 0, numberText(value), numberText(b),
                    isBase ? std::string() : numberText(change.absolute),
                    isBase ? std::string() : numberText(change.percent),
                    !row.runs[i]
                        ? std::string("missing")
                        : std::string(toString(isBase ? ChangeSense::Baseline : change.sense)));
            }
        }
    }
    // What differs between the setups: one row per difference per run, the value as text.
    for (const auto &d : c.differences)
        for (std::size_t i = 0; i < runs.size(); ++i)
            out += fmt::format("setup,{},,,{},,,,{},{},{},{},,,,\n", csvField(d.what),
                csvField(d.path), i + 1, csvField(labels[i]), i == c.baseline ? 1 : 0,
                csvField(d.values[i]));
    return out;
}

std::string writeComparisonJson(const Comparison &c, const std::vector<const RunResult *> &runs,
    const std::vector<std::string> &labels)
{
    using Json = nlohmann::ordered_json;
    Json runList = Json::array();
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunResult &r = *runs[i];
        runList.push_back(Json {{"run", i + 1}, {"file", labels[i]},
            {"started_at", isoTime(r.startedAt)}, {"description", r.plan.profile.setup.description},
            {"engine", !r.engine.empty() ? r.engine : r.environment.engine},
            {"tool_version", r.environment.toolVersion},
            {"outcome", r.error ? "failed" : (r.stoppedByUser ? "stopped" : "complete")}});
    }
    Json rows = Json::array();
    for (const auto &row : c.rows) {
        const auto &base = row.runs[c.baseline];
        Json metrics = Json::object();
        for (CompareMetric m : c.metrics) {
            Json values = Json::array(), changes = Json::array(), percents = Json::array(),
                 senses = Json::array();
            for (std::size_t i = 0; i < runs.size(); ++i) {
                const double value = row.runs[i] ? (*row.runs[i])[m] : kNan;
                const Change change = changeOf(m, base ? (*base)[m] : kNan, value);
                const bool isBase = i == c.baseline;
                values.push_back(jsonNumber(value));
                changes.push_back(isBase ? Json(nullptr) : jsonNumber(change.absolute));
                percents.push_back(isBase ? Json(nullptr) : jsonNumber(change.percent));
                senses.push_back(!row.runs[i]
                        ? std::string("missing")
                        : std::string(toString(isBase ? ChangeSense::Baseline : change.sense)));
            }
            metrics[std::string(metricKey(m))]
                = Json {{"better_when", higherIsBetter(m) ? "higher" : "lower"},
                    {"values", std::move(values)}, {"change", std::move(changes)},
                    {"change_percent", std::move(percents)}, {"sense", std::move(senses)}};
        }
        Json present = Json::array();
        for (const auto &r : row.runs)
            present.push_back(r.has_value());
        rows.push_back(Json {{"kind", kindName(row.kind)}, {"name", row.name}, {"spec", row.spec},
            {"point_values", row.pointValues}, {"target", row.target}, {"matched", row.matched()},
            {"present", std::move(present)}, {"metrics", std::move(metrics)}});
    }
    Json differences = Json::array();
    for (const auto &d : c.differences)
        differences.push_back(Json {{"what", d.what}, {"path", d.path}, {"values", d.values}});
    const Json doc {{"format", "ioprism-compare"}, {"version", 1}, {"baseline", c.baseline + 1},
        {"runs", std::move(runList)}, {"rows", std::move(rows)},
        {"setup_differences", std::move(differences)}};
    return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace ioprism::core
