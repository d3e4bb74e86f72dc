// SPDX-License-Identifier: GPL-3.0-or-later
// Live validation in the editors: what is typed is stored and checked by core at once;
// a cell or field with a problem turns red and shows core's own message.
#include "core/profile/units.h"
#include "core/profile/validation.h"
#include "ui/editors/editors.h"
#include "ui/editors/field_marks.h"
#include "ui/format.h"
#include "ui/models/profile_document.h"
#include "ui/models/spec_lines_model.h"
#include "ui/pages/setup_page.h"
#include "ui/style.h"

#include <QBrush>
#include <QLineEdit>
#include <QSpinBox>
#include <QStyleOptionViewItem>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

// core's message for a field path, as validateProfile words it.
class EditorValidationTest : public test::WithApp, public ::testing::Test
{
protected:
    void SetUp() override
    {
        test::ensureApp();
        document.setProfile(test::smallProfile());
        model.setSpec(0);
        view.setModel(&model);
        view.setItemDelegate(&delegate);
    }
    // Types `value` into the cell's own editor and commits it, as the view does.
    void typeInto(int row, int column, int value)
    {
        const QModelIndex index = model.index(row, column);
        QStyleOptionViewItem option;
        std::unique_ptr<QWidget> editor(delegate.createEditor(view.viewport(), option, index));
        auto *spin = qobject_cast<QSpinBox *>(editor.get());
        ASSERT_NE(spin, nullptr);
        delegate.setEditorData(spin, index);
        spin->setValue(value);
        delegate.setModelData(spin, &model, index);
    }

    ProfileDocument document;
    SpecLinesModel model {&document};
    SpecLineDelegate delegate;
    QTableView view;
};

TEST_F(EditorValidationTest, PercentReadOf140MakesTheCellInvalidWithCoresMessage)
{
    typeInto(0, SpecLinesModel::ReadColumn, 140);

    // Stored as typed (not clamped), so core sees it and names the rule.
    EXPECT_EQ(document.profile().specs[0].lines[0].percentRead, 140u);
    const std::string message
        = test::coreMessage(document.profile(), "specs[0].lines[0].percentRead");
    ASSERT_EQ(message, "140 is above 100");

    const QModelIndex cell = model.index(0, SpecLinesModel::ReadColumn);
    EXPECT_TRUE(cell.data(SpecLinesModel::HasErrorRole).toBool());
    EXPECT_TRUE(cell.data(Qt::ToolTipRole).toString().contains(toQString(message)));
    const QBrush brush = cell.data(Qt::BackgroundRole).value<QBrush>();
    EXPECT_EQ(brush.color(), errorTint());
    // Only that cell: its neighbours stay clean.
    EXPECT_FALSE(
        model.index(0, SpecLinesModel::RandomColumn).data(SpecLinesModel::HasErrorRole).toBool());
    EXPECT_FALSE(model.index(0, SpecLinesModel::RandomColumn).data(Qt::BackgroundRole).isValid());
    EXPECT_TRUE(document.hasErrors());
}

TEST_F(EditorValidationTest, FixingTheValueClearsTheCell)
{
    typeInto(0, SpecLinesModel::ReadColumn, 140);
    typeInto(0, SpecLinesModel::ReadColumn, 100);
    const QModelIndex cell = model.index(0, SpecLinesModel::ReadColumn);
    EXPECT_FALSE(cell.data(SpecLinesModel::HasErrorRole).toBool());
    EXPECT_FALSE(cell.data(Qt::BackgroundRole).isValid());
    EXPECT_FALSE(cell.data(Qt::ToolTipRole).toString().contains(QStringLiteral("above")));
    EXPECT_FALSE(document.hasErrors());
}

TEST_F(EditorValidationTest, SharesThatDoNotSumTo100MarkEveryShareCell)
{
    ASSERT_EQ(model.addLine(), 1);
    typeInto(1, SpecLinesModel::ShareColumn, 30);
    const std::string message = test::coreMessage(document.profile(), "specs[0].lines");
    ASSERT_EQ(message, "shares sum to 130, not 100");
    for (int row = 0; row < 2; ++row) {
        const QModelIndex cell = model.index(row, SpecLinesModel::ShareColumn);
        EXPECT_TRUE(cell.data(SpecLinesModel::HasErrorRole).toBool()) << row;
        EXPECT_TRUE(cell.data(Qt::ToolTipRole).toString().contains(toQString(message))) << row;
    }
    typeInto(0, SpecLinesModel::ShareColumn, 70);
    EXPECT_FALSE(
        model.index(0, SpecLinesModel::ShareColumn).data(SpecLinesModel::HasErrorRole).toBool());
}

TEST_F(EditorValidationTest, SizeEditorStoresBytesFromNumberAndUnit)
{
    const QModelIndex index = model.index(0, SpecLinesModel::SizeColumn);
    QStyleOptionViewItem option;
    std::unique_ptr<QWidget> editor(delegate.createEditor(view.viewport(), option, index));
    auto *size = qobject_cast<SizeEditor *>(editor.get());
    ASSERT_NE(size, nullptr);
    delegate.setEditorData(size, index);
    EXPECT_EQ(size->bytes(), 4096u);
    size->setBytes(3 * core::kMiB);
    delegate.setModelData(size, &model, index);
    EXPECT_EQ(document.profile().specs[0].lines[0].transferSizeBytes, 3 * core::kMiB);
    EXPECT_EQ(index.data().toString(), QStringLiteral("3 MiB"));
}

// Issue 24, item 2: a unit typed into a size cell is read as the CLI reads it ("1m" was
// stored as 1 KiB, "1000B" as 1000 KiB); text that is no size cannot be typed at all.
TEST_F(EditorValidationTest, ASizeTypedWithItsUnitIsStoredAsTheCliReadsIt)
{
    const struct {
        const char *typed;
        int column;
        std::uint64_t bytes;
    } cases[] = {
        {"1m", SpecLinesModel::SizeColumn, core::kMiB}, {"1000B", SpecLinesModel::SizeColumn, 1000},
        {"64 KiB", SpecLinesModel::SizeColumn, 64 * core::kKiB},
        {"2MB", SpecLinesModel::SizeColumn, 2 * core::kMiB},
        {"1.5g", SpecLinesModel::SizeColumn, 1536 * core::kMiB},
        {"512b", SpecLinesModel::AlignmentColumn, 512},
        {"8k", SpecLinesModel::AlignmentColumn, 8 * core::kKiB},
        {"12", SpecLinesModel::SizeColumn, 12 * core::kKiB}, // a bare number: the unit shown
    };
    for (const auto &c : cases) {
        const QModelIndex index = model.index(0, c.column);
        QStyleOptionViewItem option;
        std::unique_ptr<QWidget> editor(delegate.createEditor(view.viewport(), option, index));
        auto *size = qobject_cast<SizeEditor *>(editor.get());
        ASSERT_NE(size, nullptr);
        size->setBytes(4 * core::kKiB);
        QLineEdit *line = size->numberField()->findChild<QLineEdit *>();
        ASSERT_NE(line, nullptr);
        line->selectAll();
        QTest::keyClicks(line, QString::fromLatin1(c.typed));
        EXPECT_EQ(line->text(), QString::fromLatin1(c.typed)) << c.typed;
        delegate.setModelData(size, &model, index);
        const auto &l = document.profile().specs[0].lines[0];
        EXPECT_EQ(c.column == SpecLinesModel::SizeColumn ? l.transferSizeBytes : l.alignmentBytes,
            c.bytes)
            << c.typed;
    }
    // No guess: what is not a size is refused as it is typed, and the value stays.
    const QModelIndex index = model.index(0, SpecLinesModel::SizeColumn);
    QStyleOptionViewItem option;
    std::unique_ptr<QWidget> editor(delegate.createEditor(view.viewport(), option, index));
    auto *size = qobject_cast<SizeEditor *>(editor.get());
    delegate.setEditorData(size, index);
    QLineEdit *line = size->numberField()->findChild<QLineEdit *>();
    line->selectAll();
    QTest::keyClicks(line, QStringLiteral("4x"));
    EXPECT_EQ(line->text(), QStringLiteral("4")) << "the x is not accepted";
    for (const char *bad : {"1q", "lots", "1e3", "-1"}) {
        line->selectAll();
        QTest::keyClicks(line, QString::fromLatin1(bad));
        EXPECT_NE(line->text(), QString::fromLatin1(bad)) << bad << " was accepted as typed";
    }
}

TEST(SetupPageValidation, UnreadableAndInvalidDurationsMarkTheField)
{
    test::ensureApp();
    ProfileDocument document;
    document.setProfile(test::smallProfile());
    SetupPage page(&document, nullPlatformServices().engines);
    QLineEdit *runTime = page.runTimeField();

    runTime->setText(QStringLiteral("soon"));
    emit runTime->editingFinished();
    EXPECT_TRUE(runTime->property("ioprismInvalid").toBool());
    EXPECT_TRUE(runTime->toolTip().contains(QStringLiteral("not a whole number of seconds")));
    EXPECT_EQ(document.profile().setup.runTime, std::chrono::seconds(1)); // unchanged

    runTime->setText(QStringLiteral("1m30s"));
    emit runTime->editingFinished();
    EXPECT_EQ(document.profile().setup.runTime, std::chrono::seconds(90));
    EXPECT_FALSE(runTime->property("ioprismInvalid").toBool());

    // A value core refuses (more than 100 days) is marked with core's message.
    runTime->setText(QStringLiteral("3000h"));
    emit runTime->editingFinished();
    const std::string message = test::coreMessage(document.profile(), "setup.runTime");
    ASSERT_FALSE(message.empty());
    EXPECT_TRUE(runTime->property("ioprismInvalid").toBool());
    EXPECT_TRUE(runTime->toolTip().contains(toQString(message)));
}

} // namespace
} // namespace ioprism::ui
