// SPDX-License-Identifier: GPL-3.0-or-later
// The MPI job this process is a rank of (ioprism-mpi, docs/cluster.md), and the channels
// rank 0 drives the other ranks through.
//
// Under MPI, IOPrism is its agents' protocol on MPI's messages instead of the network:
// every rank k > 0 serves an AgentService (core/agent/agent_service.h) on its channel to
// rank 0, and rank 0 holds an AgentConnection to each, beside its own local run, in one
// MultiHostRunSession. So the barrier before each step, the start at an agreed time on
// each rank's clock, the live intervals, the exact merge, a failing rank stopping the
// others and naming itself: all are the agents' code, tested there, and nothing here.
//
// Threads. MPI is started at MPI_THREAD_FUNNELED, the level every MPI offers: every MPI
// call is made on the thread that made the World (main). serve() runs the application's
// work on a thread of its own while main carries the channels' messages: what the work
// sends is queued and handed to MPI_Isend by main; main polls for what arrives
// (MPI_Iprobe: every millisecond while an exchange is going on, else every 10 ms, or
// every 100 ms while the ranks' results stream; at once when something is queued) and
// delivers it on main, which is each channel's own thread.
//
// A channel ends when either side closes it: a closing side sends an empty message (no
// agent message is empty), and a side that receives one answers with its own; serve()
// returns once the work has returned and every channel has ended both ways, so that
// MPI_Finalize finds nothing in flight.
#pragma once

#include "core/agent/message_channel.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ioprism::mpi {

class World
{
public:
    // MPI_Init_thread (FUNNELED). An MPI that cannot start ends the process with MPI's
    // own message (its default error handler): nothing runs without the job.
    World(int &argc, char **&argv);
    // MPI_Finalize.
    ~World();
    World(const World &) = delete;
    World &operator=(const World &) = delete;

    int rank() const { return m_rank; }
    int size() const { return m_size; }

    // Collective, on the constructing thread, before serve(): every rank's `mine`, in rank
    // order (MPI_Allgather of the lengths, then MPI_Allgatherv).
    std::vector<std::string> gather(const std::string &mine) const;
    // Collective, on the constructing thread, before serve(): rank 0's `value` on every
    // rank (MPI_Bcast of the length, then of the text).
    std::string broadcast(const std::string &value) const;

    // The channel to rank `peer` (rank 0: any other rank; any other rank: 0). One per peer;
    // made before serve(), used from any thread while it runs.
    std::unique_ptr<core::MessageChannel> channel(int peer);

    // How long the pump sleeps between looks for messages while results stream and no
    // exchange is going on (100 ms unless set; mpi_world.cpp says why). Before serve().
    void setIdlePoll(std::chrono::milliseconds poll) { m_idlePoll = poll; }

    // Runs `work` on a thread of its own while this thread carries the channels' messages,
    // and returns what `work` returned once it has returned and every channel has ended
    // both ways. A channel still open when `work` returns is closed then; a peer that does
    // not answer a close within `drain` is given up on (said on stderr). Once.
    int serve(
        std::function<int()> work, std::chrono::milliseconds drain = std::chrono::seconds(30));

    // Ends every rank of the job now (MPI_Abort): for a rank that cannot go on and cannot
    // tell rank 0 (no channel yet).
    [[noreturn]] void abort(int code) const;

    struct Endpoint; // one channel's state, shared by the channel and the pump

private:
    void pump(std::chrono::milliseconds drain);

    int m_rank = 0;
    int m_size = 1;
    std::chrono::milliseconds m_idlePoll {100};
    std::vector<std::shared_ptr<Endpoint>> m_endpoints;
    struct Wake; // wakes the pump when a channel has something to send
    std::shared_ptr<Wake> m_wake;
};

} // namespace ioprism::mpi
