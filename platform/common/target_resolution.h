// SPDX-License-Identifier: GPL-3.0-or-later
// Where a target named in a profile lives on this machine.
#pragma once

#include "core/engine.h"
#include "core/profile/icf.h"
#include "core/profile/profile.h"

#include <optional>
#include <string>

namespace ioprism::platform {

// True when the target can be found here: a test file or file tree whose directory exists
// (the file or the tree's folder is created by the run), or an existing device. Iometer's bare disk
// names
// ("sdb") are looked up under /dev on Linux; its Windows volume names (`C: "System"`,
// `\\server\share`) name nothing outside Windows.
bool targetExists(const core::Target &target);

// "" when this user may open `path` (a device, a file, a folder to create files in) for
// reading, and writing when `write`; else why not and what would help, so the window can
// say so before it asks to destroy data or offers a place. A path that does not exist
// gives "" (other checks say so). Windows: raw drives and volumes by elevation, and a
// folder to write in by its security descriptor (FILE_ADD_FILE: a standard user may not
// create files at the root of C:); a file to write is "" (opening decides).
std::string accessProblem(const std::string &path, bool write);

// How this process could open `path` now, asking nobody yet (core::TargetAccess): with its
// own rights; through the system's broker, which would ask the user once (udisks2 and
// polkit, for a raw device this user may not open); or not at all, with why and what would
// help. The Targets page's Access column and the window's check before Start; accessProblem
// is its Denied text. A path that does not exist is Direct (other checks say so).
core::TargetAccess targetAccess(const std::string &path, bool write);

// True when the volume an Iometer .icf names is on this machine: on Linux, its folder is
// a mount point of the file system the name gives (`/mnt/data [ext4]`); on Windows, the
// drive, mount point or share folder exists. Windows names are never here on Linux, and
// Linux names never on Windows. For core::locateIometerTestFiles.
bool iometerVolumeIsHere(const core::IometerVolume &volume);

// The kind a path on this machine is: a block device, a partition, a file tree (a folder
// with IOPrism's tree marker: see fileTreeAt for its shape), or (anything else) a test
// file. Windows volume / physical-drive names are recognised on Windows.
core::TargetKind detectTargetKind(const std::string &path);

// True when two target paths name the same target by this platform's spelling rules,
// without asking the file system (cheap enough for every row of a table, on the GUI
// thread): Windows takes / for \ and ignores letter case ("c:/Data/x.dat" is
// "C:\data\x.dat", "\\.\physicaldrive1" is "\\.\PhysicalDrive1"); Linux compares byte
// for byte. Links, "." and ".." are not resolved: the backend's own checks see through
// those when the run prepares its targets.
bool sameTargetPath(const std::string &a, const std::string &b);

// The shape of the file tree IOPrism made in `folder`, as its marker records it; nullopt
// when the folder holds no marker of ours. For a target picked by its folder, so that its
// shape matches the tree already there.
std::optional<core::FileTree> fileTreeAt(const std::string &folder);

} // namespace ioprism::platform
