// SPDX-License-Identifier: GPL-3.0-or-later
// Preconditioning in the GUI (docs/ssd-testing.md#preconditioning): the Test setup page's
// "Precondition first" box writes the profile's setup.precondition (and shows one read
// from a file), the plan says what it writes before the steps, a field core refuses is
// marked; Start writes the targets first, with its progress in the status bar, and the
// result keeps it apart from the steps.
#include "core/profile/profile_json.h"
#include "ui/main_window.h"
#include "ui/models/profile_document.h"
#include "ui/pages/precondition_box.h"
#include "ui/pages/setup_page.h"
#include "ui/run/run_controller.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QStatusBar>

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {

using namespace std::chrono_literals;

TEST(SetupPagePrecondition, TheBoxWritesItIntoTheProfileAndThePlanSaysHowMuch)
{
    test::ensureApp();
    ProfileDocument document;
    document.setProfile(test::smallProfile(30s, 1s));
    SetupPage page(&document, nullPlatformServices().engines);
    PreconditionBox *box = page.preconditionBox();
    ASSERT_NE(box, nullptr);
    EXPECT_FALSE(box->isChecked());
    EXPECT_FALSE(box->toolTip().isEmpty());
    for (QWidget *field :
        std::initializer_list<QWidget *> {box->kindField(), box->multipleField(), box->timeField()})
        EXPECT_FALSE(field->toolTip().isEmpty()) << field->objectName().toStdString();
    EXPECT_EQ(page.planText(), QStringLiteral("Start runs 1 step × 30s = 30s"));

    // Ticked: PTS's preconditioning, and the plan says what it writes first.
    box->setChecked(true);
    ASSERT_TRUE(document.profile().setup.precondition);
    EXPECT_EQ(*document.profile().setup.precondition, core::PreconditionSetup {});
    EXPECT_FALSE(box->timeField()->isEnabled()) << "a time is the workload's";
    EXPECT_EQ(page.planText(),
        QStringLiteral("First it preconditions every target with 128 KiB sequential writes, 2× "
                       "its capacity: 128 MiB. Start runs 1 step × 30s = 30s"));

    test::choose(box->kindField(), int(core::PreconditionKind::Workload));
    EXPECT_TRUE(box->timeField()->isEnabled());
    box->multipleField()->setValue(1.5);
    EXPECT_DOUBLE_EQ(document.profile().setup.precondition->capacityMultiple, 1.5);
    test::type(box->timeField(), QStringLiteral("10m"));
    const core::PreconditionSetup &pre = *document.profile().setup.precondition;
    EXPECT_EQ(pre.kind, core::PreconditionKind::Workload);
    EXPECT_EQ(pre.time, 10min);
    EXPECT_EQ(page.planText(),
        QStringLiteral("First it preconditions the targets with the first step's workload for "
                       "10m. Start runs 1 step × 30s = 30s"));

    // Saved as JSON and opened in another window, the box shows the same.
    core::Problems problems;
    auto back = core::parseProfileJson(core::writeProfileJson(document.profile()), problems);
    ASSERT_TRUE(back) << (problems.empty() ? "" : problems[0].toString());
    EXPECT_EQ(back->setup, document.profile().setup);
    ProfileDocument other;
    SetupPage shown(&other, nullPlatformServices().engines);
    other.setProfile(*back);
    PreconditionBox *again = shown.preconditionBox();
    EXPECT_TRUE(again->isChecked());
    EXPECT_EQ(again->kindField()->currentData().toInt(), int(core::PreconditionKind::Workload));
    EXPECT_DOUBLE_EQ(again->multipleField()->value(), 1.5);
    EXPECT_EQ(again->timeField()->text(), QStringLiteral("10m"));

    // A time that cannot be read is marked at once and the profile keeps its own.
    test::type(box->timeField(), QStringLiteral("soon"));
    EXPECT_TRUE(test::marked(box->timeField()));
    EXPECT_EQ(document.profile().setup.precondition->time, 10min);

    // Unticked: none.
    box->setChecked(false);
    EXPECT_FALSE(document.profile().setup.precondition);
    EXPECT_EQ(page.planText(), QStringLiteral("Start runs 1 step × 30s = 30s"));
}

// From the window on a real test file: Start writes it twice first (its progress said in
// the status bar as it goes), then runs the step; the result keeps the preconditioning
// apart, and the steps' figures have none of its writes.
TEST(SetupPagePrecondition, StartWritesTheTargetFirstAndKeepsItApart)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    core::Profile p = test::smallProfile(1s, 100ms);
    p.specs[0].lines[0].percentRead = 100; // the step only reads
    p.hosts[0].workers[0].targets[0].path = (dir.path() / "ioprism-test.dat").string();
    p.hosts[0].workers[0].targets[0].testFileSizeBytes = 16 * core::kMiB;
    p.setup.precondition = core::PreconditionSetup {};
    window.document()->setProfile(p);
    // What the status bar says each time progress comes (the window's own slot ran first:
    // connected after it, this one reads what it wrote).
    QStringList statusTexts;
    QObject::connect(window.runController(), &RunController::prepareProgress, &window,
        [&](quint64, const QString &, quint64, quint64, int work) {
            if (work != int(core::PrepareWork::Preconditioning))
                return;
            for (QLabel *label : window.statusBar()->findChildren<QLabel *>())
                if (label->text().startsWith(QStringLiteral("Preconditioning")))
                    statusTexts << label->text();
        });
    RunResultPtr finished;
    QObject::connect(&window, &MainWindow::runFinished, [&](RunResultPtr r) { finished = r; });
    ASSERT_TRUE(window.startRun());
    ASSERT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 60s));
    ASSERT_FALSE(finished->error) << finished->error->toString();
    ASSERT_TRUE(finished->preconditioning);
    EXPECT_EQ(finished->preconditioning->step.scopes.front().figures.write.bytes, 32 * core::kMiB);
    ASSERT_EQ(finished->steps.size(), 1u);
    EXPECT_EQ(finished->steps[0].scopes.front().figures.write.bytes, 0u)
        << "the step read; preconditioning's writes are in none of its figures";
    // Its progress was in the status bar while it ran (the last one, at the end: all of it).
    ASSERT_FALSE(statusTexts.isEmpty());
    EXPECT_TRUE(statusTexts.last().contains(QStringLiteral("32 MiB of 32 MiB written")))
        << statusTexts.last().toStdString();
}

} // namespace ioprism::ui
