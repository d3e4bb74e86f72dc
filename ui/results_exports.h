// SPDX-License-Identifier: GPL-3.0-or-later
// File › Export and the pages' export buttons: the results as CSV, time series, results
// JSON and an HTML report, a comparison report, a plot as PNG or PDF. The window says
// what is shown; this object asks where (an asynchronous file dialog) and writes. The
// results files are made and written off the GUI thread by the ResultsKeeper; a plot is
// painted here, on the GUI thread that owns it.
//
// Not a QObject: its texts keep MainWindow's translation context, where the German .ts
// files carry them.
#pragma once

#include "core/report/environment.h"
#include "ui/metatypes.h"
#include "ui/plots/live_plots.h"
#include "ui/plots/series_plot.h"

#include <QCoreApplication>
#include <QString>

#include <functional>
#include <string>

class QMainWindow;

namespace ioprism::ui {

class ComparePage;
class LivePage;
class MessageBar;
class ResultsKeeper;
class ResultsPage;
class SeriesPage;

// The environment a results file names: the run's, and always the tool's version (a
// result made elsewhere, in tests, may have none).
core::Environment environmentOf(const core::RunResult &result);

class ResultsExports
{
    Q_DECLARE_TR_FUNCTIONS(ioprism::ui::MainWindow)
public:
    struct Parts {
        QMainWindow *window = nullptr; // the dialogs' parent, its status bar says "Saved"
        MessageBar *messageBar = nullptr; // says why a file could not be written
        ResultsKeeper *keeper = nullptr;
        LivePage *live = nullptr;
        ResultsPage *results = nullptr;
        SeriesPage *series = nullptr;
        ComparePage *compare = nullptr;
    };
    explicit ResultsExports(Parts parts);

    // The files of `result`, written off the GUI thread: true when the write was started
    // (false without a result). `then(written)` once it is written or not (the message
    // bar says why not).
    bool resultsCsv(const RunResultPtr &result, const QString &path);
    bool timeSeriesCsv(const RunResultPtr &result, const QString &path);
    bool resultsJson(const RunResultPtr &result, const QString &path,
        const std::function<void(bool written)> &then = {});
    // With the Live page's plots when they draw `result`, and the Series page's shown
    // plots when it is a series.
    bool report(const RunResultPtr &result, bool livePlots, bool seriesPlots, const QString &path);
    bool comparisonReport(const QString &path);
    // Painted and written now; false (and why in the message bar) when not written.
    bool plot(LivePlots::PlotId plot, const QString &path);
    bool seriesPlot(SeriesPlots::PlotId plot, const QString &path);
    bool histogram(const QString &path);
    // Asks where (a save dialog, in the last export folder), then `write`s there.
    void ask(const QString &title, const QString &filter, const QString &suffix,
        const std::function<bool(const QString &)> &write);

private:
    void writeFile(const QString &path, std::function<std::string()> make,
        const std::function<void(bool written)> &then = {});
    bool cannotWrite(const QString &path);

    Parts m_parts;
};

} // namespace ioprism::ui
