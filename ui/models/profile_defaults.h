// SPDX-License-Identifier: GPL-3.0-or-later
// The profiles the application makes by itself: the first launch, File > New, and a
// preset applied over what the user already set up.
#pragma once

#include "core/profile/problem.h"
#include "core/profile/profile.h"

#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace ioprism::ui {

// The test file's name when the user picks a folder (Iometer's iobw.tst, named for us).
inline constexpr const char *kTestFileName = "ioprism-test.dat";

// The first launch: the "quick" preset, one worker, its test file at testFilePath.
// Start works with nothing else set up.
core::Profile firstLaunchProfile(const std::string &testFilePath);

// File > New, as Iometer starts: `workers` disk workers (one per CPU is Iometer's
// default), each on the test file at testFilePath, running Iometer's default spec
// (2 KiB, 67 % read, 100 % random).
core::Profile newProfile(int workers, const std::string &testFilePath);

// A preset applied over the current profile: its setup and specs replace the current
// ones and every worker runs the preset's assignment, while the user's workers and
// their targets stay (they chose the disk; the preset chooses the workload). With no
// worker yet, the preset's workers come along, their relative test-file paths placed
// at defaultTestFile's folder.
core::Profile applyPreset(
    const core::Profile &current, const core::Profile &preset, const std::string &defaultTestFile);

struct PresetInfo {
    std::string name; // "cdm-default"
    QString title; // "CrystalDiskMark default"
    QString group; // "CrystalDiskMark", "Workload patterns", "Iometer", "General"
    QString description; // the preset's own description
};

// Every embedded preset, grouped for the Presets menu, in menu order.
std::vector<PresetInfo> presetCatalogue();

// Every spec of every embedded preset (first one of each name), with its preset's name.
struct PresetSpec {
    core::AccessSpec spec;
    std::string preset;
};
const std::vector<PresetSpec> &presetSpecLibrary();

// A one-line summary of a spec: "4 KiB, 100 % read, 100 % random, QD32" or "3 lines".
QString specSummary(const core::AccessSpec &spec);

// A name not used by any spec of the profile: `base`, else "base (2)", "base (3)", ...
std::string uniqueSpecName(const core::Profile &profile, const std::string &base);
// A worker name not used yet: "Worker N", in the UI's language.
std::string uniqueWorkerName(const core::Host &host);
// The name the GUI gives the n-th worker it makes: "Worker n", in the UI's language.
std::string defaultWorkerName(int n);

// The embedded presets are written in English (the CLI shows them as they are); the GUI
// shows their prose and names in the UI's language, and a preset applied puts its names
// in the profile so (they are the profile's data from then on, saved as made).
//
// The preset's description in the UI's language; `shipped` as it is when it is not the
// text the preset ships (a profile's own words stay verbatim).
QString presetDescription(const std::string &preset, const std::string &shipped);
// A spec name of an embedded preset in the UI's language ("SEQ1M Q8T1 Read" becomes
// "SEQ1M Q8T1 Lesen" in German); any other name as it is.
std::string localizedSpecName(const std::string &name);
// The preset `name` (empty: a preset's specs only) with its description, spec names (and
// the workers' assignments of them) and workers' "Worker N" names in the UI's language.
core::Profile localizedPreset(const core::Profile &preset, const std::string &name = {});

} // namespace ioprism::ui
