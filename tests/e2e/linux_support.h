// SPDX-License-Identifier: GPL-3.0-or-later
// Linux helpers of the end-to-end tests: root, a shell, loop devices and mounts that
// undo themselves.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
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

// A directory on a real (non-tmpfs) file system, so O_DIRECT means direct.
inline std::filesystem::path realFsDir()
{
    return std::filesystem::exists("/var/tmp") ? "/var/tmp" : ".";
}

class LoopDevice
{
public:
    explicit LoopDevice(const std::filesystem::path &image, const std::string &size)
    {
        shell("truncate -s " + size + " '" + image.string() + "'");
        m_path = shell("losetup -f --show --direct-io=on '" + image.string() + "' 2>/dev/null");
    }
    ~LoopDevice()
    {
        if (!m_path.empty())
            shell("losetup -d " + m_path);
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
            std::system(("umount '" + m_dir.string() + "'").c_str());
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
            std::system(("umount '" + m_mnt.string() + "'").c_str());
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
