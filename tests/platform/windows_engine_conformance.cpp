// SPDX-License-Identifier: GPL-3.0-or-later
// The engine contract on Windows: the conformance suite the Linux engines pass
// (engine_conformance.h), run on the IOCP engine, and the suite's Windows hooks.
//
// Under Wine, FILE_FLAG_NO_BUFFERING is not enforced: the alignment tests hold because
// the engine checks alignment itself before it issues a request (iocp_engine.h).
#include "platform/windows/iocp_engine.h"

#include "engine_conformance.h"
#include "windows_test_util.h"

namespace ioprism::test {

std::filesystem::path conformanceScratchDir()
{
    // Under Wine the temp directory is on the Linux file system of the prefix: the engine
    // opens it like any Windows volume (with NO_BUFFERING, which Wine accepts).
    return std::filesystem::temp_directory_path();
}

namespace {

class NamedPipe final : public PendingReadSource
{
public:
    std::string path() const override { return m_pipe.ok() ? m_pipe.name() : std::string(); }
    bool write(std::string_view text) override { return m_pipe.write(text); }

private:
    win::PipeServer m_pipe;
};

} // namespace

std::unique_ptr<PendingReadSource> makePendingReadSource(const std::filesystem::path &)
{
    return std::make_unique<NamedPipe>();
}

namespace {
INSTANTIATE_TYPED_TEST_SUITE_P(Iocp, EngineConformance, platform::IocpEngine);
} // namespace

} // namespace ioprism::test
