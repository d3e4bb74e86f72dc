// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the Iometer .icf reader (core::parseIcf).
//
// Beyond "does not crash": a file the reader accepts must export to an .icf that reads
// back and exports to the same text (icf.h: a file IOPrism wrote is reproduced byte for
// byte), and the imported profile must survive the JSON round trip unchanged (when the
// file is valid UTF-8; otherwise its JSON must at least be written back the same).
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
    const auto profile = core::parseIcf(text, problems);
    if (!profile) {
        if (!core::hasErrors(problems))
            fuzz::fail("rejected without an error", problems, text);
        return 0;
    }
    if (core::hasErrors(problems))
        fuzz::fail("accepted with an error", problems, text);

    core::Problems warnings;
    const std::string written = core::writeIcf(*profile, warnings);
    core::Problems again;
    const auto reread = core::parseIcf(written, again);
    if (!reread)
        fuzz::fail("the written .icf does not read back", again, written);
    core::Problems warnings2;
    if (core::writeIcf(*reread, warnings2) != written)
        fuzz::fail("writing the .icf read back gives other text", again, written);

    (void)core::validateProfile(*profile);

    const std::string json = core::writeProfileJson(*profile);
    core::Problems fromJson;
    const auto viaJson = core::parseProfileJson(json, fromJson);
    if (!viaJson)
        fuzz::fail("the imported profile's JSON does not read back", fromJson, json);
    // An .icf may hold any bytes in its names (Iometer writes the Windows code page); the
    // JSON writer replaces malformed UTF-8 (profile_json.h), so only then may they differ.
    if (fuzz::isValidUtf8(text) && !(*viaJson == *profile))
        fuzz::fail("the imported profile's JSON reads back different", fromJson, json);
    if (core::writeProfileJson(*viaJson) != json)
        fuzz::fail("the imported profile's JSON is not written back the same", fromJson, json);
    return 0;
}
