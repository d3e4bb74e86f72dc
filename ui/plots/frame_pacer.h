// SPDX-License-Identifier: GPL-3.0-or-later
// Paces the redraws of a widget that live samples update: at most one draw per interval
// (the first at once after a quiet spell, the next when the interval has passed, showing
// every sample that arrived meanwhile), and none while the widget is hidden (another page
// is shown): it is drawn when shown again.
//
// Why: at 100 ms sampling, redrawing plots and relaying out labels for every sample
// costs the GUI thread a share of a core that the run then lacks on a small machine
// (docs/performance.md, "The desktop application's cost"). Four frames per second look
// just as live.
#pragma once

#include <QElapsedTimer>
#include <QObject>

#include <chrono>
#include <functional>

class QTimer;
class QWidget;

namespace ioprism::ui {

class FramePacer : public QObject
{
public:
    static constexpr std::chrono::milliseconds kDefaultInterval {250};

    // `draw` redraws `widget` from its latest state; the pacer belongs to the widget.
    FramePacer(QWidget *widget, std::function<void()> draw,
        std::chrono::milliseconds minInterval = kDefaultInterval);

    void request(); // new data: draw now, or when the interval has passed, or when shown
    void drawNow(); // a user action: draw at once (and restart the interval)
    void cancel(); // the data was reset and drawn by the owner: nothing is due
    bool isPending() const { return m_pending; } // data not drawn yet

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QWidget *m_widget;
    std::function<void()> m_draw;
    std::chrono::milliseconds m_minInterval;
    QTimer *m_timer;
    QElapsedTimer m_sinceDraw;
    bool m_pending = false;
};

} // namespace ioprism::ui
