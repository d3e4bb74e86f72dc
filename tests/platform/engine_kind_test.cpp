// SPDX-License-Identifier: GPL-3.0-or-later
// Engine kinds across operating systems: the Windows engine is named and parsed
// everywhere, and refused with a clear message where it cannot run (here: Linux). The
// Windows side of this is in windows_backend_test.cpp.
#include "platform/common/backend_factory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

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
