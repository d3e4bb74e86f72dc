// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the JSON profile reader (core::parseProfileJson).
//
// Beyond "does not crash": a profile the reader accepts must be written and read back
// to the same profile (the round trip profile_json.h promises), must go through
// validation and, when valid, must export to an .icf that the .icf reader accepts.
#include "core/profile/icf.h"
#include "core/profile/profile_json.h"
#include "core/profile/validation.h"

#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_support.h"

using namespace ioprism;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text = fuzz::asText(data, size);
    core::Problems problems;
    const auto profile = core::parseProfileJson(text, problems);
    if (!profile) {
        if (!core::hasErrors(problems))
            fuzz::fail("rejected without an error", problems, text);
        return 0;
    }
    if (core::hasErrors(problems))
        fuzz::fail("accepted with an error", problems, text);

    const std::string written = core::writeProfileJson(*profile);
    core::Problems again;
    const auto reread = core::parseProfileJson(written, again);
    if (!reread)
        fuzz::fail("the written profile does not read back", again, written);
    if (!(*reread == *profile))
        fuzz::fail("the profile read back differs", again, written);
    if (core::writeProfileJson(*reread) != written)
        fuzz::fail("writing the profile read back gives other text", again, written);

    // Reading checks kinds, not ranges (percentRead 140 reads; validation refuses it), so
    // only a valid profile must survive the export to Iometer's stricter format.
    if (core::hasErrors(core::validateProfile(*profile)))
        return 0;
    core::Problems exportWarnings, imported;
    const std::string icf = core::writeIcf(*profile, exportWarnings);
    if (!core::parseIcf(icf, imported))
        fuzz::fail("the .icf export does not read back", imported, icf);
    return 0;
}
