// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/series.h"

#include "core/profile/names.h"
#include "core/profile/sweep_parameter.h"
#include "core/profile/units.h"

#include <array>
#include <charconv>
#include <fmt/format.h>

namespace ioprism::core {

std::vector<std::uint64_t> sweepValues(const SweepAxis &axis)
{
    if (!axis.values.empty())
        return std::vector<std::uint64_t>(axis.values.begin(),
            axis.values.begin() + std::ptrdiff_t(std::min(axis.values.size(), kMaxSweepValues)));
    std::vector<std::uint64_t> values;
    const bool multiply = axis.multiply >= 2;
    if ((!multiply && axis.add == 0) || (multiply && axis.from == 0) || axis.to < axis.from)
        return values;
    for (std::uint64_t v = axis.from; v <= axis.to && values.size() < kMaxSweepValues;) {
        values.push_back(v);
        // The next value, unless it would not fit 64 bits (then this was the last).
        if (multiply ? v > UINT64_MAX / axis.multiply : v > UINT64_MAX - axis.add)
            break;
        v = multiply ? v * axis.multiply : v + axis.add;
    }
    return values;
}

std::size_t sweepValueCount(const SweepAxis &axis)
{
    if (!axis.values.empty())
        return axis.values.size();
    const auto values = sweepValues(axis);
    if (values.size() < kMaxSweepValues)
        return values.size();
    // At the limit: would one more value still be generated?
    const std::uint64_t v = values.back();
    const bool multiply = axis.multiply >= 2;
    if (multiply ? v > UINT64_MAX / axis.multiply : v > UINT64_MAX - axis.add)
        return values.size();
    const std::uint64_t next = multiply ? v * axis.multiply : v + axis.add;
    return next <= axis.to ? values.size() + 1 : values.size();
}

std::string describeSweepValue(SweepParameter parameter, std::uint64_t value)
{
    const SweepParameterTraits &t = sweepTraits(parameter);
    if (t.kind == SweepValueKind::Size)
        return describeExactSize(value);
    return fmt::format("{}{}{}", t.prefix, value, value == 1 ? t.suffixOne : t.suffixMany);
}

namespace {

// The parameter parseSweep reads before the '=' (lower case): its CLI name or an alias.
std::optional<SweepParameter> parameterNamed(std::string_view name)
{
    for (const auto &t : sweepParameterTraits()) {
        if (name == t.cliName)
            return t.parameter;
        for (const auto alias : t.cliAliases)
            if (!alias.empty() && name == alias)
                return t.parameter;
    }
    return std::nullopt;
}

std::string lowered(std::string_view text)
{
    std::string out(text);
    for (auto &c : out)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return out;
}

std::string valueText(SweepParameter p, std::uint64_t v)
{
    return sweepTraits(p).kind == SweepValueKind::Size ? formatSize(v) : std::to_string(v);
}

std::optional<std::uint64_t> parseValue(SweepParameter p, std::string_view text)
{
    if (sweepTraits(p).kind == SweepValueKind::Size)
        return parseSize(text);
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return v;
}

} // namespace

std::string formatSweep(const SweepAxis &axis)
{
    // fmt, not operator+ on literals: GCC 12 at -O3 warns falsely (-Wrestrict, GCC bug
    // 105329) on `"x" + std::string`, and release builds turn warnings into errors.
    std::string text = fmt::format("{}=", sweepTraits(axis.parameter).cliName);
    if (!axis.values.empty()) {
        for (std::size_t i = 0; i < axis.values.size(); ++i)
            text += fmt::format("{}{}", i ? "," : "", valueText(axis.parameter, axis.values[i]));
        return text;
    }
    text += fmt::format(
        "{}..{}", valueText(axis.parameter, axis.from), valueText(axis.parameter, axis.to));
    text += axis.multiply >= 2 ? fmt::format(":x{}", axis.multiply)
                               : fmt::format(":+{}", valueText(axis.parameter, axis.add));
    return text;
}

std::optional<SweepAxis> parseSweep(std::string_view text, std::string &error)
{
    const auto eq = text.find('=');
    if (eq == std::string_view::npos) {
        error = fmt::format("expected PARAM=FROM..TO:xM, PARAM=FROM..TO:+N or PARAM=V1,V2,... "
                            "(PARAM: bs, qd, workers, read, random), got \"{}\"",
            text);
        return std::nullopt;
    }
    const std::string name = lowered(text.substr(0, eq));
    SweepAxis axis;
    const auto parameter = parameterNamed(name);
    if (!parameter) {
        error = fmt::format(
            "\"{}\" is not a parameter a series sweeps (bs, qd, workers, read, random)", name);
        return std::nullopt;
    }
    axis.parameter = *parameter;
    const std::string_view rest = text.substr(eq + 1);
    const auto bad = [&](std::string_view what) {
        error = fmt::format("\"{}\" is not a value of {}{}", what, toString(axis.parameter),
            sweepTraits(axis.parameter).kind == SweepValueKind::Size
                ? " (a size such as 512, 4k, 1MiB)"
                : " (a whole number)");
        return std::nullopt;
    };
    const auto range = rest.find("..");
    if (range == std::string_view::npos) {
        for (std::size_t b = 0; b <= rest.size();) {
            const std::size_t e = std::min(rest.find(',', b), rest.size());
            const auto v = parseValue(axis.parameter, rest.substr(b, e - b));
            if (!v)
                return bad(rest.substr(b, e - b));
            axis.values.push_back(*v);
            b = e + 1;
        }
        return axis;
    }
    const auto colon = rest.find(':', range);
    const auto from = parseValue(axis.parameter, rest.substr(0, range));
    const auto to = parseValue(axis.parameter,
        rest.substr(range + 2,
            colon == std::string_view::npos ? std::string_view::npos : colon - range - 2));
    if (!from)
        return bad(rest.substr(0, range));
    if (!to)
        return bad(rest.substr(range + 2, colon - range - 2));
    axis.from = *from;
    axis.to = *to;
    const std::string_view step = colon == std::string_view::npos ? "x2" : rest.substr(colon + 1);
    if (!step.empty() && (step[0] == 'x' || step[0] == '*')) {
        const auto m = parseValue(SweepParameter::Workers, step.substr(1));
        if (!m || *m < 2 || *m > 1024) {
            error = fmt::format("\"{}\": a multiplying step is x2 ... x1024", step);
            return std::nullopt;
        }
        axis.multiply = std::uint32_t(*m);
    } else if (!step.empty() && step[0] == '+') {
        const auto n = parseValue(axis.parameter, step.substr(1));
        if (!n || *n == 0) {
            error = fmt::format("\"{}\": an adding step is +1 or more", step);
            return std::nullopt;
        }
        axis.add = *n;
    } else {
        error = fmt::format("\"{}\": the step is xM (multiply) or +N (add)", step);
        return std::nullopt;
    }
    return axis;
}

std::optional<PositionZone> positionZone(
    const Series &series, const std::vector<std::uint64_t> &values)
{
    for (std::size_t a = 0; a < series.axes.size() && a < values.size(); ++a) {
        if (series.axes[a].parameter != SweepParameter::Position)
            continue;
        PositionZone zone {.fromPercent = std::min<std::uint64_t>(values[a], 99)};
        for (const auto v : sweepValues(series.axes[a]))
            if (v > zone.fromPercent)
                zone.toPercent = std::min(zone.toPercent, v);
        return zone;
    }
    return std::nullopt;
}

Region zoneOf(const Region &region, PositionZone zone, std::uint64_t unitBytes)
{
    std::uint64_t granule = 4096;
    while (granule < kMiB && granule * 2 <= region.sizeBytes / 100)
        granule *= 2;
    unitBytes = std::max<std::uint64_t>(unitBytes, 1);
    granule = (granule + unitBytes - 1) / unitBytes * unitBytes;
    // region.sizeBytes x percent / 100 without overflow for any 64-bit size.
    const auto at = [&](std::uint64_t percent) {
        const std::uint64_t bytes
            = region.sizeBytes / 100 * percent + region.sizeBytes % 100 * percent / 100;
        return bytes / granule * granule;
    };
    const std::uint64_t from = std::min(at(zone.fromPercent),
        region.sizeBytes >= granule ? region.sizeBytes / granule * granule - granule : 0);
    const std::uint64_t to
        = zone.toPercent >= 100 ? region.sizeBytes : std::max(at(zone.toPercent), from + granule);
    return {.offsetBytes = region.offsetBytes + from,
        .sizeBytes = std::min(to, region.sizeBytes) - from};
}

std::size_t seriesPointCount(const Series &series)
{
    if (series.axes.empty())
        return 0;
    std::size_t n = 1;
    for (const auto &axis : series.axes)
        n *= sweepValues(axis).size();
    return n;
}

} // namespace ioprism::core
