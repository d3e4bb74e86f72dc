// The CLI's text: interval lines.
#include "app/cli/summary.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace ioprism::core;
using ioprism::cli::intervalLine;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// One interval of "4K read" with `ios` reads, compared with a device.
IntervalSample sample(std::uint64_t ios, Verdict read, Verdict write)
{
    IntervalSample s;
    s.stepName = "4K read";
    s.endSeconds = 3;
    Figures f;
    f.seconds = 1;
    f.read.ios = f.total.ios = ios;
    f.total.iops = double(ios);
    f.total.latency.meanUs = ios ? 120 : 0;
    f.total.latency.p99Us = ios ? 900 : 0;
    s.scopes.push_back({Scope {Scope::Kind::All, -1, -1, "All", {}}, f});
    s.devices.available = true;
    s.devices.verdict.read.verdict = read;
    s.devices.verdict.write.verdict = write;
    // The core's headline for agree and idle alike (core/stats/verdict.h).
    s.devices.verdict.verdict = Verdict::Agree;
    return s;
}

} // namespace

TEST(IntervalLine, AnIntervalWithIoShowsItsLatencyAndVerdict)
{
    const std::string line = intervalLine(sample(1000, Verdict::Agree, Verdict::Idle));
    EXPECT_THAT(line, HasSubstr("lat mean    120 µs p99    900 µs"));
    EXPECT_THAT(line, HasSubstr("agree"));
    EXPECT_THAT(line, Not(HasSubstr("no I/O")));
}

TEST(IntervalLine, AnIntervalWithoutIoSaysSoAndClaimsNoAgreement)
{
    const std::string line = intervalLine(sample(0, Verdict::Idle, Verdict::Idle));
    EXPECT_THAT(line, HasSubstr("no I/O"));
    EXPECT_THAT(line, Not(HasSubstr("lat mean")));
    EXPECT_THAT(line, Not(HasSubstr("µs")));
    EXPECT_THAT(line, Not(HasSubstr("agree")));
    EXPECT_THAT(line, HasSubstr("MB/s idle"));
}

TEST(IntervalLine, DeviceTrafficWithoutOursIsStillReported)
{
    // Nothing from us, but the device moved data: the verdict says so.
    auto s = sample(0, Verdict::OtherTraffic, Verdict::Idle);
    s.devices.verdict.verdict = Verdict::OtherTraffic;
    EXPECT_THAT(intervalLine(s), HasSubstr("other traffic"));
}
