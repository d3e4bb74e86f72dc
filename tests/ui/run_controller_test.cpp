// SPDX-License-Identifier: GPL-3.0-or-later
// RunController on core's null engine: runs off the GUI thread, samples arrive on it,
// plots and results fill, stale samples are dropped, Stop never blocks.
#include "core/null_engine.h"
#include "ui/models/results_model.h"
#include "ui/plots/live_plots.h"
#include "ui/run/run_controller.h"

#include <QThread>

#include <atomic>
#include <gtest/gtest.h>
#include <memory>
#include <thread>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

struct Recorder {
    std::vector<core::IntervalSample> samples;
    std::vector<RunResultPtr> finished;
    std::vector<core::RunPhase> phases;
    bool allOnGuiThread = true;

    void attach(RunController &controller)
    {
        QObject::connect(
            &controller, &RunController::intervalReady, [this](const core::IntervalSample &s) {
                allOnGuiThread &= QThread::currentThread() == qApp->thread();
                samples.push_back(s);
            });
        QObject::connect(&controller, &RunController::finished,
            [this](RunResultPtr r) { finished.push_back(r); });
        QObject::connect(&controller, &RunController::phaseChanged,
            [this](
                quint64, core::RunPhase phase, int, const QString &) { phases.push_back(phase); });
    }
};

// What a run's thread holds, seen from outside: the engines alive now and in all, and
// whether the backend still exists. The run owns its backend and engines and releases
// them before its thread returns, so "no engine and no backend" means the run is over.
struct Liveness {
    std::atomic<int> enginesAlive {0};
    std::atomic<int> enginesMade {0};
    std::atomic<bool> backendAlive {false};
};

// The null engine, counted.
class CountedEngine final : public core::IoEngine
{
public:
    CountedEngine(std::unique_ptr<core::IoEngine> inner, std::shared_ptr<Liveness> liveness)
        : m_inner(std::move(inner))
        , m_liveness(std::move(liveness))
    {
        ++m_liveness->enginesAlive;
        ++m_liveness->enginesMade;
    }
    ~CountedEngine() override { --m_liveness->enginesAlive; }
    CountedEngine(const CountedEngine &) = delete;
    CountedEngine &operator=(const CountedEngine &) = delete;
    std::string_view name() const override { return m_inner->name(); }
    core::EngineCapabilities capabilities() const override { return m_inner->capabilities(); }
    core::Status init(const core::EngineConfig &c, std::span<const core::EngineFile> f) override
    {
        return m_inner->init(c, f);
    }
    std::span<std::byte> buffer(std::uint32_t i) override { return m_inner->buffer(i); }
    core::Status openFile(std::uint32_t i, const core::EngineFile &f) override
    {
        return m_inner->openFile(i, f);
    }
    core::Status closeFile(std::uint32_t i) override { return m_inner->closeFile(i); }
    bool queue(core::IoRequest *r) override { return m_inner->queue(r); }
    core::Status commit() override { return m_inner->commit(); }
    core::Result<std::uint32_t> reap(
        std::span<core::IoRequest *> out, std::uint32_t min, std::chrono::nanoseconds t) override
    {
        return m_inner->reap(out, min, t);
    }

private:
    std::unique_ptr<core::IoEngine> m_inner;
    std::shared_ptr<Liveness> m_liveness;
};

// The null backend, whose engines are counted and whose end is seen.
class CountedBackend final : public core::IoBackend
{
public:
    explicit CountedBackend(std::shared_ptr<Liveness> liveness)
        : m_liveness(std::move(liveness))
    {
        m_liveness->backendAlive = true;
    }
    ~CountedBackend() override { m_liveness->backendAlive = false; }
    CountedBackend(const CountedBackend &) = delete;
    CountedBackend &operator=(const CountedBackend &) = delete;
    std::string engineName() const override { return m_inner.engineName(); }
    std::vector<std::string> notices() const override { return m_inner.notices(); }
    bool reachesDevices() const override { return m_inner.reachesDevices(); }
    core::Result<core::TargetInfo> prepareTarget(const core::Target &t,
        const core::PrepareOptions &o, const core::PrepareProgress &p) override
    {
        return m_inner.prepareTarget(t, o, p);
    }
    core::Result<std::unique_ptr<core::IoEngine>> makeEngine() override
    {
        auto engine = m_inner.makeEngine();
        if (!engine)
            return engine;
        return std::unique_ptr<core::IoEngine>(
            std::make_unique<CountedEngine>(std::move(*engine), m_liveness));
    }

private:
    core::NullBackend m_inner;
    std::shared_ptr<Liveness> m_liveness;
};

TEST(RunController, ANullEngineRunFillsThePlotsAndTheResults)
{
    test::ensureApp();
    RunController controller(ioprism::test::testServices());
    Recorder recorder;
    recorder.attach(controller);
    LivePlots plots;
    ResultsModel results;
    QObject::connect(&controller, &RunController::intervalReady, &plots,
        [&plots](const core::IntervalSample &sample) { plots.addSample(sample); });
    QObject::connect(&controller, &RunController::finished, &results, &ResultsModel::setResult);

    core::RunRequest request;
    request.profile = test::smallProfile(1s, 100ms);
    const auto id = controller.start(request);
    EXPECT_TRUE(controller.isRunning());
    EXPECT_EQ(controller.shownRunId(), id);
    ASSERT_TRUE(test::waitUntil([&] { return !recorder.finished.empty(); }, 30s));

    const RunResultPtr &result = recorder.finished.front();
    ASSERT_TRUE(result);
    EXPECT_FALSE(result->error) << result->error->toString();
    EXPECT_EQ(result->runId, id);
    ASSERT_EQ(result->steps.size(), 1u);
    EXPECT_FALSE(controller.isRunning());
    EXPECT_EQ(controller.activeRunCount(), 0); // joined when its last report arrived

    // About ten 100 ms intervals, every one delivered on the GUI thread.
    EXPECT_GE(recorder.samples.size(), 5u);
    EXPECT_TRUE(recorder.allOnGuiThread);
    EXPECT_EQ(recorder.samples.size(), result->intervals.size());
    EXPECT_NE(std::find(recorder.phases.begin(), recorder.phases.end(), core::RunPhase::Measuring),
        recorder.phases.end());

    for (int p = 0; p < LivePlots::PlotCount; ++p) {
        if (p == LivePlots::CpuPlot)
            continue; // the null counter source has no CPU figures
        EXPECT_GT(plots.pointCount(static_cast<LivePlots::PlotId>(p), 0), 0) << p;
    }
    EXPECT_EQ(plots.pointCount(LivePlots::ThroughputPlot, LivePlots::ReadMegabytes),
        static_cast<int>(recorder.samples.size()));
    // The device overlays draw nothing until samples carry device figures.
    EXPECT_EQ(plots.pointCount(LivePlots::ThroughputPlot, 2), 0);

    ASSERT_EQ(results.rowCount(), 3);
    const core::Scope::Kind kinds[]
        = {core::Scope::Kind::All, core::Scope::Kind::Worker, core::Scope::Kind::Target};
    for (int row = 0; row < 3; ++row) {
        EXPECT_EQ(results.index(row, 0).data(ResultsModel::ScopeKindRole).toInt(),
            static_cast<int>(kinds[row]));
        EXPECT_GT(
            results.index(row, ResultsModel::IopsColumn).data(ResultsModel::ValueRole).toDouble(),
            0.0)
            << row;
    }
}

TEST(RunController, SamplesOfARunNoLongerShownAreDropped)
{
    test::ensureApp();
    RunController controller(ioprism::test::testServices());
    Recorder recorder;
    recorder.attach(controller);

    // Run A runs until stopped; wait for its first sample.
    core::RunRequest untilStopped;
    untilStopped.profile = test::smallProfile(0s, 100ms);
    const auto a = controller.start(untilStopped);
    ASSERT_TRUE(test::waitUntil([&] { return !recorder.samples.empty(); }, 20s));
    EXPECT_EQ(recorder.samples.front().runId, a);

    // Run B replaces it: A is asked to stop and is no longer shown.
    core::RunRequest shortRun;
    shortRun.profile = test::smallProfile(1s, 100ms);
    const auto b = controller.start(shortRun);
    ASSERT_NE(a, b);
    recorder.samples.clear();
    recorder.finished.clear();

    // A late report of A (posted from another thread, as its sink would) is dropped;
    // one of B goes through.
    core::IntervalSample late;
    late.runId = a;
    late.scopes.push_back({});
    core::IntervalSample current = late;
    current.runId = b;
    std::thread([&] {
        controller.postInterval(late);
        controller.postInterval(current);
    }).join();

    ASSERT_TRUE(test::waitUntil([&] { return !recorder.finished.empty(); }, 30s));
    ASSERT_EQ(recorder.finished.size(), 1u); // A's end is not reported: not shown
    EXPECT_EQ(recorder.finished.front()->runId, b);
    for (const auto &s : recorder.samples)
        EXPECT_EQ(s.runId, b);
    EXPECT_GE(recorder.samples.size(), 2u);
    // A's thread is joined once its final report arrives (or at the next start).
    EXPECT_TRUE(test::waitUntil([&] { return controller.activeRunCount() == 0; }, 20s));
}

TEST(RunController, StopReturnsAtOnceAndKeepsWhatWasMeasured)
{
    test::ensureApp();
    RunController controller(ioprism::test::testServices());
    Recorder recorder;
    recorder.attach(controller);
    core::RunRequest request;
    request.profile = test::smallProfile(0s, 100ms);
    controller.start(request);
    ASSERT_TRUE(test::waitUntil([&] { return recorder.samples.size() >= 3; }, 20s));

    const auto before = std::chrono::steady_clock::now();
    controller.stop();
    EXPECT_LT(std::chrono::steady_clock::now() - before, 50ms); // asks, never waits
    EXPECT_TRUE(controller.isRunning()); // until the run reports its end

    ASSERT_TRUE(test::waitUntil([&] { return !recorder.finished.empty(); }, 20s));
    const auto &result = recorder.finished.front();
    EXPECT_TRUE(result->stoppedByUser);
    ASSERT_EQ(result->steps.size(), 1u);
    EXPECT_GT(result->steps[0].measuredSeconds, 0.0);
    EXPECT_GT(result->steps[0].scopes[0].figures.total.ios, 0u);
}

TEST(RunController, AMissingEngineEndsTheRunWithAnError)
{
    test::ensureApp();
    PlatformServices services = ioprism::test::testServices();
    services.makeBackend = [](core::EngineKind) { return std::unique_ptr<core::IoBackend>(); };
    RunController controller(services);
    Recorder recorder;
    recorder.attach(controller);
    core::RunRequest request;
    request.profile = test::smallProfile();
    controller.start(request);
    ASSERT_TRUE(test::waitUntil([&] { return !recorder.finished.empty(); }, 10s));
    ASSERT_TRUE(recorder.finished.front()->error.has_value());
    EXPECT_FALSE(controller.isRunning());
}

TEST(RunController, DestroyingTheControllerStopsAndJoinsARunningRun)
{
    test::ensureApp();
    auto liveness = std::make_shared<Liveness>();
    PlatformServices services = ioprism::test::testServices();
    services.makeBackend = [liveness](core::EngineKind) {
        return std::unique_ptr<core::IoBackend>(std::make_unique<CountedBackend>(liveness));
    };
    auto controller = std::make_unique<RunController>(services);
    Recorder recorder;
    recorder.attach(*controller);
    core::RunRequest request;
    request.profile = test::smallProfile(0s, 100ms); // no run time: runs until stopped
    controller->start(request);
    // The run is measuring: its engines are doing I/O and samples arrive.
    ASSERT_TRUE(test::waitUntil(
        [&] { return liveness->enginesAlive > 0 && !recorder.samples.empty(); }, 60s));
    ASSERT_TRUE(recorder.finished.empty());

    controller.reset(); // stop, drain, join: the window closing mid-run
    // The run's thread has returned: it released its engines and its backend, which it
    // does only after the run ends. No clock is read: a slow machine cannot fail this.
    EXPECT_EQ(liveness->enginesAlive, 0);
    EXPECT_GT(liveness->enginesMade, 0);
    EXPECT_FALSE(liveness->backendAlive);
    // Reports the run's thread posted to the dead controller went with it.
    QCoreApplication::processEvents();
    EXPECT_TRUE(recorder.finished.empty());
}

} // namespace
} // namespace ioprism::ui
