// SPDX-License-Identifier: GPL-3.0-or-later
// The TLS back end over OpenSSL 3 (Asio's SSL stream under Beast's WebSocket): the agent's
// identity (an EC P-256 key and a self-signed certificate), the agent's TLS handshake,
// and the controller's, which trusts a certificate by its pinned fingerprint only.
#include <boost/asio/ssl.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <filesystem>
#include <fstream>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <random>
#include <sstream>

#include "net/tls.h"

namespace ioprism::net {

namespace {

namespace fs = std::filesystem;
namespace ssl = boost::asio::ssl;
using detail::netError;
// Asio's stream rather than Beast's ssl_stream wrapper: Boost 1.81's wrapper does not
// compile its handshake that starts from bytes already read (the ClientHello peeked at).
using TlsStream = boost::asio::ssl::stream<boost::beast::tcp_stream>;

template<auto Free> struct Deleter {
    template<class T> void operator()(T *p) const { Free(p); }
};
using KeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY_free>>;
using CertPtr = std::unique_ptr<X509, Deleter<X509_free>>;
using BioPtr = std::unique_ptr<BIO, Deleter<BIO_free_all>>;
using BigNumPtr = std::unique_ptr<BIGNUM, Deleter<BN_free>>;
using ExtensionPtr = std::unique_ptr<X509_EXTENSION, Deleter<X509_EXTENSION_free>>;

const char *const kCertificateName = "agent-cert.pem";
const char *const kKeyName = "agent-key.pem";
constexpr long kValidityDays = 3650;

// The last OpenSSL error, as text (and the queue emptied: errors must not leak into the
// next connection's messages).
std::string opensslError()
{
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (code == 0)
        return "unknown OpenSSL error";
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    return text;
}

// An encrypted key file would make OpenSSL ask on the terminal: refuse instead.
int noPassword(char *, int, int, void *)
{
    return 0;
}

std::string fingerprintOf(X509 *certificate)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (!X509_digest(certificate, EVP_sha256(), digest, &length))
        return {};
    static const char hex[] = "0123456789ABCDEF";
    std::string text = "SHA256:";
    for (unsigned int i = 0; i < length; ++i) {
        if (i > 0)
            text += ':';
        text += hex[digest[i] >> 4];
        text += hex[digest[i] & 0xF];
    }
    return text;
}

bool readWholeFile(const std::string &path, std::string &text)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    std::ostringstream s;
    s << in.rdbuf();
    text = s.str();
    return !in.bad();
}

BioPtr memoryBio(const std::string &text)
{
    return BioPtr(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
}

std::string bioText(BIO *bio)
{
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return size > 0 ? std::string(data, static_cast<std::size_t>(size)) : std::string();
}

// The identity's new key and certificate as PEM text.
core::Result<std::pair<std::string, std::string>> makeIdentityPem(const std::string &hostName)
{
    const auto fail = [](const std::string &step) {
        return netError("cannot make the agent's TLS identity (" + step + "): " + opensslError());
    };
    KeyPtr key(EVP_EC_gen("P-256"));
    if (!key)
        return fail("EC P-256 key");
    CertPtr certificate(X509_new());
    if (!certificate || !X509_set_version(certificate.get(), 2))
        return fail("certificate");
    // A random 127-bit serial (positive, as RFC 5280 asks).
    BigNumPtr serial(BN_new());
    if (!serial || !BN_rand(serial.get(), 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY)
        || !BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(certificate.get())))
        return fail("serial number");
    // Valid from an hour ago: a controller whose clock is a little behind still accepts it.
    if (!X509_gmtime_adj(X509_getm_notBefore(certificate.get()), -3600)
        || !X509_time_adj_ex(X509_getm_notAfter(certificate.get()), kValidityDays, 0, nullptr))
        return fail("validity");
    if (!X509_set_pubkey(certificate.get(), key.get()))
        return fail("public key");
    X509_NAME *name = X509_get_subject_name(certificate.get());
    if (!X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
            reinterpret_cast<const unsigned char *>(hostName.c_str()), -1, -1, 0)
        || !X509_set_issuer_name(certificate.get(), name))
        return fail("name");
    boost::system::error_code ec;
    boost::asio::ip::make_address(hostName, ec);
    const std::string altName = (ec ? "DNS:" : "IP:") + hostName;
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, certificate.get(), certificate.get(), nullptr, nullptr, 0);
    for (const auto &[nid, value] : {std::pair<int, std::string> {NID_subject_alt_name, altName},
             {NID_basic_constraints, "critical,CA:FALSE"}}) {
        ExtensionPtr extension(X509V3_EXT_conf_nid(nullptr, &context, nid, value.c_str()));
        if (!extension || !X509_add_ext(certificate.get(), extension.get(), -1))
            return fail("extension " + value);
    }
    if (!X509_sign(certificate.get(), key.get(), EVP_sha256()))
        return fail("signature");
    BioPtr keyPem(BIO_new(BIO_s_mem()));
    BioPtr certificatePem(BIO_new(BIO_s_mem()));
    if (!keyPem || !certificatePem
        || !PEM_write_bio_PrivateKey(keyPem.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr)
        || !PEM_write_bio_X509(certificatePem.get(), certificate.get()))
        return fail("PEM");
    return std::pair {bioText(keyPem.get()), bioText(certificatePem.get())};
}

// Writes the identity's files without a moment in which another user could open the key:
// both are made in a new directory that only the owner may enter (so nobody can open a
// file in it, whatever that file's mode), the key made 0600 before a byte of it is
// written, then renamed into place (the same file system: atomic).
core::Status writeIdentityFiles(
    const fs::path &directory, const std::string &keyPem, const std::string &certificatePem)
{
    std::random_device random;
    const fs::path staging = directory / (".agent-identity-" + std::to_string(random()));
    const auto fail = [&](const std::string &what, std::error_code ec = {}) {
        std::error_code ignored;
        fs::remove_all(staging, ignored);
        return netError(
            "cannot write the agent's TLS identity in " + directory.string() + " (" + what + ")",
            ec);
    };
    std::error_code ec;
    if (!fs::create_directory(staging, ec))
        return fail("a new folder " + staging.string(), ec);
    fs::permissions(staging, fs::perms::owner_all, fs::perm_options::replace, ec);
    if (ec)
        return fail("permissions of " + staging.string(), ec);
    for (const auto &[name, text] :
        {std::pair {kKeyName, &keyPem}, {kCertificateName, &certificatePem}}) {
        const fs::path path = staging / name;
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        if (!out)
            return fail(std::string("creating ") + name);
        const fs::perms mode = name == std::string(kKeyName)
            ? fs::perms::owner_read | fs::perms::owner_write
            : fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read
                | fs::perms::others_read;
        fs::permissions(path, mode, fs::perm_options::replace, ec);
        if (ec)
            return fail(std::string("permissions of ") + name, ec);
        out << *text;
        out.close();
        if (!out)
            return fail(std::string("writing ") + name);
    }
    // The key first: a certificate in place means its key is too.
    for (const char *name : {kKeyName, kCertificateName}) {
        fs::rename(staging / name, directory / name, ec);
        if (ec)
            return fail(std::string("moving ") + name + " into place", ec);
    }
    fs::remove_all(staging, ec);
    return core::Ok {};
}

} // namespace

bool tlsAvailable()
{
    return true;
}

core::Result<TlsIdentity> loadIdentity(
    const std::string &certificateFile, const std::string &privateKeyFile)
{
    std::string certificateText;
    std::string keyText;
    if (!readWholeFile(certificateFile, certificateText))
        return netError("cannot read the agent's certificate " + certificateFile);
    if (!readWholeFile(privateKeyFile, keyText))
        return netError("cannot read the agent's private key " + privateKeyFile);
    const BioPtr certificateBio = memoryBio(certificateText);
    const BioPtr keyBio = memoryBio(keyText);
    const CertPtr certificate(
        PEM_read_bio_X509(certificateBio.get(), nullptr, noPassword, nullptr));
    if (!certificate)
        return netError(certificateFile + " is not a PEM certificate: " + opensslError());
    const KeyPtr key(PEM_read_bio_PrivateKey(keyBio.get(), nullptr, noPassword, nullptr));
    if (!key)
        return netError(
            privateKeyFile + " is not an unencrypted PEM private key: " + opensslError());
    if (X509_check_private_key(certificate.get(), key.get()) != 1) {
        ERR_clear_error();
        return netError(privateKeyFile + " is not the key of " + certificateFile
            + ": they do not belong together");
    }
    TlsIdentity identity;
    identity.certificateFile = certificateFile;
    identity.privateKeyFile = privateKeyFile;
    identity.fingerprint = fingerprintOf(certificate.get());
    return identity;
}

core::Result<TlsIdentity> loadOrCreateIdentity(
    const std::string &directory, const std::string &hostName)
{
    const fs::path dir(directory);
    const std::string certificateFile = (dir / kCertificateName).string();
    const std::string keyFile = (dir / kKeyName).string();
    std::error_code ec;
    const bool haveCertificate = fs::exists(certificateFile, ec);
    const bool haveKey = fs::exists(keyFile, ec);
    if (haveCertificate && haveKey)
        return loadIdentity(certificateFile, keyFile);
    if (haveCertificate != haveKey)
        return netError(std::string("the agent's TLS identity in ") + directory
            + " is incomplete: " + (haveCertificate ? keyFile : certificateFile)
            + " is missing (remove the other file to make a new identity; controllers will "
              "then see a changed certificate)");
    if (!fs::is_directory(dir, ec)) {
        fs::create_directories(dir, ec);
        if (ec)
            return netError(
                "cannot create the folder " + directory + " for the agent's TLS identity", ec);
        // A folder we made holds nothing but the identity: its owner's alone.
        fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);
    }
    auto pem = makeIdentityPem(hostName.empty() ? std::string("ioprism-agent") : hostName);
    if (!pem)
        return pem.error();
    if (auto written = writeIdentityFiles(dir, pem->first, pem->second); !written)
        return written.error();
    return loadIdentity(certificateFile, keyFile);
}

namespace detail {

namespace {

void requireTls12(ssl::context &context)
{
    // TLS 1.3 when both ends have it (OpenSSL 3 does), never below 1.2.
    SSL_CTX_set_min_proto_version(context.native_handle(), TLS1_2_VERSION);
    context.set_options(ssl::context::default_workarounds | ssl::context::no_compression);
}

class OpenSslServer final : public TlsServer
{
public:
    explicit OpenSslServer(std::shared_ptr<ssl::context> context)
        : m_context(std::move(context))
    { }

    void accept(beast::tcp_stream stream, beast::flat_buffer buffer, std::string peer,
        const AcceptContext &context) override
    {
        auto session = std::make_shared<WsSession<TlsStream>>(
            SessionSettings {peer, "controller", context.maxMessageBytes, context.idleTimeout},
            std::move(stream), *m_context);
        auto pending = std::make_shared<beast::flat_buffer>(std::move(buffer));
        // The ClientHello's first bytes are in `pending` already (read to tell TLS apart).
        session->stream().next_layer().async_handshake(ssl::stream_base::server, pending->data(),
            [session, pending, context, sslContext = m_context](
                beast::error_code ec, std::size_t used) {
                if (ec) {
                    context.notice("TLS handshake with " + session->settings().peer + " failed: "
                        + (ec == beast::error::timeout ? std::string("not completed in time")
                                                       : ec.message()));
                    return;
                }
                pending->consume(used);
                acceptUpgrade<TlsStream>(
                    session, *pending, {},
                    [context](std::shared_ptr<WsSession<TlsStream>> open) {
                        const std::string openPeer = open->settings().peer;
                        deliverSession(std::move(open), openPeer, context);
                    },
                    context.notice);
            });
    }

private:
    // The SSL_CTX; each connection's SSL holds a reference of its own to it as well.
    std::shared_ptr<ssl::context> m_context;
};

} // namespace

core::Result<std::unique_ptr<TlsServer>> makeTlsServer(const TlsIdentity &identity)
{
    auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
    requireTls12(*context);
    boost::system::error_code ec;
    context->use_certificate_chain_file(identity.certificateFile, ec);
    if (ec)
        return netError(
            "cannot use the certificate " + identity.certificateFile + ": " + ec.message());
    context->use_private_key_file(identity.privateKeyFile, ssl::context::pem, ec);
    if (ec)
        return netError(
            "cannot use the private key " + identity.privateKeyFile + ": " + ec.message());
    if (SSL_CTX_check_private_key(context->native_handle()) != 1)
        return netError(identity.privateKeyFile + " is not the key of " + identity.certificateFile
            + ": " + opensslError());
    return std::unique_ptr<TlsServer>(std::make_unique<OpenSslServer>(std::move(context)));
}

void connectTls(beast::tcp_stream stream, const ConnectOptions &options, std::string peer,
    const OnConnected &done)
{
    // No chain to verify: the certificate is self-signed, and trusted by its fingerprint
    // alone, checked below before anything (the token) is sent.
    auto context = std::make_shared<ssl::context>(ssl::context::tls_client);
    requireTls12(*context);
    context->set_verify_mode(ssl::verify_none);
    auto session = std::make_shared<WsSession<TlsStream>>(
        SessionSettings {std::move(peer), "agent", options.maxMessageBytes, options.idleTimeout},
        std::move(stream), *context);
    const std::string hostPort = formatHostPort(options.host, options.port);
    boost::system::error_code notAddress;
    boost::asio::ip::make_address(options.host, notAddress);
    // SNI names a host, never an address (RFC 6066).
    if (notAddress)
        SSL_set_tlsext_host_name(
            session->stream().next_layer().native_handle(), options.host.c_str());
    session->stream().next_layer().async_handshake(ssl::stream_base::client,
        [session, context, options, hostPort, done](beast::error_code ec) {
            if (ec) {
                done(netError("TLS handshake with the agent at " + hostPort + " failed: "
                    + (ec == beast::error::timeout ? std::string("not completed in time")
                                                   : ec.message()
                                + " (an agent that listens without TLS closes TLS connections)")));
                return;
            }
            X509 *certificate
                = SSL_get0_peer_certificate(session->stream().next_layer().native_handle());
            const std::string fingerprint
                = certificate ? fingerprintOf(certificate) : std::string();
            if (fingerprint.empty()) {
                done(netError("the agent at " + hostPort + " sent no certificate"));
                return;
            }
            bool firstUse = false;
            if (std::string refused = checkKnownAgent(options, hostPort, fingerprint, firstUse);
                !refused.empty()) {
                beast::error_code ignored;
                beast::get_lowest_layer(session->stream()).socket().close(ignored);
                done(netError(std::move(refused)));
                return;
            }
            requestUpgrade<TlsStream>(
                session, hostPort, [session, fingerprint, firstUse, done](std::string error) {
                    if (!error.empty())
                        done(netError(std::move(error)));
                    else
                        done(ClientSession {
                            session, session->settings().peer, fingerprint, firstUse});
                });
        });
}

} // namespace detail

} // namespace ioprism::net
