// SPDX-License-Identifier: GPL-3.0-or-later
// The run library: every finished run's results JSON kept in one folder, listed,
// renamed, annotated and deleted (docs/results.md, "The run library"). No Qt and no OS
// calls: the folder is given by the caller (platform/common/data_dir.h finds the user's),
// so the CLI, the GUI and the tests share this code.
//
// On disk, in the folder:
//   <id>.json       the results JSON exactly as writeResultsJson wrote it: the document
//                   other tools read, never rewritten by the library;
//   <id>.meta.json  the user's name, notes and tags for it (optional), a small sidecar,
//                   so that editing a note never rewrites a results file of many MB and a
//                   results file copied out of the library stays the document it was.
//   .headlines.json what a listing shows of each results file, by name, size and time
//                   (core/library/headline_cache.h): a listing reads a results file of
//                   many MB only when it is new or changed.
// <id> is the run's start time in UTC and a short name: "20240501-123015-quick".
//
// Failure behaviour: no function throws. A file that cannot be read is listed as damaged
// (unreadable when it could not be read at all: a FIFO, a device, a link to nothing, too
// large, no permission), with why, and the others are listed as usual. Every file is read
// through the bounded reader given (platform::readInputFile), so no entry can hang a
// listing or exhaust memory; a save writes a temporary file and links
// or renames it to its final name, so no crash leaves a half-written <id>.json.
#pragma once

#include "core/profile/input_file.h"
#include "core/report/results_reader.h"
#include "core/result.h"
#include "core/run/results.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ioprism::core {

struct RunMetadata {
    std::string name; // the user's name for the run; "" = none given
    std::string notes;
    std::vector<std::string> tags;
    friend bool operator==(const RunMetadata &, const RunMetadata &) = default;
};

// What `history` shows of one run: the headline of its results file and its sidecar.
struct RunHeadline {
    std::string id;
    std::filesystem::path path;
    bool damaged = false;
    // Damaged because the file could not be read at all (not for its content): a FIFO, a
    // device, a folder, a dangling link, too large, no permission, gone meanwhile.
    bool unreadable = false;
    std::string damage; // why it could not be read (damaged only)
    std::uint64_t fileBytes = 0;
    ResultsHeadline headline; // valid unless damaged
    RunMetadata metadata;
    std::string metadataDamage; // the sidecar could not be read: why (it is ignored)
};

// What a listing took from where (for tests and for the curious: `history` reads a
// results file in full only when it is new or changed).
struct ListingStats {
    std::size_t filesRead = 0; // results files read (new, changed, or no cache)
    std::size_t fromCache = 0; // headlines from the cache file
    std::size_t fromKnown = 0; // headlines from the earlier listing given
    bool cacheWritten = false; // the cache file was (re)written
    // Why the library folder itself could not be listed ("is not a folder", "cannot be
    // read: Permission denied"); "" when it was, or when it does not exist yet (no runs).
    std::string folderProblem;
};

class RunLibrary
{
public:
    // `read` reads every file of the folder (platform::readInputFile).
    RunLibrary(std::filesystem::path directory, InputFileReader read);

    const std::filesystem::path &directory() const { return m_directory; }

    // Saves a run's results text (writeResultsJson of `result`) under a new id made from
    // its start time and profile, creating the folder if needed. Returns the id.
    Result<std::string> save(const RunResult &result, std::string_view resultsText) const;

    // Every run in the folder, oldest first (by start time, then id); damaged ones too.
    // A results file is read only when neither the folder's headline cache (the same file
    // at the same size and modification time) nor `known` (an earlier listing, reused for
    // the same file at the same size: a results file is never rewritten) has it, so
    // that listing again after one more run reads that run only, not every hour-long file
    // of the folder (55 ms each). The cache is updated when a listing read something or a
    // run went; a cache that cannot be read or written is ignored. The sidecars are
    // always read again. `stats`, when given, says what was read.
    std::vector<RunHeadline> list(
        std::span<const RunHeadline> known = {}, ListingStats *stats = nullptr) const;

    // The results file of `id`, or of the one run whose id starts with it; an error
    // saying which ids match when it is ambiguous or none does.
    Result<std::filesystem::path> find(std::string_view idOrPrefix) const;

    // The sidecar's metadata ({} when there is none); an error when it is damaged.
    Result<RunMetadata> metadata(std::string_view id) const;
    // Replaces the metadata of run `id` (atomically, like a save).
    Status setMetadata(std::string_view id, const RunMetadata &metadata) const;
    // Deletes the run's results file and its sidecar.
    Status remove(std::string_view id) const;

    // "20240501-123015-quick" for a run started then with that profile (no uniqueness).
    static std::string idFor(const RunResult &result);

private:
    std::filesystem::path resultsPath(std::string_view id) const;
    std::filesystem::path metadataPath(std::string_view id) const;
    std::filesystem::path cachePath() const;

    std::filesystem::path m_directory;
    InputFileReader m_read;
};

// The sidecar text and its reading (exposed for tests and the GUI's editor).
std::string writeRunMetadata(const RunMetadata &metadata);
std::optional<RunMetadata> readRunMetadata(std::string_view text, std::string &error);

// Writes `text` to `path` through a temporary file in the same folder and a rename
// (replacing `path`), so that readers see the old file or the new one, never a part.
Status writeFileAtomically(const std::filesystem::path &path, std::string_view text);

} // namespace ioprism::core
