// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/profile.h"

#include <gtest/gtest.h>

using namespace ioprism::core;

TEST(Profile, NewLineHasIometerDefaults)
{
    const SpecLine line;
    EXPECT_EQ(line.transferSizeBytes, 2048u);
    EXPECT_EQ(line.sharePercent, 100u);
    EXPECT_EQ(line.percentRead, 67u);
    EXPECT_EQ(line.percentRandom, 100u);
    EXPECT_EQ(line.burstLength, 1u);
    EXPECT_EQ(line.alignmentBytes, line.transferSizeBytes);
    EXPECT_EQ(line.replySizeBytes, 0u);
    EXPECT_EQ(line.distribution.kind, DistributionKind::Uniform);
}

TEST(Profile, FindSpecByName)
{
    Profile p;
    p.specs.push_back({.name = "a"});
    p.specs.push_back({.name = "b"});
    ASSERT_NE(findSpec(p, "b"), nullptr);
    EXPECT_EQ(findSpec(p, "b")->name, "b");
    EXPECT_EQ(findSpec(p, "c"), nullptr);
}
