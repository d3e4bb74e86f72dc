// SPDX-License-Identifier: GPL-3.0-or-later
// Live validation of form fields (the Test setup and Worker panels): a field with a
// problem gets a tinted background and core's message in its tooltip, exactly like a
// table cell.
#pragma once

#include "core/profile/problem.h"

#include <QString>
#include <QStringList>

class QWidget;

namespace ioprism::ui {

// Marks `field` with `problems` (none: back to normal) and sets its tooltip to `help`
// followed by the problems' messages.
void markField(QWidget *field, const core::Problems &problems, const QString &help);
// Marks a field whose text could not be read at all (before core sees it). The profile
// then still holds the field's last readable value, so Start refuses while any field of
// the window is so marked (unreadableFields), rather than run what is not shown.
void markUnreadable(QWidget *field, const QString &message, const QString &help);

// The fields under `root` marked unreadable and not marked again since, each as
// "Label: message" (the label its form gives it, else its accessible name).
QStringList unreadableFields(const QWidget *root);

} // namespace ioprism::ui
