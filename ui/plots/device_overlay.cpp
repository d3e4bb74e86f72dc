// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/device_overlay.h"

#include "ui/format.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

namespace ioprism::ui {

namespace {

QString megabytesText(std::uint64_t bytes)
{
    return QCoreApplication::translate("Verdict", "%1 MB")
        .arg(QLocale().toString(static_cast<double>(bytes) / 1e6, 'f', 1));
}

// "reads: agree (application 512.3 MB, device 512.0 MB, device/application 1.00)"
QString directionText(const QString &name, const core::DirectionVerdict &d)
{
    QString text
        = QStringLiteral("%1: %2 (%3 %4, %5 %6")
              .arg(name, verdictText(d.verdict),
                  QCoreApplication::translate("Verdict", "application"), megabytesText(d.appBytes),
                  QCoreApplication::translate("Verdict", "device"), megabytesText(d.deviceBytes));
    if (d.appBytes > 0)
        text += QStringLiteral(", %1 %2").arg(
            QCoreApplication::translate("Verdict", "device/application"),
            QLocale().toString(d.ratio, 'f', 2));
    return text + QLatin1Char(')');
}

QString verdictDetails(const core::DeviceVerdict &v)
{
    return directionText(QCoreApplication::translate("Verdict", "reads"), v.read)
        + QStringLiteral("<br>")
        + directionText(QCoreApplication::translate("Verdict", "writes"), v.write);
}

QString number(double value, int decimals)
{
    return QLocale().toString(value, 'f', decimals);
}

QString deviceRow(const QString &name, const QString &role, const core::DeviceFigures &f)
{
    // nowrap: a narrow window must widen the table (the view scrolls), never break a
    // number such as "2,853.5" across two lines.
    auto cell = [](const QString &text) {
        return QStringLiteral("<td align=\"right\" style=\"white-space:nowrap\">%1</td>").arg(text);
    };
    QString row = QStringLiteral("<tr><td style=\"white-space:nowrap\">%1</td><td>%2</td>")
                      .arg(name.toHtmlEscaped(), role.toHtmlEscaped());
    row += cell(number(f.readsPerSecond, 1)) + cell(number(f.writesPerSecond, 1))
        + cell(number(f.readMegabytesPerSecond, 2)) + cell(number(f.writeMegabytesPerSecond, 2))
        + cell(number(f.averageRequestBytes / 1024.0, 1));
    if (f.hasTimes)
        row += cell(number(f.readAwaitMs, 2)) + cell(number(f.writeAwaitMs, 2))
            + cell(number(f.queueSize, 2)) + cell(number(f.utilPercent, 1));
    else
        row += cell(QStringLiteral("—")).repeated(4);
    return row + QStringLiteral("</tr>");
}

QString deviceTable(const core::DeviceMap &map, const std::vector<core::DeviceFigures> &devices,
    const core::DeviceFigures &total)
{
    QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"3\"><tr>");
    // iostat's column names, as iostat prints them in every language.
    for (const char *head :
        {QT_TRANSLATE_NOOP("Verdict", "device"), QT_TRANSLATE_NOOP("Verdict", "role"), "r/s", "w/s",
            "rMB/s", "wMB/s", "areq-sz KiB", "r_await ms", "w_await ms", "aqu-sz", "%util"})
        html += QStringLiteral("<th style=\"white-space:nowrap\">%1</th>")
                    .arg(QCoreApplication::translate("Verdict", head));
    html += QStringLiteral("</tr>");
    for (std::size_t i = 0; i < devices.size() && i < map.devices.size(); ++i) {
        QString name = toQString(map.devices[i].name);
        if (!map.devices[i].via.empty())
            name += QStringLiteral(" (%1 %2)")
                        .arg(QCoreApplication::translate("Verdict", "via"),
                            toQString(map.devices[i].via));
        html += deviceRow(name, deviceRoleText(map.devices[i].role), devices[i]);
    }
    html += deviceRow(QCoreApplication::translate("Verdict", "targets total"), QString(), total);
    return html + QStringLiteral("</table>");
}

// The application's mean I/O size, to set beside the device's request size: 0 (nothing
// to compare) unless the devices moved at least half the application's bytes. A read
// served from the cache, or a write still in it, was never split by anyone.
double appRequestBytesOf(const core::Figures &f, const core::DeviceFigures &device)
{
    if (f.total.ios == 0
        || static_cast<double>(device.readBytes + device.writeBytes)
            < 0.5 * static_cast<double>(f.total.bytes))
        return 0.0;
    return static_cast<double>(f.total.bytes) / static_cast<double>(f.total.ios);
}

} // namespace

QString verdictText(core::Verdict verdict)
{
    switch (verdict) {
    case core::Verdict::NoDeviceCounters:
        return QCoreApplication::translate("Verdict", "no device counters");
    case core::Verdict::Idle:
        return QCoreApplication::translate("Verdict", "idle");
    case core::Verdict::Background:
        return QCoreApplication::translate("Verdict", "background");
    case core::Verdict::Agree:
        return QCoreApplication::translate("Verdict", "agree");
    case core::Verdict::ServedFromCache:
        return QCoreApplication::translate("Verdict", "served from cache");
    case core::Verdict::WriteBackPending:
        return QCoreApplication::translate("Verdict", "write-back pending");
    case core::Verdict::OtherTraffic:
        return QCoreApplication::translate("Verdict", "other traffic");
    case core::Verdict::Amplified:
        return QCoreApplication::translate("Verdict", "amplified");
    case core::Verdict::FileMetadata:
        return QCoreApplication::translate("Verdict", "file metadata");
    }
    return toQString(core::toString(verdict));
}

QString deviceRoleText(core::DeviceRole role)
{
    switch (role) {
    case core::DeviceRole::Target:
        return QCoreApplication::translate("Verdict", "target", "a device's role");
    case core::DeviceRole::Disk:
        return QCoreApplication::translate("Verdict", "disk", "a device's role");
    case core::DeviceRole::Slave:
        return QCoreApplication::translate("Verdict", "member", "a device's role");
    case core::DeviceRole::Backing:
        return QCoreApplication::translate("Verdict", "backing", "a device's role");
    }
    return toQString(core::toString(role));
}

QString verdictMeaning(core::Verdict verdict)
{
    switch (verdict) {
    case core::Verdict::Agree:
    case core::Verdict::Idle:
    case core::Verdict::Background: // never a headline
        return QCoreApplication::translate("Verdict",
            "The devices moved the bytes the application measured: the figures are "
            "the device's.");
    case core::Verdict::ServedFromCache:
        return QCoreApplication::translate("Verdict",
            "The application read more than the devices did: a cache (the page cache "
            "in buffered mode, or one in between) served the rest. These are not the "
            "device's figures.");
    case core::Verdict::WriteBackPending:
        return QCoreApplication::translate("Verdict",
            "The devices have written less than the application: the rest sits in a "
            "cache waiting to be written back. These are not the device's figures.");
    case core::Verdict::OtherTraffic:
        return QCoreApplication::translate("Verdict",
            "The devices did more than the application asked, in a direction it did "
            "not use: another process is using them.");
    case core::Verdict::Amplified:
        return QCoreApplication::translate("Verdict",
            "The devices moved far more than the application: journaling, read-ahead "
            "or read-modify-write of misaligned or partial blocks (or another process "
            "in the same direction).");
    case core::Verdict::FileMetadata:
        return QCoreApplication::translate("Verdict",
            "The devices moved more than the application's own I/O: the file system's "
            "metadata for opening and closing files (directory lookups, inodes, the "
            "journal's time stamps). The application's figures include what that costs.");
    case core::Verdict::NoDeviceCounters:
        break;
    }
    return QCoreApplication::translate("Verdict",
        "Device counters are not available for these targets: the device's own "
        "figures cannot confirm the application's.");
}

QColor badgeToneColor(BadgeTone tone)
{
    switch (tone) {
    case BadgeTone::Good:
        return QColor(0x2f, 0x9e, 0x44);
    case BadgeTone::Notice:
        return QColor(0xc2, 0x7c, 0x0e);
    case BadgeTone::Bad:
        return QColor(0xd9, 0x48, 0x0f);
    case BadgeTone::Neutral:
        break;
    }
    return {};
}

BadgeTone verdictTone(core::Verdict verdict)
{
    switch (verdict) {
    case core::Verdict::Agree:
    case core::Verdict::Idle:
    case core::Verdict::Background:
        return BadgeTone::Good;
    case core::Verdict::ServedFromCache:
    case core::Verdict::WriteBackPending:
    case core::Verdict::FileMetadata:
        return BadgeTone::Notice;
    case core::Verdict::OtherTraffic:
    case core::Verdict::Amplified:
        return BadgeTone::Bad;
    case core::Verdict::NoDeviceCounters:
        break;
    }
    return BadgeTone::Neutral;
}

QString requestSplitText(double appRequestBytes, double deviceRequestBytes)
{
    // Below 20 % the difference is metadata, journaling or rounding, not a split.
    if (appRequestBytes <= 0 || deviceRequestBytes <= 0
        || appRequestBytes < deviceRequestBytes * 1.2)
        return {};
    const double parts = appRequestBytes / deviceRequestBytes;
    return QCoreApplication::translate("Verdict",
        "The device's requests average %1, the application's I/Os %2: the kernel splits each "
        "I/O at the device's maximum request size into about %3 device requests, so the "
        "device counts about %3× the application's IOPS for the same bytes.")
        .arg(capacityText(static_cast<std::uint64_t>(deviceRequestBytes)),
            capacityText(static_cast<std::uint64_t>(appRequestBytes)),
            QLocale().toString(parts, 'f', parts < 10 ? 1 : 0));
}

std::optional<DeviceOverlayPoint> deviceOverlayOf(const core::IntervalSample &sample)
{
    const core::DeviceReport &report = sample.devices;
    if (!report.available || !report.total.valid)
        return std::nullopt;
    const core::DeviceFigures &t = report.total;
    DeviceOverlayPoint point;
    point.startSeconds = sample.startSeconds;
    point.endSeconds = sample.endSeconds;
    point.readMegabytesPerSecond = t.readMegabytesPerSecond;
    point.writeMegabytesPerSecond = t.writeMegabytesPerSecond;
    point.iops = t.readsPerSecond + t.writesPerSecond;
    // iostat's await over reads and writes together: weighted by the number of requests.
    const double requests = static_cast<double>(t.readIos + t.writeIos);
    if (t.hasTimes && requests > 0)
        point.awaitMs = (t.readAwaitMs * static_cast<double>(t.readIos)
                            + t.writeAwaitMs * static_cast<double>(t.writeIos))
            / requests;
    point.utilPercent = t.hasTimes ? t.utilPercent : 0;
    point.deviceRequestBytes = t.averageRequestBytes;
    if (!sample.scopes.empty())
        point.appRequestBytes = appRequestBytesOf(sample.scopes.front().figures, t);
    return point;
}

VerdictBadge verdictBadgeOf(const core::IntervalSample &sample)
{
    const core::DeviceReport &report = sample.devices;
    if (!report.available || report.verdict.verdict == core::Verdict::NoDeviceCounters)
        return {QCoreApplication::translate("Verdict", "no device counters"),
            verdictMeaning(core::Verdict::NoDeviceCounters), BadgeTone::Neutral};
    const core::Verdict headline = report.verdict.verdict == core::Verdict::Idle
        ? core::Verdict::Agree
        : report.verdict.verdict;
    QString tooltip = verdictMeaning(headline);
    if (!sample.scopes.empty()) {
        const QString split
            = requestSplitText(appRequestBytesOf(sample.scopes.front().figures, report.total),
                report.total.averageRequestBytes);
        if (!split.isEmpty())
            tooltip += QStringLiteral("<br><br>") + split.toHtmlEscaped();
    }
    return {verdictText(headline),
        tooltip + QStringLiteral("<br><br>")
            + QCoreApplication::translate("Verdict", "This interval:") + QStringLiteral("<br>")
            + verdictDetails(report.verdict),
        verdictTone(headline)};
}

QString deviceSummaryHtml(const core::RunResult &result, int step)
{
    QStringList parts;
    const core::StepResult *s = step >= 0 && static_cast<std::size_t>(step) < result.steps.size()
        ? &result.steps[static_cast<std::size_t>(step)]
        : nullptr;
    if (s && (s->devices.available || !result.deviceMap.empty())) {
        const core::DeviceVerdict &v = s->devices.verdict;
        const core::Verdict headline
            = v.verdict == core::Verdict::Idle ? core::Verdict::Agree : v.verdict;
        parts << QStringLiteral("<b>%1: %2</b>")
                     .arg(QCoreApplication::translate("Verdict", "Device verdict"),
                         verdictText(headline).toHtmlEscaped());
        parts << verdictMeaning(headline).toHtmlEscaped();
        if (s->devices.available && !s->scopes.empty()) {
            const QString split
                = requestSplitText(appRequestBytesOf(s->scopes.front().figures, s->devices.total),
                    s->devices.total.averageRequestBytes);
            if (!split.isEmpty())
                parts << split.toHtmlEscaped();
        }
        if (v.verdict != core::Verdict::NoDeviceCounters)
            parts << verdictDetails(v);
        if (s->devices.available)
            parts << QCoreApplication::translate(
                         "Verdict", "Devices (iostat's figures over the measured time):")
                    + deviceTable(result.deviceMap, s->devices.devices, s->devices.total);
    }
    for (const auto &t : result.deviceMap.targets)
        if (!t.device)
            parts << QStringLiteral("%1: %2").arg(
                toQString(t.targetPath).toHtmlEscaped(), toQString(t.note).toHtmlEscaped());
    const core::DeviceTail &tail = result.deviceTail;
    if (tail.worthReporting()) {
        parts << QCoreApplication::translate("Verdict",
            "After the run: %1 written by the application (ramp-up included) were "
            "not on the devices "
            "yet; the devices wrote %2 in the %3 s after the end (%4).")
                     .arg(megabytesText(tail.pendingWriteBytes),
                         megabytesText(tail.flushedWriteBytes), number(tail.seconds, 1),
                         tail.idle ? QCoreApplication::translate("Verdict", "then idle")
                                   : QCoreApplication::translate(
                                       "Verdict", "%1 still not written when sampling stopped")
                                         .arg(megabytesText(tail.remainingWriteBytes)));
    }
    return parts.join(QStringLiteral("<br>"));
}

} // namespace ioprism::ui
