// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the run session's messages (core/run/session_codec.h), what an agent
// or an MPI rank reads from the other side.
//
// Beyond "does not crash": a refusal says why; an accepted message is encoded again, and
// what is encoded must decode and encode to the same text (the decoder and the encoder
// agree on every field).
#include "core/run/session_codec.h"

#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_support.h"

using namespace ioprism;

namespace {

template<typename Decode, typename Encode>
void roundTrip(std::string_view text, Decode &&decode, Encode &&encode)
{
    const auto read = decode(text);
    if (!read.value) {
        if (read.error.empty())
            fuzz::fail("rejected without a message", {}, text);
        return;
    }
    const std::string written = encode(*read.value);
    const auto again = decode(written);
    if (!again.value)
        fuzz::fail("the encoded message does not decode: " + again.error, {}, written);
    if (encode(*again.value) != written)
        fuzz::fail("encoding the decoded message gives other text", {}, written);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text = fuzz::asText(data, size);
    roundTrip(
        text, [](std::string_view t) { return core::decodeEvent(t); },
        [](const core::SessionEvent &e) { return core::encodeEvent(e); });
    roundTrip(
        text, [](std::string_view t) { return core::decodeRequest(t); },
        [](const core::RunRequest &r) { return core::encodeRequest(r); });
    return 0;
}
