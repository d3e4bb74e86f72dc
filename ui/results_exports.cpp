// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results_exports.h"

#include "core/report/csv.h"
#include "core/report/html_report.h"
#include "core/report/results_json.h"
#include "ui/format.h"
#include "ui/message_bar.h"
#include "ui/pages/compare_page.h"
#include "ui/pages/live_page.h"
#include "ui/pages/results_page.h"
#include "ui/pages/series_page.h"
#include "ui/plots/qcp_library.h"
#include "ui/results_keeper.h"

#include <QBuffer>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QSettings>
#include <QStatusBar>

namespace ioprism::ui {

namespace {

core::ReportImage reportImage(QCustomPlot *plot, const QString &title)
{
    // A fixed size, whatever the window's: the report reads the same on every screen.
    const QPixmap pixmap = plot->toPixmap(960, 480, 1.0);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    pixmap.save(&buffer, "PNG");
    return {toStdString(title), png.toBase64().toStdString()};
}

} // namespace

core::Environment environmentOf(const core::RunResult &result)
{
    // Described by the run when it started (core::RunHooks::describeSystem); a result
    // made elsewhere (tests) may have none, and then still names the tool.
    core::Environment environment = result.environment;
    if (environment.toolVersion.empty())
        environment.toolVersion = IOPRISM_VERSION;
    return environment;
}

ResultsExports::ResultsExports(Parts parts)
    : m_parts(parts)
{ }

void ResultsExports::writeFile(const QString &path, std::function<std::string()> make,
    const std::function<void(bool written)> &then)
{
    m_parts.keeper->writeFile(path, std::move(make), [this, path, then](const QString &error) {
        if (error.isEmpty())
            m_parts.window->statusBar()->showMessage(
                tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
        else
            m_parts.messageBar->showMessage(MessageBar::Level::Error,
                tr("Cannot write %1.").arg(QDir::toNativeSeparators(path)), error);
        if (then)
            then(error.isEmpty());
    });
}

bool ResultsExports::resultsCsv(const RunResultPtr &result, const QString &path)
{
    if (!result)
        return false;
    writeFile(path, [result, environment = environmentOf(*result)] {
        return core::writeIometerCsv(*result, environment, result->plan.profile.setup.recordFilter);
    });
    return true;
}

bool ResultsExports::timeSeriesCsv(const RunResultPtr &result, const QString &path)
{
    if (!result)
        return false;
    writeFile(path, [result] { return core::writeTimeSeriesCsv(*result); });
    return true;
}

bool ResultsExports::resultsJson(
    const RunResultPtr &result, const QString &path, const std::function<void(bool written)> &then)
{
    if (!result)
        return false;
    writeFile(
        path,
        [result, environment = environmentOf(*result)] {
            return core::writeResultsJson(*result, environment);
        },
        then);
    return true;
}

bool ResultsExports::report(
    const RunResultPtr &result, bool livePlots, bool seriesPlots, const QString &path)
{
    if (!result)
        return false;
    // The plots are painted here, on the GUI thread; the document is made off it.
    std::vector<core::ReportImage> images;
    const LivePlots *live = m_parts.live->plots();
    if (livePlots)
        for (int p = 0; p < LivePlots::PlotCount; ++p) {
            const auto id = static_cast<LivePlots::PlotId>(p);
            images.push_back(reportImage(live->plot(id), live->plotTitle(id)));
        }
    const SeriesPlots *series = m_parts.series->plots();
    if (seriesPlots)
        for (const auto id : series->shownPlots())
            images.push_back(reportImage(series->plot(id), series->plotTitle(id)));
    if (m_parts.results->histogramTotal() > 0)
        images.push_back(reportImage(m_parts.results->histogram(),
            tr("Latency histogram of the step shown on the Results page")));
    writeFile(path, [result, environment = environmentOf(*result), images = std::move(images)] {
        return core::writeHtmlReport(*result, environment, images);
    });
    return true;
}

bool ResultsExports::comparisonReport(const QString &path)
{
    const ComparePage *page = m_parts.compare;
    const std::vector<RunResultPtr> runs = page->runs();
    if (runs.size() < 2)
        return false;
    std::vector<const core::RunResult *> results;
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        results.push_back(runs[i].get());
        labels.push_back(toStdString(page->labels().value(static_cast<int>(i))));
    }
    const core::ReportImage image = reportImage(page->plot(),
        page->overSeries() ? tr("IOPS of each run over the swept parameter")
                           : tr("IOPS of each run over time"));
    // The runs are shared and never changed: the document is made off the GUI thread.
    writeFile(path,
        [runs, results = std::move(results), labels = std::move(labels), image,
            comparison = page->comparison()] {
            return core::writeComparisonHtml(comparison, results, labels, {&image, 1});
        });
    return true;
}

bool ResultsExports::cannotWrite(const QString &path)
{
    m_parts.messageBar->showMessage(
        MessageBar::Level::Error, tr("Cannot write %1.").arg(QDir::toNativeSeparators(path)));
    return false;
}

bool ResultsExports::plot(LivePlots::PlotId plot, const QString &path)
{
    return m_parts.live->plots()->savePlot(plot, path) || cannotWrite(path);
}

bool ResultsExports::seriesPlot(SeriesPlots::PlotId plot, const QString &path)
{
    return m_parts.series->plots()->savePlot(plot, path) || cannotWrite(path);
}

bool ResultsExports::histogram(const QString &path)
{
    return m_parts.results->saveHistogram(path) || cannotWrite(path);
}

void ResultsExports::ask(const QString &title, const QString &filter, const QString &suffix,
    const std::function<bool(const QString &)> &write)
{
    const QString dir
        = QSettings().value(QStringLiteral("paths/exports"), QDir::homePath()).toString();
    auto *dialog = new QFileDialog(m_parts.window, title, dir, filter);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(suffix);
    dialog->selectFile(
        QStringLiteral("ioprism-%1.%2")
            .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")), suffix));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(
        dialog, &QFileDialog::filterSelected, dialog, [dialog](const QString &selected) {
            if (selected.contains(QLatin1String("*.pdf")))
                dialog->setDefaultSuffix(QStringLiteral("pdf"));
            else if (selected.contains(QLatin1String("*.png")))
                dialog->setDefaultSuffix(QStringLiteral("png"));
        });
    QObject::connect(
        dialog, &QFileDialog::fileSelected, m_parts.window, [this, write](const QString &file) {
            QSettings().setValue(QStringLiteral("paths/exports"), QFileInfo(file).absolutePath());
            // A results file is written off the GUI thread and says "Saved" when it is
            // (writeFile); a plot is written here.
            if (write(file) && !m_parts.keeper->isBusy())
                m_parts.window->statusBar()->showMessage(
                    tr("Saved %1").arg(QDir::toNativeSeparators(file)), 4000);
        });
    dialog->open();
}

} // namespace ioprism::ui
