// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/profile_defaults.h"

#include "core/profile/presets.h"
#include "ui/format.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
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
    core::Profile profile = preset ? localizedPreset(*preset, "quick") : core::Profile {};
    return applyPreset(core::Profile {}, profile, testFilePath);
}

core::Profile newProfile(int workers, const std::string &testFilePath)
{
    core::Profile profile;
    core::AccessSpec spec;
    // Iometer's "Default", in the UI's language: the name is the profile's data from here.
    spec.name = toStdString(QCoreApplication::translate("Presets", "Default"));
    spec.defaultAssignment = core::SpecAssignment::All;
    spec.lines.push_back(core::SpecLine {}); // Iometer's new-line defaults
    profile.specs.push_back(spec);
    core::Host host;
    for (int i = 0; i < std::max(workers, 1); ++i) {
        core::Worker worker;
        worker.name = defaultWorkerName(i + 1);
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
        // Every manager's workers: the specs they ran are gone, and another manager's
        // worker left naming them could not run on its agent.
        for (auto &host : result.hosts)
            for (auto &worker : host.workers) {
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
        worker.name = defaultWorkerName(1);
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

std::string defaultWorkerName(int n)
{
    // "Worker" is the glossary's word in every language so far (Iometer's term, which
    // German storage people use as is); a translator may choose otherwise.
    return toStdString(QCoreApplication::translate("Presets", "Worker %1").arg(n));
}

namespace {

// The prose each embedded preset ships (its "description"), for translators. The preset
// files stay English (the CLI shows them); the GUI shows and applies these. A shipped
// text that no longer matches its entry here is shown as shipped, untranslated, and
// PresetMenu.DescriptionsAreTranslated fails.
const std::map<std::string, const char *> &shippedDescriptions()
{
    static const std::map<std::string, const char *> descriptions = {
        {"bs-qd-matrix",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "Block size x concurrency: random reads over a matrix of transfer sizes and "
                "queue depths, shown as a heat map. Expect IOPS to grow with queue depth until "
                "the device is saturated (an optimum beyond which latency only grows), and the "
                "optimum to move to lower depths as blocks get larger.")},
        {"cdm-default",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "CrystalDiskMark-style default set: sequential and random reads and writes, "
                "each at a deep and at a shallow queue")},
        {"cdm-nvme",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "CrystalDiskMark-style NVMe set: sequential and random tests with the deeper "
                "queues and extra threads an NVMe drive needs to reach its peak")},
        {"cdm-peak",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "CrystalDiskMark-style peak performance: sequential and random at deep queues")},
        {"cdm-real",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "CrystalDiskMark-style real world performance: sequential and random with one "
                "I/O at a time, as most desktop programs do")},
        {"database",
            QT_TRANSLATE_NOOP(
                "PresetDescriptions", "Workload pattern: Database (Iometer community pattern)")},
        {"dd-series",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "dd block-size series, as a RAM-SAN study ran it: sequential writes then "
                "sequential reads, one request at a time, the block size growing. Expect MB/s "
                "to climb with the block size while per-request latency dominates and to level "
                "off at the device's (or the link's) bandwidth; a copy with dd sees the same "
                "curve.")},
        {"file-server",
            QT_TRANSLATE_NOOP(
                "PresetDescriptions", "Workload pattern: File server (Iometer community pattern)")},
        {"io-profile-tree",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "io_profile's file-tree mode: every operation picks a random file of a tree, "
                "opens it, reads or writes at a random aligned place and closes it, so the "
                "figures include what the file system spends on lookup, open and close. Random "
                "writes then random reads over growing I/O sizes, meant to compare a direct "
                "(O_DIRECT) and a buffered tree. Expect the buffered curve above the direct one "
                "(the page cache serves reads and absorbs writes), files opened per second equal "
                "to the operations per second, and the device verdict to name the file system's "
                "own metadata I/O. io_profile made plain system calls: --engine sync does the "
                "same one I/O at a time; through io_uring, ext4 hands every buffered write to a "
                "kernel thread, so buffered writes there cost about what direct ones do.")},
        {"io-profile",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "I/O-size profile, as io_profile measures it: writes then reads over growing I/O "
                "sizes, a fixed number of I/Os per size, meant to compare a direct (O_DIRECT) "
                "and a buffered test file. Expect the direct curve to show the device's own cost "
                "per request and the buffered one the page cache's (far faster reads once "
                "cached, writes that complete in memory); where a curve bends, a layer of the "
                "stack (a cache size, a request-size limit) takes over.")},
        {"iometer-cycling",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "Iometer cycling example: Iometer's 'Cycle # Outstanding I/Os' test for an OLTP "
                "mix and then for sequential reads, with the workers sharing one target. Runs "
                "one step per depth for each spec, as Iometer would, and its CSV has Iometer's "
                "blocks (one per step). Expect IOPS to rise with depth until the device "
                "saturates.")},
        {"iometer",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "Iometer's shipped access specifications and \"All in one\", to pick from "
                "(--spec on the command line)")},
        {"qd-curve",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "Queue-depth curve: small random reads at growing queue depths. Expect IOPS to "
                "rise with depth while the device has parallelism to use (many-fold on NVMe, "
                "little on a single disk) and then flatten, while latency grows in proportion "
                "to the depth (Little's law).")},
        {"quick",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "Quick check: sequential and random transfers, read then write")},
        {"spectrum-iops",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "Block-size spectrum, as the iops tool measures it: random reads at a deep "
                "queue over a wide range of sizes. Expect IOPS flat while the device's "
                "per-request cost dominates (to about 128 KiB on a disk, thanks to read-ahead; "
                "to about 8 KiB on an SSD), then falling by half per doubling once bandwidth "
                "saturates (often from 64 KiB on SSDs), where MB/s levels off.")},
        {"rate-by-position",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "Rate by position (GNOME Disks' benchmark): 1 MiB sequential reads at a queue "
                "of 4 in 100 zones across each target, up to 32 MiB from the start of each zone "
                "(a smaller zone is read once, whole), drawn on the Series page as MB/s and "
                "latency against the position. A hard disk reads its outer tracks (the start) "
                "about twice as fast as its inner ones; an SSD should be level, and a dip marks "
                "a slow or remapped area. It only reads: on a raw device nothing is written and "
                "the whole drive is measured; a test file measures the part of the drive it "
                "lies on. It reads up to 3.4 GB: seconds on an SSD, about half a minute on a "
                "hard disk.")},
        {"ssd-steady-state",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "SNIA PTS-style IOPS until steady: 4 KiB random writes, then 4 KiB random "
                "reads, at a queue of 32, each in rounds of one minute until the last five "
                "rounds are steady by PTS's rule (their range within 20 % of their mean, their "
                "fitted line's excursion within 10 %), at most 25 rounds: up to 25 minutes per "
                "test. The results keep every round and say which formed the steady window, or "
                "that steady state was not reached. Expect a fresh drive's first write rounds "
                "high and falling as its fast cache fills and it starts to clean. First, as "
                "PTS does, the target is preconditioned: written whole twice by 128 KiB "
                "sequential writes, measured apart and in none of the tests' figures (on a 1 "
                "TB drive at 1 GB/s, about 35 minutes; the progress says the time left). A "
                "test file measures a corner of the drive; its raw device (data destroyed), "
                "the drive itself.")},
        {"storage-study",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "Sequential read, then write, with large requests at a deep queue: the pair "
                "that showed dd and copy dialogs wrong")},
        {"web-server",
            QT_TRANSLATE_NOOP(
                "PresetDescriptions", "Workload pattern: Web server (Iometer community pattern)")},
        {"workstation",
            QT_TRANSLATE_NOOP(
                "PresetDescriptions", "Workload pattern: Workstation (Iometer community pattern)")},
        {"write-saturation",
            QT_TRANSLATE_NOOP("PresetDescriptions",
                "Write saturation (SLC cache): 128 KiB sequential writes at a queue of 32 for "
                "10 minutes, the write rate judged for a cliff where it falls and stays down, "
                "reported with the bytes written before it (the fast cache's size), the rates "
                "before and after. A drive's cache can hold tens of GB: if it outlasts the run, "
                "there is no cliff; lengthen the run time. Its raw device (data destroyed) "
                "shows the drive's own cache; preparing a test file already writes the file "
                "once.")},
    };
    return descriptions;
}

// The embedded presets' spec names that are words, for translators. CrystalDiskMark's
// and Iometer's names are patterns below: their codes (SEQ1M Q8T1, 512 B) stay, their
// words are translated, as CrystalDiskMark's own German window does ("SEQ1M Q8T1 Lesen").
const std::map<std::string, const char *> &specNames()
{
    static const std::map<std::string, const char *> names = {
        {"Random read", QT_TRANSLATE_NOOP("PresetSpecs", "Random read")},
        {"Random write", QT_TRANSLATE_NOOP("PresetSpecs", "Random write")},
        {"Sequential read", QT_TRANSLATE_NOOP("PresetSpecs", "Sequential read")},
        {"Sequential write", QT_TRANSLATE_NOOP("PresetSpecs", "Sequential write")},
        {"4K random read", QT_TRANSLATE_NOOP("PresetSpecs", "4K random read")},
        {"64K sequential read", QT_TRANSLATE_NOOP("PresetSpecs", "64K sequential read")},
        {"OLTP 8K 70% read", QT_TRANSLATE_NOOP("PresetSpecs", "OLTP 8K 70% read")},
        {"Database", QT_TRANSLATE_NOOP("PresetSpecs", "Database")},
        {"File server", QT_TRANSLATE_NOOP("PresetSpecs", "File server")},
        {"Web server", QT_TRANSLATE_NOOP("PresetSpecs", "Web server")},
        {"Workstation", QT_TRANSLATE_NOOP("PresetSpecs", "Workstation")},
        {"All in one", QT_TRANSLATE_NOOP("PresetSpecs", "All in one")},
    };
    return names;
}

QString translateSpec(const char *text)
{
    return QCoreApplication::translate("PresetSpecs", text);
}

} // namespace

QString presetDescription(const std::string &preset, const std::string &shipped)
{
    const auto &table = shippedDescriptions();
    if (const auto d = table.find(preset); d != table.end() && shipped == d->second)
        return QCoreApplication::translate("PresetDescriptions", d->second);
    return toQString(shipped);
}

namespace {

// A translated name an .icf can carry: Iometer reads a spec name only in these characters
// (icf.cpp's kTokenChars), so "Zufälliges Lesen" would be cut at the "ä" and two names
// could become one. Umlauts are written as German does without them; a name still outside
// the set stays English.
std::optional<QString> icfSafeName(QString name)
{
    static const std::pair<QChar, const char *> kFolded[]
        = {{QChar(0xE4), "ae"}, {QChar(0xF6), "oe"}, {QChar(0xFC), "ue"}, {QChar(0xC4), "Ae"},
            {QChar(0xD6), "Oe"}, {QChar(0xDC), "Ue"}, {QChar(0xDF), "ss"}};
    for (const auto &[from, to] : kFolded)
        name.replace(from, QLatin1String(to));
    static const QString kTokenChars
        = QStringLiteral("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz1234567890"
                         "`~!@#$%^&*()-_=+[]{}\\:;\"'./<>? ");
    for (const QChar c : name)
        if (!kTokenChars.contains(c))
            return std::nullopt;
    return name;
}

} // namespace

std::string localizedSpecName(const std::string &name)
{
    QString local;
    if (const auto n = specNames().find(name); n != specNames().end()) {
        local = translateSpec(n->second);
    } else {
        // CrystalDiskMark: "SEQ1M Q8T1 Read", "RND4K Q32T16 Write", "SEQ512K Q16 Read".
        // Iometer's own shipped names ("4 KiB aligned; 50% Read; 100% random") stay as
        // Iometer names them, so results and .icf files line up with Iometer's.
        static const QRegularExpression cdm(
            QStringLiteral("^((?:SEQ|RND)\\S+ Q\\d+(?:T\\d+)?) (Read|Write)$"));
        const auto m = cdm.match(toQString(name));
        if (!m.hasMatch())
            return name;
        local = (m.captured(2) == QLatin1String("Read")
                ? translateSpec(QT_TRANSLATE_NOOP("PresetSpecs", "%1 Read"))
                : translateSpec(QT_TRANSLATE_NOOP("PresetSpecs", "%1 Write")))
                    .arg(m.captured(1));
    }
    const auto safe = icfSafeName(local);
    return safe ? toStdString(*safe) : name;
}

core::Profile localizedPreset(const core::Profile &preset, const std::string &name)
{
    core::Profile result = preset;
    if (!name.empty()) {
        // The word joiners that keep "I/O" whole where the menu's tooltip wraps are no
        // part of the profile's text (files and the CLI show it).
        QString description = presetDescription(name, preset.setup.description);
        description.remove(QChar(0x2060));
        result.setup.description = toStdString(description);
    }
    std::map<std::string, std::string> renamed;
    for (auto &spec : result.specs) {
        std::string local = localizedSpecName(spec.name);
        if (local != spec.name && !core::findSpec(result, local)) {
            renamed[spec.name] = local;
            spec.name = std::move(local);
        }
    }
    static const QRegularExpression shippedWorker(QStringLiteral("^Worker (\\d+)$"));
    for (auto &host : result.hosts)
        for (auto &worker : host.workers) {
            for (auto &assigned : worker.assignedSpecs)
                if (const auto r = renamed.find(assigned); r != renamed.end())
                    assigned = r->second;
            if (const auto m = shippedWorker.match(toQString(worker.name)); m.hasMatch())
                worker.name = defaultWorkerName(m.captured(1).toInt());
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
        {QStringLiteral("rate-by-position"), QT_TRANSLATE_NOOP("Presets", "Rate by position")},
        {QStringLiteral("ssd-steady-state"),
            QT_TRANSLATE_NOOP("Presets", "SNIA PTS IOPS (steady state)")},
        {QStringLiteral("write-saturation"),
            QT_TRANSLATE_NOOP("Presets", "Write saturation / SLC cache")},
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
        std::string shipped;
        if (auto profile = core::loadPreset(info.name, problems))
            shipped = profile->setup.description;
        info.description = presetDescription(info.name, shipped);
        const QString name = toQString(info.name);
        if (name.startsWith(QLatin1String("cdm-"))) {
            info.group = QCoreApplication::translate("Presets", "CrystalDiskMark");
            const QString variant = name.mid(4);
            info.title = QCoreApplication::translate("Presets", "CrystalDiskMark %1").arg(variant);
        } else if (name == QLatin1String("ssd-steady-state")
            || name == QLatin1String("write-saturation")
            || name == QLatin1String("rate-by-position")) {
            // What an SSD does over time, not in its first seconds (docs/ssd-testing.md).
            info.group = QCoreApplication::translate("Presets", "SSD over time");
            info.title = presetTitle(name);
        } else if (name == QLatin1String("iometer")) {
            info.group = QCoreApplication::translate("Presets", "Iometer");
            info.title = QCoreApplication::translate("Presets", "Iometer access specifications");
        } else {
            info.group
                = QString::fromStdString(shipped).startsWith(QLatin1String("Workload pattern"))
                ? QCoreApplication::translate("Presets", "Workload patterns")
                : QCoreApplication::translate("Presets", "General");
            info.title = presetTitle(name);
        }
        list.push_back(info);
    }
    const QStringList order = {QCoreApplication::translate("Presets", "General"),
        QCoreApplication::translate("Presets", "SSD over time"),
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
    // Named in the UI's language, as a preset applied names its specs (a German profile
    // holds "SEQ1M Q8T1 Lesen", and the library must not offer "SEQ1M Q8T1 Read" beside
    // it). Made again only when the language changes, which the application never does
    // while it runs (tests do).
    static std::vector<PresetSpec> library;
    static QString language;
    const QString now = QCoreApplication::translate("PresetSpecs", "%1 Read");
    if (library.empty() || now != language) {
        library.clear();
        language = now;
        std::set<std::string> seen;
        for (const auto &embedded : core::embeddedPresets()) {
            core::Problems problems;
            auto profile = core::loadPreset(embedded.name, problems);
            if (!profile)
                continue;
            for (auto &spec : localizedPreset(*profile).specs)
                if (seen.insert(spec.name).second)
                    library.push_back({spec, embedded.name});
        }
    }
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
        std::string candidate = defaultWorkerName(static_cast<int>(n));
        if (std::none_of(host.workers.begin(), host.workers.end(),
                [&](const core::Worker &w) { return w.name == candidate; }))
            return candidate;
    }
}

} // namespace ioprism::ui
