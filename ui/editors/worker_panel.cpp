// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editors/worker_panel.h"

#include "core/profile/depth.h"
#include "core/profile/validation.h"
#include "ui/editors/editors.h"
#include "ui/editors/field_marks.h"
#include "ui/format.h"
#include "ui/icons.h"
#include "ui/models/profile_document.h"
#include "ui/models/topology_model.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace ioprism::ui {

QString WorkerPanel::depthNoteText(const core::Worker &worker) const
{
    const auto &profile = m_document->profile();
    const auto &setup = profile.setup;
    QStringList lines;
    // The precedence is core's (core/profile/depth.h): cycling (which a series replaces)
    // or a series point, then the spec's queue depth, then the target's, then the worker's.
    if (!setup.series && core::isDepthCyclingTestType(setup.testType)) {
        lines << tr("Every step: Iometer's cycling sets the depth, %1 to %2 (Test Setup).")
                     .arg(setup.queueDepthCycling.start)
                     .arg(setup.queueDepthCycling.end);
    } else {
        bool overridden = false;
        for (const auto &name : worker.assignedSpecs) {
            const auto *spec = core::findSpec(profile, name);
            if (!spec)
                continue;
            const core::EffectiveDepth depth = core::configuredDepth(spec, worker, nullptr);
            if (depth.source == core::DepthSource::Spec) {
                overridden = overridden || depth.outstandingIos != worker.outstandingIos;
                lines << tr("\"%1\" runs at %n outstanding I/Os: the spec's queue depth.", nullptr,
                    int(depth.outstandingIos))
                             .arg(toQString(name));
            } else {
                lines << tr("\"%1\" runs at %n outstanding I/Os: this worker's value.", nullptr,
                    int(depth.outstandingIos))
                             .arg(toQString(name));
            }
        }
        if (!overridden)
            return {};
    }
    if (setup.series)
        lines << tr("A series may set the depth of its points (Test Setup).");
    for (const auto &t : worker.targets)
        if (t.outstandingIos) {
            lines << tr("Targets with their own value use it where no spec sets one.");
            break;
        }
    return lines.join(QLatin1Char('\n'));
}

bool parseCpuList(const QString &text, std::vector<std::uint32_t> &cpus)
{
    cpus.clear();
    const QStringList parts = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &raw : parts) {
        const QString part = raw.trimmed();
        bool ok1 = false, ok2 = false;
        const qsizetype dash = part.indexOf(QLatin1Char('-'));
        if (dash < 0) {
            const uint cpu = part.toUInt(&ok1);
            if (!ok1)
                return false;
            cpus.push_back(cpu);
            continue;
        }
        const uint first = part.left(dash).trimmed().toUInt(&ok1);
        const uint last = part.mid(dash + 1).trimmed().toUInt(&ok2);
        if (!ok1 || !ok2 || last < first || last - first > 4096)
            return false;
        for (uint cpu = first; cpu <= last; ++cpu)
            cpus.push_back(cpu);
    }
    return true;
}

QString cpuListText(const std::vector<std::uint32_t> &cpus)
{
    QStringList parts;
    std::size_t i = 0;
    while (i < cpus.size()) {
        std::size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1)
            ++j;
        parts << (j > i + 1 ? QStringLiteral("%1-%2").arg(cpus[i]).arg(cpus[j])
                            : QString::number(cpus[i]));
        if (j == i + 1)
            parts << QString::number(cpus[j]);
        i = j + 1;
    }
    return parts.join(QLatin1Char(','));
}

WorkerPanel::WorkerPanel(ProfileDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_model(new TopologyModel(document, this))
    , m_tree(new QTreeView(this))
    , m_add(new QToolButton(this))
    , m_duplicate(new QToolButton(this))
    , m_remove(new QToolButton(this))
    , m_settings(new QGroupBox(this))
    , m_name(new QLineEdit(this))
    , m_outstanding(new QSpinBox(this))
    , m_depthNote(new QLabel(this))
    , m_affinity(new QLineEdit(this))
    , m_seed(new QLineEdit(this))
    , m_pattern(new DataPatternEditor(false, this))
    , m_regionStart(new SizeEditor(this))
    , m_regionSize(new SizeEditor(this))
    , m_connectionRate(new QCheckBox(tr("Test co&nnection rate"), this))
    , m_transactions(new QSpinBox(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    m_tree->setModel(m_model);
    m_tree->setHeaderHidden(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::DoubleClicked);
    m_tree->setToolTip(tr("The managers (this host first), their workers and each worker's "
                          "targets. Select a manager or one of its workers to edit that "
                          "manager's workers; select a worker to edit its targets, specs and "
                          "settings."));
    m_tree->expandAll();
    layout->addWidget(m_tree, 2);
    layout->addLayout(makeButtons());
    makeSettingsForm();
    layout->addWidget(m_settings, 1);

    connectTopology();
    connectSettings();
    setCurrentWorker(document->workerCount() > 0 ? 0 : -1);
}

// Add, Duplicate and Remove under the tree.
QHBoxLayout *WorkerPanel::makeButtons()
{
    auto *buttons = new QHBoxLayout;
    auto setup = [&](QToolButton *b, IconId id, const QString &text, const QString &tip) {
        b->setIcon(icon(id));
        b->setText(text);
        b->setToolTip(tip);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        buttons->addWidget(b);
    };
    setup(m_add, IconId::Add, tr("Add"),
        tr("Add a disk worker (a thread that runs I/O on its targets) to the selected manager"));
    setup(m_duplicate, IconId::Duplicate, tr("Duplicate"),
        tr("Add a copy of the selected worker with the same targets and specs"));
    setup(m_remove, IconId::Remove, tr("Remove"), tr("Remove the selected worker"));
    buttons->addStretch();
    return buttons;
}

// The selected worker's settings, in m_settings.
void WorkerPanel::makeSettingsForm()
{
    auto *form = new QFormLayout(m_settings);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("&Name:"), m_name);
    m_outstanding->setRange(0, 99999);
    form->addRow(tr("&Outstanding I/Os:"), m_outstanding);
    m_depthNote->setObjectName(QStringLiteral("depthNote"));
    m_depthNote->setWordWrap(true);
    m_depthNote->setForegroundRole(QPalette::PlaceholderText);
    m_depthNote->setToolTip(tr("The queue depth each assigned spec runs at: a spec's own queue "
                               "depth (QD, the Q in Q32T1) and Iometer's cycling of outstanding "
                               "I/Os override the worker's value"));
    form->addRow(QString(), m_depthNote);
    m_affinity->setPlaceholderText(tr("any CPU"));
    form->addRow(tr("CPU &affinity:"), m_affinity);
    m_seed->setPlaceholderText(tr("random each run"));
    m_seed->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{0,20}")), m_seed));
    form->addRow(tr("&Seed:"), m_seed);
    form->addRow(tr("&Data pattern:"), m_pattern);
    m_regionSize->setZeroText(tr("to the end"));
    form->addRow(tr("Region &start:"), m_regionStart);
    form->addRow(tr("Region si&ze:"), m_regionSize);
    // Iometer's names: "Test Connection Rate", "# of Transactions per Connection".
    m_connectionRate->setObjectName(QStringLiteral("testConnectionRate"));
    m_transactions->setObjectName(QStringLiteral("transactionsPerConnection"));
    m_transactions->setRange(1, INT_MAX);
    m_transactions->setGroupSeparatorShown(true);
    // The check box is the row's label and the count says its unit, so the row is no
    // wider than the others and the dock leaves the pages their room.
    const auto countSuffix
        = [this](int n) { m_transactions->setSuffix(tr(" transaction(s)", nullptr, n)); };
    countSuffix(m_transactions->value());
    connect(m_transactions, &QSpinBox::valueChanged, this, countSuffix);
    form->addRow(m_connectionRate, m_transactions);
}

// The buttons and the tree's selection change the workers and which one is edited; the
// document's changes reload it.
void WorkerPanel::connectTopology()
{
    connect(m_add, &QToolButton::clicked, this, [this] { setCurrentWorker(m_model->addWorker()); });
    connect(m_duplicate, &QToolButton::clicked, this,
        [this] { setCurrentWorker(m_model->duplicateWorker(m_worker)); });
    connect(m_remove, &QToolButton::clicked, this, [this] {
        const int worker = m_worker;
        if (m_model->removeWorker(worker))
            setCurrentWorker(std::min(worker, m_document->workerCount() - 1));
    });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
        [this](const QModelIndex &current) {
            if (!current.isValid())
                return;
            const int worker = current.data(TopologyModel::WorkerIndexRole).toInt();
            // A row of another manager (its own, a worker's or a target's) makes that
            // manager the one edited; onHostChanged then picks the worker.
            const int host = current.data(TopologyModel::HostIndexRole).toInt();
            if (host != m_document->currentHost()) {
                m_pendingWorker = worker;
                m_document->setCurrentHost(host);
                m_pendingWorker = -1;
                return;
            }
            if (worker >= 0 && worker != m_worker) {
                m_worker = worker;
                loadWorker();
                emit currentWorkerChanged(worker);
            }
        });
    connect(m_document, &ProfileDocument::currentHostChanged, this, &WorkerPanel::onHostChanged);
    connect(m_model, &QAbstractItemModel::modelReset, this, &WorkerPanel::restoreSelection);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this] { m_tree->expandAll(); });
    connect(m_document, &ProfileDocument::valuesChanged, this, [this](const QObject *origin) {
        if (origin != this)
            loadWorker();
    });
    connect(m_document, &ProfileDocument::problemsChanged, this, &WorkerPanel::loadWorker);
}

// Each setting commits as it is edited (text fields when left).
void WorkerPanel::connectSettings()
{
    connect(m_name, &QLineEdit::editingFinished, this, &WorkerPanel::commit);
    connect(m_outstanding, &QSpinBox::valueChanged, this, &WorkerPanel::commit);
    connect(m_affinity, &QLineEdit::editingFinished, this, &WorkerPanel::commit);
    connect(m_seed, &QLineEdit::editingFinished, this, &WorkerPanel::commit);
    connect(m_pattern, &DataPatternEditor::patternChanged, this, &WorkerPanel::commit);
    connect(m_regionStart, &SizeEditor::bytesChanged, this, &WorkerPanel::commit);
    connect(m_regionSize, &SizeEditor::bytesChanged, this, &WorkerPanel::commit);
    connect(m_connectionRate, &QCheckBox::toggled, this, &WorkerPanel::commit);
    connect(m_transactions, &QSpinBox::valueChanged, this, &WorkerPanel::commit);
}

void WorkerPanel::setCurrentWorker(int worker)
{
    if (worker >= m_document->workerCount())
        worker = m_document->workerCount() - 1;
    const bool changed = worker != m_worker;
    m_worker = worker;
    if (worker >= 0)
        m_tree->setCurrentIndex(m_model->workerIndex(worker));
    loadWorker();
    if (changed)
        emit currentWorkerChanged(worker);
}

void WorkerPanel::restoreSelection()
{
    m_tree->expandAll();
    int worker = m_worker;
    if (worker >= m_document->workerCount())
        worker = m_document->workerCount() - 1;
    if (worker < 0 && m_document->workerCount() > 0)
        worker = 0;
    const bool changed = worker != m_worker;
    m_worker = worker;
    {
        // A manager without workers keeps its own row selected: it is still the one edited.
        const QSignalBlocker block(m_tree->selectionModel());
        m_tree->setCurrentIndex(worker >= 0 ? m_model->workerIndex(worker)
                                            : m_model->hostIndex(m_document->currentHost()));
    }
    loadWorker();
    if (changed)
        emit currentWorkerChanged(worker);
}

void WorkerPanel::onHostChanged()
{
    // The worker the tree's selection names, else the host's first. Always said, even at
    // the same row: worker 0 of another host is another worker.
    const int count = m_document->workerCount();
    int worker = m_pendingWorker >= 0 ? m_pendingWorker : 0;
    if (worker >= count)
        worker = count - 1;
    m_worker = worker;
    // The host moved without the tree (a profile replaced, a manager removed): the
    // selection follows it.
    if (m_tree->currentIndex().data(TopologyModel::HostIndexRole).toInt()
        != m_document->currentHost()) {
        const QSignalBlocker block(m_tree->selectionModel());
        m_tree->setCurrentIndex(worker >= 0 ? m_model->workerIndex(worker)
                                            : m_model->hostIndex(m_document->currentHost()));
    }
    loadWorker();
    emit currentWorkerChanged(worker);
}

void WorkerPanel::updateButtons()
{
    m_duplicate->setEnabled(m_worker >= 0);
    m_remove->setEnabled(m_worker >= 0);
    m_add->setEnabled(m_document->workerCount() < static_cast<int>(core::kMaxWorkersPerHost));
}

void WorkerPanel::loadWorker()
{
    updateButtons();
    const core::Worker *worker = m_document->worker(m_worker);
    m_settings->setEnabled(worker != nullptr);
    if (!worker) {
        m_settings->setTitle(tr("No worker selected"));
        return;
    }
    m_loading = true;
    // With several managers the title says whose worker this is.
    const auto &profile = m_document->profile();
    m_settings->setTitle(profile.hosts.size() > 1
            ? tr("Settings of %1 on %2")
                  .arg(toQString(worker->name),
                      managerName(profile, static_cast<std::size_t>(m_document->currentHost())))
            : tr("Settings of %1").arg(toQString(worker->name)));
    if (!m_name->hasFocus())
        m_name->setText(toQString(worker->name));
    {
        const QSignalBlocker block(m_outstanding);
        m_outstanding->setValue(
            static_cast<int>(std::min<std::uint32_t>(worker->outstandingIos, 99999)));
    }
    m_depthNote->setText(depthNoteText(*worker));
    m_depthNote->setVisible(!m_depthNote->text().isEmpty());
    if (!m_affinity->hasFocus())
        m_affinity->setText(cpuListText(worker->cpuAffinity));
    if (!m_seed->hasFocus())
        m_seed->setText(worker->seed ? QString::number(*worker->seed) : QString());
    {
        const QSignalBlocker block(m_pattern);
        m_pattern->setPattern({true, worker->dataPattern});
    }
    {
        const QSignalBlocker a(m_regionStart), b(m_regionSize);
        m_regionStart->setBytes(worker->defaultRegion.offsetBytes);
        m_regionSize->setBytes(worker->defaultRegion.sizeBytes);
    }
    {
        const QSignalBlocker a(m_connectionRate), b(m_transactions);
        m_connectionRate->setChecked(worker->testConnectionRate);
        m_transactions->setValue(static_cast<int>(
            std::clamp<std::uint32_t>(worker->transactionsPerConnection, 1, INT_MAX)));
        m_transactions->setEnabled(worker->testConnectionRate);
        // The signal that words the suffix is blocked: word it for the value loaded.
        m_transactions->setSuffix(tr(" transaction(s)", nullptr, m_transactions->value()));
    }
    const std::string path = m_document->workerPath(static_cast<std::size_t>(m_worker));
    markField(m_name, m_document->problemsAt(path + ".name"),
        tr("The worker's name, as results label it"));
    markField(m_outstanding, m_document->problemsAt(path + ".outstandingIos"),
        tr("I/Os kept in flight on each target (queue depth), 1 to %1. A spec's QD overrides it.")
            .arg(core::kMaxOutstandingIos));
    markField(m_affinity, m_document->problemsAt(path + ".cpuAffinity"),
        tr("CPUs this worker's thread may run on, e.g. 0-3,8; empty = any"));
    markField(m_seed, m_document->problemsAt(path + ".seed"),
        tr("Fixed seed for repeatable offsets; empty = a new random seed each run (recorded in "
           "the results)"));
    markField(m_pattern, m_document->problemsAt(path + ".dataPattern"),
        tr("What this worker's writes contain, for spec lines without their own pattern"));
    markField(m_regionStart, m_document->problemsAt(path + ".defaultRegion.offset"),
        tr("Where the tested region of each target starts (targets may set their own)"));
    markField(m_regionSize, m_document->problemsAt(path + ".defaultRegion.size"),
        tr("Size of the tested region of each target; 0 = to the end"));
    markField(m_connectionRate, m_document->problemsAt(path + ".testConnectionRate"),
        tr("Iometer's \"Test Connection Rate\": each of this worker's targets is closed and "
           "opened again every so many transactions, and the open, close and connection "
           "(open to close) times are reported with connections per second on the Results "
           "page. Off: each target stays open for the whole step."));
    markField(m_transactions, m_document->problemsAt(path + ".transactionsPerConnection"),
        tr("Iometer's \"# of Transactions per Connection\": the transactions (an I/O with "
           "its reply) between an open of the target and its close; the I/O in flight "
           "completes before the target is closed"));
    m_loading = false;
}

void WorkerPanel::commit()
{
    if (m_loading)
        return;
    core::Worker *worker = m_document->mutableWorker(m_worker);
    if (!worker)
        return;
    core::Worker edited = *worker;
    const std::string name = toStdString(m_name->text().trimmed());
    if (!name.empty())
        edited.name = name;
    edited.outstandingIos = static_cast<std::uint32_t>(m_outstanding->value());
    std::vector<std::uint32_t> cpus;
    const bool cpusOk = parseCpuList(m_affinity->text(), cpus);
    if (cpusOk)
        edited.cpuAffinity = cpus;
    if (m_seed->text().isEmpty())
        edited.seed.reset();
    else
        edited.seed = m_seed->text().toULongLong();
    edited.dataPattern = m_pattern->pattern().pattern;
    edited.defaultRegion = {m_regionStart->bytes(), m_regionSize->bytes()};
    edited.testConnectionRate = m_connectionRate->isChecked();
    edited.transactionsPerConnection = static_cast<std::uint32_t>(m_transactions->value());
    m_transactions->setEnabled(edited.testConnectionRate);
    if (edited == *worker) {
        if (!cpusOk)
            markUnreadable(m_affinity, tr("\"%1\" is not a CPU list").arg(m_affinity->text()),
                tr("CPUs, e.g. 0-3,8"));
        return;
    }
    *worker = edited;
    m_document->commitValues(this); // the tree refreshes its rows (names) on it
    if (!cpusOk)
        markUnreadable(m_affinity, tr("\"%1\" is not a CPU list").arg(m_affinity->text()),
            tr("CPUs, e.g. 0-3,8"));
}

} // namespace ioprism::ui
