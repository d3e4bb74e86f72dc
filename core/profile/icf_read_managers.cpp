// SPDX-License-Identifier: GPL-3.0-or-later
// Iometer .icf import: the MANAGER LIST section (managers, workers, their default
// target settings, assigned access specs and targets), as Manager and Worker LoadConfig
// read it.
#include "core/profile/icf_parser.h"
#include "core/profile/names.h"

#include <algorithm>
#include <fmt/format.h>

namespace ioprism::core::icf_detail {

void Parser::parseManagerList(const Line &start)
{
    const Block b {"MANAGER LIST section", start.number, kw::endManagerList, "'END manager list"};
    OpenBlock open(*this, b);
    for (;;) {
        const Line &h = nextHeader(b);
        const std::string k = normalizeHeader(h.text);
        if (k == b.endKey)
            return;
        if (k == kw::manager)
            parseManager(h);
        else if (!isColumnComment(h))
            unknownKeyword(h, b);
    }
}

// "1,name": the ID, then the rest of the line (names may hold spaces and commas).
void Parser::parseIdAndName(
    const Line &v, std::uint32_t &id, std::string &name, std::string_view what)
{
    std::size_t i = 0;
    const std::string_view t = v.text;
    if (i < t.size() && (t[i] == '-' || t[i] == '+'))
        ++i;
    while (i < t.size() && isDigit(t[i]))
        ++i;
    if (i == 0 || (i == 1 && !isDigit(t[0]))) {
        error(v.number, fmt::format("expected \"{} ID,name\", got {}", what, quote(t)));
        return;
    }
    if (const auto n = number32(v, t.substr(0, i), kIntMax, fmt::format("{} ID", what)))
        id = *n;
    std::string_view rest = trim(t.substr(i));
    if (!rest.empty() && rest.front() == ',')
        rest = trim(rest.substr(1));
    name = std::string(rest);
}

void Parser::parseManager(const Line &h)
{
    Host host;
    const Block b {"manager", h.number, kw::endManager, "'End manager"};
    OpenBlock open(*this, b);
    if (const Line *v = value(h))
        parseIdAndName(*v, host.id, host.name, "manager");
    for (;;) {
        const Line &hh = nextHeader(b);
        const std::string k = normalizeHeader(hh.text);
        if (k == b.endKey)
            break;
        if (k == kw::networkAddress) {
            // Iometer writes an empty value line for the local manager; editors that
            // drop blank lines lose it, so a missing line means "local" too.
            if (!atEnd() && !peek().header && !isVersionLine(peek()))
                host.networkAddress = std::string(take().text);
            else
                host.networkAddress.clear();
        } else if (k == kw::worker) {
            parseWorker(hh, host);
        } else if (!isColumnComment(hh)) {
            unknownKeyword(hh, b);
        }
    }
    m_profile.hosts.push_back(std::move(host));
}

void Parser::parseWorker(const Line &h, Host &host)
{
    Worker w;
    // Before 1.1.0 Iometer had no data pattern setting and wrote one random buffer
    // again and again: pseudo-random. A file that names a pattern overrides this.
    w.dataPattern.kind = DataPatternKind::PseudoRandom;
    // An empty worker ("'Worker" directly followed by a ' line) is legal in Iometer.
    if (!atEnd() && !peek().header && !isVersionLine(peek()))
        w.name = std::string(take().text);

    const Block b {"worker", h.number, kw::endWorker, "'End worker"};
    OpenBlock open(*this, b);
    bool typed = false;
    bool network = false;
    std::vector<std::pair<std::size_t, std::string>> assigned;
    for (;;) {
        const Line &hh = nextHeader(b);
        const std::string k = normalizeHeader(hh.text);
        if (k == b.endKey)
            break;
        if (k == kw::workerType) {
            const Line *v = value(hh);
            if (!v)
                continue;
            const auto t = splitValues(v->text);
            if (t.size() == 1 && equalsNoCase(t[0], "DISK")) {
                network = false;
            } else if (!t.empty() && t.size() <= 2 && equalsNoCase(t[0], "NETWORK")
                && (t.size() == 1 || equalsNoCase(t[1], "TCP") || equalsNoCase(t[1], "VI"))) {
                network = true;
                if (t.size() == 2 && equalsNoCase(t[1], "VI"))
                    warning(v->number,
                        "VI network workers are not supported; the worker "
                        "is kept as a TCP network worker");
            } else {
                error(v->number,
                    fmt::format("worker type: {} is not DISK, NETWORK,TCP or "
                                "NETWORK,VI",
                        quote(v->text)));
                continue;
            }
            w.type = network ? WorkerType::Network : WorkerType::Disk;
            typed = true;
        } else if (k == kw::defaults) {
            parseWorkerDefaults(hh, w, network);
        } else if (k == kw::assigned) {
            parseAssigned(hh, w);
        } else if (k == kw::targets) {
            parseTargets(hh, w, network);
        } else if (!isColumnComment(hh)) {
            unknownKeyword(hh, b);
        }
    }
    if (!typed)
        error(h.number, fmt::format("worker {} has no 'Worker type line", quote(w.name)));

    // Iometer has one region per worker; each target gets it.
    for (auto &t : w.targets) {
        t.region = w.defaultRegion;
        if (t.kind == TargetKind::TestFile && w.defaultRegion.sizeBytes > 0)
            t.testFileSizeBytes = w.defaultRegion.offsetBytes + w.defaultRegion.sizeBytes;
    }
    for (std::size_t i = 0; i < w.targets.size(); ++i) {
        const Target &t = w.targets[i];
        if (t.kind == TargetKind::TestFile && w.defaultRegion.sizeBytes == 0)
            warning(m_targetLines[i],
                fmt::format("disk maximum size 0: Iometer would grow its test file on "
                            "{} to fill the volume; IOPrism uses a {} GiB test file "
                            "(set testFileSizeBytes to change it)",
                    quote(t.path), t.testFileSizeBytes / kGiB));
    }
    m_targetLines.clear();
    host.workers.push_back(std::move(w));
}

void Parser::parseWorkerDefaults(const Line &h, Worker &w, bool network)
{
    const Block b {"default target settings", h.number, kw::endDefaults,
        "'End default target settings for worker"};
    OpenBlock open(*this, b);
    for (;;) {
        const Line &hh = nextHeader(b);
        const std::string k = normalizeHeader(hh.text);
        if (k == b.endKey)
            return;
        if (k == kw::queueNew || k == kw::queueOld) {
            parseQueueSettings(hh, w, k == kw::queueNew);
        } else if (k == kw::diskNew || k == kw::diskOld || k == kw::diskRandom) {
            parseDiskSettings(hh, k, w, network);
        } else if (k == kw::localInterface || k == kw::viOutstanding) {
            if (const Line *v = value(hh))
                warning(v->number,
                    fmt::format("{} {} cannot be held in an IOPrism profile; dropped",
                        quote(hh.text), quote(v->text)));
        } else if (!isColumnComment(hh)) {
            unknownKeyword(hh, b);
        }
    }
}

// 'Number of outstanding IOs,... (with the fixed seed in the newer form, `withSeed`).
void Parser::parseQueueSettings(const Line &hh, Worker &w, bool withSeed)
{
    const Line *v = value(hh);
    if (!v)
        return;
    const auto t = splitValues(v->text);
    if (!expectCount(*v, t, withSeed ? 5 : 3,
            withSeed ? "outstanding IOs, test connection rate, transactions "
                       "per connection, use fixed seed, fixed seed value"
                     : "outstanding IOs, test connection rate, "
                       "transactions per connection"))
        return;
    if (const auto n = number32(*v, t[0], kIntMax, "outstanding IOs"))
        w.outstandingIos = *n;
    if (const auto e = enabled(*v, t[1], "test connection rate"))
        w.testConnectionRate = *e;
    if (const auto n = number32(*v, t[2], kIntMax, "transactions per connection"))
        w.transactionsPerConnection = *n;
    if (withSeed) {
        const auto use = enabled(*v, t[3], "use fixed seed");
        const auto seed = number(*v, t[4], kU64Max, "fixed seed value");
        if (use && seed) {
            if (*use)
                w.seed = *seed;
            else
                w.seed.reset();
        }
    }
}

// 'Disk maximum size,starting sector[,data pattern | ,use random data] (keyword `k`).
void Parser::parseDiskSettings(const Line &hh, const std::string &k, Worker &w, bool network)
{
    const Line *v = value(hh);
    if (!v)
        return;
    if (network) {
        error(hh.number, "a NETWORK worker cannot have disk settings");
        return;
    }
    const bool withPattern = k != kw::diskOld;
    const auto t = splitValues(v->text);
    if (!expectCount(*v, t, withPattern ? 3 : 2,
            k == kw::diskNew          ? "disk maximum size, starting sector, data "
                                        "pattern"
                : k == kw::diskRandom ? "disk maximum size, starting sector, use "
                                        "random data"
                                      : "disk maximum size, starting sector"))
        return;
    const auto size = number(*v, t[0], kMaxSectors, "disk maximum size (sectors)");
    const auto start = number(*v, t[1], kMaxSectors, "starting sector");
    if (size && start) {
        if (*size > kMaxSectors - *start) {
            error(v->number, "the disk region ends beyond 2^64 bytes");
        } else {
            w.defaultRegion.sizeBytes = *size * kIcfSectorBytes;
            w.defaultRegion.offsetBytes = *start * kIcfSectorBytes;
        }
    }
    if (k == kw::diskNew) {
        if (const auto p = number(*v, t[2], 2, "data pattern")) {
            static constexpr std::array<DataPatternKind, 3> kinds
                = {DataPatternKind::RepeatingBytes, DataPatternKind::PseudoRandom,
                    DataPatternKind::FullRandom};
            w.dataPattern.kind = kinds[*p];
        }
    } else if (k == kw::diskRandom) {
        if (const auto p = number(*v, t[2], 1, "use random data"))
            w.dataPattern.kind
                = *p == 1 ? DataPatternKind::FullRandom : DataPatternKind::PseudoRandom;
    }
}

void Parser::parseAssigned(const Line &h, Worker &w)
{
    const Block b {
        "assigned access specs", h.number, kw::endAssigned, "'End assigned access specs"};
    OpenBlock open(*this, b);
    for (;;) {
        skipBlank();
        if (atEnd())
            stopUnclosed(b, nullptr);
        const Line &l = peek();
        if (l.header || isVersionLine(l)) {
            (void)nextHeader(b); // reports an unclosed block, else consumes the line
            if (normalizeHeader(l.text) == b.endKey)
                return;
            if (!isColumnComment(l))
                error(l.number,
                    fmt::format("unexpected {} in the assigned access specs; "
                                "expected a spec name",
                        quote(l.text)));
            continue;
        }
        ++m_pos;
        // Any case of "idle" is Iometer's built-in Idle (names are found without case).
        w.assignedSpecs.emplace_back(equalsNoCase(l.text, kIdleSpecName) ? kIdleSpecName : l.text);
        m_assignedRefs.emplace_back(l.number, w.assignedSpecs.back());
    }
}

void Parser::parseTargets(const Line &h, Worker &w, bool networkWorker)
{
    const Block b {"target assignments", h.number, kw::endTargets, "'End target assignments"};
    OpenBlock open(*this, b);
    for (;;) {
        const Line &hh = nextHeader(b);
        const std::string k = normalizeHeader(hh.text);
        if (k == b.endKey)
            return;
        if (k == kw::target)
            parseTarget(hh, w, networkWorker);
        else if (!isColumnComment(hh))
            unknownKeyword(hh, b);
    }
}

void Parser::parseTarget(const Line &h, Worker &w, bool networkWorker)
{
    const Block b {"target", h.number, kw::endTarget, "'End target"};
    OpenBlock open(*this, b);
    std::string name;
    std::size_t nameLine = h.number;
    if (const Line *v = value(h)) {
        name = std::string(v->text);
        nameLine = v->number;
    }
    enum class Type { Unknown, Disk, Network };
    Type type = Type::Unknown;
    bool typeError = false;
    for (;;) {
        const Line &hh = nextHeader(b);
        const std::string k = normalizeHeader(hh.text);
        if (k == b.endKey)
            break;
        if (k == kw::targetType) {
            const Line *v = value(hh);
            if (!v)
                continue;
            const auto t = splitValues(v->text);
            if (t.size() == 1 && equalsNoCase(t[0], "DISK")) {
                type = Type::Disk;
            } else if (t.size() == 2 && equalsNoCase(t[0], "NETWORK")
                && (equalsNoCase(t[1], "TCP") || equalsNoCase(t[1], "VI"))) {
                type = Type::Network;
            } else {
                error(v->number,
                    fmt::format("target type: {} is not DISK, NETWORK,TCP or "
                                "NETWORK,VI",
                        quote(v->text)));
                typeError = true;
            }
        } else if (k == kw::targetManager) {
            (void)value(hh); // the manager owning a network target; not held
        } else if (!isColumnComment(hh)) {
            unknownKeyword(hh, b);
        }
    }
    if (typeError)
        return;
    if (type == Type::Unknown) {
        error(h.number, fmt::format("target {} has no 'Target type line", quote(name)));
        return;
    }
    if (type == Type::Network) {
        if (!networkWorker)
            error(h.number,
                fmt::format("a DISK worker cannot have the network target {}", quote(name)));
        else
            warning(nameLine,
                fmt::format("network target {} cannot be held in an IOPrism "
                            "profile; dropped",
                    quote(name)));
        return;
    }
    if (networkWorker) {
        error(
            h.number, fmt::format("a NETWORK worker cannot have the disk target {}", quote(name)));
        return;
    }
    Target t;
    t.path = name;
    t.kind = icfTargetKind(name);
    w.targets.push_back(std::move(t));
    m_targetLines.push_back(nameLine);
}

// Old specs are assigned to every worker: they load with "assign to all" and
// Iometer then calls AssignDefaultAccessSpecs (AccessSpecList::LoadConfig). A worker
// the file gives its own list keeps it.
void Parser::assignOldFormatSpecs()
{
    for (auto &host : m_profile.hosts)
        for (auto &w : host.workers)
            if (w.assignedSpecs.empty())
                w.assignedSpecs = m_oldFormatSpecs;
}

// Iometer looks assigned specs up by name once the whole file is read.
void Parser::checkAssignedSpecs()
{
    for (const auto &[line, name] : m_assignedRefs) {
        if (findSpec(m_profile, name) != nullptr || isIdleSpec(m_profile, name))
            continue; // "Idle": Iometer's built-in spec, the worker idles
        warning(line,
            fmt::format("assigned access specification {} is not defined in "
                        "this file",
                quote(name)));
    }
}

} // namespace ioprism::core::icf_detail
