// SPDX-License-Identifier: GPL-3.0-or-later
// validate, convert, show, presets.
#include "app/cli/commands.h"
#include "app/cli/profile_io.h"
#include "app/cli/results_io.h"
#include "app/cli/summary.h"
#include "core/profile/presets.h"
#include "core/profile/profile_json.h"
#include "core/profile/validation.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

namespace ioprism::cli {

using namespace ioprism::core;

namespace {

// Two answers, as a file made on another machine needs: is it a valid profile (syntax
// and rules), and can it run here (its targets exist on this machine). Without `here`,
// targets not found here are warnings and a valid file exits 0; with it, errors.
int validateFile(const std::string &path, bool here)
{
    Problems problems;
    auto profile = loadProfileFile(path, problems);
    if (profile) {
        ValidationOptions options;
        options.targetsHere = here;
        auto more = validateProfile(*profile, options);
        problems.insert(problems.end(), more.begin(), more.end());
    }
    printProblems(problems, path);
    if (!profile || hasErrors(problems)) {
        std::size_t errors = 0;
        for (const auto &p : problems)
            errors += p.severity == Severity::Error;
        std::cerr << path << ": invalid (" << errors << " error" << (errors == 1 ? "" : "s")
                  << ")\n";
        return 2;
    }
    std::size_t workers = 0;
    for (const auto &h : profile->hosts)
        workers += h.workers.size();
    std::size_t elsewhere = 0;
    for (const auto &h : profile->hosts)
        for (const auto &w : h.workers)
            for (const auto &t : w.targets)
                elsewhere += t.unresolved ? 1 : 0;
    std::cout << path << ": valid (" << profile->specs.size() << " access specifications, "
              << workers << " workers)";
    if (elsewhere > 0)
        std::cout << "; cannot run here until " << elsewhere
                  << (elsewhere == 1 ? " target is" : " targets are")
                  << " re-pointed (validate --here makes that an error)";
    std::cout << "\n";
    return 0;
}

int convertFile(const std::string &in, const std::string &out)
{
    if (!profileFileFormat(out)) {
        std::cerr << "error: " << out << ": the output must end in .json or .icf\n";
        return 2;
    }
    Problems problems;
    auto profile = loadProfileFile(in, problems);
    if (!profile) {
        printProblems(problems, in);
        return 2;
    }
    Problems writeProblems;
    const bool ok = saveProfileFile(*profile, out, writeProblems);
    printProblems(problems, in);
    printProblems(writeProblems, out);
    if (!ok)
        return 1;
    std::cout << "wrote " << out << "\n";
    return 0;
}

int showFile(const std::string &path)
{
    // A results file (or a run of the library) shows the run's tables; a profile, itself.
    if (namesSavedRun(path))
        return showSavedRun(path);
    Problems problems;
    auto profile = loadProfileFile(path, problems);
    printProblems(problems, path);
    if (!profile)
        return 2;
    std::cout << describeProfile(*profile);
    return 0;
}

// The preset's words, then what it runs as shipped (made from the preset, so a changed
// file size or time in the preset file never leaves its words behind).
std::string presetDescription(const char *name)
{
    Problems problems;
    auto p = loadPreset(name, problems);
    return p ? p->setup.description + "\n    runs: " + describeRun(*p)
             : std::string("(invalid preset)");
}

} // namespace

void registerSpecCommands(CLI::App &app, int &exitCode)
{
    auto path = std::make_shared<std::string>();
    auto out = std::make_shared<std::string>();

    auto *validate = app.add_subcommand(
        "validate", "Check a profile (.json or Iometer .icf): lists every problem");
    validate->add_option("FILE", *path, "Profile file")->required();
    auto here = std::make_shared<bool>(false);
    validate->add_flag("--here", *here,
        "Also require that it can run on this machine: a target not found here (an .icf "
        "from another PC) is an error, not a warning");
    validate->callback([&exitCode, path, here] { exitCode = validateFile(*path, *here); });

    auto *convert
        = app.add_subcommand("convert", "Convert a profile between .icf and .json (by extension)");
    convert->add_option("IN", *path, "Input profile (.json or .icf)")->required();
    convert->add_option("OUT", *out, "Output file (.json or .icf)")->required();
    convert->callback([&exitCode, path, out] { exitCode = convertFile(*path, *out); });

    auto *show = app.add_subcommand(
        "show", "Print a readable summary of a profile, or the result tables of a saved run");
    show->add_option("FILE", *path,
            "Profile file (.json, .icf), results JSON, or the id of a run in `history`")
        ->required();
    show->callback([&exitCode, path] { exitCode = showFile(*path); });

    auto *presets = app.add_subcommand("presets", "List the built-in presets");
    auto *presetShow = presets->add_subcommand("show", "Show one preset");
    auto asJson = std::make_shared<bool>(false);
    presetShow->add_option("NAME", *path, "Preset name (see `ioprism-cli presets`)")->required();
    presetShow->add_flag("--json", *asJson, "Print the preset's JSON profile instead of a summary");
    presetShow->callback([&exitCode, path, asJson] {
        Problems problems;
        auto profile = loadPreset(*path, problems);
        printProblems(problems);
        if (!profile) {
            exitCode = 2;
            return;
        }
        std::cout << (*asJson ? writeProfileJson(*profile) : describeProfile(*profile));
        exitCode = 0;
    });
    presets->callback([&exitCode, presetShow] {
        if (presetShow->parsed())
            return;
        for (const auto &p : embeddedPresets())
            std::cout << p.name << "\n    " << presetDescription(p.name) << "\n";
        exitCode = 0;
    });
}

} // namespace ioprism::cli
