// SPDX-License-Identifier: GPL-3.0-or-later
// Number formatting shared by the Iometer CSV (csv_iometer.cpp) and the time-series
// and series CSVs (csv_series.cpp).
#pragma once

#include <cstdint>
#include <string>

namespace ioprism::core::csv_detail {

std::string fixed(double v, int decimals);
std::string integer(std::uint64_t v);

} // namespace ioprism::core::csv_detail
