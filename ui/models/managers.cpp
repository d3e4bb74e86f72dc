// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/managers.h"

#include "core/profile/validation.h"
#include "core/run/multi_host_session.h"
#include "ui/format.h"

#include <QLocale>
#include <QStringList>
#include <QSysInfo>

#include <algorithm>

namespace ioprism::ui {

Managers::Managers(QObject *parent)
    : QObject(parent)
{ }

void Managers::bind(std::uint32_t hostId, ReachedManager manager)
{
    m_bound[hostId] = std::move(manager);
    emit changed();
}

void Managers::unbind(std::uint32_t hostId)
{
    if (m_bound.erase(hostId) > 0)
        emit changed();
}

void Managers::clear()
{
    if (m_bound.empty())
        return;
    m_bound.clear();
    emit changed();
}

const ReachedManager *Managers::boundTo(std::uint32_t hostId) const
{
    const auto it = m_bound.find(hostId);
    return it == m_bound.end() ? nullptr : &it->second;
}

std::vector<std::uint32_t> Managers::boundHostIds() const
{
    std::vector<std::uint32_t> ids;
    for (const auto &[id, manager] : m_bound)
        ids.push_back(id);
    return ids;
}

bool Managers::anyBound(const core::Profile &profile) const
{
    return std::any_of(
        profile.hosts.begin() + std::min<std::ptrdiff_t>(1, std::ssize(profile.hosts)),
        profile.hosts.end(), [this](const core::Host &h) { return boundTo(h.id) != nullptr; });
}

namespace {
// The profile a run on the managers runs: this host, then the bound ones.
core::Profile runProfile(const core::Profile &profile, const Managers &managers)
{
    core::Profile run = profile;
    run.hosts.clear();
    for (std::size_t h = 0; h < profile.hosts.size(); ++h)
        if (h == 0 || managers.boundTo(profile.hosts[h].id))
            run.hosts.push_back(profile.hosts[h]);
    return run;
}
} // namespace

QString Managers::refusal(const core::Profile &profile) const
{
    if (!anyBound(profile))
        return {};
    for (std::size_t h = 1; h < profile.hosts.size(); ++h)
        if (const auto *m = boundTo(profile.hosts[h].id); m && !m->connection->isOpen()) {
            const std::string why = m->connection->closedReason();
            return tr("Manager %1 (%2) is not connected%3: remove it and add it again.")
                .arg(toQString(m->info.host), toQString(m->info.address),
                    why.empty() ? QString() : QStringLiteral(" (%1)").arg(toQString(why)));
        }
    // As `ioprism-cli run --manager` checks it: every bound host runs, on its own host.
    const core::Profile run = runProfile(profile, *this);
    for (const auto &p :
        core::validateProfile(run, {.targetsHere = false, .everyHostRuns = true})) {
        if (p.severity != core::Severity::Error || !p.path.starts_with("hosts[")
            || p.path.starts_with("hosts[0]"))
            continue; // this host's problems are the document's (checked before)
        return tr("The profile cannot run on its managers: %1").arg(problemText(p, run));
    }
    return {};
}

core::RunRequest Managers::prepare(core::RunRequest request)
{
    m_nextRun.clear();
    if (!anyBound(request.profile))
        return request;
    request.profile = runProfile(request.profile, *this);
    for (std::size_t h = 1; h < request.profile.hosts.size(); ++h) {
        const core::Host &host = request.profile.hosts[h];
        m_nextRun.push_back(
            {host.name.empty() ? boundTo(host.id)->info.host : host.name, *boundTo(host.id)});
    }
    return request;
}

core::RunSessionFactory Managers::sessionFactory(
    core::RunSessionFactory local, core::LocalRunHooks hooks)
{
    return [this, local = std::move(local), hooks = std::move(hooks)](
               core::RunSink &sink) -> std::unique_ptr<core::RunSession> {
        std::vector<RunHost> run;
        run.swap(m_nextRun); // one session per prepare()
        if (run.empty())
            return local(sink);
        std::vector<core::HostSessionMaker> hosts;
        // This host by its name, as the topology names it ("" would be "host 1").
        hosts.push_back(core::localHost(toStdString(QSysInfo::machineHostName()), hooks));
        for (auto &h : run) {
            // The maker holds the connection: the run's session uses it until it ends.
            auto connection = h.manager.connection;
            hosts.push_back({h.name, h.manager.info.address,
                [connection](core::RunSink &s, core::StepBarrier &barrier, std::size_t party) {
                    return core::remoteRunSessions(*connection)(s, barrier, party);
                }});
        }
        return std::make_unique<core::MultiHostRunSession>(std::move(hosts), sink);
    };
}

QString Managers::summary(const ManagerInfo &info)
{
    return tr("%1: %2, %n CPUs, IOPrism %3", nullptr, int(info.cpus))
        .arg(toQString(info.host), toQString(info.os), toQString(info.version));
}

QString Managers::details(const ManagerInfo &info)
{
    QStringList lines;
    lines << tr("Agent at %1; engines: %2")
                 .arg(toQString(info.address),
                     toQString(info.engines.empty() ? std::string("-") : [&] {
                         std::string s;
                         for (const auto &e : info.engines)
                             s += (s.empty() ? "" : ", ") + e;
                         return s;
                     }()));
    if (info.clock)
        lines << tr(
            "Clock offset: %1 ms ± %2 ms (%n round trips)", nullptr, int(info.clock->samples))
                     .arg(QLocale().toString(double(info.clock->offset.count()) / 1e6, 'f', 3),
                         QLocale().toString(double(info.clock->uncertainty.count()) / 1e6, 'f', 3));
    lines << (info.fingerprint.empty() ? tr("Plaintext connection (no certificate)")
                                       : tr("Certificate %1").arg(toQString(info.fingerprint)));
    if (info.inventory) {
        for (const auto &d : info.inventory->devices)
            lines << tr("Device %1 %2 (%3)%4")
                         .arg(toQString(d.path), toQString(d.model), exactSizeText(d.sizeBytes),
                             d.inUse.empty() ? QString()
                                             : QStringLiteral(": ") + toQString(d.inUse));
        for (const auto &m : info.inventory->mounts)
            lines << tr("Mount %1 (%2), %3 free")
                         .arg(toQString(m.mountPoint), toQString(m.fsType),
                             exactSizeText(m.freeBytes));
        QStringList roots;
        for (const auto &r : info.inventory->roots)
            roots << toQString(r);
        lines << tr("Targets allowed under: %1")
                     .arg(roots.isEmpty() ? tr("nothing") : roots.join(QStringLiteral(", ")));
    }
    return lines.join(QLatin1Char('\n'));
}

PlatformServices servicesWithManagers(PlatformServices services, Managers *managers)
{
    const core::LocalRunHooks hooks = localRunHooks(services);
    core::RunSessionFactory local
        = services.makeRunSession ? services.makeRunSession : core::localRunSessions(hooks);
    services.makeRunSession = managers->sessionFactory(std::move(local), hooks);
    return services;
}

core::Host newManagerHost(const core::Profile &profile, const ManagerInfo &info)
{
    core::Host host;
    std::uint32_t id = 1;
    for (const auto &h : profile.hosts)
        id = std::max(id, h.id + 1);
    host.id = id;
    host.name = info.host.empty() ? info.address : info.host;
    host.networkAddress = info.address;
    if (!profile.hosts.empty())
        host.workers = profile.hosts.front().workers;
    return host;
}

} // namespace ioprism::ui
