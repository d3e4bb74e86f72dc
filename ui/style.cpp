// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/style.h"

#include "ui/plots/qcp_library.h"

#include <QBrush>
#include <QEvent>

#include <algorithm>
#include <cmath>

namespace ioprism::ui {

QColor errorTint()
{
    return QColor(229, 62, 62, 110);
}

QColor warningTint()
{
    return QColor(236, 170, 30, 90);
}

QColor errorColor()
{
    return QColor(200, 40, 40);
}

QVariant problemBrush(const core::Problems &problems)
{
    if (problems.empty())
        return {};
    return QBrush(core::hasErrors(problems) ? errorTint() : warningTint());
}

namespace {

// The dynamic property that marks an item drawn in the text colour: its alpha.
constexpr char kTextAlphaProperty[] = "ioprismTextAlpha";

void colorAxis(QCPAxis *axis, const QColor &text, const QColor &grid)
{
    axis->setBasePen(QPen(text));
    axis->setTickPen(QPen(text));
    axis->setSubTickPen(QPen(text));
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    if (axis->grid())
        axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
}

void colorItem(QCPAbstractItem *item, const QColor &text)
{
    const QVariant alpha = item->property(kTextAlphaProperty);
    if (!alpha.isValid())
        return;
    QColor color = text;
    color.setAlpha(alpha.toInt());
    if (auto *line = qobject_cast<QCPItemStraightLine *>(item)) {
        QPen pen = line->pen();
        pen.setColor(color);
        line->setPen(pen);
    } else if (auto *label = qobject_cast<QCPItemText *>(item)) {
        label->setColor(color);
    } else if (auto *rect = qobject_cast<QCPItemRect *>(item)) {
        rect->setBrush(color);
    }
}

// Restyles its plot on every palette change (an event filter, so the plot classes need
// no subclass of QCustomPlot).
class PaletteFollower : public QObject
{
public:
    explicit PaletteFollower(QCustomPlot *plot)
        : QObject(plot)
        , m_plot(plot)
    {
        plot->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        // PaletteChange comes after the widget's palette is updated (the application's
        // ApplicationPaletteChange comes before it, so it is not the one to act on).
        if (watched == m_plot && event->type() == QEvent::PaletteChange) {
            applyPlotPalette(m_plot);
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        }
        return false;
    }

private:
    QCustomPlot *m_plot;
};

} // namespace

void applyPlotPalette(QCustomPlot *plot)
{
    const QPalette palette = plot->palette();
    const QColor text = palette.color(QPalette::WindowText);
    QColor grid = text;
    grid.setAlpha(40);
    plot->setBackground(palette.brush(QPalette::Base));
    for (QCPAxisRect *rect : plot->axisRects())
        for (QCPAxis *axis : rect->axes())
            colorAxis(axis, text, grid);
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        if (auto *title = qobject_cast<QCPTextElement *>(element))
            title->setTextColor(text);
        else if (auto *scale = qobject_cast<QCPColorScale *>(element))
            colorAxis(scale->axis(), text, grid);
    }
    plot->legend->setTextColor(text);
    if (plot->legend->brush().style() != Qt::NoBrush)
        plot->legend->setBrush(palette.brush(QPalette::Base));
    if (plot->legend->borderPen().style() != Qt::NoPen)
        plot->legend->setBorderPen(QPen(grid));
    for (int i = 0; i < plot->itemCount(); ++i)
        colorItem(plot->item(i), text);
}

void followPalette(QCustomPlot *plot)
{
    applyPlotPalette(plot);
    new PaletteFollower(plot);
}

void useTextColor(QCPAbstractItem *item, int alpha)
{
    item->setProperty(kTextAlphaProperty, alpha);
    colorItem(item, item->parentPlot()->palette().color(QPalette::WindowText));
}

namespace series {
QColor read()
{
    return QColor(31, 119, 180);
}
QColor write()
{
    return QColor(255, 127, 14);
}
QColor total()
{
    return QColor(44, 160, 44);
}
QColor p50()
{
    return QColor(44, 160, 44);
}
QColor p99()
{
    return QColor(255, 127, 14);
}
QColor p999()
{
    return QColor(214, 39, 40);
}
QColor user()
{
    return QColor(31, 119, 180);
}
QColor system()
{
    return QColor(214, 39, 40);
}
QColor iowait()
{
    return QColor(148, 103, 189);
}
QColor device()
{
    return QColor(127, 127, 127);
}
} // namespace series

namespace {

double relativeLuminance(const QColor &c)
{
    const auto linear
        = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
}

} // namespace

double contrastRatio(const QColor &a, const QColor &b)
{
    const double la = relativeLuminance(a);
    const double lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor labelColorOn(const QColor &background)
{
    return contrastRatio(background, Qt::black) >= contrastRatio(background, Qt::white)
        ? QColor(Qt::black)
        : QColor(Qt::white);
}

} // namespace ioprism::ui
