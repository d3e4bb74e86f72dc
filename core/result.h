// SPDX-License-Identifier: GPL-3.0-or-later
// Results of platform operations: a value, or an error carrying the std::error_code
// (errno or GetLastError through system_category), the operation and the path.
// No exception crosses a worker loop; these travel instead.
#pragma once

#include <string>
#include <system_error>
#include <utility>
#include <variant>

namespace ioprism::core {

struct OpError {
    std::error_code code;
    std::string operation; // e.g. "open", "io_uring_queue_init", "fallocate"
    std::string path; // the file or device involved, "" if none
    std::string detail; // optional human hint ("device is mounted at /mnt")

    // "open /dev/loop3: Device or resource busy (device is mounted at /mnt)"
    std::string toString() const
    {
        std::string s = operation;
        if (!path.empty())
            s += " " + path;
        if (code)
            s += ": " + code.message();
        if (!detail.empty())
            s += code ? " (" + detail + ")" : ": " + detail;
        return s;
    }
    friend bool operator==(const OpError &, const OpError &) = default;
};

inline OpError makeOpError(
    int errnoValue, std::string operation, std::string path = {}, std::string detail = {})
{
    return {std::error_code(errnoValue, std::system_category()), std::move(operation),
        std::move(path), std::move(detail)};
}

template<typename T> class [[nodiscard]] Result
{
public:
    Result(T value)
        : m_v(std::move(value))
    { }
    Result(OpError error)
        : m_v(std::move(error))
    { }
    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }
    T &value() { return std::get<0>(m_v); }
    const T &value() const { return std::get<0>(m_v); }
    T &operator*() { return value(); }
    const T &operator*() const { return value(); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    const OpError &error() const { return std::get<1>(m_v); }

private:
    std::variant<T, OpError> m_v;
};

struct Ok {
};
using Status = Result<Ok>;

} // namespace ioprism::core
