// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers for the Windows platform tests (compiled only on Windows, run under Wine in
// CI): the portable engine helpers (engine_test_util.h), reachable as test::win::… as
// before, and a named pipe whose reads stay pending until the test writes.
#pragma once

#include "platform/windows/win_util.h"

#include <random>
#include <string>
#include <string_view>

#include "engine_test_util.h"

namespace ioprism::test::win {

using namespace ioprism::test;

// The server end of a named pipe that an engine opens as its "file": reads on it stay
// pending until the test writes, the one reliable way to get ERROR_IO_PENDING and a late
// completion on any Windows, Wine included.
class PipeServer
{
public:
    PipeServer()
    {
        std::random_device rd;
        m_name = "\\\\.\\pipe\\ioprism-test-" + std::to_string(rd())
            + std::to_string(::GetCurrentProcessId());
        m_handle = ::CreateNamedPipeA(m_name.c_str(), PIPE_ACCESS_DUPLEX,
            PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT, 1, 65536, 65536, 0, nullptr);
    }
    ~PipeServer()
    {
        if (m_handle != INVALID_HANDLE_VALUE)
            ::CloseHandle(m_handle);
    }
    PipeServer(const PipeServer &) = delete;
    PipeServer &operator=(const PipeServer &) = delete;
    bool ok() const { return m_handle != INVALID_HANDLE_VALUE; }
    const std::string &name() const { return m_name; }
    bool write(std::string_view text)
    {
        DWORD written = 0;
        return ::WriteFile(
                   m_handle, text.data(), static_cast<DWORD>(text.size()), &written, nullptr)
            && written == text.size();
    }

private:
    std::string m_name;
    HANDLE m_handle = INVALID_HANDLE_VALUE;
};

} // namespace ioprism::test::win
