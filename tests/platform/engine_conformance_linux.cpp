// SPDX-License-Identifier: GPL-3.0-or-later
// The Linux side of the engine conformance suite's hooks (see engine_conformance.h).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine_conformance.h"
#include "platform_test_util.h"

namespace ioprism::test {

std::filesystem::path conformanceScratchDir()
{
    return realFsDir();
}

namespace {

// A FIFO: the engine opens it read-write (so its open does not wait for a writer) and
// its reads stay pending until write() puts bytes in.
class Fifo final : public PendingReadSource
{
public:
    explicit Fifo(const std::filesystem::path &dir)
        : m_path(dir / "fifo")
    {
        if (::mkfifo(m_path.c_str(), 0600) != 0)
            m_path.clear();
    }
    std::string path() const override { return m_path.string(); }
    bool write(std::string_view text) override
    {
        const int fd = ::open(m_path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
            return false;
        const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
        ::close(fd);
        return ok;
    }

private:
    std::filesystem::path m_path;
};

} // namespace

std::unique_ptr<PendingReadSource> makePendingReadSource(const std::filesystem::path &dir)
{
    return std::make_unique<Fifo>(dir);
}

} // namespace ioprism::test
