// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/precondition_box.h"

#include "core/profile/units.h"
#include "ui/editors/field_marks.h"
#include "ui/format.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSignalBlocker>

#include <algorithm>
#include <cmath>
#include <string>

namespace ioprism::ui {

namespace {

QString multipleHelp()
{
    return PreconditionBox::tr(
        "How much to write: this many times each target's region (PTS: 2). On a 1 TB drive "
        "at 500 MB/s, 2x takes over an hour: the plan above says how much.");
}
QString timeHelp()
{
    return PreconditionBox::tr(
        "The test's workload for this long instead of a capacity multiple (e.g. 30m, 2h); "
        "0 or empty: by the capacity multiple");
}

} // namespace

PreconditionBox::PreconditionBox(QWidget *parent)
    : QGroupBox(tr("Precondition first (SNIA PTS)"), parent)
{
    setObjectName(QStringLiteral("precondition"));
    setCheckable(true);
    setChecked(false);
    setToolTip(tr("Write every target before the first step, so that an SSD is measured as "
                  "in use, not fresh or with an empty cache. Measured as a phase of its own, "
                  "with its progress and time left; in none of the steps' figures. It writes: "
                  "only to test files and to devices you allowed to be written."));
    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);

    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("preconditionKind"));
    m_kind->addItem(tr("128 KiB sequential writes"), int(core::PreconditionKind::Sequential));
    m_kind->setItemData(0,
        tr("PTS's workload-independent preconditioning: 128 KiB sequential writes at QD 32 "
           "across each target's region"),
        Qt::ToolTipRole);
    m_kind->addItem(tr("The first step's workload"), int(core::PreconditionKind::Workload));
    m_kind->setItemData(1,
        tr("PTS's workload-dependent preconditioning: the first step's own specs, workers and "
           "queue depths, for a time or a capacity multiple"),
        Qt::ToolTipRole);
    m_kind->setToolTip(tr("What preconditioning writes"));
    form->addRow(tr("&Writes:"), m_kind);

    m_multiple = new QDoubleSpinBox(this);
    m_multiple->setObjectName(QStringLiteral("preconditionMultiple"));
    m_multiple->setRange(0.1, 100);
    m_multiple->setDecimals(1);
    m_multiple->setSuffix(tr(" × capacity"));
    m_multiple->setMaximumWidth(160);
    m_multiple->setToolTip(multipleHelp());
    form->addRow(tr("&Amount:"), m_multiple);

    m_time = new QLineEdit(this);
    m_time->setObjectName(QStringLiteral("preconditionTime"));
    m_time->setMaximumWidth(160);
    m_time->setToolTip(timeHelp());
    form->addRow(tr("Or for a &time:"), m_time);

    load(std::nullopt, {});
    connect(this, &QGroupBox::toggled, this, &PreconditionBox::edited);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
        emit edited();
    });
    connect(m_multiple, &QDoubleSpinBox::valueChanged, this, &PreconditionBox::edited);
    connect(m_time, &QLineEdit::editingFinished, this, &PreconditionBox::edited);
}

void PreconditionBox::load(const std::optional<core::PreconditionSetup> &pre,
    const std::function<core::Problems(std::string_view)> &problemsAt)
{
    // Unset: the fields show PTS's preconditioning, what checking the box starts from.
    const core::PreconditionSetup shown = pre.value_or(core::PreconditionSetup {});
    {
        const QSignalBlocker b(this);
        setChecked(pre.has_value());
    }
    {
        const QSignalBlocker b(m_kind);
        m_kind->setCurrentIndex(m_kind->findData(int(shown.kind)));
    }
    {
        const QSignalBlocker b(m_multiple);
        m_multiple->setValue(shown.capacityMultiple);
    }
    if (!m_time->hasFocus())
        m_time->setText(shown.time.count() > 0 ? durationText(shown.time) : QString());
    const auto problems = [&](std::string_view field) {
        return problemsAt ? problemsAt("setup.precondition" + std::string(field))
                          : core::Problems {};
    };
    markField(m_multiple, problems(".capacityMultiple"), multipleHelp());
    markField(m_time, problems(".time"), timeHelp());
    markField(m_kind, problems(""), tr("What preconditioning writes"));
    updateEnabled();
}

bool PreconditionBox::read(std::optional<core::PreconditionSetup> &current) const
{
    if (!isChecked()) {
        current.reset();
        return true;
    }
    core::PreconditionSetup pre = current.value_or(core::PreconditionSetup {});
    pre.kind = static_cast<core::PreconditionKind>(m_kind->currentData().toInt());
    // Shown to a tenth and within the box's range: a value it shows as the profile has
    // it is kept as the profile has it.
    const double shown
        = std::clamp(pre.capacityMultiple, m_multiple->minimum(), m_multiple->maximum());
    if (!std::isfinite(pre.capacityMultiple) || std::abs(shown - m_multiple->value()) >= 0.05)
        pre.capacityMultiple = m_multiple->value();
    bool readable = true;
    const QString text = m_time->text().trimmed();
    if (pre.kind == core::PreconditionKind::Sequential || text.isEmpty()) {
        pre.time = std::chrono::seconds(0);
    } else if (const auto time
               = core::parseDuration(toStdString(text), core::DurationUnit::Seconds);
               time && time->count() % 1'000'000 == 0 && time->count() >= 0) {
        pre.time = std::chrono::duration_cast<std::chrono::seconds>(*time);
    } else {
        markUnreadable(m_time,
            tr("\"%1\" is not a duration of whole seconds (e.g. 30m, 2h)").arg(m_time->text()),
            timeHelp());
        readable = false;
    }
    current = pre;
    return readable;
}

void PreconditionBox::updateEnabled()
{
    m_time->setEnabled(static_cast<core::PreconditionKind>(m_kind->currentData().toInt())
        == core::PreconditionKind::Workload);
}

} // namespace ioprism::ui
