// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/svg_plots.h"

#include "core/profile/units.h"
#include "core/run/interval_history.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace ioprism::core {

double niceStep(double span, int count)
{
    if (!(span > 0))
        return 1;
    const double raw = span / count;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : {1.0, 2.0, 5.0})
        if (raw <= m * power)
            return m * power;
    return 10 * power;
}

std::string axisNumber(double v)
{
    if (std::fabs(v) >= 1e6)
        return fmt::format("{:g}M", v / 1e6);
    if (std::fabs(v) >= 1e4)
        return fmt::format("{:g}k", v / 1e3);
    return fmt::format("{:g}", v);
}

namespace {

// The heat map's canvas, as the comparison's curves: size and margins for the labels.
constexpr double kMapWidth = 960, kMapHeight = 400, kMapLeft = 70, kMapRight = 20, kMapTop = 24,
                 kMapBottom = 64;

// One column of the map: adjacent intervals of one step, their bands added, and the
// sampling intervals they cover (more than one each in a long run's merged history).
struct MapColumn {
    double startSeconds = 0;
    double endSeconds = 0;
    std::size_t step = 0;
    bool precondition = false; // the run's preconditioning, before its first step
    std::size_t intervals = 0;
    std::uint64_t samplingIntervals = 0;
    LatencyBands bands;
};

std::vector<MapColumn> mapColumns(std::span<const IntervalSample> intervals)
{
    const std::size_t perColumn = std::max<std::size_t>(
        1, (intervals.size() + kMaxLatencyMapColumns - 1) / kMaxLatencyMapColumns);
    std::vector<MapColumn> columns;
    for (const auto &sample : intervals) {
        const bool precondition = sample.phase == RunPhase::Preconditioning;
        if (columns.empty() || columns.back().step != sample.step
            || columns.back().precondition != precondition || columns.back().intervals == perColumn)
            columns.push_back({.startSeconds = sample.startSeconds,
                .endSeconds = sample.endSeconds,
                .step = sample.step,
                .precondition = precondition});
        MapColumn &c = columns.back();
        c.endSeconds = std::max(c.endSeconds, sample.endSeconds);
        ++c.intervals;
        c.samplingIntervals += std::max<std::uint32_t>(sample.mergedIntervals, 1);
        c.bands.merge(intervalLatencyBands(sample));
    }
    return columns;
}

// "100 ns", "2 µs", "50 ms", "1 s": a latency tick.
std::string latencyTick(double ns)
{
    if (ns < 1e3)
        return fmt::format("{:g} ns", ns);
    if (ns < 1e6)
        return fmt::format("{:g} µs", ns / 1e3);
    if (ns < 1e9)
        return fmt::format("{:g} ms", ns / 1e6);
    return fmt::format("{:g} s", ns / 1e9);
}

std::string hexColor(std::uint32_t rgb)
{
    return fmt::format("#{:06x}", rgb);
}

} // namespace

std::string latencyMapSvg(std::span<const IntervalSample> intervals)
{
    const std::vector<MapColumn> columns = mapColumns(intervals);
    // A cell's figure: its band's I/Os per sampling interval of its column, so that one
    // colour is one rate wherever intervals were added together or merged.
    const auto perInterval = [](const MapColumn &c, std::uint64_t count) {
        return double(count) / double(std::max<std::uint64_t>(c.samplingIntervals, 1));
    };
    std::uint32_t lowBand = std::numeric_limits<std::uint32_t>::max(), highBand = 0;
    double most = 0;
    double tLo = std::numeric_limits<double>::infinity(), tHi = -tLo;
    for (const auto &c : columns) {
        if (c.bands.empty())
            continue;
        lowBand = std::min(lowBand, c.bands.first);
        highBand = std::max(highBand, c.bands.last());
        for (const auto count : c.bands.counts)
            most = std::max(most, perInterval(c, count));
        tLo = std::min(tLo, c.startSeconds);
        tHi = std::max(tHi, c.endSeconds);
    }
    if (!(most > 0) || !(tLo < tHi))
        return {};
    const double bandCount = double(highBand - lowBand + 1);
    const double plotHeight = kMapHeight - kMapTop - kMapBottom;
    const auto xOf = [&](double t) {
        return kMapLeft + (t - tLo) / (tHi - tLo) * (kMapWidth - kMapLeft - kMapRight);
    };
    // y in band units: band b spans [b, b + 1), 4·log2(ns) for a latency.
    const auto yOf
        = [&](double band) { return kMapTop + (1 - (band - lowBand) / bandCount) * plotHeight; };
    // On a log scale from one I/O per interval (the darkest, as the Live page's map) to the
    // fullest cell (the lightest), in 64 levels; equal levels stacked in a column are one
    // rectangle. Below one I/O per interval (a rare band over merged intervals) is the
    // darkest too.
    const double logMost = std::log(std::max(most, 2.0));
    const auto levelOf = [&](const MapColumn &c, std::uint64_t count) {
        const double perSample = std::max(perInterval(c, count), 1.0);
        return static_cast<int>(std::lround(std::log(perSample) / logMost * 63));
    };
    std::string out = fmt::format(
        "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
        "viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"Latency over time\">\n",
        kMapWidth, kMapHeight);
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#8881\"/>\n",
        kMapLeft, kMapTop, kMapWidth - kMapLeft - kMapRight, plotHeight);
    out += "<g shape-rendering=\"crispEdges\">\n";
    for (const auto &c : columns) {
        const double x = xOf(c.startSeconds);
        // Half a pixel wider than the span: adjacent columns overlap rather than leave a
        // hairline of background where their rounded edges meet.
        const double width = std::max(xOf(c.endSeconds) - x, 0.5) + 0.5;
        for (std::size_t i = 0; i < c.bands.counts.size();) {
            if (c.bands.counts[i] == 0) {
                ++i;
                continue;
            }
            const int level = levelOf(c, c.bands.counts[i]);
            std::size_t end = i + 1;
            while (end < c.bands.counts.size() && c.bands.counts[end] != 0
                && levelOf(c, c.bands.counts[end]) == level)
                ++end;
            // Half a pixel taller, as the columns are wider: no hairline between levels.
            const double top = yOf(double(c.bands.first + end));
            out += fmt::format(
                "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\"/>",
                x, top, width, yOf(double(c.bands.first + i)) - top + 0.5,
                hexColor(heatColor(level / 63.0)));
            i = end;
        }
        out += '\n';
    }
    out += "</g>\n";
    // Latency ticks 1-2-5 over the range (only the powers of ten when that is too many).
    const double nsLo = latencyBandLowNs(lowBand), nsHi = latencyBandLowNs(highBand + 1);
    std::vector<double> ticks;
    for (double power = std::pow(10.0, std::floor(std::log10(nsLo))); power <= nsHi; power *= 10)
        for (const double m : {1.0, 2.0, 5.0})
            if (m * power >= nsLo && m * power <= nsHi)
                ticks.push_back(m * power);
    if (ticks.size() > 10)
        std::erase_if(ticks, [](double ns) {
            const double l = std::log10(ns);
            return std::fabs(l - std::round(l)) > 1e-9;
        });
    for (const double ns : ticks) {
        const double y = yOf(std::log2(ns) * kLatencyBandsPerOctave);
        out += fmt::format("<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" "
                           "stroke=\"#8886\"/><text x=\"{3}\" y=\"{4:.1f}\" "
                           "text-anchor=\"end\">{5}</text>\n",
            kMapLeft - 4, kMapLeft, y, kMapLeft - 6, y + 4, latencyTick(ns));
    }
    const double step = niceStep(tHi - tLo, 8);
    for (double t = std::ceil(tLo / step) * step; t <= tHi + step / 1000; t += step)
        out += fmt::format("<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\" "
                           "stroke=\"#8886\"/><text x=\"{0:.1f}\" y=\"{3}\" "
                           "text-anchor=\"middle\">{4}</text>\n",
            xOf(t), kMapHeight - kMapBottom, kMapHeight - kMapBottom + 4,
            kMapHeight - kMapBottom + 18, axisNumber(t));
    // The steps' starts, numbered as the report's steps are (a step before the first I/O
    // or after the last has no place on the axis).
    // Preconditioning (which shares the first step's number) is marked "P".
    for (std::size_t i = 0; i < columns.size(); ++i)
        if ((i == 0 || columns[i].step != columns[i - 1].step
                || columns[i].precondition != columns[i - 1].precondition)
            && columns[i].startSeconds >= tLo && columns[i].startSeconds <= tHi)
            out += fmt::format("<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\" "
                               "stroke=\"#888\" stroke-dasharray=\"3 3\"/><text x=\"{3:.1f}\" "
                               "y=\"{4}\">{5}</text>\n",
                xOf(columns[i].startSeconds), kMapTop - 12, kMapHeight - kMapBottom,
                xOf(columns[i].startSeconds) + 3, kMapTop - 2,
                columns[i].precondition ? std::string("P") : std::to_string(columns[i].step + 1));
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">time (s)</text>\n",
        (kMapLeft + kMapWidth - kMapRight) / 2, kMapHeight - kMapBottom + 34);
    out += fmt::format("<text x=\"14\" y=\"{0}\" transform=\"rotate(-90 14 {0})\" "
                       "text-anchor=\"middle\">latency</text>\n",
        kMapTop + plotHeight / 2);
    // The colour scale: a gradient from one I/O to the fullest cell's count.
    out += "<defs><linearGradient id=\"heat\">";
    for (const auto &stop : kHeatColorStops)
        out += fmt::format("<stop offset=\"{:g}\" stop-color=\"{}\"/>", stop.position,
            hexColor(heatColor(stop.position)));
    out += "</linearGradient></defs>\n";
    const double legendY = kMapHeight - 16;
    out += fmt::format("<text x=\"{0}\" y=\"{1}\">I/Os per sampling interval and band (log "
                       "scale): 1</text><rect x=\"{2}\" y=\"{3}\" width=\"200\" height=\"10\" "
                       "fill=\"url(#heat)\"/><text x=\"{4}\" y=\"{1}\">{5:.0f}</text>\n",
        kMapLeft, legendY, kMapLeft + 340, legendY - 9, kMapLeft + 546, most);
    return out
        + "</svg><figcaption>Latency over time: each interval's I/Os by latency (all "
          "targets, reads and writes)</figcaption></figure>\n";
}

namespace {

// The write plot's canvas: the rate above, the latency below, one x axis.
constexpr double kCliffWidth = 960, kCliffLeft = 70, kCliffRight = 20, kCliffRateTop = 24,
                 kCliffRateBottom = 224, kCliffLatencyTop = 256, kCliffLatencyBottom = 376,
                 kCliffHeight = 430;

std::string polyline(const std::vector<std::pair<double, double>> &points, const char *color,
    const char *dash = nullptr)
{
    std::string out = fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"{} "
                                  "points=\"",
        color, dash ? fmt::format(" stroke-dasharray=\"{}\"", dash) : std::string());
    for (const auto &[x, y] : points)
        out += fmt::format("{:.1f},{:.1f} ", x, y);
    return out + "\"/>\n";
}

// Horizontal grid lines and labels for values 0 ... top on the panel from yTop (at top)
// to yBottom (at 0).
std::string valueTicks(double top, double yTop, double yBottom, const auto &label)
{
    std::string out;
    const double step = niceStep(top, 4);
    for (double v = 0; v <= top + step / 1000; v += step) {
        const double y = yBottom - v / top * (yBottom - yTop);
        out += fmt::format("<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" "
                           "stroke=\"#8883\"/><text x=\"{3}\" y=\"{4:.1f}\" "
                           "text-anchor=\"end\">{5}</text>\n",
            kCliffLeft, kCliffWidth - kCliffRight, y, kCliffLeft - 6, y + 4, label(v));
    }
    return out;
}

} // namespace

std::string writeCliffSvg(
    std::span<const StepWriteInterval> written, const WriteCliffJudgement &judged)
{
    if (written.size() < 2 || written.back().bytesWritten == 0)
        return {};
    // Bytes in GiB from 1 GiB on, else MiB: ticks that read as amounts people know.
    const double total = double(written.back().bytesWritten);
    const bool gib = total >= double(kGiB);
    const double unit = gib ? double(kGiB) : double(kMiB);
    const double xMax = total / unit;
    const auto xOf = [&](double bytes) {
        return kCliffLeft + bytes / unit / xMax * (kCliffWidth - kCliffLeft - kCliffRight);
    };
    // A latency is drawn where it is a number above 0: a results file keeps each
    // interval's mean, not its p99 (read back as 0), and then p99 has no line.
    const auto drawn = [](double us) { return std::isfinite(us) && us > 0; };
    double rateTop = 0, latencyTop = 0;
    bool anyP99 = false;
    for (const auto &w : written) {
        if (std::isfinite(w.write.megabytesPerSecond))
            rateTop = std::max(rateTop, w.write.megabytesPerSecond);
        for (const double us : {w.write.latency.meanUs, w.write.latency.p99Us})
            if (drawn(us))
                latencyTop = std::max(latencyTop, us);
        anyP99 = anyP99 || drawn(w.write.latency.p99Us);
    }
    // Each panel's top: a tenth of headroom above its largest figure. The ticks and the
    // lines are placed on the same scale.
    rateTop = rateTop > 0 ? rateTop * 1.1 : 1;
    latencyTop = latencyTop > 0 ? latencyTop * 1.1 : 1;
    const auto rateY = [&](double r) {
        return kCliffRateBottom - r / rateTop * (kCliffRateBottom - kCliffRateTop);
    };
    const auto latencyY = [&](double us) {
        return kCliffLatencyBottom - us / latencyTop * (kCliffLatencyBottom - kCliffLatencyTop);
    };
    std::string out = fmt::format(
        "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
        "viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"Write rate and latency against the "
        "bytes written\">\n",
        kCliffWidth, kCliffHeight);
    out += valueTicks(
        rateTop, kCliffRateTop, kCliffRateBottom, [&](double v) { return axisNumber(v); });
    // Latency ticks in one unit for the panel: µs below 10 ms at the top, else ms.
    const bool ms = latencyTop >= 10'000;
    out += valueTicks(latencyTop, kCliffLatencyTop, kCliffLatencyBottom,
        [&](double us) { return axisNumber(ms ? us / 1000 : us); });
    std::vector<std::pair<double, double>> rate, mean, p99;
    for (const auto &w : written) {
        const double x = xOf(double(w.bytesWritten));
        if (std::isfinite(w.write.megabytesPerSecond))
            rate.emplace_back(x, rateY(w.write.megabytesPerSecond));
        if (w.write.ios > 0 && drawn(w.write.latency.meanUs))
            mean.emplace_back(x, latencyY(w.write.latency.meanUs));
        if (w.write.ios > 0 && drawn(w.write.latency.p99Us))
            p99.emplace_back(x, latencyY(w.write.latency.p99Us));
    }
    out += polyline(rate, "#1f77b4");
    out += polyline(p99, "#d62728");
    out += polyline(mean, "#9467bd");
    if (judged.cliff) {
        // The rates before and after as level lines, and where the cliff is.
        const WriteCliff &cliff = *judged.cliff;
        const double at = xOf(double(cliff.bytesBefore));
        out += polyline({{kCliffLeft, rateY(cliff.rateBefore)}, {at, rateY(cliff.rateBefore)}},
            "#2ca02c", "6 4");
        out += polyline(
            {{at, rateY(cliff.rateAfter)}, {kCliffWidth - kCliffRight, rateY(cliff.rateAfter)}},
            "#2ca02c", "6 4");
        out += fmt::format("<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\" "
                           "stroke=\"#888\" stroke-dasharray=\"3 3\"/><text x=\"{3:.1f}\" "
                           "y=\"{4}\">cliff after {5}</text>\n",
            at, kCliffRateTop - 8, kCliffLatencyBottom, at + 4, kCliffRateTop - 10,
            describeSize(cliff.bytesBefore));
    }
    const double step = niceStep(xMax, 8);
    for (double v = 0; v <= xMax + step / 1000; v += step)
        out += fmt::format("<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\" "
                           "stroke=\"#8886\"/><text x=\"{0:.1f}\" y=\"{3}\" "
                           "text-anchor=\"middle\">{4}</text>\n",
            xOf(v * unit), kCliffLatencyBottom, kCliffLatencyBottom + 4, kCliffLatencyBottom + 18,
            axisNumber(v));
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">written ({})</text>\n",
        (kCliffLeft + kCliffWidth - kCliffRight) / 2, kCliffLatencyBottom + 34,
        gib ? "GiB" : "MiB");
    out += fmt::format("<text x=\"14\" y=\"{0}\" transform=\"rotate(-90 14 {0})\" "
                       "text-anchor=\"middle\">write MB/s</text>\n",
        (kCliffRateTop + kCliffRateBottom) / 2);
    out += fmt::format("<text x=\"14\" y=\"{0}\" transform=\"rotate(-90 14 {0})\" "
                       "text-anchor=\"middle\">latency ({1})</text>\n",
        (kCliffLatencyTop + kCliffLatencyBottom) / 2, ms ? "ms" : "µs");
    out += fmt::format("<text x=\"{0}\" y=\"{1}\"><tspan fill=\"#1f77b4\">— write MB/s</tspan> "
                       "<tspan fill=\"#2ca02c\">- - rate before and after the cliff</tspan> "
                       "<tspan fill=\"#9467bd\">— mean latency</tspan>{2}</text>\n",
        kCliffLeft, kCliffHeight - 6,
        anyP99 ? " <tspan fill=\"#d62728\">— p99 latency</tspan>" : "");
    return out + "</svg><figcaption>The write against the bytes written</figcaption></figure>\n";
}

} // namespace ioprism::core
