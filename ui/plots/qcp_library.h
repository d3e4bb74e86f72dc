// SPDX-License-Identifier: GPL-3.0-or-later
// QCustomPlot as a shared library: include this, never <qcustomplot.h> directly.
//
// qcustomplot.h marks its classes dllimport only when QCUSTOMPLOT_USE_LIBRARY is defined,
// and the library's CMake package does not define it. Without dllimport a Windows program
// takes the address of a signal such as &QCPAxis::rangeChanged from a stub of its own, not
// the DLL's function, so QObject::connect finds no such signal and connects nothing: no
// hover, no linked axes, no relayout of the step labels or legends. On ELF systems the
// macro only gives default visibility, which the symbols have anyway.
#pragma once

#ifndef QCUSTOMPLOT_USE_LIBRARY
#define QCUSTOMPLOT_USE_LIBRARY
#endif
#include <qcustomplot.h>
