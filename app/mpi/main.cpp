// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism-mpi: `ioprism-cli run` on every rank of an MPI job, as IOR runs (docs/cluster.md).
//
//   mpirun -n 16 --hostfile hosts ioprism-mpi --target /mnt/pfs/ioprism-%r.dat --json r.json
//
// Every rank is given the same command line. Rank 0 is the run command as ioprism-cli
// runs it — the live lines, the tables, --csv/--json, the run library — over a run of
// several hosts: its own run, and each other rank as an agent reached over MPI's
// messages instead of the network (mpi/mpi_world.h). Every rank makes its own targets of
// the profile: "%r" and "%h" in a path are its rank and host name, and --shared-file
// gives each rank a slice of one file or device (core/profile/rank_targets.h). Each rank
// runs only the targets its own command line names for it (its --allow list), with every
// safety rule of a local run.
#include "app/cli/run_args.h"
#include "app/cli/run_command.h"
#include "core/agent/agent_service.h"
#include "core/agent/remote_session.h"
#include "core/profile/rank_targets.h"
#include "core/run/multi_host_session.h"
#include "platform/common/agent_host.h"
#include "platform/common/backend_factory.h"
#include "platform/common/system.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "mpi/mpi_world.h"

namespace {

using namespace ioprism;
using namespace ioprism::core;

struct MpiArgs {
    bool sharedFile = false;
};

// How long rank 0 waits for a rank's welcome: the ranks start as MPI starts them.
constexpr auto kOpenTimeout = std::chrono::seconds(60);

// A secret for this job: every rank's agent checks it, as an agent checks its token.
std::string jobToken()
{
    std::random_device random;
    std::string token;
    for (int i = 0; i < 4; ++i)
        token += fmt::format("{:08x}", random());
    return token;
}

// "r3@node12": a rank's rows and messages. A host name alone would not do: ranks share
// hosts.
std::string rankName(int rank, const std::string &host)
{
    return fmt::format("r{}@{}", rank, host);
}

// A host's session whose request is made the rank's own (its targets expanded, its slice
// of a shared target) before it is started.
class RankSession final : public RunSession
{
public:
    RankSession(std::unique_ptr<RunSession> inner, RankPlace place, bool removeTestFiles)
        : m_inner(std::move(inner))
        , m_place(std::move(place))
        , m_removeTestFiles(removeTestFiles)
    { }
    void start(RunRequest request) override
    {
        // Checked for every rank before the run was made (rankProfiles): no error here.
        if (auto profile = profileForRank(request.profile, m_place))
            request.profile = std::move(*profile);
        request.removeTestFiles = request.removeTestFiles && m_removeTestFiles;
        m_inner->start(std::move(request));
    }
    void stop() override { m_inner->stop(); }
    void stopNow() override { m_inner->stopNow(); }
    void wait() override { m_inner->wait(); }
    std::optional<ClockOffset> clockOffset() const override { return m_inner->clockOffset(); }

private:
    std::unique_ptr<RunSession> m_inner;
    RankPlace m_place;
    bool m_removeTestFiles;
};

HostSessionMaker forRank(HostSessionMaker maker, const RankPlace &place, bool removeTestFiles)
{
    maker.name = rankName(place.rank, place.host);
    maker.rank = place.rank;
    maker.make = [make = std::move(maker.make), place, removeTestFiles](
                     RunSink &sink, StepBarrier &barrier, std::size_t party) {
        return std::unique_ptr<RunSession>(
            std::make_unique<RankSession>(make(sink, barrier, party), place, removeTestFiles));
    };
    return maker;
}

// Every rank's profile, or the first rank's reason it cannot have one (said on stderr).
std::optional<std::vector<Profile>> rankProfiles(
    const Profile &profile, const std::vector<RankPlace> &places)
{
    std::vector<Profile> out;
    for (const auto &place : places) {
        auto p = profileForRank(profile, place);
        const auto r = std::size_t(place.rank);
        if (!p) {
            std::cerr << "error: rank " << r << " (" << place.host << "): " << p.error().toString()
                      << "\n";
            return std::nullopt;
        }
        out.push_back(std::move(*p));
    }
    return out;
}

// Rank 0: the run command, its hosts this rank and every other one.
int runRankZero(mpi::World &world, cli::RunArgs args, const std::vector<RankPlace> &places,
    const std::string &token, std::vector<std::unique_ptr<MessageChannel>> channels)
{
    std::vector<std::unique_ptr<AgentConnection>> connections;
    cli::RunFrontEnd frontEnd;
    const bool quiet = args.quiet;
    frontEnd.makeSession = [&](RunSink &sink, LocalRunHooks hooks, const RunRequest &request,
                               std::ostream &human) -> std::unique_ptr<RunSession> {
        const auto profiles = rankProfiles(request.profile, places);
        if (!profiles)
            return nullptr;
        for (int r = 1; r < world.size(); ++r) {
            const RankPlace &place = places[std::size_t(r)];
            auto connection = std::make_unique<AgentConnection>(
                std::move(channels[std::size_t(r)]), rankName(r, place.host));
            const auto opened = connection->open(token, rankName(0, places[0].host), kOpenTimeout);
            if (!opened) {
                std::cerr << "error: rank " << r << " (" << place.host
                          << "): " << opened.error().toString() << "\n";
                return nullptr;
            }
            connections.push_back(std::move(connection));
        }
        if (!quiet) {
            // "MPI: 16 ranks on n1 (8), n2 (8)": each host once, with its ranks.
            std::vector<std::pair<std::string, int>> perHost;
            for (const auto &place : places) {
                auto it = std::find_if(perHost.begin(), perHost.end(),
                    [&](const auto &h) { return h.first == place.host; });
                if (it == perHost.end())
                    perHost.emplace_back(place.host, 1);
                else
                    ++it->second;
            }
            std::string where;
            for (const auto &[host, ranks] : perHost)
                where += fmt::format("{}{} ({})", where.empty() ? "" : ", ", host, ranks);
            human << fmt::format("MPI: {} ranks on {}\n", world.size(), where);
        }
        const bool shared = places[0].shareTargets;
        std::vector<HostSessionMaker> makers;
        // A shared file is removed once, by rank 0, when the run asks for it; and made and
        // filled once, by rank 0's run, before any other rank starts (each then finds it
        // ready), rather than by every rank at once.
        makers.push_back(forRank(localHost({}, std::move(hooks)), places[0], true));
        makers.back().preparesFirst = shared;
        // A rank's pump looks for messages every 100 ms between exchanges (mpi_world.cpp):
        // each step starts 250 ms after the last rank is ready, so that its go reaches every
        // rank first, and each rank's clock is sampled every 10 s during a run (an agent's,
        // every 2 s): each sample is an exchange that has both pumps poll every millisecond
        // for a while, and rank 0 has one with every rank. At 100 ppm of drift between two
        // hosts' clocks, 10 s is a millisecond.
        RemoteRunOptions rankOptions;
        rankOptions.keepAlive = std::chrono::seconds(10);
        for (int r = 1; r < world.size(); ++r)
            makers.push_back(
                forRank({{}, {}, remoteRunSessions(*connections[std::size_t(r - 1)], rankOptions)},
                    places[std::size_t(r)], !shared));
        return std::make_unique<MultiHostRunSession>(
            std::move(makers), sink, std::chrono::milliseconds(250));
    };
    return cli::runCommand(std::move(args), frontEnd);
}

// Any other rank: an agent for rank 0, allowed exactly the targets its command line names
// for this rank.
int serveRank(cli::RunArgs args, const RankPlace &place, const std::string &token,
    std::unique_ptr<MessageChannel> channel)
{
    AgentConfig config;
    config.token = token;
    config.realPath = platform::agentRealPath;
    config.identity = platform::agentIdentity();
    config.inventory = platform::agentInventory;
    config.makeRun = localAgentRuns(platform::localRunHooks());
    // Rank 0 says what is wrong with the profile; here it only means nothing is allowed.
    if (const auto profile = cli::profileFromArgs(args, true, false)) {
        if (const auto mine = profileForRank(*profile, place))
            for (const auto &host : mine->hosts)
                for (const auto &worker : host.workers)
                    for (const auto &target : worker.targets)
                        config.allowedRoots.push_back(platform::agentRealPath(target.path));
    }
    AgentState state;
    AgentService service(config, state, std::move(channel));
    service.start();
    while (!service.waitEnded(std::chrono::seconds(1))) { }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    mpi::World world(argc, argv);
    const bool root = world.rank() == 0;

    CLI::App app {"IOPrism under MPI: `ioprism-cli run` on every rank of the job, rank 0 "
                  "reporting the whole (docs/cluster.md)",
        "ioprism-mpi"};
    app.set_version_flag("--version", std::string("ioprism-mpi ") + IOPRISM_VERSION);
    app.footer("A target path may name the rank (%r) or its host (%h): "
               "--target /mnt/pfs/ioprism-%r.dat.\n"
               "Exit codes (rank 0): 0 success, 2 invalid input, 1 other failure, 130/143 "
               "interrupted.\nDocumentation: docs/cluster.md");
    cli::RunArgs args;
    args.rawArgs.assign(argv, argv + argc);
    cli::addRunOptions(app, args);
    MpiArgs m;
    app.add_flag("--shared-file", m.sharedFile,
        "Every rank in its own slice of the same targets (one file, or a device with a "
        "region size), instead of a target each (%r in the path)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        // Every rank parses the same line; rank 0 says the outcome.
        int rc = 0;
        if (root)
            rc = app.exit(e);
        else
            rc = e.get_exit_code();
        return rc == 0 ? 0 : 2;
    }

    // Where each rank is: its host, and its working folder (a relative target path is
    // made absolute in the folder of the rank that opens it).
    const std::vector<std::string> hosts = world.gather(platform::describeSystem().hostName);
    std::error_code ec;
    const std::vector<std::string> folders
        = world.gather(std::filesystem::current_path(ec).string());
    std::vector<RankPlace> places;
    places.reserve(std::size_t(world.size()));
    for (int r = 0; r < world.size(); ++r)
        places.push_back(
            {r, world.size(), hosts[std::size_t(r)], folders[std::size_t(r)], m.sharedFile});
    const std::string token = world.broadcast(root ? jobToken() : std::string());
    // Stonewalling: the first rank's "done" and rank 0's "end the step" arrive
    // unannounced, and every rank moves I/O until it sees the end: look every 10 ms.
    if (!args.stonewall.empty())
        world.setIdlePoll(std::chrono::milliseconds(10));

    if (root) {
        std::vector<std::unique_ptr<MessageChannel>> channels(std::size_t(world.size()));
        for (int r = 1; r < world.size(); ++r)
            channels[std::size_t(r)] = world.channel(r);
        return world.serve([&] {
            return runRankZero(world, std::move(args), places, token, std::move(channels));
        });
    }
    // mpirun and Slurm send SIGTERM to every rank on Ctrl-C: rank 0 stops the run on every
    // rank and writes what was measured; the others must stay to send theirs.
    std::signal(SIGINT, SIG_IGN);
    std::signal(SIGTERM, SIG_IGN);
    auto channel = world.channel(0);
    return world.serve([&] {
        return serveRank(
            std::move(args), places[std::size_t(world.rank())], token, std::move(channel));
    });
}
