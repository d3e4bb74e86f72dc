// SPDX-License-Identifier: GPL-3.0-or-later
// IOPrism's mark on Windows: the NTFS stream "<file>:ioprism.testfile" on a test file, a
// tree's folder and its files, bound to the file's ID (test_file_marks.cpp says how);
// where a volume has no named streams, a file is ours only in the process that created
// it. What the preparation policy (platform/common/preparation_policy.h) asks of a mark.
#pragma once

#include "core/result.h"
#include "platform/common/preparation_policy.h"
#include "platform/windows/held_targets.h"
#include "platform/windows/win_util.h"

#include <compare>
#include <cstdint>
#include <optional>
#include <string>

namespace ioprism::platform {

// What identifies a file we created: its volume serial and file index, plus its
// (case-folded, absolute) path, because a file index is reused for a new file once ours
// is deleted behind our back (Wine uses the Unix inode number; FAT derives it from the
// directory slot), and such a file must not count as ours. The creation time would tell
// apart a file re-created under the same name, but Wine reports the Unix ctime there,
// which every write changes. Left open: on FAT, someone else deleting our file and
// creating one of the same name during this process.
struct FileId {
    DWORD volumeSerial = 0;
    std::uint64_t fileIndex = 0;
    std::wstring path;
    auto operator<=>(const FileId &) const = default;
};

std::optional<FileId> fileIdentity(HANDLE h, const std::wstring &path);

std::string errorText(DWORD err);

// Marks a file or folder we just created (open as `h`) as ours. Returns "" when the mark
// outlives this process, else why not (then it is ours only in this process).
std::string markOurs(const std::wstring &path, HANDLE h, Mark mark);

// Moves a file of ours between "filling" and "complete" (nothing to record where it is
// ours only in this process).
core::Status setMark(const std::string &path, Mark mark);

// What the mark of a file or folder says, and of which file: the identity of the file
// judged, so that a later handle can be compared with it (a path swapped between the
// judgement and the open names another file).
struct Judged {
    Mark mark = Mark::None;
    std::optional<FileIdentity> identity;
};

// The mark of the file or folder at `path`. A file with more than one name (hard link)
// is nobody's: writing or deleting it would reach a file under another name. A reparse
// point is nobody's either.
Judged judge(const std::string &path);
Mark markOf(const std::string &path);

// True when `path` carries a stream that reads like IOPrism's mark but does not name this
// file (a copy of a test file, or a mark set by an IOPrism that did not bind its marks):
// for messages only, since such a file is treated as anyone's.
bool carriesForeignMark(const std::string &path);

// Forgets that this process created the file (it was deleted).
void forgetCreated(const std::optional<FileId> &id);

// A file with other names (hard links): nobody's, whatever it carries.
bool hasOtherNames(const std::string &path);

} // namespace ioprism::platform
