// SPDX-License-Identifier: GPL-3.0-or-later
// Saving a plot as a file, for every plot widget: PDF (vector) by the name's extension,
// else PNG at twice the screen's resolution for sharp images in reports.
#pragma once

#include <QString>

class QCustomPlot;

namespace ioprism::ui {

// A plot on a page not shown yet has no size: it is laid out at a readable 900 x 560.
bool savePlotFile(QCustomPlot *plot, const QString &fileName, const QString &title);

} // namespace ioprism::ui
