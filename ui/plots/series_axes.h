// SPDX-License-Identifier: GPL-3.0-or-later
// The axes, ticks, units, colours and curves of the series plots (series_plot.h), shared
// by the curves of one axis (series_curves.cpp) and the matrix of two (series_matrix.cpp).
#pragma once

#include "ui/plots/qcp_library.h"
#include "ui/plots/series_data.h"

#include <QColor>
#include <QString>

#include <cstdint>

namespace ioprism::ui {

// Categorical colours for curve families and the matrix's curves (matplotlib's tab10,
// the first three being the read, write and total colours of the other plots).
QColor paletteColor(std::size_t i);
// The marks of curve family i, so that families differ by more than their colour.
QCPScatterStyle::ScatterShape familyShape(std::size_t i);

// Tick labels that stay short: 1.5M, 250k, 1,200, 0.5.
class CompactTicker : public QCPAxisTicker
{
protected:
    QString getTickLabel(double tick, const QLocale &locale, QChar, int) override;
};

// Ticks at 1, 2 and 5 of each decade on a logarithmic axis: a latency or IOPS curve spans
// one or two decades, where the usual 1, 10, 100 leave two or three labels (and
// QCPAxisTickerLog falls back to linear ticks below 1.6 decades, none at the bottom).
// Labelled as plain numbers, never in exponent notation: "0.05", "2", "1000", "20,000".
class Log125Ticker : public QCPAxisTicker
{
protected:
    QVector<double> createTickVector(double, const QCPRange &range) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar, int) override;
};

// The IOPS axis on a log scale: 1, 2, 5 of each decade, labelled as the linear axis is
// (100k, not 10⁵).
class CompactLogTicker : public QCPAxisTickerLog
{
protected:
    QVector<double> createTickVector(double, const QCPRange &range) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar, int) override;
};

// The unit a set of latencies reads best in: µs below 1 ms, ms below 1 s, then s, as
// latencyText() writes each figure.
struct LatencyUnit {
    double divisor = 1;
    QString name;
};
LatencyUnit latencyUnit(double maxUs);
// The unit of a log axis over [minUs, maxUs]: the one its middle (the geometric mean)
// reads in, so most ticks and figures read as the rest of the screen writes them; a p99.9
// of 1.2 ms no longer puts a 60 µs median in "0.06 ms".
LatencyUnit latencyAxisUnit(double minUs, double maxUs);

// The x axis of a parameter: log₂ or linear, a labelled tick at each value (every nth
// when there are many), the parameter as its title.
void configureParameterAxis(QCPAxis *axis, const SeriesAxisValues &values);
// The cells of a matrix axis: one tick per index, labelled with its value.
void configureCellAxis(QCPAxis *axis, const SeriesAxisValues &values);
// A value of a parameter as a curve's name or a hover's heading: "QD 8", "4 KiB",
// "70 % read".
QString curveName(core::SweepParameter parameter, std::uint64_t value);
// What one curve of the matrix stands for, in a title: "one curve per queue depth".
QString curveUnit(core::SweepParameter parameter);
// A curve on `valueAxis` of `plot`: a 2 px pen of `style`, marks of `shape` filled in
// its colour (ssNone: none).
QCPGraph *addCurve(QCustomPlot *plot, QCPAxis *valueAxis, const QString &name, const QColor &color,
    Qt::PenStyle style, QCPScatterStyle::ScatterShape shape);
// Whiskers on each point of `graph`, `minus` below and `plus` above it (to the smallest
// and the largest trial), thin and in its colour, not in the legend.
QCPErrorBars *addWhiskers(
    QCPGraph *graph, const QVector<double> &minus, const QVector<double> &plus);
// The heat map's colours: perceptually even, readable on light and dark backgrounds.
QCPColorGradient heatGradient();

} // namespace ioprism::ui
