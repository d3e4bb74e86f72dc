// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism-agent: runs tests on this host for a controller (the GUI, ioprism-cli run
// --manager), as Iometer's Dynamo does for Iometer. docs/agents.md: set-up and security.
//
// The agent is the same engine as a local run (the platform's LocalRunHooks: every
// safety rule of a local run holds) behind the agent protocol (core/agent) on the
// network transport (net/): TLS with its own certificate unless told --plaintext, a token
// from a file, and its own --allow list of where targets may be. It trusts nothing the
// controller says beyond what the user asked for in the request.
//
// Exit codes: 0 stopped by SIGINT / SIGTERM, 2 invalid options, 1 cannot listen.
#include "core/agent/agent_service.h"
#include "platform/common/agent_host.h"
#include "platform/common/backend_factory.h"
#include "platform/common/data_dir.h"
#include "platform/common/system.h"

#include <CLI/CLI.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "net/agent_client.h"
#include "net/transport.h"

namespace {

using namespace ioprism;

std::mutex g_logMutex;

// One line on stderr, with the UTC time: the agent's log.
void logLine(const std::string &text)
{
    const std::lock_guard lock(g_logMutex);
    std::cerr << fmt::format("{:%Y-%m-%d %H:%M:%S} UTC  {}\n",
        std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now()), text);
}

struct Options {
    std::string listen = "127.0.0.1";
    std::string tokenFile;
    std::vector<std::string> allow;
    bool plaintext = false;
    std::string certificateFile;
    std::string keyFile;
    std::string identityDirectory;
};

// Others may read the token file: said, not refused (the user may have reasons).
void warnIfTokenReadableByOthers(const std::string &file)
{
    if (platform::fileReadableByOthers(file))
        logLine(fmt::format(
            "warning: the token file {} is readable by other users (chmod 600 it)", file));
}

core::Result<net::TlsIdentity> tlsIdentity(const Options &o, const std::string &hostName)
{
    if (!o.certificateFile.empty() || !o.keyFile.empty()) {
        if (o.certificateFile.empty() || o.keyFile.empty())
            return core::OpError {
                {}, "load the agent's identity", {}, "--certificate and --key go together"};
        return net::loadIdentity(o.certificateFile, o.keyFile);
    }
    std::string dir = o.identityDirectory;
    if (dir.empty()) {
        auto data = platform::userDataDirectory();
        if (!data)
            return data.error();
        dir = (*data / "agent").string();
    }
    return net::loadOrCreateIdentity(dir, hostName);
}

int serve(const Options &o)
{
    // Port 0: any free port, said in the "listening on" line (tests, benches).
    auto address = net::parseHostPort(o.listen, net::kDefaultAgentPort, net::PortZero::AnyFreePort);
    if (!address) {
        std::cerr << "error: --listen: " << address.error().toString() << "\n";
        return 2;
    }
    auto token = net::readTokenFile(o.tokenFile);
    if (!token) {
        std::cerr << "error: " << token.error().toString() << "\n";
        return 2;
    }
    warnIfTokenReadableByOthers(o.tokenFile);

    core::AgentConfig config;
    config.token = *token;
    for (const auto &root : o.allow)
        config.allowedRoots.push_back(platform::agentRealPath(root));
    config.realPath = platform::agentRealPath;
    config.identity = platform::agentIdentity();
    config.inventory = platform::agentInventory;
    config.makeRun = core::localAgentRuns(platform::localRunHooks());
    config.log = [](const std::string &text) { logLine(text); };

    net::ListenOptions listen;
    listen.address = address->host;
    listen.port = address->port;
    std::string security = "plaintext: loopback peers only";
    if (!o.plaintext) {
        if (!net::tlsAvailable()) {
            std::cerr << "error: this build of ioprism-agent has no TLS: give --plaintext (it "
                         "then accepts loopback peers only; reach it through an SSH tunnel, "
                         "docs/agents.md)\n";
            return 2;
        }
        auto id = tlsIdentity(o, config.identity.host);
        if (!id) {
            std::cerr << "error: " << id.error().toString() << "\n";
            return 1;
        }
        security = "TLS, certificate " + id->fingerprint;
        listen.tls = *id;
    }

    core::AgentState state;
    std::mutex servicesMutex;
    std::vector<std::unique_ptr<core::AgentService>> services;
    auto listener = net::listen(
        listen,
        [&](std::unique_ptr<core::MessageChannel> channel) {
            logLine("connection from " + channel->peer());
            const std::lock_guard lock(servicesMutex);
            // Connections that ended are let go as new ones come.
            std::erase_if(services, [](const auto &s) { return s->ended(); });
            services.push_back(
                std::make_unique<core::AgentService>(config, state, std::move(channel)));
            services.back()->start();
        },
        [](const std::string &text) { logLine(text); });
    if (!listener) {
        std::cerr << "error: " << listener.error().toString() << "\n";
        return 1;
    }
    logLine(fmt::format("ioprism-agent {} listening on {} ({}); targets allowed under: {}",
        IOPRISM_VERSION, net::formatHostPort(address->host, (*listener)->port()), security,
        fmt::join(config.allowedRoots, ", ")));

    boost::asio::io_context signalContext;
    boost::asio::signal_set signals(signalContext, SIGINT, SIGTERM);
    int caught = 0;
    signals.async_wait([&](const boost::system::error_code &ec, int number) {
        if (!ec)
            caught = number;
    });
    signalContext.run();
    logLine(fmt::format("stopping (signal {}): runs in progress are stopped", caught));
    (*listener)->close();
    // Each service stops its connection's run without waiting for in-flight I/O to be
    // waited for by a controller that will not hear of it, and joins it.
    const std::lock_guard lock(servicesMutex);
    services.clear();
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    CLI::App app {"IOPrism agent: runs tests on this host for an IOPrism controller (the GUI "
                  "or `ioprism-cli run --manager`)",
        "ioprism-agent"};
    app.set_version_flag("--version", std::string("ioprism-agent ") + IOPRISM_VERSION);
    app.footer("Exit codes: 0 stopped by a signal, 2 invalid options, 1 cannot listen.\n"
               "Documentation: docs/agents.md");
    Options o;
    app.add_option("--listen", o.listen,
           "Address (and port) to listen on: 127.0.0.1 (the default), 0.0.0.0 or :: for every "
           "interface, host:port or [v6]:port; the default port is 7355 (0: any free port, "
           "printed)")
        ->capture_default_str();
    app.add_option("--token-file", o.tokenFile,
           "File whose first line is the shared secret a controller must send (at least 16 "
           "characters, e.g. from `openssl rand -hex 32`)")
        ->required();
    app.add_option("--allow", o.allow,
           "A folder or device a test may use (repeatable); every target of a request must "
           "be at or under one of these")
        ->required();
    app.add_flag("--plaintext", o.plaintext,
        "No TLS: only connections from this host (loopback) are accepted; for remote use, "
        "an SSH tunnel");
    app.add_option("--certificate", o.certificateFile,
        "The agent's TLS certificate (PEM), instead of the one it makes for itself");
    app.add_option("--key", o.keyFile, "The private key (PEM) of --certificate");
    app.add_option("--identity-dir", o.identityDirectory,
        "Where the agent keeps the certificate and key it makes (default: <data folder>/agent)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        const int rc = app.exit(e);
        return rc == 0 ? 0 : 2;
    }
    try {
        return serve(o);
    } catch (const std::exception &e) {
        // Nothing may end the agent without a word.
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
}
