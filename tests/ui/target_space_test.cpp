// SPDX-License-Identifier: GPL-3.0-or-later
// Free space said before Start (issue 26, item 5): a test file or file tree that would
// not fit where it goes is marked in the Targets page's Free column, with how much more
// it needs and how much is free, before the run would refuse it while preparing.
#include "ui/models/profile_document.h"
#include "ui/models/targets_model.h"

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

constexpr const char *kPath = "/data/no-such-folder/ioprism-test.dat";

struct TargetSpace : test::WithApp, ::testing::Test {
    ProfileDocument document;
    TargetsModel model {&document};

    // One worker with one test file of `fileBytes` where `freeBytes` are free.
    void setUp(core::TargetKind kind, std::uint64_t fileBytes, std::uint64_t freeBytes)
    {
        core::Profile profile = test::smallProfile();
        core::Target &target = profile.hosts[0].workers[0].targets[0];
        target.kind = kind;
        target.path = kPath;
        target.testFileSizeBytes = fileBytes;
        target.tree = {.depth = 1, .filesPerLevel = 4, .fileSizeBytes = fileBytes / 4};
        document.setProfile(profile);
        TargetCandidate place;
        place.kind = kind;
        place.path = kPath;
        place.sizeBytes = 100 * core::kGiB;
        place.freeBytes = freeBytes;
        place.mountPoints = {"/data"};
        model.setCandidates({place});
        model.setWorker(0);
    }
    QModelIndex freeCell() const
    {
        for (int row = 0; row < model.rowCount(); ++row)
            if (model.index(row, 0).data(TargetsModel::PathRole).toString()
                == QString::fromLatin1(kPath))
                return model.index(row, TargetsModel::FreeColumn);
        return {};
    }
};

TEST_F(TargetSpace, ATestFileThatWouldNotFitIsMarkedWithWhatItNeeds)
{
    setUp(core::TargetKind::TestFile, 8 * core::kGiB, 4 * core::kGiB);
    const QModelIndex free = freeCell();
    ASSERT_TRUE(free.isValid());
    EXPECT_TRUE(free.data(Qt::BackgroundRole).isValid()) << "marked as a problem";
    const QString tip = free.data(Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.contains(QStringLiteral("Not enough space: 8 GiB more is needed here, and "
                                            "4 GiB is free on /data")))
        << tip.toStdString();
}

TEST_F(TargetSpace, ATestFileThatFitsIsNotMarked)
{
    setUp(core::TargetKind::TestFile, 4 * core::kGiB, 8 * core::kGiB);
    const QModelIndex free = freeCell();
    ASSERT_TRUE(free.isValid());
    EXPECT_FALSE(free.data(Qt::BackgroundRole).isValid());
    EXPECT_FALSE(free.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Not enough")));
}

TEST_F(TargetSpace, AFileTreeIsMeasuredByItsTotal)
{
    setUp(core::TargetKind::FileTree, 8 * core::kGiB, 4 * core::kGiB);
    const QModelIndex free = freeCell();
    ASSERT_TRUE(free.isValid());
    EXPECT_TRUE(free.data(Qt::BackgroundRole).isValid());
    EXPECT_TRUE(free.data(Qt::ToolTipRole).toString().contains(QStringLiteral("8 GiB more")));
}

} // namespace
} // namespace ioprism::ui
