// SPDX-License-Identifier: GPL-3.0-or-later
// The Test setup page's "Precondition first" box: the profile's setup.precondition (the
// targets written before the first step, measured apart; core/run/precondition.h,
// docs/ssd-testing.md). Checked, the run writes every target before its steps.
#pragma once

#include "core/profile/problem.h"
#include "core/profile/profile.h"

#include <QGroupBox>

#include <functional>
#include <optional>
#include <string_view>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;

namespace ioprism::ui {

class PreconditionBox : public QGroupBox
{
    Q_OBJECT
public:
    explicit PreconditionBox(QWidget *parent = nullptr);

    // Shows `pre` (unchecked when unset), each field marked with the problems at its path
    // (setup.precondition.*). Emits nothing.
    void load(const std::optional<core::PreconditionSetup> &pre,
        const std::function<core::Problems(std::string_view)> &problemsAt);
    // What the fields say, over `current` (unset when unchecked). False, with the field
    // marked, when the time cannot be read: `current`'s is kept.
    bool read(std::optional<core::PreconditionSetup> &current) const;

    QComboBox *kindField() const { return m_kind; }
    QDoubleSpinBox *multipleField() const { return m_multiple; }
    QLineEdit *timeField() const { return m_time; }

signals:
    // A field was edited (or the box checked): the page commits.
    void edited();

private:
    void updateEnabled();

    QComboBox *m_kind = nullptr;
    QDoubleSpinBox *m_multiple = nullptr;
    QLineEdit *m_time = nullptr;
};

} // namespace ioprism::ui
