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
#include "platform/common/backend_factory.h"
#include "platform/common/file_tree_plan.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
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
    NoFolder, // ENOENT, ERROR_PATH_NOT_FOUND: the folder to create in is missing
    Invalid, // EINVAL, ERROR_INVALID_PARAMETER
};

// The OS's code (errno, Win32 error) for each refusal.
struct RefusalCodes {
    int notOurs = 0;
    int notAFolder = 0;
    int leftUntouched = 0;
    int leftOthers = 0;
    int emptyFile = 0;
    int noFolder = 0;
    int invalid = 0;
    int of(Refusal why) const;
};

// Where the OSes word a refusal differently (their marks and links are not alike), and
// the codes they give it.
struct PreparationWords {
    RefusalCodes codes;
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
    // The OS's error for a refusal (words().codes), and for one of its own codes (errno,
    // GetLastError).
    core::OpError refusal(
        Refusal why, std::string operation, std::string path, std::string detail) const;
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
    // The folder holding `path`, and whether `path` is a folder (a link to one followed).
    virtual std::string parentFolder(const std::string &path) const = 0;
    virtual bool isFolder(const std::string &path) const = 0;
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

class HeldTargets; // each OS's: what a backend checked, held for the run (held_targets.h)

// One target's preparation: what is asked, and where what it finds goes.
struct PreparationRequest {
    const core::Target &target;
    const core::PrepareOptions &options;
    const core::PrepareProgress &progress;
    const BackendOptions &backend;
    HeldTargets &held; // takes what was checked, for the run
    std::function<void(std::string)> notice; // the backend's notices
};

// The steps of a test file's preparation each OS takes its own way, in the order the
// policy (prepareTestFile) runs them. One object prepares one file.
class TestFilePreparation
{
public:
    explicit TestFilePreparation(PreparationRequest request)
        : m_request(std::move(request))
    { }
    virtual ~TestFilePreparation() = default;
    TestFilePreparation(const TestFilePreparation &) = delete;
    TestFilePreparation &operator=(const TestFilePreparation &) = delete;
    const PreparationRequest &request() const { return m_request; }

    // What a fill works on: the file as the checks found it.
    struct Fill {
        const std::string &path;
        bool exists = false;
        bool halfFilled = false; // ours, but its fill never finished: written again from 0
        std::uint64_t currentBytes = 0;
        std::uint64_t wantedBytes = 0;
    };

    // What is at the test file's path (`*path`, which a link at its end may change: Linux
    // follows one once), or why it is no test file (a device, a folder; on Linux a file
    // system without direct I/O for a Direct target).
    virtual core::Result<PathEntry> lookUp(std::string *path) = 0;
    // The mark of what lookUp found (its identity kept for the hold).
    virtual Mark markOf(const std::string &path) = 0;
    // Why this process may not write the file (or create it in `parent`): the OS's code,
    // 0 when it may.
    virtual int writeError(const std::string &path, bool exists, const std::string &parent) = 0;
    virtual core::OpError readOnlyRefusal(const std::string &path, int error) = 0;
    // Why a new file cannot be created in `parent` (`error` from writeError), if the OS
    // says so before trying (Linux).
    virtual std::optional<core::OpError> createRefusal(
        const std::string &path, const std::string &parent, int error)
        = 0;
    // Filling the file (created, extended or filled again), in the order the policy runs
    // the steps (fillTestFile):
    // what the space messages say for `needBytes` more, or the refusal when they do not fit;
    virtual core::Result<std::string> spaceDetail(const std::string &path, std::uint64_t needBytes)
        = 0;
    // opens it, kept open until the fill ends (filled, undo): a new file created without
    // taking over one that appeared meanwhile, an existing one only while it is still the
    // file checked and still ours;
    virtual core::Status open(const Fill &fill) = 0;
    // marks a file just created ours, "filling": "" or why the mark will not outlive this
    // process (Linux first refuses a file system without direct I/O, removing the file);
    virtual core::Result<std::string> markNew(const std::string &path) = 0;
    // moves the mark of the file opened between "filling" and "complete";
    virtual core::Status mark(const std::string &path, Mark mark) = 0;
    // writes `range` with the fill pattern, durable when it returns;
    virtual core::Status write(
        const std::string &path, const FillRange &range, const std::string &spaceDetail)
        = 0;
    // on failure, leaves nothing half-made: removes the file created, cuts one extended back
    // (complete again up to its former size, unless it never was);
    virtual void undo(const Fill &fill) = 0;
    // once it counts, notes what the file is now.
    virtual core::Status filled(const std::string &path) = 0;
    // Takes hold of the file checked, decides again on what it holds, and says what it is
    // (`created`: this preparation made or filled it, and removes it when refused now).
    virtual core::Result<core::TargetInfo> hold(const std::string &path, bool created) = 0;

private:
    PreparationRequest m_request;
};

// Prepares the request's test file by the policy: someone else's file is never written or
// extended (only read, if not empty), ours is filled again or extended where it is short,
// a new one is created and filled.
core::Result<core::TargetInfo> prepareTestFile(const PreparationFs &fs, TestFilePreparation &steps);

// The steps of a tree's preparation each OS takes its own way (descriptors held on Linux,
// handles on Windows), in the order the policy (prepareFileTree) runs them. One object
// prepares one tree.
class TreePreparation
{
public:
    explicit TreePreparation(PreparationRequest request)
        : m_request(std::move(request))
    { }
    virtual ~TreePreparation() = default;
    TreePreparation(const TreePreparation &) = delete;
    TreePreparation &operator=(const TreePreparation &) = delete;
    const PreparationRequest &request() const { return m_request; }
    // Why the tree cannot be prepared where it is (its parent, the rights, direct I/O).
    virtual std::optional<core::OpError> writeRefusal(const TreePlan &plan) = 0;
    // What the space messages say, or the refusal when the tree's work does not fit.
    virtual core::Result<std::string> spaceDetail(const TreePlan &plan) = 0;
    // Starts the work on `plan` (kept until the preparation ends): the steps that undo it.
    virtual TreeUndoSteps &start(const TreePlan &plan, std::string spaceDetail) = 0;
    // Whether a failure undoes what was made at once (in the folders held), or once the
    // preparation has let go of what it opened (Windows: an open file cannot be deleted).
    virtual bool undoesAtOnce() const = 0;
    // Makes the missing folders (a new tree's marker first) and opens ours.
    virtual core::Status makeFolders(TreeUndo &undo) = 0;
    // Creates, extends or fills again the files the plan names, each marked "filling" first.
    virtual core::Status fillFiles(TreeUndo &undo) = 0;
    // Checks what the run will use before the preparation counts (a failure undoes it).
    virtual core::Status verify() = 0;
    // Holds the tree for the run once the preparation counts, and says what it is.
    virtual core::Result<core::TargetInfo> hold(bool madeAnything) = 0;

private:
    PreparationRequest m_request;
};

// Prepares the request's file tree by the policy: planned (planFileTree), refused where it
// may not be written, made and filled where it is missing or short, undone on failure.
core::Result<core::TargetInfo> prepareFileTree(const PreparationFs &fs, TreePreparation &steps);

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
