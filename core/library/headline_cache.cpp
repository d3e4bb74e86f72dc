// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/library/headline_cache.h"

#include "core/stats/verdict.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace ioprism::core {

namespace {

using Json = nlohmann::json;

constexpr std::string_view kFormatName = "ioprism-headline-cache";
// Bumped whenever ResultsHeadline or this layout changes: an older cache is then simply
// rebuilt. 2: the figures are one step's (figure_step), no longer the whole run's average,
// so a version 1 cache's figures must not be shown again.
constexpr int kFormatVersion = 2;

Json cacheNumber(double v)
{
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

double numberOf(const Json &j)
{
    return j.is_number() ? j.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

template<typename Enum, typename Names>
std::optional<Enum> enumOf(const Json &j, std::initializer_list<Enum> values, Names nameOf)
{
    if (!j.is_string())
        return std::nullopt;
    for (Enum v : values)
        if (nameOf(v) == j.get_ref<const std::string &>())
            return v;
    return std::nullopt;
}

Json headlineJson(const ResultsHeadline &h)
{
    using namespace std::chrono;
    return Json {
        {"started_at_ns", duration_cast<nanoseconds>(h.startedAt.time_since_epoch()).count()},
        {"profile", h.profileName}, {"targets", h.targets}, {"device_models", h.deviceModels},
        {"engine", h.engine}, {"tool_version", h.toolVersion}, {"iops", cacheNumber(h.iops)},
        {"mbps", cacheNumber(h.megabytesPerSecond)},
        {"mean_latency_us", cacheNumber(h.meanLatencyUs)},
        {"p99_latency_us", cacheNumber(h.p99LatencyUs)},
        {"figure_step", h.figureStep ? Json(*h.figureStep) : Json(nullptr)},
        {"figure_step_name", h.figureStepName}, {"verdict", toString(h.verdict)},
        {"outcome", toString(h.outcome)}, {"error", h.error}, {"steps", h.steps}};
}

// Throws nlohmann's exceptions on a field of the wrong type; the caller drops the entry.
std::optional<ResultsHeadline> headlineOf(const Json &j)
{
    ResultsHeadline h;
    const auto ns = j.at("started_at_ns").get<std::int64_t>();
    h.startedAt = std::chrono::system_clock::time_point(
        std::chrono::duration_cast<std::chrono::system_clock::duration>(
            std::chrono::nanoseconds(ns)));
    h.profileName = j.at("profile").get<std::string>();
    h.targets = j.at("targets").get<std::vector<std::string>>();
    h.deviceModels = j.at("device_models").get<std::vector<std::string>>();
    h.engine = j.at("engine").get<std::string>();
    h.toolVersion = j.at("tool_version").get<std::string>();
    h.iops = numberOf(j.at("iops"));
    h.megabytesPerSecond = numberOf(j.at("mbps"));
    h.meanLatencyUs = numberOf(j.at("mean_latency_us"));
    h.p99LatencyUs = numberOf(j.at("p99_latency_us"));
    if (const Json &step = j.at("figure_step"); !step.is_null())
        h.figureStep = step.get<std::size_t>();
    h.figureStepName = j.at("figure_step_name").get<std::string>();
    const auto verdict = verdictFromString(j.at("verdict").get<std::string>());
    const auto outcome
        = enumOf(j.at("outcome"), {RunOutcome::Complete, RunOutcome::Stopped, RunOutcome::Failed},
            [](RunOutcome o) { return toString(o); });
    if (!verdict || !outcome)
        return std::nullopt;
    h.verdict = *verdict;
    h.outcome = *outcome;
    h.error = j.at("error").get<std::string>();
    h.steps = j.at("steps").get<std::size_t>();
    return h;
}

} // namespace

std::string writeHeadlineCache(const HeadlineCache &cache)
{
    Json runs = Json::object();
    for (const auto &[file, entry] : cache) {
        Json e {{"file_bytes", entry.fileBytes}, {"modified", entry.modified},
            {"damaged", entry.damaged}};
        if (entry.damaged)
            e["damage"] = entry.damage;
        else
            e["headline"] = headlineJson(entry.headline);
        runs[file] = std::move(e);
    }
    const Json doc {
        {"format", kFormatName}, {"version", kFormatVersion}, {"runs", std::move(runs)}};
    return doc.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

HeadlineCache readHeadlineCache(std::string_view text)
{
    HeadlineCache cache;
    const Json doc = Json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return cache;
    const auto format = doc.find("format");
    const auto version = doc.find("version");
    const auto runs = doc.find("runs");
    if (format == doc.end() || *format != kFormatName || version == doc.end()
        || *version != kFormatVersion || runs == doc.end() || !runs->is_object())
        return cache;
    for (const auto &[file, e] : runs->items()) {
        try {
            CachedHeadline entry;
            entry.fileBytes = e.at("file_bytes").get<std::uint64_t>();
            entry.modified = e.at("modified").get<std::int64_t>();
            entry.damaged = e.at("damaged").get<bool>();
            if (entry.damaged) {
                entry.damage = e.at("damage").get<std::string>();
            } else {
                auto headline = headlineOf(e.at("headline"));
                if (!headline)
                    continue;
                entry.headline = std::move(*headline);
            }
            cache.emplace(file, std::move(entry));
        } catch (const Json::exception &) {
            // Not a whole entry: left out, so its file is read again.
        }
    }
    return cache;
}

} // namespace ioprism::core
