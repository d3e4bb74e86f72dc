// SPDX-License-Identifier: GPL-3.0-or-later
// The udisks2 client's own parts (issue 26): the object it asks for, the flags the results
// record, the descriptor engines share, and what it says when there is nobody to ask.
// The client against real daemons, as an unprivileged user, is tests/e2e/broker_test.cpp.
#include "platform/linux/held_targets.h"
#include "platform/linux/udisks_broker.h"

#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "platform_test_util.h"

namespace ioprism::test {
namespace {

using ::testing::HasSubstr;

void writeText(const std::filesystem::path &path, const std::string &text)
{
    std::ofstream(path, std::ios::binary) << text;
}

TEST(UdisksBroker, AsksForTheObjectUdisksNamesAfterTheKernelName)
{
    EXPECT_EQ(
        platform::udisksBlockObjectPath("loop3"), "/org/freedesktop/UDisks2/block_devices/loop3");
    EXPECT_EQ(platform::udisksBlockObjectPath("nvme0n1p2"),
        "/org/freedesktop/UDisks2/block_devices/nvme0n1p2");
    // udisks_safe_append_to_object_path: every byte outside [A-Za-z0-9_] as _xx.
    EXPECT_EQ(
        platform::udisksBlockObjectPath("dm-0"), "/org/freedesktop/UDisks2/block_devices/dm_2d0");
    EXPECT_EQ(platform::udisksBlockObjectPath("md/r.1"),
        "/org/freedesktop/UDisks2/block_devices/md_2fr_2e1");
}

TEST(UdisksBroker, TheResultsSayTheFlagsAsAReaderWritesThem)
{
    EXPECT_EQ(platform::openFlagsText(O_RDONLY | O_DIRECT, false), "O_RDONLY|O_DIRECT");
    EXPECT_EQ(platform::openFlagsText(O_RDWR | O_DIRECT, true), "O_RDWR|O_DIRECT|O_EXCL");
    EXPECT_EQ(platform::openFlagsText(O_RDWR | O_DSYNC, false), "O_RDWR|O_DSYNC");
    // O_SYNC carries O_DSYNC's bit: only the stronger one is said.
    EXPECT_EQ(platform::openFlagsText(O_WRONLY | O_SYNC, false), "O_WRONLY|O_SYNC");
    EXPECT_EQ(platform::openFlagsText(O_RDONLY, false), "O_RDONLY");
}

// A descriptor the broker opened is shared, never reopened (the node would refuse this
// user), and only for what it was opened for.
TEST(UdisksBroker, EnginesShareTheBrokersDescriptorOnlyForWhatItWasOpenedFor)
{
    TempDir dir;
    const auto file = dir.path() / "device-stand-in";
    writeText(file, std::string(4096, 'x'));
    const int flags = O_RDWR;
    const int fd = ::open(file.c_str(), flags | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    const platform::FileIdentity identity = platform::identityOf(fd);
    platform::HeldTargets held;
    held.holdShared(file.string(), platform::UniqueFd(fd), identity, flags);
    // Swapped for another file afterwards: the share is still the inode held.
    writeText(dir.path() / "other", "y");
    ASSERT_EQ(::rename((dir.path() / "other").c_str(), file.c_str()), 0);

    core::EngineFile reader {file.string(), false, core::CacheMode::Buffered, false};
    const int r = held.open(reader, O_RDONLY);
    ASSERT_GE(r, 0) << "a read-write descriptor serves a reader";
    EXPECT_NE(r, fd) << "each engine gets its own duplicate to close";
    EXPECT_EQ(platform::identityOf(r), identity);
    char c = 0;
    EXPECT_EQ(::pread(r, &c, 1, 0), 1);
    EXPECT_EQ(c, 'x');
    ::close(r);
    const int w = held.open(reader, O_RDWR);
    ASSERT_GE(w, 0);
    ::close(w);
    // Another cache mode or write-through belongs to the open file itself: refused, never
    // changed under the other engines sharing it.
    EXPECT_EQ(held.open(reader, O_RDWR | O_DIRECT), -EACCES);
    EXPECT_EQ(held.open(reader, O_RDWR | O_DSYNC), -EACCES);

    const auto readOnly = dir.path() / "read-only";
    writeText(readOnly, "z");
    const int ro = ::open(readOnly.c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(ro, 0);
    held.holdShared(readOnly.string(), platform::UniqueFd(ro), platform::identityOf(ro), O_RDONLY);
    core::EngineFile writer {readOnly.string(), true, core::CacheMode::Buffered, false};
    EXPECT_EQ(held.open(writer, O_RDWR), -EACCES) << "a read-only descriptor never writes";
}

// No system bus (a container, a minimal server): the refusal says udisks2 cannot be asked
// and what would help, and the Targets page's question gets a reason, at once.
TEST(UdisksBroker, WithoutASystemBusSaysSoAndWhatHelps)
{
    TempDir dir;
    const std::string address = "unix:path=" + (dir.path() / "no-bus").string();
    const char *before = std::getenv("DBUS_SYSTEM_BUS_ADDRESS");
    const std::string saved = before ? before : "";
    ::setenv("DBUS_SYSTEM_BUS_ADDRESS", address.c_str(), 1);
    platform::BrokerRequest request;
    request.deviceName = "loop0";
    auto opened = platform::openThroughUdisks(request);
    const std::string unavailable = platform::udisksUnavailable("loop0");
    if (before)
        ::setenv("DBUS_SYSTEM_BUS_ADDRESS", saved.c_str(), 1);
    else
        ::unsetenv("DBUS_SYSTEM_BUS_ADDRESS");
    ASSERT_FALSE(opened);
    EXPECT_EQ(opened.error().code.value(), ENOENT) << opened.error().toString();
    EXPECT_THAT(opened.error().toString(), HasSubstr("system D-Bus"));
    EXPECT_THAT(opened.error().toString(), HasSubstr("sudo"));
    EXPECT_THAT(unavailable, HasSubstr("system D-Bus"));
}

} // namespace
} // namespace ioprism::test
