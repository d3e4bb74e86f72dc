// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/compare_page.h"

#include "ui/format.h"
#include "ui/icons.h"
#include "ui/plots/qcp_library.h"
#include "ui/style.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace ioprism::ui {

namespace {

// Distinct, in the same order for every comparison (and in its report): the first run is
// always blue.
QColor runColor(int i)
{
    return QColor(QString::fromLatin1(core::runColor(static_cast<std::size_t>(i)).data()));
}

QString metricText(core::CompareMetric m, double v)
{
    if (!std::isfinite(v))
        return QStringLiteral("–");
    switch (m) {
    case core::CompareMetric::Iops:
    case core::CompareMetric::FilesPerSecond:
        return iopsText(v);
    case core::CompareMetric::MegabytesPerSecond:
        return megabytesPerSecondText(v);
    case core::CompareMetric::MeanLatencyUs:
    case core::CompareMetric::P99LatencyUs:
        return latencyText(v);
    }
    return {};
}

QString metricTitle(core::CompareMetric m)
{
    switch (m) {
    case core::CompareMetric::Iops:
        return ComparePage::tr("IOPS");
    case core::CompareMetric::MegabytesPerSecond:
        return ComparePage::tr("MB/s");
    case core::CompareMetric::MeanLatencyUs:
        return ComparePage::tr("Mean latency");
    case core::CompareMetric::P99LatencyUs:
        return ComparePage::tr("p99 latency");
    case core::CompareMetric::FilesPerSecond:
        return ComparePage::tr("Files/s", "files opened per second");
    }
    return {};
}

} // namespace

ComparePage::ComparePage(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto *bar = new QHBoxLayout;
    auto *label = new QLabel(tr("&Baseline:"), this);
    m_baseline = new QComboBox(this);
    m_baseline->setToolTip(tr("The run the others are measured against: their changes are "
                              "relative to its figures"));
    label->setBuddy(m_baseline);
    bar->addWidget(label);
    bar->addWidget(m_baseline);
    m_summary = new QLabel(this);
    m_summary->setToolTip(tr("How many steps or points the runs share, and how many only some "
                             "of them have"));
    bar->addWidget(m_summary, 1);
    m_exportReport = new QPushButton(icon(IconId::Export), tr("Export &Report…"), this);
    m_exportReport->setToolTip(tr("Save this comparison as one HTML file that opens in any "
                                  "browser: the runs, what differs, the curves and the delta "
                                  "table"));
    m_exportReport->setEnabled(false);
    bar->addWidget(m_exportReport);
    layout->addLayout(bar);
    connect(m_exportReport, &QPushButton::clicked, this, &ComparePage::exportReportRequested);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_plot = new QCustomPlot(splitter);
    m_plot->setMinimumHeight(220);
    m_plot->setToolTip(tr("Each run's IOPS in its own colour: over the swept parameter when "
                          "every run is a series of it, else over the run's time"));
    followPalette(m_plot);
    m_plot->legend->setVisible(true);
    m_delta = new QTableWidget(splitter);
    m_delta->setToolTip(tr("Every step or series point in each run, and its change against the "
                           "baseline: green is better, red is worse (higher IOPS, MB/s and "
                           "files opened per second are better, higher latency is worse)"));
    m_delta->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_delta->verticalHeader()->hide();
    m_delta->setWordWrap(false);
    m_differences = new QTableWidget(splitter);
    m_differences->setToolTip(tr("What differs between the runs' setups: profile fields, "
                                 "engine, cache mode, kernel and OS, devices, IOPrism version"));
    m_differences->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_differences->verticalHeader()->hide();
    m_differences->setWordWrap(false);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 3);
    splitter->setStretchFactor(2, 1);
    layout->addWidget(splitter, 1);

    connect(m_baseline, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0 && static_cast<std::size_t>(index) != m_comparison.baseline)
            setBaseline(index);
    });
}

void ComparePage::setRuns(std::vector<RunResultPtr> runs, QStringList labels)
{
    m_runs = std::move(runs);
    m_labels = std::move(labels);
    const QSignalBlocker block(m_baseline);
    m_baseline->clear();
    m_baseline->addItems(m_labels);
    m_baseline->setCurrentIndex(0);
    m_comparison = {};
    m_exportReport->setEnabled(m_runs.size() >= 2);
    rebuild();
}

void ComparePage::setBaseline(int run)
{
    if (run < 0 || static_cast<std::size_t>(run) >= m_runs.size())
        return;
    m_comparison.baseline = static_cast<std::size_t>(run);
    const QSignalBlocker block(m_baseline);
    m_baseline->setCurrentIndex(run);
    rebuild();
}

void ComparePage::rebuild()
{
    std::vector<const core::RunResult *> runs;
    for (const auto &r : m_runs)
        runs.push_back(r.get());
    if (runs.size() >= 2)
        m_comparison = core::compareRuns(runs, std::min(m_comparison.baseline, runs.size() - 1));
    int matched = 0;
    for (const auto &row : m_comparison.rows)
        matched += row.matched() ? 1 : 0;
    const int unmatched = static_cast<int>(m_comparison.rows.size()) - matched;
    m_summary->setText(tr("%n runs", nullptr, static_cast<int>(m_runs.size()))
        + QStringLiteral(" · ") + tr("%n in every run", nullptr, matched)
        + (unmatched ? QStringLiteral(" · ") + tr("%n only in some", nullptr, unmatched)
                     : QString()));
    drawCurves();
    fillDelta();
    fillDifferences();
}

void ComparePage::drawCurves()
{
    m_plot->clearGraphs();
    std::vector<const core::RunResult *> runs;
    for (const auto &r : m_runs)
        runs.push_back(r.get());
    const core::ComparisonCurves curves = core::comparisonCurves(runs);
    m_overSeries = curves.axis.has_value();
    for (std::size_t i = 0; i < curves.runs.size(); ++i) {
        QCPGraph *graph = m_plot->addGraph();
        graph->setName(m_labels.value(static_cast<int>(i)));
        graph->setPen(QPen(runColor(static_cast<int>(i)), 2));
        if (m_overSeries)
            graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
        for (const auto &[x, iops] : curves.runs[i])
            graph->addData(x, iops);
    }
    if (m_overSeries) {
        // Ticks at the swept values, spelled as the Series page spells them ("4 KiB").
        m_plot->xAxis->setScaleType(curves.logX ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
        for (const auto v : curves.ticks)
            ticker->addTick(static_cast<double>(v), sweepValueText(*curves.axis, v));
        m_plot->xAxis->setTicker(ticker);
    } else {
        m_plot->xAxis->setScaleType(QCPAxis::stLinear);
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    }
    m_plot->xAxis->setLabel(m_overSeries ? sweepParameterText(*curves.axis) : tr("time (s)"));
    m_plot->yAxis->setLabel(tr("IOPS"));
    m_plot->rescaleAxes();
    m_plot->yAxis->setRangeLower(0);
    m_plot->replot();
}

void ComparePage::fillDelta()
{
    const auto &metrics = m_comparison.metrics; // from core: files/s only where files opened
    QStringList headers {tr("Step or point"), tr("Run")};
    for (const auto m : metrics)
        headers << metricTitle(m) << tr("Change");
    m_delta->clear();
    m_delta->setColumnCount(static_cast<int>(headers.size()));
    m_delta->setHorizontalHeaderLabels(headers);
    m_delta->setRowCount(static_cast<int>(m_comparison.rows.size() * m_runs.size()));
    int line = 0;
    for (const auto &row : m_comparison.rows) {
        const auto &base = row.runs[m_comparison.baseline];
        for (std::size_t run = 0; run < m_runs.size(); ++run, ++line) {
            const auto set = [&](int column, const QString &text) {
                auto *item = new QTableWidgetItem(text);
                item->setTextAlignment(column >= 2 ? Qt::AlignRight | Qt::AlignVCenter
                                                   : Qt::AlignLeft | Qt::AlignVCenter);
                m_delta->setItem(line, column, item);
                return item;
            };
            set(0, run == 0 ? toQString(row.name) : QString());
            auto *name = set(1, m_labels.value(static_cast<int>(run)));
            name->setForeground(runColor(static_cast<int>(run)));
            const auto &values = row.runs[run];
            if (!values) {
                set(2, tr("not in this run"))->setForeground(QColor(0x88, 0x88, 0x88));
                continue;
            }
            for (std::size_t m = 0; m < metrics.size(); ++m) {
                const double v = (*values)[metrics[m]];
                set(2 + 2 * static_cast<int>(m), metricText(metrics[m], v));
                if (run == m_comparison.baseline) {
                    set(3 + 2 * static_cast<int>(m), tr("baseline"));
                    continue;
                }
                if (!base) {
                    set(3 + 2 * static_cast<int>(m), tr("no baseline"));
                    continue;
                }
                const core::Change change = core::changeOf(metrics[m], (*base)[metrics[m]], v);
                QString text = QStringLiteral("–");
                if (std::isfinite(change.percent))
                    text = QStringLiteral("%1%2 %").arg(
                        change.percent > 0 ? QStringLiteral("+") : QString(),
                        QLocale().toString(change.percent, 'f', 1));
                auto *item = set(3 + 2 * static_cast<int>(m), text);
                if (change.sense == core::ChangeSense::Better)
                    item->setForeground(QColor(0x2f, 0x9e, 0x44));
                else if (change.sense == core::ChangeSense::Worse)
                    item->setForeground(QColor(0xd9, 0x48, 0x0f));
                item->setToolTip(toQString(core::toString(change.sense)));
            }
        }
    }
    m_delta->resizeColumnsToContents();
}

void ComparePage::fillDifferences()
{
    m_differences->clear();
    QStringList headers {tr("What differs")};
    headers << m_labels;
    m_differences->setColumnCount(static_cast<int>(headers.size()));
    m_differences->setHorizontalHeaderLabels(headers);
    m_differences->setRowCount(static_cast<int>(m_comparison.differences.size()));
    for (std::size_t d = 0; d < m_comparison.differences.size(); ++d) {
        const auto &diff = m_comparison.differences[d];
        auto *what = new QTableWidgetItem(toQString(diff.what));
        what->setToolTip(toQString(diff.path));
        m_differences->setItem(static_cast<int>(d), 0, what);
        for (std::size_t v = 0; v < diff.values.size(); ++v)
            m_differences->setItem(static_cast<int>(d), static_cast<int>(v) + 1,
                new QTableWidgetItem(toQString(diff.values[v])));
    }
    m_differences->resizeColumnsToContents();
    // A long value (a description) must not push the other runs' columns out of view:
    // cut at a width, in full in the cell's tooltip.
    for (int c = 0; c < m_differences->columnCount(); ++c)
        m_differences->setColumnWidth(c, std::min(m_differences->columnWidth(c), 360));
    for (int r = 0; r < m_differences->rowCount(); ++r)
        for (int c = 1; c < m_differences->columnCount(); ++c)
            if (auto *item = m_differences->item(r, c))
                item->setToolTip(item->text());
}

} // namespace ioprism::ui
