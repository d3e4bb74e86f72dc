// SPDX-License-Identifier: GPL-3.0-or-later
// File trees on Linux: prepared and removed by the one policy (platform/common/
// preparation_policy.h) in folders held open, one component at a time, never through a
// link (held_targets.h).
#include "core/profile/units.h"
#include "core/workload/file_tree.h"
#include "platform/linux/block_devices.h"
#include "platform/linux/held_targets.h"
#include "platform/linux/linux_backend.h"
#include "platform/linux/linux_preparation.h"
#include "platform/linux/test_file_marks.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <functional>
#include <optional>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace ioprism::platform {

using core::makeOpError;
using core::OpError;

namespace {

OpError notOurs(const std::string &path, const std::string &what)
{
    return platform::notOurs(linuxPreparationFs(), path, what);
}

// A file of a tree that an earlier preparation created but was killed before marking:
// empty, one name, unmarked. It holds no data, and the tree around it is ours, so it is
// filled (and removed) as IOPrism's own half-made file rather than refused for good.
bool halfMadeTreeFile(const struct stat &st)
{
    return S_ISREG(st.st_mode) && st.st_nlink == 1 && st.st_size == 0;
}

// Whether a tree file open as `fd` is ours: marked, or half-made (see above).
bool treeFileIsOurs(int fd)
{
    struct stat st {
    };
    return markOfFd(fd) != Mark::None || (::fstat(fd, &st) == 0 && halfMadeTreeFile(st));
}

// Opens the folder of the layout `name` in `parentFd` (AT_FDCWD and a path for the top)
// and checks that it is ours, or refuses it: a link, a file, or a folder without our mark.
core::Result<UniqueFd> openOurFolder(int parentFd, const std::string &name, const std::string &path)
{
    const int fd
        = ::openat(parentFd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        if (err == ELOOP || err == ENOTDIR)
            return notOurs(path, "this is not a folder (a symbolic link or a file)");
        return makeOpError(err, "open", path);
    }
    UniqueFd folder(fd);
    if (markOfFd(fd) == Mark::None)
        return notOurs(path, "this folder lacks IOPrism's mark");
    return folder;
}

// Undoes a preparation's work in the folders it holds (`levels`), never through the
// tree's paths.
class HeldTreeUndo final : public TreeUndoSteps
{
public:
    HeldTreeUndo(const std::string &root, const TreePlan &plan, const core::FileTree &tree,
        const std::vector<UniqueFd> &levels)
        : m_root(root)
        , m_plan(plan)
        , m_tree(tree)
        , m_levels(levels)
    { }

    void restoreFile(std::size_t index, std::uint64_t bytes, bool complete) override
    {
        const int dir = levelOf(index);
        if (dir < 0)
            return;
        const int fd = openRegularAt(dir, leafName(m_plan.files[index]), O_WRONLY, 0);
        if (fd < 0)
            return;
        UniqueFd file(fd);
        if (!treeFileIsOurs(fd))
            return; // someone else's file in its place now: not touched
        if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
            // keep the error already being reported
        }
        if (complete)
            (void)setMark(m_plan.files[index], fd, Mark::Complete);
    }
    void removeFile(std::size_t index) override
    {
        if (const int dir = levelOf(index); dir >= 0)
            removeMadeAt(dir, leafName(m_plan.files[index]), false);
    }
    void removeFolder(std::size_t index) override
    {
        if (index != 0 && m_levels[index - 1].valid())
            removeMadeAt(m_levels[index - 1].get(), leafName(m_plan.folders[index]), true);
    }
    void removeMarker() override
    {
        if (m_levels[0].valid())
            removeMadeAt(m_levels[0].get(), std::string(core::kFileTreeMarkerName), false);
    }
    void removeRoot() override
    {
        // The top folder by its path: at worst an empty folder put in its place.
        struct stat st {
        };
        if (::lstat(m_root.c_str(), &st) == 0 && S_ISDIR(st.st_mode)
            && ::rmdir(m_root.c_str()) == 0)
            forgetCreated(st);
    }

private:
    int levelOf(std::size_t fileIndex) const
    {
        const std::size_t level = fileIndex / std::max<std::uint32_t>(m_tree.filesPerLevel, 1);
        return level < m_levels.size() && m_levels[level].valid() ? m_levels[level].get() : -1;
    }

    const std::string &m_root;
    const TreePlan &m_plan;
    const core::FileTree &m_tree;
    const std::vector<UniqueFd> &m_levels;
};

// Makes the folder `name` in `parentFd` (AT_FDCWD and a path for the top) and marks it
// ours; `*out` holds it. Returns "" or why the mark will not outlive this process
// (`made` says whether the folder exists now).
core::Result<std::string> makeTreeFolder(int parentFd, const std::string &name,
    const std::string &path, const std::string &spaceDetail, bool *made, UniqueFd *out)
{
    *made = false;
    // mkdir fails if the folder appeared since the look-up: never take one over.
    if (::mkdirat(parentFd, name.c_str(), 0755) != 0) {
        const int err = errno;
        return makeOpError(err, "create folder", path,
            err == EEXIST ? "the folder appeared meanwhile: IOPrism never writes "
                            "into a folder it did not create"
                : err == ENOSPC || err == EDQUOT ? spaceDetail
                                                 : "");
    }
    *made = true;
    const int fd
        = ::openat(parentFd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return makeOpError(errno, "open", path);
    out->reset(fd);
    return markOurs(fd, Mark::Complete);
}

core::Status writeMarker(
    int rootFd, const std::string &root, const core::FileTree &tree, const std::string &spaceDetail)
{
    const std::string path = core::fileTreeMarkerPath(root);
    const int fd = ::openat(rootFd, std::string(core::kFileTreeMarkerName).c_str(),
        O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) {
        const int err = errno;
        return makeOpError(err, "create file tree marker", path,
            err == ENOSPC || err == EDQUOT ? spaceDetail : "");
    }
    UniqueFd file(fd);
    markOurs(fd, Mark::Complete); // the folder's mark already said whether it lasts
    const std::string text = core::fileTreeMarkerText(tree);
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            const int err = w < 0 ? errno : EIO;
            return makeOpError(err, "write file tree marker", path,
                err == ENOSPC || err == EDQUOT ? spaceDetail : "");
        }
        done += static_cast<std::size_t>(w);
    }
    return core::Ok {};
}

// One preparation of a tree: what it works on, and the tree's folders, held open from
// here on: made or opened one component at a time beneath the top folder, never through
// a link, and used for everything below, by the run's engines too (held_targets.h).
struct TreeJob {
    const std::string &root;
    const core::FileTree &tree;
    const TreePlan &plan;
    std::string spaceDetail;
    std::vector<UniqueFd> levels;
    int levelOf(std::size_t fileIndex) const
    {
        return levels[fileIndex / tree.filesPerLevel].get();
    }
};

// Why the tree cannot be prepared where it is (its parent, the rights, direct I/O).
std::optional<OpError> treeWriteRefusal(const std::string &root, const TreePlan &plan,
    const core::PrepareOptions &options, core::CacheMode cacheMode)
{
    const std::string parent = parentOf(root);
    if (!plan.rootExists) {
        struct stat pst {
        };
        if (::stat(parent.c_str(), &pst) != 0 || !S_ISDIR(pst.st_mode))
            return makeOpError(
                ENOENT, "create file tree", root, "the directory " + parent + " does not exist");
    }
    // Rights and space are those of the folder the work happens in.
    const std::string &home = plan.rootExists ? root : parent;
    int werr = 0;
    const bool canWrite = writable(home, &werr);
    if (options.needWrite && !canWrite)
        return readOnlyRefusal(root, werr);
    if (plan.needsWork() && !canWrite)
        return makeOpError(werr, "create file tree", root,
            plan.rootExists ? "the tree is incomplete and files cannot be created in " + root
                            : "cannot create folders in " + parent);

    // Direct I/O is asked of a file of the tree (a folder never opens with O_DIRECT): one
    // that is there now, else the first one created, before a byte is written.
    if (plan.completeFile) {
        const std::string &file = plan.files[*plan.completeFile];
        if (auto refusal
            = directIoRefusal(file, cacheMode, queryAlignment(file, logicalBlockOfFile(file))))
            return *refusal;
    }
    return std::nullopt;
}

// What the space messages say, or the refusal when the tree's work does not fit.
core::Result<std::string> treeSpaceDetail(
    const std::string &root, const core::FileTree &tree, const TreePlan &plan, bool skipCheck)
{
    if (!plan.needsWork())
        return std::string();
    const std::string &home = plan.rootExists ? root : parentOf(root);
    struct statvfs sv {
    };
    // File systems that report no size at all (ramfs, some FUSE) cannot be checked
    // ahead: their writes will say ENOSPC if it comes to that.
    const bool sizeKnown = ::statvfs(home.c_str(), &sv) == 0 && sv.f_blocks > 0;
    const std::uint64_t need = plan.needBytes(tree.fileSizeBytes, sizeKnown ? sv.f_frsize : 1);
    const std::uint64_t freeBytes
        = sizeKnown ? static_cast<std::uint64_t>(sv.f_bavail) * sv.f_frsize : 0;
    const std::string mount = mountPointOfPath(home);
    const std::string where = mount.empty() ? home : mount;
    std::string spaceDetail = "not enough space on " + where + " for the file tree: need "
        + core::describeSize(need) + (sizeKnown ? ", have " + core::describeSize(freeBytes) : "");
    if (!skipCheck && sizeKnown && freeBytes < need)
        return makeOpError(ENOSPC, "create file tree", root, spaceDetail);
    // Many small files run out of inodes before they run out of bytes.
    const std::uint64_t inodes = plan.missingFolders.size() + (plan.rootExists ? 0 : 1)
        + static_cast<std::uint64_t>(std::count_if(
            plan.work.begin(), plan.work.end(), [](const auto &w) { return !w.exists; }));
    if (!skipCheck && sizeKnown && sv.f_files > 0 && sv.f_favail < inodes)
        return makeOpError(ENOSPC, "create file tree", root,
            "not enough free inodes on " + where + " for the file tree's files and folders: "
                + "need " + std::to_string(inodes) + ", have " + std::to_string(sv.f_favail));
    return spaceDetail;
}

// Opens our folders of the tree and makes the missing ones, each marked ours; a new tree's
// marker goes first. `*notice` says when the top's mark will not outlive this process.
core::Status makeTreeFolders(TreeJob &job, TreeUndo &undo, std::string *notice)
{
    const TreePlan &plan = job.plan;
    std::vector<bool> missing(plan.folders.size(), false);
    for (const std::size_t i : plan.missingFolders)
        missing[i] = true;
    for (std::size_t i = 0; i < plan.folders.size(); ++i) {
        const int parentFd = i == 0 ? AT_FDCWD : job.levels[i - 1].get();
        const std::string name = i == 0 ? job.root : leafName(plan.folders[i]);
        if (!missing[i]) {
            auto opened = openOurFolder(parentFd, name, plan.folders[i]);
            if (!opened)
                return opened.error();
            job.levels[i] = std::move(*opened);
            continue;
        }
        bool made = false;
        auto marked = makeTreeFolder(
            parentFd, name, plan.folders[i], job.spaceDetail, &made, &job.levels[i]);
        if (made)
            i == 0 ? undo.madeRoot() : undo.madeFolder(i);
        if (!marked)
            return marked.error();
        if (i == 0) {
            if (!marked->empty())
                *notice = "could not mark " + job.root + " as IOPrism's file tree (" + *marked
                    + "): later runs will refuse it; delete it yourself when done";
            // The marker goes first, so even a crash mid-fill leaves a tree IOPrism knows.
            undo.madeMarker(); // even when it fails: it may be half-written
            if (auto st = writeMarker(job.levels[0].get(), job.root, job.tree, job.spaceDetail);
                !st)
                return st;
        }
    }
    return core::Ok {};
}

// Opens a file of the tree to fill, in the level's folder held open, by the file's own
// name: O_EXCL never takes over a file that appeared since the look-up; no link is
// followed, and a FIFO or device in the file's place is refused without blocking. An
// existing file must still be ours and of one name; it is marked "filling" again, a new
// one "filling" before a byte is written (a crash mid-fill leaves a file IOPrism knows it
// must fill again).
core::Result<UniqueFd> openToFill(const TreeJob &job, const TreeFileWork &w, TreeUndo &undo)
{
    const std::string &path = job.plan.files[w.index];
    const int fd = w.exists
        ? openRegularAt(job.levelOf(w.index), leafName(path), O_WRONLY, 0)
        : openRegularAt(job.levelOf(w.index), leafName(path), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) {
        const int err = -fd;
        if (err == ELOOP || err == EINVAL)
            return notOurs(path, "this is not a regular file (a symbolic link, a folder)");
        return makeOpError(err, w.exists ? "open" : "create file", path,
            err == ENOSPC || err == EDQUOT ? job.spaceDetail : "");
    }
    UniqueFd file(fd);
    if (w.exists) {
        if (!treeFileIsOurs(fd))
            return notOurs(path, "a file without IOPrism's mark or with other names");
        if (auto marked = setMark(path, fd, Mark::Filling); !marked)
            return marked.error();
        undo.extended(w.index, w.currentBytes, w.halfFilled);
    } else {
        undo.madeFile(w.index);
        markOurs(fd, Mark::Filling);
    }
    return file;
}

// The files written, to be marked complete once the tree is synced; each by its
// identity, so that a file put in one's place meanwhile is not marked.
using FilledFiles = std::vector<std::pair<std::size_t, FileIdentity>>;

core::Result<FilledFiles> fillTreeFiles(const TreeJob &job, const core::Target &target,
    const core::PrepareOptions &options, const core::PrepareProgress &progress, TreeUndo &undo)
{
    FilledFiles filled;
    if (job.plan.work.empty())
        return filled;
    FileFiller filler(options);
    if (auto st = filler.init(); !st)
        return st.error();
    std::uint64_t doneBefore = 0;
    const core::PrepareProgress overTree = treeProgress(progress, &doneBefore, job.plan.writeBytes);
    bool directChecked = job.plan.completeFile.has_value();
    for (const auto &w : job.plan.work) {
        const std::string &path = job.plan.files[w.index];
        auto file = openToFill(job, w, undo);
        if (!file)
            return file.error();
        if (!directChecked) {
            directChecked = true;
            if (auto refusal = directIoRefusal(
                    path, target.cacheMode, queryAlignment(path, logicalBlockOfFile(path))))
                return *refusal;
        }
        const FillRange range = w.range(job.tree.fileSizeBytes);
        if (auto st = filler.fill(path, file->get(), range.fromBytes, range.toBytes, overTree,
                job.spaceDetail, FileFiller::Sync::Later, "prepare file tree");
            !st)
            return st.error();
        doneBefore += range.toBytes - range.fromBytes;
        filled.emplace_back(w.index, identityOf(file->get()));
    }
    return filled;
}

// One sync for the whole tree (its data, sizes and folders), not one per file; then the
// files are marked complete, and a second sync keeps the marks. A crash before it leaves
// files "filling": filled again, never measured.
core::Status syncAndMarkComplete(const TreeJob &job, const FilledFiles &filled)
{
    const auto syncTree = [&]() -> core::Status {
        if (::syncfs(job.levels[0].get()) == 0)
            return core::Ok {};
        const int err = errno;
        return makeOpError(
            err, "syncfs", job.root, err == ENOSPC || err == EDQUOT ? job.spaceDetail : "");
    };
    if (auto st = syncTree(); !st)
        return st;
    for (const auto &[index, identity] : filled) {
        const std::string &path = job.plan.files[index];
        const int file = openRegularAt(job.levelOf(index), leafName(path), O_RDONLY, 0);
        if (file < 0 && file != -EINVAL && file != -ELOOP)
            return makeOpError(-file, "open", path);
        UniqueFd filledFile(std::max(file, -1));
        if (file < 0 || identityOf(file) != identity)
            return notOurs(path, "a file put in place of the one IOPrism filled");
        if (auto marked = setMark(path, file, Mark::Complete); !marked)
            return marked;
    }
    if (!filled.empty())
        return syncTree();
    return core::Ok {};
}

// What the run will use, checked on the descriptors it will hold: every file of the
// tree is a regular file of one name in its level's folder, complete and marked ours,
// and the marker is ours too. Its identity is what the engines accept later.
core::Result<std::vector<FileIdentity>> heldTreeFiles(
    const TreeJob &job, const std::function<void(const std::string &)> &beforeHold)
{
    std::vector<FileIdentity> identities(job.plan.files.size());
    const TreeMarker held = readTreeMarkerAt(job.levels[0].get());
    if (held.state != TreeMarker::State::Found || !held.marked
        || !core::sameFileTreeShape(held.tree, job.tree))
        return notOurs(core::fileTreeMarkerPath(job.root),
            "the tree's marker changed while IOPrism prepared the tree");
    if (beforeHold)
        beforeHold(job.root);
    for (std::size_t i = 0; i < job.plan.files.size(); ++i) {
        const std::string &path = job.plan.files[i];
        const int fd = openRegularAt(job.levelOf(i), leafName(path), O_RDONLY, 0);
        if (fd < 0)
            return -fd == EINVAL || -fd == ELOOP
                ? notOurs(path, "this is not a regular file (a symbolic link, a folder)")
                : makeOpError(-fd, "open", path);
        UniqueFd file(fd);
        if (markOfFd(fd) != Mark::Complete)
            return notOurs(path,
                "a file without IOPrism's mark or with other names was put in the tree while "
                "IOPrism prepared it");
        identities[i] = identityOf(fd);
    }
    return identities;
}

// A tree's preparation in folders held open (descriptors), for the policy's driver
// (platform::prepareFileTree).
class HeldTreePreparation final : public TreePreparation
{
public:
    using TreePreparation::TreePreparation;

    std::optional<OpError> writeRefusal(const TreePlan &plan) override
    {
        return treeWriteRefusal(
            request().target.path, plan, request().options, request().target.cacheMode);
    }
    core::Result<std::string> spaceDetail(const TreePlan &plan) override
    {
        return treeSpaceDetail(request().target.path, request().target.tree, plan,
            request().backend.skipFreeSpaceCheck);
    }
    TreeUndoSteps &start(const TreePlan &plan, std::string spaceDetail) override
    {
        m_job.emplace(TreeJob {.root = request().target.path,
            .tree = request().target.tree,
            .plan = plan,
            .spaceDetail = std::move(spaceDetail),
            .levels = std::vector<UniqueFd>(plan.folders.size())});
        return m_undo.emplace(request().target.path, plan, request().target.tree, m_job->levels);
    }
    bool undoesAtOnce() const override { return true; }
    core::Status makeFolders(TreeUndo &undo) override
    {
        std::string notice;
        auto made = makeTreeFolders(*m_job, undo, &notice);
        if (!notice.empty())
            request().notice(std::move(notice));
        return made;
    }
    core::Status fillFiles(TreeUndo &undo) override
    {
        auto filled
            = fillTreeFiles(*m_job, request().target, request().options, request().progress, undo);
        if (!filled)
            return filled.error();
        m_filled = std::move(*filled);
        return core::Ok {};
    }
    core::Status verify() override
    {
        if (m_job->plan.needsWork())
            if (auto st = syncAndMarkComplete(*m_job, m_filled); !st)
                return st;
        auto identities = heldTreeFiles(*m_job, request().backend.beforeHold);
        if (!identities)
            return identities.error();
        m_identities = std::move(*identities);
        return core::Ok {};
    }
    core::Result<core::TargetInfo> hold(bool madeAnything) override
    {
        core::TargetInfo info;
        info.path = request().target.path;
        info.sizeBytes = request().target.tree.fileSizeBytes;
        info.isDevice = false;
        info.createdTestFile = madeAnything;
        const std::string &first = m_job->plan.files.front();
        int werr = 0;
        info.readOnly = !writable(first, &werr);
        const Alignment a = queryAlignment(first, logicalBlockOfFile(first));
        info.logicalBlockBytes = a.logicalBytes;
        info.directIoOffsetAlignBytes = a.offsetBytes;
        info.directIoMemAlignBytes = a.memBytes;
        request().held.holdTree(request().target.path, request().target.tree,
            std::move(m_job->levels), std::move(m_identities));
        return info;
    }

private:
    std::optional<TreeJob> m_job;
    std::optional<HeldTreeUndo> m_undo;
    FilledFiles m_filled;
    std::vector<FileIdentity> m_identities;
};

} // namespace

namespace {

// A tree being removed: the folder above it and its level folders, held open.
struct RemovalWalk {
    UniqueFd parent;
    std::string rootName;
    std::vector<UniqueFd> levels; // ours, from the top
};

// Opens the tree's top folder once, through its parent, without following a link.
core::Result<RemovalWalk> openTreeToRemove(const std::string &root)
{
    struct stat st {
    };
    if (::lstat(root.c_str(), &st) != 0)
        return makeOpError(errno, "remove file tree", root);
    if (S_ISLNK(st.st_mode))
        return makeOpError(EPERM, "remove file tree", root,
            "a symbolic link, so not a file tree made by IOPrism (it is removed only by its "
            "own folder's name): left untouched");
    if (!S_ISDIR(st.st_mode))
        return makeOpError(EPERM, "remove file tree", root,
            "not a folder, so not a file tree made by IOPrism: left untouched");
    RemovalWalk walk;
    const int parentFd = ::open(parentOf(root).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (parentFd < 0)
        return makeOpError(errno, "remove file tree", parentOf(root));
    walk.parent.reset(parentFd);
    walk.rootName = leafName(root);
    const int rootFd = ::openat(
        parentFd, walk.rootName.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (rootFd < 0)
        return makeOpError(errno, "remove file tree", root,
            errno == ELOOP || errno == ENOTDIR ? "it is no longer a folder: left untouched" : "");
    walk.levels.emplace_back(rootFd);
    return walk;
}

// Files first, then the level folders deepest first (each only once empty), then the
// marker: until the marker goes, a later removal still knows the tree as ours. Only what
// carries our mark is removed (a file only while it has one name): anything else under
// one of our names was put there by someone else. The first failure, if any.
std::optional<OpError> removeTreeContents(const std::string &root, const core::FileTree &tree,
    const std::vector<std::string> &folders, const std::vector<UniqueFd> &levels)
{
    std::optional<OpError> firstFailure;
    const std::size_t ourLevels = levels.size();
    const auto files = core::fileTreeFiles(root, tree);
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::size_t level = i / std::max<std::uint32_t>(tree.filesPerLevel, 1);
        if (level >= ourLevels)
            break;
        const std::string name = leafName(files[i]);
        const int fd = openRegularAt(levels[level].get(), name, O_RDONLY, 0);
        if (fd < 0)
            continue;
        UniqueFd file(fd);
        if (!treeFileIsOurs(fd))
            continue;
        if (!removeMadeAt(levels[level].get(), name, false) && errno != ENOENT && !firstFailure)
            firstFailure = makeOpError(errno, "remove file tree", files[i]);
    }
    for (std::size_t i = ourLevels; i-- > 1;)
        removeMadeAt(levels[i - 1].get(), leafName(folders[i]), true); // ENOTEMPTY while not empty
    const std::string markerPath = core::fileTreeMarkerPath(root);
    if (!removeMadeAt(levels[0].get(), std::string(core::kFileTreeMarkerName), false)
        && errno != ENOENT && !firstFailure)
        firstFailure = makeOpError(errno, "remove file tree", markerPath);
    return firstFailure;
}

} // namespace

core::Status removeFileTree(const std::string &root, const core::FileTree &tree)
{
    // The folder is opened once, through its parent, without following a link; every
    // removal below happens in folders held open, one component at a time, so a link or
    // a rename put anywhere in the tree's paths cannot lead a removal elsewhere.
    auto opened = openTreeToRemove(root);
    if (!opened)
        return opened.error();
    RemovalWalk &walk = *opened;
    const int rootFd = walk.levels[0].get();
    const TreeMarker marker = readTreeMarkerAt(rootFd);
    if (auto refusal = treeRemovalRefusal(linuxPreparationFs(), root, tree, marker,
            marker.marked && markOfFd(rootFd) != Mark::None))
        return *refusal;

    // The levels that are ours, from the top: below a folder someone else put in a
    // level's place, nothing is ours.
    const auto folders = core::fileTreeFolders(root, tree);
    while (walk.levels.size() < folders.size()) {
        auto next = openOurFolder(walk.levels.back().get(), leafName(folders[walk.levels.size()]),
            folders[walk.levels.size()]);
        if (!next)
            break;
        walk.levels.push_back(std::move(*next));
    }
    const std::size_t ourLevels = walk.levels.size();
    const std::optional<OpError> firstFailure
        = removeTreeContents(root, tree, folders, walk.levels);
    // The top folder, by its name in the parent held above, only while it is still the
    // folder opened there.
    const int parentFd = walk.parent.get();
    struct stat held {
    };
    struct stat named {
    };
    if (::fstat(rootFd, &held) == 0
        && ::fstatat(parentFd, walk.rootName.c_str(), &named, AT_SYMLINK_NOFOLLOW) == 0
        && (held.st_dev != named.st_dev || held.st_ino != named.st_ino))
        return makeOpError(EPERM, "remove file tree", root,
            "the folder was renamed or replaced while its files were removed: what is at "
            "that name now is left untouched");
    if (::unlinkat(parentFd, walk.rootName.c_str(), AT_REMOVEDIR) == 0) {
        forgetCreated(held);
        return firstFailure ? core::Status(*firstFailure) : core::Status(core::Ok {});
    }
    if (const int err = errno; err != ENOTEMPTY && err != EEXIST && err != ENOENT)
        return makeOpError(
            err, "remove file tree", root, "the tree's files were removed but not its folder");
    if (firstFailure)
        return *firstFailure;
    if (errno == ENOENT)
        return core::Ok {};
    return leftoversError(linuxPreparationFs(), root, folders, ourLevels);
}

core::Result<core::TargetInfo> prepareHeldFileTree(PreparationRequest request)
{
    HeldTreePreparation steps(std::move(request));
    return prepareFileTree(linuxPreparationFs(), steps);
}

} // namespace ioprism::platform
