// SPDX-License-Identifier: GPL-3.0-or-later
// The space a file tree's preparation needs (platform/common/file_tree_plan.h), with sizes
// from a profile that would wrap 64 bits.
#include "platform/common/file_tree_plan.h"

#include <cstdint>
#include <gtest/gtest.h>

using namespace ioprism;

// Issue 23: a tree of one file of 2^64 - 1 bytes needed "8 KiB" by the wrapped sum, and
// the space check passed. The need saturates: no file system has that much free.
TEST(FileTreePlanNeed, AHugeFileSizeSaturatesInsteadOfWrapping)
{
    platform::TreePlan plan;
    plan.folders = {"/t/level-1"};
    plan.files = {"/t/level-1/file-0001"};
    plan.missingFolders = {0};
    plan.work = {platform::TreeFileWork {}};
    EXPECT_EQ(plan.needBytes(UINT64_MAX, 4096), UINT64_MAX);
    EXPECT_EQ(plan.needBytes(4096, 4096), 4096u * 3); // the file, its folder, the marker
}
