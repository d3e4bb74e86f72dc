#include "ui/style.h"

#include <QBrush>

namespace ioprism::ui {

QColor errorTint()
{
    return QColor(229, 62, 62, 110);
}

QColor warningTint()
{
    return QColor(236, 170, 30, 90);
}

QColor errorColor()
{
    return QColor(200, 40, 40);
}

QVariant problemBrush(const core::Problems &problems)
{
    if (problems.empty())
        return {};
    return QBrush(core::hasErrors(problems) ? errorTint() : warningTint());
}

namespace series {
QColor read()
{
    return QColor(31, 119, 180);
}
QColor write()
{
    return QColor(255, 127, 14);
}
QColor total()
{
    return QColor(44, 160, 44);
}
QColor p50()
{
    return QColor(44, 160, 44);
}
QColor p99()
{
    return QColor(255, 127, 14);
}
QColor p999()
{
    return QColor(214, 39, 40);
}
QColor user()
{
    return QColor(31, 119, 180);
}
QColor system()
{
    return QColor(214, 39, 40);
}
QColor iowait()
{
    return QColor(148, 103, 189);
}
QColor device()
{
    return QColor(127, 127, 127);
}
} // namespace series

} // namespace ioprism::ui
