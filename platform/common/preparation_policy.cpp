// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/common/preparation_policy.h"

#include "core/profile/units.h"
#include "core/workload/file_tree.h"

#include <algorithm>
#include <utility>

namespace ioprism::platform {

int RefusalCodes::of(Refusal why) const
{
    switch (why) {
    case Refusal::NotOurs:
        return notOurs;
    case Refusal::NotAFolder:
        return notAFolder;
    case Refusal::LeftUntouched:
        return leftUntouched;
    case Refusal::LeftOthers:
        return leftOthers;
    case Refusal::EmptyFile:
        return emptyFile;
    case Refusal::NoFolder:
        return noFolder;
    case Refusal::Invalid:
        break;
    }
    return invalid;
}

core::OpError PreparationFs::refusal(
    Refusal why, std::string operation, std::string path, std::string detail) const
{
    return osError(words().codes.of(why), std::move(operation), std::move(path), std::move(detail));
}

core::OpError notOurs(const PreparationFs &fs, const std::string &path, const std::string &what)
{
    return fs.refusal(Refusal::NotOurs, "prepare file tree", path,
        what
            + " where the tree's layout has one of IOPrism's, so IOPrism does not write "
              "through it: remove it or choose a path that does not exist yet");
}

namespace {

// A new tree: everything is made, and every file written whole.
TreePlan planNewTree(TreePlan plan, const core::FileTree &tree)
{
    for (std::size_t i = 0; i < plan.folders.size(); ++i)
        plan.missingFolders.push_back(i);
    for (std::size_t i = 0; i < plan.files.size(); ++i)
        plan.work.push_back({.index = i});
    plan.writeBytes = tree.totalBytes();
    return plan;
}

// Refuses an existing top folder that is not a tree of IOPrism's of this shape.
std::optional<core::OpError> existingTreeRefusal(
    const PreparationFs &fs, const std::string &root, const core::FileTree &tree)
{
    const TreeMarker marker = fs.readTreeMarker(root);
    const std::string chooseAnother
        = ", so IOPrism never writes into it: choose a path that does not exist yet (IOPrism "
          "creates the folder)";
    const auto refused = [&](std::string why) {
        return fs.refusal(Refusal::NotOurs, "prepare file tree", root, std::move(why));
    };
    if (marker.state == TreeMarker::State::Missing)
        return refused("this folder exists and was not made by IOPrism (it has no "
            + std::string(core::kFileTreeMarkerName) + " marker)" + chooseAnother);
    if (marker.state == TreeMarker::State::Damaged)
        return refused(damagedMarkerWhy() + chooseAnother + ", or delete the folder");
    if (!fs.treeIsOurs(root))
        return refused(unmarkedTreeWhy(fs.words().markName, fs.words().markless) + chooseAnother);
    if (!core::sameFileTreeShape(marker.tree, tree))
        return refused("this folder holds an IOPrism file tree of another shape ("
            + describeFileTree(marker.tree) + ") than asked for (" + describeFileTree(tree)
            + "); IOPrism does not replace a tree on its own: remove it (remove test files "
              "after a run with its shape, or delete the folder) or choose another path");
    return std::nullopt;
}

// The level folders of our existing tree: missing ones are made again; anything else in a
// level's place (a link, a file, a folder without our mark) is refused.
core::Status planLevelFolders(const PreparationFs &fs, TreePlan &plan)
{
    for (std::size_t i = 1; i < plan.folders.size(); ++i) {
        const auto e = fs.lookUp(plan.folders[i]);
        if (!e)
            return e.error();
        if (!e->exists)
            plan.missingFolders.push_back(i);
        else if (!e->isPlainFolder())
            return notOurs(fs, plan.folders[i], fs.words().notPlainFolder);
        else if (fs.markOf(plan.folders[i]) == Mark::None)
            return notOurs(fs, plan.folders[i], "this folder lacks IOPrism's mark");
    }
    return core::Ok {};
}

// The files of our existing tree: missing, short or half-filled ones are (re)filled; one
// that is not a plain file of one name carrying our mark is refused.
core::Status planTreeFiles(const PreparationFs &fs, TreePlan &plan, const core::FileTree &tree)
{
    for (std::size_t i = 0; i < plan.files.size(); ++i) {
        const std::string &path = plan.files[i];
        const auto e = fs.lookUp(path);
        if (!e)
            return e.error();
        if (!e->exists) {
            plan.work.push_back({.index = i});
            plan.writeBytes += tree.fileSizeBytes;
            continue;
        }
        if (!e->regular)
            return notOurs(fs, path, fs.words().notPlainFile);
        if (e->links > 1)
            return notOurs(fs, path,
                "this file has " + std::to_string(e->links)
                    + " names (hard links), so writing it would change a file elsewhere");
        Mark mark = fs.markOf(path);
        // An empty, unmarked file of one name is one a killed preparation created and did
        // not mark yet: it holds no data and the tree around it is ours, so it is filled
        // again like a half-filled one. (Only where the look-up counts names: links 1.)
        if (mark == Mark::None && e->links == 1 && e->sizeBytes == 0)
            mark = Mark::Filling;
        if (mark == Mark::None)
            return notOurs(fs, path,
                fs.carriesForeignMark(path)
                    ? "this file carries a mark IOPrism did not set on it (a copy of a test file, "
                      "or a file an earlier IOPrism marked without binding the mark to it)"
                    : fs.words().fileLacksMark);
        if (mark == Mark::Filling || e->sizeBytes < tree.fileSizeBytes) {
            const TreeFileWork w {.index = i,
                .exists = true,
                .halfFilled = mark == Mark::Filling,
                .currentBytes = e->sizeBytes};
            plan.work.push_back(w);
            const FillRange range = w.range(tree.fileSizeBytes);
            plan.writeBytes += range.toBytes - range.fromBytes;
        } else if (!plan.completeFile) {
            plan.completeFile = i;
        }
    }
    return core::Ok {};
}

} // namespace

core::Result<TreePlan> planFileTree(
    const PreparationFs &fs, const std::string &root, const core::FileTree &tree)
{
    TreePlan plan;
    plan.folders = core::fileTreeFolders(root, tree);
    plan.files = core::fileTreeFiles(root, tree);
    const auto top = fs.lookUpTreeRoot(root);
    if (!top)
        return top.error();
    plan.rootExists = top->exists;
    if (plan.rootExists && !top->directory)
        return fs.refusal(Refusal::NotAFolder, "prepare file tree", root,
            "this is not a folder: a file tree's path names the folder IOPrism creates for it; "
            "choose a path that does not exist yet");
    if (!plan.rootExists)
        return planNewTree(std::move(plan), tree);
    if (auto refusal = existingTreeRefusal(fs, root, tree))
        return *refusal;
    if (auto st = planLevelFolders(fs, plan); !st)
        return st.error();
    if (auto st = planTreeFiles(fs, plan, tree); !st)
        return st.error();
    return plan;
}

bool TreeUndo::rollback()
{
    if (m_committed)
        return false;
    m_committed = true;
    // A complete file stays complete up to its former size; a half-filled one stays
    // "filling".
    for (const auto &[index, bytes] : m_extended)
        m_steps.restoreFile(index, bytes, !m_halfFilled.contains(index));
    for (auto it = m_files.rbegin(); it != m_files.rend(); ++it)
        m_steps.removeFile(*it);
    for (auto it = m_folders.rbegin(); it != m_folders.rend(); ++it)
        m_steps.removeFolder(*it);
    if (m_marker)
        m_steps.removeMarker();
    if (m_rootMade)
        m_steps.removeRoot();
    return madeAnything();
}

core::PrepareProgress treeProgress(const core::PrepareProgress &progress,
    const std::uint64_t *doneBefore, std::uint64_t totalBytes)
{
    if (!progress)
        return {};
    return [&progress, doneBefore, totalBytes](std::uint64_t done, std::uint64_t) {
        return progress(*doneBefore + done, totalBytes);
    };
}

std::optional<core::OpError> treeRemovalRefusal(const PreparationFs &fs, const std::string &root,
    const core::FileTree &tree, const TreeMarker &marker, bool ours)
{
    const auto refused = [&](std::string why) {
        return fs.refusal(Refusal::LeftUntouched, "remove file tree", root, std::move(why));
    };
    if (marker.state == TreeMarker::State::Missing)
        return refused("the folder has no " + std::string(core::kFileTreeMarkerName)
            + " marker, so it is not a file tree made by IOPrism: left untouched");
    if (marker.state == TreeMarker::State::Damaged)
        return refused(damagedMarkerWhy() + ": left untouched");
    if (!ours)
        return refused(
            unmarkedTreeWhy(fs.words().markName, fs.words().markless) + ": left untouched");
    if (!core::sameFileTreeShape(marker.tree, tree))
        return refused("the folder holds an IOPrism file tree of another shape ("
            + describeFileTree(marker.tree) + ") than this one (" + describeFileTree(tree)
            + "): left untouched");
    return std::nullopt;
}

core::OpError leftoversError(const PreparationFs &fs, const std::string &root,
    const std::vector<std::string> &folders, std::size_t ourLevels)
{
    // What is left is not IOPrism's: name it. Our level folders still there only hold
    // such things; list what is in them, not the folders themselves.
    std::vector<std::string> left;
    std::size_t leftCount = 0;
    for (std::size_t i = 0; i < ourLevels; ++i) {
        std::error_code ec;
        const std::filesystem::path next = i + 1 < ourLevels
            ? fs.nativePath(folders[i + 1]).filename()
            : std::filesystem::path();
        for (std::filesystem::directory_iterator it(fs.nativePath(folders[i]), ec), end;
             !ec && it != end; it.increment(ec)) {
            if (!next.empty() && it->path().filename() == next)
                continue;
            if (left.size() < 5)
                left.push_back(fs.utf8Path(it->path()));
            ++leftCount;
        }
    }
    std::string names;
    for (const auto &l : left)
        names += (names.empty() ? "" : ", ") + l;
    if (leftCount > left.size())
        names += " and " + std::to_string(leftCount - left.size()) + " more";
    return fs.refusal(Refusal::LeftOthers, "remove file tree", root,
        "removed what carries IOPrism's mark; left " + std::to_string(leftCount)
            + (leftCount == 1 ? " item" : " items")
            + " IOPrism did not make (without its mark, or a file with other hard links), and "
              "the folders holding "
            + (leftCount == 1 ? "it" : "them") + ": " + names);
}

namespace {

// Someone else's existing test file (`entry`, not marked ours): why it is not used, or
// nullopt when it may be read. It is never written or extended.
std::optional<core::OpError> foreignTestFileRefusal(
    const PreparationFs &fs, const std::string &path, const PathEntry &entry, bool needWrite)
{
    // Someone else's file: read it if asked, never write or extend it.
    const auto refused = [&](Refusal why, std::string text) {
        return fs.refusal(why, "prepare test file", path, std::move(text));
    };
    if (needWrite)
        if (const std::string names = fs.otherNames(path, entry); !names.empty())
            return refused(Refusal::NotOurs,
                names
                    + " (hard links), so writing it would change the file under its other names "
                      "too: it is never written; choose a new path (IOPrism creates it) or a "
                      "read-only spec");
    if (needWrite && fs.carriesForeignMark(path))
        return refused(Refusal::NotOurs,
            "this file carries IOPrism's mark, but the mark was not set on this file: it is a "
            "copy of a test file ("
                + fs.words().copyKeepsMark
                + ") or was marked by an earlier IOPrism that did not bind its marks to the "
                  "file, so IOPrism cannot tell it from your data and never writes it: delete it "
                  "and let IOPrism create it again, or use a read-only spec");
    if (needWrite)
        return refused(Refusal::NotOurs,
            "this file was not created by IOPrism, so it is never written: choose a new path "
            "(IOPrism creates it) or a read-only spec");
    if (entry.sizeBytes == 0)
        return refused(Refusal::EmptyFile, "the file is empty: nothing to read");
    return std::nullopt;
}

// Whether the test file at `path` is filled now (created, extended or filled again), given
// whether it exists, is `current` bytes, carries `mark` and can be written (`writeError`,
// the OS's code, 0 when it can). An error when a half-filled file cannot be filled again;
// a notice in `*notice` when our smaller file cannot grow and is read as it is.
core::Result<bool> testFileNeedsFill(const PreparationFs &fs, const std::string &path, bool exists,
    std::uint64_t current, Mark mark, std::uint64_t wanted, int writeError, std::string *notice)
{
    const bool ours = mark != Mark::None;
    // Ours, but the run that filled it never finished (killed mid-fill): filled again.
    const bool halfFilled = mark == Mark::Filling;
    const bool needFill = !exists || (ours && (wanted > current || halfFilled));
    if (needFill && halfFilled && writeError != 0)
        return fs.osError(writeError, "prepare test file", path,
            "a run that was creating this file was stopped before it had written it, so its "
            "reads would not reach the "
                + fs.words().storage
                + ", and it cannot be filled again here: make it writable or delete it");
    if (needFill && exists && writeError != 0) {
        // A read-only spec on our own, smaller file that cannot grow: read what is there.
        *notice = path + " is " + core::describeSize(current) + ", smaller than the "
            + core::describeSize(wanted) + " asked for, and cannot be extended ("
            + fs.errorText(writeError) + "): reading the existing " + core::describeSize(current);
        return false;
    }
    return needFill;
}

// Adds to a failure of a tree's preparation that what it made was removed again (undone
// by `undo` now, or when it goes out of scope where `undoNow` is false).
core::OpError undoneTreeFailure(TreeUndo &undo, core::OpError error, bool undoNow)
{
    if (undoNow ? undo.rollback() : undo.madeAnything())
        error.detail += (error.detail.empty() ? "" : "; ")
            + std::string("removed what this run had made of the tree");
    return error;
}

// Creates, extends or fills again the test file, marked "filling" until its fill is
// durable. `*notice` says when a new file's mark will not outlive this process.
core::Status fillTestFile(
    TestFilePreparation &steps, const TestFilePreparation::Fill &fill, std::string *notice)
{
    // Extend from a chunk boundary so the direct writes stay aligned.
    const FillRange range
        = fillRange(fill.exists, fill.halfFilled, fill.currentBytes, fill.wantedBytes);
    auto spaceDetail = steps.spaceDetail(fill.path, range.newBytes);
    if (!spaceDetail)
        return spaceDetail.error();
    if (auto opened = steps.open(fill); !opened)
        return opened;
    if (!fill.exists) {
        // Mark it before filling, so even a crash mid-fill leaves a file we know, and
        // as "filling", so that such a file is filled again, never measured.
        const auto why = steps.markNew(fill.path);
        if (!why)
            return why.error();
        if (!why->empty())
            *notice = "could not mark " + fill.path + " as an IOPrism test file (" + *why
                + "): later runs will only read it, never write it; delete it yourself when "
                  "done";
    } else if (auto marked = steps.mark(fill.path, Mark::Filling); !marked) {
        return marked;
    }
    auto written = steps.write(fill.path, range, *spaceDetail);
    if (written) // durable: now it counts
        written = steps.mark(fill.path, Mark::Complete);
    if (!written) {
        steps.undo(fill);
        return written;
    }
    return steps.filled(fill.path);
}

} // namespace

core::Result<core::TargetInfo> prepareTestFile(const PreparationFs &fs, TestFilePreparation &steps)
{
    const PreparationRequest &request = steps.request();
    std::string path = request.target.path;
    const std::uint64_t wantedBytes = request.target.testFileSizeBytes;
    const bool needWrite = request.options.needWrite;
    const auto &notice = request.notice;
    const auto entry = steps.lookUp(&path);
    if (!entry)
        return entry.error();
    const bool exists = entry->exists;
    const std::uint64_t current = exists ? entry->sizeBytes : 0;
    const Mark mark = exists ? steps.markOf(path) : Mark::None;
    if (exists && mark == Mark::None)
        if (auto refusal = foreignTestFileRefusal(fs, path, *entry, needWrite))
            return *refusal;
    if (!exists && wantedBytes == 0)
        return fs.refusal(Refusal::Invalid, "prepare test file", path,
            "the test file does not exist and its size is 0");
    const std::string parent = fs.parentFolder(path);
    if (!exists && !fs.isFolder(parent))
        return fs.refusal(Refusal::NoFolder, "create test file", path,
            "the directory " + parent + " does not exist");

    const int writeError = steps.writeError(path, exists, parent);
    if (needWrite && writeError != 0)
        return steps.readOnlyRefusal(path, writeError);
    if (!exists && writeError != 0)
        if (auto refusal = steps.createRefusal(path, parent, writeError))
            return *refusal;
    std::string text;
    const auto needFill
        = testFileNeedsFill(fs, path, exists, current, mark, wantedBytes, writeError, &text);
    if (!text.empty())
        notice(std::exchange(text, {}));
    if (!needFill)
        return needFill.error();
    if (*needFill) {
        const auto filled = fillTestFile(steps,
            {.path = path,
                .exists = exists,
                .halfFilled = mark == Mark::Filling,
                .currentBytes = current,
                .wantedBytes = wantedBytes},
            &text);
        if (!text.empty())
            notice(std::move(text));
        if (!filled)
            return filled.error();
    }
    return steps.hold(path, *needFill);
}

core::Result<core::TargetInfo> prepareFileTree(const PreparationFs &fs, TreePreparation &steps)
{
    const std::string &root = steps.request().target.path;
    const core::FileTree &tree = steps.request().target.tree;
    if (tree.fileCount() == 0 || tree.fileSizeBytes == 0)
        return fs.refusal(Refusal::Invalid, "prepare file tree", root,
            "the tree has no files: depth, files per level and file size must not be 0");
    const auto planned = planFileTree(fs, root, tree);
    if (!planned)
        return planned.error();
    const TreePlan &plan = *planned;
    if (auto refusal = steps.writeRefusal(plan))
        return *refusal;
    auto spaceDetail = steps.spaceDetail(plan);
    if (!spaceDetail)
        return spaceDetail.error();

    TreeUndo undo(steps.start(plan, std::move(*spaceDetail)));
    // A failure or a cancel removes what this call made, and says so.
    const bool atOnce = steps.undoesAtOnce();
    const auto failed = [&undo, atOnce](core::OpError error) {
        return undoneTreeFailure(undo, std::move(error), atOnce);
    };
    if (auto st = steps.makeFolders(undo); !st)
        return failed(st.error());
    if (auto st = steps.fillFiles(undo); !st)
        return failed(st.error());
    if (auto st = steps.verify(); !st)
        return failed(st.error());
    const bool made = undo.madeAnything();
    undo.commit();
    return steps.hold(made);
}

std::uint64_t testFileNeedBytes(const PathEntry &entry, Mark mark, std::uint64_t wanted)
{
    // A new file is written whole; our own, smaller file is extended from a chunk boundary;
    // any other existing file is never written.
    if (!entry.exists)
        return wanted;
    if (mark == Mark::None || !entry.regular)
        return 0;
    return fillRange(
        true, mark == Mark::Filling, entry.sizeBytes, std::max(wanted, entry.sizeBytes))
        .newBytes;
}

} // namespace ioprism::platform
