// Colours that carry meaning (invalid cells, warnings, series), chosen to read on light
// and dark system palettes alike: tints with alpha over the palette's own base colour.
#pragma once

#include "core/profile/problem.h"

#include <QColor>
#include <QVariant>

namespace ioprism::ui {

QColor errorTint(); // background of a cell with an error
QColor warningTint(); // background of a cell with a warning
QColor errorColor(); // text and frames of errors

// A background brush for a cell with these problems, or an empty QVariant (the view's
// own background) when there are none.
QVariant problemBrush(const core::Problems &problems);

// Series colours of the plots, fixed so the same quantity has the same colour on
// every page and in exported images.
namespace series {
QColor read();
QColor write();
QColor total();
QColor p50();
QColor p99();
QColor p999();
QColor user();
QColor system();
QColor iowait();
QColor device();
} // namespace series

} // namespace ioprism::ui
