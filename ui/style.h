// SPDX-License-Identifier: GPL-3.0-or-later
// Colours that carry meaning (invalid cells, warnings, series), chosen to read on light
// and dark system palettes alike: tints with alpha over the palette's own base colour.
#pragma once

#include "core/profile/problem.h"

#include <QColor>
#include <QVariant>

class QCPAbstractItem;
class QCustomPlot;

namespace ioprism::ui {

QColor errorTint(); // background of a cell with an error
QColor warningTint(); // background of a cell with a warning
QColor errorColor(); // text and frames of errors

// Black or white, whichever reads better on `background`: the larger WCAG contrast ratio
// from relative luminance (sRGB linearised, 0.2126 R + 0.7152 G + 0.0722 B). HSL lightness
// is no guide: bright yellow has lightness 0.5 and carried white labels that could not be
// read, where its luminance (0.93) calls for black.
QColor labelColorOn(const QColor &background);
// The WCAG contrast ratio of two colours, 1 ... 21.
double contrastRatio(const QColor &a, const QColor &b);

// A background brush for a cell with these problems, or an empty QVariant (the view's
// own background) when there are none.
QVariant problemBrush(const core::Problems &problems);

// Plots follow the palette: their background is the palette's Base, axes, ticks, tick
// labels, titles and legend text its WindowText, the grid a faint WindowText. Series
// colours (below) stay fixed. QCustomPlot draws with the colours it was given, not with
// the widget's palette, so the colours are given again whenever the palette changes: the
// system switching between light and dark restyles the plots without a restart.
//
// Colours the plot from its palette now: background, every axis of every axis rect and
// colour scale, grids, text elements, the legend's text (its brush and frame only where
// it has them), and the items marked with useTextColor().
void applyPlotPalette(QCustomPlot *plot);
// applyPlotPalette() now and again on every QEvent::PaletteChange of the plot (sent to
// each widget when the application's palette changes, as the platform theme switches
// between light and dark), then a queued replot. Qt 6.4 has no
// QStyleHints::colorSchemeChanged (6.5): the palette event is what every Qt 6 sends.
void followPalette(QCustomPlot *plot);
// Draws the item (line, text, rectangle) in the palette's text colour with this alpha,
// now and after every palette change of a plot that follows the palette.
void useTextColor(QCPAbstractItem *item, int alpha);

// Series colours of the plots, fixed so the same quantity has the same colour on
// every page and in exported images.
namespace series {
QColor read();
QColor write();
QColor total();
QColor p50();
QColor p99();
QColor p999();
QColor user();
QColor system();
QColor iowait();
QColor device();
} // namespace series

} // namespace ioprism::ui
