// SPDX-License-Identifier: GPL-3.0-or-later
// A run of several hosts in the Results page's table: each host's row under All, bold as
// All is, with its own CPU; a run of one host shows no host row.
#include "core/run/host_merge.h"
#include "support/host_runs.h"
#include "ui/models/results_model.h"

#include <QFont>

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using test::oneStepHostRun;

QVariant cell(const ResultsModel &model, int row, int column, int role = Qt::DisplayRole)
{
    return model.data(model.index(row, column), role);
}

TEST(HostsView, EachHostHasItsRowUnderAllWithItsOwnCpu)
{
    auto merged = core::mergeHostRuns({{"", -1, "", oneStepHostRun("db1", 1000, 20)},
        {"", -1, "", oneStepHostRun("db2", 3000, 60)}});
    ASSERT_TRUE(merged.ok()) << merged.error().toString();
    ResultsModel model;
    model.setResult(std::make_shared<const core::RunResult>(std::move(*merged)));
    model.setStep(0);
    // All; db1, its worker; db2, its worker.
    ASSERT_EQ(model.rowCount(), 5);
    EXPECT_EQ(cell(model, 1, ResultsModel::ScopeColumn).toString(), QStringLiteral("  db1"));
    EXPECT_EQ(
        cell(model, 4, ResultsModel::ScopeColumn).toString(), QStringLiteral("  db2 / Worker 1"));
    EXPECT_TRUE(cell(model, 1, 0, Qt::FontRole).value<QFont>().bold()) << "a host heads its rows";
    EXPECT_FALSE(cell(model, 2, 0, Qt::FontRole).isValid()) << "a worker is not bold";
    EXPECT_DOUBLE_EQ(
        cell(model, 0, ResultsModel::IopsColumn, ResultsModel::ValueRole).toDouble(), 400.0)
        << "All: 4000 reads in 10 s";
    EXPECT_DOUBLE_EQ(
        cell(model, 0, ResultsModel::CpuColumn, ResultsModel::ValueRole).toDouble(), 40.0)
        << "the hosts' mean";
    EXPECT_DOUBLE_EQ(
        cell(model, 1, ResultsModel::CpuColumn, ResultsModel::ValueRole).toDouble(), 20.0);
    EXPECT_DOUBLE_EQ(
        cell(model, 3, ResultsModel::CpuColumn, ResultsModel::ValueRole).toDouble(), 60.0);
    EXPECT_FALSE(cell(model, 2, ResultsModel::CpuColumn, ResultsModel::ValueRole).isValid());

    // One host: All and its worker, nothing more.
    model.setResult(std::make_shared<const core::RunResult>(oneStepHostRun("db1", 1000, 20)));
    model.setStep(0);
    EXPECT_EQ(model.rowCount(), 2);
}

} // namespace
} // namespace ioprism::ui
