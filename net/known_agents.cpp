// SPDX-License-Identifier: GPL-3.0-or-later
// Agent addresses and the known-agents file: trust on first use, as SSH's known_hosts.
#include <boost/asio/ip/address.hpp>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "net/tls.h"

namespace ioprism::net {

namespace {

std::string trimmed(const std::string &s)
{
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
        return {};
    const auto last = s.find_last_not_of(" \t\r\n");
    return s.substr(first, last - first + 1);
}

std::string upper(std::string s)
{
    for (char &c : s)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

// "SHA256:ab:cd" and "sha256:AB:CD" are the same fingerprint.
bool sameFingerprint(const std::string &a, const std::string &b)
{
    return upper(trimmed(a)) == upper(trimmed(b));
}

} // namespace

core::Result<HostPort> parseHostPort(
    const std::string &text, std::uint16_t defaultPort, PortZero portZero)
{
    const auto refuse = [&](const std::string &why) {
        return detail::netError("agent address \"" + text + "\": " + why);
    };
    const std::string t = trimmed(text);
    HostPort result;
    result.port = defaultPort;
    std::string portText;
    bool portGiven = false;
    if (!t.empty() && t.front() == '[') {
        const auto close = t.find(']');
        if (close == std::string::npos)
            return refuse("a '[' without its ']'");
        result.host = t.substr(1, close - 1);
        const std::string rest = t.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':')
                return refuse("only \":port\" may follow ']'");
            portText = rest.substr(1);
            portGiven = true;
        }
        boost::system::error_code ec;
        boost::asio::ip::make_address_v6(result.host, ec);
        if (ec)
            return refuse("\"" + result.host + "\" in brackets is not an IPv6 address");
    } else {
        const auto colon = t.find(':');
        if (colon != std::string::npos && t.find(':', colon + 1) != std::string::npos) {
            // An IPv6 address without brackets: no port can follow it unambiguously.
            boost::system::error_code ec;
            boost::asio::ip::make_address_v6(t, ec);
            if (ec)
                return refuse("put an IPv6 address in brackets: [2001:db8::7]:7355");
            result.host = t;
        } else if (colon != std::string::npos) {
            result.host = t.substr(0, colon);
            portText = t.substr(colon + 1);
            portGiven = true;
        } else {
            result.host = t;
        }
    }
    if (result.host.empty())
        return refuse("no host name or address");
    if (portGiven) {
        unsigned value = 0;
        const auto [end, ec]
            = std::from_chars(portText.data(), portText.data() + portText.size(), value);
        const unsigned lowest = portZero == PortZero::AnyFreePort ? 0 : 1;
        if (ec != std::errc() || end != portText.data() + portText.size() || value < lowest
            || value > 65535)
            return refuse(fmt::format("the port must be a number from {} to 65535", lowest));
        result.port = static_cast<std::uint16_t>(value);
    }
    return result;
}

std::string formatHostPort(const std::string &host, std::uint16_t port)
{
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::vector<KnownAgent> readKnownAgents(const std::string &file)
{
    std::vector<KnownAgent> agents;
    std::error_code ec;
    if (file.empty() || !std::filesystem::is_regular_file(file, ec))
        return agents;
    std::ifstream in(file);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        const auto hash = line.find('#');
        std::istringstream words(trimmed(line.substr(0, hash)));
        KnownAgent agent;
        std::string extra;
        if (!(words >> agent.hostPort >> agent.fingerprint) || (words >> extra))
            continue;
        agent.line = number;
        agents.push_back(std::move(agent));
    }
    return agents;
}

namespace detail {

std::string checkKnownAgent(const ConnectOptions &options, const std::string &hostPort,
    const std::string &fingerprint, bool &firstUse)
{
    firstUse = false;
    if (!options.pinnedFingerprint.empty()) {
        if (sameFingerprint(options.pinnedFingerprint, fingerprint))
            return {};
        return "the agent at " + hostPort + " has a certificate other than the one given: expected "
            + trimmed(options.pinnedFingerprint) + ", the agent has " + fingerprint;
    }
    if (options.knownAgentsFile.empty())
        return "no fingerprint to check the agent's certificate against (" + fingerprint
            + "): give it, or a known-agents file to record it in";
    for (const KnownAgent &known : readKnownAgents(options.knownAgentsFile)) {
        if (known.hostPort != hostPort)
            continue;
        if (sameFingerprint(known.fingerprint, fingerprint))
            return {};
        std::string text = "the agent's certificate changed: known ";
        text += known.fingerprint;
        text += ", now ";
        text += fingerprint;
        text += " (if the agent was given a new identity on purpose, remove line ";
        text += std::to_string(known.line);
        text += " (" + hostPort + ") from ";
        text += options.knownAgentsFile;
        text += ")";
        return text;
    }
    // First use: record it. The directory may not exist yet (a first start).
    std::error_code ec;
    const std::filesystem::path path(options.knownAgentsFile);
    if (path.has_parent_path())
        std::filesystem::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::app);
    out << hostPort << ' ' << fingerprint << '\n';
    out.close();
    if (!out)
        return "cannot record the agent's certificate (" + fingerprint + ") in "
            + options.knownAgentsFile;
    firstUse = true;
    return {};
}

} // namespace detail

} // namespace ioprism::net
