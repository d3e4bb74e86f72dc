// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/html_report.h"

#include "core/profile/names.h"
#include "core/profile/series.h"
#include "core/profile/units.h"
#include "core/report/results_json.h"
#include "core/report/step_summary.h"
#include "core/run/series_result.h"

#include <fmt/format.h>

namespace ioprism::core {

std::string htmlEscape(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text)
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    return out;
}

namespace {

// Light and dark alike: the browser's colours, a few lines for the tables.
constexpr const char *kStyle = R"(<style>
body { font-family: sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #8884; padding: 0.25em 0.6em; }
th { text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1em 0; }
figure img { max-width: 100%; border: 1px solid #8884; }
.note { color: #888; }
.agree, .idle, .background { color: #2f9e44; }
.served_from_cache, .write_back_pending { color: #c27c0e; }
.other_traffic, .amplified { color: #d9480f; }
</style>
)";

std::string row(std::initializer_list<std::string> cells, bool header = false)
{
    std::string out = "<tr>";
    bool first = true;
    for (const auto &cell : cells) {
        out += header ? "<th>" : (first ? "<td>" : "<td class=\"n\">");
        out += cell; // already escaped where it is text
        out += header ? "</th>" : "</td>";
        first = false;
    }
    return out + "</tr>\n";
}

std::string verdictSpan(const DeviceReport &report)
{
    if (!report.available)
        return "<span class=\"note\">no device counters</span>";
    const std::string name(toString(report.verdict.verdict));
    std::string cls = name;
    for (auto &c : cls)
        c = c == ' ' ? '_' : c;
    return "<span class=\"" + cls + "\">" + htmlEscape(name) + "</span>";
}

std::string setupSection(const RunResult &result)
{
    const Profile &p = result.plan.profile;
    std::string out = "<h2>What ran</h2>\n";
    if (!p.setup.description.empty())
        out += "<p>" + htmlEscape(p.setup.description) + "</p>\n";
    out += fmt::format("<p>{} measured per step after {} ramp-up, test type {}{}.</p>\n",
        p.setup.runTime.count() > 0 ? formatDuration(p.setup.runTime) : "until stopped",
        formatDuration(p.setup.rampUp), htmlEscape(toString(p.setup.testType)),
        p.setup.series ? ", a series" : "");
    out += "<table>\n"
        + row({"Access specification", "Line", "Size", "% of I/Os", "% read", "% random",
                  "Alignment", "QD"},
            true);
    for (const auto &spec : p.specs)
        for (std::size_t l = 0; l < spec.lines.size(); ++l) {
            const SpecLine &line = spec.lines[l];
            out += row({l == 0 ? htmlEscape(spec.name) : std::string(), std::to_string(l + 1),
                describeSize(line.transferSizeBytes), std::to_string(line.sharePercent),
                std::to_string(line.percentRead), std::to_string(line.percentRandom),
                line.alignmentBytes ? describeSize(line.alignmentBytes) : "sector",
                spec.queueDepth ? std::to_string(*spec.queueDepth) : "worker's"});
        }
    out += "</table>\n<table>\n"
        + row({"Worker", "Specs", "Target", "Kind", "Cache", "Outstanding I/Os"}, true);
    for (const auto &host : p.hosts)
        for (const auto &w : host.workers) {
            std::string specs;
            for (const auto &s : w.assignedSpecs)
                specs += (specs.empty() ? "" : ", ") + htmlEscape(s);
            for (std::size_t t = 0; t < w.targets.size(); ++t) {
                const Target &target = w.targets[t];
                out += row({t == 0 ? htmlEscape(w.name) : std::string(), t == 0 ? specs : "",
                    htmlEscape(target.path), htmlEscape(toString(target.kind)),
                    htmlEscape(toString(target.cacheMode)),
                    std::to_string(target.outstandingIos.value_or(w.outstandingIos))});
            }
        }
    return out + "</table>\n";
}

std::string environmentSection(const RunResult &result, const Environment &e)
{
    const UtcTime t = utcTime(result.startedAt);
    std::string out = "<h2>Where it ran</h2>\n<table>\n";
    const auto fact = [&](const char *name, const std::string &value) {
        if (!value.empty())
            out += "<tr><th>" + std::string(name) + "</th><td>" + htmlEscape(value)
                + "</td></tr>\n";
    };
    fact("Started (UTC)",
        fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", t.year, t.month, t.day, t.hour, t.minute,
            t.second));
    fact("Host", e.hostName);
    fact("Operating system", e.osName);
    fact("Kernel", e.kernel);
    fact("CPU",
        e.cpuCount ? fmt::format("{} ({} logical CPUs)", e.cpuModel, e.cpuCount) : e.cpuModel);
    fact("IOPrism", e.toolVersion);
    fact("Engine", e.engine);
    fact("Command line", e.commandLine);
    out += "</table>\n";
    if (!e.devices.empty()) {
        out += "<table>\n"
            + row({"Target", "Device", "Model", "Size", "Rotational", "Scheduler", "Sectors",
                      "Write cache"},
                true);
        for (const auto &d : e.devices)
            out += row({htmlEscape(d.path), htmlEscape(d.name), htmlEscape(d.model),
                d.sizeBytes ? describeSize(d.sizeBytes) : "",
                d.name.empty() ? "" : (d.rotational ? "yes" : "no"), htmlEscape(d.scheduler),
                d.logicalSectorBytes
                    ? fmt::format("{}/{} B", d.logicalSectorBytes, d.physicalSectorBytes)
                    : "",
                htmlEscape(d.writeCache)});
        out += "</table>\n";
    }
    if (!e.notices.empty()) {
        out += "<ul>\n";
        for (const auto &n : e.notices)
            out += "<li>" + htmlEscape(n) + "</li>\n";
        out += "</ul>\n";
    }
    return out;
}

std::string stepSection(const StepResult &step)
{
    std::string out = fmt::format("<h3>{}. {}</h3>\n<p>{:.1f} s measured{} · device: {}</p>\n",
        step.step + 1, htmlEscape(step.stepName), step.measuredSeconds,
        step.complete ? "" : ", cut short", verdictSpan(step.devices));
    out += "<table>\n"
        + row({"Scope", "IOPS", "MB/s", "Mean", "p50", "p99", "p99.9", "Max", "Errors"}, true);
    for (const auto &scope : step.scopes) {
        const DirectionFigures &f = scope.figures.total;
        const bool io = f.ios > 0;
        const auto lat = [&](double us) { return io ? formatLatencyUs(us) : std::string("–"); };
        out += row({htmlEscape(scope.scope.label), fmt::format("{:.0f}", f.iops),
            fmt::format("{:.1f}", f.megabytesPerSecond), lat(f.latency.meanUs),
            lat(f.latency.p50Us), lat(f.latency.p99Us), lat(f.latency.p99_9Us),
            lat(f.latency.maxUs), std::to_string(f.errors)});
    }
    return out + "</table>\n";
}

std::string seriesSection(const RunResult &result)
{
    const auto &series = result.plan.profile.setup.series;
    if (!series)
        return {};
    const auto points = seriesPoints(result);
    if (points.empty())
        return {};
    std::string out = "<h2>Series</h2>\n<table>\n<tr><th>Spec</th><th>Target</th>";
    for (const auto &axis : series->axes)
        out += "<th>" + htmlEscape(toString(axis.parameter)) + "</th>";
    out += "<th>IOPS</th><th>MB/s</th><th>Mean</th><th>p99</th><th>Trials</th><th>Device</th></"
           "tr>\n";
    for (const auto &p : points) {
        out += "<tr><td>" + htmlEscape(p.specName) + "</td><td>" + htmlEscape(p.target) + "</td>";
        for (std::size_t a = 0; a < series->axes.size() && a < p.values.size(); ++a)
            out += "<td class=\"n\">"
                + htmlEscape(describeSweepValue(series->axes[a].parameter, p.values[a])) + "</td>";
        out += fmt::format(
            "<td class=\"n\">{:.0f}</td><td class=\"n\">{:.1f}</td><td "
            "class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>\n",
            p.iops.median, p.megabytesPerSecond.median, formatLatencyUs(p.meanLatencyUs.median),
            formatLatencyUs(p.p99LatencyUs.median), p.trials.size(),
            p.deviceValid ? htmlEscape(toString(p.verdict)) : "–");
    }
    return out + "</table>\n";
}

} // namespace

std::string writeHtmlReport(
    const RunResult &result, const Environment &environment, std::span<const ReportImage> images)
{
    const Profile &p = result.plan.profile;
    const std::string title = p.setup.description.empty()
        ? std::string("IOPrism run")
        : "IOPrism run: " + p.setup.description.substr(0, 80);
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<meta name=\"color-scheme\" content=\"light dark\">\n<title>"
        + htmlEscape(title) + "</title>\n" + kStyle + "</head>\n<body>\n<h1>" + htmlEscape(title)
        + "</h1>\n";
    if (result.error)
        out += "<p><strong>The run stopped with an error:</strong> "
            + htmlEscape(result.error->toString()) + "</p>\n";
    else if (result.stoppedByUser)
        out += "<p><strong>Stopped by the user:</strong> the results cover the time "
               "measured.</p>\n";
    out += "<h2>All steps</h2>\n" + formatStepSummary(stepSummary(result), TableFormat::Html);
    for (const auto &image : images)
        out += "<figure><img alt=\"" + htmlEscape(image.title) + "\" src=\"data:image/png;base64,"
            + image.pngBase64 + "\"><figcaption>" + htmlEscape(image.title)
            + "</figcaption></figure>\n";
    out += seriesSection(result);
    out += "<h2>Steps</h2>\n";
    for (const auto &step : result.steps)
        out += stepSection(step);
    out += setupSection(result);
    out += environmentSection(result, environment);
    out += "<p class=\"note\">Written by IOPrism " + htmlEscape(environment.toolVersion)
        + ". Latencies are completion times on IOPrism's own monotonic clock; MB/s are "
          "decimal (10<sup>6</sup> bytes per second).</p>\n</body>\n</html>\n";
    return out;
}

} // namespace ioprism::core
