// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/write_bytes_plot.h"

#include "core/profile/units.h"
#include "core/run/step_findings.h"
#include "ui/format.h"
#include "ui/plots/device_overlay.h"
#include "ui/plots/qcp_library.h"
#include "ui/style.h"

#include <algorithm>
#include <cmath>

namespace ioprism::ui {

namespace {

// A latency drawn is a number above 0 (a results file keeps no per-interval p99: 0).
bool drawn(double us)
{
    return std::isfinite(us) && us > 0;
}

} // namespace

WriteBytesPlot::WriteBytesPlot(QCustomPlot *plot)
    : m_plot(plot)
{
    followPalette(plot);
    m_rate = plot->addGraph(plot->xAxis, plot->yAxis);
    m_rate->setName(tr("write MB/s"));
    m_rate->setPen(QPen(series::write(), 1.5));
    m_mean = plot->addGraph(plot->xAxis, plot->yAxis2);
    m_mean->setName(tr("mean latency"));
    m_mean->setPen(QPen(series::p50(), 1));
    m_p99 = plot->addGraph(plot->xAxis, plot->yAxis2);
    m_p99->setName(tr("p99 latency"));
    // Not p99's usual orange: that is the write rate's colour here.
    m_p99->setPen(QPen(series::p999(), 1));
    plot->yAxis2->setVisible(true);
    plot->yAxis->setLabel(tr("write MB/s"));
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);

    m_cliff = new QCPItemStraightLine(plot);
    m_cliff->setPen(QPen(badgeToneColor(BadgeTone::Bad), 1.5, Qt::DashLine));
    m_cliff->setVisible(false);
    m_label = new QCPItemText(plot);
    m_label->setClipToAxisRect(true);
    m_label->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_label->position->setCoords(0, 1);
    m_label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_label->setTextAlignment(Qt::AlignLeft);
    m_label->setPadding(QMargins(4, 0, 0, 2));
    useTextColor(m_label, 230);
}

bool WriteBytesPlot::show(const core::RunResult &result, std::size_t stepIndex)
{
    for (QCPGraph *g : {m_rate, m_mean, m_p99})
        g->data()->clear();
    m_cliff->setVisible(false);
    m_label->setText({});
    m_caption.clear();
    if (stepIndex >= result.steps.size() || !result.steps[stepIndex].writeCliff) {
        m_plot->replot();
        return false;
    }
    const core::StepResult &step = result.steps[stepIndex];
    const core::WriteCliffJudgement &judged = *step.writeCliff;
    const auto written
        = core::stepWriteIntervals(result.intervals, step.step, core::RunPhase::Measuring);
    const double total = written.empty() ? 0 : double(written.back().bytesWritten);
    const bool gib = total >= double(core::kGiB);
    m_unit = gib ? double(core::kGiB) : double(core::kMiB);
    m_plot->xAxis->setLabel(gib ? tr("written (GiB)") : tr("written (MiB)"));

    double rateTop = 0, latencyTop = 0;
    for (const auto &w : written) {
        if (std::isfinite(w.write.megabytesPerSecond))
            rateTop = std::max(rateTop, w.write.megabytesPerSecond);
        for (const double us : {w.write.latency.meanUs, w.write.latency.p99Us})
            if (w.write.ios > 0 && drawn(us))
                latencyTop = std::max(latencyTop, us);
    }
    // One unit for the latency axis: µs below 10 ms at the top, else ms.
    const bool ms = latencyTop >= 10'000;
    const double latencyUnit = ms ? 1000 : 1;
    m_plot->yAxis2->setLabel(ms ? tr("write latency (ms)") : tr("write latency (µs)"));
    for (const auto &w : written) {
        const double x = double(w.bytesWritten) / m_unit;
        if (std::isfinite(w.write.megabytesPerSecond))
            m_rate->addData(x, w.write.megabytesPerSecond);
        if (w.write.ios > 0 && drawn(w.write.latency.meanUs))
            m_mean->addData(x, w.write.latency.meanUs / latencyUnit);
        if (w.write.ios > 0 && drawn(w.write.latency.p99Us))
            m_p99->addData(x, w.write.latency.p99Us / latencyUnit);
    }
    // A legend names only what is drawn.
    for (QCPGraph *g : {m_mean, m_p99}) {
        if (g->data()->isEmpty())
            g->removeFromLegend();
        else
            g->addToLegend();
    }

    if (const auto &cliff = judged.cliff) {
        const double at = double(cliff->bytesBefore) / m_unit;
        m_cliff->point1->setCoords(at, 0);
        m_cliff->point2->setCoords(at, 1);
        m_cliff->setVisible(true);
        m_caption = tr("Write cliff %1").arg(toQString(core::describeWriteCliff(judged)));
    } else {
        m_caption = tr("No write cliff in %1 written over %2 intervals")
                        .arg(capacityText(judged.bytesWritten))
                        .arg(judged.intervals);
    }
    m_label->setText(m_caption);
    m_plot->xAxis->setRange(0, std::max(total / m_unit, 1e-9));
    m_plot->yAxis->setRange(0, rateTop > 0 ? rateTop * 1.15 : 1);
    m_plot->yAxis2->setRange(0, latencyTop > 0 ? latencyTop / latencyUnit * 1.15 : 1);
    m_plot->replot();
    return true;
}

int WriteBytesPlot::ratePoints() const
{
    return m_rate->dataCount();
}

int WriteBytesPlot::meanPoints() const
{
    return m_mean->dataCount();
}

int WriteBytesPlot::p99Points() const
{
    return m_p99->dataCount();
}

std::optional<double> WriteBytesPlot::cliffAt() const
{
    if (!m_cliff->visible())
        return std::nullopt;
    return m_cliff->point1->key();
}

} // namespace ioprism::ui
