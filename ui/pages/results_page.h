// SPDX-License-Identifier: GPL-3.0-or-later
// The Results page: all steps at a glance (the summary grid), Iometer's table (All,
// workers, targets) for one step at a time, under it the files opened and closed (file
// trees, Iometer's connection rate; shown only when a step has them), the latency
// histogram in Iometer's bins for the selected row, and the device summary.
#pragma once

#include "ui/metatypes.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QCustomPlot;
class QCPBars;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QMenu;
class QTableView;
class QToolButton;
class QVBoxLayout;

namespace ioprism::ui {

class FilesModel;
class ResultsModel;
class StepSummaryModel;
class WriteBytesPlot;

class ResultsPage : public QWidget
{
    Q_OBJECT
public:
    explicit ResultsPage(QWidget *parent = nullptr);
    ~ResultsPage() override;

    void setResult(RunResultPtr result);
    const RunResultPtr &result() const;
    void setStep(int step);

    ResultsModel *model() const { return m_model; }
    // Files opened and closed per scope of the shown step, and its box (hidden when the
    // run opened no files).
    FilesModel *filesModel() const { return m_filesModel; }
    QTableView *filesTable() const { return m_filesTable; }
    QGroupBox *filesBox() const { return m_filesBox; }
    StepSummaryModel *summaryModel() const { return m_summaryModel; }
    QTableView *summaryGrid() const { return m_grid; }
    // The grid to the clipboard: aligned text, with an HTML table and CSV beside it so
    // that spreadsheets and word processors paste a table (Ctrl+C on the grid). The
    // `as` forms put CSV or Markdown as the plain text.
    enum class CopyForm { Table, Csv, Markdown };
    void copySummary(CopyForm form) const;
    // Writes the grid to a file: CSV, Markdown, HTML or text by extension (.csv, .md,
    // .html, anything else text). False when it cannot be written.
    bool exportSummary(const QString &fileName) const;
    QTableView *table() const { return m_table; }
    QCustomPlot *histogram() const { return m_histogram; }
    // The selected step's write against the bytes written (write_bytes_plot.h), shown
    // above the histogram, as wide as the page, for a step whose write was judged for a
    // cliff.
    const WriteBytesPlot &writePlot() const { return *m_writePlot; }
    bool isWritePlotShown() const;
    // Total I/Os drawn in the histogram (read + write bars).
    double histogramTotal() const;
    bool saveHistogram(const QString &fileName); // .png or .pdf by extension

    // The device section (device_overlay.h's deviceSummaryHtml for the shown step); an
    // empty text shows "no device counters". setResult and the step choice fill it.
    void setDeviceSummary(const QString &html);
    QString deviceSummaryText() const; // as shown, for tests

    void setColumnShown(int column, bool shown);
    bool isColumnShown(int column) const;

signals:
    void exportHistogramRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // The constructor's pieces, in the order it calls them.
    void setUpSummaryGrid(QVBoxLayout *layout);
    QHBoxLayout *makeStepBar();
    void makeTable();
    QMenu *makeColumnMenu();
    void restoreHiddenColumns(QMenu *columnMenu);
    QWidget *makeLowerRow();
    QGroupBox *makeHistogramBox(QWidget *parent);
    QGroupBox *makeDeviceBox(QWidget *parent);
    QGroupBox *makeWriteBox(QWidget *parent);
    void makeFilesBox();
    void setUpHistogramPlot();
    void connectStepAndRows();

    void refreshSummary();
    void fitGridHeight();
    void refreshHistogram();
    void refreshFiles();
    void refreshWritePlot();
    void saveColumnSettings() const;

    ResultsModel *m_model = nullptr;
    FilesModel *m_filesModel = nullptr;
    QTableView *m_filesTable = nullptr;
    QGroupBox *m_filesBox = nullptr;
    StepSummaryModel *m_summaryModel = nullptr;
    QTableView *m_grid = nullptr;
    QComboBox *m_step = nullptr;
    QLabel *m_summary = nullptr;
    QToolButton *m_columns = nullptr;
    QTableView *m_table = nullptr;
    QCustomPlot *m_histogram = nullptr;
    QCPBars *m_readBars = nullptr;
    QCPBars *m_writeBars = nullptr;
    QLabel *m_device = nullptr;
    QGroupBox *m_histogramBox = nullptr;
    QGroupBox *m_writeBox = nullptr;
    std::unique_ptr<WriteBytesPlot> m_writePlot;
};

} // namespace ioprism::ui
