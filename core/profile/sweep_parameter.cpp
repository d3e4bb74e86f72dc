// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/sweep_parameter.h"

namespace ioprism::core {

namespace {

constexpr std::size_t kNoRow = SIZE_MAX;

// The row of each enumerator. A new enumerator is a -Wswitch error here until it has a
// case; its case then fails the static_asserts below until the table has its row, in
// order.
constexpr std::size_t rowOf(SweepParameter parameter)
{
    switch (parameter) {
    case SweepParameter::TransferSize:
        return 0;
    case SweepParameter::OutstandingIos:
        return 1;
    case SweepParameter::Workers:
        return 2;
    case SweepParameter::PercentRead:
        return 3;
    case SweepParameter::PercentRandom:
        return 4;
    case SweepParameter::Position:
        return 5;
    }
    return kNoRow;
}

constexpr bool rowsInOrder()
{
    for (std::size_t i = 0; i < kSweepParameterTraits.size(); ++i)
        if (rowOf(kSweepParameterTraits[i].parameter) != i
            || std::size_t(kSweepParameterTraits[i].parameter) != i)
            return false;
    return true;
}

static_assert(rowsInOrder(), "kSweepParameterTraits: one row per SweepParameter, in order");
static_assert(rowOf(SweepParameter(kSweepParameterTraits.size())) == kNoRow,
    "kSweepParameterTraits: a SweepParameter has no row");

} // namespace

const SweepParameterTraits &sweepTraits(SweepParameter parameter)
{
    const std::size_t row = rowOf(parameter);
    return kSweepParameterTraits[row < kSweepParameterTraits.size() ? row : 0];
}

std::span<const SweepParameterTraits> sweepParameterTraits()
{
    return kSweepParameterTraits;
}

} // namespace ioprism::core
