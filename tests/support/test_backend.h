// SPDX-License-Identifier: GPL-3.0-or-later
// A backend for core's run tests: I/O completes at once as with the null engine, but,
// unlike the null backend, it counts as reaching devices, so a run compares it with
// (scripted) device counters. Targets are as large as their test-file size, with a
// chosen alignment; the engine can fail the Nth request, and the backend can add
// notices while preparing.
#pragma once

#include "core/engine.h"
#include "core/null_engine.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace ioprism::test {

// A failure armed from another thread (a test's counter source, during a chosen sample):
// the next request reaped fails. `engineGone` is set when the worker that failed it has
// ended (its engine is destroyed after it stopped and drained), so whatever that worker
// counted and asked for is done.
struct ArmedFailure {
    std::atomic<bool> armed {false};
    std::atomic<bool> engineGone {false};
};

// The null engine behind a test's double: every call goes to it, and a double overrides
// what it watches or shapes (calling this class's to do the I/O).
class NullForwardingEngine : public core::IoEngine
{
public:
    std::string_view name() const override { return "null"; }
    core::EngineCapabilities capabilities() const override { return m_inner.capabilities(); }
    core::Status init(const core::EngineConfig &c, std::span<const core::EngineFile> f) override
    {
        return m_inner.init(c, f);
    }
    std::span<std::byte> buffer(std::uint32_t i) override { return m_inner.buffer(i); }
    core::Status openFile(std::uint32_t index, const core::EngineFile &file) override
    {
        return m_inner.openFile(index, file);
    }
    core::Status closeFile(std::uint32_t index) override { return m_inner.closeFile(index); }
    bool queue(core::IoRequest *r) override { return m_inner.queue(r); }
    core::Status commit() override { return m_inner.commit(); }
    core::Result<std::uint32_t> reap(
        std::span<core::IoRequest *> out, std::uint32_t min, std::chrono::nanoseconds t) override
    {
        return m_inner.reap(out, min, t);
    }

private:
    core::NullEngine m_inner;
};

// Completes I/O like the null engine, but fails the Nth request (or the one reaped after
// `armed` is set) with EIO.
class FailingEngine final : public NullForwardingEngine
{
public:
    explicit FailingEngine(std::uint64_t failAt, ArmedFailure *armed = nullptr)
        : m_failAt(failAt)
        , m_armed(armed)
    { }
    ~FailingEngine() override
    {
        if (m_armed)
            m_armed->engineGone = true;
    }
    FailingEngine(const FailingEngine &) = delete;
    FailingEngine &operator=(const FailingEngine &) = delete;
    std::string_view name() const override { return "failing"; }
    core::Result<std::uint32_t> reap(
        std::span<core::IoRequest *> out, std::uint32_t min, std::chrono::nanoseconds t) override
    {
        auto n = NullForwardingEngine::reap(out, min, t);
        for (std::uint32_t i = 0; n && i < *n; ++i)
            if (++m_count == m_failAt || (m_armed && m_armed->armed.exchange(false)))
                out[i]->error = 5; // EIO
        return n;
    }

private:
    std::uint64_t m_failAt;
    ArmedFailure *m_armed;
    std::uint64_t m_count = 0;
};

class TestBackend final : public core::IoBackend
{
public:
    std::uint32_t alignment = 512;
    std::uint64_t failAt = 0;
    ArmedFailure *armedFailure = nullptr; // the test's; outlives the run
    // Notices so far: set before the run as a backend made with a fallback has them;
    // noticeWhilePreparing adds one per prepared target, as a grown test file does.
    std::vector<std::string> noticeLog;
    bool noticeWhilePreparing = false;
    std::string engineName() const override { return "test"; }
    std::vector<std::string> notices() const override { return noticeLog; }
    core::Result<core::TargetInfo> prepareTarget(
        const core::Target &t, const core::PrepareOptions &, const core::PrepareProgress &) override
    {
        if (noticeWhilePreparing)
            noticeLog.push_back("prepared " + t.path);
        core::TargetInfo info;
        info.path = t.path;
        info.sizeBytes = t.testFileSizeBytes;
        info.directIoOffsetAlignBytes = alignment;
        info.logicalBlockBytes = alignment;
        return info;
    }
    // What the run asked to keep between its steps (IoBackend::reserveBuffers).
    std::vector<std::vector<core::EngineConfig>> reservations;
    int releases = 0;
    void reserveBuffers(std::span<const core::EngineConfig> largest) override
    {
        reservations.emplace_back(largest.begin(), largest.end());
    }
    void releaseBuffers() override { ++releases; }
    core::Result<std::unique_ptr<core::IoEngine>> makeEngine() override
    {
        if (failAt || armedFailure)
            return std::unique_ptr<core::IoEngine>(
                std::make_unique<FailingEngine>(failAt, armedFailure));
        return std::unique_ptr<core::IoEngine>(std::make_unique<core::NullEngine>());
    }
};

} // namespace ioprism::test
