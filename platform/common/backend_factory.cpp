// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/common/backend_factory.h"

#include "core/null_engine.h"
#include "platform/common/system.h"

#ifdef __linux__
#include "platform/linux/linux_backend.h"
#endif
#ifdef _WIN32
#include "platform/windows/windows_backend.h"
#endif

#include <string>
#include <utility>
#include <vector>

namespace ioprism::platform {

namespace {

// An engine of another operating system: a backend that refuses, so the caller reports
// it like any other refusal (see makeBackend).
class UnavailableBackend final : public core::IoBackend
{
public:
    UnavailableBackend(std::string engine, std::string detail)
        : m_engine(std::move(engine))
        , m_error {std::make_error_code(std::errc::not_supported), "choose engine", {},
              std::move(detail)}
    { }
    std::string engineName() const override { return m_engine; }
    std::vector<std::string> notices() const override { return {}; }
    core::Result<core::TargetInfo> prepareTarget(
        const core::Target &, const core::PrepareOptions &, const core::PrepareProgress &) override
    {
        return m_error;
    }
    core::Result<std::unique_ptr<core::IoEngine>> makeEngine() override { return m_error; }

private:
    std::string m_engine;
    core::OpError m_error;
};

// The null engine's backend with its workers named as the other engines' are: the
// latency verdict finds IOPrism's workers, and a CPU-bound one, by that name.
class NamedNullBackend final : public core::NullBackend
{
public:
    void nameCurrentThread(const char *name) override { platform::nameCurrentThread(name); }
};

} // namespace

std::unique_ptr<core::IoBackend> makeBackend(const BackendOptions &options)
{
    if (options.kind == EngineKind::Null)
        return std::make_unique<NamedNullBackend>();
#ifdef __linux__
    if (options.kind == EngineKind::Iocp)
        return std::make_unique<UnavailableBackend>("iocp",
            "the iocp engine (I/O completion ports) is Windows only: on Linux choose auto, "
            "io_uring or sync");
    return std::make_unique<LinuxBackend>(options);
#elif defined(_WIN32)
    if (options.kind == EngineKind::IoUring || options.kind == EngineKind::Sync)
        return std::make_unique<UnavailableBackend>(std::string(engineKindName(options.kind)),
            "the " + std::string(engineKindName(options.kind))
                + " engine is Linux only: on Windows choose auto or iocp");
    return std::make_unique<WindowsBackend>(options);
#else
    return nullptr;
#endif
}

std::vector<EngineKind> availableEngines()
{
#ifdef __linux__
    return {EngineKind::Auto, EngineKind::IoUring, EngineKind::Sync, EngineKind::Null};
#elif defined(_WIN32)
    // WindowsBackend makes the IOCP engine for Auto and Iocp alike.
    return {EngineKind::Auto, EngineKind::Iocp, EngineKind::Null};
#else
    return {EngineKind::Null};
#endif
}

core::LocalRunHooks localRunHooks()
{
    core::LocalRunHooks hooks;
    hooks.makeBackend = [](EngineKind kind) { return makeBackend({.kind = kind}); };
    hooks.makeCounters = [] { return makeCounterSource(); };
    hooks.describe.describeSystem = [] { return describeSystem(); };
    hooks.describe.describeDevice = [](const std::string &path) { return describeDevice(path); };
    hooks.removeTestFile = [](const std::string &path) { return removeTestFile(path); };
    return hooks;
}

} // namespace ioprism::platform
