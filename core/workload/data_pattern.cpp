// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/workload/data_pattern.h"

#include <algorithm>
#include <cstring>

namespace ioprism::core {

namespace {

// Byte order is fixed (little-endian) so a seed gives the same bytes on every platform.
void storeLe64(std::byte *out, std::uint64_t v, std::size_t count = 8) noexcept
{
    for (std::size_t i = 0; i < count; ++i)
        out[i] = static_cast<std::byte>(v >> (8 * i));
}

void fillRandom(std::span<std::byte> buffer, Rng &rng) noexcept
{
    std::size_t i = 0;
    for (; i + 8 <= buffer.size(); i += 8)
        storeLe64(buffer.data() + i, rng.next());
    if (i < buffer.size())
        storeLe64(buffer.data() + i, rng.next(), buffer.size() - i);
}

} // namespace

DataPatternFiller::DataPatternFiller(const DataPattern &pattern, std::uint64_t seed) noexcept
    : m_pattern(pattern)
    , m_seed(seed)
    , m_rng(seed)
    , m_tagKey(mix64(seed ^ 0x7461677374616D70ULL))
{
    m_pattern.compressiblePercent = std::min<std::uint32_t>(m_pattern.compressiblePercent, 100);
}

std::size_t DataPatternFiller::randomBytesIn(std::size_t chunkBytes) const noexcept
{
    // Rounded to the nearest byte.
    return (chunkBytes * m_pattern.compressiblePercent + 50) / 100;
}

void DataPatternFiller::prepare(std::span<std::byte> buffer) noexcept
{
    switch (m_pattern.kind) {
    case DataPatternKind::RepeatingBytes:
        std::memset(buffer.data(), m_pattern.repeatingByte, buffer.size());
        break;
    case DataPatternKind::Zeros:
        std::memset(buffer.data(), 0, buffer.size());
        break;
    case DataPatternKind::PseudoRandom: {
        // A fresh stream from the seed for every buffer: all buffers are identical.
        Rng rng(m_seed);
        fillRandom(buffer, rng);
        break;
    }
    case DataPatternKind::FullRandom:
        fillRandom(buffer, m_rng);
        break;
    case DataPatternKind::Compressible:
        for (std::size_t start = 0; start < buffer.size(); start += kCompressChunkBytes) {
            const auto chunk
                = buffer.subspan(start, std::min(kCompressChunkBytes, buffer.size() - start));
            const std::size_t randomBytes = randomBytesIn(chunk.size());
            fillRandom(chunk.first(randomBytes), m_rng);
            std::memset(chunk.data() + randomBytes, 0, chunk.size() - randomBytes);
        }
        break;
    }
}

void DataPatternFiller::stampTags(
    std::span<std::byte> buffer, std::uint64_t offsetBytes, std::size_t strideBytes) noexcept
{
    for (std::size_t start = 0; start < buffer.size(); start += strideBytes) {
        const std::size_t blockBytes = std::min(strideBytes, buffer.size() - start);
        // Compressible chunks take the tag only inside their random part.
        const std::size_t room = std::min(kTagBytes,
            m_pattern.kind == DataPatternKind::Compressible ? randomBytesIn(blockBytes)
                                                            : blockBytes);
        std::byte tag[kTagBytes];
        // mix64 is a bijection, so distinct counters give distinct first halves: no two
        // stamped blocks of this filler can be equal.
        storeLe64(tag, mix64(m_blockCounter++ + m_tagKey));
        storeLe64(tag + 8, mix64((offsetBytes + start) ^ m_tagKey));
        std::memcpy(buffer.data() + start, tag, room);
    }
}

void DataPatternFiller::beforeWrite(std::span<std::byte> buffer, std::uint64_t offsetBytes) noexcept
{
    switch (m_pattern.kind) {
    case DataPatternKind::FullRandom:
        stampTags(buffer, offsetBytes, kDedupBlockBytes);
        break;
    case DataPatternKind::Compressible:
        if (randomBytesIn(kCompressChunkBytes) >= kTagBytes)
            stampTags(buffer, offsetBytes, kCompressChunkBytes);
        break;
    case DataPatternKind::RepeatingBytes:
    case DataPatternKind::Zeros:
    case DataPatternKind::PseudoRandom:
        break;
    }
}

} // namespace ioprism::core
