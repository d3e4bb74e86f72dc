// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/session_codec.h"

#include "core/agent/message_channel.h"
#include "core/json/json_reader.h"
#include "core/json/whole_numbers.h"
#include "core/profile/profile_json.h"
#include "core/run/resolved_plan_json.h"

#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <vector>

namespace ioprism::core {

namespace {

using Json = nlohmann::json;

// ---------------------------------------------------------------- what each value holds
//
// One list of fields per type, read by the encoder and the decoder alike, so that the
// two cannot drift apart: a field added to a type and to its list travels both ways. The
// keys are the protocol's (docs/architecture.md); never rename one without raising
// kSessionProtocolVersion.

template<typename V> void fields(V &v, LatencyFigures &x)
{
    v("min_us", x.minUs);
    v("mean_us", x.meanUs);
    v("max_us", x.maxUs);
    v("p50_us", x.p50Us);
    v("p90_us", x.p90Us);
    v("p99_us", x.p99Us);
    v("p99_9_us", x.p99_9Us);
    v("p99_99_us", x.p99_99Us);
}
template<typename V> void fields(V &v, DirectionFigures &x)
{
    v("ios", x.ios);
    v("bytes", x.bytes);
    v("errors", x.errors);
    v("iops", x.iops);
    v("oldest_in_flight_us", x.oldestInFlightUs);
    v("stalled_ios", x.stalledIos);
    v("mb_per_s", x.megabytesPerSecond);
    v("mib_per_s", x.mebibytesPerSecond);
    v("latency", x.latency);
}
template<typename V> void fields(V &v, PhaseFigures &x)
{
    v("count", x.count);
    v("errors", x.errors);
    v("per_second", x.perSecond);
    v("latency", x.latency);
}
template<typename V> void fields(V &v, ConnectionFigures &x)
{
    v("open", x.open);
    v("close", x.close);
    v("connection", x.connection);
}
template<typename V> void fields(V &v, Figures &x)
{
    v("seconds", x.seconds);
    v("read", x.read);
    v("write", x.write);
    v("total", x.total);
    v("transactions_per_second", x.transactionsPerSecond);
    v("inFlightAtEnd", x.inFlightAtEnd);
    v("connections", x.connections);
}
template<typename V> void fields(V &v, Scope &x)
{
    v("kind", x.kind);
    v("worker", x.worker);
    v("target", x.target);
    v("label", x.label);
    v("target_path", x.targetPath);
    v("host", x.host);
}
template<typename V> void fields(V &v, ScopeFigures &x)
{
    v("scope", x.scope);
    v("figures", x.figures);
}
template<typename V> void fields(V &v, CpuFigures &x)
{
    v("valid", x.valid);
    v("user_percent", x.userPercent);
    v("system_percent", x.systemPercent);
    v("iowait_percent", x.iowaitPercent);
    v("irq_percent", x.irqPercent);
    v("softirq_percent", x.softirqPercent);
    v("steal_percent", x.stealPercent);
    v("idle_percent", x.idlePercent);
    v("busy_percent", x.busyPercent);
    v("process_percent", x.processPercent);
}
template<typename V> void fields(V &v, DeviceFigures &x)
{
    v("valid", x.valid);
    v("seconds", x.seconds);
    v("read_ios", x.readIos);
    v("write_ios", x.writeIos);
    v("read_bytes", x.readBytes);
    v("write_bytes", x.writeBytes);
    v("discard_ios", x.discardIos);
    v("discard_bytes", x.discardBytes);
    v("flush_ios", x.flushIos);
    v("reads_per_second", x.readsPerSecond);
    v("writes_per_second", x.writesPerSecond);
    v("read_merges_per_second", x.readMergesPerSecond);
    v("write_merges_per_second", x.writeMergesPerSecond);
    v("read_mb_per_s", x.readMegabytesPerSecond);
    v("write_mb_per_s", x.writeMegabytesPerSecond);
    v("average_read_request_bytes", x.averageReadRequestBytes);
    v("average_write_request_bytes", x.averageWriteRequestBytes);
    v("average_request_bytes", x.averageRequestBytes);
    v("read_await_ms", x.readAwaitMs);
    v("write_await_ms", x.writeAwaitMs);
    v("queue_size", x.queueSize);
    v("util_percent", x.utilPercent);
    v("discards_per_second", x.discardsPerSecond);
    v("discard_mb_per_s", x.discardMegabytesPerSecond);
    v("flushes_per_second", x.flushesPerSecond);
    v("flush_await_ms", x.flushAwaitMs);
    v("in_flight", x.inFlight);
    v("has_times", x.hasTimes);
    v("has_discards", x.hasDiscards);
    v("has_flushes", x.hasFlushes);
}
template<typename V> void fields(V &v, DirectionVerdict &x)
{
    v("verdict", x.verdict);
    v("app_bytes", x.appBytes);
    v("device_bytes", x.deviceBytes);
    v("ratio", x.ratio);
}
template<typename V> void fields(V &v, DeviceVerdict &x)
{
    v("verdict", x.verdict);
    v("read", x.read);
    v("write", x.write);
    v("write_backlog_bytes", x.writeBacklogBytes);
    v("write_credit_bytes", x.writeCreditBytes);
}
template<typename V> void fields(V &v, LatencyDirection &x)
{
    v("verdict", x.verdict);
    v("app_mean_us", x.appMeanUs);
    v("device_await_us", x.deviceAwaitUs);
    v("extra_us", x.extraUs);
}
template<typename V> void fields(V &v, LatencyJudgement &x)
{
    v("verdict", x.verdict);
    v("read", x.read);
    v("write", x.write);
    v("kernel_worker_us_per_io", x.kernelWorkerUsPerIo);
    v("wait_us_per_io", x.waitUsPerIo);
    v("busiest_worker_runnable_share", x.busiestWorkerRunnableShare);
    v("cpu_bound", x.cpuBound);
}
template<typename V> void fields(V &v, DeviceReport &x)
{
    v("available", x.available);
    v("devices", x.devices);
    v("total", x.total);
    v("verdict", x.verdict);
    v("latency", x.latency);
}
template<typename V> void fields(V &v, SparseLatencyHistogram &x)
{
    v("indices", x.indices);
    v("counts", x.counts);
    v("sum_ns", x.sumNs);
    v("min_ns", x.minNs);
    v("max_ns", x.maxNs);
}
template<typename V> void fields(V &v, IntervalSample &x)
{
    v("run_id", x.runId);
    v("step", x.step);
    v("step_name", x.stepName);
    v("phase", x.phase);
    v("start_seconds", x.startSeconds);
    v("end_seconds", x.endSeconds);
    v("merged_intervals", x.mergedIntervals);
    v("scopes", x.scopes);
    v("read_latency", x.readLatency);
    v("write_latency", x.writeLatency);
    v("cpu", x.cpu);
    v("cpu_effectiveness", x.cpuEffectiveness);
    v("devices", x.devices);
}
template<typename V> void fields(V &v, IometerBins &x)
{
    v("counts", x.counts);
}
template<typename V> void fields(V &v, DirectionMeasurement &x)
{
    v("bytes", x.bytes);
    v("errors", x.errors);
    v("histogram", x.histogram);
    v("bins", x.bins);
    v("min_ns", x.minNs);
    v("max_ns", x.maxNs);
    v("oldest_in_flight_ns", x.oldestInFlightNs);
    v("stalled_ios", x.stalledIos);
}
template<typename V> void fields(V &v, PhaseMeasurement &x)
{
    v("histogram", x.histogram);
    v("errors", x.errors);
    v("min_ns", x.minNs);
    v("max_ns", x.maxNs);
}
template<typename V> void fields(V &v, ConnectionMeasurement &x)
{
    v("open", x.open);
    v("close", x.close);
    v("connection", x.connection);
}
template<typename V> void fields(V &v, Measurement &x)
{
    v("read", x.read);
    v("write", x.write);
    v("connections", x.connections);
    v("transactions", x.transactions);
    v("inFlightAtEnd", x.inFlightAtEnd);
    v("elapsed_ns", x.elapsed);
}
template<typename V> void fields(V &v, ScopeResult &x)
{
    v("scope", x.scope);
    v("measurement", x.measurement);
    v("figures", x.figures);
}
template<typename V> void fields(V &v, HostShare &x)
{
    v("cpu", x.cpu);
    v("cpu_effectiveness", x.cpuEffectiveness);
    v("devices", x.devices);
    v("ended_by_amount", x.endedByAmount);
}
template<typename V> void fields(V &v, SteadyStateCriteria &x)
{
    v("rule", x.rule);
    v("window_rounds", x.windowRounds);
    v("range_limit", x.rangeLimit);
    v("slope_limit", x.slopeLimit);
    v("round_limit", x.roundLimit);
}
template<typename V> void fields(V &v, SteadyStateSetup &x)
{
    v("criteria", x.criteria);
    v("metric", x.metric);
    v("round_time", x.roundTime);
}
template<typename V> void fields(V &v, PreconditionSetup &x)
{
    v("kind", x.kind);
    v("capacity_multiple", x.capacityMultiple);
    v("time", x.time);
}
template<typename V> void fields(V &v, SteadyStateRound &x)
{
    v("start_seconds", x.startSeconds);
    v("end_seconds", x.endSeconds);
    v("figure", x.figure);
}
template<typename V> void fields(V &v, SteadyStateWindow &x)
{
    v("first", x.first);
    v("count", x.count);
    v("mean", x.mean);
    v("minimum", x.minimum);
    v("maximum", x.maximum);
    v("slope_per_round", x.slopePerRound);
    v("range_share", x.rangeShare);
    v("excursion_share", x.excursionShare);
    v("deviation_share", x.deviationShare);
    v("range_met", x.rangeMet);
    v("slope_met", x.slopeMet);
}
template<typename V> void fields(V &v, SteadyStateResult &x)
{
    v("state", x.state);
    v("rounds", x.rounds);
    v("window", x.window);
    v("explanation", x.explanation);
}
template<typename V> void fields(V &v, SteadyStateRecord &x)
{
    v("setup", x.setup);
    v("rounds", x.rounds);
    v("result", x.result);
}
template<typename V> void fields(V &v, WriteCliff &x)
{
    v("first_slow_point", x.firstSlowPoint);
    v("bytes_before", x.bytesBefore);
    v("rate_before", x.rateBefore);
    v("rate_after", x.rateAfter);
    v("drop", x.drop);
}
template<typename V> void fields(V &v, WriteCliffJudgement &x)
{
    v("intervals", x.intervals);
    v("bytes_written", x.bytesWritten);
    v("cliff", x.cliff);
    v("cliff_seconds", x.cliffSeconds);
}
template<typename V> void fields(V &v, StepResult &x)
{
    v("step", x.step);
    v("step_name", x.stepName);
    v("measured_seconds", x.measuredSeconds);
    v("setup_seconds", x.setupSeconds);
    v("drain_seconds", x.drainSeconds);
    v("complete", x.complete);
    v("ended_by_amount", x.endedByAmount);
    v("steady_state", x.steadyState);
    v("write_cliff", x.writeCliff);
    v("scopes", x.scopes);
    v("cpu", x.cpu);
    v("cpu_effectiveness", x.cpuEffectiveness);
    v("devices", x.devices);
    v("hosts", x.hosts);
}
template<typename V> void fields(V &v, PreconditionResult &x)
{
    v("setup", x.setup);
    v("planned_bytes", x.plannedBytes);
    v("step", x.step);
}
template<typename V> void fields(V &v, StuckIo &x)
{
    v("ios", x.ios);
    v("oldest_seconds", x.oldestSeconds);
    v("targets", x.targets);
}
template<typename V> void fields(V &v, WatchedDevice &x)
{
    v("name", x.name);
    v("role", x.role);
    v("via", x.via);
    v("in_total", x.inTotal);
}
template<typename V> void fields(V &v, TargetDevices &x)
{
    v("target_path", x.targetPath);
    v("device", x.device);
    v("note", x.note);
}
template<typename V> void fields(V &v, DeviceMap &x)
{
    v("devices", x.devices);
    v("targets", x.targets);
}
template<typename V> void fields(V &v, DeviceTail &x)
{
    v("sampled", x.sampled);
    v("seconds", x.seconds);
    v("idle", x.idle);
    v("pending_write_bytes", x.pendingWriteBytes);
    v("flushed_write_bytes", x.flushedWriteBytes);
    v("remaining_write_bytes", x.remainingWriteBytes);
    v("devices", x.devices);
    v("total", x.total);
}
template<typename V> void fields(V &v, OpError &x)
{
    v("code", x.code);
    v("operation", x.operation);
    v("path", x.path);
    v("detail", x.detail);
}
template<typename V> void fields(V &v, DeviceFacts &x)
{
    v("path", x.path);
    v("name", x.name);
    v("model", x.model);
    v("size_bytes", x.sizeBytes);
    v("rotational", x.rotational);
    v("scheduler", x.scheduler);
    v("logical_sector_bytes", x.logicalSectorBytes);
    v("physical_sector_bytes", x.physicalSectorBytes);
    v("nr_requests", x.nrRequests);
    v("write_cache", x.writeCache);
}
template<typename V> void fields(V &v, Environment &x)
{
    v("host_name", x.hostName);
    v("os_name", x.osName);
    v("kernel", x.kernel);
    v("cpu_model", x.cpuModel);
    v("cpu_count", x.cpuCount);
    v("tool_version", x.toolVersion);
    v("engine", x.engine);
    v("reap_batch", x.reapBatch);
    v("notices", x.notices);
    v("devices", x.devices);
    v("command_line", x.commandLine);
}
template<typename V> void fields(V &v, TestFileRemoval &x)
{
    v("removed", x.removed);
    v("failed", x.failed);
}
template<typename V> void fields(V &v, RunHost &x)
{
    v("name", x.name);
    v("rank", x.rank);
    v("agent", x.agent);
    v("environment", x.environment);
    v("device_map", x.deviceMap);
    v("device_tail", x.deviceTail);
    v("clock_offset_ns", x.clockOffsetNs);
    v("clock_uncertainty_ns", x.clockUncertaintyNs);
}
template<typename V> void fields(V &v, RunResult &x)
{
    v("run_id", x.runId);
    v("plan", x.plan);
    v("engine", x.engine);
    v("notices", x.notices);
    v("started_at_ns", x.startedAt);
    v("time_origin_at_ns", x.timeOriginAt);
    v("preconditioning", x.preconditioning);
    v("steps", x.steps);
    v("intervals", x.intervals);
    v("device_map", x.deviceMap);
    v("device_tail", x.deviceTail);
    v("error", x.error);
    v("stopped_by_user", x.stoppedByUser);
    v("stuck_io", x.stuckIo);
    v("environment", x.environment);
    v("test_file_removal", x.testFileRemoval);
    v("hosts", x.hosts);
}
template<typename V> void fields(V &v, VerdictPolicy &x)
{
    v("tolerance", x.tolerance);
    v("noise_floor_bytes", x.noiseFloorBytes);
    v("background_bytes_per_second", x.backgroundBytesPerSecond);
    v("background_share", x.backgroundShare);
    v("metadata_bytes_per_open", x.metadataBytesPerOpen);
    v("metadata_burst_bytes", x.metadataBurstBytes);
}
template<typename V> void fields(V &v, EnginePolling &x)
{
    v("completions", x.completions);
    v("submissions", x.submissions);
}
template<typename V> void fields(V &v, RunSettings &x)
{
    v("run_id", x.runId);
    v("allow_device_writes", x.allowDeviceWrites);
    v("io_limit_per_target", x.ioLimitPerTarget);
    v("stonewall_bytes", x.stonewallBytes);
    v("polling", x.polling);
    v("reap_batch", x.reapBatch);
    v("verdict", x.verdict);
    v("device_tail_limit_ms", x.deviceTailLimit);
    v("stall_threshold_ms", x.stallThreshold);
    v("stop_timeout_ms", x.stopTimeout);
    v("interval_history_bytes", x.intervalHistoryBytes);
}
template<typename V> void fields(V &v, RunRequest &x)
{
    v("profile", x.profile);
    v("engine", x.engine);
    v("settings", x.settings);
    v("remove_test_files", x.removeTestFiles);
    v("command_line", x.commandLine);
}
template<typename V> void fields(V &v, StartedEvent &x)
{
    v("engine", x.engine);
}
template<typename V> void fields(V &v, PhaseEvent &x)
{
    v("phase", x.phase);
    v("step", x.step);
    v("step_name", x.stepName);
}
template<typename V> void fields(V &v, PrepareProgressEvent &x)
{
    v("path", x.path);
    v("done", x.done);
    v("total", x.total);
    v("work", x.work);
}
template<typename V> void fields(V &v, PlanEvent &x)
{
    v("plan", x.plan);
}
template<typename V> void fields(V &v, IntervalEvent &x)
{
    v("sample", x.sample);
}
template<typename V> void fields(V &v, StepResultEvent &x)
{
    v("step", x.step);
    v("planned", x.planned);
}
template<typename V> void fields(V &v, NoticeEvent &x)
{
    v("text", x.text);
}
template<typename V> void fields(V &v, SteadyStateEvent &x)
{
    v("step", x.step);
    v("record", x.record);
}
template<typename V> void fields(V &v, FinishedEvent &x)
{
    v("result", x.result);
}

// The last enumerator of each enum the messages carry: a number past it is refused, never
// cast into a value the switches over it do not know.
template<typename E> constexpr E kLastEnumerator = E {};
template<> constexpr RunPhase kLastEnumerator<RunPhase> = RunPhase::Pausing;
template<> constexpr Scope::Kind kLastEnumerator<Scope::Kind> = Scope::Kind::Host;
template<> constexpr Verdict kLastEnumerator<Verdict> = Verdict::FileMetadata;
template<> constexpr LatencyVerdict kLastEnumerator<LatencyVerdict> = LatencyVerdict::KernelWorkers;
template<> constexpr DeviceRole kLastEnumerator<DeviceRole> = DeviceRole::Backing;
template<> constexpr PrepareWork kLastEnumerator<PrepareWork> = PrepareWork::Preconditioning;
template<>
constexpr PreconditionKind kLastEnumerator<PreconditionKind> = PreconditionKind::Workload;
template<> constexpr EngineKind kLastEnumerator<EngineKind> = EngineKind::Iocp;
template<> constexpr SteadyStateRule kLastEnumerator<SteadyStateRule> = SteadyStateRule::FioSlope;
template<>
constexpr SteadyStateMetric kLastEnumerator<SteadyStateMetric> = SteadyStateMetric::P99_9Latency;
template<> constexpr SteadyState kLastEnumerator<SteadyState> = SteadyState::NotReached;

struct FieldProbe {
    template<typename T> void operator()(const char *, T &) { }
};
template<typename T>
concept HasFields = requires(FieldProbe &probe, T &value)
{
    fields(probe, value);
};

template<typename T> struct IsVector : std::false_type { };
template<typename T> struct IsVector<std::vector<T>> : std::true_type { };
template<typename T> struct IsOptional : std::false_type { };
template<typename T> struct IsOptional<std::optional<T>> : std::true_type { };
template<typename T> struct IsArray : std::false_type { };
template<typename T, std::size_t N> struct IsArray<std::array<T, N>> : std::true_type { };
template<typename T> struct IsDuration : std::false_type { };
template<typename R, typename P>
struct IsDuration<std::chrono::duration<R, P>> : std::true_type { };

// Whole numbers of every kind the messages carry: integers, enumerations (as their
// number), durations and time points (as nanoseconds).
template<typename T>
concept IsInteger = (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    || std::is_enum_v<T> || IsDuration<T>::value
    || std::is_same_v<T, std::chrono::system_clock::time_point>;

// Reads a whole number of either form into `value`, checked against T's range (an
// enumeration: up to the last enumerator this build knows). `in` has signedNumber(),
// unsignedNumber() and fail(why): the JSON node (JsonWholeNumbers) or the binary reader.
template<typename T, typename In> void readInteger(In &in, T &value)
{
    if constexpr (std::is_integral_v<T>)
        readWholeNumber(in, value);
    else if constexpr (std::is_enum_v<T>) {
        const std::int64_t n = in.signedNumber();
        if (n < 0 || n > static_cast<std::int64_t>(kLastEnumerator<T>))
            in.fail("not a value this version knows");
        value = static_cast<T>(n);
    } else if constexpr (IsDuration<T>::value)
        value = T(static_cast<typename T::rep>(in.signedNumber()));
    else
        value = T(std::chrono::duration_cast<std::chrono::system_clock::duration>(
            std::chrono::nanoseconds(in.signedNumber())));
}

// ---------------------------------------------------------------- encoding

Json encode(const Profile &profile)
{
    return profileToJson(profile);
}
// The plan as a results file keeps it (core/run/resolved_plan_json.h), with its profile,
// which a results file holds apart.
Json encode(const ResolvedPlan &plan)
{
    return Json {{"profile", encode(plan.profile)}, {"plan", Json(encodeResolvedPlan(plan))}};
}
Json encode(const PlannedStep &step)
{
    return Json(encodePlannedStep(step));
}

template<typename T> Json encode(const T &value)
{
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isfinite(value))
            return value;
        return std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf";
    } else if constexpr (std::is_integral_v<T> || std::is_same_v<T, std::string>)
        return value; // bool is integral, and JSON's own true/false
    else if constexpr (std::is_enum_v<T>)
        return static_cast<std::int64_t>(value);
    else if constexpr (IsDuration<T>::value)
        return static_cast<std::int64_t>(value.count());
    else if constexpr (std::is_same_v<T, std::chrono::system_clock::time_point>)
        return static_cast<std::int64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(value.time_since_epoch()).count());
    else if constexpr (std::is_same_v<T, std::error_code>) {
        // A code's meaning is its category's: the system's errors keep their number on
        // the same OS; anything else travels as a generic (errno) code.
        if (!value)
            return nullptr;
        return Json {
            {"category", value.category() == std::system_category() ? "system" : "generic"},
            {"value", value.value()}};
    } else if constexpr (std::is_same_v<T, LatencyHistogram>)
        return encode(SparseLatencyHistogram::of(value, value.minNs(), value.maxNs()));
    else if constexpr (IsVector<T>::value || IsArray<T>::value) {
        Json array = Json::array();
        for (const auto &element : value)
            array.push_back(encode(element));
        return array;
    } else if constexpr (IsOptional<T>::value)
        return value ? encode(*value) : Json(nullptr);
    else {
        static_assert(HasFields<T>, "a type the session messages carry needs its fields()");
        Json object = Json::object();
        auto write
            = [&object](const char *key, const auto &member) { object[key] = encode(member); };
        // fields() takes the value as it reads it too; the writer only reads.
        fields(write, const_cast<T &>(value));
        return object;
    }
}

// ---------------------------------------------------------------- decoding

void decode(const JsonNode &node, Profile &profile)
{
    Problems problems;
    auto read = profileFromJson(node.json(), problems);
    for (const auto &p : problems)
        if (p.severity == Severity::Error)
            node.fail("the profile: " + p.toString());
    if (!read)
        node.fail("the profile could not be read");
    profile = std::move(*read);
}
void decode(const JsonNode &node, ResolvedPlan &plan)
{
    node.isObject();
    Profile profile;
    decode(node["profile"], profile);
    plan = decodeResolvedPlan(node["plan"], std::move(profile));
}
void decode(const JsonNode &node, PlannedStep &step)
{
    step = decodePlannedStep(node);
}

template<typename T> void decode(const JsonNode &node, T &value)
{
    if constexpr (std::is_same_v<T, bool>)
        value = node.boolean();
    else if constexpr (std::is_same_v<T, std::string>)
        value = node.string();
    else if constexpr (std::is_floating_point_v<T>) {
        if (node.json().is_string()) {
            const std::string text = node.string();
            if (text == "nan")
                value = std::numeric_limits<T>::quiet_NaN();
            else if (text == "inf" || text == "-inf")
                value = text == "inf" ? std::numeric_limits<T>::infinity()
                                      : -std::numeric_limits<T>::infinity();
            else
                node.wrongType("a number");
        } else
            value = static_cast<T>(node.number());
    } else if constexpr (IsInteger<T>) {
        JsonWholeNumbers in {node};
        readInteger(in, value);
    } else if constexpr (std::is_same_v<T, std::error_code>) {
        if (node.isNull()) {
            value = {};
            return;
        }
        const std::string category = node["category"].string();
        if (category != "system" && category != "generic")
            node["category"].fail("expected \"system\" or \"generic\"");
        int number = 0;
        decode(node["value"], number);
        value = std::error_code(
            number, category == "system" ? std::system_category() : std::generic_category());
    } else if constexpr (std::is_same_v<T, LatencyHistogram>) {
        SparseLatencyHistogram sparse;
        decode(node, sparse);
        value = sparse.dense();
    } else if constexpr (IsVector<T>::value) {
        node.isArray();
        value.clear();
        value.resize(node.size());
        for (std::size_t i = 0; i < value.size(); ++i)
            decode(node.at(i), value[i]);
    } else if constexpr (IsArray<T>::value) {
        node.isArray();
        if (node.size() != value.size())
            node.fail("expected " + std::to_string(value.size()) + " elements");
        for (std::size_t i = 0; i < value.size(); ++i)
            decode(node.at(i), value[i]);
    } else if constexpr (IsOptional<T>::value) {
        if (node.isNull()) {
            value.reset();
            return;
        }
        value.emplace();
        decode(node, *value);
    } else {
        static_assert(HasFields<T>, "a type the session messages carry needs its fields()");
        node.isObject();
        auto read = [&node](const char *key, auto &member) { decode(node[key], member); };
        fields(read, value);
    }
}

// ---------------------------------------------------------------- binary form
//
// The interval event, ten times a second from every host or rank, travels in a binary
// form of the same fields: a JSON interval of a host with 16 workers is about 90 KB of
// text to write and to parse, which cost the controller a few per cent of a 2-core
// machine's IOPS (bench/agents-overhead). The binary form is the fields in the order of
// their fields() list, without keys: what the JSON form holds, as exactly (a double
// travels as its 8 bytes), read with the same checks (enums in range, integers in their
// type, a count never larger than the bytes left), and a problem named by its path.
//
//   bool: 1 byte (0 or 1); unsigned integer: LEB128; signed integer, enum, duration and
//   time point: zigzag LEB128; double: 8 bytes, IEEE 754, little-endian; string:
//   length (LEB128) and UTF-8 bytes; vector: count (LEB128) and the elements; array: the
//   elements; optional: 1 byte (0 absent, 1 present) and the value; error code: 1 byte
//   (0 none, 1 system, 2 generic) and the value (zigzag); latency histogram: as its
//   sparse form; an object: its fields in order.

// The profile, the resolved plan and a planned step have JSON forms of their own (the
// profile file's, the results file's): inside a binary message each is its JSON text.
template<typename T>
concept HasOwnJson = std::is_same_v<T, Profile> || std::is_same_v<T,
    ResolvedPlan> || std::is_same_v<T, PlannedStep>;

class BinaryWriter
{
public:
    void byte(std::uint8_t b) { m_out.push_back(static_cast<char>(b)); }
    void unsignedNumber(std::uint64_t v)
    {
        while (v >= 0x80) {
            byte(static_cast<std::uint8_t>(v) | 0x80);
            v >>= 7;
        }
        byte(static_cast<std::uint8_t>(v));
    }
    void signedNumber(std::int64_t v)
    {
        unsignedNumber((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63));
    }
    void real(double d)
    {
        const auto bits = std::bit_cast<std::uint64_t>(d);
        for (int i = 0; i < 8; ++i)
            byte(static_cast<std::uint8_t>(bits >> (8 * i)));
    }
    void text(std::string_view s)
    {
        unsignedNumber(s.size());
        m_out.append(s);
    }
    std::string take() { return std::move(m_out); }

private:
    std::string m_out;
};

template<typename T> void put(BinaryWriter &w, const T &value)
{
    if constexpr (std::is_same_v<T, bool>)
        w.byte(value ? 1 : 0);
    else if constexpr (std::is_floating_point_v<T>)
        w.real(static_cast<double>(value));
    else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
        w.signedNumber(value);
    else if constexpr (std::is_integral_v<T>)
        w.unsignedNumber(value);
    else if constexpr (std::is_enum_v<T>)
        w.signedNumber(static_cast<std::int64_t>(value));
    else if constexpr (IsDuration<T>::value)
        w.signedNumber(static_cast<std::int64_t>(value.count()));
    else if constexpr (std::is_same_v<T, std::chrono::system_clock::time_point>)
        w.signedNumber(static_cast<std::int64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(value.time_since_epoch())
                .count()));
    else if constexpr (std::is_same_v<T, std::string>)
        w.text(value);
    else if constexpr (std::is_same_v<T, std::error_code>) {
        w.byte(!value ? 0 : value.category() == std::system_category() ? 1 : 2);
        if (value)
            w.signedNumber(value.value());
    } else if constexpr (std::is_same_v<T, LatencyHistogram>)
        put(w, SparseLatencyHistogram::of(value, value.minNs(), value.maxNs()));
    else if constexpr (IsVector<T>::value) {
        w.unsignedNumber(value.size());
        for (const auto &element : value)
            put(w, element);
    } else if constexpr (IsArray<T>::value) {
        for (const auto &element : value)
            put(w, element);
    } else if constexpr (IsOptional<T>::value) {
        w.byte(value ? 1 : 0);
        if (value)
            put(w, *value);
    } else if constexpr (HasOwnJson<T>)
        w.text(encode(value).dump());
    else {
        static_assert(HasFields<T>, "a type in a binary message needs its fields()");
        auto write = [&w](const char *, const auto &member) { put(w, member); };
        fields(write, const_cast<T &>(value)); // the writer only reads
    }
}

// Thrown at the first problem, with where it was; caught by decodeBinaryEvent.
struct BinaryReadStopped {
    std::string error;
};

class BinaryReader
{
public:
    explicit BinaryReader(std::string_view in)
        : m_in(in)
    { }

    [[noreturn]] void fail(const std::string &what) const
    {
        std::string path;
        for (const auto &part : m_path)
            path += part.key ? (path.empty() ? "" : ".") + std::string(part.key)
                             : "[" + std::to_string(part.index) + "]";
        throw BinaryReadStopped {(path.empty() ? "" : path + ": ") + what};
    }
    std::size_t left() const { return m_in.size() - m_pos; }
    std::uint8_t byte()
    {
        if (m_pos >= m_in.size())
            fail("the message ends early");
        return static_cast<std::uint8_t>(m_in[m_pos++]);
    }
    std::uint64_t unsignedNumber()
    {
        std::uint64_t v = 0;
        for (int shift = 0;; shift += 7) {
            const std::uint8_t b = byte();
            if (shift == 63 && b > 1)
                fail("a number over 64 bits");
            v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80))
                return v;
        }
    }
    std::int64_t signedNumber()
    {
        const std::uint64_t u = unsignedNumber();
        return static_cast<std::int64_t>((u >> 1) ^ (~(u & 1) + 1));
    }
    double real()
    {
        std::uint64_t bits = 0;
        for (int i = 0; i < 8; ++i)
            bits |= static_cast<std::uint64_t>(byte()) << (8 * i);
        return std::bit_cast<double>(bits);
    }
    // A count of elements of at least one byte each: never more than the bytes left, so
    // that no count makes a large allocation from a small message.
    std::size_t count()
    {
        const std::uint64_t n = unsignedNumber();
        if (n > left())
            fail("a count of " + std::to_string(n) + " with " + std::to_string(left())
                + " bytes left");
        return static_cast<std::size_t>(n);
    }
    std::string text()
    {
        const std::size_t n = count();
        std::string s(m_in.substr(m_pos, n));
        m_pos += n;
        return s;
    }
    void enter(const char *key) { m_path.push_back({key, 0}); }
    void enter(std::size_t index) { m_path.push_back({nullptr, index}); }
    void leave() { m_path.pop_back(); }

private:
    struct PathPart {
        const char *key;
        std::size_t index;
    };
    std::string_view m_in;
    std::size_t m_pos = 0;
    std::vector<PathPart> m_path;
};

template<typename T> void take(BinaryReader &r, T &value)
{
    if constexpr (std::is_same_v<T, bool>) {
        const std::uint8_t b = r.byte();
        if (b > 1)
            r.fail("expected a boolean (0 or 1), got " + std::to_string(b));
        value = b == 1;
    } else if constexpr (std::is_floating_point_v<T>)
        value = static_cast<T>(r.real());
    else if constexpr (IsInteger<T>)
        readInteger(r, value);
    else if constexpr (std::is_same_v<T, std::string>)
        value = r.text();
    else if constexpr (std::is_same_v<T, std::error_code>) {
        const std::uint8_t category = r.byte();
        if (category > 2)
            r.fail("expected an error category (0, 1 or 2), got " + std::to_string(category));
        int number = 0;
        if (category != 0)
            take(r, number);
        value = category == 0 ? std::error_code {}
                              : std::error_code(number,
                                  category == 1 ? std::system_category() : std::generic_category());
    } else if constexpr (std::is_same_v<T, LatencyHistogram>) {
        SparseLatencyHistogram sparse;
        take(r, sparse);
        value = sparse.dense();
    } else if constexpr (IsVector<T>::value) {
        // Grown as the elements are read, never sized by the count alone: a count backed
        // by bytes still costs an element's memory per byte (a scope is ~700 B in memory),
        // so a message of 16 MiB claiming 16 M scopes must not allocate 11 GB up front.
        value.clear();
        const std::size_t count = r.count();
        value.reserve(std::min<std::size_t>(count, 1024));
        for (std::size_t i = 0; i < count; ++i) {
            r.enter(i);
            take(r, value.emplace_back());
            r.leave();
        }
    } else if constexpr (IsArray<T>::value) {
        for (std::size_t i = 0; i < value.size(); ++i) {
            r.enter(i);
            take(r, value[i]);
            r.leave();
        }
    } else if constexpr (IsOptional<T>::value) {
        bool present = false;
        take(r, present);
        if (present) {
            value.emplace();
            take(r, *value);
        } else
            value.reset();
    } else if constexpr (HasOwnJson<T>) {
        // Its JSON text, read by its own reader: the problem's JSON path after the field's.
        const Json document = Json::parse(r.text(), nullptr, false);
        if (document.is_discarded())
            r.fail("not JSON");
        const std::string error = firstJsonReadError(
            [&](JsonReadContext &context) { decode(JsonNode(document, "", context), value); }, "");
        if (!error.empty())
            r.fail(error);
    } else {
        static_assert(HasFields<T>, "a type in a binary message needs its fields()");
        auto read = [&r](const char *key, auto &member) {
            r.enter(key);
            take(r, member);
            r.leave();
        };
        fields(read, value);
    }
}

// ---------------------------------------------------------------- messages

constexpr std::array<const char *, std::variant_size_v<SessionEvent>> kEventTypes
    = {"started", "phase", "prepare_progress", "plan", "interval", "step_result", "notice",
        "steady_state", "finished"};

// The events that travel binary: the frequent one (the interval) and the large ones (a
// step's results with its histograms, the run's result with every interval).
template<typename E>
concept IsBinaryEvent = std::is_same_v<E, IntervalEvent> || std::is_same_v<E,
    StepResultEvent> || std::is_same_v<E, FinishedEvent>;

template<std::size_t I = 0> SessionEvent takeBinaryEvent(BinaryReader &r, const std::string &type)
{
    if constexpr (I == std::variant_size_v<SessionEvent>)
        r.fail("a binary message of type \"" + type
            + "\": only intervals, step results and results are binary");
    else {
        using E = std::variant_alternative_t<I, SessionEvent>;
        if constexpr (IsBinaryEvent<E>)
            if (type == kEventTypes[I]) {
                E event;
                take(r, event);
                return event;
            }
        return takeBinaryEvent<I + 1>(r, type);
    }
}

std::string message(const char *type, Json body)
{
    Json m = Json::object();
    m["session"] = kSessionProtocolVersion;
    m["type"] = type;
    m["body"] = std::move(body);
    return m.dump();
}

// Parses the envelope and hands its body to read(node, type); the first problem refuses
// the message.
template<typename T, typename Read>
SessionDecoded<T> decodeMessage(std::string_view text, Read &&read)
{
    SessionDecoded<T> out;
    Json document = Json::parse(text, nullptr, false);
    if (document.is_discarded()) {
        out.error = "not a session message (not JSON)";
        return out;
    }
    out.error = firstJsonReadError(
        [&](JsonReadContext &context) {
            JsonNode root(document, "", context);
            root.isObject();
            const JsonNode version = root["session"];
            if (!version.json().is_number_integer()
                || version.json().get<std::int64_t>() != kSessionProtocolVersion)
                version.fail("session protocol " + version.json().dump() + ", this IOPrism speaks "
                    + std::to_string(kSessionProtocolVersion)
                    + ": run the same IOPrism version on both sides");
            out.value.emplace();
            read(root["body"], root["type"].string(), *out.value);
        },
        "cannot read the session message: ");
    if (!out.error.empty())
        out.value.reset();
    return out;
}

template<std::size_t I = 0>
void decodeEventBody(const JsonNode &body, const std::string &type, SessionEvent &event)
{
    if constexpr (I == std::variant_size_v<SessionEvent>)
        body.fail("unknown message type \"" + type + "\"");
    else if (type == kEventTypes[I]) {
        std::variant_alternative_t<I, SessionEvent> value;
        decode(body, value);
        event = std::move(value);
    } else
        decodeEventBody<I + 1>(body, type, event);
}

} // namespace

std::string encodeRequest(const RunRequest &request)
{
    return message("request", encode(request));
}

std::string encodeEvent(const SessionEvent &event)
{
    return std::visit(
        [&](const auto &value) {
            if constexpr (IsBinaryEvent<std::decay_t<decltype(value)>>) {
                BinaryWriter w;
                w.byte(kBinaryMessageMark);
                w.unsignedNumber(kSessionProtocolVersion);
                w.text(kEventTypes[event.index()]);
                put(w, value);
                return w.take();
            } else
                return message(kEventTypes[event.index()], encode(value));
        },
        event);
}

SessionDecoded<RunRequest> decodeRequest(std::string_view text)
{
    return decodeMessage<RunRequest>(
        text, [](const JsonNode &body, const std::string &type, RunRequest &request) {
            if (type != "request")
                body.fail("expected a request, got \"" + type + "\"");
            decode(body, request);
        });
}

SessionDecoded<SessionEvent> decodeEvent(std::string_view text)
{
    if (isBinaryMessage(text)) {
        SessionDecoded<SessionEvent> out;
        BinaryReader r(text.substr(1));
        try {
            const std::uint64_t version = r.unsignedNumber();
            if (version != kSessionProtocolVersion)
                r.fail("session protocol " + std::to_string(version) + ", this IOPrism speaks "
                    + std::to_string(kSessionProtocolVersion)
                    + ": run the same IOPrism version on both sides");
            const std::string type = r.text();
            r.enter("body");
            SessionEvent event = takeBinaryEvent(r, type);
            r.leave();
            if (r.left() != 0)
                r.fail(std::to_string(r.left()) + " bytes after the message's end");
            out.value = std::move(event);
        } catch (const BinaryReadStopped &stopped) {
            out.error = "cannot read the session message: " + stopped.error;
        } catch (const std::exception &e) {
            out.error = std::string("cannot read the session message: ") + e.what();
        }
        return out;
    }
    return decodeMessage<SessionEvent>(
        text, [](const JsonNode &body, const std::string &type, SessionEvent &event) {
            decodeEventBody(body, type, event);
        });
}

bool isResultMessage(std::string_view text)
{
    static_assert(std::is_same_v<
        std::variant_alternative_t<std::variant_size_v<SessionEvent> - 1, SessionEvent>,
        FinishedEvent>);
    if (!isBinaryMessage(text))
        return text.find("\"finished\"") != std::string_view::npos;
    try {
        BinaryReader r(text.substr(1));
        r.unsignedNumber(); // the version
        return r.text() == kEventTypes[std::variant_size_v<SessionEvent> - 1];
    } catch (const BinaryReadStopped &) {
        return false;
    }
}

void deliver(SessionEvent event, RunSink &sink)
{
    std::visit(
        [&sink](auto &&e) {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, StartedEvent>)
                sink.onStarted(e.engine);
            else if constexpr (std::is_same_v<E, PhaseEvent>)
                sink.onPhase(e.phase, e.step, e.stepName);
            else if constexpr (std::is_same_v<E, PrepareProgressEvent>)
                sink.onPrepareProgress(e.path, e.done, e.total, e.work);
            else if constexpr (std::is_same_v<E, PlanEvent>)
                sink.onPlan(e.plan);
            else if constexpr (std::is_same_v<E, IntervalEvent>)
                sink.onInterval(e.sample);
            else if constexpr (std::is_same_v<E, StepResultEvent>)
                sink.onStepResult(e.step, e.planned);
            else if constexpr (std::is_same_v<E, NoticeEvent>)
                sink.onNotice(e.text);
            else if constexpr (std::is_same_v<E, SteadyStateEvent>)
                sink.onSteadyState(e.step, e.record);
            else
                sink.onFinished(std::move(e.result));
        },
        std::move(event));
}

} // namespace ioprism::core
