// SPDX-License-Identifier: GPL-3.0-or-later
// A step's steady-state rounds (core/stats/steady_state.h) drawn live over the plot of
// their figure: the IOPS plot for IOPS, the throughput plot for MB/s, the latency plot
// for a latency. Each round is a bar at its figure across its time; the rounds the rule
// judged last (its window) are shaded from their smallest to their largest figure, with
// the least-squares line through them dashed, and a label says what the rule found:
// which rounds, each test's share against its limit, and the verdict. Green when steady,
// amber while the window still moves, red when the round limit came first; rounds outside
// the window are grey.
//
// Each round's end adds its bar and redraws its step's window, fit and label; bars are
// recoloured only from the window on: a round costs a few items, however many rounds a
// step (up to its round limit) has. The items are the plot's: LivePlots'
// clear() removes every item, and forget() drops the overlay's pointers to them.
#pragma once

#include "core/stats/steady_state.h"

#include <QCoreApplication>
#include <QString>

#include <map>
#include <vector>

class QCustomPlot;
class QCPAbstractItem;
class QCPItemLine;

namespace ioprism::ui {

class SteadyStateOverlay
{
    Q_DECLARE_TR_FUNCTIONS(SteadyStateOverlay)
public:
    // Draws step `step`'s rounds and judgement on `plot`, in place of what was drawn for
    // that step before.
    void show(QCustomPlot *plot, int step, const core::SteadyStateRecord &record);
    // The plot cleared its items: forget them.
    void forget() { m_steps.clear(); }

    // What the label of a record says, on two lines, e.g. "Steady state (pts on iops):
    // steady at rounds 3–7" and "range 8.0 % (at most 20.0 %) · slope excursion 3.0 % (at
    // most 10.0 %)".
    static QString describe(const core::SteadyStateRecord &record);

    // For tests: the rounds drawn for a step (its bars), the rounds in its shaded window
    // (0 when there is none yet), and its label's text.
    int roundsShown(int step) const;
    int windowRoundsShown(int step) const;
    QString labelText(int step) const;

private:
    struct Drawn {
        QCustomPlot *plot = nullptr;
        std::vector<QCPItemLine *> bars; // a round each, kept while the step goes on
        std::size_t colouredFrom = 0; // bars before this are grey for good
        std::vector<QCPAbstractItem *> items; // the window's band and fit, the label
        int rounds = 0;
        int windowRounds = 0;
        QString label;
    };
    std::map<int, Drawn> m_steps;
};

} // namespace ioprism::ui
