// SPDX-License-Identifier: GPL-3.0-or-later
// The Test setup page's "Stop at steady state" box: the profile's setup.steadyState (a
// stop rule for every step: rounds until the rule's window is steady, or the round
// limit; core/stats/steady_state.h, docs/ssd-testing.md). Checked, the steps run in rounds
// instead of for their run time.
#pragma once

#include "core/profile/problem.h"
#include "core/stats/steady_state.h"

#include <QGroupBox>

#include <functional>
#include <optional>
#include <string_view>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace ioprism::ui {

class SteadyStateBox : public QGroupBox
{
    Q_OBJECT
public:
    explicit SteadyStateBox(QWidget *parent = nullptr);

    // Shows `steady` (unchecked when unset), each field marked with the problems at its
    // path (setup.steadyState.*). Emits nothing.
    void load(const std::optional<core::SteadyStateSetup> &steady,
        const std::function<core::Problems(std::string_view)> &problemsAt);
    // What the fields say, over `current` (unset when unchecked). False, with the field
    // marked, when the round length cannot be read: `current`'s is kept.
    bool read(std::optional<core::SteadyStateSetup> &current) const;

    QComboBox *ruleField() const { return m_rule; }
    QComboBox *metricField() const { return m_metric; }
    QLineEdit *roundField() const { return m_round; }
    QSpinBox *windowField() const { return m_window; }
    QSpinBox *limitField() const { return m_limit; }
    QDoubleSpinBox *rangeField() const { return m_range; }
    QDoubleSpinBox *slopeField() const { return m_slope; }

signals:
    // A field was edited (or the box checked): the page commits.
    void edited();

private:
    void updateEnabled();

    QComboBox *m_rule = nullptr;
    QComboBox *m_metric = nullptr;
    QLineEdit *m_round = nullptr;
    QSpinBox *m_window = nullptr;
    QSpinBox *m_limit = nullptr;
    QDoubleSpinBox *m_range = nullptr;
    QDoubleSpinBox *m_slope = nullptr;
};

} // namespace ioprism::ui
