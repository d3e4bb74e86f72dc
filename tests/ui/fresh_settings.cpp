// SPDX-License-Identifier: GPL-3.0-or-later
// Every GUI test starts from empty settings, the one place that says so. A case run in a
// process of its own starts with a new, empty settings directory (test::ensureApp); the
// cases of a shard (tests/CMakeLists.txt: under ASan and under Wine) share a process, and
// one case's kept choices (peak mode, the reap batch, a window's geometry) would otherwise
// reach the next case's window. Clearing them as each case starts gives both the same
// start.
#include <QCoreApplication>
#include <QSettings>

#include <gtest/gtest.h>

namespace {

class FreshSettingsPerCase final : public ::testing::EmptyTestEventListener
{
public:
    void OnTestStart(const ::testing::TestInfo &) override
    {
        // Before the first case that makes the application there is nothing to clear
        // (and no organisation name for QSettings to find its file by).
        if (QCoreApplication::instance() == nullptr)
            return;
        QSettings settings;
        settings.clear();
        settings.sync();
    }
};

// gtest owns the listener; registered while the program's statics are made, before
// gtest_main runs the cases.
const bool kFreshSettingsRegistered = [] {
    ::testing::UnitTest::GetInstance()->listeners().Append(new FreshSettingsPerCase);
    return true;
}();

} // namespace
