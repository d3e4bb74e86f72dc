// SPDX-License-Identifier: GPL-3.0-or-later
// The null engine and backend: every request completes at once with its full length.
// Used by the tests (exact counts, no device) and to measure IOPrism's own overhead
// (`--engine null`). Pure C++: no OS calls, so it lives in core.
#pragma once

#include "core/engine.h"

#include <memory>
#include <vector>

namespace ioprism::core {

class NullEngine final : public IoEngine
{
public:
    std::string_view name() const override { return "null"; }
    EngineCapabilities capabilities() const override;
    Status init(const EngineConfig &config, std::span<const EngineFile> files) override;
    std::span<std::byte> buffer(std::uint32_t index) override;
    Status openFile(std::uint32_t fileIndex, const EngineFile &file) override;
    Status closeFile(std::uint32_t fileIndex) override;
    bool queue(IoRequest *request) override;
    Status commit() override;
    Result<std::uint32_t> reap(std::span<IoRequest *> completed, std::uint32_t minCompletions,
        std::chrono::nanoseconds timeout) override;

private:
    // Ring of queued-but-not-reaped requests; capacity = queue depth.
    std::vector<IoRequest *> m_ring;
    std::size_t m_head = 0;
    std::size_t m_count = 0;
    std::size_t m_submitted = 0; // of m_count, how many were committed
    std::uint32_t m_bufferBytes = 0;
    std::unique_ptr<std::byte[]> m_buffers;
    std::vector<bool> m_open; // per file index: open (I/O on a closed one fails)
};

// Targets are not touched: each is as large as its test-file size (or region end) and
// reports 512-byte sectors. Not final: the platform names its worker threads
// (platform/common/backend_factory.cpp), which core cannot.
class NullBackend : public IoBackend
{
public:
    std::string engineName() const override { return "null"; }
    std::vector<std::string> notices() const override { return {}; }
    bool reachesDevices() const override { return false; }
    Result<TargetInfo> prepareTarget(const Target &target, const PrepareOptions &options,
        const PrepareProgress &progress) override;
    Result<std::unique_ptr<IoEngine>> makeEngine() override;
};

} // namespace ioprism::core
