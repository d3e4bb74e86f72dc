// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/steady_state_overlay.h"

#include "ui/format.h"
#include "ui/plots/device_overlay.h"
#include "ui/plots/qcp_library.h"

#include <cmath>

namespace ioprism::ui {

namespace {

BadgeTone toneOf(core::SteadyState state)
{
    switch (state) {
    case core::SteadyState::Steady:
        return BadgeTone::Good;
    case core::SteadyState::Measuring:
        return BadgeTone::Notice;
    case core::SteadyState::NotReached:
        return BadgeTone::Bad;
    }
    return BadgeTone::Neutral;
}

// "8.0 %" of a share (0.08).
QString shareText(double share)
{
    return percentText(share * 100);
}

} // namespace

QString SteadyStateOverlay::describe(const core::SteadyStateRecord &record)
{
    const core::SteadyStateCriteria &c = record.setup.criteria;
    const core::SteadyStateResult &result = record.result;
    const QString rule
        = tr("Steady state (%1 on %2)")
              .arg(QString::fromUtf8(core::steadyStateRuleName(c.rule).data()),
                  QString::fromUtf8(core::steadyStateMetricName(record.setup.metric).data()));
    const auto &w = result.window;
    if (!w || w->count == 0)
        return tr("%1: round %2 of at most %3; a window is %4 rounds")
            .arg(rule)
            .arg(record.rounds.size())
            .arg(c.roundLimit)
            .arg(c.windowRounds);
    const QString rounds = QStringLiteral("%1–%2").arg(w->first + 1).arg(w->first + w->count);
    QString verdict;
    switch (result.state) {
    case core::SteadyState::Steady:
        verdict = tr("steady at rounds %1").arg(rounds);
        break;
    case core::SteadyState::Measuring:
        verdict = tr("rounds %1 not steady yet (round %2 of at most %3)")
                      .arg(rounds)
                      .arg(record.rounds.size())
                      .arg(c.roundLimit);
        break;
    case core::SteadyState::NotReached:
        verdict = tr("not reached in %1 rounds (the last window: rounds %2)")
                      .arg(record.rounds.size())
                      .arg(rounds);
        break;
    }
    QString tests;
    switch (c.rule) {
    case core::SteadyStateRule::Pts:
        tests = tr("range %1 (at most %2) · slope excursion %3 (at most %4)")
                    .arg(shareText(w->rangeShare), shareText(c.rangeLimit),
                        shareText(w->excursionShare), shareText(c.slopeLimit));
        break;
    case core::SteadyStateRule::FioDeviation:
        tests = tr("deviation %1 (below %2)")
                    .arg(shareText(w->deviationShare), shareText(c.rangeLimit));
        break;
    case core::SteadyStateRule::FioSlope:
        tests = tr("slope %1 of the mean per round (below %2)")
                    .arg(shareText(w->mean > 0 ? std::abs(w->slopePerRound) / w->mean : 0),
                        shareText(c.slopeLimit));
        break;
    }
    // Two lines: the verdict, then its tests (a plot a quarter of the window wide holds each).
    return QStringLiteral("%1: %2\n%3").arg(rule, verdict, tests);
}

void SteadyStateOverlay::show(QCustomPlot *plot, int step, const core::SteadyStateRecord &record)
{
    auto found = m_steps.find(step);
    // A record goes on from the one drawn (a round more): its bars are kept and only the
    // new rounds' added, so a step of many rounds costs a round's items per round, not
    // all of them again. Anything else (another plot, fewer rounds) is drawn anew.
    const bool goesOn = found != m_steps.end() && found->second.plot == plot
        && found->second.bars.size() <= record.rounds.size();
    if (found != m_steps.end()) {
        Drawn &old = found->second;
        for (QCPAbstractItem *item : old.items)
            old.plot->removeItem(item);
        old.items.clear();
        if (!goesOn) {
            for (QCPItemLine *bar : old.bars)
                old.plot->removeItem(bar);
            m_steps.erase(found);
        }
    }
    if (record.rounds.empty()) {
        m_steps.erase(step);
        return;
    }
    Drawn &drawn = m_steps[step];
    drawn.plot = plot;
    const QColor tone = badgeToneColor(toneOf(record.result.state));
    QColor outside = plot->xAxis->basePen().color();
    outside.setAlpha(140);

    // The window the rule judged last: shaded from its smallest to its largest round,
    // with its least-squares line.
    const auto &w = record.result.window;
    const bool window = w && w->count > 0 && w->first + w->count <= record.rounds.size();
    drawn.windowRounds = 0;
    if (window) {
        const core::SteadyStateRound &first = record.rounds[w->first];
        const core::SteadyStateRound &last = record.rounds[w->first + w->count - 1];
        auto *band = new QCPItemRect(plot);
        band->setLayer(QStringLiteral("grid"));
        band->setPen(Qt::NoPen);
        QColor fill = tone;
        fill.setAlpha(45);
        band->setBrush(fill);
        band->topLeft->setCoords(first.startSeconds, w->maximum);
        band->bottomRight->setCoords(last.endSeconds, w->minimum);
        drawn.items.push_back(band);
        // Through (index, figure): at index k of the window, mean + slope x (k - (n-1)/2).
        const double half = double(w->count - 1) / 2;
        auto *fit = new QCPItemLine(plot);
        fit->setPen(QPen(tone, 1.5, Qt::DashLine));
        fit->start->setCoords(
            (first.startSeconds + first.endSeconds) / 2, w->mean - w->slopePerRound * half);
        fit->end->setCoords(
            (last.startSeconds + last.endSeconds) / 2, w->mean + w->slopePerRound * half);
        drawn.items.push_back(fit);
        drawn.windowRounds = int(w->count);
    }
    for (std::size_t i = drawn.bars.size(); i < record.rounds.size(); ++i) {
        const core::SteadyStateRound &r = record.rounds[i];
        auto *bar = new QCPItemLine(plot);
        bar->start->setCoords(r.startSeconds, r.figure);
        bar->end->setCoords(r.endSeconds, r.figure);
        drawn.bars.push_back(bar);
    }
    // Colours from the earlier of the last window and this one on: the bars before it
    // were grey and stay so (a window only moves on).
    const std::size_t from = std::min(drawn.colouredFrom, window ? w->first : drawn.bars.size());
    for (std::size_t i = from; i < drawn.bars.size(); ++i) {
        const bool inWindow = window && i >= w->first && i < w->first + w->count;
        drawn.bars[i]->setPen(QPen(inWindow ? tone : outside, inWindow ? 3 : 2));
    }
    drawn.colouredFrom = window ? w->first : drawn.bars.size();
    drawn.rounds = int(record.rounds.size());

    // The verdict at the bottom of the plot, from the first round on (the step labels are
    // at the top).
    drawn.label = describe(record);
    auto *label = new QCPItemText(plot);
    label->setClipToAxisRect(true);
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(record.rounds.front().startSeconds, 1.0);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    label->setTextAlignment(Qt::AlignLeft);
    label->setPadding(QMargins(4, 0, 0, 2));
    label->setColor(tone);
    label->setText(drawn.label);
    drawn.items.push_back(label);
}

int SteadyStateOverlay::roundsShown(int step) const
{
    const auto it = m_steps.find(step);
    return it == m_steps.end() ? 0 : it->second.rounds;
}

int SteadyStateOverlay::windowRoundsShown(int step) const
{
    const auto it = m_steps.find(step);
    return it == m_steps.end() ? 0 : it->second.windowRounds;
}

QString SteadyStateOverlay::labelText(int step) const
{
    const auto it = m_steps.find(step);
    return it == m_steps.end() ? QString() : it->second.label;
}

} // namespace ioprism::ui
