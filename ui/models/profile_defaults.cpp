// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/profile_defaults.h"

#include "core/profile/presets.h"
#include "ui/format.h"

#include <QCoreApplication>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace ioprism::ui {

namespace {

core::Target testFileTarget(const std::string &path, std::uint64_t sizeBytes)
{
    core::Target target;
    target.kind = core::TargetKind::TestFile;
    target.path = path;
    target.testFileSizeBytes = sizeBytes;
    return target;
}

} // namespace

core::Profile firstLaunchProfile(const std::string &testFilePath)
{
    core::Problems problems;
    auto preset = core::loadPreset("quick", problems);
    core::Profile profile = preset ? *preset : core::Profile {};
    return applyPreset(core::Profile {}, profile, testFilePath);
}

core::Profile newProfile(int workers, const std::string &testFilePath)
{
    core::Profile profile;
    core::AccessSpec spec;
    spec.name = "Default";
    spec.defaultAssignment = core::SpecAssignment::All;
    spec.lines.push_back(core::SpecLine {}); // Iometer's new-line defaults
    profile.specs.push_back(spec);
    core::Host host;
    for (int i = 0; i < std::max(workers, 1); ++i) {
        core::Worker worker;
        worker.name = "Worker " + std::to_string(i + 1);
        worker.assignedSpecs = {spec.name};
        worker.targets.push_back(testFileTarget(testFilePath, 1 * core::kGiB));
        host.workers.push_back(worker);
    }
    profile.hosts.push_back(host);
    return profile;
}

core::Profile applyPreset(
    const core::Profile &current, const core::Profile &preset, const std::string &defaultTestFile)
{
    core::Profile result = current;
    result.setup = preset.setup;
    result.specs = preset.specs;
    result.icfResultsDisplay = preset.icfResultsDisplay;

    const core::Worker *model = nullptr;
    if (!preset.hosts.empty() && !preset.hosts.front().workers.empty())
        model = &preset.hosts.front().workers.front();
    std::vector<std::string> assignment;
    if (model)
        assignment = model->assignedSpecs;
    else
        for (const auto &spec : preset.specs)
            assignment.push_back(spec.name);

    const bool haveWorkers = !result.hosts.empty() && !result.hosts.front().workers.empty();
    if (haveWorkers) {
        for (auto &worker : result.hosts.front().workers) {
            worker.assignedSpecs = assignment;
            if (model)
                worker.outstandingIos = model->outstandingIos;
        }
        return result;
    }

    result.hosts = preset.hosts;
    if (result.hosts.empty())
        result.hosts.emplace_back();
    auto &workers = result.hosts.front().workers;
    if (workers.empty()) {
        core::Worker worker;
        worker.name = "Worker 1";
        worker.assignedSpecs = assignment;
        workers.push_back(worker);
    }
    const std::filesystem::path folder = std::filesystem::path(defaultTestFile).parent_path();
    for (auto &worker : workers) {
        if (worker.targets.empty())
            worker.targets.push_back(testFileTarget(defaultTestFile, 1 * core::kGiB));
        for (auto &target : worker.targets)
            if (target.kind == core::TargetKind::TestFile
                && std::filesystem::path(target.path).is_relative())
                target.path = (folder / target.path).string();
    }
    return result;
}

namespace {

// What the Presets menu calls a preset: a name for people, translated, never the file's
// slug ("Bs qd matrix", "Io profile" were shown). A preset added without a title here
// shows its slug with spaces, and PresetMenu.EveryPresetHasATitle fails.
QString presetTitle(const QString &name)
{
    static const std::map<QString, const char *> titles = {
        {QStringLiteral("quick"), QT_TRANSLATE_NOOP("Presets", "Quick check")},
        {QStringLiteral("bs-qd-matrix"),
            QT_TRANSLATE_NOOP("Presets", "Block size × queue depth matrix")},
        {QStringLiteral("dd-series"), QT_TRANSLATE_NOOP("Presets", "dd block-size series")},
        {QStringLiteral("io-profile"),
            QT_TRANSLATE_NOOP("Presets", "I/O-size profile (io_profile)")},
        {QStringLiteral("io-profile-tree"),
            QT_TRANSLATE_NOOP("Presets", "File-tree operations (io_profile)")},
        {QStringLiteral("iometer-cycling"),
            QT_TRANSLATE_NOOP("Presets", "Iometer cycling: outstanding I/Os")},
        {QStringLiteral("qd-curve"), QT_TRANSLATE_NOOP("Presets", "Queue-depth curve")},
        {QStringLiteral("spectrum-iops"), QT_TRANSLATE_NOOP("Presets", "Block-size spectrum")},
        {QStringLiteral("storage-study"),
            QT_TRANSLATE_NOOP("Presets", "Sequential 512 KiB read and write")},
        {QStringLiteral("database"), QT_TRANSLATE_NOOP("Presets", "Database")},
        {QStringLiteral("file-server"), QT_TRANSLATE_NOOP("Presets", "File server")},
        {QStringLiteral("web-server"), QT_TRANSLATE_NOOP("Presets", "Web server")},
        {QStringLiteral("workstation"), QT_TRANSLATE_NOOP("Presets", "Workstation")},
    };
    if (const auto t = titles.find(name); t != titles.end())
        return QCoreApplication::translate("Presets", t->second);
    QString title = name;
    title.replace(QLatin1Char('-'), QLatin1Char(' '));
    title[0] = title[0].toUpper();
    return title;
}

} // namespace

std::vector<PresetInfo> presetCatalogue()
{
    std::vector<PresetInfo> list;
    for (const auto &embedded : core::embeddedPresets()) {
        PresetInfo info;
        info.name = embedded.name;
        core::Problems problems;
        if (auto profile = core::loadPreset(info.name, problems))
            info.description = toQString(profile->setup.description);
        const QString name = toQString(info.name);
        if (name.startsWith(QLatin1String("cdm-"))) {
            info.group = QCoreApplication::translate("Presets", "CrystalDiskMark");
            const QString variant = name.mid(4);
            info.title = QCoreApplication::translate("Presets", "CrystalDiskMark %1").arg(variant);
        } else if (name == QLatin1String("iometer")) {
            info.group = QCoreApplication::translate("Presets", "Iometer");
            info.title = QCoreApplication::translate("Presets", "Iometer access specifications");
        } else {
            info.group = info.description.startsWith(QLatin1String("Workload pattern"))
                ? QCoreApplication::translate("Presets", "Workload patterns")
                : QCoreApplication::translate("Presets", "General");
            info.title = presetTitle(name);
        }
        list.push_back(info);
    }
    const QStringList order = {QCoreApplication::translate("Presets", "General"),
        QCoreApplication::translate("Presets", "CrystalDiskMark"),
        QCoreApplication::translate("Presets", "Workload patterns"),
        QCoreApplication::translate("Presets", "Iometer")};
    std::stable_sort(list.begin(), list.end(), [&](const PresetInfo &a, const PresetInfo &b) {
        const bool aQuick = a.name == "quick", bQuick = b.name == "quick";
        if (aQuick != bQuick)
            return aQuick;
        return order.indexOf(a.group) < order.indexOf(b.group);
    });
    return list;
}

const std::vector<PresetSpec> &presetSpecLibrary()
{
    static const std::vector<PresetSpec> library = [] {
        std::vector<PresetSpec> specs;
        std::set<std::string> seen;
        for (const auto &embedded : core::embeddedPresets()) {
            core::Problems problems;
            auto profile = core::loadPreset(embedded.name, problems);
            if (!profile)
                continue;
            for (const auto &spec : profile->specs)
                if (seen.insert(spec.name).second)
                    specs.push_back({spec, embedded.name});
        }
        return specs;
    }();
    return library;
}

QString specSummary(const core::AccessSpec &spec)
{
    QString text;
    if (spec.lines.size() == 1) {
        const auto &line = spec.lines.front();
        text = QCoreApplication::translate("Presets", "%1, %2 % read, %3 % random")
                   .arg(exactSizeText(line.transferSizeBytes))
                   .arg(line.percentRead)
                   .arg(line.percentRandom);
    } else {
        text = QCoreApplication::translate("Presets", "%n lines", nullptr, int(spec.lines.size()));
    }
    if (spec.queueDepth)
        text += QCoreApplication::translate("Presets", ", QD%1").arg(*spec.queueDepth);
    if (spec.threads && *spec.threads > 1)
        text += QCoreApplication::translate("Presets", ", %n threads", nullptr, int(*spec.threads));
    return text;
}

std::string uniqueSpecName(const core::Profile &profile, const std::string &base)
{
    if (!core::findSpec(profile, base))
        return base;
    for (int n = 2;; ++n) {
        std::string candidate = base + " (" + std::to_string(n) + ")";
        if (!core::findSpec(profile, candidate))
            return candidate;
    }
}

std::string uniqueWorkerName(const core::Host &host)
{
    for (std::size_t n = host.workers.size() + 1;; ++n) {
        std::string candidate = "Worker " + std::to_string(n);
        if (std::none_of(host.workers.begin(), host.workers.end(),
                [&](const core::Worker &w) { return w.name == candidate; }))
            return candidate;
    }
}

} // namespace ioprism::ui
