// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers for the Linux platform tests: scratch directories on a real file system,
// loop devices, mounts and an MBR writer. Every resource is released by a destructor,
// so a failing assertion still detaches loops and unmounts.
#pragma once

#include "platform/linux/linux_backend.h"
#include "support/test_support.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "engine_test_util.h" // writeFile, readAll

namespace ioprism::test {

inline bool isRoot()
{
    return ::geteuid() == 0;
}

// Runs a shell command; returns its exit status and (optionally) its stdout.
inline int run(const std::string &command, std::string *output = nullptr)
{
    FILE *p = ::popen((command + " 2>/dev/null").c_str(), "r");
    if (!p)
        return -1;
    std::string out;
    std::array<char, 256> buf {};
    while (std::fgets(buf.data(), static_cast<int>(buf.size()), p))
        out += buf.data();
    const int status = ::pclose(p);
    while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
        out.pop_back();
    if (output)
        *output = out;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

inline bool haveTool(const std::string &name)
{
    return run("command -v " + name + " || test -x /usr/sbin/" + name + " || test -x /sbin/" + name)
        == 0;
}

// O_DIRECT needs a real file system: /var/tmp (the default /tmp may be tmpfs elsewhere).
inline std::filesystem::path realFsDir()
{
    return "/var/tmp";
}

// A sparse image file for a loop device.
inline void makeImage(const std::filesystem::path &path, std::uint64_t bytes)
{
    const int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
    if (fd >= 0) {
        if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
            // the caller's losetup will fail and say so
        }
        ::close(fd);
    }
}

// Writes an MBR partition table with Linux (0x83) partitions given as {start, size} in
// 512-byte sectors. (sfdisk is not installed everywhere; the MBR layout is tiny.)
inline bool writeMbr(const std::filesystem::path &image,
    const std::vector<std::pair<std::uint32_t, std::uint32_t>> &partitions)
{
    std::array<unsigned char, 512> mbr {};
    const auto put32 = [&](std::size_t at, std::uint32_t v) {
        for (int i = 0; i < 4; ++i)
            mbr[at + static_cast<std::size_t>(i)] = static_cast<unsigned char>(v >> (8 * i));
    };
    put32(440, 0x10501050); // disk signature
    for (std::size_t i = 0; i < partitions.size() && i < 4; ++i) {
        const std::size_t e = 446 + 16 * i;
        mbr[e + 0] = 0x00; // not bootable
        mbr[e + 1] = 0xfe, mbr[e + 2] = 0xff, mbr[e + 3] = 0xff; // CHS: use LBA
        mbr[e + 4] = 0x83; // Linux
        mbr[e + 5] = 0xfe, mbr[e + 6] = 0xff, mbr[e + 7] = 0xff;
        put32(e + 8, partitions[i].first);
        put32(e + 12, partitions[i].second);
    }
    mbr[510] = 0x55;
    mbr[511] = 0xaa;
    const int fd = ::open(image.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::pwrite(fd, mbr.data(), mbr.size(), 0) == static_cast<ssize_t>(mbr.size());
    ::close(fd);
    return ok;
}

inline bool waitForPath(
    const std::string &path, std::chrono::milliseconds limit = std::chrono::seconds(5))
{
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
        struct stat st {
        };
        if (::stat(path.c_str(), &st) == 0)
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

// A loop device over an image file, detached on destruction.
class LoopDevice
{
public:
    // extraOptions: e.g. "-r" (read-only), "-P" (scan partitions).
    LoopDevice(const std::filesystem::path &image, const std::string &extraOptions = {})
    {
        std::string out;
        if (run("losetup -f --show --direct-io=on " + extraOptions + " '" + image.string() + "'",
                &out)
                == 0
            && out.rfind("/dev/loop", 0) == 0)
            m_path = out;
    }
    ~LoopDevice()
    {
        if (m_path.empty())
            return;
        for (int i = 0; i < 50 && run("losetup -d " + m_path) != 0; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    LoopDevice(const LoopDevice &) = delete;
    LoopDevice &operator=(const LoopDevice &) = delete;
    bool ok() const { return !m_path.empty(); }
    const std::string &path() const { return m_path; } // "/dev/loop3"
    std::string name() const { return m_path.substr(5); } // "loop3"
    std::string partition(int n) const { return m_path + "p" + std::to_string(n); }
    // Makes the partitions of the image appear as /dev/loopNpM. The kernel scans them
    // itself with -P when it has the partition-table parsers; kernels built without them
    // (CONFIG_MSDOS_PARTITION off, as on the project VMs) need partx's BLKPG ioctls.
    bool showPartitions(int count)
    {
        if (!waitForPath(partition(count), std::chrono::milliseconds(300)))
            run("partx -a " + m_path);
        for (int i = 1; i <= count; ++i)
            if (!waitForPath(partition(i)))
                return false;
        return true;
    }

private:
    std::string m_path;
};

// A mount, unmounted on destruction (lazily if still busy).
class ScopedMount
{
public:
    ScopedMount(const std::string &source, const std::filesystem::path &dir,
        const std::string &typeAndOptions)
        : m_dir(dir)
    {
        std::filesystem::create_directories(dir);
        m_ok = run("mount " + typeAndOptions + " '" + source + "' '" + dir.string() + "'") == 0;
    }
    ~ScopedMount()
    {
        if (m_ok && run("umount '" + m_dir.string() + "'") != 0)
            run("umount -l '" + m_dir.string() + "'");
    }
    ScopedMount(const ScopedMount &) = delete;
    ScopedMount &operator=(const ScopedMount &) = delete;
    bool ok() const { return m_ok; }
    const std::filesystem::path &dir() const { return m_dir; }
    bool remount(const std::string &options)
    {
        return run("mount -o remount," + options + " '" + m_dir.string() + "'") == 0;
    }

private:
    std::filesystem::path m_dir;
    bool m_ok = false;
};

// The whole value of IOPrism's mark (the xattr user.ioprism.testfile) on `path`, "" if
// none: its state and the identity it is bound to ("complete 1234 1700000000.5").
inline std::string markText(const std::filesystem::path &path)
{
    std::array<char, 128> value {};
    const ssize_t n
        = ::lgetxattr(path.c_str(), "user.ioprism.testfile", value.data(), value.size());
    return n < 0 ? std::string() : std::string(value.data(), std::size_t(n));
}

// The state of IOPrism's mark on `path` ("filling", "complete"), "" if none.
inline std::string markValue(const std::filesystem::path &path)
{
    const std::string text = markText(path);
    return text.substr(0, text.find(' '));
}

// Leaves `path` the way a run killed (SIGKILL) mid-fill leaves a file it was creating:
// marked "filling" (bound to the file, as IOPrism marks), reserved at `bytes` with
// fallocate, and not one byte written (unwritten extents: its reads return zeros without
// touching the device). Deterministic, unlike a timed kill. Another `mark` is set as it
// is (an earlier IOPrism's unbound "1" or "complete").
inline bool leaveAsAKilledRunDoes(
    const std::filesystem::path &path, std::uint64_t bytes, const std::string &mark)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return false;
    const std::string value = mark == "filling" ? platform::boundMarkValue(fd, mark) : mark;
    const bool ok = ::fsetxattr(fd, "user.ioprism.testfile", value.data(), value.size(), 0) == 0
        && ::fallocate(fd, 0, 0, static_cast<off_t>(bytes)) == 0;
    ::close(fd);
    return ok;
}

} // namespace ioprism::test
