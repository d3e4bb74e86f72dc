// SPDX-License-Identifier: GPL-3.0-or-later
// The Targets page's Access column (issue 26): whether this user may open each raw
// device now, the system would ask (udisks2), or nobody can, said before Start.
#include "ui/models/profile_document.h"
#include "ui/models/targets_model.h"
#include "ui/style.h"

#include <QBrush>
#include <QIcon>
#include <QPalette>

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using Way = core::TargetAccess::Way;

TargetCandidate device(const std::string &path, core::TargetAccess read, core::TargetAccess write)
{
    TargetCandidate c;
    c.kind = core::TargetKind::BlockDevice;
    c.path = path;
    c.sizeBytes = 8 * core::kGiB;
    c.readAccess = std::move(read);
    c.writeAccess = std::move(write);
    return c;
}

struct TargetAccessColumn : test::WithApp, ::testing::Test {
    ProfileDocument document;
    TargetsModel model {&document};

    void SetUp() override
    {
        document.setProfile(test::smallProfile());
        const core::TargetAccess broker {Way::Broker, "udisks2 opens it after polkit asks you"};
        const core::TargetAccess denied {
            Way::Denied, "alice may not write /dev/d: only root may open it: run as root"};
        TargetCandidate file;
        file.kind = core::TargetKind::TestFile;
        file.path = "/data/ioprism-test.dat";
        model.setCandidates({device("/dev/a", {}, {}), device("/dev/b", broker, broker),
            device("/dev/c", {}, denied), device("/dev/d", denied, denied), file});
        model.setWorker(0);
    }
    QVariant at(int row, int role = Qt::DisplayRole) const
    {
        return model.index(row, TargetsModel::AccessColumn).data(role);
    }
};

TEST_F(TargetAccessColumn, EachStateHasItsWordAndIcon)
{
    EXPECT_EQ(model.headerData(TargetsModel::AccessColumn, Qt::Horizontal).toString(),
        QStringLiteral("Access"));
    EXPECT_FALSE(model.headerData(TargetsModel::AccessColumn, Qt::Horizontal, Qt::ToolTipRole)
                     .toString()
                     .isEmpty());
    EXPECT_EQ(at(0).toString(), QStringLiteral("Yours"));
    EXPECT_EQ(at(1).toString(), QStringLiteral("Asks permission"));
    EXPECT_EQ(at(2).toString(), QStringLiteral("Read only"));
    EXPECT_EQ(at(3).toString(), QStringLiteral("No access"));
    EXPECT_EQ(at(4).toString(), QString()) << "a test file is always the user's own";
    EXPECT_FALSE(at(0, Qt::DecorationRole).isValid()) << "nothing to notice";
    for (int row : {1, 2, 3})
        EXPECT_FALSE(at(row, Qt::DecorationRole).value<QIcon>().isNull()) << row;
}

TEST_F(TargetAccessColumn, TheTooltipSaysWhyForReadingAndWriting)
{
    EXPECT_EQ(at(0, Qt::ToolTipRole).toString(),
        QStringLiteral("Reading: your own rights suffice\nWriting: your own rights suffice"));
    EXPECT_TRUE(at(1, Qt::ToolTipRole).toString().contains(QStringLiteral("udisks2 opens it")));
    const QString readOnly = at(2, Qt::ToolTipRole).toString();
    EXPECT_TRUE(readOnly.startsWith(QStringLiteral("Reading: your own rights suffice")));
    EXPECT_TRUE(readOnly.contains(QStringLiteral("Writing: alice may not write")));
    EXPECT_TRUE(at(3, Qt::ToolTipRole).toString().contains(QStringLiteral("run as root")));
}

TEST_F(TargetAccessColumn, ADeviceNobodyMayOpenIsGreyedWithItsAccessInRed)
{
    const QBrush greyed = QPalette().brush(QPalette::Disabled, QPalette::Text);
    EXPECT_EQ(model.index(3, TargetsModel::TargetColumn).data(Qt::ForegroundRole).value<QBrush>(),
        greyed);
    EXPECT_EQ(at(3, Qt::ForegroundRole).value<QBrush>().color(), errorColor());
    EXPECT_FALSE(model.index(1, TargetsModel::TargetColumn).data(Qt::ForegroundRole).isValid());
    EXPECT_FALSE(model.index(2, TargetsModel::TargetColumn).data(Qt::ForegroundRole).isValid());
}

} // namespace
} // namespace ioprism::ui
