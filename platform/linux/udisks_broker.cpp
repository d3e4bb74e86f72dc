// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/udisks_broker.h"

#include "platform/linux/test_file_marks.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <systemd/sd-bus.h>

namespace ioprism::platform {

using core::makeOpError;

namespace {

constexpr const char *kService = "org.freedesktop.UDisks2";
constexpr const char *kBlockInterface = "org.freedesktop.UDisks2.Block";

struct BusUnref {
    // No flush: a bus that stopped answering must not hold up a stopped run or the window.
    void operator()(sd_bus *bus) const { sd_bus_close_unref(bus); }
};
struct MessageUnref {
    void operator()(sd_bus_message *m) const { sd_bus_message_unref(m); }
};
using Bus = std::unique_ptr<sd_bus, BusUnref>;
using Message = std::unique_ptr<sd_bus_message, MessageUnref>;

// An sd_bus_error freed on every path.
struct BusError {
    sd_bus_error e {}; // SD_BUS_ERROR_NULL, which is a C compound literal
    BusError() = default;
    BusError(const BusError &) = delete;
    BusError &operator=(const BusError &) = delete;
    ~BusError() { sd_bus_error_free(&e); }
    bool is(const char *name) const { return sd_bus_error_has_name(&e, name) != 0; }
    // Nobody owns udisks2's name on the bus (not installed, not started).
    bool noUdisks() const
    {
        return is("org.freedesktop.DBus.Error.ServiceUnknown")
            || is("org.freedesktop.DBus.Error.NameHasNoOwner")
            || is("org.freedesktop.DBus.Error.Spawn.ServiceNotFound");
    }
    // udisks2 runs but has no such object (a device udev never told it of).
    bool unknownObject() const
    {
        return is("org.freedesktop.DBus.Error.UnknownObject")
            || is("org.freedesktop.DBus.Error.UnknownMethod")
            || is("org.freedesktop.DBus.Error.UnknownInterface");
    }
    // sd-bus's own failure, an errno (System.Error.ENOENT, ...): no bus to talk to.
    bool fromErrno() const
    {
        return e.name && std::string_view(e.name).starts_with("System.Error.");
    }
    std::string message() const { return e.message ? e.message : (e.name ? e.name : ""); }
};

// The system bus (DBUS_SYSTEM_BUS_ADDRESS when set, as the e2e test does), or why not.
core::Result<Bus> systemBus(const std::string &path)
{
    sd_bus *bus = nullptr;
    const int r = sd_bus_open_system(&bus);
    if (r < 0)
        return makeOpError(ENOENT, "open device through udisks2", path,
            "cannot reach the system D-Bus to ask udisks2 (" + errnoText(-r)
                + "): run the CLI with sudo, or where D-Bus and udisks2 run");
    return Bus(bus);
}

// What helps when polkit says no (docs/targets.md "Privilege" has the rule).
std::string advice()
{
    return "run the CLI with sudo, or have an administrator add a polkit rule for "
        + std::string(kUdisksOpenAction) + " (docs/targets.md shows one)";
}

// What udisksd's own open(2) said: udisks puts strerror's text in its message
// ("Error opening device /dev/loop3: Device or resource busy"), in the C locale (the
// daemon sets none), so it is compared with glibc's untranslated texts, whatever this
// process's language.
int errnoInUdisksMessage(const std::string &message)
{
    for (const int err : {EBUSY, EACCES, EPERM, EROFS, ENXIO, ENOMEDIUM, EINVAL, ENOENT, EIO})
        if (const char *text = ::strerrordesc_np(err);
            text && message.find(text) != std::string::npos)
            return err;
    return EIO;
}

core::OpError refusal(const BusError &error, const std::string &path, const std::string &name)
{
    const std::string op = "open device through udisks2";
    if (error.is("org.freedesktop.UDisks2.Error.NotAuthorizedDismissed"))
        return makeOpError(ECANCELED, op, path,
            "the request for permission was dismissed: nothing was opened; start again and "
            "allow it, or choose another target");
    if (error.is("org.freedesktop.UDisks2.Error.NotAuthorizedCanObtain"))
        return makeOpError(EACCES, op, path,
            "polkit would ask you for a password, but no authentication agent runs in this "
            "session to ask (a desktop session starts one; a terminal or ssh session has "
            "none): "
                + advice());
    if (error.is("org.freedesktop.UDisks2.Error.NotAuthorized")
        || error.is("org.freedesktop.DBus.Error.AccessDenied"))
        return makeOpError(EACCES, op, path,
            "polkit does not allow this user to open " + name + " through udisks2: " + advice());
    if (error.noUdisks())
        return makeOpError(ENOENT, op, path,
            "udisks2 does not run on this system: install and start it (apt install udisks2; "
            "systemctl start udisks2), or run the CLI with sudo");
    if (error.unknownObject())
        return makeOpError(ENOENT, op, path,
            "udisks2 does not know " + name
                + " (is udev running? udisks2 lists only devices in udev's database): run the "
                  "CLI with sudo");
    if (error.is("org.freedesktop.DBus.Error.NoReply")
        && error.message().find("erminated") != std::string::npos)
        return makeOpError(ECONNRESET, op, path,
            "the connection to udisks2 ended before it answered (did udisksd or the system bus "
            "stop?): start again");
    if (error.is("org.freedesktop.DBus.Error.NoReply")
        || error.is("org.freedesktop.DBus.Error.Timeout")
        || error.is("org.freedesktop.DBus.Error.TimedOut"))
        return makeOpError(ETIMEDOUT, op, path,
            "no answer from udisks2 in time (was polkit's question left open?): start again");
    if (const int err = sd_bus_error_get_errno(&error.e); err != 0 && error.fromErrno())
        return makeOpError(ENOENT, op, path,
            "cannot reach the system D-Bus to ask udisks2 (" + errnoText(err)
                + "): run the CLI with sudo, or where D-Bus and udisks2 run");
    const std::string message = error.message();
    return makeOpError(errnoInUdisksMessage(message), op, path, "udisks2: " + message);
}

// The answer to `call`, waiting in steps of 100 ms so that a run stopped meanwhile
// (request.stillWanted) does not wait for a question nobody answers.
struct Pending {
    Message reply;
    BusError *error = nullptr;
    bool done = false;
};

int onReply(sd_bus_message *m, void *userdata, sd_bus_error *)
{
    auto *pending = static_cast<Pending *>(userdata);
    pending->done = true;
    if (const sd_bus_error *e = sd_bus_message_get_error(m))
        sd_bus_error_copy(&pending->error->e, e);
    else
        pending->reply.reset(sd_bus_message_ref(m));
    return 0;
}

// Sends `call` and waits up to `timeoutUs` for its answer, polling `stillWanted`: the
// reply, or null with `error` set (or `stopped`). Never blocks longer than the timeout,
// not even while the connection is still being set up (sd_bus_call would).
Message awaitAnswer(sd_bus *bus, sd_bus_message *call, std::uint64_t timeoutUs,
    const std::function<bool()> &stillWanted, BusError &error, bool &stopped)
{
    Pending pending;
    pending.error = &error;
    sd_bus_slot *slot = nullptr;
    int r = sd_bus_call_async(bus, &slot, call, onReply, &pending, timeoutUs);
    // Unreferencing the slot forgets a call still pending: no callback after we return.
    const std::unique_ptr<sd_bus_slot, decltype(&sd_bus_slot_unref)> owned(slot, sd_bus_slot_unref);
    constexpr std::uint64_t kPollUs = 100000;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(timeoutUs);
    while (r >= 0 && !pending.done) {
        r = sd_bus_process(bus, nullptr);
        if (r != 0 || pending.done)
            continue;
        if (stillWanted && !stillWanted()) {
            stopped = true;
            return nullptr;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            sd_bus_error_set_const(&error.e, "org.freedesktop.DBus.Error.Timeout", "no answer");
            return nullptr;
        }
        r = sd_bus_wait(bus, kPollUs);
        if (r == -EINTR)
            r = 0;
    }
    if (r < 0)
        sd_bus_error_set_errno(&error.e, r);
    return std::move(pending.reply);
}

core::Result<Message> awaitReply(
    sd_bus *bus, sd_bus_message *call, const BrokerRequest &request, BusError &error)
{
    const std::string path = "/dev/" + request.deviceName;
    const auto timeoutUs = static_cast<std::uint64_t>(request.timeout.count()) * 1000000u;
    bool stopped = false;
    Message reply = awaitAnswer(bus, call, timeoutUs, request.stillWanted, error, stopped);
    if (stopped)
        return makeOpError(ECANCELED, "open device through udisks2", path,
            "stopped while waiting for permission to open it");
    if (!reply)
        return refusal(error, path, request.deviceName);
    return reply;
}

// The call itself: Block.OpenDevice(mode, {"flags": i[, "auth.no_user_interaction": b]}).
core::Result<Message> callOpenDevice(sd_bus *bus, const BrokerRequest &request, BusError &error)
{
    const std::string object = udisksBlockObjectPath(request.deviceName);
    const std::string path = "/dev/" + request.deviceName;
    sd_bus_message *raw = nullptr;
    int r = sd_bus_message_new_method_call(
        bus, &raw, kService, object.c_str(), kBlockInterface, "OpenDevice");
    Message call(raw);
    if (r >= 0)
        r = sd_bus_message_set_allow_interactive_authorization(raw, request.interactive ? 1 : 0);
    if (r >= 0)
        r = sd_bus_message_append(raw, "s", request.write ? "rw" : "r");
    if (r >= 0)
        r = request.interactive
            ? sd_bus_message_append(raw, "a{sv}", 1, "flags", "i", request.flags | O_CLOEXEC)
            : sd_bus_message_append(raw, "a{sv}", 2, "flags", "i", request.flags | O_CLOEXEC,
                "auth.no_user_interaction", "b", 1);
    if (r < 0)
        return makeOpError(-r, "open device through udisks2", path, "cannot build the request");
    return awaitReply(bus, raw, request, error);
}

} // namespace

std::string udisksBlockObjectPath(std::string_view deviceName)
{
    std::string path = "/org/freedesktop/UDisks2/block_devices/";
    for (const char c : deviceName) {
        const auto u = static_cast<unsigned char>(c);
        if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9')
            || u == '_') {
            path += c;
        } else {
            std::array<char, 4> hex {};
            std::snprintf(hex.data(), hex.size(), "_%02x", u);
            path += hex.data();
        }
    }
    return path;
}

std::string openFlagsText(int flags, bool excl)
{
    const int access = flags & O_ACCMODE;
    std::string text = access == O_RDWR ? "O_RDWR" : access == O_WRONLY ? "O_WRONLY" : "O_RDONLY";
    if (flags & O_DIRECT)
        text += "|O_DIRECT";
    // O_SYNC includes O_DSYNC's bit: say the stronger one only.
    if ((flags & O_SYNC) == O_SYNC)
        text += "|O_SYNC";
    else if (flags & O_DSYNC)
        text += "|O_DSYNC";
    if (excl)
        text += "|O_EXCL";
    return text;
}

core::Result<UniqueFd> openThroughUdisks(const BrokerRequest &request)
{
    const std::string path = "/dev/" + request.deviceName;
    auto bus = systemBus(path);
    if (!bus)
        return bus.error();
    BusError error;
    auto reply = callOpenDevice(bus->get(), request, error);
    if (!reply)
        return reply.error();
    int fd = -1;
    const int r = sd_bus_message_read(reply->get(), "h", &fd);
    if (r < 0 || fd < 0)
        return makeOpError(r < 0 ? -r : EBADMSG, "open device through udisks2", path,
            "udisks2 answered without a descriptor");
    // The message owns the descriptor it carried: keep a copy of our own.
    const int own = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (own < 0)
        return makeOpError(errno, "open device through udisks2", path);
    return UniqueFd(own);
}

std::string udisksUnavailable(const std::string &deviceName)
{
    sd_bus *raw = nullptr;
    if (sd_bus_open_system(&raw) < 0)
        return "there is no system D-Bus to ask udisks2 on";
    Bus bus(raw);
    BusError error;
    // Block.Device is a plain property: reading it asks polkit nothing.
    sd_bus_message *reply = nullptr;
    int r = sd_bus_message_new_method_call(bus.get(), &reply, kService,
        udisksBlockObjectPath(deviceName).c_str(), "org.freedesktop.DBus.Properties", "Get");
    Message call(reply);
    if (r >= 0)
        r = sd_bus_message_append(reply, "ss", kBlockInterface, "Device");
    constexpr std::uint64_t kShortUs = 2000000; // 2 s: the Targets page waits for it
    bool stopped = false;
    Message answered
        = r >= 0 ? awaitAnswer(bus.get(), reply, kShortUs, {}, error, stopped) : nullptr;
    if (r < 0 && !sd_bus_error_is_set(&error.e))
        sd_bus_error_set_errno(&error.e, r);
    sd_bus_message *answer = answered.get();
    if (!answer) {
        if (error.noUdisks())
            return "udisks2 does not run here (apt install udisks2)";
        if (error.unknownObject() || error.is("org.freedesktop.DBus.Error.InvalidArgs"))
            return "udisks2 does not know " + deviceName;
        if (error.fromErrno())
            return "there is no system D-Bus to ask udisks2 on (" + error.message() + ")";
        return "udisks2 does not answer (" + error.message() + ")";
    }
    // The property is an `ay` (a NUL-terminated path) in a variant: present means known.
    r = sd_bus_message_enter_container(answer, 'v', "ay");
    if (r < 0)
        return "udisks2 does not know " + deviceName;
    return {};
}

} // namespace ioprism::platform
