// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/workload/io_generator.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace ioprism::core {

namespace {

constexpr std::uint64_t kMaxIoBytes = std::numeric_limits<std::uint32_t>::max();

[[noreturn]] void reject(std::size_t line, const std::string &what)
{
    throw std::invalid_argument("lines[" + std::to_string(line) + "]: " + what);
}

} // namespace

IoGenerator::IoGenerator(
    const AccessSpec &spec, Region region, std::uint64_t sectorSizeBytes, std::uint64_t seed)
    : m_region(region)
    , m_rng(seed)
    , m_nextSequentialBytes(region.offsetBytes)
{
    if (spec.lines.empty())
        throw std::invalid_argument("the access specification has no line");
    if (spec.lines.size() > std::numeric_limits<std::uint16_t>::max())
        throw std::invalid_argument("the access specification has too many lines");
    if (region.sizeBytes == 0)
        throw std::invalid_argument("the region is empty");
    if (sectorSizeBytes == 0)
        throw std::invalid_argument("the sector size is 0");

    m_lines.reserve(spec.lines.size());
    for (std::size_t i = 0; i < spec.lines.size(); ++i) {
        const SpecLine &s = spec.lines[i];
        if (s.transferSizeBytes == 0)
            reject(i, "transfer size is 0");
        if (s.transferSizeBytes > kMaxIoBytes)
            reject(i, "transfer size is above 4 GiB - 1");
        if (s.transferSizeBytes > region.sizeBytes)
            reject(i,
                "transfer size " + std::to_string(s.transferSizeBytes)
                    + " is larger than the region (" + std::to_string(region.sizeBytes)
                    + " bytes)");
        if (s.replySizeBytes > kMaxIoBytes)
            reject(i, "reply size is above 4 GiB - 1");
        if (s.replySizeBytes > region.sizeBytes)
            reject(i,
                "reply size " + std::to_string(s.replySizeBytes) + " is larger than the region ("
                    + std::to_string(region.sizeBytes) + " bytes)");
        const std::uint64_t alignment = s.alignmentBytes ? s.alignmentBytes : sectorSizeBytes;
        const std::uint64_t slots = (region.sizeBytes - s.transferSizeBytes) / alignment + 1;
        m_totalShare += s.sharePercent;
        m_lines.push_back(Line {
            .transferSizeBytes = static_cast<std::uint32_t>(s.transferSizeBytes),
            .replySizeBytes = static_cast<std::uint32_t>(s.replySizeBytes),
            .alignmentBytes = alignment,
            .slotCount = slots,
            .cumulativeShare = m_totalShare,
            .percentRead = std::min<std::uint32_t>(s.percentRead, 100),
            .percentRandom = std::min<std::uint32_t>(s.percentRandom, 100),
            .burstLength = std::max<std::uint32_t>(s.burstLength, 1),
            .delay = s.delay,
            .thinkTime = s.thinkTime,
            .distribution = OffsetDistribution(s.distribution, slots),
        });
    }
    if (m_totalShare == 0)
        throw std::invalid_argument("every line has a share of 0 %");
}

std::uint16_t IoGenerator::drawLine() noexcept
{
    if (m_lines.size() == 1)
        return 0;
    const std::uint64_t r = m_rng.uniform(m_totalShare);
    std::uint16_t i = 0;
    while (r >= m_lines[i].cumulativeShare)
        ++i;
    return i;
}

std::uint64_t IoGenerator::sequentialOffset(
    const Line &line, std::uint32_t sizeBytes) const noexcept
{
    const std::uint64_t a = line.alignmentBytes;
    std::uint64_t relative = m_nextSequentialBytes - m_region.offsetBytes;
    // Round up to the alignment; an overflow or a position past the end wraps.
    const std::uint64_t remainder = relative % a;
    if (remainder != 0) {
        const std::uint64_t up = a - remainder;
        relative = relative > m_region.sizeBytes - up ? m_region.sizeBytes : relative + up;
    }
    if (relative > m_region.sizeBytes - sizeBytes)
        relative = 0;
    return m_region.offsetBytes + relative;
}

IoStep IoGenerator::next() noexcept
{
    if (m_replyPending) {
        m_replyPending = false;
        return IoStep {m_pendingReply, std::chrono::nanoseconds {0},
            m_lines[m_pendingReply.lineIndex].thinkTime};
    }

    std::chrono::nanoseconds waitBefore {0};
    if (m_transactionsLeftInBurst == 0) {
        m_line = drawLine();
        m_transactionsLeftInBurst = m_lines[m_line].burstLength;
        waitBefore = m_lines[m_line].delay;
    }
    --m_transactionsLeftInBurst;
    const Line &line = m_lines[m_line];

    PlannedIo io;
    io.lineIndex = m_line;
    io.sizeBytes = line.transferSizeBytes;
    io.direction = m_rng.percentDraw(line.percentRead) ? IoDirection::Read : IoDirection::Write;
    if (m_rng.percentDraw(line.percentRandom))
        io.offsetBytes = m_region.offsetBytes + line.distribution.next(m_rng) * line.alignmentBytes;
    else
        io.offsetBytes = sequentialOffset(line, io.sizeBytes);
    std::uint64_t endBytes = io.offsetBytes + io.sizeBytes;

    if (line.replySizeBytes > 0) {
        io.endsTransaction = false;
        PlannedIo reply;
        reply.lineIndex = m_line;
        reply.sizeBytes = line.replySizeBytes;
        reply.direction
            = io.direction == IoDirection::Read ? IoDirection::Write : IoDirection::Read;
        reply.isReply = true;
        reply.endsTransaction = true;
        reply.offsetBytes = io.offsetBytes;
        const std::uint64_t regionEnd = m_region.offsetBytes + m_region.sizeBytes;
        if (reply.offsetBytes + reply.sizeBytes > regionEnd) {
            const std::uint64_t room = m_region.sizeBytes - reply.sizeBytes;
            reply.offsetBytes
                = m_region.offsetBytes + room / line.alignmentBytes * line.alignmentBytes;
        }
        endBytes = std::max(endBytes, reply.offsetBytes + reply.sizeBytes);
        m_pendingReply = reply;
        m_replyPending = true;
    }
    m_nextSequentialBytes = endBytes;
    return IoStep {io, waitBefore, line.thinkTime};
}

} // namespace ioprism::core
