// SPDX-License-Identifier: GPL-3.0-or-later
// The Test setup page: description, run time, ramp-up, sampling interval, which result
// rows are recorded, the seed; Iometer's test type with its three cyclings; IOPrism's
// series (one or two swept axes, trials, a fixed number of I/Os per point, targets in
// turn, worker stagger); what the profile will run (steps and time); and the I/O engine
// (an application setting, not part of the profile: the same profile runs with any
// engine).
//
// Every field goes through the profile document like the other editors, so it is saved
// in the profile JSON and marked by the validation problems at its field path.
#pragma once

#include "core/profile/profile.h"
#include "core/profile/sweep_parameter.h"
#include "ui/platform_services.h"

#include <QWidget>

#include <array>
#include <vector>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ioprism::ui {

class ProfileDocument;
class PreconditionBox;
class SteadyStateBox;

class SetupPage : public QWidget
{
    Q_OBJECT
public:
    // `engines`: what this platform makes (PlatformServices::engines), in the order the
    // engine box offers them.
    SetupPage(ProfileDocument *document, const std::vector<core::EngineKind> &engines,
        QWidget *parent = nullptr);

    core::EngineKind engine() const;
    // Selects `engine` when the page offers it (this platform makes it) and returns true;
    // otherwise leaves the choice as it is and returns false.
    bool setEngine(core::EngineKind engine);
    // io_uring's peak mode (core::EnginePolling): offered where the platform makes
    // io_uring, and sent only while the engine chosen can be io_uring.
    core::EnginePolling polling() const;
    void setPolling(const core::EnginePolling &polling);
    // Completions a worker waits for at once (RunSettings::reapBatch), every engine.
    std::uint32_t reapBatch() const;
    void setReapBatch(std::uint32_t batch);

    // The fields, for tests and the window.
    enum CyclingId { WorkerCycling, TargetCycling, QueueDepthCycling, CyclingCount };
    struct CyclingFields {
        QSpinBox *start = nullptr;
        QSpinBox *step = nullptr;
        QSpinBox *end = nullptr; // queue depth only
        QComboBox *stepType = nullptr;
    };
    struct AxisFields {
        QComboBox *parameter = nullptr;
        QLineEdit *values = nullptr; // the CLI's form without "PARAM=": "512..1M:x2", "4k,64k"
        QLabel *preview = nullptr; // the values it gives
    };
    QLineEdit *runTimeField() const { return m_runTime; }
    QLineEdit *rampUpField() const { return m_rampUp; }
    QSpinBox *passesField() const { return m_passes; }
    QLineEdit *pauseField() const { return m_pause; }
    QLineEdit *descriptionField() const { return m_description; }
    // What the profile runs (core::describeRun), shown beside the description.
    QLabel *factsLabel() const { return m_facts; }
    QComboBox *testTypeField() const { return m_testType; }
    const CyclingFields &cyclingFields(CyclingId id) const { return m_cycling[id]; }
    QGroupBox *seriesBox() const { return m_seriesBox; }
    SteadyStateBox *steadyStateBox() const { return m_steadyBox; }
    PreconditionBox *preconditionBox() const { return m_preconditionBox; }
    // "First it preconditions every target with ...: 2 GiB. " before the plan's steps;
    // empty without preconditioning.
    static QString preconditionPlanText(const core::Profile &profile);
    const AxisFields &axisFields(int axis) const { return m_axes[std::size_t(axis)]; }
    QCheckBox *secondAxisField() const { return m_secondAxis; }
    QSpinBox *repeatField() const { return m_repeat; }
    QLineEdit *iosField() const { return m_ios; }
    QCheckBox *targetsInTurnField() const { return m_targetsInTurn; }
    QLineEdit *workerStaggerField() const { return m_stagger; }
    // The engine box: one entry per kind offered, the kind as its data (int).
    QComboBox *engineField() const { return m_engine; }
    // Polled completions and the submission thread; null where io_uring is not offered.
    QCheckBox *pollCompletionsField() const { return m_pollCompletions; }
    QCheckBox *pollSubmissionsField() const { return m_pollSubmissions; }
    QSpinBox *reapBatchField() const { return m_reapBatch; }
    // What the profile will run: "12 steps × (1s ramp-up + 30s) = 6m12s".
    QString planText() const;

signals:
    void engineChanged(ioprism::core::EngineKind engine);
    void pollingChanged(ioprism::core::EnginePolling polling);
    void reapBatchChanged(std::uint32_t batch);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QLabel *makePlanLabel(QWidget *parent);
    QWidget *makeTestBox();
    QGroupBox *makeEngineBox(QWidget *parent, const std::vector<core::EngineKind> &engines);
    QWidget *makeCyclingBox();
    QWidget *makeSeriesBox();
    // The series box's two axis rows (parameter, values, preview) and the second axis's
    // check box.
    void addAxisRows(QFormLayout *form);
    // The constructor's connections, in the order they were made.
    void connectTestFields();
    void connectSeriesFields();
    void connectDocument();
    void load();
    void loadCycling();
    void loadSeries();
    void commit();
    // The series as the fields give it; false (and the unreadable fields marked) when a
    // field cannot be read, leaving `series` as it was for those fields.
    bool readSeries(core::Series &series);
    void updateEnabled();
    void updatePlan();
    void updatePreview(int axis);
    void fitFacts();

    ProfileDocument *m_document;
    QLineEdit *m_description;
    QLabel *m_facts = nullptr;
    QLineEdit *m_runTime;
    QLineEdit *m_rampUp;
    QSpinBox *m_passes = nullptr; // CrystalDiskMark's passes per test
    QLineEdit *m_pause = nullptr; // and its interval between tests
    QComboBox *m_interval;
    QComboBox *m_record;
    QCheckBox *m_fixedSeed;
    QLineEdit *m_seed;
    QComboBox *m_testType = nullptr;
    std::array<CyclingFields, CyclingCount> m_cycling {};
    std::array<QLabel *, CyclingCount> m_cyclingLabels {};
    QGroupBox *m_seriesBox = nullptr;
    SteadyStateBox *m_steadyBox = nullptr;
    PreconditionBox *m_preconditionBox = nullptr;
    std::array<AxisFields, 2> m_axes {};
    QCheckBox *m_secondAxis = nullptr;
    QSpinBox *m_repeat = nullptr;
    QLineEdit *m_ios = nullptr;
    QCheckBox *m_targetsInTurn = nullptr;
    QLineEdit *m_stagger = nullptr;
    QLabel *m_plan = nullptr;
    QComboBox *m_engine;
    QCheckBox *m_pollCompletions = nullptr;
    QCheckBox *m_pollSubmissions = nullptr;
    QSpinBox *m_reapBatch = nullptr;
    // Peak mode only for the engines that can be io_uring (Automatic, io_uring only).
    void updatePollingEnabled();
    // The text each axis had for each parameter, so switching the parameter back and
    // forth keeps what was typed: [axis][SweepParameter].
    std::array<std::array<QString, core::kSweepParameterTraits.size()>, 2> m_axisTexts {};
    bool m_loading = false;
};

} // namespace ioprism::ui
