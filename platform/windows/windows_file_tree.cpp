// SPDX-License-Identifier: GPL-3.0-or-later
// File trees on Windows: prepared and removed by the one policy (platform/common/
// preparation_policy.h), each folder and file opened beneath the one above without
// following a reparse point, judged on its handle and held (held_targets.h).
#include "core/profile/units.h"
#include "core/workload/file_tree.h"
#include "platform/windows/held_targets.h"
#include "platform/windows/sector_size.h"
#include "platform/windows/test_file_marks.h"
#include "platform/windows/windows_backend.h"
#include "platform/windows/windows_preparation.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace ioprism::platform {

using win::lastError;
using win::UniqueHandle;
using win::win32Error;

namespace {

core::OpError notOurs(const std::string &path, const std::string &what)
{
    return platform::notOurs(windowsPreparationFs(), path, what);
}

// Undoes a preparation's work by the tree's paths, each entry judged ours on a handle
// before it is deleted (deleteChecked).
class PathTreeUndo final : public TreeUndoSteps
{
public:
    PathTreeUndo(const std::string &root, const TreePlan &plan)
        : m_root(root)
        , m_plan(plan)
    { }

    void restoreFile(std::size_t index, std::uint64_t bytes, bool complete) override
    {
        UniqueHandle h(::CreateFileW(win::widen(m_plan.files[index]).c_str(), GENERIC_WRITE,
            kShareAll, nullptr, OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
        if (h.valid())
            setFileSize(h.get(), bytes);
        if (complete)
            (void)setMark(m_plan.files[index], Mark::Complete);
    }
    void removeFile(std::size_t index) override { removeMade(m_plan.files[index], false); }
    void removeFolder(std::size_t index) override { removeMade(m_plan.folders[index], true); }
    void removeMarker() override { removeMade(core::fileTreeMarkerPath(m_root), false); }
    void removeRoot() override { removeMade(folderOf(m_root), true); }

private:
    const std::string &m_root;
    const TreePlan &m_plan;
};

core::Status writeMarker(
    const std::string &root, const core::FileTree &tree, const std::string &spaceDetail)
{
    const std::string path = core::fileTreeMarkerPath(root);
    UniqueHandle h(::CreateFileW(win::widen(path).c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW,
        FILE_ATTRIBUTE_NORMAL, nullptr));
    if (!h.valid()) {
        const DWORD err = ::GetLastError();
        return win32Error(err, "create file tree marker", path, diskFull(err) ? spaceDetail : "");
    }
    markOurs(win::widen(path), h.get(), Mark::Complete); // the folder's mark said if it lasts
    const std::string text = core::fileTreeMarkerText(tree);
    DWORD written = 0;
    if (!::WriteFile(h.get(), text.data(), static_cast<DWORD>(text.size()), &written, nullptr)
        || written != text.size()) {
        const DWORD err = ::GetLastError();
        return win32Error(err, "write file tree marker", path, diskFull(err) ? spaceDetail : "");
    }
    return core::Ok {};
}

// The file or folder `path` in `folder` opened for deletion, when it is ours.
std::optional<UniqueHandle> openOurs(
    HANDLE folder, const std::string &path, bool isFolder, ACCESS_MASK access)
{
    const std::wstring wide = win::widen(path);
    auto h = openInFolder(folder, nameIn(wide), access, kShareAll,
        isFolder ? FILE_DIRECTORY_FILE : FILE_NON_DIRECTORY_FILE, true, path);
    if (!h)
        return std::nullopt;
    const auto facts = factsOf(h->get());
    if (!facts || facts->isReparsePoint() || (!isFolder && facts->links != 1))
        return std::nullopt;
    const Judged j = judge(path);
    if (j.mark == Mark::None || j.identity != facts->identity)
        return std::nullopt;
    return std::move(*h);
}

// One removal of a tree: its folders held open from the top, and the first failure.
struct TreeRemoval {
    const std::string &root;
    std::vector<UniqueHandle> levels;
    std::optional<core::OpError> firstFailure;

    DWORD deleteThrough(UniqueHandle h, const std::string &path, bool recordFailure)
    {
        const auto id = fileIdentity(h.get(), win::widen(path));
        const DWORD err = deleteByHandle(h.get());
        h.reset(); // a plain disposition deletes when the handle closes
        if (err == ERROR_SUCCESS)
            forgetCreated(id);
        else if (recordFailure && !firstFailure)
            firstFailure = win32Error(err, "remove file tree", path);
        return err;
    }
};

// Files first, then the level folders deepest first (each only once empty), then the
// marker: until the marker goes, a later removal still knows the tree as ours. Only what
// carries our mark is deleted (a file only while it has one name): anything else under
// one of our names was put there by someone else.
void removeTreeContents(
    TreeRemoval &removal, const core::FileTree &tree, const std::vector<std::string> &folders)
{
    auto &levels = removal.levels;
    const std::size_t ourLevels = levels.size();
    const auto files = core::fileTreeFiles(removal.root, tree);
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::size_t level = i / tree.filesPerLevel;
        if (level >= ourLevels)
            break;
        if (auto h = openOurs(levels[level].get(), files[i], false, DELETE))
            removal.deleteThrough(std::move(*h), files[i], true);
    }
    for (std::size_t i = ourLevels; i-- > 1;) {
        // Opened for deletion in the folder above, then the walk's own handle of it
        // closed: a folder goes only when no handle is left. Fails while not empty.
        auto h = openOurs(levels[i - 1].get(), folders[i], true, DELETE);
        levels[i].reset();
        if (h)
            removal.deleteThrough(std::move(*h), folders[i], false);
    }
    const std::string markerPath = core::fileTreeMarkerPath(removal.root);
    if (auto h = openOurs(levels[0].get(), markerPath, false, DELETE))
        removal.deleteThrough(std::move(*h), markerPath, true);
    levels.clear();
}

// Deletes the top folder once its contents are gone, through a handle of the folder the
// removal opened first (`topIdentity`); names what is left when it is not empty.
core::Status removeTreeTop(TreeRemoval &removal, const FileIdentity &topIdentity,
    const std::vector<std::string> &folders, std::size_t ourLevels)
{
    const std::string &root = removal.root;
    const std::string topFolder = folderOf(root);
    UniqueHandle rootHandle(::CreateFileW(win::widen(topFolder).c_str(),
        DELETE | FILE_READ_ATTRIBUTES, kShareAll, nullptr, OPEN_EXISTING,
        FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    const auto rootFacts = rootHandle.valid() ? factsOf(rootHandle.get()) : std::nullopt;
    const auto &firstFailure = removal.firstFailure;
    if (!rootFacts)
        return isMissing(::GetLastError()) && !firstFailure ? core::Status(core::Ok {})
            : firstFailure                                  ? core::Status(*firstFailure)
                           : core::Status(lastError("remove file tree", root));
    if (rootFacts->identity != topIdentity)
        return win32Error(ERROR_ACCESS_DENIED, "remove file tree", root,
            "the tree's files were removed, but its folder was replaced meanwhile: left "
            "untouched");
    if (const DWORD err = removal.deleteThrough(std::move(rootHandle), topFolder, false);
        err == ERROR_SUCCESS)
        return firstFailure ? core::Status(*firstFailure) : core::Status(core::Ok {});
    else if (err != ERROR_DIR_NOT_EMPTY)
        return win32Error(
            err, "remove file tree", root, "the tree's files were removed but not its folder");
    if (firstFailure)
        return *firstFailure;
    return leftoversError(windowsPreparationFs(), root, folders, ourLevels);
}

// Why the tree cannot be prepared where it is (its parent, the rights, unbuffered I/O).
std::optional<core::OpError> treeWriteRefusal(const std::string &root, const TreePlan &plan,
    const core::PrepareOptions &options, core::CacheMode cacheMode, const std::wstring &parent)
{
    if (!plan.rootExists) {
        const DWORD pattrs = ::GetFileAttributesW(parent.c_str());
        if (pattrs == INVALID_FILE_ATTRIBUTES || !(pattrs & FILE_ATTRIBUTE_DIRECTORY))
            return win32Error(ERROR_PATH_NOT_FOUND, "create file tree", root,
                "the directory " + win::narrow(parent) + " does not exist");
    }
    // Rights and space are those of the folder the work happens in.
    const std::wstring home = plan.rootExists ? win::widen(root) : parent;
    DWORD writeErr = volumeIsReadOnly(home) ? ERROR_WRITE_PROTECT : ERROR_SUCCESS;
    // A file of the tree that is read-only (or held without sharing) fails every write to
    // it: found now rather than by the first operation that opens it.
    if (writeErr == ERROR_SUCCESS && options.needWrite && plan.completeFile)
        writeErr = writeAccessError(win::widen(plan.files[*plan.completeFile]));
    if (options.needWrite && writeErr != ERROR_SUCCESS)
        return readOnlyRefusal(root, writeErr);
    if (plan.needsWork() && writeErr != ERROR_SUCCESS)
        return win32Error(writeErr, "create file tree", root,
            "the volume is read-only: the tree cannot be created or completed");
    if (plan.completeFile)
        return unbufferedRefusal(plan.files[*plan.completeFile], cacheMode, parent);
    return std::nullopt;
}

// What the space messages say, or the refusal when the tree's work does not fit.
core::Result<std::string> treeSpaceDetail(const std::string &root, const core::FileTree &tree,
    const TreePlan &plan, const std::wstring &home, bool skipCheck)
{
    if (!plan.needsWork())
        return std::string();
    ULARGE_INTEGER avail {}, total {}, free {};
    const bool sizeKnown
        = ::GetDiskFreeSpaceExW(home.c_str(), &avail, &total, &free) && total.QuadPart > 0;
    const std::wstring volume = win::volumeRootOf(home);
    const std::uint64_t need = plan.needBytes(tree.fileSizeBytes, clusterBytes(volume));
    const std::uint64_t freeBytes = sizeKnown ? avail.QuadPart : 0;
    std::string spaceDetail = "not enough space on " + win::narrow(volume.empty() ? home : volume)
        + " for the file tree: need " + core::describeSize(need)
        + (sizeKnown ? ", have " + core::describeSize(freeBytes) : "");
    if (!skipCheck && sizeKnown && freeBytes < need)
        return win32Error(ERROR_DISK_FULL, "create file tree", root, spaceDetail);
    return spaceDetail;
}

// One preparation of a tree: what it works on.
struct TreeJob {
    const std::string &root;
    const core::FileTree &tree;
    const TreePlan &plan;
    const std::wstring &parent;
    std::string spaceDetail;
};

// Makes the tree's top folder and marks it ours: "" or why the mark will not last. The
// marker goes in next, so even a crash mid-fill leaves a tree IOPrism knows.
core::Result<std::string> makeTopFolder(const TreeJob &job, TreeUndo &undo)
{
    const std::string folder = folderOf(job.root);
    // Fails if the folder appeared since the look-up: never take one over.
    if (!::CreateDirectoryW(win::widen(folder).c_str(), nullptr)) {
        const DWORD err = ::GetLastError();
        return win32Error(err, "create file tree", job.root,
            err == ERROR_ALREADY_EXISTS ? "the folder appeared meanwhile: IOPrism never "
                                          "writes into a folder it did not create"
                : diskFull(err)         ? job.spaceDetail
                                        : "");
    }
    undo.madeRoot();
    const std::wstring w = win::widen(folder);
    UniqueHandle h(::CreateFileW(w.c_str(), 0, kShareAll, nullptr, OPEN_EXISTING,
        FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    if (!h.valid())
        return lastError("open", folder);
    return markOurs(w, h.get(), Mark::Complete);
}

// The level folders are made beneath the one above by their own names (NtCreateFile
// with FILE_CREATE in the held handle of the folder above), never through a path: a
// junction swapped in for a level cannot get a folder made behind it.
core::Status makeLevelFolders(const TreeJob &job, TreeUndo &undo)
{
    const TreePlan &plan = job.plan;
    if (std::none_of(plan.missingFolders.begin(), plan.missingFolders.end(),
            [](std::size_t i) { return i != 0; }))
        return core::Ok {};
    const std::string top = folderOf(job.root);
    UniqueHandle above(::CreateFileW(win::widen(top).c_str(),
        FILE_LIST_DIRECTORY | FILE_TRAVERSE | FILE_READ_ATTRIBUTES, kShareAll, nullptr,
        OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    if (!above.valid())
        return lastError("open", job.root);
    if (const auto facts = factsOf(above.get()); !facts || !heldIsOurs(top, *facts, true))
        return changedSinceChecked(job.root, "the tree's folder is not the one IOPrism made");
    for (std::size_t i = 1; i < plan.folders.size(); ++i) {
        const std::string &folder = plan.folders[i];
        const std::wstring wide = win::widen(folder);
        const bool missing = std::find(plan.missingFolders.begin(), plan.missingFolders.end(), i)
            != plan.missingFolders.end();
        auto h = openInFolder(above.get(), nameIn(wide), FILE_LIST_DIRECTORY | FILE_TRAVERSE,
            kShareAll, FILE_DIRECTORY_FILE, true, folder, missing ? FILE_CREATE : FILE_OPEN);
        if (!h) {
            const DWORD err = static_cast<DWORD>(h.error().code.value());
            return win32Error(err, missing ? "create folder" : "open", folder,
                err == ERROR_ALREADY_EXISTS || err == ERROR_FILE_EXISTS
                    ? "the folder appeared meanwhile: IOPrism never writes into a folder it "
                      "did not create"
                    : diskFull(err) ? job.spaceDetail
                                    : "");
        }
        if (missing) {
            undo.madeFolder(i);
            markOurs(wide, h->get(), Mark::Complete); // the top's mark said if it lasts
        } else if (const auto facts = factsOf(h->get());
                   !facts || !heldIsOurs(folder, *facts, true)) {
            return changedSinceChecked(folder, "this level's folder is not the one IOPrism made");
        }
        above = std::move(*h);
    }
    return core::Ok {};
}

// FILE_CREATE: never take over a file that appeared since the look-up; an existing one
// is opened as itself, never through a reparse point, and written only while it is still
// ours, of one name, and the file its mark names; it is marked "filling" again, a new one
// "filling" before a byte is written (a crash mid-fill leaves a file IOPrism knows it must
// fill again). Shared for writing: the unbuffered handle writes the aligned chunks.
core::Result<UniqueHandle> openToFill(
    const TreeJob &job, HANDLE level, const TreeFileWork &w, TreeUndo &undo)
{
    const std::string &path = job.plan.files[w.index];
    const std::wstring wpath = win::widen(path);
    auto opened = openInFolder(level, nameIn(wpath), GENERIC_READ | GENERIC_WRITE,
        FILE_SHARE_READ | FILE_SHARE_WRITE, FILE_NON_DIRECTORY_FILE, true, path,
        w.exists ? FILE_OPEN : FILE_CREATE);
    if (!opened) {
        const DWORD err = static_cast<DWORD>(opened.error().code.value());
        return win32Error(
            err, w.exists ? "open" : "create file", path, diskFull(err) ? job.spaceDetail : "");
    }
    UniqueHandle file = std::move(*opened);
    if (w.exists) {
        const auto facts = factsOf(file.get());
        if (!facts || !heldIsOurs(path, *facts, false))
            return notOurs(path, "a file without IOPrism's mark or with other names");
        if (auto marked = setMark(path, Mark::Filling); !marked)
            return marked.error();
        undo.extended(w.index, w.currentBytes, w.halfFilled);
    } else {
        undo.madeFile(w.index);
        markOurs(wpath, file.get(), Mark::Filling);
    }
    return file;
}

// Reserves a file's space now (NTFS allocates the clusters: not sparse), and with the
// privilege moves the valid data length so NTFS does not zero ahead of the writes; asks
// the volume's sector size once (`*sector`); then opens the same file again, unbuffered:
// reopened from its handle, and used only if it is the same file (under Wine ReOpenFile
// goes by name; see held_targets.h).
core::Result<UniqueHandle> reserveAndReopen(const TreeJob &job, HANDLE file,
    const std::string &path, std::uint64_t toBytes, std::optional<std::uint32_t> *sector)
{
    if (!setFileSize(file, toBytes)) {
        const DWORD err = ::GetLastError();
        return win32Error(err, "reserve space", path, diskFull(err) ? job.spaceDetail : "");
    }
    if (canSetValidData())
        ::SetFileValidData(file, static_cast<LONGLONG>(toBytes));
    if (!*sector)
        *sector
            = std::max(win::querySectorSize(file, win::widen(path)).logicalBytes, kMinBufferAlign);
    UniqueHandle direct(::ReOpenFile(
        file, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, FILE_FLAG_NO_BUFFERING));
    if (direct.valid()) {
        const auto a = factsOf(file), b = factsOf(direct.get());
        if (!a || !b || a->identity != b->identity)
            direct.reset();
    }
    return direct;
}

core::Status fillTreeFiles(const TreeJob &job, core::CacheMode cacheMode,
    const core::PrepareOptions &options, const core::PrepareProgress &progress, TreeUndo &undo)
{
    if (job.plan.work.empty())
        return core::Ok {};
    FileFiller filler(options);
    if (auto st = filler.init(job.root); !st)
        return st;
    std::uint64_t doneBefore = 0;
    const core::PrepareProgress overTree = treeProgress(progress, &doneBefore, job.plan.writeBytes);
    bool directChecked = job.plan.completeFile.has_value();
    std::optional<std::uint32_t> sector; // the tree's volume: asked of its first file
    // Files are made and opened in the level folders, each opened beneath the one
    // above without following a reparse point: a junction swapped in for a level
    // cannot lead the fill into another folder.
    auto levels = openTreeFolders(job.root, job.plan);
    if (!levels)
        return levels.error();
    for (const auto &w : job.plan.work) {
        const std::string &path = job.plan.files[w.index];
        auto file = openToFill(job, (*levels)[w.index / job.tree.filesPerLevel].get(), w, undo);
        if (!file)
            return file.error();
        if (!directChecked) {
            directChecked = true;
            if (auto refusal = unbufferedRefusal(path, cacheMode, job.parent))
                return *refusal;
        }
        const FillRange range = w.range(job.tree.fileSizeBytes);
        auto direct = reserveAndReopen(job, file->get(), path, range.toBytes, &sector);
        if (!direct)
            return direct.error();
        // No flush per file: the aligned part is written unbuffered, and a buffered
        // tail is left to the cache manager (Windows flushes a whole volume only for
        // administrators), as flushing each of a million small files would take long.
        // The cache outlives a killed process, so "complete" follows the last write;
        // only a power cut before the cache is written could outrun it.
        if (auto st = filler.fill(path, file->get(),
                direct->valid() ? direct->get() : INVALID_HANDLE_VALUE, *sector, range.fromBytes,
                range.toBytes, overTree, job.spaceDetail, false, "prepare file tree");
            !st)
            return st;
        if (auto marked = setMark(path, Mark::Complete); !marked)
            return marked;
        doneBefore += range.toBytes - range.fromBytes;
    }
    return core::Ok {};
}

// Opens the tree's folders (each level beneath the one above) and files without
// following a reparse point, after BackendOptions::beforeHold, decides again on each
// handle (a plain folder or file, ours, the one judged) and holds them.
core::Status holdFileTree(const std::string &root, const core::FileTree &tree, const TreePlan &plan,
    const BackendOptions &backend, HeldTargets &held)
{
    if (backend.beforeHold)
        backend.beforeHold(root);
    auto opened = openTreeFolders(root, plan);
    if (!opened)
        return opened.error();
    std::vector<UniqueHandle> levels = std::move(*opened);
    std::vector<FileIdentity> files;
    files.reserve(plan.files.size());
    for (std::size_t i = 0; i < plan.files.size(); ++i) {
        const std::wstring wide = win::widen(plan.files[i]);
        auto h = openInFolder(levels[i / tree.filesPerLevel].get(), nameIn(wide), 0, kShareAll,
            FILE_NON_DIRECTORY_FILE, true, plan.files[i]);
        if (!h)
            return h.error();
        const auto facts = factsOf(h->get());
        if (!facts || !heldIsOurs(plan.files[i], *facts, false))
            return changedSinceChecked(
                plan.files[i], "this file is not the one IOPrism made or checked");
        files.push_back(facts->identity);
    }
    held.holdTree(root, tree, std::move(levels), std::move(files));
    return core::Ok {};
}

// A tree's preparation through handles, for the policy's driver
// (platform::prepareFileTree).
class HandleTreePreparation final : public TreePreparation
{
public:
    explicit HandleTreePreparation(PreparationRequest request)
        : TreePreparation(std::move(request))
        , m_parent(parentOf(win::widen(folderOf(this->request().target.path))))
    { }

    std::optional<core::OpError> writeRefusal(const TreePlan &plan) override
    {
        return treeWriteRefusal(
            request().target.path, plan, request().options, request().target.cacheMode, m_parent);
    }
    core::Result<std::string> spaceDetail(const TreePlan &plan) override
    {
        return treeSpaceDetail(request().target.path, request().target.tree, plan,
            plan.rootExists ? win::widen(request().target.path) : m_parent,
            request().backend.skipFreeSpaceCheck);
    }
    TreeUndoSteps &start(const TreePlan &plan, std::string spaceDetail) override
    {
        m_job.emplace(TreeJob {.root = request().target.path,
            .tree = request().target.tree,
            .plan = plan,
            .parent = m_parent,
            .spaceDetail = std::move(spaceDetail)});
        return m_undo.emplace(request().target.path, plan);
    }
    bool undoesAtOnce() const override { return false; }
    core::Status makeFolders(TreeUndo &undo) override
    {
        if (!m_job->plan.rootExists) {
            auto marked = makeTopFolder(*m_job, undo);
            if (!marked)
                return marked.error();
            if (!marked->empty())
                request().notice("could not mark " + request().target.path
                    + " as IOPrism's file tree (" + *marked
                    + "): later runs will refuse it; delete it yourself when done");
            // The marker goes first, so even a crash mid-fill leaves a tree IOPrism knows.
            undo.madeMarker(); // removed on failure even when half-written
            if (auto st
                = writeMarker(request().target.path, request().target.tree, m_job->spaceDetail);
                !st)
                return st;
        }
        return makeLevelFolders(*m_job, undo);
    }
    core::Status fillFiles(TreeUndo &undo) override
    {
        return fillTreeFiles(
            *m_job, request().target.cacheMode, request().options, request().progress, undo);
    }
    core::Status verify() override { return core::Ok {}; }
    core::Result<core::TargetInfo> hold(bool madeAnything) override;

private:
    const std::wstring m_parent;
    std::optional<TreeJob> m_job;
    std::optional<PathTreeUndo> m_undo;
};

core::Result<core::TargetInfo> HandleTreePreparation::hold(bool madeAnything)
{
    const std::string &root = request().target.path;
    const TreePlan &plan = m_job->plan;
    // Take hold of the folders and files checked and made; from here on the engines open
    // the tree's files only in the held folders (held_targets.h).
    if (auto held
        = holdFileTree(root, request().target.tree, plan, request().backend, request().held);
        !held)
        return held.error();

    core::TargetInfo info;
    info.path = root;
    info.sizeBytes = request().target.tree.fileSizeBytes;
    info.isDevice = false;
    info.createdTestFile = madeAnything;
    const std::wstring first = win::widen(plan.files.front());
    info.readOnly = volumeIsReadOnly(first) || writeAccessError(first) != ERROR_SUCCESS;
    UniqueHandle probe(::CreateFileW(first.c_str(), GENERIC_READ, kShareAll, nullptr, OPEN_EXISTING,
        request().target.cacheMode == core::CacheMode::Direct ? FILE_FLAG_NO_BUFFERING : 0,
        nullptr));
    if (!probe.valid())
        return lastError("open", plan.files.front());
    const win::SectorInfo sector = win::querySectorSize(probe.get(), first);
    info.logicalBlockBytes = sector.logicalBytes;
    info.directIoOffsetAlignBytes = sector.logicalBytes;
    info.directIoMemAlignBytes = std::max(kMinBufferAlign, sector.logicalBytes);
    return info;
}

} // namespace

core::Status removeFileTree(const std::string &root, const core::FileTree &tree)
{
    DWORD lookUpError = ERROR_SUCCESS;
    const PathEntry top = lookUp(root, &lookUpError);
    if (!top.exists)
        return win32Error(lookUpError, "remove file tree", root);
    if (!top.directory)
        return win32Error(ERROR_ACCESS_DENIED, "remove file tree", root,
            "not a folder, so not a file tree made by IOPrism: left untouched");
    const TreeMarker marker = readTreeMarker(root);
    if (auto refusal = treeRemovalRefusal(windowsPreparationFs(), root, tree, marker,
            marker.state == TreeMarker::State::Found && windowsPreparationFs().treeIsOurs(root)))
        return *refusal;

    // Everything is opened beneath the top folder one component at a time without
    // following a reparse point (openInFolder), checked on its handle (the file judged
    // ours is the one opened) and deleted through that handle: a junction swapped in for
    // a level cannot lead the removal into another folder. Whatever this process holds of
    // the tree for a run is let go first, as a folder held open cannot go.
    releaseHeldEverywhere(root);
    const std::string topFolder = folderOf(root);
    const auto folders = core::fileTreeFolders(root, tree);
    TreeRemoval removal {.root = root};
    removal.levels.emplace_back(::CreateFileW(win::widen(topFolder).c_str(),
        FILE_LIST_DIRECTORY | FILE_TRAVERSE | FILE_READ_ATTRIBUTES, kShareAll, nullptr,
        OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    const auto topFacts
        = removal.levels.back().valid() ? factsOf(removal.levels.back().get()) : std::nullopt;
    if (!topFacts || topFacts->isReparsePoint() || judge(topFolder).identity != topFacts->identity)
        return win32Error(ERROR_ACCESS_DENIED, "remove file tree", root,
            "the folder changed while IOPrism was checking it: left untouched");
    // The levels that are ours, from the top: below a folder someone else put in a
    // level's place, nothing is ours.
    for (std::size_t i = 1; i < folders.size(); ++i) {
        auto level = openOurs(
            removal.levels.back().get(), folders[i], true, FILE_LIST_DIRECTORY | FILE_TRAVERSE);
        if (!level)
            break;
        removal.levels.push_back(std::move(*level));
    }
    const std::size_t ourLevels = removal.levels.size();
    removeTreeContents(removal, tree, folders);
    return removeTreeTop(removal, topFacts->identity, folders, ourLevels);
}

core::Result<core::TargetInfo> prepareFileTreeByHandle(PreparationRequest request)
{
    HandleTreePreparation steps(std::move(request));
    return prepareFileTree(windowsPreparationFs(), steps);
}

} // namespace ioprism::platform
