// SPDX-License-Identifier: GPL-3.0-or-later
// The run library's headline cache: what a listing shows of each results file, kept in
// the library folder (".headlines.json", hidden from the listing by its dot), so that
// `history` and the History page read a run's file of many MB once, not at every listing.
//
// An entry is valid for the file of its name at its size and modification time: a file
// that changed in either is read again (IOPrism never rewrites a results file; a user or a
// copy may). The cache is only a copy: one that is missing, damaged, of another format
// version or not writable (a read-only folder) costs the listing its full reads and
// nothing else. Nothing here throws.
#pragma once

#include "core/report/results_reader.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace ioprism::core {

struct CachedHeadline {
    std::uint64_t fileBytes = 0;
    std::int64_t modified = 0; // the file system's time, in its clock's units: compared only
    bool damaged = false;
    std::string damage; // why the file could not be read (damaged only)
    ResultsHeadline headline; // valid unless damaged
};

// By results file name ("20240501-123015-quick.json").
using HeadlineCache = std::map<std::string, CachedHeadline, std::less<>>;

// The cache file's text, and its reading: an empty cache for text that is not a cache
// of this version (a damaged cache is rebuilt, never fatal), and without any entry that
// is not whole.
std::string writeHeadlineCache(const HeadlineCache &cache);
HeadlineCache readHeadlineCache(std::string_view text);

} // namespace ioprism::core
