// SPDX-License-Identifier: GPL-3.0-or-later
// Comparing a secret without telling, by the time it takes, how much of it was right.
// core builds for Windows without OpenSSL, so this is ours rather than CRYPTO_memcmp.
#pragma once

#include <string_view>

namespace ioprism::core {

// True when `given` equals `secret`. The time depends on given.size() only (the length
// the peer chose), never on where the first difference is nor on the secret's length.
// An empty secret equals nothing: an agent without a token accepts no one.
bool constantTimeEquals(std::string_view given, std::string_view secret) noexcept;

} // namespace ioprism::core
