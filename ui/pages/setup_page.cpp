// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/setup_page.h"

#include "core/profile/describe.h"
#include "core/profile/series.h"
#include "core/profile/sweep_parameter.h"
#include "core/profile/units.h"
#include "core/profile/validation.h"
#include "core/run/plan.h"
#include "ui/editors/field_marks.h"
#include "ui/format.h"
#include "ui/models/profile_document.h"
#include "ui/pages/precondition_box.h"
#include "ui/pages/steady_state_box.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <type_traits>

namespace ioprism::ui {

namespace {

QString runTimeHelp()
{
    return SetupPage::tr(
        "Measured time of each step (90, 90s, 1m30s, 2h); 0 = until you press Stop");
}
QString rampHelp()
{
    return SetupPage::tr("Time each step runs before measuring starts (not recorded), e.g. 5s");
}
QString passesHelp()
{
    return SetupPage::tr(
        "How many times each step runs in a row (CrystalDiskMark's passes), 1 to 100. Each pass "
        "is kept as a step of its own; the summary shows each test's best pass with the mean "
        "and the spread of its passes. A series repeats its points with its Repetitions "
        "instead.");
}
QString pauseHelp()
{
    return SetupPage::tr(
        "An idle pause before each test but the first (not between the passes of a test), with "
        "no I/O, so that a drive can drain its SLC cache before the next test "
        "(CrystalDiskMark's interval), e.g. 5s; 0 for none");
}
QString intervalHelp()
{
    return SetupPage::tr(
        "How often the live figures and the time series are sampled: 100ms to 60s");
}
QString testTypeHelp()
{
    return SetupPage::tr(
        "Iometer's test types: Normal runs each access specification once with every worker "
        "and target; the others repeat it while adding workers, targets or outstanding I/Os "
        "(the cycling fields below), one step each. A series needs the type Normal.");
}
QString axisValuesHelp()
{
    return SetupPage::tr("The values of this axis: FROM..TO:xN (multiplied by N while at most TO), "
                         "FROM..TO:+N (N added), or a list V1,V2,…. Sizes take units: 512..16M:x2, "
                         "4k,64k,1m; depths 1..256:x2; percentages 0..100:+25.");
}
QString repeatHelp()
{
    return SetupPage::tr(
        "Trials: the whole series runs this many times; each point shows the median with "
        "the smallest and largest trial as whiskers");
}
QString iosHelp()
{
    return SetupPage::tr(
        "Each point stops after this many I/Os per worker and target instead of after the "
        "run time (0 = the run time)");
}
QString staggerHelp()
{
    return SetupPage::tr(
        "Worker n of each point starts n × this after the first (e.g. 5s); 0 = all together");
}

QString cyclingThing(int cycling)
{
    switch (cycling) {
    case SetupPage::WorkerCycling:
        return SetupPage::tr("workers");
    case SetupPage::TargetCycling:
        return SetupPage::tr("targets");
    default:
        return SetupPage::tr("outstanding I/Os per target");
    }
}
QString cyclingStartHelp(int cycling)
{
    return SetupPage::tr("The first step's number of %1 (at least 1)").arg(cyclingThing(cycling));
}
QString cyclingStepHelp(int cycling)
{
    return SetupPage::tr("How the %1 grow from step to step: added (linear, at least 1) or "
                         "multiplied (exponential, at least 2)")
        .arg(cyclingThing(cycling));
}
QString cyclingEndHelp()
{
    return SetupPage::tr("The largest queue depth run (inclusive; a step past it is not run)");
}
QString axisParameterHelp(int axis)
{
    return axis == 0
        ? SetupPage::tr("What the first axis sweeps: it is set on every line of every spec "
                        "(size, % read, % random), on every target (outstanding I/Os), runs "
                        "that many copies of each worker (workers), or puts each point's I/O "
                        "in a zone of every target (position: from the value's % of the "
                        "target to the next value's; 0..99:+1 reads the whole span in a "
                        "hundred zones, a rate-by-position sweep)")
        : SetupPage::tr("What the second axis sweeps (not the first axis's parameter)");
}

// The name parseSweep reads before the '=' of an axis.
std::string cliName(core::SweepParameter parameter)
{
    return std::string(core::sweepTraits(parameter).cliName);
}

// What an axis starts with when the user first picks its parameter.
QString defaultAxisText(core::SweepParameter parameter)
{
    return toQString(core::sweepTraits(parameter).defaultAxis);
}

// The axis's values as the field shows them: the CLI form after "PARAM=".
QString axisText(const core::SweepAxis &axis)
{
    const std::string text = core::formatSweep(axis);
    const auto eq = text.find('=');
    return toQString(eq == std::string::npos ? text : text.substr(eq + 1));
}

bool usesWorkerCycling(core::TestType type)
{
    return type == core::TestType::CycleWorkers || type == core::TestType::CycleWorkersAndTargets;
}
bool usesTargetCycling(core::TestType type)
{
    switch (type) {
    case core::TestType::CycleTargets:
    case core::TestType::IncrementTargetsParallel:
    case core::TestType::IncrementTargetsSerial:
    case core::TestType::CycleWorkersAndTargets:
    case core::TestType::CycleOutstandingIosAndTargets:
        return true;
    default:
        return false;
    }
}
bool usesQueueDepthCycling(core::TestType type)
{
    return type == core::TestType::CycleOutstandingIos
        || type == core::TestType::CycleOutstandingIosAndTargets;
}

core::Problems concat(core::Problems a, const core::Problems &b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

core::Problems without(core::Problems problems, std::string_view suffix)
{
    problems.erase(std::remove_if(problems.begin(), problems.end(),
                       [&](const core::Problem &p) { return p.path.ends_with(suffix); }),
        problems.end());
    return problems;
}

QSpinBox *cyclingSpin(QWidget *parent, const QString &tip)
{
    auto *spin = new QSpinBox(parent);
    // 0 and values past the limits are shown (an imported file may hold them) and marked
    // by validation rather than silently changed.
    spin->setRange(0, 1'000'000);
    spin->setToolTip(tip);
    spin->setMinimumWidth(72);
    return spin;
}

} // namespace

SetupPage::SetupPage(
    ProfileDocument *document, const std::vector<core::EngineKind> &engines, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_description(new QLineEdit(this))
    , m_runTime(new QLineEdit(this))
    , m_rampUp(new QLineEdit(this))
    , m_interval(new QComboBox(this))
    , m_record(new QComboBox(this))
    , m_fixedSeed(new QCheckBox(tr("Same fixed seed for every worker:"), this))
    , m_seed(new QLineEdit(this))
    , m_engine(new QComboBox(this))
{
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *content = new QWidget(scroll);
    scroll->setWidget(content);
    auto *pageLayout = new QVBoxLayout(this);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->addWidget(scroll);

    auto *outer = new QVBoxLayout(content);
    outer->setContentsMargins(12, 12, 12, 12);
    outer->addWidget(makePlanLabel(content));

    auto *columns = new QHBoxLayout;
    auto *left = new QVBoxLayout;
    auto *right = new QVBoxLayout;
    columns->addLayout(left, 1);
    columns->addLayout(right, 1);
    outer->addLayout(columns);

    // Made in this order, which is the order of the focus chain (Tab).
    left->addWidget(makeTestBox());
    left->addWidget(makeEngineBox(content, engines));
    left->addWidget(makeCyclingBox());
    left->addStretch();
    right->addWidget(makeSeriesBox());
    m_steadyBox = new SteadyStateBox(content);
    right->addWidget(m_steadyBox);
    m_preconditionBox = new PreconditionBox(content);
    right->addWidget(m_preconditionBox);
    right->addStretch();
    outer->addStretch();

    connectTestFields();
    connectSeriesFields();
    connect(m_steadyBox, &SteadyStateBox::edited, this, &SetupPage::commit);
    connect(m_preconditionBox, &PreconditionBox::edited, this, &SetupPage::commit);
    connectDocument();
    // Every commit (of any page: workers, targets and specs change the steps too) ends
    // with problemsChanged, so load() keeps the marks and the plan current.
    load();
}

// The plan in one bold line at the top: what Start will run, and for how long.
QLabel *SetupPage::makePlanLabel(QWidget *parent)
{
    m_plan = new QLabel(parent);
    m_plan->setObjectName(QStringLiteral("planLabel"));
    m_plan->setWordWrap(true);
    m_plan->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_plan->setToolTip(tr("What Start will run: the number of steps (every access specification "
                          "index, cycling step, series point and trial) and the time they take, "
                          "preparation of the targets aside"));
    QFont planFont = m_plan->font();
    planFont.setBold(true);
    m_plan->setFont(planFont);
    return m_plan;
}

// The engine is this computer's choice, not the profile's: the box says so. It offers
// what this platform makes, each with what it is; Auto says what it picks here, which
// the list tells (io_uring and sync on Linux, IOCP on Windows): ui/ knows no OS.
QGroupBox *SetupPage::makeEngineBox(QWidget *parent, const std::vector<core::EngineKind> &engines)
{
    auto *engineBox = new QGroupBox(tr("Engine (this computer)"), parent);
    auto *engineForm = new QFormLayout(engineBox);
    const auto offers
        = [&](core::EngineKind kind) { return std::ranges::find(engines, kind) != engines.end(); };
    for (const core::EngineKind kind : engines) {
        QString text;
        QString tip;
        switch (kind) {
        case core::EngineKind::Auto:
            if (offers(core::EngineKind::IoUring) && offers(core::EngineKind::Sync)) {
                text = tr("Automatic: io_uring, else sync");
                tip = tr("io_uring where the kernel allows it, else the sync engine (a "
                         "sandbox or the kernel.io_uring_disabled setting may refuse "
                         "io_uring). The sync engine also where a target cannot take I/O "
                         "without blocking (zram) and no worker keeps more than 2 I/Os "
                         "outstanding: io_uring would measure its own hand-off to a kernel "
                         "thread there, not the device. A notice says so.");
            } else if (offers(core::EngineKind::Iocp)) {
                text = tr("Automatic: IOCP");
                tip = tr("Overlapped I/O on a completion port, the engine for this computer");
            } else {
                text = tr("Automatic");
                tip = tr("The best engine that works on this computer");
            }
            break;
        case core::EngineKind::IoUring:
            text = tr("io_uring only");
            tip = tr("The kernel's asynchronous I/O rings; the run stops with an error where "
                     "the kernel or a sandbox refuses them");
            break;
        case core::EngineKind::Sync:
            text = tr("sync: pread/pwrite threads");
            tip = tr("One thread per outstanding I/O, each waiting in pread or pwrite");
            break;
        case core::EngineKind::Iocp:
            text = tr("IOCP: overlapped I/O on a completion port");
            tip = tr("Unbuffered overlapped ReadFile and WriteFile, completions gathered "
                     "from one I/O completion port per worker");
            break;
        case core::EngineKind::Null:
            text = tr("null: no I/O (IOPrism's own overhead)");
            tip = tr("Completes every request at once without touching the target: what "
                     "IOPrism itself costs");
            break;
        }
        m_engine->addItem(text, int(kind));
        m_engine->setItemData(m_engine->count() - 1, tip, Qt::ToolTipRole);
    }
    m_engine->setToolTip(
        tr("How I/O is issued. Saved with the application's settings, not in the profile."));
    engineForm->addRow(tr("&I/O engine:"), m_engine);
    if (offers(core::EngineKind::IoUring)) {
        auto *peak = new QWidget(engineBox);
        auto *peakRow = new QHBoxLayout(peak);
        peakRow->setContentsMargins(0, 0, 0, 0);
        m_pollCompletions = new QCheckBox(tr("&Polled completions"), peak);
        m_pollCompletions->setObjectName(QStringLiteral("pollCompletions"));
        m_pollCompletions->setToolTip(
            tr("io_uring's IOPOLL (fio's hipri): each worker spins on the device's completion "
               "queue instead of sleeping until its interrupt, for the lowest latency an "
               "NVMe drive gives. Only for direct I/O to devices whose queue polls "
               "(/sys/block/DEVICE/queue/io_poll is 1: NVMe with the nvme.poll_queues=N "
               "module parameter): any other target is refused before the run starts. "
               "Takes a CPU per worker while it runs."));
        m_pollSubmissions = new QCheckBox(tr("Kernel &submission thread"), peak);
        m_pollSubmissions->setObjectName(QStringLiteral("pollSubmissions"));
        m_pollSubmissions->setToolTip(
            tr("io_uring's SQPOLL (fio's sqthread_poll): a kernel thread per worker (iou-sqp) "
               "takes the worker's requests from the ring without a system call. Any "
               "target. The thread is busy until a second after the last I/O: a CPU per "
               "worker."));
        peakRow->addWidget(m_pollCompletions);
        peakRow->addWidget(m_pollSubmissions);
        peakRow->addStretch();
        engineForm->addRow(tr("Peak mode:"), peak);
        updatePollingEnabled();
    }
    m_reapBatch = new QSpinBox(engineBox);
    m_reapBatch->setObjectName(QStringLiteral("reapBatch"));
    m_reapBatch->setRange(1, 65536);
    m_reapBatch->setMaximumWidth(120);
    m_reapBatch->setToolTip(
        tr("Completions each worker waits for before taking them (fio's "
           "iodepth_batch_complete_min; at most the I/Os it has in flight). 1: each I/O is "
           "taken as it completes, and the device keeps the queue depth asked for. More (e.g. "
           "half the queue depth) saves a wake-up per I/O where the computer, not the "
           "device, is the limit (a RAM disk, a fast NVMe on few cores); the device then "
           "sees fewer I/Os outstanding while the others wait to be taken. Each I/O's "
           "latency runs until it is taken."));
    engineForm->addRow(tr("Reap &batch:"), m_reapBatch);
    return engineBox;
}

std::uint32_t SetupPage::reapBatch() const
{
    return std::uint32_t(m_reapBatch->value());
}

void SetupPage::setReapBatch(std::uint32_t batch)
{
    m_reapBatch->setValue(int(std::clamp<std::uint32_t>(batch, 1, 65536)));
}

void SetupPage::updatePollingEnabled()
{
    if (!m_pollCompletions)
        return;
    const core::EngineKind kind = engine();
    const bool uring = kind == core::EngineKind::Auto || kind == core::EngineKind::IoUring;
    m_pollCompletions->setEnabled(uring);
    m_pollSubmissions->setEnabled(uring);
}

core::EnginePolling SetupPage::polling() const
{
    if (!m_pollCompletions || !m_pollCompletions->isEnabled())
        return {};
    return {.completions = m_pollCompletions->isChecked(),
        .submissions = m_pollSubmissions->isChecked()};
}

void SetupPage::setPolling(const core::EnginePolling &polling)
{
    if (!m_pollCompletions)
        return;
    m_pollCompletions->setChecked(polling.completions);
    m_pollSubmissions->setChecked(polling.submissions);
}

// The test's fields and cycling commit as they are edited (text fields when left).
void SetupPage::connectTestFields()
{
    connect(m_description, &QLineEdit::editingFinished, this, &SetupPage::commit);
    connect(m_runTime, &QLineEdit::editingFinished, this, &SetupPage::commit);
    connect(m_rampUp, &QLineEdit::editingFinished, this, &SetupPage::commit);
    connect(m_passes, &QSpinBox::valueChanged, this, &SetupPage::commit);
    connect(m_pause, &QLineEdit::editingFinished, this, &SetupPage::commit);
    connect(m_interval, &QComboBox::currentTextChanged, this, &SetupPage::commit);
    connect(m_record, &QComboBox::currentIndexChanged, this, &SetupPage::commit);
    connect(m_fixedSeed, &QCheckBox::toggled, this, [this](bool on) {
        m_seed->setEnabled(on);
        if (on && m_seed->text().isEmpty())
            m_seed->setText(QStringLiteral("1"));
        commit();
    });
    connect(m_seed, &QLineEdit::editingFinished, this, &SetupPage::commit);
    connect(m_testType, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
        commit();
    });
    for (const auto &c : m_cycling) {
        for (QSpinBox *spin : {c.start, c.step, c.end})
            if (spin)
                connect(spin, &QSpinBox::valueChanged, this, &SetupPage::commit);
        connect(c.stepType, &QComboBox::currentIndexChanged, this, &SetupPage::commit);
    }
}

// The series' fields commit as they are edited; an axis's values preview as typed.
void SetupPage::connectSeriesFields()
{
    connect(m_seriesBox, &QGroupBox::toggled, this, [this] {
        updateEnabled();
        commit();
    });
    for (int a = 0; a < 2; ++a) {
        auto &axis = m_axes[std::size_t(a)];
        connect(axis.parameter, &QComboBox::currentIndexChanged, this, [this, a] {
            // Each parameter keeps its own text: switching back restores what was typed.
            auto &axis = m_axes[std::size_t(a)];
            const int p = axis.parameter->currentData().toInt();
            const QString text = m_axisTexts[std::size_t(a)][std::size_t(p)];
            axis.values->setText(
                text.isEmpty() ? defaultAxisText(static_cast<core::SweepParameter>(p)) : text);
            updatePreview(a);
            commit();
        });
        connect(axis.values, &QLineEdit::textChanged, this, [this, a](const QString &text) {
            auto &axis = m_axes[std::size_t(a)];
            m_axisTexts[std::size_t(a)][std::size_t(axis.parameter->currentData().toInt())] = text;
            updatePreview(a);
        });
        connect(axis.values, &QLineEdit::editingFinished, this, &SetupPage::commit);
    }
    connect(m_secondAxis, &QCheckBox::toggled, this, [this] {
        updateEnabled();
        commit();
    });
    connect(m_repeat, &QSpinBox::valueChanged, this, &SetupPage::commit);
    connect(m_ios, &QLineEdit::editingFinished, this, &SetupPage::commit);
    connect(m_targetsInTurn, &QCheckBox::toggled, this, &SetupPage::commit);
    connect(m_stagger, &QLineEdit::editingFinished, this, &SetupPage::commit);
}

// The engine's choice goes out (to the settings); the document's changes come in.
void SetupPage::connectDocument()
{
    connect(m_engine, &QComboBox::currentIndexChanged, this, [this] {
        updatePollingEnabled();
        emit engineChanged(engine());
    });
    connect(m_reapBatch, &QSpinBox::valueChanged, this,
        [this](int value) { emit reapBatchChanged(std::uint32_t(value)); });
    for (QCheckBox *box : {m_pollCompletions, m_pollSubmissions})
        if (box)
            connect(box, &QCheckBox::toggled, this, [this] { emit pollingChanged(polling()); });
    connect(m_document, &ProfileDocument::profileReset, this, [this] {
        // A new profile (a preset, an opened file) brings its own description: shown even
        // while the field has the focus, or leaving the field would write the previous
        // profile's text back into this one (and into its CSV).
        m_loading = true;
        m_description->setText(toQString(m_document->profile().setup.description));
        m_loading = false;
        load();
    });
    connect(m_document, &ProfileDocument::problemsChanged, this, &SetupPage::load);
}

QWidget *SetupPage::makeTestBox()
{
    auto *testBox = new QGroupBox(tr("Test"), this);
    auto *form = new QFormLayout(testBox);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    m_description->setToolTip(tr("A note saved with the profile and the results"));
    form->addRow(tr("&Description:"), m_description);
    // The description is the user's words and is kept as typed; the facts it would
    // otherwise have to repeat (sizes, times, targets) are shown here, made from the
    // profile on every change, so they cannot go stale as a typed sentence would.
    m_facts = new QLabel(testBox);
    m_facts->setObjectName(QStringLiteral("factsLabel"));
    m_facts->setWordWrap(true);
    m_facts->setTextFormat(Qt::PlainText); // paths and names are not markup
    m_facts->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_facts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_facts->setToolTip(tr("What the profile runs, from its settings as they are now (shown "
                           "beside the description in reports; not saved in it)"));
    form->addRow(tr("Runs:"), m_facts);
    m_facts->installEventFilter(this);
    m_runTime->setMaximumWidth(160);
    form->addRow(tr("&Run time per step:"), m_runTime);
    m_rampUp->setMaximumWidth(160);
    form->addRow(tr("R&amp-up time:"), m_rampUp);
    m_passes = new QSpinBox(testBox);
    m_passes->setObjectName(QStringLiteral("passes"));
    // Wider than core allows, so that a profile's bad count is shown (and marked) as it is.
    m_passes->setRange(0, 1000);
    m_passes->setMaximumWidth(100);
    m_passes->setToolTip(passesHelp());
    m_pause = new QLineEdit(QStringLiteral("0s"), testBox);
    m_pause->setObjectName(QStringLiteral("pauseBetweenTests"));
    m_pause->setMaximumWidth(100);
    m_pause->setToolTip(pauseHelp());
    auto *passRow = new QHBoxLayout;
    passRow->addWidget(m_passes);
    auto *pauseLabel = new QLabel(tr("pa&use between tests:"), testBox);
    pauseLabel->setBuddy(m_pause);
    passRow->addWidget(pauseLabel);
    passRow->addWidget(m_pause);
    passRow->addStretch();
    auto *passesLabel = new QLabel(tr("&Passes per test:"), testBox);
    passesLabel->setBuddy(m_passes);
    form->addRow(passesLabel, passRow);
    m_interval->setEditable(true);
    for (const char *v : {"100ms", "250ms", "500ms", "1s", "2s", "5s", "10s", "30s", "60s"})
        m_interval->addItem(QLatin1String(v));
    m_interval->setMaximumWidth(160);
    form->addRow(tr("&Sampling interval:"), m_interval);
    m_record->addItem(tr("All: workers and targets"), int(core::RecordFilter::All));
    m_record->addItem(tr("No targets"), int(core::RecordFilter::NoTargets));
    m_record->addItem(tr("No workers"), int(core::RecordFilter::NoWorkers));
    m_record->addItem(
        tr("Only All (no targets, no workers)"), int(core::RecordFilter::NoTargetsNoWorkers));
    m_record->addItem(tr("None"), int(core::RecordFilter::None));
    m_record->setToolTip(
        tr("Which rows the Iometer-layout CSV records (Iometer's \"Record Results\")"));
    form->addRow(tr("Record &results:"), m_record);
    auto *seedRow = new QHBoxLayout;
    seedRow->addWidget(m_fixedSeed);
    m_fixedSeed->setToolTip(tr("Repeatable runs: every worker uses this seed. Unticked: each "
                               "worker draws a random seed per run (recorded in the results)."));
    m_seed->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{1,20}")), m_seed));
    m_seed->setMaximumWidth(220);
    m_seed->setToolTip(tr("The seed, a whole number"));
    seedRow->addWidget(m_seed);
    seedRow->addStretch();
    form->addRow(tr("Seed:"), seedRow);
    return testBox;
}

QWidget *SetupPage::makeCyclingBox()
{
    auto *box = new QGroupBox(tr("Cycling (Iometer)"), this);
    auto *layout = new QVBoxLayout(box);
    auto *typeRow = new QFormLayout;
    m_testType = new QComboBox(box);
    m_testType->setObjectName(QStringLiteral("testType"));
    const std::pair<core::TestType, QString> types[] = {
        {core::TestType::Normal, tr("Normal")},
        {core::TestType::CycleTargets, tr("Cycle targets")},
        {core::TestType::CycleWorkers, tr("Cycle workers")},
        {core::TestType::IncrementTargetsParallel, tr("Increment targets parallel")},
        {core::TestType::IncrementTargetsSerial, tr("Increment targets serial")},
        {core::TestType::CycleWorkersAndTargets, tr("Cycle workers and targets")},
        {core::TestType::CycleOutstandingIos, tr("Cycle outstanding I/Os")},
        {core::TestType::CycleOutstandingIosAndTargets, tr("Cycle outstanding I/Os and targets")},
    };
    for (const auto &[type, name] : types)
        m_testType->addItem(name, int(type));
    m_testType->setToolTip(testTypeHelp());
    typeRow->addRow(tr("Test &type:"), m_testType);
    layout->addLayout(typeRow);

    auto *grid = new QGridLayout;
    grid->addWidget(new QLabel(tr("Start"), box), 0, 1);
    grid->addWidget(new QLabel(tr("Step"), box), 0, 2);
    grid->addWidget(new QLabel(tr("End"), box), 0, 3);
    grid->addWidget(new QLabel(tr("Step type"), box), 0, 4);
    const std::array<QString, CyclingCount> names
        = {tr("Workers:"), tr("Targets:"), tr("Outstanding I/Os:")};
    const std::array<const char *, CyclingCount> ids
        = {"workerCycling", "targetCycling", "queueDepthCycling"};
    for (int c = 0; c < CyclingCount; ++c) {
        auto &f = m_cycling[std::size_t(c)];
        auto *label = new QLabel(names[std::size_t(c)], box);
        m_cyclingLabels[std::size_t(c)] = label;
        grid->addWidget(label, c + 1, 0);
        const QString id = QLatin1String(ids[std::size_t(c)]);
        f.start = cyclingSpin(box, cyclingStartHelp(c));
        f.start->setObjectName(id + QStringLiteral(".start"));
        label->setBuddy(f.start);
        grid->addWidget(f.start, c + 1, 1);
        f.step = cyclingSpin(box, cyclingStepHelp(c));
        f.step->setObjectName(id + QStringLiteral(".step"));
        grid->addWidget(f.step, c + 1, 2);
        if (c == QueueDepthCycling) {
            f.end = cyclingSpin(box, cyclingEndHelp());
            f.end->setObjectName(id + QStringLiteral(".end"));
            grid->addWidget(f.end, c + 1, 3);
        } else {
            auto *all = new QLabel(tr("all"), box);
            all->setToolTip(tr("Worker and target cycling end when every %1 takes part: "
                               "the last step is all of them")
                                .arg(c == WorkerCycling ? tr("worker") : tr("target")));
            grid->addWidget(all, c + 1, 3);
        }
        f.stepType = new QComboBox(box);
        f.stepType->setObjectName(id + QStringLiteral(".stepType"));
        f.stepType->addItem(tr("linear (+ step)"), int(core::StepType::Linear));
        f.stepType->addItem(tr("exponential (× step)"), int(core::StepType::Exponential));
        f.stepType->setToolTip(tr("Linear adds the step each time (1, 2, 3 …); exponential "
                                  "multiplies by it (1, 2, 4 …)"));
        grid->addWidget(f.stepType, c + 1, 4);
    }
    grid->setColumnStretch(5, 1);
    layout->addLayout(grid);
    return box;
}

void SetupPage::addAxisRows(QFormLayout *form)
{
    const std::pair<core::SweepParameter, QString> parameters[] = {
        {core::SweepParameter::TransferSize, tr("Transfer size")},
        {core::SweepParameter::OutstandingIos, tr("Outstanding I/Os")},
        {core::SweepParameter::Workers, tr("Workers")},
        {core::SweepParameter::PercentRead, tr("% read")},
        {core::SweepParameter::PercentRandom, tr("% random")},
        {core::SweepParameter::Position, tr("Position (%)")},
    };
    static_assert(std::extent_v<decltype(parameters)> == core::kSweepParameterTraits.size(),
        "a label for every parameter");
    m_secondAxis = new QCheckBox(tr("Second a&xis (a matrix):"), m_seriesBox);
    m_secondAxis->setObjectName(QStringLiteral("secondAxis"));
    m_secondAxis->setToolTip(tr("Sweep a second parameter for every value of the first: a "
                                "matrix, shown as a heat map and a family of curves"));
    for (int a = 0; a < 2; ++a) {
        auto &axis = m_axes[std::size_t(a)];
        auto *row = new QHBoxLayout;
        axis.parameter = new QComboBox(m_seriesBox);
        axis.parameter->setObjectName(QStringLiteral("axis%1.parameter").arg(a));
        for (const auto &[p, name] : parameters)
            axis.parameter->addItem(name, int(p));
        axis.parameter->setToolTip(axisParameterHelp(a));
        axis.values = new QLineEdit(m_seriesBox);
        axis.values->setObjectName(QStringLiteral("axis%1.values").arg(a));
        axis.values->setPlaceholderText(QStringLiteral("512..16M:x2"));
        axis.values->setToolTip(axisValuesHelp());
        axis.preview = new QLabel(m_seriesBox);
        axis.preview->setObjectName(QStringLiteral("axis%1.preview").arg(a));
        axis.preview->setForegroundRole(QPalette::PlaceholderText);
        // One line: at most eight values are listed (the middle ones elided).
        axis.preview->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
        axis.preview->setToolTip(tr("The values this axis takes, in the order they run"));
        row->addWidget(axis.parameter);
        row->addWidget(axis.values, 1);
        const core::SweepParameter initial
            = a == 0 ? core::SweepParameter::TransferSize : core::SweepParameter::OutstandingIos;
        axis.parameter->setCurrentIndex(axis.parameter->findData(int(initial)));
        axis.values->setText(defaultAxisText(initial));
        m_axisTexts[std::size_t(a)][std::size_t(initial)] = axis.values->text();
        if (a == 0) {
            auto *label = new QLabel(tr("&First axis:"), m_seriesBox);
            label->setBuddy(axis.parameter);
            label->setToolTip(axis.parameter->toolTip());
            form->addRow(label, row);
        } else {
            form->addRow(m_secondAxis, row);
        }
        form->addRow(QString(), axis.preview);
    }
}

QWidget *SetupPage::makeSeriesBox()
{
    m_seriesBox = new QGroupBox(tr("Run a series (IOPrism)"), this);
    m_seriesBox->setObjectName(QStringLiteral("series"));
    m_seriesBox->setCheckable(true);
    m_seriesBox->setChecked(false);
    m_seriesBox->setToolTip(
        tr("Sweep one parameter (a curve) or two (a matrix): every point is a step of its own, "
           "for every access specification in turn. The Series page draws the curves and the "
           "heat map as the points finish."));
    auto *form = new QFormLayout(m_seriesBox);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);

    addAxisRows(form);

    m_repeat = new QSpinBox(m_seriesBox);
    m_repeat->setObjectName(QStringLiteral("repeat"));
    m_repeat->setRange(0, int(core::kMaxSeriesRepeat) * 10);
    m_repeat->setValue(1);
    m_repeat->setMaximumWidth(100);
    m_repeat->setToolTip(repeatHelp());
    form->addRow(tr("R&epetitions:"), m_repeat);

    m_ios = new QLineEdit(QStringLiteral("0"), m_seriesBox);
    m_ios->setObjectName(QStringLiteral("ios"));
    m_ios->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{1,19}")), m_ios));
    m_ios->setMaximumWidth(160);
    m_ios->setToolTip(iosHelp());
    form->addRow(tr("I/&Os per point:"), m_ios);

    m_targetsInTurn = new QCheckBox(tr("Each point on each target in &turn"), m_seriesBox);
    m_targetsInTurn->setObjectName(QStringLiteral("targetsInTurn"));
    m_targetsInTurn->setToolTip(
        tr("Run each point on one target at a time (target A, target B, then the next point): "
           "one curve per target, to compare devices or stacks in one run"));
    form->addRow(QString(), m_targetsInTurn);

    m_stagger = new QLineEdit(QStringLiteral("0s"), m_seriesBox);
    m_stagger->setObjectName(QStringLiteral("workerStagger"));
    m_stagger->setMaximumWidth(160);
    m_stagger->setToolTip(staggerHelp());
    form->addRow(tr("Worker sta&gger:"), m_stagger);
    return m_seriesBox;
}

core::EngineKind SetupPage::engine() const
{
    return static_cast<core::EngineKind>(m_engine->currentData().toInt());
}

bool SetupPage::setEngine(core::EngineKind engine)
{
    const int index = m_engine->findData(int(engine));
    if (index < 0)
        return false;
    m_engine->setCurrentIndex(index);
    return true;
}

// A word-wrapped label in the form is laid out for the width its size hint guesses, not
// the one it gets: a long line (eight specs) was cut off after a few lines. Its minimum
// height follows the width it has and its text, so every line shows.
bool SetupPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_facts && event->type() == QEvent::Resize)
        fitFacts();
    return QWidget::eventFilter(watched, event);
}

void SetupPage::fitFacts()
{
    // From the font, not QLabel::heightForWidth: that one never goes below the minimum
    // height set here, so a label once narrow stayed tall.
    const QMargins margins = m_facts->contentsMargins();
    const int width = m_facts->width() - margins.left() - margins.right() - 2 * m_facts->margin();
    if (width <= 0)
        return;
    const int flags = static_cast<int>(Qt::TextWordWrap | m_facts->alignment());
    const int height = m_facts->fontMetrics()
                           .boundingRect(QRect(0, 0, width, 1 << 20), flags, m_facts->text())
                           .height()
        + margins.top() + margins.bottom() + 2 * m_facts->margin();
    if (height != m_facts->minimumHeight())
        m_facts->setMinimumHeight(height);
}

QString SetupPage::planText() const
{
    return m_plan->text();
}

void SetupPage::load()
{
    m_loading = true;
    const auto &setup = m_document->profile().setup;
    if (!m_description->hasFocus())
        m_description->setText(toQString(setup.description));
    if (!m_runTime->hasFocus())
        m_runTime->setText(durationText(setup.runTime));
    if (!m_rampUp->hasFocus())
        m_rampUp->setText(durationText(setup.rampUp));
    if (m_passes->value() != int(setup.passes)) {
        const QSignalBlocker block(m_passes);
        m_passes->setValue(int(std::min<std::uint32_t>(setup.passes, 1000)));
    }
    if (!m_pause->hasFocus())
        m_pause->setText(durationText(setup.pauseBetweenTests));
    if (!m_interval->hasFocus()) {
        const QSignalBlocker block(m_interval);
        m_interval->setCurrentText(durationText(setup.interval));
    }
    {
        const QSignalBlocker block(m_record);
        m_record->setCurrentIndex(m_record->findData(int(setup.recordFilter)));
    }
    // The seed lives on each worker; this page shows it when they all share one. Every
    // manager's workers, as the page sets them (not only those of the host edited).
    std::optional<std::uint64_t> common;
    bool same = true, first = true;
    for (const auto &host : m_document->profile().hosts)
        for (const auto &worker : host.workers) {
            if (first)
                common = worker.seed;
            else if (worker.seed != common)
                same = false;
            first = false;
        }
    {
        const QSignalBlocker block(m_fixedSeed);
        m_fixedSeed->setTristate(!same);
        m_fixedSeed->setCheckState(
            !same ? Qt::PartiallyChecked : (common ? Qt::Checked : Qt::Unchecked));
    }
    m_seed->setEnabled(same && common.has_value());
    if (!m_seed->hasFocus())
        m_seed->setText(same && common ? QString::number(*common) : QString());

    m_facts->setText(toQString(core::describeRun(m_document->profile())));
    fitFacts();
    markField(m_description, m_document->problemsAt("setup.description"),
        tr("A note saved with the profile and the results"));
    markField(m_runTime, m_document->problemsAt("setup.runTime"), runTimeHelp());
    markField(m_rampUp, m_document->problemsAt("setup.rampUp"), rampHelp());
    markField(m_passes, m_document->problemsAt("setup.passes"), passesHelp());
    markField(m_pause, m_document->problemsAt("setup.pauseBetweenTests"), pauseHelp());
    markField(m_interval, m_document->problemsAt("setup.interval"), intervalHelp());
    loadCycling();
    loadSeries();
    m_steadyBox->load(
        setup.steadyState, [this](std::string_view path) { return m_document->problemsAt(path); });
    m_preconditionBox->load(
        setup.precondition, [this](std::string_view path) { return m_document->problemsAt(path); });
    updateEnabled();
    updatePlan();
    m_loading = false;
}

void SetupPage::loadCycling()
{
    const auto &setup = m_document->profile().setup;
    {
        const QSignalBlocker block(m_testType);
        m_testType->setCurrentIndex(m_testType->findData(int(setup.testType)));
    }
    // A series with a cycling type is refused at the series' axes: say it here too.
    core::Problems typeProblems = m_document->problemsAt("setup.testType");
    if (setup.series && setup.testType != core::TestType::Normal)
        typeProblems = concat(typeProblems, m_document->problemsAt("setup.series.axes", false));
    markField(m_testType, typeProblems, testTypeHelp());

    const std::array<const core::Cycling *, CyclingCount> values
        = {&setup.workerCycling, &setup.targetCycling, &setup.queueDepthCycling};
    const std::array<const char *, CyclingCount> paths
        = {"setup.workerCycling", "setup.targetCycling", "setup.queueDepthCycling"};
    for (std::size_t c = 0; c < CyclingCount; ++c) {
        const auto &f = m_cycling[c];
        const core::Cycling &v = *values[c];
        const std::string path = paths[c];
        const auto setSpin
            = [&](QSpinBox *spin, std::uint32_t value, const char *field, const QString &help) {
                  if (!spin)
                      return;
                  const int shown = static_cast<int>(std::min<std::uint32_t>(value, 1'000'000));
                  if (spin->value() != shown) {
                      const QSignalBlocker block(spin);
                      spin->setValue(shown);
                  }
                  markField(spin, m_document->problemsAt(path + "." + field), help);
              };
        setSpin(f.start, v.start, "start", cyclingStartHelp(int(c)));
        setSpin(f.step, v.step, "step", cyclingStepHelp(int(c)));
        setSpin(f.end, v.end, "end", cyclingEndHelp());
        const QSignalBlocker block(f.stepType);
        f.stepType->setCurrentIndex(f.stepType->findData(int(v.stepType)));
    }
}

void SetupPage::loadSeries()
{
    const auto &series = m_document->profile().setup.series;
    {
        const QSignalBlocker block(m_seriesBox);
        m_seriesBox->setChecked(series.has_value());
    }
    if (series) {
        for (std::size_t a = 0; a < 2 && a < series->axes.size(); ++a) {
            const auto &axis = m_axes[a];
            const core::SweepAxis &value = series->axes[a];
            {
                const QSignalBlocker block(axis.parameter);
                axis.parameter->setCurrentIndex(axis.parameter->findData(int(value.parameter)));
            }
            if (!axis.values->hasFocus())
                axis.values->setText(axisText(value));
        }
        {
            const QSignalBlocker block(m_secondAxis);
            m_secondAxis->setChecked(series->axes.size() >= 2);
        }
        if (m_repeat->value() != int(series->repeat)) {
            const QSignalBlocker block(m_repeat);
            m_repeat->setValue(int(std::min<std::uint32_t>(series->repeat, 10'000)));
        }
        if (!m_ios->hasFocus())
            m_ios->setText(QString::number(series->ios));
        {
            const QSignalBlocker block(m_targetsInTurn);
            m_targetsInTurn->setChecked(series->targetsInTurn);
        }
        if (!m_stagger->hasFocus())
            m_stagger->setText(durationText(series->workerStagger));
    }
    // Problems of an axis show on its values, its parameter's on the combo; the series'
    // own (too many steps) on the repetitions, which multiply them.
    for (int a = 0; a < 2; ++a) {
        const std::string path = "setup.series.axes[" + std::to_string(a) + "]";
        core::Problems problems = without(m_document->problemsAt(path), ".parameter");
        if (a == 0)
            problems = concat(problems, m_document->problemsAt("setup.series.axes", false));
        const auto &axis = m_axes[std::size_t(a)];
        markField(axis.values, problems, axisValuesHelp());
        markField(
            axis.parameter, m_document->problemsAt(path + ".parameter"), axisParameterHelp(a));
        updatePreview(a);
    }
    markField(m_repeat,
        concat(m_document->problemsAt("setup.series.repeat"),
            m_document->problemsAt("setup.series", false)),
        repeatHelp());
    markField(m_ios, m_document->problemsAt("setup.series.ios"), iosHelp());
    markField(m_stagger, m_document->problemsAt("setup.series.workerStagger"), staggerHelp());
}

void SetupPage::updateEnabled()
{
    const auto type = static_cast<core::TestType>(m_testType->currentData().toInt());
    const std::array<bool, CyclingCount> used
        = {usesWorkerCycling(type), usesTargetCycling(type), usesQueueDepthCycling(type)};
    for (std::size_t c = 0; c < CyclingCount; ++c) {
        const auto &f = m_cycling[c];
        for (QWidget *w : std::initializer_list<QWidget *> {f.start, f.step, f.end, f.stepType})
            if (w)
                w->setEnabled(used[c]);
        m_cyclingLabels[c]->setEnabled(used[c]);
    }
    // A series repeats its points as trials (Repetitions), never in passes.
    m_passes->setEnabled(!m_seriesBox->isChecked() || m_passes->value() > 1);
    const bool second = m_secondAxis->isChecked();
    m_axes[1].parameter->setEnabled(second);
    m_axes[1].values->setEnabled(second);
    m_axes[1].preview->setVisible(second);
}

void SetupPage::updatePreview(int a)
{
    const auto &axis = m_axes[std::size_t(a)];
    const auto parameter = static_cast<core::SweepParameter>(axis.parameter->currentData().toInt());
    std::string error;
    const auto parsed = core::parseSweep(
        cliName(parameter) + "=" + toStdString(axis.values->text().trimmed()), error);
    if (!parsed) {
        axis.preview->setText(tr("Not readable: %1").arg(toQString(error)));
        return;
    }
    const auto values = core::sweepValues(*parsed);
    if (values.empty()) {
        axis.preview->setText(tr("No value: see the field's tooltip"));
        return;
    }
    QStringList shown;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (values.size() > 8 && i == 3) {
            shown << QStringLiteral("…");
            i = values.size() - 2;
            continue;
        }
        // A value is never broken over two lines ("1 KiB").
        shown << sweepValueText(parameter, values[i]).replace(QLatin1Char(' '), QChar::Nbsp);
    }
    axis.preview->setText(
        tr("%n values: %1", nullptr, int(values.size())).arg(shown.join(QStringLiteral(", "))));
}

void SetupPage::updatePlan()
{
    const core::Profile &profile = m_document->profile();
    const auto steps = core::plannedSteps(profile);
    const auto &setup = profile.setup;
    if (steps.empty()) {
        m_plan->setText(tr("Nothing to run yet: give a worker a target and an access "
                           "specification (the problems are marked where they are)."));
        return;
    }
    const std::size_t n = steps.size();
    const QString count = tr("%n steps", nullptr, int(n));
    QString how;
    if (setup.series && setup.series->ios > 0) {
        how = tr("%1, each until its I/Os are done (%2 per worker and target)")
                  .arg(count, QLocale().toString(static_cast<qulonglong>(setup.series->ios)));
        if (setup.rampUp.count() > 0)
            how += tr(" after a %1 ramp-up").arg(durationText(setup.rampUp));
    } else if (setup.steadyState) {
        // Steady state ends a step at its first steady window: the round limit bounds it.
        const core::SteadyStateSetup &steady = *setup.steadyState;
        // In floating point: an invalid profile's round (marked) must not overflow here.
        const double mostSeconds
            = (double(setup.rampUp.count())
                  + double(steady.roundTime.count()) / 1e3 * double(steady.criteria.roundLimit))
            * double(n);
        const std::chrono::seconds most {std::llround(std::clamp(mostSeconds, 0.0, 9e15))};
        how = tr("%1, each until steady (at most %2 rounds of %3%4): %5 at most")
                  .arg(count, QLocale().toString(qulonglong(steady.criteria.roundLimit)),
                      durationText(steady.roundTime),
                      setup.rampUp.count() > 0
                          ? tr(", after a %1 ramp-up").arg(durationText(setup.rampUp))
                          : QString(),
                      durationText(most));
    } else if (setup.runTime.count() == 0) {
        how = tr("%1, each until you press Stop").arg(count);
    } else {
        const std::chrono::seconds total {
            (setup.runTime + setup.rampUp).count() * static_cast<std::chrono::seconds::rep>(n)};
        how = setup.rampUp.count() > 0
            ? tr("%1 × (%2 ramp-up + %3) = %4")
                  .arg(count, durationText(setup.rampUp), durationText(setup.runTime),
                      durationText(total))
            : tr("%1 × %2 = %3").arg(count, durationText(setup.runTime), durationText(total));
    }
    if (setup.series && setup.series->workerStagger.count() > 0)
        how += tr(", plus the worker stagger");
    const std::uint32_t passes = setup.passesPerTest();
    const std::size_t tests = (n + passes - 1) / passes;
    if (passes > 1)
        how += tr(" (%1 tests of %2 passes each)").arg(tests).arg(passes);
    if (setup.pauseBetweenTests.count() > 0 && tests > 1)
        how += tr(", plus %n pauses of %1 between tests (%2)", nullptr, int(tests - 1))
                   .arg(durationText(setup.pauseBetweenTests),
                       durationText(setup.pauseBetweenTests * std::int64_t(tests - 1)));
    if (setup.series) {
        const std::size_t points = core::seriesPointCount(*setup.series);
        const std::size_t perSpec = points * setup.series->repeat;
        if (perSpec > 0 && n % perSpec == 0) {
            const std::size_t specs = n / perSpec;
            how += tr(": %1 × %2 × %3")
                       .arg(tr("%n points", nullptr, int(points)),
                           tr("%n trials", nullptr, int(setup.series->repeat)),
                           tr("%n access specifications", nullptr, int(specs)));
        }
    }
    m_plan->setText(preconditionPlanText(profile) + tr("Start runs %1").arg(how));
}

// What preconditioning adds before the steps, with the amount when every target's size
// is known before it is prepared (test files, regions): the time is the drive's.
QString SetupPage::preconditionPlanText(const core::Profile &profile)
{
    const auto &pre = profile.setup.precondition;
    if (!pre)
        return {};
    if (pre->forATime())
        return tr("First it preconditions the targets with the first step's workload for %1. ")
            .arg(durationText(pre->time));
    std::map<std::string, std::uint64_t> sizes;
    bool known = true;
    for (const auto &host : profile.hosts)
        for (const auto &worker : host.workers)
            for (const auto &t : worker.targets) {
                const std::uint64_t size = t.region.sizeBytes > 0 ? t.region.sizeBytes
                    : t.kind == core::TargetKind::TestFile        ? t.testFileSizeBytes
                                                                  : 0;
                known = known && size > 0;
                sizes[t.path] = size;
            }
    std::uint64_t bytes = 0;
    for (const auto &[path, size] : sizes)
        bytes += size;
    const QString what = pre->kind == core::PreconditionKind::Sequential
        ? tr("128 KiB sequential writes")
        : tr("the first step's workload");
    const QString multiple = QLocale().toString(pre->capacityMultiple, 'g', 3);
    if (!known || bytes == 0)
        return tr("First it preconditions every target with %1, %2× its capacity (on a 1 TB "
                  "drive at 1 GB/s, 2× is 35 minutes). ")
            .arg(what, multiple);
    return tr("First it preconditions every target with %1, %2× its capacity: %3. ")
        .arg(what, multiple,
            capacityText(std::uint64_t(std::min(9e18, double(bytes) * pre->capacityMultiple))));
}

bool SetupPage::readSeries(core::Series &series)
{
    bool readable = true;
    const int axes = m_secondAxis->isChecked() ? 2 : 1;
    for (int a = 0; a < axes; ++a) {
        const auto &axis = m_axes[std::size_t(a)];
        const auto parameter
            = static_cast<core::SweepParameter>(axis.parameter->currentData().toInt());
        std::string error;
        const auto parsed = core::parseSweep(
            cliName(parameter) + "=" + toStdString(axis.values->text().trimmed()), error);
        if (!parsed) {
            markUnreadable(axis.values, toQString(error), axisValuesHelp());
            readable = false;
            continue;
        }
        if (series.axes.size() <= std::size_t(a))
            series.axes.resize(std::size_t(a) + 1);
        series.axes[std::size_t(a)] = *parsed;
    }
    if (series.axes.size() > std::size_t(axes))
        series.axes.resize(std::size_t(axes));
    series.repeat = static_cast<std::uint32_t>(m_repeat->value());
    bool ok = false;
    const QString ios = m_ios->text().trimmed();
    const qulonglong count = ios.isEmpty() ? 0 : ios.toULongLong(&ok);
    if (ios.isEmpty() || ok)
        series.ios = count;
    else {
        markUnreadable(m_ios, tr("\"%1\" is not a whole number").arg(ios), iosHelp());
        readable = false;
    }
    series.targetsInTurn = m_targetsInTurn->isChecked();
    const auto stagger = core::parseDuration(
        toStdString(m_stagger->text().trimmed()), core::DurationUnit::Milliseconds);
    if (stagger && stagger->count() % 1000 == 0)
        series.workerStagger = std::chrono::duration_cast<std::chrono::milliseconds>(*stagger);
    else {
        markUnreadable(m_stagger,
            tr("\"%1\" is not a whole number of milliseconds (e.g. 500ms, 5s)")
                .arg(m_stagger->text()),
            staggerHelp());
        readable = false;
    }
    return readable;
}

void SetupPage::commit()
{
    if (m_loading)
        return;
    auto &profile = m_document->mutableProfile();
    core::TestSetup setup = profile.setup;
    setup.description = toStdString(m_description->text());
    auto seconds = [&](QLineEdit *field, std::chrono::seconds &out, const QString &help) {
        const auto d = core::parseDuration(
            toStdString(field->text().trimmed()), core::DurationUnit::Seconds);
        if (!d || d->count() % 1'000'000 != 0) {
            markUnreadable(field,
                tr("\"%1\" is not a whole number of seconds (e.g. 30, 90s, 1m30s)")
                    .arg(field->text()),
                help);
            return;
        }
        out = std::chrono::duration_cast<std::chrono::seconds>(*d);
    };
    seconds(m_runTime, setup.runTime, runTimeHelp());
    seconds(m_rampUp, setup.rampUp, rampHelp());
    setup.passes = static_cast<std::uint32_t>(m_passes->value());
    seconds(m_pause, setup.pauseBetweenTests, pauseHelp());
    const auto interval = core::parseDuration(
        toStdString(m_interval->currentText().trimmed()), core::DurationUnit::Seconds);
    if (interval && interval->count() % 1000 == 0)
        setup.interval = std::chrono::duration_cast<std::chrono::milliseconds>(*interval);
    else
        markUnreadable(m_interval,
            tr("\"%1\" is not a duration (e.g. 100ms, 1s)").arg(m_interval->currentText()),
            intervalHelp());
    setup.recordFilter = static_cast<core::RecordFilter>(m_record->currentData().toInt());

    setup.testType = static_cast<core::TestType>(m_testType->currentData().toInt());
    const std::array<core::Cycling *, CyclingCount> cyclings
        = {&setup.workerCycling, &setup.targetCycling, &setup.queueDepthCycling};
    for (std::size_t c = 0; c < CyclingCount; ++c) {
        const auto &f = m_cycling[c];
        core::Cycling &v = *cyclings[c];
        v.start = static_cast<std::uint32_t>(f.start->value());
        v.step = static_cast<std::uint32_t>(f.step->value());
        if (f.end)
            v.end = static_cast<std::uint32_t>(f.end->value());
        v.stepType = static_cast<core::StepType>(f.stepType->currentData().toInt());
    }

    if (m_seriesBox->isChecked()) {
        core::Series series = setup.series.value_or(core::Series {});
        readSeries(series);
        setup.series = std::move(series);
    } else {
        setup.series.reset();
    }
    m_steadyBox->read(setup.steadyState);
    m_preconditionBox->read(setup.precondition);

    bool changed = !(setup == profile.setup);
    profile.setup = setup;
    if (m_fixedSeed->checkState() != Qt::PartiallyChecked) {
        std::optional<std::uint64_t> seed;
        if (m_fixedSeed->isChecked() && !m_seed->text().isEmpty())
            seed = m_seed->text().toULongLong();
        for (auto &host : profile.hosts)
            for (auto &worker : host.workers)
                if (worker.seed != seed) {
                    worker.seed = seed;
                    changed = true;
                }
    }
    if (changed)
        m_document->commitValues(this);
}

} // namespace ioprism::ui
