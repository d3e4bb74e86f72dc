// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/html_report.h"

#include "core/profile/depth.h"
#include "core/profile/describe.h"
#include "core/profile/names.h"
#include "core/profile/series.h"
#include "core/profile/sweep_parameter.h"
#include "core/profile/units.h"
#include "core/report/results_json.h"
#include "core/report/results_reader.h"
#include "core/report/step_summary.h"
#include "core/report/svg_plots.h"
#include "core/run/series_result.h"
#include "core/run/step_findings.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <limits>
#include <optional>

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
.better { color: #2f9e44; }
.worse { color: #d9480f; }
details { margin: 0.5em 0; }
svg text { fill: currentColor; font-size: 12px; }
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

// The outstanding I/Os a target runs at (core/profile/depth.h): under each spec its
// worker runs, each depth once ("32/1" for a Q32 spec and a QD 1 one), or "per step"
// when a series or Iometer's cycling sets it.
std::string targetDepths(const Profile &p, const Worker &w, const Target &target)
{
    if (depthIsSwept(p.setup))
        return "per step";
    std::vector<std::uint32_t> depths;
    const auto add = [&](const AccessSpec *spec) {
        const auto qd = configuredDepth(spec, w, &target).outstandingIos;
        if (std::find(depths.begin(), depths.end(), qd) == depths.end())
            depths.push_back(qd);
    };
    for (const auto &name : w.assignedSpecs)
        if (!isIdleSpec(p, name))
            add(findSpec(p, name));
    if (depths.empty())
        add(nullptr);
    return fmt::format("{}", fmt::join(depths, "/"));
}

// `heading`: the level of the section's title ("h2" in a run's report, "h3" for each run
// of a comparison).
std::string setupSection(const RunResult &result, std::string_view heading = "h2")
{
    const Profile &p = result.plan.profile;
    std::string out = fmt::format("<{0}>What ran</{0}>\n", heading);
    // The description is the user's words, kept verbatim; what ran (sizes, times,
    // targets) is said beside it from the profile itself, so a description written for
    // other settings cannot pass for the facts of this run.
    if (!p.setup.description.empty())
        out += "<p>" + htmlEscape(p.setup.description) + "</p>\n";
    out += "<p class=\"facts\">" + htmlEscape(describeRun(p)) + ".</p>\n";
    out += "<table>\n"
        + row({"Access specification", "Line", "Size", "% of I/Os", "% read", "% random",
                  "Alignment", "QD"},
            true);
    for (const auto &spec : p.specs)
        for (std::size_t l = 0; l < spec.lines.size(); ++l) {
            const SpecLine &line = spec.lines[l];
            out += row({l == 0 ? htmlEscape(spec.name) : std::string(), std::to_string(l + 1),
                describeExactSize(line.transferSizeBytes), std::to_string(line.sharePercent),
                std::to_string(line.percentRead), std::to_string(line.percentRandom),
                line.alignmentBytes ? describeExactSize(line.alignmentBytes) : "sector",
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
                    htmlEscape(toString(target.cacheMode)), targetDepths(p, w, target)});
            }
        }
    return out + "</table>\n";
}

std::string environmentSection(
    const RunResult &result, const Environment &e, std::string_view heading = "h2")
{
    const UtcTime t = utcTime(result.startedAt);
    std::string out = fmt::format("<{0}>Where it ran</{0}>\n<table>\n", heading);
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

// A step's rounds under a steady-state rule: the verdict, then every round with the
// window's rounds marked.
std::string steadyStateSection(const SteadyStateRecord &steady)
{
    const SteadyStateResult &judged = steady.result;
    const std::string_view unit = steadyStateMetricUnit(steady.setup.metric);
    std::string out = fmt::format("<p class=\"steady\">Steady state ({} on {}): {}</p>\n",
        htmlEscape(std::string(steadyStateRuleName(steady.setup.criteria.rule))),
        htmlEscape(std::string(steadyStateMetricName(steady.setup.metric))),
        htmlEscape(describeSteadyStateVerdict(steady)));
    out += "<table>\n" + row({"Round", "From (s)", "To (s)", std::string(unit), "Window"}, true);
    for (std::size_t i = 0; i < steady.rounds.size(); ++i) {
        const SteadyStateRound &r = steady.rounds[i];
        const bool inWindow = judged.window && i >= judged.window->first
            && i < judged.window->first + judged.window->count;
        out += row({std::to_string(i + 1), fmt::format("{:.1f}", r.startSeconds),
            fmt::format("{:.1f}", r.endSeconds),
            steadyStateFigureText(r.figure, steady.setup.metric), inWindow ? "✓" : ""});
    }
    return out + "</table>\n";
}

// `place`: what stands before the step's name (its number, when empty).
// A step's figures, its verdicts, and its write against the bytes written when the write
// was judged (its intervals of `phase` in `intervals`).
std::string stepSection(const StepResult &step, std::span<const IntervalSample> intervals,
    RunPhase phase = RunPhase::Measuring, const std::string &place = {})
{
    std::string out = fmt::format("<h3>{}. {}</h3>\n<p>{:.1f} s measured{} · device: {}</p>\n",
        place.empty() ? std::to_string(step.step + 1) : htmlEscape(place),
        htmlEscape(step.stepName), step.measuredSeconds, step.complete ? "" : ", cut short",
        verdictSpan(step.devices));
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
    out += "</table>\n";
    if (step.steadyState)
        out += steadyStateSection(*step.steadyState);
    if (step.writeCliff && step.writeCliff->cliff)
        out += "<p class=\"cliff\">Write cliff: " + htmlEscape(describeWriteCliff(*step.writeCliff))
            + "</p>\n";
    if (step.writeCliff)
        out += writeCliffSvg(stepWriteIntervals(intervals, step.step, phase), *step.writeCliff);
    return out;
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

std::string pageHead(const std::string &title)
{
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"color-scheme\" content=\"light dark\">\n<title>"
        + htmlEscape(title) + "</title>\n" + kStyle + "</head>\n<body>\n<h1>" + htmlEscape(title)
        + "</h1>\n";
}

std::string figures(std::span<const ReportImage> images)
{
    std::string out;
    for (const auto &image : images)
        out += "<figure><img alt=\"" + htmlEscape(image.title) + "\" src=\"data:image/png;base64,"
            + image.pngBase64 + "\"><figcaption>" + htmlEscape(image.title)
            + "</figcaption></figure>\n";
    return out;
}

std::string dateText(std::chrono::system_clock::time_point time)
{
    const UtcTime t = utcTime(time);
    return fmt::format(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}", t.year, t.month, t.day, t.hour, t.minute, t.second);
}

// ---------------------------------------------------------------- comparison

// The curves' canvas: the SVG's size and the margins for the axes' labels.
constexpr double kWidth = 960, kHeight = 420, kLeft = 70, kRight = 20, kTop = 20, kBottom = 60;

// Where a value lands on the canvas: x over the range of the points that can be drawn,
// y from zero to a round top.
struct CurvesScale {
    bool logX = false;
    double xLo = 0, xHi = 0, yStep = 0, yTop = 0;

    double xOf(double x) const
    {
        const double f = logX ? (std::log(x) - std::log(xLo)) / (std::log(xHi) - std::log(xLo))
                              : (x - xLo) / (xHi - xLo);
        return kLeft + f * (kWidth - kLeft - kRight);
    }
    double yOf(double y) const { return kTop + (1 - y / yTop) * (kHeight - kTop - kBottom); }
};

// A log axis has no place for x <= 0.
bool drawable(const ComparisonCurves &curves, double x, double y)
{
    return std::isfinite(x) && std::isfinite(y) && !(curves.logX && x <= 0);
}

// Nothing when no point can be drawn. A single x gets a range around it, so that the
// scale does not divide by zero.
std::optional<CurvesScale> curvesScale(const ComparisonCurves &curves)
{
    double xLo = std::numeric_limits<double>::infinity(), xHi = -xLo, yHi = 0;
    for (const auto &run : curves.runs)
        for (const auto &[x, y] : run) {
            if (!drawable(curves, x, y))
                continue;
            xLo = std::min(xLo, x);
            xHi = std::max(xHi, x);
            yHi = std::max(yHi, y);
        }
    if (!(xLo <= xHi))
        return std::nullopt;
    if (xLo == xHi) {
        xLo = curves.logX ? xLo / 2 : xLo - 1;
        xHi = curves.logX ? xHi * 2 : xHi + 1;
    }
    CurvesScale scale;
    scale.logX = curves.logX;
    scale.xLo = xLo;
    scale.xHi = xHi;
    scale.yStep = niceStep(yHi > 0 ? yHi : 1, 5);
    scale.yTop = std::ceil((yHi > 0 ? yHi : 1) / scale.yStep) * scale.yStep;
    return scale;
}

// The grid with the y labels, the x ticks (the swept values, or round times) and the
// axes' titles.
std::string curvesAxesSvg(const ComparisonCurves &curves, const CurvesScale &scale)
{
    std::string out;
    for (double y = 0; y <= scale.yTop + scale.yStep / 2; y += scale.yStep)
        out += fmt::format("<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" "
                           "stroke=\"#8884\"/><text x=\"{3}\" y=\"{4:.1f}\" "
                           "text-anchor=\"end\">{5}</text>\n",
            kLeft, kWidth - kRight, scale.yOf(y), kLeft - 6, scale.yOf(y) + 4, axisNumber(y));
    std::vector<std::pair<double, std::string>> ticks;
    if (curves.axis) {
        for (const auto v : curves.ticks)
            ticks.emplace_back(double(v), describeSweepValue(*curves.axis, v));
    } else {
        const double step = niceStep(scale.xHi - scale.xLo, 8);
        for (double x = std::ceil(scale.xLo / step) * step; x <= scale.xHi + step / 1000; x += step)
            ticks.emplace_back(x, axisNumber(x));
    }
    for (const auto &[x, text] : ticks) {
        if (x < scale.xLo || x > scale.xHi)
            continue;
        out += fmt::format("<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\" "
                           "stroke=\"#8884\"/><text x=\"{0:.1f}\" y=\"{3}\" "
                           "text-anchor=\"middle\">{4}</text>\n",
            scale.xOf(x), kTop, kHeight - kBottom, kHeight - kBottom + 16, htmlEscape(text));
    }
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
        (kLeft + kWidth - kRight) / 2, kHeight - kBottom + 34,
        curves.axis ? htmlEscape(std::string(sweepTraits(*curves.axis).title))
                    : std::string("time (s)"));
    out += fmt::format("<text x=\"14\" y=\"{}\" transform=\"rotate(-90 14 {})\" "
                       "text-anchor=\"middle\">IOPS</text>\n",
        (kTop + kHeight - kBottom) / 2, (kTop + kHeight - kBottom) / 2);
    return out;
}

// Run i's polyline (and points, for a series), then its entry in the legend below the
// axis, four runs to a line.
std::string curveSvg(const ComparisonCurves &curves, std::size_t i, const std::string &label,
    const CurvesScale &scale)
{
    std::string points;
    std::string dots;
    for (const auto &[x, y] : curves.runs[i]) {
        if (!drawable(curves, x, y))
            continue;
        points += fmt::format("{:.1f},{:.1f} ", scale.xOf(x), scale.yOf(y));
        if (curves.axis)
            dots += fmt::format(
                "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\"/>", scale.xOf(x), scale.yOf(y));
    }
    std::string out = fmt::format("<g stroke=\"{0}\" fill=\"{0}\"><title>{1}</title><polyline "
                                  "fill=\"none\" stroke-width=\"2\" points=\"{2}\"/>{3}</g>\n",
        runColor(i), htmlEscape(label), points, dots);
    const std::size_t column = i % 4, line = i / 4;
    const double legendX = kLeft + static_cast<double>(column) * 220;
    const double legendY = kHeight - 10 - static_cast<double>(line) * 14;
    out += fmt::format("<rect x=\"{:.0f}\" y=\"{:.0f}\" width=\"14\" height=\"4\" "
                       "fill=\"{}\"/><text x=\"{:.0f}\" y=\"{:.0f}\">{}</text>\n",
        legendX, legendY - 4, runColor(i), legendX + 20, legendY, htmlEscape(label));
    return out;
}

// The overlaid curves as an inline SVG, for a report written without the GUI's plot:
// IOPS over time or over the swept parameter, one colour per run, with a legend.
std::string curvesSvg(const ComparisonCurves &curves, const std::vector<std::string> &labels)
{
    const auto scale = curvesScale(curves);
    if (!scale)
        return "<p class=\"note\">No measured interval to draw.</p>\n";
    std::string out = fmt::format(
        "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
        "viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"IOPS of each run\">\n",
        kWidth, kHeight);
    out += curvesAxesSvg(curves, *scale);
    for (std::size_t i = 0; i < curves.runs.size(); ++i)
        out += curveSvg(curves, i, i < labels.size() ? labels[i] : std::string(), *scale);
    return out + "</svg><figcaption>IOPS of each run</figcaption></figure>\n";
}

std::string runsSection(const std::vector<const RunResult *> &runs,
    const std::vector<std::string> &labels, std::size_t baseline)
{
    std::string out = "<h2>Runs</h2>\n<table>\n"
        + row({"Run", "Started (UTC)", "Description", "Host", "Engine", "Targets", "Outcome",
                  "IOPrism"},
            true);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunResult &r = *runs[i];
        std::string targets;
        for (const auto &t : r.plan.targetInfos())
            targets += (targets.empty() ? "" : "<br>") + htmlEscape(t.path);
        const std::string name = "<span style=\"color:" + std::string(runColor(i))
            + "\">&#9632;</span> " + htmlEscape(labels[i])
            + (i == baseline ? " <em>(baseline)</em>" : "");
        out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                           "<td>{}</td><td>{}</td></tr>\n",
            name, dateText(r.startedAt), htmlEscape(r.plan.profile.setup.description),
            htmlEscape(r.environment.hostName), htmlEscape(r.engine), targets,
            htmlEscape(toString(runOutcome(r))), htmlEscape(r.environment.toolVersion));
    }
    return out + "</table>\n";
}

std::string differencesSection(const Comparison &c, const std::vector<std::string> &labels)
{
    std::string out = "<h2>What differs between the setups</h2>\n";
    if (c.differences.empty())
        return out
            + "<p>Nothing recorded differs: the profiles, engine, OS, kernel, devices and "
              "IOPrism version are the same.</p>\n";
    out += "<table>\n<tr><th>What</th>";
    for (const auto &label : labels)
        out += "<th>" + htmlEscape(label) + "</th>";
    out += "</tr>\n";
    for (const auto &d : c.differences) {
        out += "<tr><td title=\"" + htmlEscape(d.path) + "\">" + htmlEscape(d.what) + "</td>";
        for (const auto &v : d.values)
            out += "<td>" + htmlEscape(v) + "</td>";
        out += "</tr>\n";
    }
    return out + "</table>\n";
}

std::string deltaSection(const Comparison &c, const std::vector<std::string> &labels)
{
    const bool files = std::find(c.metrics.begin(), c.metrics.end(), CompareMetric::FilesPerSecond)
        != c.metrics.end();
    std::string out = fmt::format("<h2>Step by step</h2>\n<p>Changes are against {}: green is "
                                  "better, red is worse (higher {} are better, higher "
                                  "latency is worse).</p>\n<table>\n<tr><th>Step or "
                                  "point</th><th>Run</th>",
        htmlEscape(labels[c.baseline]), files ? "IOPS, MB/s and files/s" : "IOPS and MB/s");
    for (const CompareMetric m : c.metrics)
        out += "<th>" + htmlEscape(metricLabel(m)) + "</th><th>Change</th>";
    out += "</tr>\n";
    for (const auto &r : c.rows) {
        const auto &base = r.runs[c.baseline];
        for (std::size_t run = 0; run < r.runs.size(); ++run) {
            out += "<tr><td>" + (run == 0 ? htmlEscape(r.name) : std::string()) + "</td><td>"
                + "<span style=\"color:" + std::string(runColor(run)) + "\">&#9632;</span> "
                + htmlEscape(labels[run]) + "</td>";
            const auto &values = r.runs[run];
            if (!values) {
                out += fmt::format("<td colspan=\"{}\" class=\"note\">not in this run</td></tr>\n",
                    2 * c.metrics.size());
                continue;
            }
            for (const CompareMetric m : c.metrics) {
                const double v = (*values)[m];
                out += "<td class=\"n\">" + htmlEscape(formatMetric(m, v)) + "</td>";
                if (run == c.baseline) {
                    out += "<td class=\"note\">baseline</td>";
                    continue;
                }
                if (!base) {
                    out += "<td class=\"note\">no baseline</td>";
                    continue;
                }
                const Change change = changeOf(m, (*base)[m], v);
                const std::string text = std::isfinite(change.percent)
                    ? fmt::format("{:+.1f} %", change.percent)
                    : std::string("–");
                out += fmt::format("<td class=\"n {}\" title=\"{}\">{}</td>",
                    toString(change.sense), toString(change.sense), text);
            }
            out += "</tr>\n";
        }
    }
    return out + "</table>\n";
}

} // namespace

std::string writeComparisonHtml(const Comparison &comparison,
    const std::vector<const RunResult *> &runs, const std::vector<std::string> &labels,
    std::span<const ReportImage> images)
{
    std::string out = pageHead("IOPrism comparison of " + std::to_string(runs.size()) + " runs");
    out += runsSection(runs, labels, comparison.baseline);
    out += differencesSection(comparison, labels);
    out += "<h2>Curves</h2>\n";
    out += images.empty() ? curvesSvg(comparisonCurves(runs), labels) : figures(images);
    out += deltaSection(comparison, labels);
    out += "<h2>The runs' setups</h2>\n";
    for (std::size_t i = 0; i < runs.size(); ++i)
        out += "<details><summary>" + htmlEscape(labels[i]) + "</summary>\n"
            + setupSection(*runs[i], "h3")
            + environmentSection(*runs[i], runs[i]->environment, "h3") + "</details>\n";
    out += "<p class=\"note\">Written by IOPrism " IOPRISM_VERSION
           ". Figures are each step's All scope (a series point: the median of its trials); "
           "MB/s are decimal (10<sup>6</sup> bytes per second).</p>\n</body>\n</html>\n";
    return out;
}

std::string writeHtmlReport(
    const RunResult &result, const Environment &environment, std::span<const ReportImage> images)
{
    const Profile &p = result.plan.profile;
    const std::string title = p.setup.description.empty()
        ? std::string("IOPrism run")
        : "IOPrism run: " + p.setup.description.substr(0, 80);
    std::string out = pageHead(title);
    if (result.error)
        out += "<p><strong>The run stopped with an error:</strong> "
            + htmlEscape(result.error->toString()) + "</p>\n";
    else if (result.stoppedByUser)
        out += "<p><strong>Stopped by the user:</strong> the results cover the time "
               "measured.</p>\n";
    out += "<h2>All steps</h2>\n" + formatStepSummary(stepSummary(result), TableFormat::Html);
    out += figures(images);
    if (const std::string map = latencyMapSvg(result.intervals); !map.empty())
        out += "<h2>Latency over time</h2>\n" + map;
    out += seriesSection(result);
    if (const auto &pre = result.preconditioning) {
        out += "<h2>Preconditioning</h2>\n<p class=\"precondition\">"
            + htmlEscape(describePreconditioning(*pre)) + "</p>\n";
        out += stepSection(
            pre->step, result.intervals, RunPhase::Preconditioning, "Before the steps");
    }
    out += "<h2>Steps</h2>\n";
    for (const auto &step : result.steps)
        out += stepSection(step, result.intervals);
    out += setupSection(result);
    out += environmentSection(result, environment);
    out += "<p class=\"note\">Written by IOPrism " + htmlEscape(environment.toolVersion)
        + ". Latencies are completion times on IOPrism's own monotonic clock; MB/s are "
          "decimal (10<sup>6</sup> bytes per second).</p>\n</body>\n</html>\n";
    return out;
}

} // namespace ioprism::core
