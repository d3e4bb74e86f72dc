// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/workload/data_pattern.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <string_view>
#include <vector>

using namespace ioprism::core;

namespace {

DataPattern pattern(DataPatternKind kind)
{
    DataPattern p;
    p.kind = kind;
    return p;
}

// Shannon entropy of the byte values, in bits per byte (8 = uniformly random bytes).
double entropyBitsPerByte(std::span<const std::byte> data)
{
    std::array<std::uint64_t, 256> counts {};
    for (const auto b : data)
        ++counts[static_cast<std::uint8_t>(b)];
    double h = 0;
    for (const auto c : counts) {
        if (c == 0)
            continue;
        const double p = static_cast<double>(c) / static_cast<double>(data.size());
        h -= p * std::log2(p);
    }
    return h;
}

double zeroFraction(std::span<const std::byte> data)
{
    return static_cast<double>(std::count(data.begin(), data.end(), std::byte {0}))
        / static_cast<double>(data.size());
}

// What an LZ-style compressor keeps, estimated without one: bytes outside runs of at
// least 8 equal bytes (which any LZ77/RLE stage reduces to a few bytes), divided by the
// size. Random bytes almost never form such runs.
double estimatedCompressedFraction(std::span<const std::byte> data)
{
    std::size_t kept = 0;
    std::size_t i = 0;
    while (i < data.size()) {
        std::size_t j = i + 1;
        while (j < data.size() && data[j] == data[i])
            ++j;
        if (j - i < 8)
            kept += j - i;
        i = j;
    }
    return static_cast<double>(kept) / static_cast<double>(data.size());
}

std::string_view view(std::span<const std::byte> block)
{
    return {reinterpret_cast<const char *>(block.data()), block.size()};
}

} // namespace

TEST(DataPattern, RepeatingBytesAndZerosFillEveryByte)
{
    struct Case {
        DataPattern pattern;
        std::byte expected;
    };
    DataPattern repeating = pattern(DataPatternKind::RepeatingBytes);
    repeating.repeatingByte = 0x5C;
    const Case cases[] = {
        {repeating, std::byte {0x5C}},
        {pattern(DataPatternKind::RepeatingBytes), std::byte {0xA5}}, // the default byte
        {pattern(DataPatternKind::Zeros), std::byte {0}},
    };
    for (const auto &c : cases) {
        std::vector<std::byte> buffer(8192 + 100, std::byte {0x11});
        DataPatternFiller filler(c.pattern, 1);
        filler.prepare(buffer);
        filler.beforeWrite(buffer, 4096);
        EXPECT_FALSE(filler.changesPerWrite());
        EXPECT_TRUE(std::all_of(
            buffer.begin(), buffer.end(), [&](std::byte b) { return b == c.expected; }));
    }
}

TEST(DataPattern, PseudoRandomIsTheSameForEveryBufferAndWrite)
{
    DataPatternFiller filler(pattern(DataPatternKind::PseudoRandom), 77);
    std::vector<std::byte> a(65536), b(65536);
    filler.prepare(a);
    filler.prepare(b);
    EXPECT_EQ(a, b);
    const auto before = a;
    for (std::uint64_t w = 0; w < 100; ++w)
        filler.beforeWrite(a, w * 65536);
    EXPECT_EQ(a, before);
    EXPECT_FALSE(filler.changesPerWrite());
    EXPECT_GT(entropyBitsPerByte(a), 7.99);

    // The seed decides the content.
    DataPatternFiller other(pattern(DataPatternKind::PseudoRandom), 78);
    std::vector<std::byte> c(65536);
    other.prepare(c);
    EXPECT_NE(a, c);
}

TEST(DataPattern, FullRandomNeverWritesTheSame512ByteBlockTwice)
{
    DataPatternFiller filler(pattern(DataPatternKind::FullRandom), 5);
    EXPECT_TRUE(filler.changesPerWrite());
    // Two buffers (two slots), many writes each, some at the same offset.
    std::vector<std::byte> slots[2]
        = {std::vector<std::byte>(64 * 1024), std::vector<std::byte>(64 * 1024)};
    for (auto &s : slots)
        filler.prepare(s);
    std::set<std::string> seen;
    std::size_t blocks = 0;
    for (int w = 0; w < 400; ++w) {
        auto &buffer = slots[w % 2];
        // Writes of varying size from the start of the buffer, offsets repeating.
        const std::size_t size
            = (w % 3 == 0) ? buffer.size() : 4096 * static_cast<std::size_t>(1 + w % 7);
        const std::span<std::byte> io(buffer.data(), size);
        filler.beforeWrite(io, static_cast<std::uint64_t>(w % 10) * 65536);
        for (std::size_t off = 0; off < size; off += 512) {
            seen.insert(std::string(view(io.subspan(off, 512))));
            ++blocks;
        }
    }
    EXPECT_EQ(seen.size(), blocks) << "a 512-byte block was written twice";
}

TEST(DataPattern, FullRandomIsIncompressible)
{
    DataPatternFiller filler(pattern(DataPatternKind::FullRandom), 6);
    std::vector<std::byte> buffer(1 << 20);
    filler.prepare(buffer);
    filler.beforeWrite(buffer, 0);
    EXPECT_GT(entropyBitsPerByte(buffer), 7.99);
    EXPECT_GT(estimatedCompressedFraction(buffer), 0.99);
    EXPECT_NEAR(zeroFraction(buffer), 1.0 / 256, 0.001);
}

TEST(DataPattern, FullRandomBuffersDifferAndTagsTouchOnlyTheBlockStarts)
{
    DataPatternFiller filler(pattern(DataPatternKind::FullRandom), 7);
    std::vector<std::byte> a(8192), b(8192);
    filler.prepare(a);
    filler.prepare(b);
    EXPECT_NE(a, b);
    const auto before = a;
    filler.beforeWrite(a, 0);
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (i % 512 >= DataPatternFiller::kTagBytes) {
            ASSERT_EQ(a[i], before[i]) << "byte " << i << " changed outside a tag";
        }
    }
    EXPECT_NE(a, before);
}

TEST(DataPattern, SameSeedSameBytes)
{
    for (const auto kind : {DataPatternKind::FullRandom, DataPatternKind::Compressible,
             DataPatternKind::PseudoRandom}) {
        DataPatternFiller x(pattern(kind), 99), y(pattern(kind), 99);
        std::vector<std::byte> a(10'000), b(10'000);
        x.prepare(a);
        y.prepare(b);
        x.beforeWrite(a, 512);
        y.beforeWrite(b, 512);
        EXPECT_EQ(a, b) << static_cast<int>(kind);
    }
}

class CompressiblePercent : public ::testing::TestWithParam<std::uint32_t>
{
};

TEST_P(CompressiblePercent, CompressesToAboutThePercentage)
{
    DataPattern p = pattern(DataPatternKind::Compressible);
    p.compressiblePercent = GetParam();
    DataPatternFiller filler(p, 8);
    std::vector<std::byte> buffer(1 << 20);
    filler.prepare(buffer);
    filler.beforeWrite(buffer, 1 << 20);
    const double percent = GetParam() / 100.0;
    // Random bytes are 0 once in 256, hence the small correction.
    EXPECT_NEAR(zeroFraction(buffer), (1 - percent) + percent / 256, 0.01);
    EXPECT_NEAR(estimatedCompressedFraction(buffer), percent, 0.01);
    // The same shape in every 4 KiB chunk, not on average over the buffer.
    for (std::size_t chunk = 0; chunk < buffer.size(); chunk += 4096) {
        const std::span<const std::byte> c(buffer.data() + chunk, 4096);
        ASSERT_NEAR(estimatedCompressedFraction(c), percent, 0.01) << chunk;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Percents, CompressiblePercent, ::testing::Values(1u, 10u, 25u, 50u, 75u, 90u, 99u));

TEST(DataPattern, CompressibleChunksDoNotRepeatAcrossWrites)
{
    DataPattern p = pattern(DataPatternKind::Compressible);
    p.compressiblePercent = 30;
    DataPatternFiller filler(p, 9);
    EXPECT_TRUE(filler.changesPerWrite());
    std::vector<std::byte> buffer(16384);
    filler.prepare(buffer);
    std::set<std::string> seen;
    for (int w = 0; w < 50; ++w) {
        filler.beforeWrite(buffer, 0);
        for (std::size_t off = 0; off < buffer.size(); off += 4096)
            seen.insert(std::string(view(std::span<const std::byte>(buffer).subspan(off, 4096))));
    }
    EXPECT_EQ(seen.size(), 50u * 4);
}
