// SPDX-License-Identifier: GPL-3.0-or-later
// Engine kinds across operating systems: the Windows engine is named and parsed
// everywhere, and refused with a clear message where it cannot run (here: Linux). The
// Windows side of this is in windows_backend_test.cpp.
#include "platform/common/backend_factory.h"

#include <algorithm>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <vector>

using namespace ioprism::platform;
using ::testing::HasSubstr;

TEST(EngineKind, IocpIsNamedAndParsed)
{
    EXPECT_EQ(engineKindName(EngineKind::Iocp), "iocp");
    EXPECT_EQ(parseEngineKind("iocp"), EngineKind::Iocp);
    EXPECT_EQ(parseEngineKind("IOCP"), std::nullopt) << "names are lower case, like the others";
}

TEST(EngineKind, IocpOnLinuxIsRefusedBeforeAnyTargetIsTouched)
{
    auto backend = makeBackend({.kind = EngineKind::Iocp});
    ASSERT_TRUE(backend);
    EXPECT_EQ(backend->engineName(), "iocp");
    auto engine = backend->makeEngine();
    ASSERT_FALSE(engine.ok());
    EXPECT_THAT(engine.error().detail, HasSubstr("Windows only"));
    ioprism::core::Target target;
    target.path = "/nonexistent/ioprism-test.dat";
    auto info = backend->prepareTarget(target, {}, {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code, std::make_error_code(std::errc::not_supported));
}

// The list the GUI offers (PlatformServices::engines) is the list makeBackend makes: every
// kind left out is refused as not supported here, before any target is touched.
TEST(EngineKind, LinuxOffersAutoIoUringSyncAndNullAndRefusesTheRest)
{
    using ioprism::core::EngineKind;
    const std::vector<EngineKind> offered = availableEngines();
    EXPECT_EQ(offered,
        (std::vector<EngineKind> {
            EngineKind::Auto, EngineKind::IoUring, EngineKind::Sync, EngineKind::Null}));
    for (const EngineKind kind : {EngineKind::Auto, EngineKind::IoUring, EngineKind::Sync,
             EngineKind::Null, EngineKind::Iocp}) {
        auto backend = makeBackend({.kind = kind});
        ASSERT_TRUE(backend) << engineKindName(kind);
        const bool isOffered = std::ranges::find(offered, kind) != offered.end();
        auto engine = backend->makeEngine();
        if (!isOffered) {
            ASSERT_FALSE(engine.ok()) << engineKindName(kind);
            EXPECT_EQ(engine.error().code, std::make_error_code(std::errc::not_supported));
        } else if (kind == EngineKind::Sync || kind == EngineKind::Null) {
            // Auto and IoUring depend on the kernel and the sandbox; these two do not.
            EXPECT_TRUE(engine.ok()) << engineKindName(kind);
        }
    }
}
