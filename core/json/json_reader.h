// SPDX-License-Identifier: GPL-3.0-or-later
// One path-aware reader of JSON documents, for every reader of outside data in core:
// profiles (core/profile/profile_json.h), results (core/report/results_reader.h), the
// results' plan (core/run/resolved_plan_json.h) and, next, the run session's messages.
//
// A JsonNode is a value of the document with its JSON path (`steps[1].scopes[0].read.iops`);
// a JsonObjectReader reads the fields of one object and remembers which it asked for, so
// that the others can be reported as unknown (with "did you mean" for a typo). Every
// problem goes to one JsonReadContext, which decides what a problem does:
//
// - Policy::CollectAll (profiles: a user wrote the file, and wants every mistake in one
//   pass): the problem is recorded and reading goes on; a typed read that failed returns
//   a default (0, "", false) and the caller's model keeps its value.
// - Policy::StopAtFirst (results, wire messages: a program wrote the file, and the first
//   problem says it is damaged): the problem is recorded and the read stops, by throwing
//   JsonReadStopped. That exception is part of this reader's protocol only: run a read
//   with firstJsonReadError(), which catches it (and anything else: bad_alloc), so that
//   no public reader throws, whatever the input.
//
// Wording: a profile's message quotes what the user wrote (`expected a number, got "x"`);
// a results file's names what it found (`expected a number, found a string`), since its
// values are long and not the user's. The context carries which (Wording).
#pragma once

#include "core/profile/problem.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ioprism::core {

// "a.b", "b" (under the root); "a[3]".
std::string jsonKeyPath(const std::string &base, std::string_view key);
std::string jsonIndexPath(const std::string &base, std::size_t index);

// "a string", "a number", "null", ...: what a value is.
std::string jsonTypeName(const nlohmann::json &value);
// A short rendering of a value for messages: scalars as written, containers by kind, a
// long string cut (on a UTF-8 boundary) so that one bad value cannot flood the output.
std::string jsonValueText(const nlohmann::json &value);

// Edit distance (case-insensitive), to suggest the field a misspelt key probably meant.
std::size_t editDistance(std::string_view a, std::string_view b);

// Thrown by JsonReadContext::error under StopAtFirst; caught by firstJsonReadError.
struct JsonReadStopped {
};

class JsonReadContext
{
public:
    enum class Policy { CollectAll, StopAtFirst };
    enum class Wording {
        ValueGiven, // "expected a number, got \"x\""
        TypeFound, // "expected a number, found a string"
    };

    JsonReadContext(Problems &problems, Policy policy, Wording wording)
        : m_problems(problems)
        , m_policy(policy)
        , m_wording(wording)
    { }

    Policy policy() const { return m_policy; }
    Wording wording() const { return m_wording; }
    Problems &problems() { return m_problems; }

    // Records an error at `path` ("" = the whole document); under StopAtFirst, then
    // throws JsonReadStopped.
    void error(std::string path, std::string message);
    void warning(std::string path, std::string message);
    // "expected <expected>, got <value>" or "expected <expected>, found <type>".
    void wrongType(const std::string &path, const nlohmann::json &value, std::string_view expected);

private:
    Problems &m_problems;
    Policy m_policy;
    Wording m_wording;
};

// A value of the document with its path. Typed reads report a value of the wrong kind
// to the context (see the policies above); the node refers to the document, which must
// outlive it.
class JsonNode
{
public:
    JsonNode(const nlohmann::json &json, std::string path, JsonReadContext &context)
        : m_j(&json)
        , m_path(std::move(path))
        , m_context(&context)
    { }

    const nlohmann::json &json() const { return *m_j; }
    const std::string &path() const { return m_path; }
    JsonReadContext &context() const { return *m_context; }
    bool isNull() const { return m_j->is_null(); }

    // A field that must be there ("missing" otherwise); it may still be null where the
    // caller allows that. Under CollectAll a missing field reads as null.
    JsonNode operator[](std::string_view key) const;
    // A field that may be left out: absent reads as null.
    JsonNode optional(std::string_view key) const;
    bool has(std::string_view key) const;

    std::size_t size() const; // of an array (0 when it is not one, under CollectAll)
    JsonNode at(std::size_t i) const;

    bool isObject() const; // an object, else reported
    bool isArray() const; // an array, else reported
    std::string string() const;
    std::string stringOrEmpty() const; // "" for null (a writer's "nothing here")
    bool boolean() const;
    std::uint64_t u64() const; // a whole number from 0
    std::uint32_t u32() const;
    std::int64_t i64() const; // any whole number
    int index() const; // a non-negative index, or -1 for null
    double number() const;
    double numberOrNan() const; // null: a value that was not finite
    double numberOrZero() const;

    // Reports that the value is not `expected` ("a whole number").
    void wrongType(std::string_view expected) const;
    // Reports `message` at this node's path.
    void fail(const std::string &message) const;

private:
    const nlohmann::json *m_j;
    std::string m_path;
    JsonReadContext *m_context;
};

// The fields of one object, read by name. A value that is not an object is reported
// ("expected an object, ...") and ok() is false: every field then reads as absent.
class JsonObjectReader
{
    using Json = nlohmann::json;

public:
    JsonObjectReader(JsonReadContext &context, const nlohmann::json &json, std::string path);
    explicit JsonObjectReader(const JsonNode &node)
        : JsonObjectReader(node.context(), node.json(), node.path())
    { }
    JsonObjectReader(const JsonObjectReader &) = delete;
    JsonObjectReader &operator=(const JsonObjectReader &) = delete;

    bool ok() const { return m_ok; }
    JsonReadContext &context() { return m_context; }
    std::string path(std::string_view key) const { return jsonKeyPath(m_path, key); }
    const std::string &path() const { return m_path; }

    // The value of `key`, or null when absent; the key is known from now on.
    const Json *take(std::string_view key);
    bool has(std::string_view key) const;

    // fn(const Json &value, const std::string &path), when the field is there.
    template<typename Fn> void field(std::string_view key, Fn &&fn)
    {
        if (const Json *v = take(key))
            fn(*v, path(key));
    }

    // A nested object: fn(JsonObjectReader &) reads its fields; then its unknown ones
    // are reported.
    template<typename Fn> void object(std::string_view key, Fn &&fn)
    {
        field(key, [&](const Json &v, const std::string &p) {
            JsonObjectReader nested(m_context, v, p);
            if (!nested.ok())
                return;
            fn(nested);
            nested.finish();
        });
    }

    // An array: fn(const nlohmann::json &element, const std::string &elementPath) per element.
    template<typename Fn> void array(std::string_view key, Fn &&fn)
    {
        field(key, [&](const Json &v, const std::string &p) {
            if (!v.is_array()) {
                m_context.wrongType(p, v, "an array");
                return;
            }
            for (std::size_t i = 0; i < v.size(); ++i)
                fn(v[i], jsonIndexPath(p, i));
        });
    }

    // An array of objects read into a vector, each element by read(JsonObjectReader &, T &).
    template<typename T, typename Fn>
    void objects(std::string_view key, std::vector<T> &out, Fn &&read)
    {
        field(key, [&](const Json &v, const std::string &p) {
            if (!v.is_array()) {
                m_context.wrongType(p, v, "an array");
                return;
            }
            out.clear();
            for (std::size_t i = 0; i < v.size(); ++i) {
                T item {};
                JsonObjectReader element(m_context, v[i], jsonIndexPath(p, i));
                if (element.ok()) {
                    read(element, item);
                    element.finish();
                }
                out.push_back(std::move(item));
            }
        });
    }

    // Reports every field not asked for as "unknown field" (with a suggestion for a
    // typo), as an error or a warning.
    void finish(Severity unknownFields = Severity::Error);

private:
    JsonReadContext &m_context;
    const nlohmann::json &m_json;
    std::string m_path;
    bool m_ok;
    std::vector<std::string> m_known;
};

// Runs read() under a StopAtFirst context of its own and returns the first error's text
// ("path: message"), or "" when it read cleanly. Nothing escapes: an exception other than
// the reader's own (bad_alloc) becomes "<prefix><what>".
template<typename Fn>
std::string firstJsonReadError(Fn &&read, std::string_view unexpectedPrefix) noexcept
{
    try {
        Problems problems;
        JsonReadContext context(
            problems, JsonReadContext::Policy::StopAtFirst, JsonReadContext::Wording::TypeFound);
        try {
            read(context);
        } catch (const JsonReadStopped &) { }
        for (const auto &p : problems)
            if (p.severity == Severity::Error)
                return p.toString();
        return {};
    } catch (const std::exception &e) {
        try {
            return std::string(unexpectedPrefix) + e.what();
        } catch (...) {
            return "out of memory";
        }
    } catch (...) {
        return "cannot read the document";
    }
}

} // namespace ioprism::core
