// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/steady_state_box.h"

#include "core/profile/units.h"
#include "ui/editors/field_marks.h"
#include "ui/format.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>

#include <algorithm>
#include <cmath>
#include <string>

namespace ioprism::ui {

namespace {

QString roundHelp()
{
    return SteadyStateBox::tr(
        "The length of a round (PTS: 1 minute; e.g. 30s, 1m). Each round gives one figure; "
        "at least the sampling interval.");
}
QString windowHelp()
{
    return SteadyStateBox::tr("Rounds judged together, the last ones each time (PTS: 5)");
}
QString limitHelp()
{
    return SteadyStateBox::tr("At most this many rounds per step: then the step ends and the "
                              "results say \"steady state not reached\" (PTS: 25)");
}
QString rangeHelp()
{
    return SteadyStateBox::tr(
        "PTS: the window's largest and smallest figures differ by at most this share of its "
        "mean (20 %). fio deviation (iops:X%): every round of the window within this share "
        "of the mean.");
}
QString slopeHelp()
{
    return SteadyStateBox::tr(
        "PTS: the least-squares line through the window's figures changes by at most this "
        "share of the mean across the window (10 %). fio slope (iops_slope:X%): the line's "
        "slope per round below this share of the mean.");
}

} // namespace

SteadyStateBox::SteadyStateBox(QWidget *parent)
    : QGroupBox(tr("Stop at steady state (SNIA PTS)"), parent)
{
    setObjectName(QStringLiteral("steadyState"));
    setCheckable(true);
    setChecked(false);
    setToolTip(tr("Run every step in rounds until its figures stop moving, instead of for the "
                  "run time: after each round the last rounds (the window) are judged, and the "
                  "first steady window ends the step. At the round limit the results say "
                  "\"steady state not reached\", never steady. The results keep every round "
                  "and name the window's."));
    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);

    m_rule = new QComboBox(this);
    m_rule->setObjectName(QStringLiteral("steadyRule"));
    m_rule->addItem(tr("PTS: range and slope"), int(core::SteadyStateRule::Pts));
    m_rule->setItemData(0,
        tr("SNIA PTS: the window's range within 20 % of its mean and its fitted line's "
           "excursion within 10 %"),
        Qt::ToolTipRole);
    m_rule->addItem(tr("fio deviation"), int(core::SteadyStateRule::FioDeviation));
    m_rule->setItemData(
        1, tr("fio's iops:X%: every round within X % of the window's mean"), Qt::ToolTipRole);
    m_rule->addItem(tr("fio slope"), int(core::SteadyStateRule::FioSlope));
    m_rule->setItemData(2,
        tr("fio's iops_slope:X%: the fitted line's slope per round below X % of the mean; an "
           "oscillation has none, so it passes"),
        Qt::ToolTipRole);
    m_rule->setToolTip(tr("How the window is judged (docs/ssd-testing.md)"));
    form->addRow(tr("R&ule:"), m_rule);

    m_metric = new QComboBox(this);
    m_metric->setObjectName(QStringLiteral("steadyMetric"));
    m_metric->addItem(tr("IOPS"), int(core::SteadyStateMetric::Iops));
    m_metric->addItem(tr("MB/s"), int(core::SteadyStateMetric::MegabytesPerSecond));
    m_metric->addItem(tr("Mean latency"), int(core::SteadyStateMetric::MeanLatency));
    m_metric->addItem(tr("p99 latency"), int(core::SteadyStateMetric::P99Latency));
    m_metric->addItem(tr("p99.9 latency"), int(core::SteadyStateMetric::P99_9Latency));
    m_metric->setToolTip(tr("A round's figure: reads and writes together, over the round"));
    form->addRow(tr("&Judged on:"), m_metric);

    m_round = new QLineEdit(this);
    m_round->setObjectName(QStringLiteral("steadyRound"));
    m_round->setMaximumWidth(160);
    m_round->setToolTip(roundHelp());
    form->addRow(tr("Round &length:"), m_round);

    m_window = new QSpinBox(this);
    m_window->setObjectName(QStringLiteral("steadyWindow"));
    m_window->setRange(2, 10'000);
    m_window->setMaximumWidth(100);
    m_window->setToolTip(windowHelp());
    form->addRow(tr("&Window:"), m_window);

    m_limit = new QSpinBox(this);
    m_limit->setObjectName(QStringLiteral("steadyLimit"));
    m_limit->setRange(2, 10'000);
    m_limit->setMaximumWidth(100);
    m_limit->setToolTip(limitHelp());
    form->addRow(tr("Round li&mit:"), m_limit);

    const auto percent = [this](const char *name, const QString &help) {
        auto *spin = new QDoubleSpinBox(this);
        spin->setObjectName(QLatin1String(name));
        spin->setRange(0.1, 1000);
        spin->setDecimals(1);
        spin->setSuffix(QStringLiteral(" %"));
        spin->setMaximumWidth(120);
        spin->setToolTip(help);
        return spin;
    };
    m_range = percent("steadyRange", rangeHelp());
    form->addRow(tr("Ra&nge limit:"), m_range);
    m_slope = percent("steadySlope", slopeHelp());
    form->addRow(tr("Sl&ope limit:"), m_slope);

    load(std::nullopt, {});
    connect(this, &QGroupBox::toggled, this, &SteadyStateBox::edited);
    connect(m_rule, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
        emit edited();
    });
    connect(m_metric, &QComboBox::currentIndexChanged, this, &SteadyStateBox::edited);
    connect(m_round, &QLineEdit::editingFinished, this, &SteadyStateBox::edited);
    for (QSpinBox *spin : {m_window, m_limit})
        connect(spin, &QSpinBox::valueChanged, this, &SteadyStateBox::edited);
    for (QDoubleSpinBox *spin : {m_range, m_slope})
        connect(spin, &QDoubleSpinBox::valueChanged, this, &SteadyStateBox::edited);
}

void SteadyStateBox::load(const std::optional<core::SteadyStateSetup> &steady,
    const std::function<core::Problems(std::string_view)> &problemsAt)
{
    // Unset: the fields show PTS's parameters, what checking the box starts from.
    const core::SteadyStateSetup shown = steady.value_or(core::SteadyStateSetup {});
    const auto block = [](QWidget *w) { return QSignalBlocker(w); };
    {
        const QSignalBlocker b(this);
        setChecked(steady.has_value());
    }
    {
        const auto b = block(m_rule);
        m_rule->setCurrentIndex(m_rule->findData(int(shown.criteria.rule)));
    }
    {
        const auto b = block(m_metric);
        m_metric->setCurrentIndex(m_metric->findData(int(shown.metric)));
    }
    if (!m_round->hasFocus())
        m_round->setText(durationText(shown.roundTime));
    {
        const auto b = block(m_window);
        m_window->setValue(int(std::min<std::size_t>(shown.criteria.windowRounds, 10'000)));
    }
    {
        const auto b = block(m_limit);
        m_limit->setValue(int(std::min<std::size_t>(shown.criteria.roundLimit, 10'000)));
    }
    {
        const auto b = block(m_range);
        m_range->setValue(shown.criteria.rangeLimit * 100);
    }
    {
        const auto b = block(m_slope);
        m_slope->setValue(shown.criteria.slopeLimit * 100);
    }
    const auto problems = [&](std::string_view field) {
        return problemsAt ? problemsAt("setup.steadyState." + std::string(field))
                          : core::Problems {};
    };
    markField(m_round, problems("roundTime"), roundHelp());
    markField(m_window, problems("windowRounds"), windowHelp());
    markField(m_limit, problems("roundLimit"), limitHelp());
    markField(m_range, problems("rangePercent"), rangeHelp());
    markField(m_slope, problems("slopePercent"), slopeHelp());
    updateEnabled();
}

bool SteadyStateBox::read(std::optional<core::SteadyStateSetup> &current) const
{
    if (!isChecked()) {
        current.reset();
        return true;
    }
    core::SteadyStateSetup steady = current.value_or(core::SteadyStateSetup {});
    steady.criteria.rule = static_cast<core::SteadyStateRule>(m_rule->currentData().toInt());
    steady.metric = static_cast<core::SteadyStateMetric>(m_metric->currentData().toInt());
    // A box shows its value within its range and to a tenth of a percent: a value it shows
    // as the profile has it, clamped or rounded, is kept as the profile has it (an invalid
    // window of 1 stays marked rather than becoming 2 when another field is edited; 12.34 %
    // stays 12.34 %).
    const auto count = [](const QSpinBox *spin, std::size_t &value) {
        if (std::clamp<std::size_t>(
                value, std::size_t(spin->minimum()), std::size_t(spin->maximum()))
            != std::size_t(spin->value()))
            value = std::size_t(spin->value());
    };
    count(m_window, steady.criteria.windowRounds);
    count(m_limit, steady.criteria.roundLimit);
    const auto limit = [](const QDoubleSpinBox *spin, double &share) {
        const double shown = std::clamp(share * 100, spin->minimum(), spin->maximum());
        if (!std::isfinite(share) || std::abs(shown - spin->value()) >= 0.05)
            share = spin->value() / 100;
    };
    limit(m_range, steady.criteria.rangeLimit);
    limit(m_slope, steady.criteria.slopeLimit);
    bool readable = true;
    const auto round
        = core::parseDuration(toStdString(m_round->text().trimmed()), core::DurationUnit::Seconds);
    if (round && round->count() % 1000 == 0 && round->count() > 0)
        steady.roundTime = std::chrono::duration_cast<std::chrono::milliseconds>(*round);
    else {
        markUnreadable(m_round,
            tr("\"%1\" is not a duration of whole milliseconds (e.g. 30s, 1m)")
                .arg(m_round->text()),
            roundHelp());
        readable = false;
    }
    current = steady;
    return readable;
}

void SteadyStateBox::updateEnabled()
{
    const auto rule = static_cast<core::SteadyStateRule>(m_rule->currentData().toInt());
    m_range->setEnabled(rule != core::SteadyStateRule::FioSlope);
    m_slope->setEnabled(rule != core::SteadyStateRule::FioDeviation);
}

} // namespace ioprism::ui
