// SPDX-License-Identifier: GPL-3.0-or-later
// IOPrism's mark on Linux: the xattr user.ioprism.testfile on a test file, a tree's folder
// and its files, bound to the file it was set on (test_file_marks.cpp says how). What the
// preparation policy (platform/common/preparation_policy.h) asks of a mark, and what the
// backend writes, read on the descriptors it holds.
#pragma once

#include "core/result.h"
#include "platform/common/preparation_policy.h"

#include <string>

struct stat;

namespace ioprism::platform {

std::string errnoText(int err);

// Marks a file or folder we just created (open as `fd`) as ours. Returns "" when the mark
// will outlive this process, else why not (then it is ours only in this process).
std::string markOurs(int fd, Mark mark);

// Moves a file of ours between "filling" and "complete". Where it carries no xattr (it is
// ours only in this process) there is nothing to record.
core::Status setMark(const std::string &path, int fd, Mark mark);

// Forgets that this process created the file whose stat is `st` (it was removed).
void forgetCreated(const struct stat &st);

// The mark of the file or folder `path` (not followed if a link), whose lstat is `st`:
// for planning and messages. What is written is decided by markOfFd on the descriptor
// held (a path can name something else a moment later).
Mark markOf(const std::string &path, const struct stat &st);
Mark markOf(const std::string &path);

// The mark of the file or folder open as `fd`: what decides whether it is written.
Mark markOfFd(int fd);

// True when `path` carries a value of IOPrism's mark that does not bind to it: a copy of a
// test file, or a file an earlier IOPrism marked without binding the mark.
bool carriesForeignMark(const std::string &path);

} // namespace ioprism::platform
