// SPDX-License-Identifier: GPL-3.0-or-later
// The names of the profile enums as written in JSON profiles and on the command line.
//
// One table per enum (names.cpp) is the single source of truth: toString, parsing and
// the "one of: ..." lists in messages all read it, so a new enumerator needs one line.
// Names are camelCase; parsing ignores ASCII case so that a command line "HotZones" or
// "DIRECT" works, while writers always emit the canonical spelling.
#pragma once

#include "core/profile/profile.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ioprism::core {

template<typename E> struct EnumName {
    E value;
    std::string_view name;
};

// The table of an enum, in declaration order. Specialised for every enum below.
template<typename E> std::span<const EnumName<E>> enumNames();

template<> std::span<const EnumName<DistributionKind>> enumNames<DistributionKind>();
template<> std::span<const EnumName<DataPatternKind>> enumNames<DataPatternKind>();
template<> std::span<const EnumName<SpecAssignment>> enumNames<SpecAssignment>();
template<> std::span<const EnumName<TargetKind>> enumNames<TargetKind>();
template<> std::span<const EnumName<CacheMode>> enumNames<CacheMode>();
template<> std::span<const EnumName<WorkerType>> enumNames<WorkerType>();
template<> std::span<const EnumName<StepType>> enumNames<StepType>();
template<> std::span<const EnumName<TestType>> enumNames<TestType>();
template<> std::span<const EnumName<RecordFilter>> enumNames<RecordFilter>();
template<> std::span<const EnumName<SweepParameter>> enumNames<SweepParameter>();

// The canonical name; "" for a value outside the enum (a cast gone wrong).
template<typename E> std::string_view enumToString(E value)
{
    for (const auto &entry : enumNames<E>())
        if (entry.value == value)
            return entry.name;
    return {};
}

// The value of that name, ignoring ASCII case; nullopt for an unknown name.
template<typename E> std::optional<E> parseEnum(std::string_view name)
{
    const auto lower
        = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; };
    for (const auto &entry : enumNames<E>()) {
        if (entry.name.size() != name.size())
            continue;
        bool same = true;
        for (std::size_t i = 0; i < name.size() && same; ++i)
            same = lower(entry.name[i]) == lower(name[i]);
        if (same)
            return entry.value;
    }
    return std::nullopt;
}

// "uniform, zipf, pareto, normal, hotZones": for "one of: ..." in messages.
template<typename E> std::string allowedNames()
{
    std::string out;
    for (const auto &entry : enumNames<E>()) {
        if (!out.empty())
            out += ", ";
        out += entry.name;
    }
    return out;
}

inline std::string_view toString(DistributionKind v)
{
    return enumToString(v);
}
inline std::string_view toString(DataPatternKind v)
{
    return enumToString(v);
}
inline std::string_view toString(SpecAssignment v)
{
    return enumToString(v);
}
inline std::string_view toString(TargetKind v)
{
    return enumToString(v);
}
inline std::string_view toString(CacheMode v)
{
    return enumToString(v);
}
inline std::string_view toString(WorkerType v)
{
    return enumToString(v);
}
inline std::string_view toString(StepType v)
{
    return enumToString(v);
}
inline std::string_view toString(TestType v)
{
    return enumToString(v);
}
inline std::string_view toString(RecordFilter v)
{
    return enumToString(v);
}
inline std::string_view toString(SweepParameter v)
{
    return enumToString(v);
}

inline std::optional<DistributionKind> parseDistributionKind(std::string_view s)
{
    return parseEnum<DistributionKind>(s);
}
inline std::optional<DataPatternKind> parseDataPatternKind(std::string_view s)
{
    return parseEnum<DataPatternKind>(s);
}
inline std::optional<SpecAssignment> parseSpecAssignment(std::string_view s)
{
    return parseEnum<SpecAssignment>(s);
}
// The kind in words for people ("test file", "physical drive"), as messages and
// descriptions write it; toString gives the profile's JSON name ("physicalDrive").
std::string_view targetKindWords(TargetKind kind);

inline std::optional<TargetKind> parseTargetKind(std::string_view s)
{
    return parseEnum<TargetKind>(s);
}
inline std::optional<CacheMode> parseCacheMode(std::string_view s)
{
    return parseEnum<CacheMode>(s);
}
inline std::optional<WorkerType> parseWorkerType(std::string_view s)
{
    return parseEnum<WorkerType>(s);
}
inline std::optional<StepType> parseStepType(std::string_view s)
{
    return parseEnum<StepType>(s);
}
inline std::optional<TestType> parseTestType(std::string_view s)
{
    return parseEnum<TestType>(s);
}
inline std::optional<RecordFilter> parseRecordFilter(std::string_view s)
{
    return parseEnum<RecordFilter>(s);
}

} // namespace ioprism::core
