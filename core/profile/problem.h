// SPDX-License-Identifier: GPL-3.0-or-later
// A problem found in user input (a profile, an .icf file, a command line).
//
// Every problem names the field path, the value and the rule, so that one pass can
// report all of them at once: `specs[1].lines[0].percentRead: 140 is above 100`.
#pragma once

#include <string>
#include <vector>

namespace ioprism::core {

enum class Severity {
    Error, // the input cannot be used as it is
    Warning, // usable, but the user should look (e.g. an .icf target to re-point)
};

struct Problem {
    Severity severity = Severity::Error;
    std::string path; // e.g. "specs[1].lines[0].percentRead"; "" = the whole input
    std::string message; // e.g. "140 is above 100"

    // "path: message" (or just the message when there is no path).
    std::string toString() const { return path.empty() ? message : path + ": " + message; }
    friend bool operator==(const Problem &, const Problem &) = default;
};

using Problems = std::vector<Problem>;

inline bool hasErrors(const Problems &problems)
{
    for (const auto &p : problems)
        if (p.severity == Severity::Error)
            return true;
    return false;
}

} // namespace ioprism::core
