// SPDX-License-Identifier: GPL-3.0-or-later
// Checks of a results JSON of a run on several hosts (agents, MPI ranks): the "All"
// figures are exact — I/Os and bytes summed, IOPS the sum of the hosts' rates, the
// histogram the hosts' merged bucket by bucket and its p99 that merge's p99.
#pragma once

#include "core/report/results_reader.h"
#include "core/stats/histogram.h"

#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ioprism::test {

// The host scopes of a step of a results JSON.
inline std::vector<nlohmann::json> hostScopes(const nlohmann::json &step)
{
    std::vector<nlohmann::json> out;
    for (const auto &scope : step.at("scopes"))
        if (scope.at("kind") == "host")
            out.push_back(scope);
    return out;
}

// A histogram_ns direction's buckets, low bound -> count.
inline std::map<std::uint64_t, std::uint64_t> histogramBuckets(const nlohmann::json &list)
{
    std::map<std::uint64_t, std::uint64_t> out;
    for (const auto &b : list)
        out[b.at(0).get<std::uint64_t>()] += b.at(2).get<std::uint64_t>();
    return out;
}

// Step `step` of the results document `text` (read I/O) has `hosts` host scopes, each
// with reads, and an All scope that is exactly their sum and merge.
inline void expectAllHostsExact(const std::string &text, std::size_t hosts, std::size_t step = 0)
{
    const auto json = nlohmann::json::parse(text);
    const auto &s = json.at("steps").at(step);
    const auto &all = s.at("scopes").at(0);
    ASSERT_EQ(all.at("kind"), "all");
    const auto scopes = hostScopes(s);
    ASSERT_EQ(scopes.size(), hosts);

    // I/Os and bytes add up exactly; IOPS is the sum of the hosts' rates (each over its own
    // measured time), so equal up to the rounding of a sum of doubles.
    std::uint64_t ios = 0, bytes = 0;
    double iops = 0;
    std::map<std::uint64_t, std::uint64_t> merged;
    for (const auto &h : scopes) {
        EXPECT_GT(h.at("read").at("ios").get<std::uint64_t>(), 0u) << h.at("label");
        ios += h.at("read").at("ios").get<std::uint64_t>();
        bytes += h.at("read").at("bytes").get<std::uint64_t>();
        iops += h.at("total").at("iops").get<double>();
        ASSERT_TRUE(h.contains("histogram_ns")) << h.at("label");
        for (const auto &[low, count] : histogramBuckets(h["histogram_ns"]["read"]))
            merged[low] += count;
    }
    EXPECT_EQ(all.at("read").at("ios").get<std::uint64_t>(), ios);
    EXPECT_EQ(all.at("read").at("bytes").get<std::uint64_t>(), bytes);
    EXPECT_NEAR(all.at("total").at("iops").get<double>(), iops, iops * 1e-12);
    // The All histogram is the hosts' merged bucket by bucket...
    EXPECT_EQ(histogramBuckets(all.at("histogram_ns").at("read")), merged);

    // ...and its p99 is the p99 of that merge, computed here by core's histogram from the
    // hosts' own histograms as the file gives them (never an average of the hosts' p99).
    const auto read = core::readResultsJson(text);
    ASSERT_TRUE(read.ok()) << read.error;
    core::LatencyHistogram hostsMerged;
    for (const auto &scope : read.result->steps.at(step).scopes)
        if (scope.scope.kind == core::Scope::Kind::Host)
            hostsMerged.merge(scope.measurement.read.histogram);
    EXPECT_EQ(hostsMerged.count(), ios);
    EXPECT_DOUBLE_EQ(all.at("read").at("latency_us").at("p99").get<double>(),
        hostsMerged.percentileNs(99) / 1e3);
}

} // namespace ioprism::test
