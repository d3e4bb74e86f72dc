// SPDX-License-Identifier: GPL-3.0-or-later
// The .icf reader: its cursor over the lines, its messages and the parse of each part.
// Only icf_read*.cpp include this.
#pragma once

#include "core/profile/icf_internal.h"

#include <fmt/format.h>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ioprism::core::icf_detail {

struct Block {
    std::string_view title; // for messages: "TEST SETUP section", "worker"
    std::size_t line = 0; // where it starts
    std::string_view endKey; // normalized
    std::string_view endText; // as Iometer writes it
};

class Parser
{
public:
    Parser(std::string_view text, Problems &problems)
        : m_lines(splitLines(text))
        , m_problems(problems)
    { }

    std::optional<Profile> run()
    {
        try {
            parseFile();
        } catch (const Stop &) {
            // The structural error is already reported.
        } catch (const std::exception &e) {
            report(Severity::Error, 0, fmt::format("cannot read the file: {}", e.what()));
        } catch (...) {
            report(Severity::Error, 0, "cannot read the file");
        }
        if (m_hasErrors)
            return std::nullopt;
        return std::move(m_profile);
    }

private:
    struct Stop {
    };

    // RAII: the blocks being read, innermost last, so that an END of an outer block seen
    // early is reported as the inner block's missing END.
    class OpenBlock
    {
    public:
        OpenBlock(Parser &p, const Block &b)
            : m_parser(p)
        {
            m_parser.m_open.push_back(&b);
        }
        ~OpenBlock() { m_parser.m_open.pop_back(); }
        OpenBlock(const OpenBlock &) = delete;
        OpenBlock &operator=(const OpenBlock &) = delete;

    private:
        Parser &m_parser;
    };

    // ---- reporting

    void report(Severity severity, std::size_t line, std::string message)
    {
        const std::string path = line > 0 ? fmt::format("line {}", line) : std::string();
        m_problems.push_back({severity, path, std::move(message)});
        if (severity == Severity::Error) {
            m_hasErrors = true;
            if (++m_errorCount >= kMaxErrors) {
                m_problems.push_back({Severity::Error, path,
                    fmt::format("{} errors; the rest of the file is not read", kMaxErrors)});
                throw Stop {};
            }
        }
    }
    void error(std::size_t line, std::string message)
    {
        report(Severity::Error, line, std::move(message));
    }
    void warning(std::size_t line, std::string message)
    {
        report(Severity::Warning, line, std::move(message));
    }
    [[noreturn]] void stop(std::size_t line, std::string message)
    {
        error(line, std::move(message));
        throw Stop {};
    }

    // ---- the cursor

    bool atEnd() const { return m_pos >= m_lines.size(); }
    const Line &peek() const { return m_lines[m_pos]; }
    const Line &take() { return m_lines[m_pos++]; }
    void skipBlank()
    {
        while (!atEnd() && peek().blank)
            ++m_pos;
    }
    std::size_t lastLine() const { return m_lines.empty() ? 1 : m_lines.back().number; }

    [[noreturn]] void stopUnclosed(const Block &b, const Line *at)
    {
        if (at == nullptr)
            stop(lastLine(),
                fmt::format("the file ends inside the {} started on line {}: "
                            "missing \"{}\" (file truncated?)",
                    b.title, b.line, b.endText));
        stop(at->number,
            fmt::format(
                "missing \"{}\" for the {} started on line {}", b.endText, b.title, b.line));
    }

    const Line &nextHeader(const Block &b);

    const Line *value(const Line &header);

    void skipValues();

    void unknownKeyword(const Line &h, const Block &b);

    // ---- values

    bool expectCount(const Line &l, const std::vector<std::string_view> &values, std::size_t count,
        std::string_view names);

    std::optional<SpecLine> specLineStart(
        const Line &d, const std::vector<std::string_view> &t, std::uint64_t *share);

    std::optional<std::uint64_t> number(
        const Line &l, std::string_view token, std::uint64_t max, std::string_view what);

    std::optional<std::uint32_t> number32(
        const Line &l, std::string_view token, std::uint64_t max, std::string_view what);

    std::optional<bool> enabled(const Line &l, std::string_view token, std::string_view what);

    std::optional<StepType> stepType(const Line &l, std::string_view token);

    // ---- the file

    void parseFile();

    void skipToNextSection();

    void parseVersion(const Line &l);

    // ---- TEST SETUP

    void parseTestSetup(const Line &start);
    void parseRunTime(const Line &h);
    void parseRampUp(const Line &h);
    void parseDiskWorkers(const Line &h, bool legacy);
    void parseNetworkWorkers(const Line &h);
    void parseTestType(const Line &h);

    void parseRecordResults(const Line &h);

    void parseCycling(const Line &h, Cycling &c, bool withEnd);

    // ---- RESULTS DISPLAY: kept verbatim, one entry per line

    void parseResultsDisplay(const Line &start);

    // ---- ACCESS SPECIFICATIONS

    void parseAccessSpecs(const Line &start);

    void parseOldSpecs();

    bool specNameTaken(const std::string &name) const;

    std::string oldSpecName(const AccessSpec &spec) const;

    void parseSpec(const Line &h);
    bool parseSpecName(const Line &v, AccessSpec &spec);
    bool parseSpecLines(AccessSpec &spec, std::size_t &lineCount, std::uint64_t &shareSum);
    void addSpec(const Line &v, AccessSpec spec);

    // ---- MANAGER LIST

    void parseManagerList(const Line &start);

    void parseIdAndName(const Line &v, std::uint32_t &id, std::string &name, std::string_view what);

    void parseManager(const Line &h);

    void parseWorker(const Line &h, Host &host);

    void parseWorkerDefaults(const Line &h, Worker &w, bool network);
    void parseQueueSettings(const Line &hh, Worker &w, bool withSeed);
    void parseDiskSettings(const Line &hh, const std::string &k, Worker &w, bool network);

    void parseAssigned(const Line &h, Worker &w);

    void parseTargets(const Line &h, Worker &w, bool networkWorker);

    void parseTarget(const Line &h, Worker &w, bool networkWorker);

    void assignOldFormatSpecs();

    void checkAssignedSpecs();

    std::vector<Line> m_lines;
    std::size_t m_pos = 0;
    Problems &m_problems;
    std::size_t m_errorCount = 0;
    bool m_hasErrors = false;
    std::vector<const Block *> m_open;
    std::vector<std::pair<std::size_t, std::string>> m_assignedRefs;
    std::vector<std::size_t> m_targetLines; // of the current worker's targets
    std::optional<std::uint64_t> m_version; // from the first version line, as GetVersion
    // Specs read in the pre-1998.05.21 format: every worker runs them (below).
    std::vector<std::string> m_oldFormatSpecs;
    Profile m_profile;
};

} // namespace ioprism::core::icf_detail
