// SPDX-License-Identifier: GPL-3.0-or-later
// The TLS back end of a build without OpenSSL (the MinGW build: Debian has no OpenSSL for
// it): every TLS step refuses with a reason; plaintext on loopback still works.
#include "net/tls.h"

namespace ioprism::net {

namespace {

core::OpError noTls(const std::string &what)
{
    return detail::netError(what
        + ": this build has no TLS (built without OpenSSL); "
          "use plaintext on loopback, through an SSH tunnel");
}

} // namespace

bool tlsAvailable()
{
    return false;
}

core::Result<TlsIdentity> loadOrCreateIdentity(const std::string &, const std::string &)
{
    return noTls("no TLS identity");
}

core::Result<TlsIdentity> loadIdentity(const std::string &, const std::string &)
{
    return noTls("no TLS identity");
}

namespace detail {

core::Result<std::unique_ptr<TlsServer>> makeTlsServer(const TlsIdentity &)
{
    return noTls("cannot listen with TLS");
}

void connectTls(
    beast::tcp_stream, const ConnectOptions &, std::string peer, const OnConnected &done)
{
    done(noTls("cannot connect to " + peer + " with TLS"));
}

} // namespace detail

} // namespace ioprism::net
