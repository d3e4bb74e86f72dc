// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the results JSON reader (core::readResultsJson, readResultsHeadline).
//
// Beyond "does not crash": a refusal says why; an accepted file is written again, and
// what is written must read back and write to the same text (the reader and the writer
// agree on every field). The headline reader (which reads the summary the full reader
// recomputes) runs on every input too, for crashes and sanitizer reports.
#include "core/report/results_json.h"
#include "core/report/results_reader.h"

#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_support.h"

using namespace ioprism;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text = fuzz::asText(data, size);
    const core::ResultsRead read = core::readResultsJson(text);
    const core::ResultsHeadlineRead headline = core::readResultsHeadline(text);
    if (!read.ok()) {
        if (!headline.headline && headline.error.empty())
            fuzz::fail("headline rejected without a message", {}, text);
        if (read.error.empty())
            fuzz::fail("rejected without a message", {}, text);
        return 0;
    }
    if (!headline.headline && headline.error.empty())
        fuzz::fail("headline rejected without a message", {}, text);

    const std::string written = core::writeResultsJson(*read.result, read.result->environment);
    const core::ResultsRead again = core::readResultsJson(written);
    if (!again.ok())
        fuzz::fail("the written results do not read back: " + again.error, {}, written);
    if (core::writeResultsJson(*again.result, again.result->environment) != written)
        fuzz::fail("writing the results read back gives other text", {}, written);
    return 0;
}
