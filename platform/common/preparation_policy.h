// SPDX-License-Identifier: GPL-3.0-or-later
// The one policy for preparing and removing test files and file trees, written once over
// the few file-system primitives each operating system supplies (PreparationFs): what a
// tree's preparation would do and what it refuses (planFileTree), what a failed or
// cancelled preparation undoes (TreeUndo), when a tree or a test file is refused for
// writing or removal, and what a refusal says.
//
// IOPrism must never write outside the target the user chose: these rules decide what
// is written, so every backend takes them from here rather than from a copy of its own.
// What runs them (descriptors held on Linux, handles on Windows) stays in the backends,
// which decide again on what they hold before writing (held_targets.h).
#pragma once

#include "core/engine.h"
#include "core/profile/profile.h"
#include "core/result.h"
#include "platform/common/file_tree_plan.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ioprism::platform {

// IOPrism's mark on a file or folder (the xattr user.ioprism.testfile on Linux, the stream
// :ioprism.testfile on Windows), bound to the file it was set on. A file is marked
// "filling" when it is created (or before it is extended) and "complete" only once its
// fill is written: a run killed mid-fill leaves a file whose space is reserved but not
// written, so a file still "filling" is filled again. Folders and a tree's marker are
// "complete" from the start.
enum class Mark {
    None, // not ours: never written, never removed
    Filling, // ours, its fill not known to be finished: fill it again from the start
    Complete, // ours, filled
};

// The marker in a tree's folder: missing (a link is nobody's marker), damaged (a file that
// does not hold our JSON: a crash while writing it, or an edit), or the shape it records.
// Whose it is, is asked separately (PreparationFs::treeIsOurs).
struct TreeMarker {
    enum class State { Missing, Damaged, Found };
    State state = State::Missing;
    core::FileTree tree;
    bool marked = true; // read through a descriptor: whether the marker carries our mark
};

// What is at a path, not following a link (a symbolic link or a junction is never one of
// a tree's folders or files: it would lead the writes elsewhere).
struct PathEntry {
    bool exists = false;
    bool directory = false; // a folder (on Windows also a junction to one: see `link`)
    bool link = false; // a symbolic link, a junction or another reparse point
    bool regular = false; // a plain file
    std::uint64_t sizeBytes = 0;
    // The names of a file (hard links); 0 where the look-up does not say (Windows): there
    // the mark (PreparationFs::markOf) already makes a file of several names nobody's.
    std::uint64_t links = 0;
    bool isPlainFolder() const { return directory && !link; }
};

// Why a preparation or a removal refuses, for the code each OS gives it.
enum class Refusal {
    NotOurs, // EEXIST, ERROR_FILE_EXISTS: not IOPrism's, so never written
    NotAFolder, // ENOTDIR, ERROR_DIRECTORY: a tree's path names something else
    LeftUntouched, // EPERM, ERROR_ACCESS_DENIED: a removal refused, nothing touched
    LeftOthers, // ENOTEMPTY, ERROR_DIR_NOT_EMPTY: a removal left what is not ours
    EmptyFile, // EINVAL, ERROR_HANDLE_EOF: nothing to read
    Invalid, // EINVAL, ERROR_INVALID_PARAMETER
};

// Where the OSes word a refusal differently (their marks and links are not alike).
struct PreparationWords {
    std::string markName; // "the xattr user.ioprism.testfile"
    std::string markless; // "on a file system without user xattrs"
    std::string copyKeepsMark; // "cp -a and backups copy the mark"
    std::string storage; // "device" / "disk": what an unwritten file's reads do not reach
    std::string notPlainFolder; // a tree's folder that is a link or a file
    std::string notPlainFile; // a tree's file that is a link or a folder
    std::string fileLacksMark; // a tree's file without our mark
};

// The file-system primitives the policy runs on, one implementation per OS. Look-ups
// only: they decide what a preparation plans and refuses; writing happens in the
// backend, on what it holds.
class PreparationFs
{
public:
    virtual ~PreparationFs() = default;

    virtual const PreparationWords &words() const = 0;
    // The OS's error for a refusal, and for one of its own codes (errno, GetLastError).
    virtual core::OpError refusal(
        Refusal why, std::string operation, std::string path, std::string detail) const = 0;
    virtual core::OpError osError(
        int code, std::string operation, std::string path, std::string detail) const = 0;
    virtual std::string errorText(int code) const = 0;

    // What is at a tree's top folder, or why it cannot be used (it cannot be looked up; on
    // Linux also a symbolic link, never followed to a tree).
    virtual core::Result<PathEntry> lookUpTreeRoot(const std::string &root) const = 0;
    // What is at `path` (missing: exists false), or the error of a look-up that failed.
    virtual core::Result<PathEntry> lookUp(const std::string &path) const = 0;
    // The mark of the file or folder at `path` (not followed if a link), for planning and
    // messages: what is written is decided again on what the backend holds.
    virtual Mark markOf(const std::string &path) const = 0;
    // True when `path` carries a value of our mark that does not bind to it (a copy of a
    // test file, or marked by an IOPrism that did not bind marks): for messages.
    virtual bool carriesForeignMark(const std::string &path) const = 0;
    // "this file has 3 names" when the existing file `path` has other names, else "".
    virtual std::string otherNames(const std::string &path, const PathEntry &entry) const = 0;
    virtual TreeMarker readTreeMarker(const std::string &root) const = 0;
    // A tree is ours when its folder and its marker carry our mark: a marker alone proves
    // nothing (one small file, copied anywhere), and trees made before IOPrism marked them
    // carry none, so they are treated like anyone's folder.
    virtual bool treeIsOurs(const std::string &root) const = 0;
    // A UTF-8 path as the file-system library takes it, and back (Windows: wide).
    virtual std::filesystem::path nativePath(const std::string &utf8) const = 0;
    virtual std::string utf8Path(const std::filesystem::path &path) const = 0;
};

// Looks at the tree at `root`: refuses a folder IOPrism did not make, a tree of another
// shape, and anything in the layout that is not a plain folder or file (a link would lead
// the writes elsewhere); otherwise says what is missing or short.
core::Result<TreePlan> planFileTree(
    const PreparationFs &fs, const std::string &root, const core::FileTree &tree);

// The refusal for something not ours where the tree's layout has one of IOPrism's.
core::OpError notOurs(const PreparationFs &fs, const std::string &path, const std::string &what);

// What undoing one preparation's work takes, in the folders the backend holds (never
// through the tree's paths where it holds them).
class TreeUndoSteps
{
public:
    virtual ~TreeUndoSteps() = default;
    // Cuts a file this preparation extended back to `formerBytes`, if it is still ours;
    // `complete`: it was complete before, so it is marked complete again.
    virtual void restoreFile(std::size_t fileIndex, std::uint64_t formerBytes, bool complete) = 0;
    virtual void removeFile(std::size_t fileIndex) = 0; // each only while it is ours
    virtual void removeFolder(std::size_t folderIndex) = 0; // a level below the top
    virtual void removeMarker() = 0;
    virtual void removeRoot() = 0;
};

// What one preparation of a tree made, removed again unless it succeeds: a cancelled or
// failed preparation leaves the tree as it found it.
class TreeUndo
{
public:
    explicit TreeUndo(TreeUndoSteps &steps)
        : m_steps(steps)
    { }
    ~TreeUndo() { rollback(); }
    TreeUndo(const TreeUndo &) = delete;
    TreeUndo &operator=(const TreeUndo &) = delete;

    // Undoes what was made: extended files first, then new files, new folders deepest
    // first, the marker and the top folder. True when there was anything.
    bool rollback();

    void madeRoot() { m_rootMade = true; }
    void madeMarker() { m_marker = true; }
    void madeFolder(std::size_t index) { m_folders.push_back(index); }
    void madeFile(std::size_t index) { m_files.push_back(index); }
    void extended(std::size_t index, std::uint64_t formerBytes, bool halfFilled)
    {
        m_extended.emplace_back(index, formerBytes);
        if (halfFilled)
            m_halfFilled.insert(index);
    }
    bool madeAnything() const
    {
        return m_rootMade || !m_folders.empty() || !m_files.empty() || !m_extended.empty();
    }
    void commit() { m_committed = true; }

private:
    TreeUndoSteps &m_steps;
    bool m_rootMade = false;
    bool m_marker = false;
    bool m_committed = false;
    std::vector<std::size_t> m_folders;
    std::vector<std::size_t> m_files;
    std::vector<std::pair<std::size_t, std::uint64_t>> m_extended;
    std::set<std::size_t> m_halfFilled;
};

// Adds to a failure of a tree's preparation that what it made was removed again (undone
// by `undo` now, or when it goes out of scope where `undoNow` is false).
core::OpError undoneTreeFailure(TreeUndo &undo, core::OpError error, bool undoNow);

// Progress over a whole tree: what earlier files wrote (`*doneBefore`) plus this file's
// part, out of `totalBytes`. Empty when `progress` is.
core::PrepareProgress treeProgress(const core::PrepareProgress &progress,
    const std::uint64_t *doneBefore, std::uint64_t totalBytes);

// Why the tree at `root`, whose marker is `marker` (`ours`: it and its folder carry our
// mark), is not removed as a tree of shape `tree`; nullopt when it may be.
std::optional<core::OpError> treeRemovalRefusal(const PreparationFs &fs, const std::string &root,
    const core::FileTree &tree, const TreeMarker &marker, bool ours);

// The error once a tree's removal has left what is not IOPrism's: names up to five of the
// things left in the first `ourLevels` of the tree's `folders` (not the level folders).
core::OpError leftoversError(const PreparationFs &fs, const std::string &root,
    const std::vector<std::string> &folders, std::size_t ourLevels);

// Removes the folder `path` given to "remove test files": as the tree its marker records
// (`removeTree`), or refused when it is not a tree of IOPrism's.
template<typename RemoveTree>
core::Status removeFolderAsTree(
    const PreparationFs &fs, const std::string &path, RemoveTree &&removeTree);

// Someone else's existing test file (`entry`, not marked ours): why it is not used, or
// nullopt when it may be read. It is never written or extended.
std::optional<core::OpError> foreignTestFileRefusal(
    const PreparationFs &fs, const std::string &path, const PathEntry &entry, bool needWrite);

// Whether the test file at `path` is filled now (created, extended or filled again), given
// whether it exists, is `current` bytes, carries `mark` and can be written (`writeError`,
// the OS's code, 0 when it can). An error when a half-filled file cannot be filled again;
// a notice in `*notice` when our smaller file cannot grow and is read as it is.
core::Result<bool> testFileNeedsFill(const PreparationFs &fs, const std::string &path, bool exists,
    std::uint64_t current, Mark mark, std::uint64_t wanted, int writeError, std::string *notice);

// The new space a test file takes when prepared: a new file's whole size, our own file's
// growth (its fill again when half-filled), nothing for anyone else's file.
std::uint64_t testFileNeedBytes(const PathEntry &entry, Mark mark, std::uint64_t wanted);

// ---------------------------------------------------------------- implementation

template<typename RemoveTree>
core::Status removeFolderAsTree(
    const PreparationFs &fs, const std::string &path, RemoveTree &&removeTree)
{
    // A file tree's folder: removed with the shape its marker records (so "remove test
    // files" after a run covers trees too); any other folder is refused.
    const TreeMarker marker = fs.readTreeMarker(path);
    if (marker.state == TreeMarker::State::Found)
        return removeTree(path, marker.tree);
    if (marker.state == TreeMarker::State::Damaged)
        return fs.refusal(Refusal::LeftUntouched, "remove test file", path,
            damagedMarkerWhy() + ": left untouched");
    return fs.refusal(Refusal::LeftUntouched, "remove test file", path,
        "a folder that is not a file tree created by IOPrism: left untouched");
}

} // namespace ioprism::platform
