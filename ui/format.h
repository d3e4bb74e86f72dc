// SPDX-License-Identifier: GPL-3.0-or-later
// Text for figures on screen: every number with its unit, in the user's locale.
//
// One place for the spelling of sizes, rates, latencies and durations, so the tables,
// plots, tooltips and status bar agree. Decimal MB (10^6 bytes) for throughput, as in
// the reports; binary units (KiB, MiB) for transfer sizes, as storage tools write them.
//
// Capacities (disks, free space, test-file progress) go through
// QLocale::formattedDataSize, so they follow the user's language and number format.
// Transfer sizes (exactSizeText) and rates keep IOPrism's own spelling on purpose: a
// transfer size is exact and reads as the profile writes it ("4 KiB", never "4.0 KiB"),
// and MB/s is the unit of the reports and CSV columns, whatever the language.
#pragma once

#include "core/profile/problem.h"
#include "core/profile/profile.h"
#include "core/run/results.h"

#include <QFileInfo>
#include <QString>
#include <QVariant>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ioprism::ui {

inline QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}
inline std::string toStdString(const QString &text)
{
    return text.toUtf8().toStdString();
}
// A path from a file dialog or the command line as the OS writes it, for the bounded
// readers: their messages then name it as the user knows it (`C:\x`, not `C:/x`).
inline std::filesystem::path toFilesystemPath(const QString &path)
{
    return QFileInfo(path).filesystemFilePath().make_preferred();
}

// Exact size with a binary unit and a space: "4 KiB", "1 MiB", "2000 B"; "0 B".
QString exactSizeText(std::uint64_t bytes);
// Rounded size for capacities, in the user's locale: "476.9 GiB", "512 MiB", "12 KiB".
QString capacityText(std::uint64_t bytes);
// "123.4 MB/s" (decimal megabytes).
QString megabytesPerSecondText(double megabytesPerSecond);
// "12,345" (grouped, no decimals above 100; one decimal below).
QString iopsText(double iops);
// Latency from microseconds with an adaptive unit: "85.2 µs", "1.25 ms", "2.10 s".
QString latencyText(double microseconds);
// An Iometer latency bin's range as the rest of the window writes latencies: "0-50 µs",
// "1-2 ms", "≥10 s" (the ASCII labels "0-50us", ">=10s" stay in CSV headers and JSON).
QString latencyBinText(std::size_t bin);
// "12.3 %".
QString percentText(double percent);
// The profile's duration spelling: "30s", "1m30s", "500ms".
QString durationText(std::chrono::seconds duration);
QString durationText(std::chrono::milliseconds duration);
QString durationText(std::chrono::microseconds duration);
// A clock for the status bar: "0:05", "12:34", "1:02:03".
QString clockText(double seconds);

// A scope by its name: "All" (translated), "Worker 1", "Worker 1 / /var/tmp/t.dat".
QString scopeText(const core::Scope &scope);
// A scope as a row of a table of scopes names it, indented by level: "All",
// "  Worker 1", "      /var/tmp/t.dat" (the row above names the worker).
QString scopeRowText(const core::Scope &scope);

// A file tree's shape and total: "3 levels × 4 files × 4 MiB = 48 MiB".
QString fileTreeShapeText(const core::FileTree &tree);
// How a title names the profile's host `host` (issue 28): "this host" for hosts[0], the
// one that runs here; another manager by its name, else by its place ("manager 2").
QString managerName(const core::Profile &profile, std::size_t host);

// A swept value on screen: "4 KiB" for sizes, "32" for depths and workers, "70 %"
// for the percentages.
QString sweepValueText(core::SweepParameter parameter, std::uint64_t value);
// What a series axis sweeps, as an axis title: "transfer size", "outstanding I/Os".
QString sweepParameterText(core::SweepParameter parameter);

// A size from an editor's value: a number of bytes, or text as parseSize reads it
// ("64k", "1 MiB"). nullopt when it is neither.
std::optional<std::uint64_t> sizeFromVariant(const QVariant &value);
// A whole number from an editor's value (number or text); nullopt when it is not one or
// is negative.
std::optional<std::uint64_t> countFromVariant(const QVariant &value);

// Problems as a tooltip: one line per problem, core's message verbatim, warnings
// prefixed so they read differently from errors.
QString problemsText(const core::Problems &problems);
// The profile's field paths in `text` ("specs[8].lines[0].transferSize",
// "hosts[0].workers[1].targets[0].testFileSizeBytes", also inside a message) in the
// window's words: the spec, worker and target by name, the field as its label says
// ("spec \u201c4K read\u201d, line 1, transfer size"). Paths the profile has no element for
// keep their index ("spec 9"). Files and the CLI keep the paths, which name JSON fields.
QString placesInWords(const QString &text, const core::Profile &profile);
// One problem as a line for the window: its place in words, then the message.
QString problemText(const core::Problem &problem, const core::Profile &profile);

// `text` for a word-wrapped label: "I/O" held together by word joiners (U+2060, drawn as
// nothing), since Qt breaks a line after any slash ("I/" at a line's end, "O" on the
// next). The German catalogue's prose has them already; this is for texts made at run
// time (core's device notes, messages). Not for files or the clipboard.
QString keepIoWhole(QString text);

} // namespace ioprism::ui
