// SPDX-License-Identifier: GPL-3.0-or-later
// The results file's intervals, written as columns straight into the text
// (docs/results.md, "intervals"); results_json.cpp writes the rest of the document.
#pragma once

#include "core/report/json_text.h"
#include "core/run/results.h"

namespace ioprism::core {

// The "intervals" object: per-interval columns, then per scope over each stretch of
// intervals with the same scopes.
void writeIntervalColumns(JsonTextWriter &w, const RunResult &result);

} // namespace ioprism::core
