// SPDX-License-Identifier: GPL-3.0-or-later
// The run library from the command line: runs saved when they end (complete, stopped,
// refused), history, show, compare, --no-save, damaged and future files. Each test has
// its own data folder (IOPRISM_DATA_DIR), so they run in parallel and never touch the
// user's own.
#include "core/report/results_json.h"
#include "core/report/results_reader.h"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>

#include "e2e/cli_process.h"

using namespace ioprism::test;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// A temp folder holding the working directory and the data folder of one test.
struct Workspace {
    TempDir dir;
    std::filesystem::path data() const { return dir.path() / "data"; }
    std::filesystem::path runs() const { return data() / "runs"; }
    CliResult cli(const std::string &args, const std::string &wrapper = {}) const
    {
        return runCli(
            args, dir.path(), "env IOPRISM_DATA_DIR='" + data().string() + "' " + wrapper);
    }
    std::vector<std::string> savedIds() const
    {
        std::vector<std::string> ids;
        std::error_code ec;
        for (const auto &e : std::filesystem::directory_iterator(runs(), ec))
            if (e.path().filename().string().front() != '.') // not the headline cache
                ids.push_back(e.path().stem().string());
        std::sort(ids.begin(), ids.end());
        return ids;
    }
};

// A short run of the null engine: two steps of the quick preset, no device I/O.
const std::string kNullRun = "run --engine null --duration 1s --ramp 0 -q";
// A short run on a small real file in the working directory.
const std::string kFileRun
    = "run --target t.dat --file-size 8MiB --bs 4KiB --read 100 --random 100 --qd 4 "
      "--duration 1s --ramp 0 -q";

nlohmann::json historyJson(const Workspace &w)
{
    const auto r = w.cli("history --json");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
}

} // namespace

TEST(CliLibrary, EveryRunIsSavedAndHistoryListsThem)
{
    Workspace w;
    auto first = w.cli(kNullRun);
    ASSERT_EQ(first.exitCode, 0) << first.err;
    auto second = w.cli(kNullRun + " --json r.json");
    ASSERT_EQ(second.exitCode, 0) << second.err;
    const auto ids = w.savedIds();
    ASSERT_EQ(ids.size(), 2u);
    // The saved copy is the --json file, byte for byte.
    EXPECT_EQ(readFile(w.runs() / (ids[1] + ".json")), readFile(w.dir.path() / "r.json"));

    const auto history = historyJson(w);
    ASSERT_TRUE(history.is_array());
    ASSERT_EQ(history.size(), 2u);
    for (const auto &run : history) {
        EXPECT_EQ(run["damaged"], false);
        EXPECT_EQ(run["outcome"], "complete");
        EXPECT_EQ(run["engine"], "null");
        EXPECT_GT(run["iops"].get<double>(), 0);
        EXPECT_EQ(run["steps"], 4);
    }
    EXPECT_EQ(history[0]["id"], ids[0]);
    // Newest first on request.
    const auto newest = w.cli("history --sort newest --json");
    EXPECT_EQ(nlohmann::json::parse(newest.out)[0]["id"], history[1]["id"]);
    // The text list: one line per run with its id, and how to use it.
    const auto text = w.cli("history");
    EXPECT_EQ(text.exitCode, 0);
    EXPECT_THAT(text.out, HasSubstr(ids[0]));
    EXPECT_THAT(text.out, HasSubstr(ids[1]));
    EXPECT_THAT(text.out, HasSubstr("complete"));
}

// history reads a run's results file once: later listings take its headline from the
// library's cache, until the file changes.
TEST(CliLibrary, HistoryListsFromItsCacheAndReadsAChangedFileAgain)
{
    Workspace w;
    ASSERT_EQ(w.cli(kNullRun).exitCode, 0);
    ASSERT_EQ(w.cli(kNullRun).exitCode, 0);
    const auto ids = w.savedIds();
    ASSERT_EQ(ids.size(), 2u);
    ASSERT_EQ(historyJson(w).size(), 2u);
    EXPECT_TRUE(std::filesystem::exists(w.runs() / ".headlines.json"));

    // Garbage in place of the first run's file, at its size and time: the listing does
    // not read it (it would find it damaged), it takes the headline it had.
    const auto path = w.runs() / (ids[0] + ".json");
    const auto time = std::filesystem::last_write_time(path);
    const auto size = std::filesystem::file_size(path);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << std::string(size, 'x');
    std::filesystem::last_write_time(path, time);
    auto history = historyJson(w);
    ASSERT_EQ(history.size(), 2u);
    EXPECT_EQ(history[0]["damaged"], false);
    EXPECT_EQ(history[0]["engine"], "null");

    // Changed (a later time): read again, and found damaged.
    std::filesystem::last_write_time(path, time + std::chrono::seconds(2));
    history = historyJson(w);
    ASSERT_EQ(history.size(), 2u);
    for (const auto &run : history)
        EXPECT_EQ(run["damaged"], run["id"] == ids[0]) << run["id"];
}

TEST(CliLibrary, NoSaveSavesNothing)
{
    Workspace w;
    const auto r = w.cli(kNullRun + " --no-save");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(w.savedIds().empty());
    EXPECT_EQ(historyJson(w).size(), 0u);
}

TEST(CliLibrary, ShowPrintsTheTablesTheRunPrinted)
{
    Workspace w;
    const auto run = w.cli(kNullRun);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const auto ids = w.savedIds();
    ASSERT_EQ(ids.size(), 1u);
    const auto show = w.cli("show " + ids[0]);
    ASSERT_EQ(show.exitCode, 0) << show.err;
    // -q prints only the end tables (and the "saved as" line is not printed): show
    // prints the same tables after its header.
    EXPECT_THAT(show.out, HasSubstr(run.out));
    EXPECT_THAT(show.out, HasSubstr("scope"));
    // By path too, and by a unique start of the id.
    const auto byPath = w.cli("show '" + (w.runs() / (ids[0] + ".json")).string() + "'");
    EXPECT_EQ(byPath.exitCode, 0) << byPath.err;
    EXPECT_THAT(byPath.out, HasSubstr(run.out));
    EXPECT_EQ(w.cli("show " + ids[0].substr(0, 17)).exitCode, 0);
}

TEST(CliLibrary, ARealRunReadsBackToTheSameText)
{
    Workspace w;
    const auto run = w.cli(kFileRun + " --json r.json");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const std::string text = readFile(w.dir.path() / "r.json");
    const auto read = ioprism::core::readResultsJson(text);
    ASSERT_TRUE(read.ok()) << read.error;
    EXPECT_EQ(ioprism::core::writeResultsJson(*read.result, read.result->environment), text);
}

TEST(CliLibrary, ExportWritesTheFilesTheRunWrote)
{
    Workspace w;
    // Reads and writes, so that both directions' columns are compared.
    const auto run = w.cli("run --target t.dat --file-size 8MiB --bs 4KiB --read 70 --random 100 "
                           "--qd 4 --duration 1s --ramp 0 -q --csv a.csv --timeseries a-ts.csv "
                           "--json a.json");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const auto ids = w.savedIds();
    ASSERT_EQ(ids.size(), 1u);
    // By library id, and by the path of a results file.
    const auto byId
        = w.cli("export " + ids[0] + " --csv b.csv --timeseries b-ts.csv --json b.json");
    ASSERT_EQ(byId.exitCode, 0) << byId.err;
    EXPECT_EQ(byId.out, "");
    const auto byPath = w.cli("export a.json --timeseries c-ts.csv");
    ASSERT_EQ(byPath.exitCode, 0) << byPath.err;
    const auto &dir = w.dir.path();
    EXPECT_EQ(readFile(dir / "b.csv"), readFile(dir / "a.csv"));
    EXPECT_EQ(readFile(dir / "b-ts.csv"), readFile(dir / "a-ts.csv"));
    EXPECT_EQ(readFile(dir / "c-ts.csv"), readFile(dir / "a-ts.csv"));
    EXPECT_EQ(readFile(dir / "b.json"), readFile(dir / "a.json"));
    // "-" is stdout.
    const auto toStdout = w.cli("export a.json --timeseries -");
    ASSERT_EQ(toStdout.exitCode, 0) << toStdout.err;
    EXPECT_EQ(toStdout.out, readFile(dir / "a-ts.csv"));
}

TEST(CliLibrary, ExportOfASeriesWritesItsSeriesCsv)
{
    Workspace w;
    const auto run = w.cli("run --engine null --bs 4k --duration 1 --ramp 0 --sweep qd=1,2 -q "
                           "--series-csv a.csv --json a.json");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const auto exported = w.cli("export a.json --series-csv b.csv");
    ASSERT_EQ(exported.exitCode, 0) << exported.err;
    const std::string series = readFile(w.dir.path() / "a.csv");
    EXPECT_EQ(std::count(series.begin(), series.end(), '\n'), 3); // the header, two points
    EXPECT_EQ(readFile(w.dir.path() / "b.csv"), series);
}

TEST(CliLibrary, ExportRefusesBeforeWritingAnything)
{
    Workspace w;
    ASSERT_EQ(w.cli(kNullRun + " --json a.json").exitCode, 0);
    const auto nothingAsked = w.cli("export a.json");
    EXPECT_EQ(nothingAsked.exitCode, 2);
    EXPECT_THAT(nothingAsked.err, HasSubstr("--csv, --timeseries, --series-csv or --json"));
    const auto notASeries = w.cli("export a.json --series-csv s.csv --timeseries t.csv");
    EXPECT_EQ(notASeries.exitCode, 2);
    EXPECT_THAT(notASeries.err, HasSubstr("--series-csv: a.json is no series"));
    const auto noDirectory = w.cli("export a.json --timeseries t.csv --json no/such/dir/r.json");
    EXPECT_EQ(noDirectory.exitCode, 2);
    EXPECT_THAT(noDirectory.err, HasSubstr("--json: cannot write no/such/dir/r.json"));
    const auto noRun = w.cli("export missing.json --timeseries t.csv");
    EXPECT_EQ(noRun.exitCode, 2);
    EXPECT_THAT(noRun.err, HasSubstr("missing.json: no such file"));
    // Refused whole: not even the outputs that could have been written.
    EXPECT_FALSE(std::filesystem::exists(w.dir.path() / "s.csv"));
    EXPECT_FALSE(std::filesystem::exists(w.dir.path() / "t.csv"));
}

TEST(CliLibrary, CompareOfDirectAndBufferedNamesTheCacheModeAndTheRightSense)
{
    Workspace w;
    ASSERT_EQ(w.cli(kFileRun + " --json direct.json").exitCode, 0);
    ASSERT_EQ(w.cli(kFileRun + " --buffered --json buffered.json").exitCode, 0);

    const auto json = w.cli("compare direct.json buffered.json --json");
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto doc = nlohmann::json::parse(json.out);
    bool cacheMode = false;
    for (const auto &d : doc["setup_differences"])
        if (d["what"] == "cache mode") {
            cacheMode = true;
            EXPECT_EQ(d["values"][0], "direct");
            EXPECT_EQ(d["values"][1], "buffered");
        }
    EXPECT_TRUE(cacheMode) << json.out;
    ASSERT_EQ(doc["rows"].size(), 1u);
    const auto &row = doc["rows"][0];
    EXPECT_EQ(row["matched"], true);
    // The sense of each change follows from its sign and the metric: more IOPS is
    // better, more latency is worse.
    for (const auto &[metric, m] : row["metrics"].items()) {
        const double base = m["values"][0], other = m["values"][1];
        EXPECT_EQ(m["sense"][0], "baseline");
        EXPECT_DOUBLE_EQ(m["change"][1].get<double>(), other - base);
        const bool higherBetter = m["better_when"] == "higher";
        EXPECT_EQ(higherBetter, metric == "iops" || metric == "mbps");
        if (other != base) {
            EXPECT_EQ(m["sense"][1], (other > base) == higherBetter ? "better" : "worse") << metric;
        }
    }

    // Runs that open no files are compared on the four figures they always were.
    EXPECT_EQ(row["metrics"].size(), 4u);
    EXPECT_FALSE(row["metrics"].contains("files_per_s"));

    const auto text = w.cli("compare direct.json buffered.json");
    EXPECT_EQ(text.exitCode, 0);
    EXPECT_THAT(text.out, HasSubstr("cache mode"));
    EXPECT_THAT(text.out, Not(HasSubstr("files/s")));
    const auto csv = w.cli("compare direct.json buffered.json --csv --baseline 2");
    EXPECT_EQ(csv.exitCode, 0);
    EXPECT_THAT(csv.out, HasSubstr("row_kind,row,spec"));
    EXPECT_THAT(csv.out, HasSubstr("setup,cache mode"));
}

// File trees (each I/O opens and closes a file): files opened per second is compared too,
// in the text, the CSV, the JSON and the report, more being better.
TEST(CliLibrary, CompareOfTreeRunsComparesFilesPerSecond)
{
    Workspace w;
    const std::string tree = "run --engine null --tree 2:2:64KiB --target tr --bs 4KiB --read 100 "
                             "--duration 1s --ramp 0 -q";
    ASSERT_EQ(w.cli(tree + " --json a.json").exitCode, 0);
    ASSERT_EQ(w.cli(tree + " --json b.json").exitCode, 0);

    const auto json = w.cli("compare a.json b.json --json");
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto doc = nlohmann::json::parse(json.out);
    ASSERT_EQ(doc["rows"].size(), 1u);
    const auto &metrics = doc["rows"][0]["metrics"];
    ASSERT_TRUE(metrics.contains("files_per_s")) << json.out;
    const auto &files = metrics["files_per_s"];
    EXPECT_EQ(files["better_when"], "higher");
    const double base = files["values"][0], other = files["values"][1];
    EXPECT_GT(base, 0);
    EXPECT_GT(other, 0);
    EXPECT_DOUBLE_EQ(files["change"][1].get<double>(), other - base);
    if (other != base) {
        EXPECT_EQ(files["sense"][1], other > base ? "better" : "worse");
    }

    const auto text = w.cli("compare a.json b.json");
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("\nfiles/s "));
    const auto csv = w.cli("compare a.json b.json --csv");
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    EXPECT_THAT(csv.out, HasSubstr(",files_per_s,higher,1,a.json,1,"));
    ASSERT_EQ(w.cli("compare a.json b.json --html r.html").exitCode, 0);
    EXPECT_THAT(readFile(w.dir.path() / "r.html"), HasSubstr("<th>files/s</th><th>Change</th>"));
}

TEST(CliLibrary, CompareListsAStepOnlyOneRunHas)
{
    Workspace w;
    ASSERT_EQ(w.cli(kNullRun + " --json two.json").exitCode, 0); // the quick preset's steps
    ASSERT_EQ(w.cli("run --engine null --duration 1s --ramp 0 -q --bs 4KiB --read 100 "
                    "--json one.json")
                  .exitCode,
        0);
    const auto r = w.cli("compare two.json one.json");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("Unmatched"));
    const auto doc = nlohmann::json::parse(w.cli("compare two.json one.json --json").out);
    std::size_t unmatched = 0;
    for (const auto &row : doc["rows"])
        unmatched += row["matched"] == false;
    EXPECT_EQ(unmatched, doc["rows"].size()); // no step of one is in the other
    EXPECT_GE(unmatched, 5u);
}

TEST(CliLibrary, CompareWritesAnHtmlReportWithTheTablesAndTheCurves)
{
    Workspace w;
    ASSERT_EQ(w.cli(kFileRun + " --json direct.json").exitCode, 0);
    ASSERT_EQ(w.cli(kFileRun + " --buffered --json buffered.json").exitCode, 0);
    const auto r = w.cli("compare direct.json buffered.json --html report.html");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("cache mode")); // the text comparison as well
    const std::string html = readFile(w.dir.path() / "report.html");
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_THAT(html, HasSubstr("<td><span style=\"color:#1f77b4\">&#9632;</span> direct.json"));
    EXPECT_THAT(html, HasSubstr("buffered.json"));
    EXPECT_THAT(html, HasSubstr(">cache mode</td><td>direct</td><td>buffered</td>"));
    EXPECT_THAT(html, HasSubstr("<h2>Step by step</h2>"));
    // Drawn without the GUI: an inline SVG with a curve per run.
    EXPECT_THAT(html, HasSubstr("<svg"));
    std::size_t curves = 0;
    for (auto at = html.find("<polyline"); at != std::string::npos;
         at = html.find("<polyline", at + 1))
        ++curves;
    EXPECT_EQ(curves, 2u);

    const auto unwritable = w.cli("compare direct.json buffered.json --html no/such/dir/r.html");
    EXPECT_EQ(unwritable.exitCode, 1);
    EXPECT_THAT(unwritable.err, HasSubstr("--html: cannot write no/such/dir/r.html"));
    EXPECT_TRUE(unwritable.out.empty());
    EXPECT_THAT(w.cli("compare --help").out, HasSubstr("--html"));
}

TEST(CliLibrary, ADamagedOrFutureFileIsExit2WithItsReason)
{
    Workspace w;
    ASSERT_EQ(w.cli(kNullRun + " --json good.json").exitCode, 0);
    const std::string good = readFile(w.dir.path() / "good.json");
    writeFile(w.dir.path() / "cut.json", good.substr(0, good.size() / 3));
    std::string future = good;
    // The document's own version (the profile inside has one too).
    const std::string version
        = "\"version\": " + std::to_string(ioprism::core::kResultsFormatVersion);
    future.replace(future.find(version), version.size(), "\"version\": 9");
    writeFile(w.dir.path() / "future.json", future);

    auto r = w.cli("compare good.json cut.json");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("cut.json: truncated"));
    r = w.cli("show cut.json");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("truncated"));
    r = w.cli("compare future.json good.json");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("version 9 was written by a newer IOPrism"));
    r = w.cli("compare good.json no-such-run");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("no-such-run"));

    // A damaged file in the library is listed as damaged; the others still are.
    writeFile(w.runs() / "20200101-000000-cut.json", good.substr(0, 100));
    const auto history = historyJson(w);
    ASSERT_EQ(history.size(), 2u);
    EXPECT_EQ(history[0]["damaged"], true);
    EXPECT_THAT(history[0]["damage"].get<std::string>(), HasSubstr("truncated"));
    EXPECT_EQ(history[1]["damaged"], false);
    EXPECT_THAT(w.cli("history").out, HasSubstr("damaged: truncated"));
}

TEST(CliLibrary, AStoppedAndARefusedRunAreSavedToo)
{
    Workspace w;
    // Ctrl-C once a long run has measured an interval (its time series has a row).
    CliProcess stopped(w.dir.path(),
        {"run", "--engine", "null", "--duration", "60s", "--ramp", "0", "-q", "--timeseries",
            (w.dir.path() / "t.csv").string()},
        {}, {"IOPRISM_DATA_DIR=" + w.data().string()});
    ASSERT_TRUE(stopped.started());
    ASSERT_TRUE(stopped.waitFor([&] { return linesIn(w.dir.path() / "t.csv") > 1; }))
        << stopped.err();
    stopped.signal(SIGINT);
    EXPECT_EQ(stopped.wait(), 130) << stopped.err();
    // A target the run cannot create: refused before measuring, kept with its error.
    const auto refused = w.cli("run --target '" + (w.dir.path() / "no-such-dir" / "t.dat").string()
        + "' --duration 1s -q");
    EXPECT_EQ(refused.exitCode, 1) << refused.err;
    const auto history = historyJson(w);
    ASSERT_EQ(history.size(), 2u);
    std::map<std::string, nlohmann::json> byOutcome;
    for (const auto &run : history)
        byOutcome[run["outcome"].get<std::string>()] = run;
    ASSERT_TRUE(byOutcome.count("stopped")) << history.dump(2);
    ASSERT_TRUE(byOutcome.count("failed")) << history.dump(2);
    EXPECT_THAT(byOutcome["failed"]["error"].get<std::string>(), HasSubstr("no-such-dir"));
    EXPECT_THAT(
        byOutcome["failed"]["targets"][0]["path"].get<std::string>(), HasSubstr("no-such-dir"));
}

// Issue 24: of a run of unlike steps `history` shows one step's figures, named, not their
// average; a failed run says why on its line.
TEST(CliLibrary, HistoryNamesTheStepOfItsFiguresAndTheReasonOfAFailure)
{
    Workspace w;
    const auto two = w.cli(kNullRun);
    ASSERT_EQ(two.exitCode, 0) << two.err;
    const auto refused = w.cli("run --target '" + (w.dir.path() / "no-such-dir" / "t.dat").string()
        + "' --duration 1s -q");
    EXPECT_EQ(refused.exitCode, 1) << refused.err;
    const auto history = historyJson(w);
    ASSERT_EQ(history.size(), 2u);
    const auto &ran = history[0]["outcome"] == "complete" ? history[0] : history[1];
    const auto &failed = history[0]["outcome"] == "failed" ? history[0] : history[1];
    ASSERT_EQ(ran["outcome"], "complete") << history.dump(2);
    ASSERT_EQ(failed["outcome"], "failed") << history.dump(2);

    // The step with the most IOPS, as the results file has it (the first of equals).
    std::ifstream in(ran["path"].get<std::string>(), std::ios::binary);
    const auto results = nlohmann::json::parse(in);
    const std::size_t steps = results["steps"].size();
    ASSERT_GE(steps, 2u) << "the quick preset has several steps";
    std::size_t best = 0;
    for (std::size_t i = 1; i < steps; ++i)
        if (results["steps"][i]["scopes"][0]["total"]["iops"].get<double>()
            > results["steps"][best]["scopes"][0]["total"]["iops"].get<double>())
            best = i;
    const auto &all = results["steps"][best]["scopes"][0]["total"];
    const std::string bestName = results["steps"][best]["name"].get<std::string>();
    EXPECT_EQ(ran["figure_step"], best);
    EXPECT_EQ(ran["figure_step_name"], bestName);
    EXPECT_EQ(ran["iops"], all["iops"]);
    EXPECT_EQ(ran["mbps"], all["mbps"]);
    EXPECT_EQ(ran["p99_latency_us"], all["latency_us"]["p99"]);
    EXPECT_EQ(failed["figure_step"], nullptr);

    const auto text = w.cli("history");
    EXPECT_EQ(text.exitCode, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr(fmt::format("figures: best of {}: {}\n", steps, bestName)))
        << text.out;
    EXPECT_THAT(text.out, ContainsRegex("failed: [^\n]*no-such-dir")) << text.out;
}

TEST(CliLibrary, NamesNotesTagsAndDelete)
{
    Workspace w;
    ASSERT_EQ(w.cli(kNullRun).exitCode, 0);
    const std::string id = w.savedIds().at(0);
    EXPECT_EQ(w.cli("history rename " + id + " 'before update'").exitCode, 0);
    EXPECT_EQ(w.cli("history note " + id + " 'firmware 1.2'").exitCode, 0);
    EXPECT_EQ(w.cli("history tag " + id + " nvme lab").exitCode, 0);
    auto history = historyJson(w);
    ASSERT_EQ(history.size(), 1u);
    EXPECT_EQ(history[0]["name"], "before update");
    EXPECT_EQ(history[0]["notes"], "firmware 1.2");
    EXPECT_EQ(history[0]["tags"], nlohmann::json::array({"nvme", "lab"}));
    EXPECT_THAT(w.cli("history").out, HasSubstr("before update"));
    EXPECT_EQ(w.cli("history delete " + id).exitCode, 0);
    EXPECT_EQ(historyJson(w).size(), 0u);
    EXPECT_TRUE(w.savedIds().empty());
    EXPECT_EQ(w.cli("history delete " + id).exitCode, 2);
}

// Issue 23: a library holding a link to /dev/zero, a FIFO, a sparse 3 GiB file, a
// dangling link and a folder named x.json made `history` abort (bad_alloc, exit 134),
// hang or take 25 s. It lists the good run and names each bad entry with why.
TEST(CliLibrary, HistoryListsGoodRunsAndNamesEachHostileEntryWithoutHangingOrAborting)
{
    Workspace w;
    ASSERT_EQ(w.cli(kNullRun).exitCode, 0);
    std::filesystem::create_symlink("/dev/zero", w.runs() / "zero.json");
    ASSERT_EQ(std::system(("mkfifo '" + (w.runs() / "fifo.json").string() + "'").c_str()), 0);
    std::ofstream(w.runs() / "sparse.json") << "";
    std::filesystem::resize_file(w.runs() / "sparse.json", std::uintmax_t(3) << 30);
    std::filesystem::create_symlink(w.runs() / "gone", w.runs() / "dangling.json");
    std::filesystem::create_directory(w.runs() / "x.json");
    // `timeout` turns a hang into a failure instead of a stuck test.
    const auto r = w.cli("history", "timeout 20");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("complete"));
    // Each id is padded to the id column's width, as a good run's is.
    EXPECT_THAT(r.out, ContainsRegex("\nzero +unreadable: is a character device"));
    EXPECT_THAT(r.out, ContainsRegex("\nfifo +unreadable: is a FIFO \\(named pipe\\)"));
    EXPECT_THAT(r.out,
        ContainsRegex("\nsparse +unreadable: is 3 GiB; IOPrism reads results files up to 256 MiB"));
    EXPECT_THAT(r.out, ContainsRegex("\ndangling +unreadable: is a link to "));
    EXPECT_THAT(r.out, ContainsRegex("\nx +unreadable: is a directory, not a file"));
    const auto show = w.cli("show fifo", "timeout 20");
    EXPECT_EQ(show.exitCode, 2);
    EXPECT_THAT(show.err, HasSubstr("is a FIFO (named pipe); only regular files are read"));
}

TEST(CliLibrary, ALibraryFolderThatIsAFileIsSaidSo)
{
    Workspace w;
    std::filesystem::create_directories(w.data());
    std::ofstream(w.runs()) << "not a folder";
    const auto r = w.cli("history");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_THAT(r.err, HasSubstr("is not a folder"));
    EXPECT_THAT(r.out, Not(HasSubstr("no saved runs")));
}

// Issue 23: names and descriptions from a results file went raw to the terminal.
TEST(CliLibrary, HistoryAndShowEscapeControlCharactersFromTheFile)
{
    Workspace w;
    ASSERT_EQ(w.cli(kNullRun + " --json r.json").exitCode, 0);
    std::string text = readFile(w.dir.path() / "r.json");
    const std::string hostile = "\\u001b[2J\\u001b]0;pwned\\u0007\\nforged row\\u009b";
    const auto at = text.find("\"description\": \"");
    ASSERT_NE(at, std::string::npos);
    text.insert(at + std::string("\"description\": \"").size(), hostile);
    writeFile(w.dir.path() / "evil.json", text);
    const auto show = w.cli("show evil.json");
    ASSERT_EQ(show.exitCode, 0) << show.err;
    EXPECT_EQ(show.out.find('\x1b'), std::string::npos);
    EXPECT_EQ(show.out.find('\x07'), std::string::npos);
    EXPECT_THAT(show.out, HasSubstr("\\x1b[2J\\x1b]0;pwned\\x07\\nforged row\\u009b"));
    for (const auto &id : w.savedIds())
        writeFile(w.runs() / (id + ".json"), text);
    const auto history = w.cli("history");
    EXPECT_EQ(history.out.find('\x1b'), std::string::npos);
    EXPECT_THAT(history.out, HasSubstr("\\nforged row"));
}
