// SPDX-License-Identifier: GPL-3.0-or-later
// The Windows backend: test files (created, filled, marked, refused), volumes and drives
// (refusals before any write), sector-size chain, affinity mapping, discovery. Runs under
// Wine in CI; a few checks need real Windows and say so.
#include "platform/common/backend_factory.h"
#include "platform/common/system.h"
#include "platform/common/target_resolution.h"
#include "platform/windows/sector_size.h"
#include "platform/windows/windows_backend.h"
#include "platform/windows/windows_devices.h"

#include <bit>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <thread>
#include <vector>
#include <winioctl.h>

#include "windows_test_util.h"

using namespace ioprism;
using namespace ioprism::test::win;
using platform::WindowsBackend;
using ::testing::HasSubstr;

namespace {

core::Target testFile(const std::filesystem::path &path, std::uint64_t bytes)
{
    core::Target t;
    t.kind = core::TargetKind::TestFile;
    t.path = path.string();
    t.testFileSizeBytes = bytes;
    return t;
}

core::PrepareOptions writing(std::uint8_t byte = 0x5A)
{
    core::PrepareOptions o;
    o.needWrite = true;
    o.fillPattern.kind = core::DataPatternKind::RepeatingBytes;
    o.fillPattern.repeatingByte = byte;
    return o;
}

bool canOpen(const wchar_t *device)
{
    platform::win::UniqueHandle h(::CreateFileW(device, GENERIC_READ,
        FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING, 0, nullptr));
    return h.valid();
}

} // namespace

// ---------------------------------------------------------------- test files

// What the GUI offers (PlatformServices::engines): IOCP, as itself and as Auto, and null;
// Linux's engines are refused.
TEST(WindowsBackend, OffersAutoIocpAndNullAndRefusesLinuxEngines)
{
    using core::EngineKind;
    EXPECT_EQ(platform::availableEngines(),
        (std::vector<EngineKind> {EngineKind::Auto, EngineKind::Iocp, EngineKind::Null}));
    for (const EngineKind kind : {EngineKind::IoUring, EngineKind::Sync}) {
        auto engine = platform::makeBackend({.kind = kind})->makeEngine();
        ASSERT_FALSE(engine.ok());
        EXPECT_EQ(engine.error().code, std::make_error_code(std::errc::not_supported));
    }
    for (const EngineKind kind : {EngineKind::Auto, EngineKind::Iocp, EngineKind::Null})
        EXPECT_TRUE(platform::makeBackend({.kind = kind})->makeEngine().ok());
}

// The Targets page takes a profile's spelling of a listed target as that target: letter
// case and either separator, as Windows itself does.
TEST(WindowsBackend, PathsAreTheSameTargetInAnyCaseAndWithEitherSeparator)
{
    EXPECT_TRUE(platform::sameTargetPath(R"(\\.\PhysicalDrive1)", R"(\\.\physicaldrive1)"));
    EXPECT_TRUE(platform::sameTargetPath(R"(\\.\C:)", R"(\\.\c:)"));
    EXPECT_TRUE(
        platform::sameTargetPath(R"(C:\Data\ioprism-test.dat)", "c:/data/IOPRISM-test.dat"));
    EXPECT_TRUE(platform::sameTargetPath("D:\\\xc3\x84rger.dat", "d:/\xc3\xa4rger.dat"))
        << "letters beyond ASCII fold too (Ä, ä)";
    EXPECT_FALSE(platform::sameTargetPath(R"(\\.\PhysicalDrive1)", R"(\\.\PhysicalDrive10)"));
    EXPECT_FALSE(platform::sameTargetPath(R"(C:\x.dat)", R"(D:\x.dat)"));
}

TEST(WindowsBackend, CreatesAndFillsEveryByteOfANewTestFileAndMarksItOurs)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto path = dir.path() / "t.dat";
    const std::uint64_t size = 3 * 1024 * 1024 + 4096 + 512; // an unaligned tail, written buffered
    std::uint64_t lastDone = 0, lastTotal = 0;
    auto info = backend.prepareTarget(
        testFile(path, size), writing(), [&](std::uint64_t done, std::uint64_t total) {
            lastDone = done;
            lastTotal = total;
            return true;
        });
    ASSERT_TRUE(info.ok()) << info.error().toString();
    EXPECT_TRUE(info->createdTestFile);
    EXPECT_EQ(info->sizeBytes, size);
    EXPECT_FALSE(info->isDevice);
    EXPECT_FALSE(info->readOnly);
    EXPECT_EQ(lastDone, size);
    EXPECT_EQ(lastTotal, size);
    const auto bytes = readAll(path);
    ASSERT_EQ(bytes.size(), size);
    EXPECT_EQ(std::count(bytes.begin(), bytes.end(), char(0x5A)), std::ptrdiff_t(size))
        << "not filled completely";
    EXPECT_TRUE(platform::isOurTestFile(path.string()));
}

TEST(WindowsBackend, ReportsTheSectorAlignmentForUnbufferedIo)
{
    test::TempDir dir;
    WindowsBackend backend({});
    auto info = backend.prepareTarget(testFile(dir.path() / "t.dat", 1 << 20), writing(), {});
    ASSERT_TRUE(info.ok()) << info.error().toString();
    EXPECT_GE(info->logicalBlockBytes, 512u);
    EXPECT_TRUE(std::has_single_bit(info->directIoOffsetAlignBytes));
    EXPECT_EQ(info->directIoOffsetAlignBytes, info->logicalBlockBytes);
    EXPECT_GE(info->directIoMemAlignBytes, 4096u);
}

TEST(WindowsBackend, CancelledFillLeavesNoFileBehind)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto path = dir.path() / "t.dat";
    auto info = backend.prepareTarget(
        testFile(path, 4 << 20), writing(), [](auto, auto) { return false; });
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ERROR_CANCELLED);
    EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(WindowsBackend, NeverWritesAFileItDidNotCreateButReadsIt)
{
    test::TempDir dir;
    const auto path = dir.path() / "theirs.dat";
    writeFile(path, 65536);
    WindowsBackend backend({});
    auto refused = backend.prepareTarget(testFile(path, 1 << 20), writing(), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), ERROR_FILE_EXISTS);
    EXPECT_THAT(refused.error().detail, HasSubstr("not created by IOPrism"));
    EXPECT_EQ(std::filesystem::file_size(path), 65536u) << "someone else's file was changed";

    auto read = backend.prepareTarget(testFile(path, 1 << 20), {}, {});
    ASSERT_TRUE(read.ok()) << read.error().toString();
    EXPECT_FALSE(read->createdTestFile);
    EXPECT_EQ(read->sizeBytes, 65536u);
}

TEST(WindowsBackend, ExtendsItsOwnSmallerTestFile)
{
    test::TempDir dir;
    const auto path = dir.path() / "t.dat";
    WindowsBackend backend({});
    ASSERT_TRUE(backend.prepareTarget(testFile(path, 1 << 20), writing(0x11), {}).ok());
    auto grown = backend.prepareTarget(testFile(path, 3 << 20), writing(0x22), {});
    ASSERT_TRUE(grown.ok()) << grown.error().toString();
    EXPECT_TRUE(grown->createdTestFile);
    EXPECT_EQ(grown->sizeBytes, 3u << 20);
    const auto bytes = readAll(path);
    EXPECT_EQ(bytes[(1 << 20) - 1], char(0x11)) << "the existing part is kept";
    EXPECT_EQ(bytes[(3 << 20) - 1], char(0x22));
}

TEST(WindowsBackend, RefusalsSayWhatIsWrong)
{
    test::TempDir dir;
    WindowsBackend backend({});
    struct Case {
        const char *what;
        core::Target target;
        DWORD code;
        const char *detail;
    };
    std::filesystem::create_directories(dir.path() / "sub");
    writeFile(dir.path() / "empty.dat", 0);
    core::Target linuxDevice;
    linuxDevice.kind = core::TargetKind::BlockDevice;
    linuxDevice.path = "/dev/sdb";
    core::Target unresolved = testFile(dir.path() / "x.dat", 1 << 20);
    unresolved.unresolved = true;
    const Case cases[] = {
        {"missing directory", testFile(dir.path() / "nope" / "t.dat", 1 << 20),
            ERROR_PATH_NOT_FOUND, "does not exist"},
        {"a directory", testFile(dir.path() / "sub", 1 << 20), ERROR_INVALID_PARAMETER,
            "directory"},
        {"size 0", testFile(dir.path() / "zero.dat", 0), ERROR_INVALID_PARAMETER, "size is 0"},
        {"more than the volume holds", testFile(dir.path() / "huge.dat", std::uint64_t(1) << 60),
            ERROR_DISK_FULL, "not enough space"},
        {"a Linux block device", linuxDevice, ERROR_NOT_SUPPORTED, "Linux targets"},
        {"an unresolved import", unresolved, ERROR_FILE_NOT_FOUND,
            "does not exist on this machine"},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(c.what);
        auto info = backend.prepareTarget(c.target, writing(), {});
        ASSERT_FALSE(info.ok());
        EXPECT_EQ(info.error().code.value(), int(c.code)) << info.error().toString();
        EXPECT_THAT(info.error().detail, HasSubstr(c.detail));
    }
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "huge.dat"))
        << "refused before creating anything";
    auto empty = backend.prepareTarget(testFile(dir.path() / "empty.dat", 1 << 20), {}, {});
    ASSERT_FALSE(empty.ok());
    EXPECT_THAT(empty.error().detail, HasSubstr("empty"));
}

TEST(WindowsBackend, RemovesOnlyItsOwnTestFiles)
{
    test::TempDir dir;
    const auto ours = dir.path() / "ours.dat", theirs = dir.path() / "theirs.dat";
    writeFile(theirs, 4096);
    WindowsBackend backend({});
    ASSERT_TRUE(backend.prepareTarget(testFile(ours, 1 << 20), writing(), {}).ok());

    auto refused = platform::removeTestFile(theirs.string());
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), ERROR_ACCESS_DENIED);
    EXPECT_TRUE(std::filesystem::exists(theirs));

    ASSERT_TRUE(platform::removeTestFile(ours.string()).ok());
    EXPECT_FALSE(std::filesystem::exists(ours));
    EXPECT_FALSE(platform::isOurTestFile(ours.string()));
}

TEST(WindowsBackend, TestFileSpaceIsWhatIsStillToBeWrittenOnItsVolume)
{
    // The run adds up the needs of all test files and trees of a volume before creating
    // any: a new file needs its size, our own full-size file nothing, someone else's file
    // nothing (it is never written).
    test::TempDir dir;
    WindowsBackend backend({});
    const auto path = dir.path() / "t.dat";
    auto space = backend.testFileSpace(testFile(path, 2 << 20));
    ASSERT_TRUE(space);
    EXPECT_EQ(space->needBytes, 2u << 20);
    EXPECT_GT(space->freeBytes, 0u);
    EXPECT_FALSE(space->fileSystem.empty());
    EXPECT_FALSE(space->where.empty());
    ASSERT_TRUE(backend.prepareTarget(testFile(path, 2 << 20), writing(), {}).ok());
    EXPECT_EQ(backend.testFileSpace(testFile(path, 2 << 20))->needBytes, 0u);
    EXPECT_EQ(backend.testFileSpace(testFile(path, 3 << 20))->needBytes, 1u << 20);
    const auto theirs = dir.path() / "theirs.dat";
    writeFile(theirs, 4096);
    EXPECT_EQ(backend.testFileSpace(testFile(theirs, 1 << 20))->needBytes, 0u);
    EXPECT_EQ(backend.testFileSpace(testFile(dir.path() / "other.dat", 1))->fileSystem,
        space->fileSystem);
    EXPECT_FALSE(WindowsBackend({.skipFreeSpaceCheck = true}).testFileSpace(testFile(path, 1)));
}

// The mark that a test file is ours: a named stream where the volume has them (NTFS,
// ReFS); elsewhere (FAT32, exFAT, a share, Wine) a notice that says the mark lasts only
// for this process, which still knows the file as its own.
TEST(WindowsBackend, MarkIsAStreamWhereTheVolumeHasNamedStreamsElseANotice)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto path = dir.path() / "t.dat";
    ASSERT_TRUE(backend.prepareTarget(testFile(path, 1 << 20), writing(), {}).ok());
    const std::wstring stream = path.wstring() + platform::kTestFileStream;
    bool noticed = false;
    for (const auto &n : backend.notices())
        noticed |= n.find("could not mark") != std::string::npos;
    if (platform::volumeHasNamedStreams(dir.path().string())) {
        EXPECT_NE(::GetFileAttributesW(stream.c_str()), INVALID_FILE_ATTRIBUTES);
        EXPECT_FALSE(noticed);
    } else {
        EXPECT_EQ(::GetFileAttributesW(stream.c_str()), INVALID_FILE_ATTRIBUTES);
        EXPECT_TRUE(noticed) << "the user must learn that the mark does not outlive the run";
    }
    EXPECT_TRUE(platform::isOurTestFile(path.string()));
}

// ---------------------------------------------------------------- volumes and drives

TEST(WindowsBackend, VolumeAndDriveWritesNeedTheFlagAndNoMountedFileSystem)
{
    // Wine exposes \\.\C: (its C: drive) and \\.\PhysicalDrive0; on real Windows these
    // need an administrator, and the test skips without one.
    if (!canOpen(L"\\\\.\\C:"))
        GTEST_SKIP() << "\\\\.\\C: does not open (an administrator account is needed on Windows)";
    WindowsBackend backend({});
    core::Target volume;
    volume.kind = core::TargetKind::Volume;
    volume.path = "\\\\.\\C:";

    auto read = backend.prepareTarget(volume, {}, {});
    ASSERT_TRUE(read.ok()) << read.error().toString();
    EXPECT_TRUE(read->isDevice);
    EXPECT_GT(read->sizeBytes, 0u);
    EXPECT_GE(read->logicalBlockBytes, 512u);

    auto noFlag = backend.prepareTarget(volume, writing(), {});
    ASSERT_FALSE(noFlag.ok());
    EXPECT_EQ(noFlag.error().code.value(), ERROR_ACCESS_DENIED);
    EXPECT_THAT(noFlag.error().detail, HasSubstr("--allow-device-writes"));

    auto allowed = writing();
    allowed.allowDeviceWrites = true;
    auto mounted = backend.prepareTarget(volume, allowed, {});
    ASSERT_FALSE(mounted.ok()) << "C: holds the system's file system: it must never be written";
    EXPECT_EQ(mounted.error().code.value(), ERROR_BUSY);
    EXPECT_THAT(mounted.error().detail, HasSubstr("mounted"));

    if (!canOpen(L"\\\\.\\PhysicalDrive0"))
        return;
    core::Target drive;
    drive.kind = core::TargetKind::PhysicalDrive;
    drive.path = "\\\\.\\PhysicalDrive0";
    auto driveWrite = backend.prepareTarget(drive, allowed, {});
    ASSERT_FALSE(driveWrite.ok())
        << "a drive whose volumes are mounted, or unknown, is never written";
    EXPECT_EQ(driveWrite.error().code.value(), ERROR_BUSY);
}

TEST(WindowsBackend, DeviceNamesAreRecognised)
{
    using platform::win::isVolumeDevicePath;
    using platform::win::physicalDriveNumber;
    EXPECT_EQ(physicalDriveNumber("\\\\.\\PhysicalDrive0"), 0u);
    EXPECT_EQ(physicalDriveNumber("\\\\.\\physicaldrive12"), 12u);
    EXPECT_EQ(physicalDriveNumber("\\\\.\\PhysicalDrive"), std::nullopt);
    EXPECT_EQ(physicalDriveNumber("\\\\.\\PhysicalDrive1x"), std::nullopt);
    EXPECT_EQ(physicalDriveNumber("C:\\PhysicalDrive1"), std::nullopt);
    EXPECT_TRUE(isVolumeDevicePath("\\\\.\\D:"));
    EXPECT_TRUE(isVolumeDevicePath("\\\\?\\Volume{0b1f6c1e-0000-0000-0000-100000000000}\\"));
    EXPECT_FALSE(isVolumeDevicePath("D:\\"));
    EXPECT_FALSE(isVolumeDevicePath("\\\\.\\PhysicalDrive0"));
}

TEST(WindowsBackend, TargetPathsAreClassifiedAndFound)
{
    using core::TargetKind;
    EXPECT_EQ(platform::detectTargetKind("\\\\.\\physicaldrive2"), TargetKind::PhysicalDrive);
    EXPECT_EQ(platform::detectTargetKind("\\\\.\\D:"), TargetKind::Volume);
    EXPECT_EQ(platform::detectTargetKind("\\\\?\\Volume{0b1f6c1e-0000-0000-0000-100000000000}\\"),
        TargetKind::Volume);
    EXPECT_EQ(platform::detectTargetKind("D:\\bench\\t.dat"), TargetKind::TestFile);
    core::Target missing;
    missing.kind = TargetKind::Volume;
    missing.path = "\\\\.\\PhysicalDrive63";
    EXPECT_FALSE(platform::targetExists(missing));
    if (canOpen(L"\\\\.\\C:")) {
        core::Target c;
        c.kind = TargetKind::Volume;
        c.path = "\\\\.\\C:";
        EXPECT_TRUE(platform::targetExists(c)) << "a volume has no file attributes but exists";
    }
}

// An .icf's `C: "System"` is Iometer's test file C:\iobw.tst when drive C exists here; a
// drive that does not, and a Linux mount name, are not here.
TEST(WindowsBackend, AnIometerVolumeIsHereWhenItsDriveExists)
{
    const auto c = core::iometerVolume("C: \"System\"");
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->testFile, "C:\\iobw.tst");
    EXPECT_TRUE(platform::iometerVolumeIsHere(*c));
    const auto q = core::iometerVolume("Q:");
    ASSERT_TRUE(q.has_value());
    if (!std::filesystem::exists("Q:\\")) {
        EXPECT_FALSE(platform::iometerVolumeIsHere(*q));
    }
    const auto mount = core::iometerVolume("/mnt/data [ext4]");
    ASSERT_TRUE(mount.has_value());
    EXPECT_FALSE(platform::iometerVolumeIsHere(*mount));
}

// ---------------------------------------------------------------- sector-size chain

TEST(SectorSizeChain, TakesTheFirstPlausibleAnswerInOrder)
{
    using namespace platform::win;
    int asked = 0;
    auto probe = [&](SectorSource s, std::optional<SectorAnswer> a) {
        return SectorProbe {s, [&asked, a] {
                                ++asked;
                                return a;
                            }};
    };
    struct Case {
        const char *what;
        std::vector<SectorProbe> probes;
        std::uint32_t logical;
        std::uint32_t physical;
        SectorSource source;
    };
    const Case cases[] = {
        {"first answers",
            {probe(SectorSource::FileStorageInfo, SectorAnswer {4096, 4096}),
                probe(SectorSource::DriveGeometry, SectorAnswer {512, 0})},
            4096, 4096, SectorSource::FileStorageInfo},
        {"Wine: only the geometry answers",
            {probe(SectorSource::FileStorageInfo, std::nullopt),
                probe(SectorSource::StorageAlignment, std::nullopt),
                probe(SectorSource::DriveGeometry, SectorAnswer {512, 0}),
                probe(SectorSource::DiskFreeSpace, SectorAnswer {4096, 0})},
            512, 0, SectorSource::DriveGeometry},
        {"implausible answers are skipped",
            {probe(SectorSource::FileStorageInfo, SectorAnswer {0, 0}),
                probe(SectorSource::StorageAlignment, SectorAnswer {3000, 4096}),
                probe(SectorSource::DriveGeometry, SectorAnswer {128, 0}),
                probe(SectorSource::DiskFreeSpace, SectorAnswer {512, 0})},
            512, 0, SectorSource::DiskFreeSpace},
        {"a physical size below the logical one is dropped",
            {probe(SectorSource::StorageAlignment, SectorAnswer {4096, 512})}, 4096, 0,
            SectorSource::StorageAlignment},
        {"nothing answers: 512 B by default", {probe(SectorSource::FileStorageInfo, std::nullopt)},
            512, 0, SectorSource::Default},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(c.what);
        const SectorInfo info = firstSectorAnswer(c.probes);
        EXPECT_EQ(info.logicalBytes, c.logical);
        EXPECT_EQ(info.physicalBytes, c.physical);
        EXPECT_EQ(info.source, c.source) << toString(info.source);
    }
    asked = 0;
    const std::vector<SectorProbe> stopEarly {
        probe(SectorSource::FileStorageInfo, SectorAnswer {512, 0}),
        probe(SectorSource::DriveGeometry, SectorAnswer {512, 0})};
    firstSectorAnswer(stopEarly);
    EXPECT_EQ(asked, 1) << "later probes run only when earlier ones have no answer";
}

TEST(SectorSizeChain, LiveChainAnswersForATempFile)
{
    test::TempDir dir;
    writeFile(dir.path() / "a.dat", 4096);
    platform::win::UniqueHandle h(::CreateFileW((dir.path() / "a.dat").wstring().c_str(),
        GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING, 0, nullptr));
    ASSERT_TRUE(h.valid());
    const auto info = platform::win::querySectorSize(h.get(), (dir.path() / "a.dat").wstring());
    EXPECT_TRUE(std::has_single_bit(info.logicalBytes));
    EXPECT_GE(info.logicalBytes, 512u);
    if (platform::win::runningUnderWine()) {
        // Wine answers neither FileStorageInfo nor IOCTL_STORAGE_QUERY_PROPERTY: the
        // fallback must have been taken, not the 512 B default.
        EXPECT_TRUE(info.source == platform::win::SectorSource::DriveGeometry
            || info.source == platform::win::SectorSource::DiskFreeSpace)
            << platform::win::toString(info.source);
    } else {
        EXPECT_NE(info.source, platform::win::SectorSource::Default);
    }
}

// ---------------------------------------------------------------- affinity

TEST(WindowsAffinity, CpuNumbersMapToOneProcessorGroup)
{
    struct Case {
        const char *what;
        std::vector<std::uint32_t> cpus;
        std::vector<std::uint32_t> groups;
        bool ok;
        std::uint16_t group;
        std::uint64_t mask;
    };
    const Case cases[] = {
        {"one group", {0, 1, 5}, {8}, true, 0, 0b100011},
        {"second group", {64, 65}, {64, 64}, true, 1, 0b11},
        {"uneven groups", {40}, {36, 36}, true, 1, 1u << 4},
        {"across groups", {0, 64}, {64, 64}, false, 0, 0},
        {"no such CPU", {16}, {8, 8}, false, 0, 0},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(c.what);
        auto r = platform::groupAffinityOf(c.cpus, c.groups);
        ASSERT_EQ(r.ok(), c.ok);
        if (c.ok) {
            EXPECT_EQ(r->group, c.group);
            EXPECT_EQ(r->mask, c.mask);
        } else {
            EXPECT_FALSE(r.error().detail.empty());
        }
    }
}

TEST(WindowsAffinity, PinsTheCallingThread)
{
    WindowsBackend backend({});
    DWORD_PTR mask = 0;
    core::Status status = core::Ok {};
    std::thread([&] {
        const std::uint32_t cpu[] = {0};
        status = backend.pinCurrentThread(cpu);
        mask = ::SetThreadAffinityMask(::GetCurrentThread(), 1); // returns the previous mask
    }).join();
    ASSERT_TRUE(status.ok()) << status.error().toString();
    EXPECT_EQ(mask, DWORD_PTR(1));
}

// ---------------------------------------------------------------- discovery, factory

TEST(WindowsDiscovery, ListsFileSystemsAndDrives)
{
    const auto mounts = platform::listMounts();
    ASSERT_FALSE(mounts.empty()) << "no file system at all: not even C:";
    for (const auto &m : mounts) {
        EXPECT_FALSE(m.mountPoint.empty());
        EXPECT_FALSE(m.fsType.empty());
    }
    for (const auto &d : platform::listBlockDevices()) {
        EXPECT_EQ(d.devicePath.rfind("\\\\.\\PhysicalDrive", 0), 0u) << d.devicePath;
        EXPECT_GT(d.sizeBytes, 0u) << d.devicePath;
    }
    const auto facts
        = platform::describeDevice((std::filesystem::temp_directory_path() / "x.dat").string());
    EXPECT_FALSE(facts.path.empty());
}

TEST(WindowsDiscovery, ModelStringsAreCleanedUp)
{
    using platform::win::joinModel;
    using platform::win::trimmedAscii;
    EXPECT_EQ(trimmedAscii("  Samsung  SSD   980  \x01"), "Samsung SSD 980");
    EXPECT_EQ(joinModel("ATA     ", "ST4000DM004-2CV104"), "ST4000DM004-2CV104");
    EXPECT_EQ(joinModel("WDC", "WD40EFRX"), "WDC WD40EFRX");
    EXPECT_EQ(joinModel("Samsung", "Samsung SSD 980"), "Samsung SSD 980");
    EXPECT_EQ(joinModel("", ""), "");
    EXPECT_EQ(platform::win::busTypeName(BusTypeNvme), "NVMe");
}

TEST(WindowsFactory, MakesTheIocpBackendAndRefusesLinuxEngines)
{
    auto autoBackend = platform::makeBackend({.kind = platform::EngineKind::Auto});
    ASSERT_TRUE(autoBackend);
    EXPECT_EQ(autoBackend->engineName(), "iocp");
    EXPECT_EQ(platform::parseEngineKind("iocp"), platform::EngineKind::Iocp);
    EXPECT_EQ(platform::engineKindName(platform::EngineKind::Iocp), "iocp");
    for (auto kind : {platform::EngineKind::IoUring, platform::EngineKind::Sync}) {
        auto backend = platform::makeBackend({.kind = kind});
        ASSERT_TRUE(backend);
        auto engine = backend->makeEngine();
        ASSERT_FALSE(engine.ok());
        EXPECT_THAT(engine.error().detail, HasSubstr("Linux only"));
    }
}
