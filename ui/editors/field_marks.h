// SPDX-License-Identifier: GPL-3.0-or-later
// Live validation of form fields (the Test setup and Worker panels): a field with a
// problem gets a tinted background and core's message in its tooltip, exactly like a
// table cell.
#pragma once

#include "core/profile/problem.h"

#include <QString>

class QWidget;

namespace ioprism::ui {

// Marks `field` with `problems` (none: back to normal) and sets its tooltip to `help`
// followed by the problems' messages.
void markField(QWidget *field, const core::Problems &problems, const QString &help);
// Marks a field whose text could not be read at all (before core sees it).
void markUnreadable(QWidget *field, const QString &message, const QString &help);

} // namespace ioprism::ui
