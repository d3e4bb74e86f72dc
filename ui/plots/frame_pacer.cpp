// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/frame_pacer.h"

#include <QEvent>
#include <QTimer>
#include <QWidget>

namespace ioprism::ui {

FramePacer::FramePacer(
    QWidget *widget, std::function<void()> draw, std::chrono::milliseconds minInterval)
    : QObject(widget)
    , m_widget(widget)
    , m_draw(std::move(draw))
    , m_minInterval(minInterval)
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, [this] {
        // A frame due while the widget was hidden waits for the Show event.
        if (m_pending && m_widget->isVisible())
            drawNow();
    });
    widget->installEventFilter(this);
}

void FramePacer::request()
{
    m_pending = true;
    if (!m_widget->isVisible() || m_timer->isActive())
        return; // drawn when shown, or by the frame already due
    const qint64 sinceMs = m_sinceDraw.isValid() ? m_sinceDraw.elapsed() : m_minInterval.count();
    if (sinceMs >= m_minInterval.count())
        drawNow();
    else
        m_timer->start(static_cast<int>(m_minInterval.count() - sinceMs));
}

void FramePacer::drawNow()
{
    m_timer->stop();
    m_pending = false;
    m_sinceDraw.start(); // restart() on a timer never started is undefined
    m_draw();
}

void FramePacer::cancel()
{
    m_timer->stop();
    m_pending = false;
}

bool FramePacer::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_widget && event->type() == QEvent::Show && m_pending)
        drawNow();
    return QObject::eventFilter(watched, event);
}

} // namespace ioprism::ui
