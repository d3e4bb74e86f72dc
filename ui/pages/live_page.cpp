// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/live_page.h"

#include "ui/format.h"
#include "ui/icons.h"
#include "ui/plots/frame_pacer.h"

#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QToolButton>
#include <QVBoxLayout>

namespace ioprism::ui {

namespace {

// Splits "12.3 ms" into the number and its unit for the big figures.
std::pair<QString, QString> splitUnit(const QString &text)
{
    const qsizetype space = text.lastIndexOf(QLatin1Char(' '));
    if (space < 0)
        return {text, QString()};
    return {text.left(space), text.mid(space + 1)};
}

} // namespace

LivePage::LivePage(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);

    auto *header = new QHBoxLayout;
    m_headline = new QLabel(tr("Idle: press Start (F5) to run the profile"), this);
    QFont headlineFont = m_headline->font();
    headlineFont.setPointSizeF(headlineFont.pointSizeF() * 1.1);
    headlineFont.setBold(true);
    m_headline->setFont(headlineFont);
    m_headline->setToolTip(tr("The step running now and its phase"));
    header->addWidget(m_headline, 1);

    // Shown only while the device holds I/O past the stall threshold: the figures then
    // say little (nothing completes), so the badge says why.
    m_stall = new QLabel(this);
    m_stall->setAlignment(Qt::AlignCenter);
    m_stall->setStyleSheet(QStringLiteral("QLabel { background: #c92a2a; color: white; "
                                          "border-radius: 9px; padding: 3px 12px; "
                                          "font-weight: bold; }"));
    m_stall->setToolTip(
        tr("I/O in flight for longer than the stall threshold: the device is not completing "
           "I/O (a frozen file system, a failing or disconnected device?). Its age counts in "
           "the maximum latency; Stop waits for it until the stop deadline, Stop twice does "
           "not wait."));
    m_stall->hide();
    header->addWidget(m_stall);

    m_verdict = new QLabel(this);
    m_verdict->setAlignment(Qt::AlignCenter);
    m_verdict->setMinimumWidth(170);
    header->addWidget(m_verdict);

    m_follow = new QToolButton(this);
    m_follow->setIcon(icon(IconId::Follow));
    m_follow->setText(tr("Follow"));
    m_follow->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_follow->setCheckable(true);
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Keep the newest sample in view. Dragging or zooming a plot pauses "
                            "this; click here or double-click a plot to resume."));
    header->addWidget(m_follow);
    layout->addLayout(header);

    m_figureGrid = new QGridLayout;
    m_figureGrid->setSpacing(6);
    m_figureFrames = {
        makeFigure(IopsFigure, tr("IOPS"), tr("I/Os per second, reads and writes, last interval")),
        makeFigure(ReadFigure, tr("Read"), tr("Read throughput, last interval (MB = 10^6 bytes)")),
        makeFigure(
            WriteFigure, tr("Write"), tr("Write throughput, last interval (MB = 10^6 bytes)")),
        makeFigure(
            MeanLatencyFigure, tr("Mean latency"), tr("Mean completion time, last interval")),
        makeFigure(P99LatencyFigure, tr("p99 latency"),
            tr("99th percentile completion time, last interval")),
        makeFigure(CpuFigure, tr("CPU busy"), tr("Busy CPU time, % of all CPUs of the machine")),
    };
    arrangeFigures(FigureCount);
    layout->addLayout(m_figureGrid);

    m_files = new QLabel(this);
    m_files->setObjectName(QStringLiteral("liveFiles"));
    m_files->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_files->setToolTip(tr("Files opened in the last interval (a file tree opens one per "
                           "operation; Iometer's connection rate reopens its targets) and the "
                           "mean time of each open, close and whole open-to-close"));
    m_files->hide();
    layout->addWidget(m_files);

    m_plots = new LivePlots(this);
    m_pacer = new FramePacer(this, [this] { showLatest(); });
    layout->addWidget(m_plots, 1);

    connect(m_follow, &QToolButton::toggled, m_plots, &LivePlots::setFollowing);
    connect(m_plots, &LivePlots::followingChanged, m_follow, &QToolButton::setChecked);
    clear();
}

QWidget *LivePage::makeFigure(Figure figure, const QString &caption, const QString &tooltip)
{
    auto *frame = new QFrame(this);
    frame->setFrameShape(QFrame::StyledPanel);
    frame->setToolTip(tooltip);
    frame->setBackgroundRole(QPalette::Base);
    frame->setAutoFillBackground(true);
    auto *layout = new QVBoxLayout(frame);
    layout->setContentsMargins(10, 4, 10, 6);
    layout->setSpacing(0);
    auto *title = new QLabel(caption, frame);
    QFont small = title->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    title->setFont(small);
    title->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(title);
    auto *row = new QHBoxLayout;
    row->setSpacing(4);
    auto *value = new QLabel(frame);
    QFont big = value->font();
    big.setPointSizeF(big.pointSizeF() * 1.9);
    big.setBold(true);
    value->setFont(big);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *unit = new QLabel(frame);
    // Room for the widest usual value and unit, so figures never clip (the rows reflow
    // instead); the unit stays right after the number.
    frame->setMinimumWidth(QFontMetrics(big).horizontalAdvance(QStringLiteral("888,888"))
        + unit->fontMetrics().horizontalAdvance(QStringLiteral(" IOPS")) + 28);
    unit->setAlignment(Qt::AlignBottom | Qt::AlignLeft);
    row->addWidget(value);
    row->addWidget(unit, 1, Qt::AlignBottom);
    layout->addLayout(row);
    m_figures[static_cast<std::size_t>(figure)] = {title, caption, value, unit};
    return frame;
}

void LivePage::arrangeFigures(int columns)
{
    if (columns == m_figureColumns)
        return;
    m_figureColumns = columns;
    for (auto *frame : m_figureFrames)
        m_figureGrid->removeWidget(frame);
    for (int i = 0; i < FigureCount; ++i)
        m_figureGrid->addWidget(
            m_figureFrames[static_cast<std::size_t>(i)], i / columns, i % columns);
    for (int c = 0; c < FigureCount; ++c)
        m_figureGrid->setColumnStretch(c, c < columns ? 1 : 0);
}

void LivePage::resizeEvent(QResizeEvent *event)
{
    // Six figures in a row need room for "123,456 IOPS" each; narrower, two rows of three.
    const int needed = FigureCount * (m_figureFrames[0]->minimumWidth() + 6) + 12;
    arrangeFigures(width() >= needed ? FigureCount : FigureCount / 2);
    QWidget::resizeEvent(event);
}

void LivePage::setFigure(Figure figure, const QString &value, const QString &unit)
{
    auto &f = m_figures[static_cast<std::size_t>(figure)];
    f.value->setText(value);
    f.unit->setText(unit);
}

void LivePage::clear()
{
    m_plots->clear();
    m_latestFigures.reset();
    m_latestIsRampUp = false;
    m_latestStep = -1;
    m_latestBadge = {tr("no device counters"), tr("No run yet"), BadgeTone::Neutral};
    m_pacer->cancel(); // nothing pending from the last run
    setFigure(IopsFigure, QStringLiteral("—"), QString());
    setFigure(ReadFigure, QStringLiteral("—"), QStringLiteral("MB/s"));
    setFigure(WriteFigure, QStringLiteral("—"), QStringLiteral("MB/s"));
    setFigure(MeanLatencyFigure, QStringLiteral("—"), QString());
    setFigure(P99LatencyFigure, QStringLiteral("—"), QString());
    setFigure(CpuFigure, QStringLiteral("—"), QStringLiteral("%"));
    setVerdict(m_latestBadge);
    showLatest();
}

void LivePage::setPhase(core::RunPhase phase, int step)
{
    if (phase != core::RunPhase::RampUp || step == m_latestStep)
        return;
    // A new step ramps up: the previous step's figures say nothing about it.
    m_latestStep = step;
    m_latestFigures.reset();
    m_latestIsRampUp = true;
    m_pacer->request();
}

void LivePage::addSample(const core::IntervalSample &sample)
{
    m_plots->addSample(sample, deviceOverlayOf(sample));
    // The figures and the badge show the latest interval, redrawn at the plots' pace.
    m_latestBadge = verdictBadgeOf(sample);
    m_latestFigures.reset();
    if (!sample.scopes.empty())
        m_latestFigures = sample.scopes.front().figures;
    m_latestIsRampUp = sample.phase == core::RunPhase::RampUp;
    // Preconditioning shares the first step's number: a step of its own for the reset.
    m_latestStep
        = sample.phase == core::RunPhase::Preconditioning ? -2 : static_cast<int>(sample.step);
    m_latestCpu = sample.cpu;
    m_pacer->request();
}

void LivePage::showLatest()
{
    setVerdict(m_latestBadge);
    for (auto &figure : m_figures)
        figure.caption->setText(m_latestIsRampUp
                ? tr("%1 · ramp-up", "a big figure's caption during ramp-up")
                      .arg(figure.captionText)
                : figure.captionText);
    if (!m_latestFigures || !m_latestFigures->connections) {
        m_files->hide();
    } else {
        const core::ConnectionFigures &c = *m_latestFigures->connections;
        m_files->setText(
            tr("Files: %1 opened/s · open %2 · close %3 · open to close %4 (means)")
                .arg(iopsText(c.open.perSecond),
                    c.open.count ? latencyText(c.open.latency.meanUs) : QStringLiteral("—"),
                    c.close.count ? latencyText(c.close.latency.meanUs) : QStringLiteral("—"),
                    c.connection.count ? latencyText(c.connection.latency.meanUs)
                                       : QStringLiteral("—")));
        m_files->show();
    }
    if (!m_latestFigures) {
        m_stall->hide();
        if (m_latestIsRampUp) // no figure of this step yet
            for (int f = 0; f < FigureCount; ++f)
                setFigure(static_cast<Figure>(f), QStringLiteral("—"), QString());
        return;
    }
    const core::Figures &f = *m_latestFigures;
    if (const auto stalled = int(f.total.stalledIos); stalled > 0) {
        const QString age = latencyText(f.total.oldestInFlightUs);
        m_stall->setText(tr("Stalled: %n I/Os in flight for %1", nullptr, stalled).arg(age));
        m_stall->show();
    } else {
        m_stall->hide();
    }
    setFigure(IopsFigure, iopsText(f.total.iops), tr("IOPS"));
    auto [read, readUnit] = splitUnit(megabytesPerSecondText(f.read.megabytesPerSecond));
    setFigure(ReadFigure, read, readUnit);
    auto [write, writeUnit] = splitUnit(megabytesPerSecondText(f.write.megabytesPerSecond));
    setFigure(WriteFigure, write, writeUnit);
    if (f.total.ios > 0) {
        auto [mean, meanUnit] = splitUnit(latencyText(f.total.latency.meanUs));
        setFigure(MeanLatencyFigure, mean, meanUnit);
        auto [p99, p99Unit] = splitUnit(latencyText(f.total.latency.p99Us));
        setFigure(P99LatencyFigure, p99, p99Unit);
    } else {
        setFigure(MeanLatencyFigure, QStringLiteral("—"), QString());
        setFigure(P99LatencyFigure, QStringLiteral("—"), QString());
    }
    if (m_latestCpu.valid)
        setFigure(
            CpuFigure, QLocale().toString(m_latestCpu.busyPercent, 'f', 1), QStringLiteral("%"));
    else
        setFigure(CpuFigure, QStringLiteral("—"), QStringLiteral("%"));
}

void LivePage::setHeadline(const QString &text)
{
    m_headline->setText(text);
}

void LivePage::setVerdict(const VerdictBadge &badge)
{
    m_verdict->setText(tr("Device: %1").arg(badge.text));
    m_verdict->setToolTip(badge.tooltip);
    // A style sheet re-polishes the widget: set it only when the tone changes.
    if (m_verdictTone == badge.tone)
        return;
    m_verdictTone = badge.tone;
    QString background;
    switch (badge.tone) {
    case BadgeTone::Good:
        background = QStringLiteral("#2f9e44");
        break;
    case BadgeTone::Notice:
        background = QStringLiteral("#e8a317");
        break;
    case BadgeTone::Bad:
        background = QStringLiteral("#d9480f");
        break;
    case BadgeTone::Neutral:
        background = QStringLiteral("#6c7a89");
        break;
    }
    m_verdict->setStyleSheet(
        QStringLiteral("QLabel { background: %1; color: white; border-radius: 9px;"
                       " padding: 3px 12px; font-weight: bold; }")
            .arg(background));
}

QString LivePage::figureText(Figure figure) const
{
    const auto &f = m_figures[static_cast<std::size_t>(figure)];
    return f.unit->text().isEmpty() ? f.value->text()
                                    : f.value->text() + QLatin1Char(' ') + f.unit->text();
}

QString LivePage::figureCaption(Figure figure) const
{
    return m_figures[static_cast<std::size_t>(figure)].caption->text();
}

QString LivePage::verdictText() const
{
    return m_verdict->text();
}

QString LivePage::filesText() const
{
    return m_files->isHidden() ? QString() : m_files->text();
}

QString LivePage::stallText() const
{
    return m_stall->isHidden() ? QString() : m_stall->text();
}

} // namespace ioprism::ui
