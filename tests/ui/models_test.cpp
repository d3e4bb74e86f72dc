// SPDX-License-Identifier: GPL-3.0-or-later
// Every item model of the window under QAbstractItemModelTester, through the edits the
// window makes (inserts, removals, moves, resets, value changes).
#include "core/profile/presets.h"
#include "ui/format.h"
#include "ui/models/assigned_specs_model.h"
#include "ui/models/profile_document.h"
#include "ui/models/results_model.h"
#include "ui/models/spec_library_model.h"
#include "ui/models/spec_lines_model.h"
#include "ui/models/targets_model.h"
#include "ui/models/topology_model.h"

#include <QAbstractItemModelTester>
#include <QLoggingCategory>

#include <gtest/gtest.h>
#include <mutex>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

// Collects the tester's complaints (it reports through qWarning in the "qt.modeltest"
// category) so that a broken model fails the test instead of aborting the executable.
class ModelTesterTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        test::ensureApp();
        s_failures.clear();
        m_previous = qInstallMessageHandler(&ModelTesterTest::handler);
    }
    void TearDown() override { qInstallMessageHandler(m_previous); }

    std::unique_ptr<QAbstractItemModelTester> watch(QAbstractItemModel *model)
    {
        return std::make_unique<QAbstractItemModelTester>(
            model, QAbstractItemModelTester::FailureReportingMode::Warning);
    }
    static QStringList failures() { return s_failures; }

private:
    static void handler(QtMsgType type, const QMessageLogContext &context, const QString &message)
    {
        if (type != QtDebugMsg && type != QtInfoMsg && context.category
            && QLatin1String(context.category) == QLatin1String("qt.modeltest"))
            s_failures << message;
    }
    static inline QStringList s_failures;
    QtMessageHandler m_previous = nullptr;
};

core::Profile presetProfile(const char *name)
{
    core::Problems problems;
    auto profile = core::loadPreset(name, problems);
    EXPECT_TRUE(profile.has_value());
    return profile.value_or(core::Profile {});
}

TEST_F(ModelTesterTest, TopologyModelPassesThroughWorkerAndTargetEdits)
{
    ProfileDocument document;
    document.setProfile(test::smallProfile());
    TopologyModel model(&document);
    auto tester = watch(&model);

    EXPECT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.rowCount(model.hostIndex()), 1);
    EXPECT_EQ(model.rowCount(model.workerIndex(0)), 1);

    EXPECT_EQ(model.addWorker(), 1);
    EXPECT_EQ(model.duplicateWorker(0), 1);
    EXPECT_EQ(model.rowCount(model.hostIndex()), 3);
    EXPECT_TRUE(model.setData(model.workerIndex(2), QStringLiteral("Renamed")));
    EXPECT_EQ(model.workerIndex(2).data().toString(), QStringLiteral("Renamed"));

    // A target added by another model resets the tree.
    document.mutableWorker(1)->targets.push_back(
        core::Target {core::TargetKind::TestFile, "/tmp/b.dat"});
    document.commitStructure(nullptr);
    EXPECT_EQ(model.rowCount(model.workerIndex(1)), 2);

    EXPECT_TRUE(model.removeWorker(0));
    EXPECT_FALSE(model.removeWorker(7));
    EXPECT_EQ(model.rowCount(model.hostIndex()), 2);
    document.setProfile(presetProfile("iometer"));
    EXPECT_EQ(model.rowCount(model.hostIndex()), 1);
    EXPECT_TRUE(failures().isEmpty()) << failures().join(QLatin1Char('\n')).toStdString();
}

TEST_F(ModelTesterTest, TargetsModelPassesThroughTicksAndSettings)
{
    ProfileDocument document;
    document.setProfile(test::smallProfile());
    TargetsModel model(&document);
    auto tester = watch(&model);

    TargetCandidate disk;
    disk.kind = core::TargetKind::BlockDevice;
    disk.path = "/dev/fake0";
    disk.sizeBytes = 10 * core::kGiB;
    disk.rotational = false;
    disk.mountPoints = {"/mnt/fake"};
    TargetCandidate file;
    file.kind = core::TargetKind::TestFile;
    file.path = "/data/ioprism-test.dat";
    file.freeBytes = 600 * core::kMiB;
    model.setCandidates({disk, file});
    model.setWorker(0);
    // The worker's own target (not a candidate) is listed after the candidates.
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(
        model.index(2, TargetsModel::TargetColumn).data(Qt::CheckStateRole).toInt(), Qt::Checked);
    EXPECT_EQ(model.index(0, TargetsModel::TargetColumn).data(TargetsModel::InUseRole).toString(),
        QStringLiteral("mounted at /mnt/fake"));

    // Ticking a test-file location leaves room on a small file system.
    EXPECT_TRUE(
        model.setData(model.index(1, TargetsModel::TargetColumn), Qt::Checked, Qt::CheckStateRole));
    ASSERT_EQ(document.worker(0)->targets.size(), 2u);
    EXPECT_EQ(document.worker(0)->targets[1].testFileSizeBytes, 300 * core::kMiB);
    EXPECT_TRUE(model.index(1, TargetsModel::FileSizeColumn).flags() & Qt::ItemIsEditable);
    EXPECT_TRUE(
        model.setData(model.index(1, TargetsModel::FileSizeColumn), QStringLiteral("128M")));
    EXPECT_EQ(document.worker(0)->targets[1].testFileSizeBytes, 128 * core::kMiB);
    EXPECT_TRUE(model.setData(model.index(1, TargetsModel::OutstandingColumn), 16));
    EXPECT_EQ(document.worker(0)->targets[1].outstandingIos, 16u);
    EXPECT_TRUE(
        model.setData(model.index(1, TargetsModel::CacheColumn), int(core::CacheMode::Buffered)));
    EXPECT_EQ(document.worker(0)->targets[1].cacheMode, core::CacheMode::Buffered);
    EXPECT_TRUE(model.setData(
        model.index(1, TargetsModel::WriteThroughColumn), Qt::Checked, Qt::CheckStateRole));
    EXPECT_TRUE(document.worker(0)->targets[1].writeThrough);
    // Settings of an unticked row cannot be edited.
    EXPECT_FALSE(model.index(0, TargetsModel::OutstandingColumn).flags() & Qt::ItemIsEditable);
    EXPECT_FALSE(model.setData(model.index(0, TargetsModel::OutstandingColumn), 8));

    EXPECT_TRUE(model.setData(
        model.index(2, TargetsModel::TargetColumn), Qt::Unchecked, Qt::CheckStateRole));
    EXPECT_EQ(document.worker(0)->targets.size(), 1u);
    EXPECT_EQ(model.rowCount(), 3); // rows stay: a second click undoes the first
    EXPECT_EQ(model.addPath("/elsewhere/t.dat", core::TargetKind::TestFile), 3);
    EXPECT_EQ(document.worker(0)->targets.size(), 2u);
    model.setWorker(-1);
    // The candidates, and the test file the user added (offered to every worker).
    EXPECT_EQ(model.rowCount(), 3);
    EXPECT_TRUE(failures().isEmpty()) << failures().join(QLatin1Char('\n')).toStdString();
}

TEST_F(ModelTesterTest, SpecLibraryModelPassesThroughSpecEdits)
{
    ProfileDocument document;
    document.setProfile(test::smallProfile());
    SpecLibraryModel model(&document);
    auto tester = watch(&model);

    const int presetRows = model.rowCount() - 1;
    EXPECT_GT(presetRows, 10);
    EXPECT_EQ(model.profileSpec(0), 0);
    EXPECT_EQ(model.profileSpec(1), -1);

    EXPECT_EQ(model.addSpec(), 1);
    EXPECT_EQ(model.duplicateSpec(0), 2);
    const int adopted = model.adoptSpec(3); // the first preset row
    EXPECT_EQ(adopted, 3);
    EXPECT_EQ(model.rowCount(), 4 + presetRows - 1);

    // Renaming follows through the workers' assignments.
    EXPECT_TRUE(
        model.setData(model.index(0, SpecLibraryModel::NameColumn), QStringLiteral("Renamed")));
    EXPECT_EQ(document.worker(0)->assignedSpecs.front(), "Renamed");
    EXPECT_FALSE(
        model.setData(model.index(1, SpecLibraryModel::NameColumn), QStringLiteral("Renamed")));

    EXPECT_TRUE(model.removeSpec(0));
    EXPECT_TRUE(document.worker(0)->assignedSpecs.empty());
    EXPECT_FALSE(model.removeSpec(model.rowCount() - 1)); // a preset's spec
    EXPECT_TRUE(failures().isEmpty()) << failures().join(QLatin1Char('\n')).toStdString();
}

TEST_F(ModelTesterTest, AssignedSpecsModelPassesThroughAssignMoveAndRemove)
{
    ProfileDocument document;
    document.setProfile(presetProfile("quick"));
    AssignedSpecsModel model(&document);
    auto tester = watch(&model);
    model.setWorker(0);
    ASSERT_EQ(model.rowCount(), 4);
    const auto before = document.worker(0)->assignedSpecs;

    EXPECT_TRUE(model.moveDown(0));
    EXPECT_EQ(document.worker(0)->assignedSpecs[1], before[0]);
    EXPECT_TRUE(model.moveUp(1));
    EXPECT_EQ(document.worker(0)->assignedSpecs, before);
    EXPECT_FALSE(model.moveUp(0));
    EXPECT_FALSE(model.moveDown(3));
    EXPECT_EQ(model.assign("SEQ1M Q8T1 Read", 1), 1);
    EXPECT_EQ(model.rowCount(), 5);
    EXPECT_TRUE(model.removeRows(1, 1));
    EXPECT_EQ(document.worker(0)->assignedSpecs, before);
    model.setWorker(-1);
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_TRUE(failures().isEmpty()) << failures().join(QLatin1Char('\n')).toStdString();
}

TEST_F(ModelTesterTest, SpecLinesModelPassesThroughLineEdits)
{
    ProfileDocument document;
    document.setProfile(test::smallProfile());
    SpecLinesModel model(&document);
    auto tester = watch(&model);
    model.setSpec(0);
    ASSERT_EQ(model.rowCount(), 1);

    EXPECT_EQ(model.addLine(), 1);
    EXPECT_EQ(document.profile().specs[0].lines[1].sharePercent, 0u); // takes what is left
    EXPECT_TRUE(model.setData(model.index(0, SpecLinesModel::ShareColumn), 60));
    EXPECT_TRUE(model.setData(model.index(1, SpecLinesModel::ShareColumn), 40));
    EXPECT_TRUE(model.setData(model.index(1, SpecLinesModel::SizeColumn), QStringLiteral("64k")));
    EXPECT_EQ(document.profile().specs[0].lines[1].transferSizeBytes, 64 * core::kKiB);
    EXPECT_EQ(
        document.profile().specs[0].lines[1].alignmentBytes, 64 * core::kKiB); // follows the size
    EXPECT_TRUE(model.setData(model.index(1, SpecLinesModel::DelayColumn), QStringLiteral("5ms")));
    EXPECT_EQ(document.profile().specs[0].lines[1].delay, std::chrono::milliseconds(5));
    EXPECT_FALSE(
        model.setData(model.index(1, SpecLinesModel::DelayColumn), QStringLiteral("soon")));
    core::RandomDistribution zipf;
    zipf.kind = core::DistributionKind::Zipf;
    zipf.zipfTheta = 1.1;
    EXPECT_TRUE(model.setData(
        model.index(1, SpecLinesModel::DistributionColumn), QVariant::fromValue(zipf)));
    EXPECT_EQ(model.index(1, SpecLinesModel::DistributionColumn).data().toString(),
        QStringLiteral("zipf θ=1.1"));
    EXPECT_TRUE(model.setData(model.index(1, SpecLinesModel::DataPatternColumn),
        QVariant::fromValue(LinePattern {true, {core::DataPatternKind::Zeros}})));
    EXPECT_TRUE(document.profile().specs[0].lines[1].dataPattern.has_value());
    EXPECT_FALSE(document.hasErrors());

    EXPECT_TRUE(model.moveDown(0));
    EXPECT_EQ(document.profile().specs[0].lines[0].sharePercent, 40u);
    EXPECT_TRUE(model.moveUp(1));
    EXPECT_TRUE(model.removeRows(1, 1));
    EXPECT_EQ(model.rowCount(), 1);
    model.setSpec(-1);
    EXPECT_EQ(model.rowCount(), 0);
    model.setSpec(0);
    document.setProfile(presetProfile("iometer")); // the spec index stays valid or resets
    EXPECT_TRUE(failures().isEmpty()) << failures().join(QLatin1Char('\n')).toStdString();
}

RunResultPtr syntheticResult()
{
    auto result = std::make_shared<core::RunResult>();
    result->engine = "null";
    for (int s = 0; s < 2; ++s) {
        core::StepResult step;
        step.step = static_cast<std::size_t>(s);
        step.stepName = "step " + std::to_string(s);
        step.measuredSeconds = 1;
        step.cpu.valid = true;
        step.cpu.busyPercent = 12.5;
        step.cpuEffectiveness = 80;
        const std::vector<core::Scope> scopes = {{core::Scope::Kind::All, -1, -1, "All", ""},
            {core::Scope::Kind::Worker, 0, -1, "Worker 1", ""},
            {core::Scope::Kind::Target, 0, 0, "Worker 1 / t", "t"}};
        for (const auto &scope : scopes) {
            core::ScopeResult r;
            r.scope = scope;
            for (int i = 0; i < 100; ++i) {
                r.measurement.read.histogram.record(50'000 + i * 1000);
                r.measurement.read.bins.record(50'000 + i * 1000);
            }
            r.measurement.read.bytes = 100 * 4096;
            r.measurement.elapsed = std::chrono::seconds(1);
            r.figures = core::computeFigures(r.measurement);
            step.scopes.push_back(r);
        }
        result->steps.push_back(step);
    }
    return result;
}

TEST_F(ModelTesterTest, ResultsModelPassesThroughResultsAndSteps)
{
    ResultsModel model;
    auto tester = watch(&model);
    EXPECT_EQ(model.rowCount(), 0);
    model.setResult(syntheticResult());
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.stepCount(), 2);
    EXPECT_DOUBLE_EQ(
        model.index(0, ResultsModel::IopsColumn).data(ResultsModel::ValueRole).toDouble(), 100.0);
    EXPECT_EQ(model.index(0, ResultsModel::CpuColumn).data().toString(), QStringLiteral("12.5 %"));
    // CPU is the machine's: only the All row has it.
    EXPECT_FALSE(model.index(1, ResultsModel::CpuColumn).data(ResultsModel::ValueRole).isValid());
    EXPECT_TRUE(model.index(0, ResultsModel::MeanLatencyColumn)
                    .data()
                    .toString()
                    .endsWith(QStringLiteral("µs")));
    model.setStep(1);
    EXPECT_EQ(model.step(), 1);
    model.setStep(5);
    EXPECT_EQ(model.rowCount(), 0);
    model.setResult(nullptr);
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_TRUE(failures().isEmpty()) << failures().join(QLatin1Char('\n')).toStdString();
}

// The Re-point dialog lists candidates by this line: enough to tell two disks apart and
// to see which are in use or where a test file goes.
TEST(TargetsModelText, DescribeCandidateSaysWhatTheTargetIs)
{
    TargetCandidate disk;
    disk.kind = core::TargetKind::BlockDevice;
    disk.path = "/dev/sdb";
    disk.model = "Samsung SSD 870";
    disk.sizeBytes = 500 * core::kGiB;
    disk.rotational = false;
    disk.mountPoints = {"/data"};
    disk.inUse = {"swap"};
    EXPECT_EQ(TargetsModel::describeCandidate(disk),
        QStringLiteral("/dev/sdb — Samsung SSD 870, %1, SSD, in use: mounted at /data, swap")
            .arg(capacityText(500 * core::kGiB)));

    TargetCandidate file;
    file.kind = core::TargetKind::TestFile;
    file.path = "/home/ioprism-test.dat";
    file.mountPoints = {"/home"};
    file.fsType = "ext4";
    file.freeBytes = 20 * core::kGiB;
    EXPECT_EQ(TargetsModel::describeCandidate(file),
        QStringLiteral("/home/ioprism-test.dat — test file on /home (ext4), %1 free")
            .arg(capacityText(20 * core::kGiB)));

    TargetCandidate bare;
    bare.kind = core::TargetKind::BlockDevice;
    bare.path = "/dev/vdq";
    EXPECT_EQ(TargetsModel::describeCandidate(bare), QStringLiteral("/dev/vdq"));
}

} // namespace
} // namespace ioprism::ui
