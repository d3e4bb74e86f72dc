// SPDX-License-Identifier: GPL-3.0-or-later
// Hooks for the device counters beside the application's figures.
//
// The Live plots draw the device's view of each interval over the application's
// (dashed): device read/write MB/s on the throughput plot, device I/O per second on the
// IOPS plot, device await on the latency plot and %util on the CPU plot; the verdict
// badge says whether the device confirms the application's numbers. This file is the
// one place that turns core's device reports into what the screens show:
// deviceOverlayOf() an interval sample into the figures the plots take, verdictBadgeOf()
// into the badge, deviceSummaryHtml() a step's devices into the Results page's summary.
// Without device counters (a tmpfs file, a platform without them) nothing is drawn and
// the badge says "no device counters".
#pragma once

#include "core/run/results.h"

#include <QColor>
#include <QString>

#include <optional>

namespace ioprism::ui {

// What the devices carrying the targets did over one interval (their total).
struct DeviceOverlayPoint {
    double startSeconds = 0; // the interval, on the samples' clock
    double endSeconds = 0;
    double readMegabytesPerSecond = 0; // decimal MB, like the application's
    double writeMegabytesPerSecond = 0;
    double iops = 0; // device reads + writes per second
    double awaitMs = 0; // mean time a request spent at the device (iostat's await)
    double utilPercent = 0; // iostat's %util of the busiest target device
    double deviceRequestBytes = 0; // mean bytes per device request (iostat's areq-sz)
    double appRequestBytes = 0; // mean bytes per application I/O in the interval (0: none)
};

// When the devices served the application's I/O in more, smaller requests (the kernel
// splits an I/O above the device's maximum request size): one sentence saying so with
// both sizes, e.g. "The device's requests average 512 KiB, the application's I/Os 1 MiB:
// the kernel splits each I/O into about 2 device requests, so the device counts about
// 2× the application's IOPS." Empty when the sizes agree within 20 % or one is unknown.
QString requestSplitText(double appRequestBytes, double deviceRequestBytes);

enum class BadgeTone { Neutral, Good, Notice, Bad };
// The colour of a tone as text or a line (green, amber, red); invalid for Neutral (the
// palette's own).
QColor badgeToneColor(BadgeTone tone);

struct VerdictBadge {
    QString text; // "agree", "served from cache", ...
    QString tooltip; // what it means, with the byte counts
    BadgeTone tone = BadgeTone::Neutral;
};

// What a verdict means for the figures, in a sentence or two, and the badge tone it gets.
QString verdictMeaning(core::Verdict verdict);
// A verdict's name on screen ("agree", "write-back pending", ...), in the UI's language;
// the results files and the CLI keep core's English names (core::toString).
QString verdictText(core::Verdict verdict);
// A watched device's role in the device table ("target", "backing", ...), translated.
QString deviceRoleText(core::DeviceRole role);
BadgeTone verdictTone(core::Verdict verdict);

// The device figures of an interval, or nullopt when the sample has none.
std::optional<DeviceOverlayPoint> deviceOverlayOf(const core::IntervalSample &sample);

// The badge for an interval: "no device counters" when the sample carries none.
VerdictBadge verdictBadgeOf(const core::IntervalSample &sample);

// The Results page's device section for one step: the verdict with the bytes behind it,
// iostat's figures per device and their total, targets without a device and why, and
// the write-back seen after the run. Empty when the run had no device counters.
QString deviceSummaryHtml(const core::RunResult &result, int step);

} // namespace ioprism::ui
