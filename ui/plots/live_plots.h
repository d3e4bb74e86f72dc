// SPDX-License-Identifier: GPL-3.0-or-later
// The four live plots, time on x: throughput (MB/s), IOPS, latency percentiles (log
// scale) and CPU, each with room for the device's own figures (dashed overlays).
//
// Cost per sample on the GUI thread: a handful of QCPGraph::addData calls and, while
// following, a scan of the points in view to fit the y axes. Replots are paced by a
// FramePacer: at most four frames per second (a 1 s sampling interval is drawn at once),
// none while the plots are hidden. Lines are 1 px (see addGraph), so at a device pixel
// ratio of 1 a frame costs the same with 10 points in view as with 1200. Each graph keeps at most
// kMaxPointsPerGraph points (a sliding window; the run result keeps every interval).
//
// Interaction: drag to pan, wheel to zoom, on any plot; the x axes are linked. While
// "following", the x range slides with the newest sample; a drag or zoom pauses that
// (followingChanged), a double-click or setFollowing(true) resumes. Hovering shows the
// values of every series at that time, the step's full name and, on the IOPS plot, how
// the device's request size relates to the application's (the kernel splits large I/O).
//
// Readable at any size: step labels elide to the room before the next label on their
// row (odd steps sit on a second row, so a label may reach the step after next) and
// show in full on hover; legends wrap onto more rows when a plot is narrow, never cutting
// a name; the latency axis is logarithmic with 1-2-5 ticks that always cover the range
// in view, labelled in µs, ms or s by magnitude (LatencyTicker).
#pragma once

#include "ui/plots/device_overlay.h"
#include "ui/plots/plot_panel.h"

#include <array>
#include <memory>
#include <optional>

class QCustomPlot;
class QCPGraph;
class QCPItemRect;
class QCPItemText;

namespace ioprism::ui {

class FramePacer;
class LatencyHeatMap;
class SteadyStateOverlay;

class LivePlots : public PlotPanel
{
    Q_OBJECT
public:
    enum PlotId { ThroughputPlot, IopsPlot, LatencyPlot, CpuPlot, PlotCount };
    // Application series of each plot, in graph order; device series follow them.
    enum ThroughputSeries { ReadMegabytes, WriteMegabytes };
    enum IopsSeries { TotalIops, ReadIops, WriteIops };
    enum LatencySeries { P50, P99, P999 };
    enum CpuSeries { CpuUser, CpuSystem, CpuIowait };

    static constexpr int kMaxPointsPerGraph = 6000; // 10 min at 100 ms
    static constexpr double kFollowWindowSeconds = 120;

    explicit LivePlots(QWidget *parent = nullptr);
    ~LivePlots() override;

    void clear();
    // Application figures (the All scope) and CPU of one interval and, when the sample
    // carries device figures (deviceOverlayOf, device_overlay.h), the device's, drawn
    // dashed over the application's. One paced frame per call.
    void addSample(const core::IntervalSample &sample,
        const std::optional<DeviceOverlayPoint> &device = std::nullopt);

    bool isFollowing() const { return m_following; }

    // A step's steady-state rounds and the rule's judgement (steady_state_overlay.h), over
    // the plot of their figure: each call draws that step's anew. One paced frame per call.
    void setSteadyState(int step, const core::SteadyStateRecord &record);
    const SteadyStateOverlay &steadyState() const { return *m_steadyState; }

    // The latency plot's heat map of each interval's I/Os by latency (latency_heat_map.h),
    // behind the percentiles; shown unless the user hid it (context menu).
    void setHeatMapVisible(bool visible);
    bool isHeatMapVisible() const;
    const LatencyHeatMap &heatMap() const { return *m_heatMap; }
    void setFollowing(bool following);

    QCustomPlot *plot(PlotId id) const { return plotAt(id); }
    QString plotTitle(PlotId id) const;
    // Number of points in a graph (application series first, then device series).
    int pointCount(PlotId id, int graph) const;
    bool savePlot(PlotId id, const QString &fileName); // .png or .pdf by extension
    // The hover read-out at time `key` (seconds) as rich text, "" when no data is near.
    QString hoverText(PlotId id, double key) const;
    // The text a step's label shows now (elided to its room), and its full text.
    QString stepLabelText(PlotId id, int step) const;
    QString stepFullName(int step) const;
    int stepCount() const { return static_cast<int>(m_steps.size()); }
    // Lays out step labels and legends for the current size now (done before each replot).
    void relayout();

signals:
    void followingChanged(bool following);
    // The user asked to save a plot (context menu); the window picks the file.
    void exportRequested(ioprism::ui::LivePlots::PlotId id);

private:
    struct Plot {
        std::vector<QCPGraph *> app;
        std::vector<QCPGraph *> device;
        QString unit;
        bool logScale = false;
    };
    QCustomPlot *makePlot(PlotId id, const QString &title, const QString &yLabel);
    QCPGraph *addGraph(QCustomPlot *plot, const QString &name, const QColor &color, bool dashed);
    void addPoint(QCPGraph *graph, double key, double value);
    void addDevicePoint(const DeviceOverlayPoint &point);
    struct StepMark {
        double startSeconds = 0;
        QString label; // "3. SEQ1M Q8T1 read"
        double rampEndSeconds = -1; // end of its ramp-up shading; -1: no ramp-up
        std::array<QCPItemText *, PlotCount> items {};
    };
    // Device request size beside the application's, per device point (IOPS hover).
    struct RequestSizes {
        double key = 0;
        double appBytes = 0; // mean bytes per application I/O
        double deviceBytes = 0; // mean bytes per device request (iostat's areq-sz)
    };
    void layoutStepLabels(PlotId id);
    void wrapLegend(PlotId id);
    void markStep(const core::IntervalSample &sample);
    void extendRampUp(const core::IntervalSample &sample);
    void follow();
    void replotAll(); // now (the user moved or cleared the plots)
    void requestReplot(); // new data: paced
    QString hoverAt(int index, const QPoint &pos, double &tracerKey) const override;
    // The data point nearest `key` over every visible graph of a plot; false when none.
    bool nearestKey(PlotId id, double key, double &nearest) const;
    void fillContextMenu(QMenu *menu, int index) override;

    std::array<Plot, PlotCount> m_series {};
    bool m_following = true;
    bool m_syncingRanges = false;
    double m_lastKey = 0;
    static constexpr int kPreconditionMark = -2; // m_lastStep while preconditioning
    int m_lastStep = -1;
    double m_stepStart = 0;
    std::array<QCPItemRect *, PlotCount> m_rampRects {};
    std::vector<StepMark> m_steps;
    std::vector<RequestSizes> m_requestSizes; // sorted by key, trimmed like the graphs
    FramePacer *m_pacer = nullptr;
    std::unique_ptr<LatencyHeatMap> m_heatMap;
    std::unique_ptr<SteadyStateOverlay> m_steadyState;
};

} // namespace ioprism::ui
