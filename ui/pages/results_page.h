// The Results page: Iometer's table (All, workers, targets) for one step at a time, the
// latency histogram in Iometer's bins for the selected row, and the device summary.
#pragma once

#include "ui/metatypes.h"

#include <QWidget>

class QComboBox;
class QCustomPlot;
class QCPBars;
class QGroupBox;
class QLabel;
class QTableView;
class QToolButton;

namespace ioprism::ui {

class ResultsModel;

class ResultsPage : public QWidget
{
    Q_OBJECT
public:
    explicit ResultsPage(QWidget *parent = nullptr);

    void setResult(RunResultPtr result);
    const RunResultPtr &result() const;
    void setStep(int step);

    ResultsModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QCustomPlot *histogram() const { return m_histogram; }
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
    void refreshSummary();
    void refreshHistogram();
    void saveColumnSettings() const;

    ResultsModel *m_model = nullptr;
    QComboBox *m_step = nullptr;
    QLabel *m_summary = nullptr;
    QToolButton *m_columns = nullptr;
    QTableView *m_table = nullptr;
    QCustomPlot *m_histogram = nullptr;
    QCPBars *m_readBars = nullptr;
    QCPBars *m_writeBars = nullptr;
    QLabel *m_device = nullptr;
    QGroupBox *m_histogramBox = nullptr;
};

} // namespace ioprism::ui
