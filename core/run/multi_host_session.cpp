// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/multi_host_session.h"

#include "core/run/session_codec.h"

#include <algorithm>
#include <fmt/format.h>
#include <utility>

namespace ioprism::core {

// The events of one host, as values (the session codec's), to the run that merges them.
struct MultiHostRunSession::HostSink final : EventSink {
    HostSink(MultiHostRunSession &owner, std::size_t host)
        : owner(owner)
        , host(host)
    { }
    void onEvent(SessionEvent event) override { owner.onHostEvent(host, std::move(event)); }
    MultiHostRunSession &owner;
    const std::size_t host;
};

HostSessionMaker localHost(std::string name, LocalRunHooks hooks)
{
    HostSessionMaker maker;
    maker.name = std::move(name);
    maker.make = [hooks = std::move(hooks)](RunSink &sink, StepBarrier &barrier,
                     std::size_t party) -> std::unique_ptr<RunSession> {
        LocalRunHooks gated = hooks;
        gated.describe.stepGate
            = [&barrier, party](std::size_t step) { return barrier.arriveAndWait(party, step); };
        gated.describe.amountDone
            = [&barrier, party](std::size_t step) { barrier.stonewall(party, step); };
        return std::make_unique<LocalRunSession>(std::move(gated), sink);
    };
    return maker;
}

std::optional<std::vector<RunRequest>> requestsPerHost(
    const RunRequest &request, std::size_t hosts, std::string &refusal)
{
    const std::size_t profileHosts = request.profile.hosts.size();
    if (profileHosts != hosts && profileHosts != 1) {
        refusal = fmt::format("the profile has {} hosts for {} managers: give it one host per "
                              "manager, or one host that every manager runs",
            profileHosts, hosts);
        return std::nullopt;
    }
    // What runs on one host only, not built across hosts yet: said, never half run.
    // Preconditioning: each host would write its own targets for its own time while the
    // others wait at the first step's gate. Steady state: each host would judge its own
    // rounds and end a step at its own round, none on the figures of all together.
    const TestSetup &setup = request.profile.setup;
    for (const auto &[used, what] :
        {std::pair {setup.precondition.has_value(),
             "preconditioning (setup.precondition) runs on one host: precondition each of the "
             "{} managers' targets in a run of its own first"},
            std::pair {setup.steadyState.has_value(),
                "a steady-state stop rule (setup.steadyState) runs on one host: {} managers "
                "would each judge only their own rounds; run it on one manager, or give the "
                "steps a run time"}})
        if (used && hosts > 1) {
            refusal = fmt::format(fmt::runtime(what), hosts);
            return std::nullopt;
        }
    std::vector<RunRequest> requests(hosts, request);
    if (profileHosts == hosts && hosts > 1)
        for (std::size_t h = 0; h < hosts; ++h)
            requests[h].profile.hosts = {request.profile.hosts[h]};
    return requests;
}

MultiHostRunSession::MultiHostRunSession(
    std::vector<HostSessionMaker> hosts, RunSink &sink, std::chrono::milliseconds lead)
    : m_sink(sink)
    , m_makers(std::move(hosts))
    , m_barrier(m_makers.size(), lead)
    , m_hosts(m_makers.size())
{
    for (std::size_t h = 0; h < m_makers.size(); ++h) {
        m_hostSinks.push_back(std::make_unique<HostSink>(*this, h));
        m_sessions.push_back(m_makers[h].make(*m_hostSinks.back(), m_barrier, h));
    }
    // Stonewalling: the first host to move a step's amount has ended that step; every
    // other host's ends now (each keeps the bytes it moved: HostShare::endedByAmount
    // says which host it was).
    m_barrier.setOnStonewall([this](std::size_t party, std::size_t step) {
        for (std::size_t h = 0; h < m_sessions.size(); ++h)
            if (h != party)
                m_sessions[h]->endStep(step);
    });
}

void MultiHostRunSession::endStep(std::size_t step)
{
    for (auto &session : m_sessions)
        session->endStep(step);
}

MultiHostRunSession::~MultiHostRunSession()
{
    stopNow();
    wait();
    m_sessions.clear(); // before the sinks they report to
}

void MultiHostRunSession::start(RunRequest request)
{
    if (m_started.exchange(true))
        return; // one run per session
    std::string refusal;
    auto requests = requestsPerHost(request, m_sessions.size(), refusal);
    if (!requests || m_sessions.empty()) {
        if (m_sessions.empty())
            refusal = "no manager to run on";
        // Reported on a thread of the session's, as every report is.
        m_refusal = std::thread([this, runId = request.settings.runId, refusal] {
            {
                std::lock_guard lock(m_mutex);
                m_finished = true;
            }
            m_sink.onFinished(
                failedRunResult(runId, "share the profile among the managers", refusal));
            m_finishedChanged.notify_all();
        });
        return;
    }
    {
        std::lock_guard lock(m_mutex);
        m_runId = request.settings.runId;
        m_verdictPolicy = request.settings.verdict;
        for (std::size_t h = 0; h < m_makers.size(); ++h) {
            std::string name = m_makers[h].name;
            if (name.empty() && request.profile.hosts.size() == m_makers.size())
                name = request.profile.hosts[h].name;
            if (name.empty())
                name = m_makers[h].agent;
            if (name.empty())
                name = "host " + std::to_string(h + 1);
            m_names.push_back(std::move(name));
        }
    }
    // The hosts that prepare first start alone; the others when their plans are in.
    const bool first = std::any_of(m_makers.begin(), m_makers.end(),
        [](const HostSessionMaker &m) { return m.preparesFirst; });
    std::vector<std::size_t> now;
    {
        std::lock_guard lock(m_mutex);
        m_deferred.resize(m_sessions.size());
        for (std::size_t h = 0; h < m_sessions.size(); ++h)
            if (first && !m_makers[h].preparesFirst)
                m_deferred[h] = std::move((*requests)[h]);
            else
                now.push_back(h);
    }
    // Not under the lock: a session may report (even finish) before start() returns.
    for (const std::size_t h : now)
        m_sessions[h]->start(std::move((*requests)[h]));
    if (m_stopNowRequested)
        stopHosts(true);
    else if (m_stopRequested)
        stopHosts(false);
}

void MultiHostRunSession::stopHosts(bool now)
{
    m_barrier.cancel();
    for (auto &session : m_sessions)
        if (now)
            session->stopNow();
        else
            session->stop();
}

void MultiHostRunSession::stop()
{
    m_stopRequested = true;
    stopHosts(false);
}

void MultiHostRunSession::stopNow()
{
    m_stopRequested = m_stopNowRequested = true;
    stopHosts(true);
}

void MultiHostRunSession::wait()
{
    if (m_refusal.joinable() && m_refusal.get_id() != std::this_thread::get_id())
        m_refusal.join();
    for (auto &session : m_sessions)
        session->wait();
    if (!m_started)
        return;
    // A remote session's wait() may return once its last report is handed over: the
    // merged report is the one waited for.
    std::unique_lock lock(m_mutex);
    m_finishedChanged.wait(lock, [this] { return m_finished; });
}

namespace {

// A phase's order within its step, and across steps: the key only grows as a run goes.
int phaseKey(RunPhase phase, std::size_t step)
{
    int order = 0;
    switch (phase) {
    case RunPhase::Preparing:
        order = 0;
        break;
    case RunPhase::Preconditioning: // before the first step (a run of one session only)
        order = 1;
        break;
    case RunPhase::Pausing: // before a test's first step
        order = 2;
        break;
    case RunPhase::RampUp:
        order = 3;
        break;
    case RunPhase::Measuring:
        order = 4;
        break;
    case RunPhase::Stopping:
        order = 5;
        break;
    case RunPhase::Idle:
    case RunPhase::Done:
        return -1;
    }
    return int(step) * 6 + order;
}

} // namespace

void MultiHostRunSession::onHostEvent(std::size_t host, SessionEvent event)
{
    std::unique_lock lock(m_mutex);
    if (m_finished || host >= m_hosts.size())
        return;
    HostState &state = m_hosts[host];
    const std::string &name = m_names[host];
    std::vector<std::pair<std::size_t, RunRequest>> deferred;
    const auto reached = [&state](std::size_t step) {
        state.latestStep = std::max(state.latestStep.value_or(0), step);
    };
    std::visit(
        [&](auto &e) {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, StartedEvent>) {
                state.started = true;
                if (!m_startedSaid) {
                    m_startedSaid = true;
                    m_sink.onStarted(e.engine);
                }
            } else if constexpr (std::is_same_v<E, PhaseEvent>) {
                const int key = phaseKey(e.phase, e.step);
                if (key < 0)
                    return;
                if (e.phase != RunPhase::Preparing && e.phase != RunPhase::Preconditioning
                    && e.phase != RunPhase::Pausing)
                    reached(e.step);
                if (key > m_lastPhaseKey) {
                    m_lastPhaseKey = key;
                    m_sink.onPhase(e.phase, e.step, e.stepName);
                }
            } else if constexpr (std::is_same_v<E, PrepareProgressEvent>) {
                m_sink.onPrepareProgress(name + ":" + e.path, e.done, e.total, e.work);
            } else if constexpr (std::is_same_v<E, PlanEvent>) {
                state.plan = std::move(e.plan);
                if (m_makers[host].preparesFirst)
                    deferred = takeDeferred();
            } else if constexpr (std::is_same_v<E, IntervalEvent>) {
                reached(e.sample.step);
                state.intervals[e.sample.step].push_back(std::move(e.sample));
            } else if constexpr (std::is_same_v<E, StepResultEvent>) {
                reached(e.step.step);
                const std::size_t step = e.step.step;
                state.steps.insert_or_assign(
                    step, std::make_pair(std::move(e.step), std::move(e.planned)));
            } else if constexpr (std::is_same_v<E, NoticeEvent>) {
                m_sink.onNotice(name + ": " + e.text);
            } else if constexpr (std::is_same_v<E, SteadyStateEvent>) {
                // Steady state is refused on several hosts: one host's rounds are the run's.
                if (m_hosts.size() == 1)
                    m_sink.onSteadyState(e.step, e.record);
            } else if constexpr (std::is_same_v<E, FinishedEvent>) {
                onHostFinished(host, std::move(e.result), lock);
            }
        },
        event);
    if (!deferred.empty()) {
        // Their run starts now that the shared targets are prepared (outside the lock:
        // a session may report before start() returns).
        if (lock.owns_lock())
            lock.unlock();
        for (auto &[h, request] : deferred)
            m_sessions[h]->start(std::move(request));
    }
    if (!lock.owns_lock())
        lock.lock();
    if (m_finished)
        return;
    if (mergeWhatIsReady()) {
        lock.unlock();
        stopHosts(m_stopNowRequested);
        lock.lock();
        if (m_finished)
            return;
    }
    if (std::all_of(m_hosts.begin(), m_hosts.end(), [](const HostState &s) { return s.result; }))
        finish();
}

void MultiHostRunSession::onHostFinished(
    std::size_t host, RunResult &&result, std::unique_lock<std::mutex> &lock)
{
    HostState &state = m_hosts[host];
    const bool failed = result.error.has_value();
    // The hosts waiting for this one's plan will not start: each ends, empty, here.
    if (m_makers[host].preparesFirst)
        for (std::size_t h = 0; h < m_deferred.size(); ++h)
            if (m_deferred[h]) {
                m_hosts[h].result = RunResult {};
                m_hosts[h].result->runId = m_runId;
                m_deferred[h].reset();
                m_barrier.leave(h);
            }
    // Stopped on its own (on the agent's side), not by us: the others must not go on.
    const bool stoppedAlone = result.stoppedByUser && !m_stopRequested && !m_firstFailure;
    state.result = std::move(result);
    // Cancelled first: leaving could release the others into a step without this host.
    if (failed || stoppedAlone)
        fault(host, lock);
    m_barrier.leave(host); // it passes no more gates
}

// The run cannot go on without this host: no step starts any more, and every other host
// stops. Called with the lock held; gives it up to stop the hosts (a session may report
// while it is being stopped).
void MultiHostRunSession::fault(std::size_t host, std::unique_lock<std::mutex> &lock)
{
    if (m_firstFailure)
        return;
    m_firstFailure = host;
    lock.unlock();
    stopHosts(m_stopNowRequested);
}

std::vector<std::pair<std::size_t, RunRequest>> MultiHostRunSession::takeDeferred()
{
    std::vector<std::pair<std::size_t, RunRequest>> out;
    if (m_stopRequested || m_firstFailure)
        return out;
    for (std::size_t h = 0; h < m_hosts.size(); ++h)
        if (m_makers[h].preparesFirst && !m_hosts[h].plan)
            return out; // another that prepares first is not ready yet
    for (std::size_t h = 0; h < m_deferred.size(); ++h)
        if (m_deferred[h]) {
            out.emplace_back(h, std::move(*m_deferred[h]));
            m_deferred[h].reset();
        }
    return out;
}

// Whether a host will report nothing more of `step`: it sent the step's results, it
// reported a later step, or it finished.
bool MultiHostRunSession::endedStep(std::size_t host, std::size_t step) const
{
    const HostState &state = m_hosts[host];
    return state.result || state.steps.count(step)
        || (state.latestStep && *state.latestStep > step);
}

// Says what every host has reported: the plan once every host's is in, then step by step
// each k-th interval and the step's results, as soon as no host can add to them. True
// when the hosts' plans turned out to differ: the caller stops them.
bool MultiHostRunSession::mergeWhatIsReady()
{
    if (!m_places) {
        std::vector<const ResolvedPlan *> plans;
        for (const HostState &state : m_hosts) {
            if (!state.plan && !state.result)
                return false; // a plan may still come
            plans.push_back(state.plan ? &*state.plan : nullptr);
        }
        if (std::none_of(plans.begin(), plans.end(), [](const ResolvedPlan *p) { return p; }))
            return false;
        if (auto mismatch = hostPlanMismatch(plans, m_names)) {
            // Hosts that do different steps cannot be added up: none starts its first.
            m_places.emplace();
            m_stepCount = 0;
            if (!m_firstFailure) {
                m_firstFailure = m_hosts.size(); // the plans, not a host
                return true;
            }
            return false;
        }
        m_places = hostPlaces(m_names, plans);
        const ResolvedPlan merged = mergeHostPlans(plans, *m_places);
        m_stepCount = merged.stepCount();
        m_sink.onPlan(merged);
    }
    while (m_mergeStep < m_stepCount) {
        const std::size_t step = m_mergeStep;
        bool any = false;
        for (std::size_t h = 0; h < m_hosts.size(); ++h) {
            const auto it = m_hosts[h].intervals.find(step);
            if (it != m_hosts[h].intervals.end() && !it->second.empty())
                any = true;
            else if (!endedStep(h, step))
                return false; // its next interval of this step may still come
        }
        if (any) {
            // The next interval of the step: each host's oldest unmerged one.
            std::vector<const IntervalSample *> parts(m_hosts.size(), nullptr);
            for (std::size_t h = 0; h < m_hosts.size(); ++h)
                if (auto it = m_hosts[h].intervals.find(step);
                    it != m_hosts[h].intervals.end() && !it->second.empty())
                    parts[h] = &it->second.front();
            const IntervalSample merged = mergeHostIntervals(parts, *m_places);
            for (std::size_t h = 0; h < m_hosts.size(); ++h)
                if (parts[h])
                    m_hosts[h].intervals[step].erase(m_hosts[h].intervals[step].begin());
            m_sink.onInterval(merged);
            continue;
        }
        // Every host ended the step and every interval of it is said: its results.
        std::vector<const StepResult *> parts(m_hosts.size(), nullptr);
        const PlannedStep *planned = nullptr;
        for (std::size_t h = 0; h < m_hosts.size(); ++h)
            if (auto it = m_hosts[h].steps.find(step); it != m_hosts[h].steps.end()) {
                parts[h] = &it->second.first;
                if (!planned)
                    planned = &it->second.second;
            }
        if (planned)
            m_sink.onStepResult(mergeHostSteps(parts, *m_places), *planned);
        for (HostState &state : m_hosts) {
            state.intervals.erase(step);
            state.steps.erase(step);
        }
        ++m_mergeStep;
    }
    return false;
}

// Every host has finished: their results as one, said once.
void MultiHostRunSession::finish()
{
    std::vector<HostRun> runs;
    for (std::size_t h = 0; h < m_hosts.size(); ++h)
        runs.push_back({m_names[h], m_makers[h].rank, m_makers[h].agent, *m_hosts[h].result,
            m_sessions[h]->clockOffset()});
    const std::optional<std::size_t> failure = m_firstFailure;
    std::optional<OpError> failedHostError;
    std::string stoppedHost;
    if (failure && *failure < m_hosts.size()) {
        if (const auto &error = m_hosts[*failure].result->error)
            failedHostError = hostError(*error, m_names[*failure], m_makers[*failure].agent);
        else
            stoppedHost = m_names[*failure];
    }
    auto merged = mergeHostRuns(std::move(runs), m_verdictPolicy);
    RunResult result = merged.ok()
        ? std::move(*merged)
        : failedRunResult(m_runId, merged.error().operation, merged.error().toString());
    if (merged.ok()) {
        // The first host to fail is the cause, whatever the others said as they stopped.
        if (failedHostError)
            result.error = failedHostError;
        if (!stoppedHost.empty())
            result.notices.push_back("host " + stoppedHost
                + " stopped before the run's end: the other hosts were stopped with it");
    }
    m_finished = true;
    m_sink.onPhase(RunPhase::Done, result.steps.size(), {});
    m_sink.onFinished(std::move(result));
    m_finishedChanged.notify_all();
}

} // namespace ioprism::core
