// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: a results file read THROUGH THE RUN LIBRARY, as `history` and `show`
// read one (issue 23, "Never outside the target").
//
// results_json_fuzzer feeds the parsers text; this one puts the input where a user's
// library file would be: it writes it as an entry of a library folder and lists the
// folder with core::RunLibrary and the one bounded reader (platform::readInputFile), then
// lists it again (the headline now from the folder's cache) and opens the entry by its id
// as `show` does. So the reader's path from a file on disk (open without blocking, the
// size check, the bounded read), the headline, the damage message, the headline cache's
// write and read, and the full reader all see every input. Properties:
//   - the one entry is listed, with its id; a damaged entry says why; a regular file of
//     the input's size is never "unreadable";
//   - the listing shows what readResultsHeadline says of the same text (damaged or not);
//   - the second listing takes the entry from the cache and shows the same headline or
//     the same damage (the cache's round trip loses nothing);
//   - `show`'s path (find by id prefix, the bounded read, readResultsJson) reads the same
//     bytes, and a refusal says why.
#include "core/library/headline_cache.h"
#include "core/library/run_library.h"
#include "core/profile/input_file.h"
#include "core/report/results_reader.h"
#include "platform/common/input_file_reader.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <system_error>

#include "tests/fuzz/fuzz_support.h"

using namespace ioprism;
namespace fs = std::filesystem;

namespace {

constexpr const char *kId = "20240501-123015-fuzz";

// The library folder: one per fuzzing process (libFuzzer's -jobs and -fork run several),
// removed at exit. Never the user's own library. Never destroyed: a static path would be
// destroyed before the exit handler registered while it was made runs, and the handler
// would remove nothing (a folder was left behind after every run).
const fs::path &libraryFolder()
{
    static const fs::path *const folder = [] {
        std::random_device random;
        auto *f = new fs::path(fs::temp_directory_path()
            / ("ioprism-library-fuzz-" + std::to_string(random()) + std::to_string(random())));
        fs::create_directories(*f);
        std::atexit([] {
            std::error_code ec;
            fs::remove_all(libraryFolder(), ec);
        });
        return f;
    }();
    return *folder;
}

// What a listing shows of the entry, as one text (the headline cache's own writing):
// compares a headline read from the file with one read from the cache, field by field.
std::string shown(const core::RunHeadline &run)
{
    core::HeadlineCache one;
    one.emplace(run.id, core::CachedHeadline {0, 0, run.damaged, run.damage, run.headline});
    return core::writeHeadlineCache(one);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text = fuzz::asText(data, size);
    const fs::path &folder = libraryFolder();
    std::error_code ec;
    // Each input is read from its file, not found in the cache of the one before.
    for (const auto &entry : fs::directory_iterator(folder, ec))
        fs::remove_all(entry.path(), ec);
    {
        std::ofstream out(
            folder / (std::string(kId) + ".json"), std::ios::binary | std::ios::trunc);
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        if (!out)
            fuzz::fail("cannot write the library entry", {});
    }

    // `history`: the library lists its folder through the bounded reader.
    core::ListingStats firstStats;
    const auto first = core::RunLibrary(folder, platform::readInputFile).list({}, &firstStats);
    if (first.size() != 1 || first[0].id != kId)
        fuzz::fail("the entry is not listed under its id", {}, text);
    const core::RunHeadline &run = first[0];
    if (firstStats.filesRead != 1 || !firstStats.folderProblem.empty())
        fuzz::fail("the entry was not read from its file", {}, text);
    if (run.unreadable)
        fuzz::fail("a regular file within the limit is called unreadable: " + run.damage, {}, text);
    if (run.damaged && run.damage.empty())
        fuzz::fail("a damaged entry does not say why", {}, text);
    if (run.fileBytes != size)
        fuzz::fail("the entry's size is not the file's", {}, text);
    const core::ResultsHeadlineRead direct = core::readResultsHeadline(text);
    if (run.damaged != !direct.headline
        || (run.damaged ? run.damage != direct.error : shown(run) != [&] {
               core::RunHeadline same = run;
               same.headline = *direct.headline;
               return shown(same);
           }()))
        fuzz::fail("the library shows other than the headline reader", {}, text);

    // Listed again: from the headline cache the first listing wrote.
    if (firstStats.cacheWritten) {
        core::ListingStats againStats;
        const auto again = core::RunLibrary(folder, platform::readInputFile).list({}, &againStats);
        if (again.size() != 1 || againStats.fromCache != 1)
            fuzz::fail("the second listing did not use the cache", {}, text);
        if (shown(again[0]) != shown(run))
            fuzz::fail("the cache shows the entry otherwise:\n" + shown(again[0]) + "\nread:\n"
                    + shown(run),
                {}, text);
    }

    // `show 20240501`: found by an id prefix, read whole through the bounded reader.
    const auto found = core::RunLibrary(folder, platform::readInputFile).find("20240501");
    if (!found)
        fuzz::fail("the entry is not found by its id: " + found.error().toString(), {}, text);
    const core::InputFileText file
        = platform::readInputFile(*found, core::kMaxResultsFileBytes, "results files");
    if (file.problem || file.text != text)
        fuzz::fail("show reads other bytes than were written", {}, text);
    const core::ResultsRead full = core::readResultsJson(file.text);
    if (!full.ok() && full.error.empty())
        fuzz::fail("show's reader refused without a message", {}, text);
    return 0;
}
