// The Live page: big figures of the latest interval (IOPS, MB/s, mean and p99 latency,
// CPU) and the verdict badge above the four live plots.
#pragma once

#include "ui/device_overlay.h"
#include "ui/live_plots.h"

#include <QWidget>

#include <array>

class QGridLayout;
class QLabel;
class QToolButton;

namespace ioprism::ui {

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
    void addSample(const core::IntervalSample &sample);
    void setHeadline(const QString &text);
    void setVerdict(const VerdictBadge &badge);

    LivePlots *plots() const { return m_plots; }
    QString figureText(Figure figure) const;
    QString verdictText() const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void arrangeFigures(int columns);
    struct BigFigure {
        QLabel *value = nullptr;
        QLabel *unit = nullptr;
    };
    QWidget *makeFigure(Figure figure, const QString &caption, const QString &tooltip);
    void setFigure(Figure figure, const QString &value, const QString &unit);

    LivePlots *m_plots = nullptr;
    QLabel *m_headline = nullptr;
    QLabel *m_verdict = nullptr;
    QToolButton *m_follow = nullptr;
    std::array<BigFigure, FigureCount> m_figures {};
    std::array<QWidget *, FigureCount> m_figureFrames {};
    QGridLayout *m_figureGrid = nullptr;
    int m_figureColumns = 0;
};

} // namespace ioprism::ui
