// SPDX-License-Identifier: GPL-3.0-or-later
// The Live page: big figures of the latest interval (IOPS, MB/s, mean and p99 latency,
// CPU) and the verdict badge above the four live plots; for targets that open files (a
// file tree, Iometer's connection rate) a line of files opened per second and the mean
// open, close and open-to-close times under the figures.
#pragma once

#include "ui/plots/device_overlay.h"
#include "ui/plots/live_plots.h"

#include <QWidget>

#include <array>
#include <optional>

class QGridLayout;
class QLabel;
class QToolButton;

namespace ioprism::ui {

class FramePacer;

class LivePage : public QWidget
{
    Q_OBJECT
public:
    enum Figure {
        IopsFigure,
        ReadFigure,
        WriteFigure,
        MeanLatencyFigure,
        P99LatencyFigure,
        CpuFigure,
        FigureCount
    };

    explicit LivePage(QWidget *parent = nullptr);

    void clear();
    // One interval: figures, plots, device overlays (when the sample has them), badge.
    // Drawn at most four times a second, and when the page is shown (FramePacer).
    void addSample(const core::IntervalSample &sample);
    void setHeadline(const QString &text);
    // The run's phase (RunController::phaseChanged). When a step's ramp-up begins the
    // previous step's figures go: until the ramp's first sample the figures read "—",
    // and ramp-up samples are shown marked "ramp-up" in each caption.
    void setPhase(core::RunPhase phase, int step);
    void setVerdict(const VerdictBadge &badge);

    LivePlots *plots() const { return m_plots; }
    QString figureText(Figure figure) const;
    QString figureCaption(Figure figure) const;
    QString verdictText() const;
    // The stall badge's text, "" while hidden (no I/O in flight past the threshold).
    QString stallText() const;
    // The files line, "" while hidden (the latest interval opened no files).
    QString filesText() const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void arrangeFigures(int columns);
    struct BigFigure {
        QLabel *caption = nullptr;
        QString captionText;
        QLabel *value = nullptr;
        QLabel *unit = nullptr;
    };
    QWidget *makeFigure(Figure figure, const QString &caption, const QString &tooltip);
    void setFigure(Figure figure, const QString &value, const QString &unit);
    void showLatest(); // the figures and badge of the latest sample

    LivePlots *m_plots = nullptr;
    QLabel *m_headline = nullptr;
    QLabel *m_verdict = nullptr;
    QToolButton *m_follow = nullptr;
    std::array<BigFigure, FigureCount> m_figures {};
    std::array<QWidget *, FigureCount> m_figureFrames {};
    QGridLayout *m_figureGrid = nullptr;
    int m_figureColumns = 0;
    FramePacer *m_pacer = nullptr;
    QLabel *m_stall = nullptr; // shown while I/O is stalled (IntervalSample figures)
    QLabel *m_files = nullptr; // shown while the run opens files
    std::optional<core::Figures> m_latestFigures; // of the All scope
    core::CpuFigures m_latestCpu;
    bool m_latestIsRampUp = false; // the figures shown are a ramp-up's (or await one)
    int m_latestStep = -1;
    VerdictBadge m_latestBadge;
    std::optional<BadgeTone> m_verdictTone; // the badge's style sheet
};

} // namespace ioprism::ui
