// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editors/field_marks.h"

#include "ui/format.h"
#include "ui/style.h"

#include <QWidget>

namespace ioprism::ui {

namespace {

void tint(QWidget *field, const QColor *color)
{
    // Blend the tint over the palette's own base colour: readable on light and dark.
    QPalette palette = field->parentWidget() ? field->parentWidget()->palette() : field->palette();
    if (color) {
        const QColor base = palette.color(QPalette::Base);
        const float a = color->alphaF();
        palette.setColor(QPalette::Base,
            QColor::fromRgbF(base.redF() * (1 - a) + color->redF() * a,
                base.greenF() * (1 - a) + color->greenF() * a,
                base.blueF() * (1 - a) + color->blueF() * a));
    }
    field->setPalette(palette);
    field->setProperty("ioprismInvalid", color != nullptr);
}

} // namespace

void markField(QWidget *field, const core::Problems &problems, const QString &help)
{
    if (problems.empty()) {
        tint(field, nullptr);
        field->setToolTip(help);
        return;
    }
    const QColor color = core::hasErrors(problems) ? errorTint() : warningTint();
    tint(field, &color);
    field->setToolTip(problemsText(problems) + QStringLiteral("\n\n") + help);
}

void markUnreadable(QWidget *field, const QString &message, const QString &help)
{
    const QColor color = errorTint();
    tint(field, &color);
    field->setToolTip(message + QStringLiteral("\n\n") + help);
}

} // namespace ioprism::ui
