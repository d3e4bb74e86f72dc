// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editors/field_marks.h"

#include "ui/format.h"
#include "ui/style.h"

#include <QCoreApplication>
#include <QFormLayout>
#include <QLabel>
#include <QRegularExpression>
#include <QVariant>
#include <QWidget>

namespace ioprism::ui {

namespace {

// What a field marked unreadable could not read: set by markUnreadable, cleared by any
// later mark of the field.
constexpr const char *kUnreadable = "ioprismUnreadable";

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
    field->setProperty(kUnreadable, QVariant());
}

// The name a user knows a field by: its label in a form ("Run time per step"), else its
// accessible name, else its tooltip's first line.
QString fieldName(const QWidget *field)
{
    for (const QWidget *w = field->parentWidget(); w; w = w->parentWidget())
        if (const auto *form = qobject_cast<const QFormLayout *>(w->layout()))
            if (const auto *label
                = qobject_cast<const QLabel *>(form->labelForField(const_cast<QWidget *>(field))))
                return label->text()
                    .remove(QLatin1Char('&'))
                    .remove(QRegularExpression(QStringLiteral(":\\s*$")));
    if (!field->accessibleName().isEmpty())
        return field->accessibleName();
    return field->objectName();
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
    field->setProperty(kUnreadable, message);
    field->setToolTip(message + QStringLiteral("\n\n") + help);
}

QStringList unreadableFields(const QWidget *root)
{
    QStringList fields;
    for (const QWidget *field : root->findChildren<QWidget *>()) {
        const QString message = field->property(kUnreadable).toString();
        if (!message.isEmpty())
            fields << QCoreApplication::translate("ioprism::ui::FieldMarks", "%1: %2")
                          .arg(fieldName(field), message);
    }
    return fields;
}

} // namespace ioprism::ui
