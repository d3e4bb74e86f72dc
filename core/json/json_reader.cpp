// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/json/json_reader.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <limits>

namespace ioprism::core {

using Json = nlohmann::json;

std::string jsonKeyPath(const std::string &base, std::string_view key)
{
    return base.empty() ? std::string(key) : base + "." + std::string(key);
}

std::string jsonIndexPath(const std::string &base, std::size_t index)
{
    return base + "[" + std::to_string(index) + "]";
}

std::string jsonTypeName(const Json &value)
{
    switch (value.type()) {
    case Json::value_t::null:
        return "null";
    case Json::value_t::boolean:
        return "a boolean";
    case Json::value_t::string:
        return "a string";
    case Json::value_t::array:
        return "an array";
    case Json::value_t::object:
        return "an object";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
        return "a number";
    case Json::value_t::binary:
    case Json::value_t::discarded:
        break;
    }
    return "an unknown value";
}

std::string jsonValueText(const Json &value)
{
    constexpr std::size_t kMaxChars = 40;
    switch (value.type()) {
    case Json::value_t::object:
        return "an object";
    case Json::value_t::array:
        return "an array";
    case Json::value_t::string: {
        std::string s = value.get_ref<const std::string &>();
        if (s.size() > kMaxChars) {
            // Cut on a UTF-8 character boundary.
            std::size_t cut = kMaxChars;
            while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
                --cut;
            s = s.substr(0, cut) + "...";
        }
        return Json(s).dump(-1, ' ', false, Json::error_handler_t::replace);
    }
    case Json::value_t::null:
    case Json::value_t::boolean:
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
        return value.dump();
    case Json::value_t::binary:
    case Json::value_t::discarded:
        break;
    }
    return "an unreadable value";
}

std::size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const char ca = static_cast<char>(std::tolower(static_cast<unsigned char>(a[i - 1])));
            const char cb = static_cast<char>(std::tolower(static_cast<unsigned char>(b[j - 1])));
            const std::size_t substitute = diagonal + (ca == cb ? 0 : 1);
            diagonal = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitute});
        }
    }
    return row[b.size()];
}

// ---------------------------------------------------------------- JsonReadContext

void JsonReadContext::error(std::string path, std::string message)
{
    m_problems.push_back({Severity::Error, std::move(path), std::move(message)});
    if (m_policy == Policy::StopAtFirst)
        throw JsonReadStopped {};
}

void JsonReadContext::warning(std::string path, std::string message)
{
    m_problems.push_back({Severity::Warning, std::move(path), std::move(message)});
}

void JsonReadContext::wrongType(
    const std::string &path, const Json &value, std::string_view expected)
{
    if (m_wording == Wording::ValueGiven)
        error(path, fmt::format("expected {}, got {}", expected, jsonValueText(value)));
    else
        error(path, fmt::format("expected {}, found {}", expected, jsonTypeName(value)));
}

// ---------------------------------------------------------------- JsonNode

namespace {

const Json &nullJson()
{
    static const Json null;
    return null;
}

} // namespace

void JsonNode::wrongType(std::string_view expected) const
{
    m_context->wrongType(m_path, *m_j, expected);
}

void JsonNode::fail(const std::string &message) const
{
    m_context->error(m_path, message);
}

bool JsonNode::isObject() const
{
    if (m_j->is_object())
        return true;
    wrongType("an object");
    return false;
}

bool JsonNode::isArray() const
{
    if (m_j->is_array())
        return true;
    wrongType("an array");
    return false;
}

JsonNode JsonNode::operator[](std::string_view key) const
{
    const std::string path = jsonKeyPath(m_path, key);
    if (!isObject())
        return {nullJson(), path, *m_context};
    const auto it = m_j->find(key);
    if (it == m_j->end()) {
        m_context->error(path, "missing");
        return {nullJson(), path, *m_context};
    }
    return {*it, path, *m_context};
}

JsonNode JsonNode::optional(std::string_view key) const
{
    const std::string path = jsonKeyPath(m_path, key);
    if (!isObject())
        return {nullJson(), path, *m_context};
    const auto it = m_j->find(key);
    return {it == m_j->end() ? nullJson() : *it, path, *m_context};
}

bool JsonNode::has(std::string_view key) const
{
    return isObject() && m_j->contains(key);
}

std::size_t JsonNode::size() const
{
    return isArray() ? m_j->size() : 0;
}

JsonNode JsonNode::at(std::size_t i) const
{
    const std::string path = jsonIndexPath(m_path, i);
    if (!isArray() || i >= m_j->size())
        return {nullJson(), path, *m_context};
    return {(*m_j)[i], path, *m_context};
}

std::string JsonNode::string() const
{
    if (m_j->is_string())
        return m_j->get<std::string>();
    wrongType("a string");
    return {};
}

std::string JsonNode::stringOrEmpty() const
{
    return isNull() ? std::string() : string();
}

bool JsonNode::boolean() const
{
    if (m_j->is_boolean())
        return m_j->get<bool>();
    wrongType("a boolean");
    return false;
}

std::uint64_t JsonNode::u64() const
{
    if (m_j->is_number_unsigned())
        return m_j->get<std::uint64_t>();
    if (m_j->is_number_integer()) // negative: the parser keeps non-negative ones unsigned
        fail(fmt::format("{} is negative", m_j->get<std::int64_t>()));
    else
        wrongType("a whole number");
    return 0;
}

std::uint32_t JsonNode::u32() const
{
    const std::uint64_t v = u64();
    if (v <= std::numeric_limits<std::uint32_t>::max())
        return static_cast<std::uint32_t>(v);
    fail(fmt::format("{} is too large", v));
    return 0;
}

std::int64_t JsonNode::i64() const
{
    if (m_j->is_number_integer() && !m_j->is_number_unsigned())
        return m_j->get<std::int64_t>();
    if (m_j->is_number_unsigned()) {
        const auto v = m_j->get<std::uint64_t>();
        if (v <= std::uint64_t(std::numeric_limits<std::int64_t>::max()))
            return static_cast<std::int64_t>(v);
        fail(fmt::format("{} is too large", v));
        return 0;
    }
    wrongType("a whole number");
    return 0;
}

int JsonNode::index() const
{
    if (isNull())
        return -1;
    const std::uint64_t v = u64();
    if (v <= std::uint64_t(std::numeric_limits<int>::max()))
        return static_cast<int>(v);
    fail(fmt::format("{} is too large", v));
    return -1;
}

double JsonNode::number() const
{
    if (m_j->is_number())
        return m_j->get<double>();
    wrongType("a number");
    return 0;
}

double JsonNode::numberOrNan() const
{
    return isNull() ? std::numeric_limits<double>::quiet_NaN() : number();
}

double JsonNode::numberOrZero() const
{
    return isNull() ? 0.0 : number();
}

// ---------------------------------------------------------------- JsonObjectReader

JsonObjectReader::JsonObjectReader(JsonReadContext &context, const Json &json, std::string path)
    : m_context(context)
    , m_json(json)
    , m_path(std::move(path))
    , m_ok(json.is_object())
{
    if (!m_ok)
        m_context.wrongType(m_path, json, "an object");
}

const Json *JsonObjectReader::take(std::string_view key)
{
    m_known.emplace_back(key);
    if (!m_ok)
        return nullptr;
    const auto it = m_json.find(key);
    return it == m_json.end() ? nullptr : &*it;
}

bool JsonObjectReader::has(std::string_view key) const
{
    return m_ok && m_json.contains(key);
}

void JsonObjectReader::finish(Severity unknownFields)
{
    if (!m_ok)
        return;
    for (const auto &[key, value] : m_json.items()) {
        if (std::find(m_known.begin(), m_known.end(), key) != m_known.end())
            continue;
        std::string message = "unknown field";
        std::size_t best = std::numeric_limits<std::size_t>::max();
        std::string suggestion;
        for (const auto &known : m_known) {
            const std::size_t d = editDistance(key, known);
            if (d < best) {
                best = d;
                suggestion = known;
            }
        }
        if (!suggestion.empty() && best <= std::max<std::size_t>(1, suggestion.size() / 3))
            message += " (did you mean \"" + suggestion + "\"?)";
        if (unknownFields == Severity::Error)
            m_context.error(path(key), message);
        else
            m_context.warning(path(key), message);
    }
}

} // namespace ioprism::core
