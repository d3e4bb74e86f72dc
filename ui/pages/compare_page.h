// SPDX-License-Identifier: GPL-3.0-or-later
// The Compare page: two or more runs side by side (core/report/compare.h). Their curves
// overlaid in distinct colours with a legend naming each run (a series' IOPS over its
// swept values when every run is a series over the same parameter, else IOPS over the
// run's time); a delta table with every step or point, each run's figures and their
// change against the baseline run, coloured better or worse in each metric's sense
// (steps or points a run lacks are shown as such); and what differs between the setups.
// Export Report… writes all of it as one HTML file (core/report/html_report.h).
#pragma once

#include "core/report/compare.h"
#include "ui/metatypes.h"

#include <QStringList>
#include <QWidget>

class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTableWidget;

namespace ioprism::ui {

class ComparePage : public QWidget
{
    Q_OBJECT
public:
    explicit ComparePage(QWidget *parent = nullptr);

    // The runs and what to call them (a name, the file or the library id).
    void setRuns(std::vector<RunResultPtr> runs, QStringList labels);
    void setBaseline(int run);

    const core::Comparison &comparison() const { return m_comparison; }
    const std::vector<RunResultPtr> &runs() const { return m_runs; }
    const QStringList &labels() const { return m_labels; }
    QPushButton *exportReportButton() const { return m_exportReport; }
    QCustomPlot *plot() const { return m_plot; }
    QTableWidget *deltaTable() const { return m_delta; }
    QTableWidget *differencesTable() const { return m_differences; }
    bool overSeries() const { return m_overSeries; } // x is the swept parameter

signals:
    // Export Report…: the main window asks where and writes the comparison's report.
    void exportReportRequested();

private:
    void rebuild();
    void drawCurves();
    void fillDelta();
    void fillDifferences();

    std::vector<RunResultPtr> m_runs;
    QStringList m_labels;
    core::Comparison m_comparison;
    bool m_overSeries = false;
    QComboBox *m_baseline = nullptr;
    QLabel *m_summary = nullptr;
    QPushButton *m_exportReport = nullptr;
    QCustomPlot *m_plot = nullptr;
    QTableWidget *m_delta = nullptr;
    QTableWidget *m_differences = nullptr;
};

} // namespace ioprism::ui
