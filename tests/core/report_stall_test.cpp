// SPDX-License-Identifier: GPL-3.0-or-later
// A stalled interval in the time-series CSV: the in-flight age is the maximum latency
// and the stall has columns of its own, so the CSV says what the JSON says.
#include "core/report/csv.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace ioprism::core;

namespace {

std::vector<std::string> fields(const std::string &line)
{
    std::vector<std::string> out;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, ','))
        out.push_back(field);
    return out;
}

std::size_t column(const std::string &name)
{
    const auto header = fields(timeSeriesHeader().substr(0, timeSeriesHeader().size() - 1));
    for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == name)
            return i;
    ADD_FAILURE() << name << " is not a column";
    return 0;
}

} // namespace

TEST(TimeSeriesCsv, AStalledIntervalShowsTheInFlightAgeAndTheStall)
{
    IntervalSample s;
    s.runId = 1;
    s.stepName = "4K";
    s.phase = RunPhase::Measuring;
    Figures f;
    f.inFlightAtEnd = 32;
    f.total.stalledIos = 32;
    f.total.oldestInFlightUs = 2.5e6;
    f.total.latency.maxUs = 2.5e6; // computeFigures puts the age there
    s.scopes.push_back({{Scope::Kind::All, -1, -1, "All", {}}, f});
    const auto row = fields(timeSeriesRows(s));
    EXPECT_EQ(row.at(column("stalled_ios")), "32");
    EXPECT_EQ(row.at(column("oldest_in_flight_us")), "2500000.000");
    EXPECT_EQ(row.at(column("lat_max_us")), "2500000.000");
    EXPECT_EQ(row.at(column("lat_mean_us")), "") << "nothing completed: no mean";

    // An idle interval: no latency at all.
    s.scopes[0].figures = Figures {};
    const auto idle = fields(timeSeriesRows(s));
    EXPECT_EQ(idle.at(column("lat_max_us")), "");
    EXPECT_EQ(idle.at(column("stalled_ios")), "0");
}
