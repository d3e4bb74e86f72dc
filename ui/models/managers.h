// SPDX-License-Identifier: GPL-3.0-or-later
// The managers on other hosts the window drives (issue 28): which of the profile's hosts
// (Iometer's managers, core::Host) is bound to a reached agent, and the run they make.
//
// hosts[0] always runs in this process; another host runs when it is bound to an agent
// (Add manager, or Bind to agent for an .icf's manager), else it stays "not run here".
// Start asks this object for the request to run (the profile's hosts cut to this one and
// the bound ones, in profile order) and the session factory it gives the RunController
// makes a core::MultiHostRunSession over them: the controller never knows where runs run.
// GUI thread only; the connections are shared with the runs (a run keeps its own until
// it ends, even when its manager is removed meanwhile).
#pragma once

#include "core/profile/problem.h"
#include "core/profile/profile.h"
#include "core/run/run_session.h"
#include "ui/platform_services.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace ioprism::ui {

class Managers : public QObject
{
    Q_OBJECT
public:
    explicit Managers(QObject *parent = nullptr);

    // Binds the profile's host `hostId` to `manager` (replacing an earlier binding).
    void bind(std::uint32_t hostId, ReachedManager manager);
    void unbind(std::uint32_t hostId);
    void clear();
    // The manager host `hostId` is bound to; null when it is not.
    const ReachedManager *boundTo(std::uint32_t hostId) const;
    std::vector<std::uint32_t> boundHostIds() const;
    // True when a host of `profile` other than the first is bound.
    bool anyBound(const core::Profile &profile) const;

    // Why `profile` cannot run on its managers ("" when it can): a bound manager whose
    // connection has ended, or a problem of a bound host's (validated as run: errors
    // count, none is "not run here"; its targets are on its host, not looked for here).
    QString refusal(const core::Profile &profile) const;
    // The request to run: with managers bound, the profile's hosts are this host and the
    // bound ones (in profile order), and the next session the factory makes runs on them.
    core::RunRequest prepare(core::RunRequest request);
    // Sessions for the RunController: on the managers prepare() chose, else `local`.
    core::RunSessionFactory sessionFactory(
        core::RunSessionFactory local, core::LocalRunHooks hooks);

    // One line naming a manager ("db2: Linux 6.1.0, 8 CPUs, IOPrism 0.4.0"), and the
    // tooltip's lines: address, clock offset, fingerprint, inventory.
    static QString summary(const ManagerInfo &info);
    static QString details(const ManagerInfo &info);

signals:
    void changed();

private:
    struct RunHost {
        std::string name;
        ReachedManager manager;
    };

    std::map<std::uint32_t, ReachedManager> m_bound;
    std::vector<RunHost> m_nextRun; // what prepare() chose for the next session
};

// `services` whose run sessions are `managers`' (MainWindow gives them to its
// RunController): on the managers bound when Start prepared the run, else as before.
PlatformServices servicesWithManagers(PlatformServices services, Managers *managers);

// The host a new manager gets in `profile`: a new id, named after the manager, with a copy
// of the first host's workers (the same workload on every manager: shared storage).
core::Host newManagerHost(const core::Profile &profile, const ManagerInfo &info);

} // namespace ioprism::ui
