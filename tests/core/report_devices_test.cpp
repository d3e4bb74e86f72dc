// SPDX-License-Identifier: GPL-3.0-or-later
// Device counters in the result files: the JSON fields, the Iometer CSV's appended
// columns and the time series' columns (docs/results.md, "Device counters").
#include "core/report/csv.h"
#include "core/report/results_json.h"
#include "core/report/results_reader.h"

#include <gtest/gtest.h>
#include <sstream>

#include "tests/support/test_support.h"

using namespace ioprism::core;

namespace {

using ioprism::test::lines;
using ioprism::test::splitCsv;

std::size_t columnOf(const std::vector<std::string> &header, const std::string &name)
{
    for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == name)
            return i;
    ADD_FAILURE() << "no column " << name;
    return 0;
}

DeviceFigures figures(double readsPerSecond, std::uint64_t readBytes, bool hasDiscards)
{
    DeviceFigures f;
    f.valid = true;
    f.seconds = 2;
    f.readIos = std::uint64_t(readsPerSecond * 2);
    f.readBytes = readBytes;
    f.readsPerSecond = readsPerSecond;
    f.readMegabytesPerSecond = double(readBytes) / 2e6;
    f.averageRequestBytes = 4096;
    f.readAwaitMs = 0.25;
    f.queueSize = 1.5;
    f.utilPercent = 40;
    f.hasTimes = true;
    f.hasDiscards = hasDiscards;
    f.hasFlushes = hasDiscards;
    return f;
}

// A step that read 8 MB of which the device served 2 MB: served from cache. Two
// targets: /dev/loop0 (device loop0, over its backing vda) and one on tmpfs (no device).
RunResult deviceResult()
{
    RunResult r;
    r.runId = 3;
    r.deviceMap.devices
        = {{"loop0", DeviceRole::Target, "", true}, {"vda", DeviceRole::Backing, "loop0", false}};
    r.deviceMap.targets = {{"/dev/loop0", 0, ""}, {"/mnt/tmp/f", std::nullopt, "no block device"}};

    DeviceReport d;
    d.available = true;
    d.devices = {figures(250, 2'000'000, true), DeviceFigures {}};
    d.total = figures(250, 2'000'000, true);
    d.verdict
        = judgeDevice({.appReadBytes = 8'000'000, .deviceReadBytes = 2'000'000, .buffered = true});

    StepResult step;
    step.stepName = "4K read";
    step.measuredSeconds = 2;
    Measurement m;
    m.read.bytes = 8'000'000;
    m.elapsed = std::chrono::seconds(2);
    const Scope all {Scope::Kind::All, -1, -1, "All", {}};
    const Scope worker {Scope::Kind::Worker, 0, -1, "Worker 1", {}};
    const Scope target0 {Scope::Kind::Target, 0, 0, "Worker 1 / /dev/loop0", "/dev/loop0"};
    const Scope target1 {Scope::Kind::Target, 0, 1, "Worker 1 / /mnt/tmp/f", "/mnt/tmp/f"};
    for (const auto &s : {all, worker, target0, target1})
        step.scopes.push_back({s, m, computeFigures(m)});
    step.devices = d;
    r.steps.push_back(step);

    IntervalSample sample;
    sample.runId = 3;
    sample.stepName = "4K read";
    sample.endSeconds = 2;
    for (const auto &s : {all, worker, target0, target1})
        sample.scopes.push_back({s, computeFigures(m)});
    sample.devices = d;
    r.intervals.push_back(sample);
    IntervalSample idle = sample; // an interval without counters
    idle.devices = {};
    r.intervals.push_back(idle);

    r.deviceTail.sampled = true;
    r.deviceTail.seconds = 1.25;
    r.deviceTail.idle = true;
    r.deviceTail.pendingWriteBytes = 5'000'000;
    r.deviceTail.flushedWriteBytes = 4'000'000;
    r.deviceTail.remainingWriteBytes = 1'000'000;
    r.deviceTail.total = figures(0, 0, false);
    r.deviceTail.devices = {figures(0, 0, false), figures(0, 0, false)};
    return r;
}

} // namespace

TEST(ReportDevices, JsonStepCarriesFiguresVerdictAndNumbers)
{
    const auto doc = resultsToJson(deviceResult(), Environment {});
    const auto &d = doc.at("steps").at(0).at("devices");
    EXPECT_TRUE(d.at("available").get<bool>());
    EXPECT_EQ(d.at("verdict").at("verdict"), "served from cache");
    EXPECT_EQ(d.at("verdict").at("read").at("verdict"), "served from cache");
    EXPECT_EQ(d.at("verdict").at("read").at("app_bytes"), 8'000'000u);
    EXPECT_EQ(d.at("verdict").at("read").at("device_bytes"), 2'000'000u);
    EXPECT_DOUBLE_EQ(d.at("verdict").at("read").at("ratio").get<double>(), 0.25);
    EXPECT_EQ(d.at("verdict").at("write").at("verdict"), "idle");
    EXPECT_TRUE(d.at("verdict").at("write").at("ratio").is_null()); // nothing written
    EXPECT_DOUBLE_EQ(d.at("total").at("read_iops").get<double>(), 250);
    EXPECT_DOUBLE_EQ(d.at("total").at("util_percent").get<double>(), 40);
    ASSERT_EQ(d.at("devices").size(), 2u);
    EXPECT_EQ(d.at("devices").at(0).at("name"), "loop0");
    EXPECT_EQ(d.at("devices").at(0).at("role"), "target");
    EXPECT_EQ(d.at("devices").at(1).at("role"), "backing");
    EXPECT_TRUE(d.at("devices").at(1).at("figures").is_null()); // not readable
}

TEST(ReportDevices, JsonMarksFiguresTheKernelDoesNotHaveAsNull)
{
    const auto doc = resultsToJson(deviceResult(), Environment {});
    const auto &tail = doc.at("device_counters").at("tail").at("total");
    EXPECT_TRUE(tail.at("discard_iops").is_null());
    EXPECT_TRUE(tail.at("flush_iops").is_null());
    EXPECT_DOUBLE_EQ(tail.at("read_await_ms").get<double>(), 0.25);
    const auto &step = doc.at("steps").at(0).at("devices").at("total");
    EXPECT_DOUBLE_EQ(step.at("discard_iops").get<double>(), 0.0);
}

TEST(ReportDevices, JsonIntervalsWithoutCountersSaySoWithNullNumbers)
{
    const auto doc = resultsToJson(deviceResult(), Environment {});
    // Columns: the first interval has counters, the second has none.
    const auto &d = doc.at("intervals").at("devices");
    EXPECT_EQ(d.at("available"), nlohmann::json::parse("[true, false]"));
    EXPECT_EQ(d.at("verdict").at(0), "served from cache");
    EXPECT_EQ(d.at("verdict").at(1), "no device counters");
    EXPECT_EQ(d.at("read").at("verdict").at(0), "served from cache");
    EXPECT_TRUE(d.at("read").at("verdict").at(1).is_null());
    EXPECT_TRUE(d.at("read").at("app_bytes").at(1).is_null());
    EXPECT_TRUE(d.at("write_backlog_bytes").at(1).is_null());
    EXPECT_EQ(d.at("total").at("read_bytes").at(0), 2'000'000u);
    EXPECT_TRUE(d.at("total").at("read_bytes").at(1).is_null());
    ASSERT_EQ(d.at("devices").size(), 2u);
    EXPECT_EQ(d.at("devices").at(1).at("name"), "vda");
    EXPECT_TRUE(d.at("devices").at(1).at("figures").at("in_flight").at(0).is_null());
}

TEST(ReportDevices, JsonWithoutAnyCountersHasNullIntervalDevices)
{
    RunResult r = deviceResult();
    for (auto &interval : r.intervals)
        interval.devices = {};
    const auto doc = resultsToJson(r, Environment {});
    EXPECT_TRUE(doc.at("intervals").at("devices").is_null());
}

// The columns read back into the reports they were written from (and so to the same text).
TEST(ReportDevices, IntervalDeviceColumnsReadBack)
{
    RunResult r = deviceResult();
    r.plan.profile = Profile {};
    AccessSpec spec;
    spec.name = "4K read";
    spec.lines.push_back(SpecLine {});
    r.plan.profile.specs.push_back(spec);
    const std::string text = writeResultsJson(r, Environment {});
    const ResultsRead read = readResultsJson(text);
    ASSERT_TRUE(read.ok()) << read.error;
    ASSERT_EQ(read.result->intervals.size(), 2u);
    const DeviceReport &with = read.result->intervals[0].devices;
    EXPECT_TRUE(with.available);
    EXPECT_EQ(with.verdict.verdict, r.intervals[0].devices.verdict.verdict);
    EXPECT_EQ(with.verdict.read.appBytes, 8'000'000u);
    EXPECT_EQ(with.total.readBytes, 2'000'000u);
    EXPECT_EQ(with.total.hasTimes, r.intervals[0].devices.total.hasTimes);
    ASSERT_EQ(with.devices.size(), 2u);
    EXPECT_TRUE(with.devices[0].valid);
    EXPECT_FALSE(with.devices[1].valid);
    const DeviceReport &without = read.result->intervals[1].devices;
    EXPECT_FALSE(without.available);
    EXPECT_EQ(without.verdict.verdict, Verdict::NoDeviceCounters);
    EXPECT_TRUE(without.devices.empty());
    EXPECT_EQ(writeResultsJson(*read.result, read.result->environment), text);
}

TEST(ReportDevices, JsonRecordsTheDeviceMapAndTheTail)
{
    const auto doc = resultsToJson(deviceResult(), Environment {});
    const auto &c = doc.at("device_counters");
    ASSERT_EQ(c.at("devices").size(), 2u);
    EXPECT_EQ(c.at("devices").at(1).at("name"), "vda");
    EXPECT_EQ(c.at("devices").at(1).at("via"), "loop0");
    EXPECT_FALSE(c.at("devices").at(1).at("in_total").get<bool>());
    EXPECT_TRUE(c.at("devices").at(0).at("via").is_null());
    EXPECT_EQ(c.at("targets").at(0).at("device"), "loop0");
    EXPECT_TRUE(c.at("targets").at(1).at("device").is_null());
    EXPECT_EQ(c.at("targets").at(1).at("note"), "no block device");
    const auto &t = c.at("tail");
    EXPECT_EQ(t.at("pending_write_bytes"), 5'000'000u);
    EXPECT_EQ(t.at("flushed_write_bytes"), 4'000'000u);
    EXPECT_EQ(t.at("remaining_write_bytes"), 1'000'000u);
    EXPECT_TRUE(t.at("idle").get<bool>());
    EXPECT_DOUBLE_EQ(t.at("seconds").get<double>(), 1.25);

    RunResult none;
    EXPECT_TRUE(resultsToJson(none, Environment {}).at("device_counters").at("tail").is_null());
}

TEST(ReportDevices, IometerCsvAppendsDeviceColumnsToAllManagerAndDiskRows)
{
    const auto all = lines(writeIometerCsv(deviceResult(), Environment {}, RecordFilter::All));
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    for (const auto &l : all) {
        if (l.rfind("'Target Type", 0) == 0)
            header = splitCsv(l.substr(1));
        else if (!header.empty())
            for (const char *type : {"ALL,", "MANAGER,", "PROCESSOR,", "WORKER,", "DISK,"})
                if (l.rfind(type, 0) == 0)
                    rows.push_back(splitCsv(l));
    }
    ASSERT_FALSE(header.empty());
    EXPECT_EQ(header.back(), "Device/Application Write Ratio");
    const auto name = columnOf(header, "Device Name"), verdict = columnOf(header, "Device Verdict"),
               readIops = columnOf(header, "Device Read IOps"),
               compared = columnOf(header, "Compared Bytes Read"),
               ratio = columnOf(header, "Device/Application Read Ratio"),
               util = columnOf(header, "Device % Utilization"),
               readVerdict = columnOf(header, "Device Read Verdict");
    ASSERT_EQ(rows.size(), 6u); // ALL, MANAGER, PROCESSOR, WORKER, 2 x DISK
    int disks = 0;
    for (const auto &row : rows) {
        ASSERT_EQ(row.size(), header.size()) << row[0];
        const std::string &type = row[0];
        if (type == "ALL" || type == "MANAGER") {
            EXPECT_EQ(row[name], "loop0") << type; // the devices in the total
            EXPECT_EQ(row[verdict], "served from cache");
            EXPECT_EQ(row[readVerdict], "served from cache");
            EXPECT_EQ(row[readIops], "250.000000");
            EXPECT_EQ(row[compared], "8000000");
            EXPECT_EQ(row[ratio], "0.250000");
            EXPECT_EQ(row[util], "40.000000");
        } else if (type == "DISK") {
            ++disks;
            if (row[1] == "/dev/loop0") {
                EXPECT_EQ(row[name], "loop0");
                EXPECT_EQ(row[readIops], "250.000000");
            } else {
                EXPECT_EQ(row[name], ""); // on tmpfs: no device
            }
            EXPECT_EQ(row[verdict], ""); // the verdict is over all targets
        } else {
            EXPECT_EQ(row[name], "") << type;
            EXPECT_EQ(row[verdict], "") << type;
        }
    }
    EXPECT_EQ(disks, 2);
}

TEST(ReportDevices, TimeSeriesRepeatsTheIntervalsDeviceColumnsOnEveryScopeRow)
{
    const auto all = lines(writeTimeSeriesCsv(deviceResult()));
    const auto header = splitCsv(all.front());
    const auto verdict = columnOf(header, "verdict"), readIops = columnOf(header, "dev_read_iops"),
               ratio = columnOf(header, "dev_read_ratio"),
               compared = columnOf(header, "compared_read_bytes"),
               await = columnOf(header, "dev_read_await_ms"),
               flush = columnOf(header, "dev_flush_iops");
    ASSERT_EQ(all.size(), 1u + 8u); // 2 intervals x 4 scopes
    for (std::size_t i = 1; i <= 4; ++i) {
        const auto row = splitCsv(all[i]);
        ASSERT_EQ(row.size(), header.size());
        EXPECT_EQ(row[verdict], "served from cache");
        EXPECT_EQ(row[readIops], "250.000");
        EXPECT_EQ(row[ratio], "0.2500");
        EXPECT_EQ(row[compared], "8000000");
        EXPECT_EQ(row[await], "0.250");
        EXPECT_EQ(row[flush], "0.000");
    }
    for (std::size_t i = 5; i <= 8; ++i) {
        const auto row = splitCsv(all[i]);
        ASSERT_EQ(row.size(), header.size());
        EXPECT_EQ(row[verdict], "no device counters");
        EXPECT_EQ(row[readIops], "");
        EXPECT_EQ(row[ratio], "");
    }
}
