// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/plot_panel.h"

#include "ui/plots/qcp_library.h"
#include "ui/style.h"

#include <QContextMenuEvent>
#include <QEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QToolTip>

#include <cmath>
#include <limits>

namespace ioprism::ui {

PlotPanel::PlotPanel(int plotCount, QWidget *parent)
    : QWidget(parent)
    , m_parts(std::size_t(plotCount))
{ }

QCustomPlot *PlotPanel::createPlot(
    int index, const QString &objectName, const QSize &minimumSize, const QString &title)
{
    auto *plot = new QCustomPlot(this);
    Parts &parts = m_parts[std::size_t(index)];
    parts.plot = plot;
    plot->setObjectName(objectName);
    plot->setMinimumSize(minimumSize);
    plot->setMouseTracking(true);
    plot->setContextMenuPolicy(Qt::DefaultContextMenu);

    plot->plotLayout()->insertRow(0);
    parts.title = new QCPTextElement(
        plot, title, QFont(font().family(), font().pointSize() + 1, QFont::Bold));
    plot->plotLayout()->addElement(0, 0, parts.title);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    plot->plotLayout()->setRowSpacing(0);
    QFont legendFont = font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    plot->legend->setFont(legendFont);
    // Background, axes, titles and legend text from the palette, and again on every
    // change of it (light to dark and back).
    followPalette(plot);

    connect(plot, &QCustomPlot::mouseMove, this,
        [this, index](QMouseEvent *event) { showHover(index, event->pos()); });
    plot->installEventFilter(this);
    return plot;
}

void PlotPanel::putLegendUnderTitle(QCustomPlot *plot, const QMargins &margins)
{
    QCPLegend *legend = plot->legend;
    legend->setVisible(true);
    plot->axisRect()->insetLayout()->take(legend);
    plot->plotLayout()->insertRow(1);
    plot->plotLayout()->addElement(1, 0, legend);
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setMargins(margins);
}

void PlotPanel::addTracer(int index)
{
    Parts &parts = m_parts[std::size_t(index)];
    auto *tracer = new QCPItemStraightLine(parts.plot);
    tracer->setPen(QPen(Qt::black, 1, Qt::DashLine));
    useTextColor(tracer, 120);
    tracer->setVisible(false);
    tracer->setLayer(QStringLiteral("overlay"));
    parts.tracer = tracer;
}

QString PlotPanel::hoverLine(const QCPGraph *graph, const QString &value)
{
    return QStringLiteral("<span style=\"color:%1\">■</span> %2: <b>%3</b>")
        .arg(graph->pen().color().name(), graph->name().toHtmlEscaped(), value);
}

bool PlotPanel::readsOutAt(int index, const QPoint &pos) const
{
    return plotAt(index)->axisRect()->rect().contains(pos);
}

void PlotPanel::showHover(int index, const QPoint &pos)
{
    double key = std::numeric_limits<double>::quiet_NaN();
    const QString text = hoverAt(index, pos, key);
    if (text.isEmpty()) {
        hideHover(index);
        return;
    }
    const Parts &parts = m_parts[std::size_t(index)];
    if (parts.tracer && !std::isnan(key)) {
        // A vertical line through y 1 and 2: points every axis can place, a log one too.
        parts.tracer->point1->setCoords(key, 1);
        parts.tracer->point2->setCoords(key, 2);
        parts.tracer->setVisible(true);
        parts.plot->replot(QCustomPlot::rpQueuedReplot);
    }
    QToolTip::showText(parts.plot->mapToGlobal(pos + QPoint(14, 10)), text, parts.plot);
}

void PlotPanel::hideHover(int index)
{
    const Parts &parts = m_parts[std::size_t(index)];
    if (parts.tracer && parts.tracer->visible()) {
        parts.tracer->setVisible(false);
        parts.plot->replot(QCustomPlot::rpQueuedReplot);
    }
    QToolTip::hideText();
}

bool PlotPanel::exportPlot(int index, const QString &fileName, const QString &title)
{
    const Parts &parts = m_parts[std::size_t(index)];
    if (parts.tracer)
        parts.tracer->setVisible(false);
    QCustomPlot *plot = parts.plot;
    const int width = plot->width() > 100 ? 0 : 900;
    const int height = plot->height() > 100 ? 0 : 560;
    if (fileName.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive))
        return plot->savePdf(
            fileName, width, height, QCP::epNoCosmetic, QStringLiteral("IOPrism"), title);
    return plot->savePng(fileName, width, height, 2.0);
}

bool PlotPanel::eventFilter(QObject *watched, QEvent *event)
{
    for (int index = 0; index < plotCount(); ++index) {
        if (watched != plotAt(index))
            continue;
        if (event->type() == QEvent::Leave) {
            hideHover(index);
        } else if (event->type() == QEvent::ToolTip) {
            // Over the data the hover read-out replaces the static tooltip.
            if (readsOutAt(index, static_cast<QHelpEvent *>(event)->pos()))
                return true;
        } else if (event->type() == QEvent::ContextMenu) {
            // popup(), not exec(): no nested event loop on the GUI thread.
            auto *menu = new QMenu(this);
            menu->setAttribute(Qt::WA_DeleteOnClose);
            fillContextMenu(menu, index);
            menu->popup(static_cast<QContextMenuEvent *>(event)->globalPos());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace ioprism::ui
