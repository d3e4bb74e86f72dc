// SPDX-License-Identifier: GPL-3.0-or-later
// The plots of a series (IOPrism's sweeps), the swept parameter on x.
//
// One axis (a curve): IOPS (left y: dashed, hollow diamonds; a check box puts it on a
// log scale) and MB/s (right y: solid) with the device's read and write MB/s wide and
// pale under the application's; a mixed read/write spec draws the application's read and
// write MB/s apart, each beside the device's figure of the same direction. Below, the
// latency percentiles (mean, p50, p99, p99.9) on a logarithmic axis whose unit (µs, ms,
// s) is the one the data's middle reads in. The two plots keep their x axes aligned. Sizes are
// on a log₂ axis labelled in binary units; depths and workers too when they double,
// else linearly. Each point is the median of its trials; with several trials, whiskers
// span the smallest to the largest. One curve family per spec index (and per target
// when the targets run in turn).
//
// When the points opened files (a file tree, Iometer's connection rate) the curves add
// files opened per second (on the IOPS axis: one file per operation on a tree) and the
// operation's (open-to-close) mean and p99 latency, and the matrix can show them.
//
// Two axes (a matrix): a heat map of IOPS, MB/s or p99 latency (a combo chooses) over
// both parameters, each cell labelled and its exact figures shown on hover, beside the
// family of curves over the first parameter, one curve per value of the second.
//
// setData() redraws everything: a series has at most a few thousand points, so the
// page calls it again as each point finishes and the curves grow point by point.
#pragma once

#include "ui/plots/plot_panel.h"
#include "ui/plots/series_data.h"

#include <array>
#include <vector>

class QComboBox;
class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPErrorBars;
class QCPGraph;
class QCheckBox;
class QLabel;
class QStackedWidget;

namespace ioprism::ui {

struct LatencyUnit;

class SeriesPlots : public PlotPanel
{
    Q_OBJECT
public:
    enum PlotId { ThroughputPlot, LatencyPlot, HeatMapPlot, CurvesPlot, PlotCount };
    // What the heat map and the matrix's curves show.
    enum Metric { IopsMetric, MegabytesMetric, P99Metric, FilesMetric, OperationP99Metric };
    enum Latency { MeanLatency, P50Latency, P99Latency, P999Latency, LatencyCount };

    explicit SeriesPlots(QWidget *parent = nullptr);

    void clear();
    void setData(SeriesData data);
    const SeriesData &data() const { return m_data; }

    Metric heatMetric() const { return m_metric; }
    void setHeatMetric(Metric metric);
    // A matrix shows one family (spec index, target) at a time.
    int family() const { return m_family; }
    void setFamily(int family);

    QCustomPlot *plot(PlotId id) const { return plotAt(id); }
    QString plotTitle(PlotId id) const;
    // The plots of the current mode: throughput and latency for a curve, the heat map
    // and the curves for a matrix.
    std::vector<PlotId> shownPlots() const;
    bool savePlot(PlotId id, const QString &fileName); // .png or .pdf by extension

    // Graphs of a curve, per family (nullptr when absent); the matrix's curves per value
    // of the second axis. For tests and the hover read-out.
    QCPGraph *iopsGraph(int family) const;
    // The application's total MB/s: nullptr for a family that both read and wrote, which
    // has its read and its write MB/s instead (nullptr when it did not do that direction).
    QCPGraph *megabytesGraph(int family) const;
    QCPGraph *readMegabytesGraph(int family) const;
    QCPGraph *writeMegabytesGraph(int family) const;
    QCPGraph *deviceReadGraph(int family) const;
    QCPGraph *deviceWriteGraph(int family) const;
    QCPGraph *latencyGraph(int family, Latency which) const;
    // Files opened per second, and the open-to-close (operation) mean or p99: nullptr when
    // the points opened no files.
    QCPGraph *filesGraph(int family) const;
    QCPGraph *operationGraph(int family, bool p99) const;
    // Some point opened files: the files curves are drawn and the matrix offers them.
    bool hasFiles() const;
    QCPErrorBars *iopsWhiskers(int family) const;
    QCPGraph *matrixCurve(int secondAxisValue) const;
    QCPColorMap *colorMap() const { return m_colorMap; }
    QComboBox *metricField() const { return m_metricCombo; }
    QComboBox *familyField() const { return m_familyCombo; }
    // The curves' IOPS axis on a log scale (the check box above the curves).
    bool iopsLogScale() const { return m_iopsLog; }
    void setIopsLogScale(bool log);
    QCheckBox *iopsLogField() const { return m_iopsLogCheck; }
    // The heat map's hover text for a cell (column: first axis, row: second axis).
    QString cellText(int column, int row) const;
    // The hover text at a position of a plot ("" outside the data).
    QString hoverText(PlotId id, const QPoint &pos) const;

signals:
    // The user asked to save a plot (context menu); the window picks the file.
    void exportRequested(ioprism::ui::SeriesPlots::PlotId id);

protected:
    void changeEvent(QEvent *event) override;

private:
    struct FamilyGraphs {
        QCPGraph *iops = nullptr;
        QCPGraph *megabytes = nullptr;
        QCPGraph *readMegabytes = nullptr; // a mixed spec: its reads and writes apart
        QCPGraph *writeMegabytes = nullptr;
        QCPGraph *deviceRead = nullptr;
        QCPGraph *deviceWrite = nullptr;
        std::array<QCPGraph *, LatencyCount> latency {};
        QCPErrorBars *iopsBars = nullptr;
        QCPGraph *files = nullptr;
        std::array<QCPGraph *, 2> operation {}; // mean, p99
    };
    QWidget *makeCurvesPage();
    QWidget *makeMatrixPage();
    QCustomPlot *makePlot(PlotId id, bool legend);
    void resetPlot(PlotId id);
    const FamilyGraphs *familyGraphs(int family) const;

    // One axis (series_curves.cpp): per family, the throughput plot's curves (IOPS, MB/s,
    // files, the device's) and the latency plot's.
    struct CurveFamily;
    struct CurveRanges;
    void drawCurves();
    LatencyUnit setUpCurveAxes(CurveRanges &ranges);
    void drawThroughputCurves(const CurveFamily &c, FamilyGraphs &g, CurveRanges &r);
    void drawFilesCurve(const CurveFamily &c, FamilyGraphs &g, CurveRanges &r);
    void drawDeviceCurves(const CurveFamily &c, FamilyGraphs &g, CurveRanges &r);
    void drawLatencyCurves(const CurveFamily &c, double divisor, FamilyGraphs &g, CurveRanges &r);
    void setCurveRanges(const CurveRanges &r, double divisor);
    // The curves' two plots replotted until their axis rects have the same left and
    // right margins (their margin group reads the other plot's last tick labels).
    void alignCurvePlots();

    // Two axes (series_matrix.cpp).
    // The heat map's figures and how they map to colours.
    struct HeatScale {
        std::vector<std::vector<double>> values; // [column][row], NaN where none ran yet
        double divisor = 1; // a latency metric's unit, in µs
        QString unitName;
        double lo = 0; // the colours' range, in the unit
        double hi = 1;
        bool log = false; // colours on a log scale
    };
    void drawMatrix();
    void drawHeatMap(const SeriesFamily &family);
    void placeCells(const SeriesFamily &family);
    void colourHeatMap(const HeatScale &scale);
    void labelCells(const HeatScale &scale);
    void drawMatrixCurves(const SeriesFamily &family);
    double metricValue(const core::SeriesPointResult &point) const;
    const core::TrialStat &metricStat(const core::SeriesPointResult &point) const;
    bool latencyMetric() const { return m_metric == P99Metric || m_metric == OperationP99Metric; }
    void updateMetricChoices();
    QString metricLabel() const;

    // The hover (PlotPanel): figures at the value of the first axis nearest the pointer,
    // or of the heat map's cell under it.
    // The value of the first axis nearest `x` (pixels of plot `id`), NaN when none.
    double nearestValue(PlotId id, int x) const;
    QString hoverAt(int index, const QPoint &pos, double &tracerKey) const override;
    bool readsOutAt(int index, const QPoint &pos) const override;
    void fillContextMenu(QMenu *menu, int index) override;

    SeriesData m_data;
    Metric m_metric = IopsMetric;
    int m_family = 0;
    std::vector<FamilyGraphs> m_familyGraphs;
    std::vector<QCPGraph *> m_matrixCurves;
    // The latency plots' unit: values are divided by this many µs.
    double m_latencyDivisor = 1;
    double m_curvesDivisor = 1; // the matrix curves' (p99)
    QCPColorMap *m_colorMap = nullptr;
    QCPColorScale *m_colorScale = nullptr;
    // [column][row] -> index into m_data.points, -1 where no point ran yet.
    std::vector<std::vector<int>> m_cells;
    QStackedWidget *m_stack = nullptr;
    QLabel *m_empty = nullptr;
    QComboBox *m_metricCombo = nullptr;
    QComboBox *m_familyCombo = nullptr;
    QCheckBox *m_iopsLogCheck = nullptr;
    bool m_iopsLog = false;
    bool m_alignQueued = false; // alignCurvePlots() is on its way
    bool m_redrawQueued = false; // a palette change's redraw is on its way
    QLabel *m_familyLabel = nullptr;
};

} // namespace ioprism::ui
