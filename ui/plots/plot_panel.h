// SPDX-License-Identifier: GPL-3.0-or-later
// The plumbing every panel of QCustomPlot plots shares (the live plots, the series
// plots): making a plot with a bold title row, its legend in a row of its own and colours
// that follow the palette; the hover read-out (a tooltip and a dashed tracer at the
// value read out, both gone when the pointer leaves); the right-click menu; and saving a
// plot as PNG or PDF.
//
// Why a base class: each panel used to carry its own copy of this, and the copies had
// begun to differ (the tracer drawn through y 0 and 1 on one, 1 and 2 on the other: y 0
// has no place on a log axis). What differs stays in the panel: what the hover says
// (hoverAt), where it reads out (readsOutAt), what the menu offers (fillContextMenu) and
// the panel's own signals, whose PlotId types differ.
//
// A panel's plots are numbered 0 .. plotCount-1 (each panel's PlotId); each is made once
// by createPlot and lives as long as the panel.
#pragma once

#include <QWidget>

#include <vector>

class QCPGraph;
class QCPItemStraightLine;
class QCPTextElement;
class QCustomPlot;
class QMenu;

namespace ioprism::ui {

class PlotPanel : public QWidget
{
    Q_OBJECT
public:
    int plotCount() const { return static_cast<int>(m_parts.size()); }
    QCustomPlot *plotAt(int index) const { return m_parts[std::size_t(index)].plot; }

protected:
    PlotPanel(int plotCount, QWidget *parent);

    // Plot `index`, a child of the panel: the title (bold, a point larger than the
    // panel's font) in a row of its own, the legend's font 10 % smaller, colours from the
    // palette now and after each change of it (followPalette), the hover and the
    // right-click menu wired to the virtuals below. No tracer yet: addTracer().
    QCustomPlot *createPlot(
        int index, const QString &objectName, const QSize &minimumSize, const QString &title);
    QCPTextElement *titleOf(int index) const { return m_parts[std::size_t(index)].title; }
    // The legend shown in a row of its own under the title, so it never hides data: no
    // frame, no fill, `margins` left and right. Call after createPlot.
    static void putLegendUnderTitle(QCustomPlot *plot, const QMargins &margins);
    // A hidden tracer (a dashed vertical line in the text colour, on the overlay layer)
    // for plot `index`; again after QCustomPlot::clearItems() deleted the last one.
    void addTracer(int index);

    // The hover read-out at `pos` (widget pixels) as rich text, "" for none (the tooltip
    // and tracer are then hidden); `tracerKey` is where the tracer goes on the x axis,
    // left NaN for no tracer.
    virtual QString hoverAt(int index, const QPoint &pos, double &tracerKey) const = 0;
    // One line of a read-out: the graph's colour as a square, its name, the value in bold.
    static QString hoverLine(const QCPGraph *graph, const QString &value);
    // Whether the hover reads out at `pos`: there the plot's static tooltip is not
    // shown. By default anywhere over the axis rect.
    virtual bool readsOutAt(int index, const QPoint &pos) const;
    // The right-click menu of plot `index`, shown with popup() (no nested event loop).
    virtual void fillContextMenu(QMenu *menu, int index) = 0;

    // Plot `index` as a PDF (vector) when the name ends in .pdf, else as a PNG at twice
    // the screen's resolution, sharp in reports; a side of 100 px or less (a plot on a
    // page not laid out yet) is drawn at a readable 900 × 560 instead. The tracer is
    // hidden first: a hover is no part of a picture. False when the file cannot be
    // written.
    bool exportPlot(int index, const QString &fileName, const QString &title);

    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Parts {
        QCustomPlot *plot = nullptr;
        QCPTextElement *title = nullptr;
        QCPItemStraightLine *tracer = nullptr;
    };
    void showHover(int index, const QPoint &pos);
    void hideHover(int index);

    std::vector<Parts> m_parts;
};

} // namespace ioprism::ui
