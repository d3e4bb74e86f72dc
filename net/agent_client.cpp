// SPDX-License-Identifier: GPL-3.0-or-later
#include "net/agent_client.h"

#include <fmt/format.h>
#include <fstream>

#include "net/transport.h"

namespace ioprism::net {

core::Result<std::string> readTokenFile(const std::string &file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return core::OpError {{}, "read the token file", file, "cannot open it"};
    std::string line;
    std::getline(in, line);
    const auto first = line.find_first_not_of(" \t\r\n");
    const auto last = line.find_last_not_of(" \t\r\n");
    std::string token
        = first == std::string::npos ? std::string() : line.substr(first, last - first + 1);
    if (token.size() < kMinTokenLength)
        return core::OpError {{}, "read the token file", file,
            fmt::format("the token must be at least {} characters on the first line (e.g. "
                        "`openssl rand -hex 32 > {}`)",
                kMinTokenLength, file)};
    return token;
}

core::Result<ReachedAgent> reachAgent(
    const std::string &address, const AgentAccess &access, const std::string &controllerName)
{
    auto where = parseHostPort(address);
    if (!where)
        return where.error();
    // Both steps' errors name the agent ("no agent listens on db2:7355", "connect to
    // agent db2:7355: ...").
    const std::string name = formatHostPort(where->host, where->port);
    ConnectOptions options;
    options.host = where->host;
    options.port = where->port;
    options.tls = !access.plaintext;
    if (const auto pin = access.pins.find(name); pin != access.pins.end())
        options.pinnedFingerprint = pin->second;
    options.knownAgentsFile = access.knownAgentsFile;
    options.timeout = access.timeout;
    auto connected = connect(options);
    if (!connected)
        return connected.error();
    ReachedAgent reached;
    reached.address = name;
    reached.fingerprint = connected->fingerprint;
    reached.firstUse = connected->firstUse;
    reached.connection
        = std::make_unique<core::AgentConnection>(std::move(connected->channel), name);
    if (auto opened = reached.connection->open(access.token, controllerName, access.timeout);
        !opened)
        return opened.error();
    return reached;
}

} // namespace ioprism::net
