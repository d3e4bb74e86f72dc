// SPDX-License-Identifier: GPL-3.0-or-later
// Linux helpers of the end-to-end tests: root, a shell, loop devices and mounts that
// undo themselves.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <unistd.h>

#include "e2e/cli_support.h"

namespace ioprism::test {

inline bool isRoot()
{
    return ::geteuid() == 0;
}

inline std::string shell(const std::string &cmd)
{
    std::string out;
    if (FILE *p = ::popen(cmd.c_str(), "r")) {
        char buf[512];
        while (std::fgets(buf, sizeof buf, p))
            out += buf;
        ::pclose(p);
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
        out.pop_back();
    return out;
}

// Unmounts `dir`. A run's io_uring is torn down by the kernel after the process exits,
// holding its files a little longer, so the mount may be busy for a moment: try for up
// to 5 s, then detach it lazily (it goes, with its loop device's autoclear, once free),
// so no test leaves a mount or a loop device behind.
inline void unmount(const std::filesystem::path &dir)
{
    const std::string quoted = "'" + dir.string() + "'";
    for (int attempt = 0; attempt < 50; ++attempt) {
        if (std::system(("umount " + quoted + " 2>/dev/null").c_str()) == 0)
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::system(("umount -l " + quoted).c_str());
}

// A directory on a real (non-tmpfs) file system, so O_DIRECT means direct.
inline std::filesystem::path realFsDir()
{
    return std::filesystem::exists("/var/tmp") ? "/var/tmp" : ".";
}

class LoopDevice
{
public:
    // `directIo` false: the loop reads its image through the page cache, which then shows
    // which parts of the device were read (mincore).
    explicit LoopDevice(
        const std::filesystem::path &image, const std::string &size, bool directIo = true)
    {
        shell("truncate -s " + size + " '" + image.string() + "'");
        m_path = shell(std::string("losetup -f --show --direct-io=") + (directIo ? "on" : "off")
            + " '" + image.string() + "' 2>/dev/null");
    }
    ~LoopDevice()
    {
        // A device still busy (its mount detached lazily) is cleared when it is free.
        if (!m_path.empty())
            shell("losetup -d " + m_path + " 2>/dev/null");
    }
    const std::string &path() const { return m_path; }
    std::string name() const { return m_path.substr(m_path.rfind('/') + 1); }

private:
    std::string m_path;
};

// A tmpfs mounted on `dir` for the life of the object.
class TmpfsMount
{
public:
    TmpfsMount(const std::filesystem::path &dir, const std::string &options)
        : m_dir(dir)
    {
        std::filesystem::create_directories(dir);
        m_mounted = std::system(
                        ("mount -t tmpfs -o " + options + " tmpfs '" + dir.string() + "'").c_str())
            == 0;
    }
    ~TmpfsMount()
    {
        if (m_mounted)
            unmount(m_dir);
    }
    bool mounted() const { return m_mounted; }

private:
    std::filesystem::path m_dir;
    bool m_mounted = false;
};

// An ext4 file system on a loop device over an image in `dir`, mounted at dir/mnt for
// the life of the object.
class Ext4Mount
{
public:
    // `mkfsOptions` are added to mkfs.ext4's (e.g. "-m 0": no blocks reserved for root).
    Ext4Mount(const std::filesystem::path &dir, const std::string &size,
        const std::string &mkfsOptions = {})
        : m_loop(dir / "ext4.img", size)
        , m_mnt(dir / "mnt")
    {
        if (m_loop.path().empty()
            || std::system(
                   ("mkfs.ext4 -q -F " + mkfsOptions + " " + m_loop.path() + " >/dev/null 2>&1")
                       .c_str())
                != 0)
            return;
        std::filesystem::create_directories(m_mnt);
        m_mounted
            = std::system(("mount " + m_loop.path() + " '" + m_mnt.string() + "'").c_str()) == 0;
    }
    ~Ext4Mount()
    {
        if (m_mounted)
            unmount(m_mnt);
    }
    bool mounted() const { return m_mounted; }
    const std::filesystem::path &path() const { return m_mnt; }
    const LoopDevice &device() const { return m_loop; }

private:
    LoopDevice m_loop;
    std::filesystem::path m_mnt;
    bool m_mounted = false;
};

} // namespace ioprism::test
