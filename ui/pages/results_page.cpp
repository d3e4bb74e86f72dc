// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/results_page.h"

#include "core/stats/histogram.h"
#include "ui/format.h"
#include "ui/models/files_model.h"
#include "ui/models/results_model.h"
#include "ui/models/step_summary_model.h"
#include "ui/plots/device_overlay.h"
#include "ui/plots/qcp_library.h"
#include "ui/plots/write_bytes_plot.h"
#include "ui/style.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMimeData>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace ioprism::ui {

namespace {
const char *kHiddenColumnsKey = "results/hiddenColumns";
}

ResultsPage::ResultsPage(QWidget *parent)
    : QWidget(parent)
    , m_model(new ResultsModel(this))
    , m_filesModel(new FilesModel(this))
    , m_summaryModel(new StepSummaryModel(this))
{
    // Built top to bottom: the widgets' creation order is the page's tab order.
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    setUpSummaryGrid(layout);
    layout->addLayout(makeStepBar());
    makeTable();
    QMenu *columnMenu = makeColumnMenu();
    restoreHiddenColumns(columnMenu);
    QWidget *lower = makeLowerRow();
    makeFilesBox();
    makeWriteBox(this);

    // The write against the bytes written, when shown, as wide as the page: its x axis
    // is the write's whole course.
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_filesBox);
    splitter->addWidget(m_writeBox);
    splitter->addWidget(lower);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 0);
    splitter->setStretchFactor(2, 1);
    splitter->setStretchFactor(3, 1);
    layout->addWidget(splitter, 1);

    setUpHistogramPlot();
    connectStepAndRows();
    setDeviceSummary({});
    setResult(nullptr);
}

QHBoxLayout *ResultsPage::makeStepBar()
{
    auto *bar = new QHBoxLayout;
    auto *stepLabel = new QLabel(tr("&Step:"), this);
    m_step = new QComboBox(this);
    m_step->setMinimumContentsLength(28);
    m_step->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_step->setToolTip(
        tr("One result set per step: the access specification(s) the workers ran together"));
    stepLabel->setBuddy(m_step);
    bar->addWidget(stepLabel);
    bar->addWidget(m_step);
    m_summary = new QLabel(this);
    m_summary->setToolTip(tr("Engine, measured time and how the step ended"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bar->addWidget(m_summary, 1);
    m_columns = new QToolButton(this);
    m_columns->setText(tr("Columns"));
    m_columns->setPopupMode(QToolButton::InstantPopup);
    m_columns->setToolTip(tr("Choose the figures the table shows (also: right-click the header)"));
    bar->addWidget(m_columns);
    return bar;
}

void ResultsPage::makeTable()
{
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The figures fit; the scope takes the width they leave. A long test-file path sized
    // to its contents pushed the last columns out of view (German "CPU-Effizienz" read
    // "CPU-E", cut); now the path is elided in its middle (its name stays, the tooltip has
    // it whole).
    m_table->horizontalHeader()->setSectionResizeMode(
        ResultsModel::ScopeColumn, QHeaderView::Stretch);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->setToolTip(tr("Results of the selected step: All, each worker, each target. "
                           "Select a row to see its latency histogram."));
}

// One checkable action per figure column, on the Columns button and the header's
// context menu alike; toggling one shows or hides its column and remembers the choice.
QMenu *ResultsPage::makeColumnMenu()
{
    auto *columnMenu = new QMenu(this);
    for (int c = ResultsModel::ScopeColumn + 1; c < ResultsModel::ColumnCount; ++c) {
        auto *action = columnMenu->addAction(m_model->headerData(c, Qt::Horizontal).toString());
        action->setCheckable(true);
        action->setToolTip(m_model->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString());
        action->setData(c);
        connect(action, &QAction::toggled, this, [this, c](bool on) {
            m_table->setColumnHidden(c, !on);
            saveColumnSettings();
        });
    }
    m_columns->setMenu(columnMenu);
    connect(m_table->horizontalHeader(), &QWidget::customContextMenuRequested, this,
        [this, columnMenu](const QPoint &pos) {
            columnMenu->popup(m_table->horizontalHeader()->mapToGlobal(pos));
        });
    return columnMenu;
}

// Hidden columns: the user's choice, else the defaults. The actions' signals are
// blocked so that restoring the choice does not save it again.
void ResultsPage::restoreHiddenColumns(QMenu *columnMenu)
{
    QSettings settings;
    QList<int> hidden;
    if (settings.contains(QLatin1String(kHiddenColumnsKey))) {
        for (const auto &v : settings.value(QLatin1String(kHiddenColumnsKey)).toList())
            hidden << v.toInt();
    } else {
        for (int c = 0; c < ResultsModel::ColumnCount; ++c)
            if (!ResultsModel::shownByDefault(c))
                hidden << c;
    }
    for (auto *action : columnMenu->actions()) {
        const int c = action->data().toInt();
        const QSignalBlocker block(action);
        action->setChecked(!hidden.contains(c));
        m_table->setColumnHidden(c, hidden.contains(c));
    }
}

// Under the tables: the histogram of the selected row beside the device summary.
QWidget *ResultsPage::makeLowerRow()
{
    auto *lower = new QWidget(this);
    auto *lowerLayout = new QHBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(makeHistogramBox(lower), 3);
    lowerLayout->addWidget(makeDeviceBox(lower), 1);
    return lower;
}

QGroupBox *ResultsPage::makeWriteBox(QWidget *parent)
{
    m_writeBox = new QGroupBox(tr("Write against bytes written"), parent);
    m_writeBox->setObjectName(QStringLiteral("writeBox"));
    auto *layout = new QVBoxLayout(m_writeBox);
    auto *plot = new QCustomPlot(m_writeBox);
    plot->setMinimumHeight(200);
    plot->setToolTip(
        tr("The step's write MB/s and write latency of each interval at the bytes written by "
           "its end, and the write cliff where the rate fell and stayed down (the dashed line: "
           "the bytes written before it, a cache's size). Shown for a step that wrote long "
           "enough to be judged."));
    layout->addWidget(plot);
    m_writePlot = std::make_unique<WriteBytesPlot>(plot);
    m_writeBox->hide();
    return m_writeBox;
}

ResultsPage::~ResultsPage() = default;

bool ResultsPage::isWritePlotShown() const
{
    return !m_writeBox->isHidden();
}

void ResultsPage::refreshWritePlot()
{
    const RunResultPtr &r = m_model->result();
    const int step = m_model->step();
    m_writeBox->setVisible(r && step >= 0 && m_writePlot->show(*r, std::size_t(step)));
}

QGroupBox *ResultsPage::makeHistogramBox(QWidget *parent)
{
    m_histogramBox = new QGroupBox(tr("Latency histogram (Iometer bins)"), parent);
    auto *histLayout = new QVBoxLayout(m_histogramBox);
    m_histogram = new QCustomPlot(m_histogramBox);
    m_histogram->setMinimumHeight(220);
    m_histogram->setToolTip(tr("Share of the selected row's I/Os in each latency bin (Iometer's "
                               "21 bins, lower edge inclusive). Right-click to save."));
    m_histogram->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_histogram, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        auto *menu = new QMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->addAction(
            tr("Save histogram as PNG or PDF…"), this, &ResultsPage::exportHistogramRequested);
        menu->popup(m_histogram->mapToGlobal(pos));
    });
    histLayout->addWidget(m_histogram);
    return m_histogramBox;
}

QGroupBox *ResultsPage::makeDeviceBox(QWidget *parent)
{
    auto *deviceBox = new QGroupBox(tr("Device summary and verdict"), parent);
    auto *deviceLayout = new QVBoxLayout(deviceBox);
    m_device = new QLabel(deviceBox);
    m_device->setWordWrap(true);
    m_device->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_device->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_device->setToolTip(tr("What the devices carrying the targets did over the measured time, "
                            "and whether that confirms the application's figures"));
    deviceLayout->addWidget(m_device);
    return deviceBox;
}

// Files opened and closed: a table of its own (its figures are per open and close,
// not per I/O), under the step's table and as tall as its rows.
void ResultsPage::makeFilesBox()
{
    m_filesBox = new QGroupBox(this);
    m_filesBox->setObjectName(QStringLiteral("filesBox"));
    auto *filesLayout = new QVBoxLayout(m_filesBox);
    filesLayout->setContentsMargins(4, 4, 4, 4);
    m_filesTable = new QTableView(m_filesBox);
    m_filesTable->setObjectName(QStringLiteral("filesTable"));
    m_filesTable->setModel(m_filesModel);
    m_filesTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_filesTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_filesTable->verticalHeader()->hide();
    m_filesTable->setAlternatingRowColors(true);
    m_filesTable->setWordWrap(false);
    m_filesTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_filesTable->setToolTip(
        tr("Files opened and closed in the selected step, per scope that opened any: files "
           "(or Iometer's connections) per second, and the time of each open, close and "
           "whole open-to-close"));
    filesLayout->addWidget(m_filesTable);
    m_filesBox->hide();
}

// Histogram: read and write bars stacked, Iometer's bin labels on x.
void ResultsPage::setUpHistogramPlot()
{
    followPalette(m_histogram); // light or dark, now and when the system switches
    m_readBars = new QCPBars(m_histogram->xAxis, m_histogram->yAxis);
    m_readBars->setName(tr("read"));
    m_readBars->setBrush(series::read());
    m_readBars->setPen(Qt::NoPen);
    m_readBars->setWidth(0.8);
    m_writeBars = new QCPBars(m_histogram->xAxis, m_histogram->yAxis);
    m_writeBars->setName(tr("write"));
    m_writeBars->setBrush(series::write());
    m_writeBars->setPen(Qt::NoPen);
    m_writeBars->setWidth(0.8);
    m_writeBars->moveAbove(m_readBars);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (std::size_t b = 0; b < core::IometerBins::kBinCount; ++b)
        ticker->addTick(static_cast<double>(b), latencyBinText(b));
    m_histogram->xAxis->setTicker(ticker);
    m_histogram->xAxis->setTickLabelRotation(50);
    m_histogram->installEventFilter(this); // label rotation follows the plot's width
    m_histogram->xAxis->setSubTicks(false);
    m_histogram->xAxis->grid()->setVisible(false);
    m_histogram->xAxis->setRange(-0.7, core::IometerBins::kBinCount - 0.3);
    m_histogram->xAxis->setLabel(tr("latency"));
    m_histogram->yAxis->setLabel(tr("% of I/Os"));
    m_histogram->yAxis->setRange(0, 100);
    m_histogram->legend->setVisible(true);
    m_histogram->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
}

// A step chosen (combo box) or a new result: the table, files, grid row and summary
// follow, and the histogram stays on a row of the table.
void ResultsPage::connectStepAndRows()
{
    connect(m_step, &QComboBox::currentIndexChanged, this, [this](int step) {
        m_model->setStep(step);
        m_filesModel->setStep(step);
        refreshFiles();
        refreshWritePlot();
        if (const int row = m_summaryModel->rowOfStep(step);
            row >= 0 && m_grid->currentIndex().row() != row)
            m_grid->selectRow(row);
        refreshSummary();
        if (m_model->rowCount() > 0)
            m_table->selectRow(0);
        refreshHistogram();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &ResultsPage::refreshHistogram);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        // The selection model is reset with the model; keep the histogram on a row.
        if (m_model->rowCount() > 0)
            m_table->selectRow(0);
        refreshHistogram();
    });
}

const RunResultPtr &ResultsPage::result() const
{
    return m_model->result();
}

void ResultsPage::setUpSummaryGrid(QVBoxLayout *layout)
{
    auto *box = new QGroupBox(tr("All steps"), this);
    auto *boxLayout = new QVBoxLayout(box);
    boxLayout->setContentsMargins(4, 4, 4, 4);
    m_grid = new QTableView(box);
    m_grid->setObjectName(QStringLiteral("summaryGrid"));
    m_grid->setModel(m_summaryModel);
    m_grid->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_grid->setSelectionMode(QAbstractItemView::SingleSelection);
    m_grid->verticalHeader()->hide();
    m_grid->setAlternatingRowColors(true);
    m_grid->setWordWrap(false);
    m_grid->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_grid->horizontalHeader()->setStretchLastSection(true);
    m_grid->setToolTip(tr("Every step of the run in one row each: read and write MB/s, IOPS, "
                          "mean and p99 latency, and the device's verdict. Click a step to see "
                          "its details below. Ctrl+C copies the grid; right-click for CSV, "
                          "Markdown or a file."));
    m_grid->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto *copy = new QAction(tr("Copy"), m_grid);
    // Shown in the menu; the key itself is taken in eventFilter (the view has its own).
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    m_grid->installEventFilter(this);
    m_grid->viewport()->installEventFilter(this);
    connect(copy, &QAction::triggered, this, [this] { copySummary(CopyForm::Table); });
    auto *copyCsv = new QAction(tr("Copy as CSV"), m_grid);
    connect(copyCsv, &QAction::triggered, this, [this] { copySummary(CopyForm::Csv); });
    auto *copyMarkdown = new QAction(tr("Copy as Markdown"), m_grid);
    connect(copyMarkdown, &QAction::triggered, this, [this] { copySummary(CopyForm::Markdown); });
    auto *save = new QAction(tr("Export…"), m_grid);
    connect(save, &QAction::triggered, this, [this] {
        const QString name = QFileDialog::getSaveFileName(this, tr("Export the summary"), QString(),
            tr("CSV (*.csv);;Markdown (*.md);;HTML (*.html);;Text (*.txt)"));
        if (!name.isEmpty() && !exportSummary(name))
            QApplication::beep();
    });
    m_grid->addActions({copy, copyCsv, copyMarkdown, save});
    connect(m_grid, &QAbstractItemView::clicked, this, [this](const QModelIndex &index) {
        if (const int step = m_summaryModel->stepOfRow(index.row()); step >= 0)
            setStep(step);
    });
    connect(m_grid->horizontalHeader(), &QHeaderView::sectionResized, this,
        [this] { fitGridHeight(); });
    boxLayout->addWidget(m_grid);
    layout->addWidget(box);
}

namespace {

core::TableFormat formatOfFile(const QString &fileName)
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    if (suffix == QLatin1String("csv"))
        return core::TableFormat::Csv;
    if (suffix == QLatin1String("md") || suffix == QLatin1String("markdown"))
        return core::TableFormat::Markdown;
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        return core::TableFormat::Html;
    return core::TableFormat::Text;
}

} // namespace

void ResultsPage::copySummary(CopyForm form) const
{
    const auto &rows = m_summaryModel->rows();
    auto *mime = new QMimeData;
    const auto text
        = [&](core::TableFormat f) { return toQString(core::formatStepSummary(rows, f)); };
    switch (form) {
    case CopyForm::Table:
        mime->setText(text(core::TableFormat::Text));
        mime->setHtml(text(core::TableFormat::Html));
        mime->setData(QStringLiteral("text/csv"), text(core::TableFormat::Csv).toUtf8());
        break;
    case CopyForm::Csv:
        mime->setText(text(core::TableFormat::Csv));
        break;
    case CopyForm::Markdown:
        mime->setText(text(core::TableFormat::Markdown));
        break;
    }
    QApplication::clipboard()->setMimeData(mime);
}

bool ResultsPage::exportSummary(const QString &fileName) const
{
    QFile file(fileName);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    const std::string text
        = core::formatStepSummary(m_summaryModel->rows(), formatOfFile(fileName));
    return file.write(text.data(), static_cast<qint64>(text.size()))
        == static_cast<qint64>(text.size())
        && file.flush();
}

void ResultsPage::setResult(RunResultPtr result)
{
    m_summaryModel->setResult(result);
    m_grid->setColumnHidden(StepSummaryModel::FilesColumn, !m_summaryModel->hasFiles());
    for (const int c : {StepSummaryModel::PassesColumn, StepSummaryModel::PassMeanColumn,
             StepSummaryModel::PassSpreadColumn})
        m_grid->setColumnHidden(c, !m_summaryModel->hasPasses());
    m_filesModel->setResult(result);
    m_model->setResult(std::move(result));
    const QSignalBlocker block(m_step);
    m_step->clear();
    if (const auto &r = m_model->result())
        for (const auto &step : r->steps)
            m_step->addItem(tr("%1. %2").arg(step.step + 1).arg(toQString(step.stepName)));
    m_step->setEnabled(m_step->count() > 1);
    m_step->setCurrentIndex(m_model->step());
    if (const int row = m_summaryModel->rowOfStep(m_model->step()); row >= 0)
        m_grid->selectRow(row);
    fitGridHeight();
    refreshSummary();
    refreshHistogram();
    refreshFiles();
    refreshWritePlot();
}

void ResultsPage::refreshFiles()
{
    m_filesBox->setVisible(m_filesModel->hasFigures());
    if (!m_filesModel->hasFigures())
        return;
    m_filesBox->setTitle(m_filesModel->naming() == FilesModel::Naming::Connections
            ? tr("Connections (Iometer's connection rate)")
            : tr("Files opened and closed"));
    // As tall as its rows (All, workers, targets: a few), with a scroll bar beyond six.
    const int shown = std::clamp(m_filesModel->rowCount(), 1, 6);
    // The columns are many: room for the horizontal scroll bar, so it hides no row.
    m_filesTable->setFixedHeight(m_filesTable->horizontalHeader()->sizeHint().height()
        + shown * m_filesTable->verticalHeader()->defaultSectionSize()
        + m_filesTable->horizontalScrollBar()->sizeHint().height() + 2 * m_filesTable->frameWidth()
        + 2);
}

void ResultsPage::setStep(int step)
{
    m_step->setCurrentIndex(step);
}

void ResultsPage::refreshSummary()
{
    const auto &r = m_model->result();
    if (!r) {
        m_summary->setText(tr("No results yet: run the profile (F5)."));
        setDeviceSummary({});
        return;
    }
    setDeviceSummary(deviceSummaryHtml(*r, m_model->step()));
    QStringList parts;
    if (!r->engine.empty())
        parts << tr("engine %1").arg(toQString(r->engine));
    const int step = m_model->step();
    if (step >= 0) {
        const auto &s = r->steps[static_cast<std::size_t>(step)];
        // A series point of 1000 operations lasts milliseconds: "0.0 s" would say nothing.
        parts << (s.measuredSeconds < 1
                ? tr("%1 ms measured").arg(QLocale().toString(s.measuredSeconds * 1000, 'f', 1))
                : tr("%1 s measured").arg(QLocale().toString(s.measuredSeconds, 'f', 1)));
        parts << (s.complete ? tr("complete") : tr("ended early"));
    } else {
        parts << tr("no step completed");
    }
    if (r->stoppedByUser)
        parts << tr("stopped by the user");
    QString text = parts.join(QStringLiteral(" · "));
    if (r->error)
        text += QStringLiteral(" · <span style=\"color:%1\">%2</span>")
                    .arg(errorColor().name(),
                        tr("error: %1").arg(toQString(r->error->toString())).toHtmlEscaped());
    m_summary->setText(text);
}

void ResultsPage::refreshHistogram()
{
    int row = 0;
    const auto selected = m_table->selectionModel()->selectedRows();
    if (!selected.isEmpty())
        row = selected.first().row();
    const core::ScopeResult *scope = m_model->scopeAt(row);
    QVector<double> keys, reads, writes;
    double total = 0;
    if (scope)
        total = static_cast<double>(
            scope->measurement.read.bins.total() + scope->measurement.write.bins.total());
    for (std::size_t b = 0; b < core::IometerBins::kBinCount; ++b) {
        keys << static_cast<double>(b);
        const double r = scope ? static_cast<double>(scope->measurement.read.bins.counts[b]) : 0;
        const double w = scope ? static_cast<double>(scope->measurement.write.bins.counts[b]) : 0;
        reads << (total > 0 ? 100.0 * r / total : 0);
        writes << (total > 0 ? 100.0 * w / total : 0);
    }
    m_readBars->setData(keys, reads, true);
    m_writeBars->setData(keys, writes, true);
    double highest = 0;
    for (int i = 0; i < keys.size(); ++i)
        highest = std::max(highest, reads[i] + writes[i]);
    m_histogram->yAxis->setRange(0, highest > 0 ? std::min(100.0, highest * 1.15) : 100);
    m_histogramBox->setTitle(scope ? tr("Latency histogram (Iometer bins): %1, %L2 I/Os")
                                         .arg(scopeText(scope->scope))
                                         .arg(static_cast<qulonglong>(total))
                                   : tr("Latency histogram (Iometer bins)"));
    m_histogram->replot(QCustomPlot::rpQueuedReplot);
}

void ResultsPage::fitGridHeight()
{
    // As tall as its rows, up to eight (then it scrolls): the details keep the space. On a
    // narrow window the columns scroll sideways, and the scroll bar takes its height from
    // the rows unless it is added: a 1024-pixel screen showed three and a half of four.
    const int shown = std::clamp(m_summaryModel->rowCount(), 1, 8);
    const bool scrollsSideways = m_grid->horizontalHeader()->length() > m_grid->viewport()->width();
    m_grid->setFixedHeight(m_grid->horizontalHeader()->sizeHint().height()
        + shown * m_grid->verticalHeader()->defaultSectionSize() + 2 * m_grid->frameWidth()
        + (m_summaryModel->rowCount() > 8 ? 0 : 2)
        + (scrollsSideways ? m_grid->horizontalScrollBar()->sizeHint().height() : 0));
}

bool ResultsPage::eventFilter(QObject *watched, QEvent *event)
{
    // The viewport's own resize: its new width decides whether the columns scroll
    // sideways (the view's Resize comes before its viewport is laid out).
    if (watched == m_grid->viewport() && event->type() == QEvent::Resize)
        fitGridHeight();
    if (watched == m_histogram && event->type() == QEvent::Resize) {
        // 21 bin labels: slanted when there is room, upright (one line height each) when not.
        const double perBin
            = m_histogram->width() / static_cast<double>(core::IometerBins::kBinCount);
        m_histogram->xAxis->setTickLabelRotation(perBin < 48 ? 90 : 50);
    }
    // The view would copy one cell's text on Ctrl+C: the grid copies itself as a table.
    if (watched == m_grid && event->type() == QEvent::KeyPress
        && static_cast<QKeyEvent *>(event)->matches(QKeySequence::Copy)) {
        copySummary(CopyForm::Table);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

double ResultsPage::histogramTotal() const
{
    double sum = 0;
    for (auto *bars : {m_readBars, m_writeBars})
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            sum += it->value;
    return sum;
}

bool ResultsPage::saveHistogram(const QString &fileName)
{
    if (fileName.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive))
        return m_histogram->savePdf(
            fileName, 0, 0, QCP::epNoCosmetic, QStringLiteral("IOPrism"), tr("Latency histogram"));
    return m_histogram->savePng(fileName, 0, 0, 2.0);
}

void ResultsPage::setDeviceSummary(const QString &html)
{
    m_device->setText(keepIoWhole(html.isEmpty()
            ? tr("<b>No device counters.</b><br>The device's own figures (iostat's "
                 "view) are not available for this run, so they cannot confirm "
                 "the application's numbers.")
            : html));
}

QString ResultsPage::deviceSummaryText() const
{
    return m_device->text().remove(QChar(0x2060)); // as written, without keepIoWhole's joiners
}

void ResultsPage::setColumnShown(int column, bool shown)
{
    for (auto *action : m_columns->menu()->actions())
        if (action->data().toInt() == column)
            action->setChecked(shown);
}

bool ResultsPage::isColumnShown(int column) const
{
    return !m_table->isColumnHidden(column);
}

void ResultsPage::saveColumnSettings() const
{
    QVariantList hidden;
    for (int c = 0; c < ResultsModel::ColumnCount; ++c)
        if (m_table->isColumnHidden(c))
            hidden << c;
    QSettings().setValue(QLatin1String(kHiddenColumnsKey), hidden);
}

} // namespace ioprism::ui
