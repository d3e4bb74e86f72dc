// SPDX-License-Identifier: GPL-3.0-or-later
// Iometer configuration files (.icf): import into a Profile and export from one.
//
// The format is what Iometer 1.1.0 writes and reads (docs/icf.md has the field-by-field
// mapping): a `Version 1.1.0 ` line first and last, `'` header lines naming the values on
// the tab-indented line(s) below them, and the sections TEST SETUP, RESULTS DISPLAY,
// ACCESS SPECIFICATIONS and MANAGER LIST, each closed by an `'END ...` line. Files from
// Iometer releases before 1.1.0 (no Version lines, no fixed seed, no data pattern) are
// read with Iometer's behaviour of the time.
//
// Nothing here touches the file system or the machine: target names are kept verbatim
// and are checked against this machine by markUnresolvedTargets with a predicate the
// platform layer supplies. No function here throws.
#pragma once

#include "core/profile/problem.h"
#include "core/profile/profile.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ioprism::core {

// Iometer counts disk sizes and starting points in 512-byte sectors, whatever the
// device's real sector size.
inline constexpr std::uint64_t kIcfSectorBytes = 512;

// Parses an .icf file. Keywords are case-insensitive; LF, CRLF and CR line ends are
// accepted; values may be separated by commas and/or whitespace. Every problem found is
// appended to `problems`, located as "line N". Returns nullopt when any problem is an
// Error (malformed file: missing END lines, truncation, unknown sections or keywords,
// numbers that are negative, too large or not numbers, wrong value counts). Warnings
// name what the profile cannot hold (e.g. a network target) or what will behave
// differently from Iometer (e.g. a test file Iometer would grow to fill the volume).
std::optional<Profile> parseIcf(std::string_view text, Problems &problems);

// The profile as an .icf file that Iometer 1.1.0 loads, with LF line ends. Always
// succeeds; appends one Warning per setting the format cannot carry (IOPrism
// extensions such as distributions, rate limits, per-target regions or cache modes),
// naming its field path (`specs[0].lines[1].distribution`). For a profile read by
// parseIcf from a file IOPrism wrote, the text is reproduced byte for byte.
std::string writeIcf(const Profile &profile, Problems &warnings);

// The kind of target an Iometer target name denotes, as parseIcf assigns it:
// `C:`, `C: "Label"`, `C:Label`, `\\server\share` and Linux `/mnt/x [ext4]` are
// volumes on which Iometer creates its test file iobw.tst (TestFile);
// `PHYSICALDRIVE:1`, `1: "Vendor Model Rev"` and `\\.\PhysicalDrive1` are Windows
// physical drives; `\\.\X:` is a raw Windows volume; `sdb`, `/dev/sdb`, `nvme0n1` are
// whole Linux block devices and `sdb1`, `nvme0n1p2` their partitions; any other
// absolute path is a test file.
TargetKind icfTargetKind(std::string_view iometerName);

// True for the names Iometer gives Windows volumes and shares (`C:`, `C: "System"`,
// `C:Label`, `\\server\share`): test-file locations of a Windows machine, which name no
// file on another system.
bool isWindowsVolumeName(std::string_view iometerName);

// A volume as Iometer names it for a test-file target, and where Iometer makes its test
// file `iobw.tst` there:
//   `/mnt/data [ext4]`       folder /mnt/data (a mount point), fileSystem ext4
//   `C:`, `C:Label`, `C: "Label"`   folder C:\ (the drive's root)
//   `C:\mnt\disk1:label`      folder C:\mnt\disk1 (a mount point)
//   `\\server\share`          folder \\server\share
// nullopt for every other name: paths (`/srv/x.tst`, `C:\data\x.tst`, `C:/x`), devices,
// a relative `data [ext4]` (Iometer reports mount points absolute), and a test file path
// such as `/mnt/data/iobw.tst` itself, so that a located name is never located twice.
struct IometerVolume {
    std::string name; // as the .icf has it
    std::string folder;
    std::string fileSystem; // Linux names only: the bracketed type
    std::string testFile; // folder + iobw.tst
};
std::optional<IometerVolume> iometerVolume(std::string_view iometerName);

// Gives every test-file target named by an Iometer volume the path of Iometer's test
// file there when `isHere` says that volume is on this machine (for a Linux name: the
// folder is a mount point of that file system); one Warning per target moved, naming its
// path field. Returns nothing when `isHere` is empty.
Problems locateIometerTestFiles(
    Profile &profile, const std::function<bool(const IometerVolume &)> &isHere);

// Flags every target whose `exists` is false (Target::unresolved = true) and clears the
// flag on the others; never removes a target. Returns one Warning per unresolved
// target, naming its path field:
// `hosts[0].workers[1].targets[0].path: "sdb" does not exist on this machine; re-point
// it before running`. A predicate that throws counts as "does not exist"; an empty
// predicate leaves the profile unchanged.
Problems markUnresolvedTargets(Profile &profile, const std::function<bool(const Target &)> &exists);

} // namespace ioprism::core
