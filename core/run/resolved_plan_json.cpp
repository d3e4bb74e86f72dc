// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/resolved_plan_json.h"

#include "core/profile/names.h"
#include "core/profile/profile_json.h"

#include <fmt/format.h>
#include <limits>

namespace ioprism::core {

namespace {

using OrderedJson = nlohmann::ordered_json;

OrderedJson pointJson(const std::optional<StepPoint> &point)
{
    if (!point)
        return nullptr;
    return OrderedJson {{"index", point->index}, {"trial", point->trial}, {"values", point->values},
        {"target", point->target}};
}

OrderedJson stepJson(const PlannedStep &s)
{
    OrderedJson j {{"name", s.name}, {"spec", s.specName}, {"spec_index", s.specIndex},
        {"cycle", s.cycle}, {"workers", s.workers}, {"point", pointJson(s.point)},
        {"io_limit", s.ioLimit}, {"worker_stagger_ms", s.workerStagger.count()}};
    // Only a later pass of a test says so (TestSetup::passes): a plan without passes is
    // written as before them.
    if (s.pass > 0)
        j["pass"] = s.pass;
    return j;
}

OrderedJson resolvedTargetJson(const ResolvedTarget &t)
{
    return OrderedJson {{"target", targetToOrderedJson(t.target)},
        {"info", encodeTargetInfo(t.info)},
        {"region",
            OrderedJson {
                {"offset_bytes", t.region.offsetBytes}, {"size_bytes", t.region.sizeBytes}}}};
}

OrderedJson workerJson(const ResolvedWorker &w)
{
    OrderedJson targets = OrderedJson::array();
    for (const auto &t : w.targets)
        targets.push_back(resolvedTargetJson(t));
    const DataPattern &d = w.dataPattern;
    return OrderedJson {{"name", w.name}, {"profile_worker", w.profileWorker},
        {"copy_index", w.copyIndex}, {"seed", w.seed},
        {"data_pattern",
            OrderedJson {{"kind", std::string(toString(d.kind))}, {"byte", d.repeatingByte},
                {"compressible_percent", d.compressiblePercent}}},
        {"cpu_affinity", w.cpuAffinity}, {"spec_per_step", w.specPerStep},
        {"outstanding_ios", w.outstandingIos}, {"targets", std::move(targets)}};
}

// ---------------------------------------------------------------- decoding

template<typename E> E enumOf(const JsonNode &n)
{
    const std::string name = n.string();
    if (const auto e = parseEnum<E>(name))
        return *e;
    n.fail(fmt::format("\"{}\" is not one of: {}", name, allowedNames<E>()));
    return E {};
}

std::vector<std::uint64_t> u64s(const JsonNode &n)
{
    std::vector<std::uint64_t> out;
    for (std::size_t i = 0; i < n.size(); ++i)
        out.push_back(n.at(i).u64());
    return out;
}

std::vector<std::uint32_t> u32s(const JsonNode &n)
{
    std::vector<std::uint32_t> out;
    for (std::size_t i = 0; i < n.size(); ++i)
        out.push_back(n.at(i).u32());
    return out;
}

PlannedStep stepOf(const JsonNode &n)
{
    PlannedStep s;
    s.name = n["name"].string();
    s.specName = n["spec"].string();
    s.specIndex = n["spec_index"].u64();
    s.cycle = n["cycle"].string();
    s.workers = n["workers"].u32();
    if (const JsonNode p = n["point"]; !p.isNull()) {
        StepPoint point;
        point.index = p["index"].u64();
        point.trial = p["trial"].u32();
        point.values = u64s(p["values"]);
        point.target = p["target"].string();
        s.point = std::move(point);
    }
    s.ioLimit = n["io_limit"].u64();
    s.workerStagger = std::chrono::milliseconds {n["worker_stagger_ms"].i64()};
    // Files written before passes existed have none: every step its own test.
    if (n.has("pass"))
        s.pass = n["pass"].u32();
    return s;
}

ResolvedTarget resolvedTargetOf(const JsonNode &n)
{
    ResolvedTarget t;
    JsonObjectReader target(n["target"]);
    if (target.ok()) {
        readTargetJson(target, t.target);
        target.finish();
    }
    t.info = decodeTargetInfo(n["info"]);
    const JsonNode region = n["region"];
    t.region.offsetBytes = region["offset_bytes"].u64();
    t.region.sizeBytes = region["size_bytes"].u64();
    return t;
}

// Per step: the spec a worker runs (an index in the plan's specs, or -1: idle) and each
// target's depth. Read as written: the plan's users check a step's index before they use
// it (ResolvedPlan::specOf), and a hand-made plan may have fewer entries than steps.
void stepsOfWorker(const JsonNode &n, ResolvedWorker &w)
{
    const JsonNode specPerStep = n["spec_per_step"];
    for (std::size_t s = 0; s < specPerStep.size(); ++s) {
        const JsonNode spec = specPerStep.at(s);
        const std::int64_t index = spec.i64();
        if (index < -1 || index > std::numeric_limits<int>::max())
            spec.fail(fmt::format("{} is not a spec index (-1 for none)", index));
        w.specPerStep.push_back(static_cast<int>(index));
    }
    // A step's depths are one per target: the Iometer CSV indexes them so.
    const JsonNode depths = n["outstanding_ios"];
    for (std::size_t s = 0; s < depths.size(); ++s) {
        const JsonNode row = depths.at(s);
        if (row.size() != w.targets.size())
            row.fail(fmt::format(
                "expected {} values (one per target), found {}", w.targets.size(), row.size()));
        w.outstandingIos.push_back(u32s(row));
    }
}

ResolvedWorker workerOf(const JsonNode &n)
{
    ResolvedWorker w;
    w.name = n["name"].string();
    w.profileWorker = n["profile_worker"].u64();
    w.copyIndex = n["copy_index"].u32();
    w.seed = n["seed"].u64();
    const JsonNode d = n["data_pattern"];
    w.dataPattern.kind = enumOf<DataPatternKind>(d["kind"]);
    const std::uint32_t byte = d["byte"].u32();
    if (byte > 0xFF)
        d["byte"].fail(fmt::format("{} is not a byte (0 to 255)", byte));
    w.dataPattern.repeatingByte = static_cast<std::uint8_t>(byte);
    w.dataPattern.compressiblePercent = d["compressible_percent"].u32();
    w.cpuAffinity = u32s(n["cpu_affinity"]);
    const JsonNode targets = n["targets"];
    for (std::size_t i = 0; i < targets.size(); ++i)
        w.targets.push_back(resolvedTargetOf(targets.at(i)));
    stepsOfWorker(n, w);
    return w;
}

} // namespace

nlohmann::ordered_json encodePlannedStep(const PlannedStep &step)
{
    return stepJson(step);
}

PlannedStep decodePlannedStep(const JsonNode &node)
{
    return stepOf(node);
}

nlohmann::ordered_json encodeTargetInfo(const TargetInfo &t)
{
    OrderedJson j {{"path", t.path}, {"size_bytes", t.sizeBytes},
        {"logical_block_bytes", t.logicalBlockBytes},
        {"direct_io_offset_align_bytes", t.directIoOffsetAlignBytes},
        {"direct_io_mem_align_bytes", t.directIoMemAlignBytes}, {"is_device", t.isDevice},
        {"read_only", t.readOnly}, {"created_test_file", t.createdTestFile}};
    // Who opened it and how, where the backend says (docs/results.md).
    if (!t.openedBy.empty())
        j["opened_by"] = t.openedBy;
    if (!t.openFlags.empty())
        j["open_flags"] = t.openFlags;
    return j;
}

TargetInfo decodeTargetInfo(const JsonNode &n)
{
    TargetInfo info;
    info.path = n["path"].string();
    info.sizeBytes = n["size_bytes"].u64();
    info.logicalBlockBytes = n["logical_block_bytes"].u32();
    info.directIoOffsetAlignBytes = n["direct_io_offset_align_bytes"].u32();
    info.directIoMemAlignBytes = n["direct_io_mem_align_bytes"].u32();
    info.isDevice = n["is_device"].boolean();
    info.readOnly = n["read_only"].boolean();
    info.createdTestFile = n["created_test_file"].boolean();
    info.openedBy = n.optional("opened_by").stringOrEmpty();
    info.openFlags = n.optional("open_flags").stringOrEmpty();
    return info;
}

nlohmann::ordered_json encodeResolvedPlan(const ResolvedPlan &plan)
{
    OrderedJson specs = OrderedJson::array();
    for (const auto &spec : plan.specs)
        specs.push_back(accessSpecToOrderedJson(spec));
    OrderedJson steps = OrderedJson::array();
    for (const auto &step : plan.steps)
        steps.push_back(stepJson(step));
    OrderedJson workers = OrderedJson::array();
    for (const auto &worker : plan.workers)
        workers.push_back(workerJson(worker));
    return OrderedJson {
        {"specs", std::move(specs)}, {"steps", std::move(steps)}, {"workers", std::move(workers)}};
}

ResolvedPlan decodeResolvedPlan(const JsonNode &node, Profile profile)
{
    ResolvedPlan plan;
    plan.profile = std::move(profile);
    const JsonNode specs = node["specs"];
    for (std::size_t i = 0; i < specs.size(); ++i) {
        JsonObjectReader spec(specs.at(i));
        AccessSpec &read = plan.specs.emplace_back();
        if (spec.ok()) {
            readAccessSpecJson(spec, read);
            spec.finish();
        }
    }
    const JsonNode steps = node["steps"];
    for (std::size_t i = 0; i < steps.size(); ++i)
        plan.steps.push_back(stepOf(steps.at(i)));
    const JsonNode workers = node["workers"];
    for (std::size_t i = 0; i < workers.size(); ++i)
        plan.workers.push_back(workerOf(workers.at(i)));
    return plan;
}

} // namespace ioprism::core
