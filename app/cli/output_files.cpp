// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/output_files.h"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <system_error>

namespace ioprism::cli {

namespace fs = std::filesystem;

namespace {

// The reason the last file operation failed. The streams set errno on the platforms we
// build for (they open and write through the C library), but the standard does not
// promise it, hence the generic text.
std::string lastReason()
{
    const int error = errno;
    return error ? std::generic_category().message(error) : std::string("write failed");
}

// Writes the whole text; on failure removes what was partly written and returns why.
std::optional<std::string> writeWhole(const fs::path &path, const std::string &text)
{
    errno = 0;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        return lastReason();
    out << text;
    out.close();
    if (out)
        return std::nullopt;
    const std::string reason = lastReason();
    std::error_code ec;
    fs::remove(path, ec);
    return reason;
}

// A name for the same file whichever way it is spelled, for the "named twice" check.
fs::path identity(const std::string &path)
{
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
    return ec ? fs::path(path).lexically_normal() : p;
}

} // namespace

std::vector<OutputFile> requestedOutputs(const std::string &csvPath,
    const std::string &timeseriesPath, const std::string &jsonPath,
    const std::string &seriesCsvPath)
{
    std::vector<OutputFile> outputs;
    for (const auto &[option, path] :
        {std::pair {"--csv", &csvPath}, std::pair {"--timeseries", &timeseriesPath},
            std::pair {"--json", &jsonPath}, std::pair {"--series-csv", &seriesCsvPath}})
        if (!path->empty())
            outputs.push_back({option, *path});
    return outputs;
}

bool anyToStdout(const std::vector<OutputFile> &files)
{
    return std::any_of(
        files.begin(), files.end(), [](const OutputFile &f) { return f.isStdout(); });
}

std::vector<std::string> checkOutputFiles(const std::vector<OutputFile> &files)
{
    std::vector<std::string> messages;
    for (std::size_t i = 0; i < files.size(); ++i) {
        const auto &f = files[i];
        if (f.isStdout()) {
            // Two documents interleaved on one stream could be parsed as neither.
            for (std::size_t j = 0; j < i; ++j)
                if (files[j].isStdout()) {
                    messages.push_back(fmt::format("{}: - (stdout) is also the {} output: only "
                                                   "one output can go to stdout; give the "
                                                   "other a file",
                        f.option, files[j].option));
                    break;
                }
            continue;
        }
        for (std::size_t j = 0; j < i; ++j)
            if (identity(files[j].path) == identity(f.path)) {
                messages.push_back(
                    fmt::format("{}: {} is also the {} file: each output needs its own file",
                        f.option, f.path, files[j].option));
                break;
            }
        std::error_code ec;
        const bool existed = fs::exists(f.path, ec);
        errno = 0;
        std::ofstream probe(f.path, std::ios::binary | std::ios::app);
        if (!probe) {
            messages.push_back(
                fmt::format("{}: cannot write {}: {}", f.option, f.path, lastReason()));
            continue;
        }
        probe.close();
        if (!existed)
            fs::remove(f.path, ec);
    }
    return messages;
}

std::string fallbackStem(std::chrono::system_clock::time_point startedAt)
{
    using namespace std::chrono;
    if (startedAt.time_since_epoch().count() == 0)
        startedAt = system_clock::now();
    const auto day = floor<days>(startedAt);
    const year_month_day date(day);
    const hh_mm_ss time(floor<seconds>(startedAt - day));
    return fmt::format("ioprism-results-{:04}{:02}{:02}-{:02}{:02}{:02}", int(date.year()),
        unsigned(date.month()), unsigned(date.day()), time.hours().count(), time.minutes().count(),
        time.seconds().count());
}

std::optional<std::string> saveFallbackFile(const std::string &fileName, const std::string &text)
{
    std::vector<fs::path> dirs;
    std::error_code ec;
    if (auto cwd = fs::current_path(ec); !ec)
        dirs.push_back(cwd);
    if (auto tmp = fs::temp_directory_path(ec); !ec)
        dirs.push_back(tmp);
    const fs::path name(fileName);
    for (const auto &dir : dirs) {
        for (int n = 1; n < 100; ++n) {
            fs::path candidate = dir / name;
            if (n > 1)
                candidate = dir
                    / (name.stem().string() + "-" + std::to_string(n) + name.extension().string());
            if (fs::exists(candidate, ec) || ec)
                continue;
            if (!writeWhole(candidate, text))
                return candidate.string();
            break; // this directory cannot take it: try the next one
        }
    }
    return std::nullopt;
}

void reportAndSaveElsewhere(const OutputFile &output, const std::string &reason,
    const std::string &text, const std::string &fallbackName)
{
    std::cerr << fmt::format(
        "error: {}: cannot write {}: {}\n", output.option, output.displayName(), reason);
    if (fallbackName.empty())
        return;
    if (auto saved = saveFallbackFile(fallbackName, text))
        std::cerr << fmt::format(
            "       the {} results were saved to {} instead\n", output.option.substr(2), *saved);
    else
        std::cerr << "       and could not be saved in the working directory or the temp "
                     "directory either: these results are lost\n";
}

bool writeOutputFile(
    const OutputFile &output, const std::string &text, const std::string &fallbackName)
{
    if (output.isStdout()) {
        errno = 0;
        std::cout << text;
        std::cout.flush();
        if (std::cout)
            return true;
        reportAndSaveElsewhere(output, lastReason(), text, fallbackName);
        return false;
    }
    if (auto reason = writeWhole(output.path, text)) {
        reportAndSaveElsewhere(output, *reason, text, fallbackName);
        return false;
    }
    return true;
}

} // namespace ioprism::cli
