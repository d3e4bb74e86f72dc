// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/names.h"

#include "core/profile/sweep_parameter.h"

#include <array>

namespace ioprism::core {

namespace {

constexpr std::array<EnumName<DistributionKind>, 5> kDistributionKinds {{
    {DistributionKind::Uniform, "uniform"},
    {DistributionKind::Zipf, "zipf"},
    {DistributionKind::Pareto, "pareto"},
    {DistributionKind::Normal, "normal"},
    {DistributionKind::HotZones, "hotZones"},
}};

constexpr std::array<EnumName<DataPatternKind>, 5> kDataPatternKinds {{
    {DataPatternKind::RepeatingBytes, "repeatingBytes"},
    {DataPatternKind::PseudoRandom, "pseudoRandom"},
    {DataPatternKind::FullRandom, "fullRandom"},
    {DataPatternKind::Zeros, "zeros"},
    {DataPatternKind::Compressible, "compressible"},
}};

constexpr std::array<EnumName<SpecAssignment>, 4> kSpecAssignments {{
    {SpecAssignment::None, "none"},
    {SpecAssignment::All, "all"},
    {SpecAssignment::Disk, "disk"},
    {SpecAssignment::Network, "network"},
}};

constexpr std::array<EnumName<TargetKind>, 6> kTargetKinds {{
    {TargetKind::TestFile, "file"},
    {TargetKind::BlockDevice, "blockDevice"},
    {TargetKind::Partition, "partition"},
    {TargetKind::Volume, "volume"},
    {TargetKind::PhysicalDrive, "physicalDrive"},
    {TargetKind::FileTree, "fileTree"},
}};

constexpr std::array<EnumName<CacheMode>, 2> kCacheModes {{
    {CacheMode::Direct, "direct"},
    {CacheMode::Buffered, "buffered"},
}};

constexpr std::array<EnumName<WorkerType>, 2> kWorkerTypes {{
    {WorkerType::Disk, "disk"},
    {WorkerType::Network, "network"},
}};

constexpr std::array<EnumName<StepType>, 2> kStepTypes {{
    {StepType::Linear, "linear"},
    {StepType::Exponential, "exponential"},
}};

constexpr std::array<EnumName<TestType>, 8> kTestTypes {{
    {TestType::Normal, "normal"},
    {TestType::CycleTargets, "cycleTargets"},
    {TestType::CycleWorkers, "cycleWorkers"},
    {TestType::IncrementTargetsParallel, "incrementTargetsParallel"},
    {TestType::IncrementTargetsSerial, "incrementTargetsSerial"},
    {TestType::CycleWorkersAndTargets, "cycleWorkersAndTargets"},
    {TestType::CycleOutstandingIos, "cycleOutstandingIos"},
    {TestType::CycleOutstandingIosAndTargets, "cycleOutstandingIosAndTargets"},
}};

constexpr std::array<EnumName<RecordFilter>, 5> kRecordFilters {{
    {RecordFilter::All, "all"},
    {RecordFilter::NoTargets, "noTargets"},
    {RecordFilter::NoWorkers, "noWorkers"},
    {RecordFilter::NoTargetsNoWorkers, "noTargetsNoWorkers"},
    {RecordFilter::None, "none"},
}};

// The names are the traits table's (core/profile/sweep_parameter.h).
constexpr auto kSweepParameters = [] {
    std::array<EnumName<SweepParameter>, kSweepParameterTraits.size()> names {};
    for (std::size_t i = 0; i < names.size(); ++i)
        names[i] = {kSweepParameterTraits[i].parameter, kSweepParameterTraits[i].name};
    return names;
}();

} // namespace

template<> std::span<const EnumName<DistributionKind>> enumNames<DistributionKind>()
{
    return kDistributionKinds;
}
template<> std::span<const EnumName<DataPatternKind>> enumNames<DataPatternKind>()
{
    return kDataPatternKinds;
}
template<> std::span<const EnumName<SpecAssignment>> enumNames<SpecAssignment>()
{
    return kSpecAssignments;
}
template<> std::span<const EnumName<TargetKind>> enumNames<TargetKind>()
{
    return kTargetKinds;
}
template<> std::span<const EnumName<CacheMode>> enumNames<CacheMode>()
{
    return kCacheModes;
}
template<> std::span<const EnumName<WorkerType>> enumNames<WorkerType>()
{
    return kWorkerTypes;
}
template<> std::span<const EnumName<StepType>> enumNames<StepType>()
{
    return kStepTypes;
}
template<> std::span<const EnumName<TestType>> enumNames<TestType>()
{
    return kTestTypes;
}
template<> std::span<const EnumName<RecordFilter>> enumNames<RecordFilter>()
{
    return kRecordFilters;
}
template<> std::span<const EnumName<SweepParameter>> enumNames<SweepParameter>()
{
    return kSweepParameters;
}

std::string_view targetKindWords(TargetKind kind)
{
    switch (kind) {
    case TargetKind::TestFile:
        return "test file";
    case TargetKind::BlockDevice:
        return "block device";
    case TargetKind::Partition:
        return "partition";
    case TargetKind::Volume:
        return "volume";
    case TargetKind::PhysicalDrive:
        return "physical drive";
    case TargetKind::FileTree:
        return "file tree";
    }
    return "target";
}

} // namespace ioprism::core
