#include "ui/pages/setup_page.h"

#include "core/profile/units.h"
#include "ui/editors/field_marks.h"
#include "ui/format.h"
#include "ui/models/profile_document.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QVBoxLayout>

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
QString intervalHelp()
{
    return SetupPage::tr(
        "How often the live figures and the time series are sampled: 100ms to 60s");
}

} // namespace

SetupPage::SetupPage(ProfileDocument *document, QWidget *parent)
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
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(12, 12, 12, 12);

    auto *testBox = new QGroupBox(tr("Test"), this);
    auto *form = new QFormLayout(testBox);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    m_description->setToolTip(tr("A note saved with the profile and the results"));
    form->addRow(tr("&Description:"), m_description);
    m_runTime->setMaximumWidth(160);
    form->addRow(tr("&Run time per step:"), m_runTime);
    m_rampUp->setMaximumWidth(160);
    form->addRow(tr("R&amp-up time:"), m_rampUp);
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
    outer->addWidget(testBox);

    auto *engineBox = new QGroupBox(tr("Engine (this computer)"), this);
    auto *engineForm = new QFormLayout(engineBox);
    m_engine->addItem(tr("Automatic: io_uring, else sync"), int(core::EngineKind::Auto));
    m_engine->addItem(tr("io_uring only"), int(core::EngineKind::IoUring));
    m_engine->addItem(tr("sync: pread/pwrite threads"), int(core::EngineKind::Sync));
    m_engine->addItem(tr("null: no I/O (IOPrism's own overhead)"), int(core::EngineKind::Null));
    m_engine->setToolTip(
        tr("How I/O is issued. Saved with the application's settings, not in the profile."));
    engineForm->addRow(tr("&I/O engine:"), m_engine);
    outer->addWidget(engineBox);
    auto *note
        = new QLabel(tr("Iometer's cycling test types (workers, targets, queue depth) are kept "
                        "in profiles and .icf files; this version runs them as a normal test."),
            this);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    outer->addWidget(note);
    outer->addStretch();

    connect(m_description, &QLineEdit::editingFinished, this, &SetupPage::commit);
    connect(m_runTime, &QLineEdit::editingFinished, this, &SetupPage::commit);
    connect(m_rampUp, &QLineEdit::editingFinished, this, &SetupPage::commit);
    connect(m_interval, &QComboBox::currentTextChanged, this, &SetupPage::commit);
    connect(m_record, &QComboBox::currentIndexChanged, this, &SetupPage::commit);
    connect(m_fixedSeed, &QCheckBox::toggled, this, [this](bool on) {
        m_seed->setEnabled(on);
        if (on && m_seed->text().isEmpty())
            m_seed->setText(QStringLiteral("1"));
        commit();
    });
    connect(m_seed, &QLineEdit::editingFinished, this, &SetupPage::commit);
    connect(
        m_engine, &QComboBox::currentIndexChanged, this, [this] { emit engineChanged(engine()); });
    connect(document, &ProfileDocument::profileReset, this, &SetupPage::load);
    connect(document, &ProfileDocument::problemsChanged, this, &SetupPage::load);
    load();
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
    if (!m_interval->hasFocus()) {
        const QSignalBlocker block(m_interval);
        m_interval->setCurrentText(durationText(setup.interval));
    }
    {
        const QSignalBlocker block(m_record);
        m_record->setCurrentIndex(m_record->findData(int(setup.recordFilter)));
    }
    // The seed lives on each worker; this page shows it when they all share one.
    std::optional<std::uint64_t> common;
    bool same = true, first = true;
    for (int w = 0; w < m_document->workerCount(); ++w) {
        const auto &seed = m_document->worker(w)->seed;
        if (first)
            common = seed;
        else if (seed != common)
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

    markField(m_description, m_document->problemsAt("setup.description"),
        tr("A note saved with the profile and the results"));
    markField(m_runTime, m_document->problemsAt("setup.runTime"), runTimeHelp());
    markField(m_rampUp, m_document->problemsAt("setup.rampUp"), rampHelp());
    markField(m_interval, m_document->problemsAt("setup.interval"), intervalHelp());
    m_loading = false;
}

void SetupPage::commit()
{
    if (m_loading)
        return;
    auto &profile = m_document->mutableProfile();
    core::TestSetup setup = profile.setup;
    setup.description = toStdString(m_description->text());
    bool readable = true;
    auto seconds = [&](QLineEdit *field, std::chrono::seconds &out, const QString &help) {
        const auto d = core::parseDuration(
            toStdString(field->text().trimmed()), core::DurationUnit::Seconds);
        if (!d || d->count() % 1'000'000 != 0) {
            markUnreadable(field,
                tr("\"%1\" is not a whole number of seconds (e.g. 30, 90s, 1m30s)")
                    .arg(field->text()),
                help);
            readable = false;
            return;
        }
        out = std::chrono::duration_cast<std::chrono::seconds>(*d);
    };
    seconds(m_runTime, setup.runTime, runTimeHelp());
    seconds(m_rampUp, setup.rampUp, rampHelp());
    const auto interval = core::parseDuration(
        toStdString(m_interval->currentText().trimmed()), core::DurationUnit::Seconds);
    if (interval && interval->count() % 1000 == 0)
        setup.interval = std::chrono::duration_cast<std::chrono::milliseconds>(*interval);
    else {
        markUnreadable(m_interval,
            tr("\"%1\" is not a duration (e.g. 100ms, 1s)").arg(m_interval->currentText()),
            intervalHelp());
        readable = false;
    }
    setup.recordFilter = static_cast<core::RecordFilter>(m_record->currentData().toInt());

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
    if (changed) {
        m_document->commitValues(this);
    }
    (void)readable;
}

} // namespace ioprism::ui
