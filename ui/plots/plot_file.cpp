// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/plot_file.h"

#include <qcustomplot.h>

namespace ioprism::ui {

bool savePlotFile(QCustomPlot *plot, const QString &fileName, const QString &title)
{
    const int width = plot->width() > 100 ? 0 : 900;
    const int height = plot->height() > 100 ? 0 : 560;
    if (fileName.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive))
        return plot->savePdf(
            fileName, width, height, QCP::epNoCosmetic, QStringLiteral("IOPrism"), title);
    return plot->savePng(fileName, width, height, 2.0);
}

} // namespace ioprism::ui
