// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/series_axes.h"

#include "core/profile/series.h"
#include "core/profile/sweep_parameter.h"
#include "core/stats/latency_map.h"
#include "ui/format.h"
#include "ui/plots/series_plot.h"

#include <algorithm>
#include <cmath>

namespace ioprism::ui {

namespace {

// At most this many labelled ticks on a parameter axis; more values label every nth.
constexpr std::size_t kMaxAxisLabels = 12;

QString compactTickLabel(double tick, const QLocale &locale)
{
    const double a = std::abs(tick);
    if (a >= 1e6)
        return locale.toString(tick / 1e6, 'g', 3) + QLatin1Char('M');
    if (a >= 1e4)
        return locale.toString(tick / 1e3, 'g', 4) + QLatin1Char('k');
    return locale.toString(tick, 'g', 4);
}

// A tick of a log axis as a plain number ('g' writes 1000 as "1e+03").
QString plainTickLabel(double tick, const QLocale &locale)
{
    if (tick >= 100)
        return locale.toString(tick, 'f', 0);
    int decimals = 0;
    while (decimals < 6
        && std::abs(tick * std::pow(10.0, decimals) - std::round(tick * std::pow(10.0, decimals)))
            > 1e-9 * std::pow(10.0, decimals))
        ++decimals;
    return locale.toString(tick, 'f', decimals);
}

QVector<double> log125Ticks(const QCPRange &range)
{
    QVector<double> ticks;
    if (range.lower <= 0 || range.upper <= range.lower)
        return ticks;
    const double decades = std::log10(range.upper / range.lower);
    // Over many decades 1, 2, 5 crowds: keep the decades only.
    const bool all = decades <= 3.5;
    for (int e = int(std::floor(std::log10(range.lower)));
         e <= int(std::ceil(std::log10(range.upper))); ++e)
        for (const double m : {1.0, 2.0, 5.0}) {
            if (!all && m != 1.0)
                continue;
            const double v = m * std::pow(10.0, e);
            if (v >= range.lower && v <= range.upper)
                ticks << v;
        }
    return ticks;
}

// Sizes always on a log₂ axis (they are swept by doubling); depths and workers when
// they double (or more) from value to value; percentages linearly.
bool logScale(const SeriesAxisValues &axis)
{
    std::vector<std::uint64_t> v = axis.values;
    std::sort(v.begin(), v.end());
    const core::SweepParameterTraits &traits = core::sweepTraits(axis.parameter);
    if (v.size() < 2 || v.front() == 0 || !traits.logScale)
        return false;
    if (traits.kind == core::SweepValueKind::Size)
        return v.back() >= 4 * v.front();
    for (std::size_t i = 1; i < v.size(); ++i)
        if (double(v[i]) < 1.9 * double(v[i - 1]))
            return false;
    return true;
}

} // namespace

QColor paletteColor(std::size_t i)
{
    static const QColor colors[] = {QColor(31, 119, 180), QColor(255, 127, 14), QColor(44, 160, 44),
        QColor(214, 39, 40), QColor(148, 103, 189), QColor(140, 86, 75), QColor(227, 119, 194),
        QColor(127, 127, 127), QColor(188, 189, 34), QColor(23, 190, 207)};
    return colors[i % std::size(colors)];
}

QCPScatterStyle::ScatterShape familyShape(std::size_t i)
{
    static const QCPScatterStyle::ScatterShape shapes[] = {QCPScatterStyle::ssDisc,
        QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond,
        QCPScatterStyle::ssCross, QCPScatterStyle::ssTriangleInverted, QCPScatterStyle::ssStar};
    return shapes[i % std::size(shapes)];
}

QString CompactTicker::getTickLabel(double tick, const QLocale &locale, QChar, int)
{
    return compactTickLabel(tick, locale);
}

QVector<double> Log125Ticker::createTickVector(double, const QCPRange &range)
{
    return log125Ticks(range);
}

QString Log125Ticker::getTickLabel(double tick, const QLocale &locale, QChar, int)
{
    return plainTickLabel(tick, locale);
}

QVector<double> CompactLogTicker::createTickVector(double, const QCPRange &range)
{
    return log125Ticks(range);
}

QString CompactLogTicker::getTickLabel(double tick, const QLocale &locale, QChar, int)
{
    return compactTickLabel(tick, locale);
}

LatencyUnit latencyUnit(double maxUs)
{
    if (maxUs >= 1e6)
        return {1e6, QStringLiteral("s")};
    if (maxUs >= 1e3)
        return {1e3, QStringLiteral("ms")};
    return {1, QStringLiteral("µs")};
}

LatencyUnit latencyAxisUnit(double minUs, double maxUs)
{
    if (!(minUs > 0) || minUs > maxUs)
        return latencyUnit(maxUs);
    return latencyUnit(std::sqrt(minUs * maxUs));
}

void configureParameterAxis(QCPAxis *axis, const SeriesAxisValues &values)
{
    const bool log = logScale(values);
    axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    std::vector<std::uint64_t> v = values.values;
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    // Every value, or every 2nd, 5th, 10th, 20th...: a hundred positions read 0 %, 10 %,
    // 20 %, not 0 %, 9 %, 18 %.
    const std::size_t needed = (v.size() + kMaxAxisLabels - 1) / kMaxAxisLabels;
    std::size_t stride = 1;
    for (std::size_t decade = 1; stride < needed; decade *= 10)
        for (const std::size_t step : {decade, 2 * decade, 5 * decade})
            if (stride < needed)
                stride = step;
    for (std::size_t i = 0; i < v.size(); i += stride)
        ticker->addTick(double(v[i]), sweepValueText(values.parameter, v[i]));
    ticker->setSubTickCount(0);
    axis->setTicker(ticker);
    axis->setLabel(sweepParameterText(values.parameter)
        + (log ? SeriesPlots::tr(" (log₂ scale)") : QString()));
    if (v.empty()) {
        axis->setRange(0, 1);
    } else if (log) {
        axis->setRange(double(v.front()) / 1.4, double(v.back()) * 1.4);
    } else {
        const double span = double(v.back() - v.front());
        const double pad = std::max(span * 0.05, 0.5);
        axis->setRange(double(v.front()) - pad, double(v.back()) + pad);
    }
}

void configureCellAxis(QCPAxis *axis, const SeriesAxisValues &values)
{
    axis->setScaleType(QCPAxis::stLinear);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const std::size_t n = values.values.size();
    const std::size_t stride = std::max<std::size_t>(1, (n + kMaxAxisLabels - 1) / kMaxAxisLabels);
    for (std::size_t i = 0; i < n; i += stride)
        ticker->addTick(double(i), sweepValueText(values.parameter, values.values[i]));
    ticker->setSubTickCount(0);
    axis->setTicker(ticker);
    axis->setLabel(sweepParameterText(values.parameter));
    axis->setRange(-0.5, double(n) - 0.5);
    axis->grid()->setVisible(false);
}

QString curveName(core::SweepParameter parameter, std::uint64_t value)
{
    return toQString(core::describeSweepValue(parameter, value));
}

QString curveUnit(core::SweepParameter parameter)
{
    switch (parameter) {
    case core::SweepParameter::TransferSize:
        return SeriesPlots::tr("transfer size");
    case core::SweepParameter::OutstandingIos:
        return SeriesPlots::tr("queue depth");
    case core::SweepParameter::Workers:
        return SeriesPlots::tr("worker count");
    case core::SweepParameter::PercentRead:
        return SeriesPlots::tr("% read");
    case core::SweepParameter::PercentRandom:
        return SeriesPlots::tr("% random");
    case core::SweepParameter::Position:
        return SeriesPlots::tr("position (% of the target)");
    }
    return {};
}

QCPGraph *addCurve(QCustomPlot *plot, QCPAxis *valueAxis, const QString &name, const QColor &color,
    Qt::PenStyle style, QCPScatterStyle::ScatterShape shape)
{
    auto *graph = plot->addGraph(plot->xAxis, valueAxis);
    graph->setName(name);
    graph->setPen(QPen(color, 2, style));
    if (shape != QCPScatterStyle::ssNone)
        graph->setScatterStyle(QCPScatterStyle(shape, color, color, 6));
    return graph;
}

QCPErrorBars *addWhiskers(
    QCPGraph *graph, const QVector<double> &minus, const QVector<double> &plus)
{
    auto *bars = new QCPErrorBars(graph->keyAxis(), graph->valueAxis());
    bars->setDataPlottable(graph);
    bars->setErrorType(QCPErrorBars::etValueError);
    bars->setPen(QPen(graph->pen().color(), 1));
    bars->setWhiskerWidth(7);
    bars->setSymbolGap(0);
    bars->removeFromLegend();
    bars->setData(minus, plus);
    return bars;
}

QCPColorGradient heatGradient()
{
    QCPColorGradient g;
    g.clearColorStops();
    // The report's heat map draws with the same stops (core/stats/latency_map.h).
    for (const auto &stop : core::kHeatColorStops)
        g.setColorStopAt(stop.position, QColor(stop.red, stop.green, stop.blue));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setNanHandling(QCPColorGradient::nhTransparent);
    g.setLevelCount(256);
    return g;
}

} // namespace ioprism::ui
