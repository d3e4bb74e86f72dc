// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/agent/agent_messages.h"

#include "core/agent/message_channel.h"
#include "core/json/json_reader.h"
#include "core/json/whole_numbers.h"

#include <array>
#include <limits>
#include <nlohmann/json.hpp>
#include <type_traits>

namespace ioprism::core {

namespace {

using Json = nlohmann::json;

// ---------------------------------------------------------------- what each message holds
//
// One list of fields per message, read by the encoder and the decoder alike (as the
// session codec does), so that the two cannot drift apart. The keys are the protocol's
// (docs/agent-protocol.md): never rename one without raising kAgentProtocolVersion.

template<typename V> void fields(V &v, HelloMessage &x)
{
    v("version", x.version);
    v("session", x.session);
    v("token", x.token);
    v("controller", x.controller);
}
template<typename V> void fields(V &v, ClockRequest &x)
{
    v("id", x.id);
    v("controllerNs", x.controllerNs);
}
template<typename V> void fields(V &, InventoryRequest &)
{ }
template<typename V> void fields(V &v, GoMessage &x)
{
    v("step", x.step);
    v("startNs", x.startNs);
    v("stop", x.stop);
}
template<typename V> void fields(V &, StopMessage &)
{ }
template<typename V> void fields(V &, StopNowMessage &)
{ }
template<typename V> void fields(V &, ByeMessage &)
{ }
template<typename V> void fields(V &v, WelcomeMessage &x)
{
    v("version", x.version);
    v("session", x.session);
    v("host", x.host);
    v("os", x.os);
    v("cpus", x.cpus);
    v("engines", x.engines);
    v("pid", x.pid);
}
template<typename V> void fields(V &v, RefusedMessage &x)
{
    v("reason", x.reason);
}
template<typename V> void fields(V &v, ClockReply &x)
{
    v("id", x.id);
    v("controllerNs", x.controllerNs);
    v("agentNs", x.agentNs);
}
template<typename V> void fields(V &v, InventoryDevice &x)
{
    v("path", x.path);
    v("model", x.model);
    v("sizeBytes", x.sizeBytes);
    v("inUse", x.inUse);
}
template<typename V> void fields(V &v, InventoryMount &x)
{
    v("mountPoint", x.mountPoint);
    v("fsType", x.fsType);
    v("freeBytes", x.freeBytes);
    v("totalBytes", x.totalBytes);
}
template<typename V> void fields(V &v, InventoryMessage &x)
{
    v("devices", x.devices);
    v("mounts", x.mounts);
    v("roots", x.roots);
}
template<typename V> void fields(V &v, ReadyMessage &x)
{
    v("step", x.step);
}
template<typename V> void fields(V &v, BusyMessage &x)
{
    v("controller", x.controller);
    v("sinceUnixMs", x.sinceUnixMs);
    v("reason", x.reason);
}
template<typename V> void fields(V &v, ErrorMessage &x)
{
    v("reason", x.reason);
}
template<typename V> void fields(V &v, EndStepMessage &x)
{
    v("step", x.step);
}
template<typename V> void fields(V &v, AmountDoneMessage &x)
{
    v("step", x.step);
}

constexpr std::array<const char *, std::variant_size_v<ToAgent>> kToAgentTypes
    = {"hello", "clock", "inventory?", "go", "stop", "stop-now", "bye", "end-step"};
constexpr std::array<const char *, std::variant_size_v<FromAgent>> kFromAgentTypes
    = {"welcome", "refused", "clock", "inventory", "ready", "busy", "error", "amount-done"};

template<typename T> struct IsStdVector : std::false_type { };
template<typename T> struct IsStdVector<std::vector<T>> : std::true_type { };

// ---------------------------------------------------------------- encoding

template<typename T> Json encodeValue(const T &value)
{
    if constexpr (std::is_integral_v<T> || std::is_same_v<T, std::string>)
        return value; // bool is integral, and JSON's own true/false
    else if constexpr (IsStdVector<T>::value) {
        Json array = Json::array();
        for (const auto &element : value)
            array.push_back(encodeValue(element));
        return array;
    } else {
        Json object = Json::object();
        auto write
            = [&object](const char *key, const auto &member) { object[key] = encodeValue(member); };
        fields(write, const_cast<T &>(value)); // fields() only reads through the writer
        return object;
    }
}

template<typename Variant, std::size_t N>
std::string encodeMessage(const Variant &message, const std::array<const char *, N> &types)
{
    Json object = std::visit([](const auto &m) { return encodeValue(m); }, message);
    object["agent"] = kAgentProtocolVersion;
    object["type"] = types[message.index()];
    return object.dump();
}

// ---------------------------------------------------------------- decoding

template<typename T> void decodeFields(JsonObjectReader &reader, T &value);

template<typename T> void decodeValue(const JsonNode &node, T &value)
{
    if constexpr (std::is_same_v<T, bool>)
        value = node.boolean();
    else if constexpr (std::is_same_v<T, std::string>)
        value = node.string();
    else if constexpr (std::is_integral_v<T>) {
        JsonWholeNumbers in {node};
        readWholeNumber(in, value);
    } else if constexpr (IsStdVector<T>::value) {
        if (!node.isArray())
            return;
        value.clear();
        value.resize(node.size());
        for (std::size_t i = 0; i < value.size(); ++i)
            decodeValue(node.at(i), value[i]);
    } else {
        JsonObjectReader reader(node);
        if (!reader.ok())
            return;
        decodeFields(reader, value);
        reader.finish();
    }
}

// Every field is required: a writer of this version writes them all.
template<typename T> void decodeFields(JsonObjectReader &reader, T &value)
{
    auto read = [&reader](const char *key, auto &member) {
        const Json *v = reader.take(key);
        if (!v) {
            reader.context().error(reader.path(key), "missing");
            return;
        }
        decodeValue(JsonNode(*v, reader.path(key), reader.context()), member);
    };
    fields(read, value);
}

template<std::size_t I = 0, typename Variant, std::size_t N>
void decodeBody(JsonObjectReader &reader, const std::string &type, Variant &message,
    const std::array<const char *, N> &types)
{
    if constexpr (I == std::variant_size_v<Variant>)
        reader.context().error(reader.path("type"), "unknown message type \"" + type + "\"");
    else if (type == types[I]) {
        std::variant_alternative_t<I, Variant> value;
        decodeFields(reader, value);
        message = std::move(value);
    } else
        decodeBody<I + 1>(reader, type, message, types);
}

// The peer's versions, for a refusal that names both sides': the protocol it wrote and,
// when the message says it (hello, welcome), its IOPrism version.
std::string versionMismatch(const Json &document)
{
    const Json &protocol = document["agent"];
    std::string peer = "agent protocol " + protocol.dump();
    const auto version = document.find("version");
    if (version != document.end() && version->is_string())
        peer += " (IOPrism " + jsonValueText(*version) + ")";
    return peer + ", this IOPrism " IOPRISM_VERSION " speaks agent protocol "
        + std::to_string(kAgentProtocolVersion) + ": run the same IOPrism version on both sides";
}

template<typename Variant, std::size_t N>
AgentDecoded<Variant> decodeMessage(std::string_view text, const std::array<const char *, N> &types)
{
    AgentDecoded<Variant> out;
    if (isBinaryMessage(text)) {
        out.session = true; // only the session codec writes binary messages (an interval)
        return out;
    }
    Json document = Json::parse(text, nullptr, false);
    if (document.is_discarded()) {
        out.error = "not an agent message (not JSON)";
        return out;
    }
    if (document.is_object() && document.contains("session") && !document.contains("agent")) {
        out.session = true; // the session codec reads it, with its own checks
        return out;
    }
    out.error = firstJsonReadError(
        [&](JsonReadContext &context) {
            JsonObjectReader root(context, document, "");
            if (!root.ok())
                return;
            const Json *protocol = root.take("agent");
            if (!protocol) {
                context.error("agent", "missing: not an agent message");
                return;
            }
            const Json *type = root.take("type");
            // `refused` reads the same in every version, so that a peer of another
            // version can still say why it refuses.
            const bool frozenRefusal = type && type->is_string() && *type == "refused"
                && document.size() == 3 && document.contains("reason")
                && document["reason"].is_string();
            if (!frozenRefusal
                && (!protocol->is_number_integer()
                    || protocol->get<std::int64_t>() != kAgentProtocolVersion)) {
                context.error("agent", versionMismatch(document));
                return;
            }
            if (!type) {
                context.error("type", "missing");
                return;
            }
            const std::string typeName = JsonNode(*type, "type", context).string();
            out.value.emplace();
            decodeBody(root, typeName, *out.value, types);
            root.finish();
        },
        "cannot read the agent message: ");
    if (!out.error.empty())
        out.value.reset();
    else if (!out.value)
        out.error = "not an agent message";
    return out;
}

} // namespace

std::string encodeAgentMessage(const ToAgent &message)
{
    return encodeMessage(message, kToAgentTypes);
}

std::string encodeAgentMessage(const FromAgent &message)
{
    return encodeMessage(message, kFromAgentTypes);
}

AgentDecoded<ToAgent> decodeToAgent(std::string_view text)
{
    if (text.size() > kAgentMaxInboundBytes) {
        AgentDecoded<ToAgent> out;
        out.error = "a message of " + std::to_string(text.size())
            + " bytes is over the agent's limit of " + std::to_string(kAgentMaxInboundBytes)
            + " bytes";
        return out;
    }
    return decodeMessage<ToAgent>(text, kToAgentTypes);
}

AgentDecoded<FromAgent> decodeFromAgent(std::string_view text)
{
    return decodeMessage<FromAgent>(text, kFromAgentTypes);
}

std::string_view agentMessageType(const ToAgent &message)
{
    return kToAgentTypes[message.index()];
}

std::string_view agentMessageType(const FromAgent &message)
{
    return kFromAgentTypes[message.index()];
}

} // namespace ioprism::core
