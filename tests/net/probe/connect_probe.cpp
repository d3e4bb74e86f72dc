// SPDX-License-Identifier: GPL-3.0-or-later
// A controller in one command, for the tests that connect from another network namespace
// (tests/net/netns_test.cpp runs it under `ip netns exec`):
//
//   net_connect_probe HOST PORT plain|tls [KNOWN_AGENTS_FILE]
//
// Connects, sends "ping" and waits for the agent's echo. Prints "connected <fingerprint>"
// and "echo <text>" (exit 0), or "refused: <reason>" / "ended: <reason>" (exit 1).
#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <mutex>

#include "net/transport.h"

int main(int argc, char **argv)
{
    using namespace ioprism;
    if (argc < 4) {
        std::cerr << "usage: net_connect_probe HOST PORT plain|tls [KNOWN_AGENTS_FILE]\n";
        return 2;
    }
    net::ConnectOptions options;
    options.host = argv[1];
    options.port = static_cast<std::uint16_t>(std::atoi(argv[2]));
    options.tls = std::string(argv[3]) == "tls";
    if (argc > 4)
        options.knownAgentsFile = argv[4];
    auto connection = net::connect(options);
    if (!connection) {
        std::cout << "refused: " << connection.error().toString() << std::endl;
        return 1;
    }
    std::cout << "connected " << connection->fingerprint << std::endl;
    std::mutex mutex;
    std::condition_variable changed;
    std::string echo;
    std::string ended;
    bool done = false;
    connection->channel->start(
        [&](std::string text) {
            std::lock_guard lock(mutex);
            echo = std::move(text);
            done = true;
            changed.notify_all();
        },
        [&](std::string reason) {
            std::lock_guard lock(mutex);
            ended = reason.empty() ? "closed" : reason;
            done = true;
            changed.notify_all();
        });
    connection->channel->send("ping");
    std::unique_lock lock(mutex);
    if (!changed.wait_for(lock, std::chrono::seconds(60), [&] { return done; })) {
        std::cout << "ended: no echo within 60 s" << std::endl;
        return 1;
    }
    if (echo.empty()) {
        std::cout << "ended: " << ended << std::endl;
        return 1;
    }
    std::cout << "echo " << echo << std::endl;
    return 0;
}
