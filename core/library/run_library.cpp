// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/library/run_library.h"

#include "core/library/headline_cache.h"
#include "core/report/results_json.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

namespace ioprism::core {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kResultsExtension = ".json";
constexpr std::string_view kMetadataExtension = ".meta.json";
constexpr std::string_view kCacheFileName = ".headlines.json";
constexpr std::string_view kMetadataFormatName = "ioprism-run-metadata";
constexpr int kMetadataFormatVersion = 1;
// The short name in an id: enough to tell runs apart in a list, short enough for a path.
constexpr std::size_t kMaxShortNameChars = 24;

OpError fsError(const std::error_code &code, std::string operation, const fs::path &path,
    std::string detail = {})
{
    return {code, std::move(operation), path.string(), std::move(detail)};
}

bool endsWith(std::string_view text, std::string_view end)
{
    return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

// An id is a file name without its extension: letters, digits, '-', '_' and '.' only, so
// that it never names another folder ("../x") and reads the same on every system.
bool validId(std::string_view id)
{
    if (id.empty() || id.front() == '.' || id.size() > 200)
        return false;
    return std::all_of(id.begin(), id.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    });
}

// "4K random read" -> "4k-random-read": ASCII letters and digits, the rest one '-'.
std::string shortName(std::string_view text)
{
    std::string out;
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) && u < 0x80)
            out += static_cast<char>(std::tolower(u));
        else if (!out.empty() && out.back() != '-')
            out += '-';
        if (out.size() >= kMaxShortNameChars)
            break;
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out.empty() ? std::string("run") : out;
}

std::string randomSuffix()
{
    std::random_device device;
    return fmt::format("{:08x}", device());
}

// The temporary file beside `path`, hidden from list() by its leading dot.
fs::path temporaryBeside(const fs::path &path)
{
    return path.parent_path() / fmt::format(".{}.tmp-{}", path.filename().string(), randomSuffix());
}

// The streams do not report why they failed; the C library's errno usually does.
std::error_code lastError()
{
    return errno != 0 ? std::error_code(errno, std::generic_category())
                      : std::make_error_code(std::errc::io_error);
}

Status writeTemporary(const fs::path &temp, std::string_view text)
{
    errno = 0;
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out)
        return fsError(lastError(), "create", temp);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
        const std::error_code why = lastError();
        std::error_code ignored;
        fs::remove(temp, ignored);
        return fsError(why, "write", temp);
    }
    return Ok {};
}

} // namespace

Status writeFileAtomically(const fs::path &path, std::string_view text)
{
    const fs::path temp = temporaryBeside(path);
    if (auto written = writeTemporary(temp, text); !written)
        return written;
    std::error_code ec;
    fs::rename(temp, path, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(temp, ignored);
        return fsError(ec, "rename", temp, "to " + path.string());
    }
    return Ok {};
}

// ---------------------------------------------------------------- metadata sidecar

std::string writeRunMetadata(const RunMetadata &metadata)
{
    nlohmann::ordered_json j;
    j["format"] = kMetadataFormatName;
    j["version"] = kMetadataFormatVersion;
    j["name"] = metadata.name;
    j["notes"] = metadata.notes;
    j["tags"] = metadata.tags;
    return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::optional<RunMetadata> readRunMetadata(std::string_view text, std::string &error)
{
    const auto j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        error = "not a JSON object";
        return std::nullopt;
    }
    const auto format = j.find("format");
    if (format == j.end() || *format != kMetadataFormatName) {
        error = fmt::format("\"format\" is not \"{}\"", kMetadataFormatName);
        return std::nullopt;
    }
    const auto version = j.find("version");
    if (version == j.end() || !version->is_number_integer()
        || version->get<std::int64_t>() > kMetadataFormatVersion) {
        error = fmt::format(
            "\"version\" is not {} (a newer IOPrism wrote it?)", kMetadataFormatVersion);
        return std::nullopt;
    }
    RunMetadata m;
    for (const char *key : {"name", "notes"}) {
        const auto it = j.find(key);
        if (it == j.end())
            continue;
        if (!it->is_string()) {
            error = fmt::format("{}: expected a string", key);
            return std::nullopt;
        }
        (std::string_view(key) == "name" ? m.name : m.notes) = it->get<std::string>();
    }
    if (const auto tags = j.find("tags"); tags != j.end()) {
        if (!tags->is_array()) {
            error = "tags: expected an array of strings";
            return std::nullopt;
        }
        for (std::size_t i = 0; i < tags->size(); ++i) {
            if (!(*tags)[i].is_string()) {
                error = fmt::format("tags[{}]: expected a string", i);
                return std::nullopt;
            }
            m.tags.push_back((*tags)[i].get<std::string>());
        }
    }
    return m;
}

// ---------------------------------------------------------------- the library

RunLibrary::RunLibrary(fs::path directory, InputFileReader read)
    : m_directory(std::move(directory))
    , m_read(std::move(read))
{
    if (!m_read) // no reader given: every file is unreadable, never read another way
        m_read = [](const fs::path &, std::uint64_t, std::string_view) {
            return InputFileText {{}, Problem {Severity::Error, {}, "no file reader given"},
                InputFileFailure::Unreadable};
        };
}

fs::path RunLibrary::resultsPath(std::string_view id) const
{
    return m_directory / (std::string(id) + std::string(kResultsExtension));
}

fs::path RunLibrary::metadataPath(std::string_view id) const
{
    return m_directory / (std::string(id) + std::string(kMetadataExtension));
}

fs::path RunLibrary::cachePath() const
{
    return m_directory / std::string(kCacheFileName);
}

std::string RunLibrary::idFor(const RunResult &result)
{
    const UtcTime t = utcTime(result.startedAt);
    const Profile &p = result.plan.profile;
    std::string name = p.setup.description;
    if (name.empty() && !p.specs.empty())
        name = p.specs.front().name;
    return fmt::format("{:04}{:02}{:02}-{:02}{:02}{:02}-{}", t.year, t.month, t.day, t.hour,
        t.minute, t.second, shortName(name));
}

Result<std::string> RunLibrary::save(const RunResult &result, std::string_view text) const
{
    std::error_code ec;
    fs::create_directories(m_directory, ec);
    if (ec)
        return fsError(ec, "create folder", m_directory);
    const std::string base = idFor(result);
    const fs::path temp = temporaryBeside(resultsPath(base));
    if (auto written = writeTemporary(temp, text); !written)
        return written.error();
    // A hard link never replaces an existing file: two runs saved in the same second
    // with the same name both keep their file (the second gets "-2"). A file system
    // without hard links (FAT) falls back to a rename after checking the name is free.
    for (int n = 1; n < 1000; ++n) {
        const std::string id = n == 1 ? base : fmt::format("{}-{}", base, n);
        const fs::path target = resultsPath(id);
        std::error_code linkError;
        fs::create_hard_link(temp, target, linkError);
        if (!linkError) {
            fs::remove(temp, ec);
            return id;
        }
        if (fs::exists(target, ec))
            continue;
        fs::rename(temp, target, ec);
        if (ec) {
            std::error_code ignored;
            fs::remove(temp, ignored);
            return fsError(ec, "rename", temp, "to " + target.string());
        }
        return id;
    }
    fs::remove(temp, ec);
    return fsError(std::make_error_code(std::errc::file_exists), "save", resultsPath(base),
        "999 runs with this name in the same second");
}

namespace {

// Why a library file could not be read at all, in words that say what really happened
// (not "No such file or directory" for a link to nothing or a file deleted meanwhile).
std::string unreadableReason(const fs::path &path, const InputFileText &file)
{
    std::string said = file.problem ? file.problem->message : std::string("unreadable");
    switch (file.failure) {
    case InputFileFailure::Missing: {
        std::error_code ec;
        if (fs::is_symlink(fs::symlink_status(path, ec)))
            return fmt::format(
                "is a link to {}, which does not exist", fs::read_symlink(path, ec).string());
        return "vanished: it was deleted while the library was being listed";
    }
    case InputFileFailure::PermissionDenied:
        return "permission denied";
    default:
        return said;
    }
}

// The headline of a run's results file, or why it is damaged. False when the file could
// not be read at all (its damage is then no property of its content: not cached).
bool readHeadlineInto(RunHeadline &run, const InputFileReader &read)
{
    const InputFileText file = read(run.path, kMaxResultsFileBytes, "results files");
    if (file.problem) {
        run.damaged = true;
        run.unreadable = true;
        run.damage = unreadableReason(run.path, file);
        return false;
    }
    auto headline = readResultsHeadline(file.text);
    if (headline.headline) {
        run.headline = std::move(*headline.headline);
    } else {
        run.damaged = true;
        run.damage = std::move(headline.error);
    }
    return true;
}

// Why the folder could not be listed; "" when it could or does not exist yet.
std::string folderProblem(const std::error_code &ec)
{
    if (!ec || ec == std::errc::no_such_file_or_directory)
        return {};
    if (ec == std::errc::not_a_directory)
        return "is not a folder";
    return "cannot be read: " + ec.message();
}

} // namespace

std::vector<RunHeadline> RunLibrary::list(
    std::span<const RunHeadline> known, ListingStats *stats) const
{
    ListingStats counted;
    std::map<std::string_view, const RunHeadline *> knownById;
    for (const auto &k : known)
        if (!k.damaged)
            knownById.emplace(k.id, &k);
    HeadlineCache cache;
    if (const auto file = m_read(cachePath(), kMaxResultsFileBytes, "headline caches");
        !file.problem)
        cache = readHeadlineCache(file.text);
    HeadlineCache next; // what the cache holds after this listing: the files there are now
    bool changed = false;
    std::vector<RunHeadline> runs;
    std::error_code ec;
    fs::directory_iterator it(m_directory, ec), end;
    counted.folderProblem = folderProblem(ec);
    for (; !ec && it != end; it.increment(ec)) {
        const std::string file = it->path().filename().string();
        if (file.empty() || file.front() == '.' || !endsWith(file, kResultsExtension)
            || endsWith(file, kMetadataExtension))
            continue;
        RunHeadline run;
        run.id = file.substr(0, file.size() - kResultsExtension.size());
        run.path = it->path();
        std::error_code sizeError, timeError;
        run.fileBytes = fs::file_size(run.path, sizeError);
        const std::int64_t modified
            = fs::last_write_time(run.path, timeError).time_since_epoch().count();
        const bool keyed = !sizeError && !timeError; // a cache entry can be trusted or made
        const auto cached = cache.find(file);
        const bool inCache = keyed && cached != cache.end()
            && cached->second.fileBytes == run.fileBytes && cached->second.modified == modified;
        const auto same = knownById.find(run.id);
        if (inCache) {
            run.damaged = cached->second.damaged;
            run.damage = cached->second.damage;
            run.headline = cached->second.headline;
            next.emplace(file, cached->second);
            ++counted.fromCache;
        } else if (same != knownById.end() && !sizeError
            && same->second->fileBytes == run.fileBytes) {
            // Results files are never rewritten: the same size is the same file. Not put
            // in the cache, whose entries are of files read at their size and time.
            run.headline = same->second->headline;
            ++counted.fromKnown;
        } else {
            // A file that could not be read at all (permissions, an I/O error) says nothing
            // of its content: not cached, so that it is tried again.
            if (readHeadlineInto(run, m_read) && keyed) {
                next.emplace(file,
                    CachedHeadline {
                        run.fileBytes, modified, run.damaged, run.damage, run.headline});
                changed = true;
            }
            ++counted.filesRead;
        }
        if (auto m = metadata(run.id))
            run.metadata = std::move(*m);
        else
            run.metadataDamage = m.error().toString();
        runs.push_back(std::move(run));
    }
    // A run deleted (or a file changed, or gone) since: the cache forgets it.
    changed |= next.size() != cache.size();
    if (changed && !ec)
        counted.cacheWritten = writeFileAtomically(cachePath(), writeHeadlineCache(next)).ok();
    // Oldest first; a damaged file has no time and sorts by its id (which begins with it).
    std::sort(runs.begin(), runs.end(), [](const RunHeadline &a, const RunHeadline &b) {
        if (!a.damaged && !b.damaged && a.headline.startedAt != b.headline.startedAt)
            return a.headline.startedAt < b.headline.startedAt;
        return a.id < b.id;
    });
    if (stats)
        *stats = counted;
    return runs;
}

Result<fs::path> RunLibrary::find(std::string_view idOrPrefix) const
{
    if (!validId(idOrPrefix))
        return OpError {std::make_error_code(std::errc::invalid_argument), "find run", {},
            fmt::format("\"{}\" is not a run id (see `ioprism-cli history`)", idOrPrefix)};
    if (std::error_code ec; fs::is_regular_file(resultsPath(idOrPrefix), ec))
        return resultsPath(idOrPrefix);
    std::vector<std::string> matches;
    std::error_code ec;
    fs::directory_iterator it(m_directory, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const std::string file = it->path().filename().string();
        if (file.rfind(idOrPrefix, 0) == 0 && endsWith(file, kResultsExtension)
            && !endsWith(file, kMetadataExtension))
            matches.push_back(file.substr(0, file.size() - kResultsExtension.size()));
    }
    if (matches.size() == 1)
        return resultsPath(matches.front());
    std::sort(matches.begin(), matches.end());
    return OpError {std::make_error_code(std::errc::no_such_file_or_directory), "find run",
        m_directory.string(),
        matches.empty() ? fmt::format("no run \"{}\" in the library", idOrPrefix)
                        : fmt::format("\"{}\" matches {} runs: {}", idOrPrefix, matches.size(),
                            fmt::join(matches, ", "))};
}

Result<RunMetadata> RunLibrary::metadata(std::string_view id) const
{
    const fs::path path = metadataPath(id);
    if (std::error_code ec; !fs::exists(path, ec))
        return RunMetadata {};
    const auto file = m_read(path, kMaxProfileFileBytes, "run metadata files");
    if (file.problem)
        return fsError({}, "read metadata", path, file.problem->message);
    std::string error;
    auto m = readRunMetadata(file.text, error);
    if (!m)
        return fsError(
            std::make_error_code(std::errc::illegal_byte_sequence), "read metadata", path, error);
    return std::move(*m);
}

Status RunLibrary::setMetadata(std::string_view id, const RunMetadata &metadata) const
{
    if (!validId(id))
        return OpError {std::make_error_code(std::errc::invalid_argument), "set metadata", {},
            fmt::format("\"{}\" is not a run id", id)};
    if (std::error_code ec; !fs::is_regular_file(resultsPath(id), ec))
        return fsError(std::make_error_code(std::errc::no_such_file_or_directory), "set metadata",
            resultsPath(id), "no such run");
    return writeFileAtomically(metadataPath(id), writeRunMetadata(metadata));
}

Status RunLibrary::remove(std::string_view id) const
{
    if (!validId(id))
        return OpError {std::make_error_code(std::errc::invalid_argument), "delete run", {},
            fmt::format("\"{}\" is not a run id", id)};
    std::error_code ec;
    if (!fs::remove(resultsPath(id), ec)) {
        return fsError(ec ? ec : std::make_error_code(std::errc::no_such_file_or_directory),
            "delete", resultsPath(id));
    }
    fs::remove(metadataPath(id), ec);
    if (ec)
        return fsError(ec, "delete", metadataPath(id));
    return Ok {};
}

} // namespace ioprism::core
