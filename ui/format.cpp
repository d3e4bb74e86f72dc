// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/format.h"

#include "core/profile/sweep_parameter.h"
#include "core/profile/units.h"
#include "core/stats/histogram.h"

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ioprism::ui {

QString exactSizeText(std::uint64_t bytes)
{
    return toQString(core::describeExactSize(bytes));
}

QString capacityText(std::uint64_t bytes)
{
    // Qt's spelling of a data size in the user's language and number format ("476.9 GiB",
    // "476,9 GiB", "12 bytes", "12 Byte"), in IEC units as storage tools write them. Only
    // the precision is ours: whole values without a decimal ("512 MiB", not "512.0 MiB").
    double value = static_cast<double>(bytes);
    int power = 0;
    while (value >= 1024.0 && power < 6) {
        value /= 1024.0;
        ++power;
    }
    const bool whole = std::abs(value - std::round(value)) < 0.05;
    return QLocale().formattedDataSize(
        static_cast<qint64>(std::min<std::uint64_t>(bytes, std::numeric_limits<qint64>::max())),
        whole || power == 0 ? 0 : 1, QLocale::DataSizeIecFormat);
}

QString megabytesPerSecondText(double megabytesPerSecond)
{
    const QLocale locale;
    const int decimals = megabytesPerSecond >= 100 ? 0 : (megabytesPerSecond >= 10 ? 1 : 2);
    return locale.toString(megabytesPerSecond, 'f', decimals) + QStringLiteral(" MB/s");
}

QString iopsText(double iops)
{
    const QLocale locale;
    return locale.toString(iops, 'f', iops >= 100 ? 0 : 1);
}

QString sweepValueText(core::SweepParameter parameter, std::uint64_t value)
{
    switch (core::sweepTraits(parameter).kind) {
    case core::SweepValueKind::Size:
        return exactSizeText(value);
    case core::SweepValueKind::Percent:
        return QStringLiteral("%1 %").arg(value);
    case core::SweepValueKind::Count:
        break;
    }
    return QLocale().toString(static_cast<qulonglong>(value));
}

QString managerName(const core::Profile &profile, std::size_t host)
{
    if (host == 0)
        return QCoreApplication::translate("Format", "this host");
    if (host < profile.hosts.size() && !profile.hosts[host].name.empty())
        return toQString(profile.hosts[host].name);
    return QCoreApplication::translate("Format", "manager %1").arg(host + 1);
}

QString fileTreeShapeText(const core::FileTree &tree)
{
    return QCoreApplication::translate("Format", "%1 × %2 × %3 = %4")
        .arg(QCoreApplication::translate("Format", "%n level(s)", nullptr, int(tree.depth)),
            QCoreApplication::translate("Format", "%n file(s)", nullptr, int(tree.filesPerLevel)),
            exactSizeText(tree.fileSizeBytes), capacityText(tree.totalBytes()));
}

QString scopeText(const core::Scope &scope)
{
    return scope.kind == core::Scope::Kind::All ? QCoreApplication::translate("Format", "All")
                                                : toQString(scope.label);
}

QString scopeRowText(const core::Scope &scope)
{
    switch (scope.kind) {
    case core::Scope::Kind::All:
        return scopeText(scope);
    case core::Scope::Kind::Worker:
        return QStringLiteral("  ") + toQString(scope.label);
    case core::Scope::Kind::Target:
        return QStringLiteral("      ") + toQString(scope.targetPath);
    case core::Scope::Kind::Host: // a run of several hosts: its workers' labels name it too
        return QStringLiteral("  ") + toQString(scope.label);
    }
    return {};
}

QString sweepParameterText(core::SweepParameter parameter)
{
    switch (parameter) {
    case core::SweepParameter::TransferSize:
        return QCoreApplication::translate("Format", "transfer size");
    case core::SweepParameter::OutstandingIos:
        return QCoreApplication::translate("Format", "outstanding I/Os per target");
    case core::SweepParameter::Workers:
        return QCoreApplication::translate("Format", "workers");
    case core::SweepParameter::PercentRead:
        return QCoreApplication::translate("Format", "% read");
    case core::SweepParameter::PercentRandom:
        return QCoreApplication::translate("Format", "% random");
    case core::SweepParameter::Position:
        return QCoreApplication::translate("Format", "position (% of each target)");
    }
    return {};
}

QString latencyText(double microseconds)
{
    const QLocale locale;
    if (microseconds <= 0)
        return QStringLiteral("0 µs");
    if (microseconds < 1000)
        return locale.toString(microseconds, 'f', microseconds < 10 ? 2 : 1)
            + QStringLiteral(" µs");
    if (microseconds < 1'000'000)
        return locale.toString(microseconds / 1000.0, 'f', microseconds < 10'000 ? 2 : 1)
            + QStringLiteral(" ms");
    return locale.toString(microseconds / 1e6, 'f', 2) + QStringLiteral(" s");
}

QString latencyBinText(std::size_t bin)
{
    QString label = QString::fromLatin1(core::IometerBins::label(bin));
    label.replace(QLatin1String(">="), QStringLiteral("≥"));
    if (label.endsWith(QLatin1String("us")))
        return label.chopped(2) + QStringLiteral(" µs");
    if (label.endsWith(QLatin1String("ms")))
        return label.chopped(2) + QStringLiteral(" ms");
    return label.chopped(1) + QStringLiteral(" s");
}

QString percentText(double percent)
{
    const QLocale locale;
    return locale.toString(percent, 'f', 1) + QStringLiteral(" %");
}

QString durationText(std::chrono::seconds duration)
{
    return toQString(core::formatDuration(duration));
}
QString durationText(std::chrono::milliseconds duration)
{
    return toQString(core::formatDuration(duration));
}
QString durationText(std::chrono::microseconds duration)
{
    return toQString(core::formatDuration(duration));
}

QString clockText(double seconds)
{
    const auto total = static_cast<long long>(seconds < 0 ? 0 : seconds);
    const long long h = total / 3600, m = (total / 60) % 60, s = total % 60;
    if (h > 0)
        return QStringLiteral("%1:%2:%3")
            .arg(h)
            .arg(m, 2, 10, QLatin1Char('0'))
            .arg(s, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(m).arg(s, 2, 10, QLatin1Char('0'));
}

std::optional<std::uint64_t> sizeFromVariant(const QVariant &value)
{
    if (value.typeId() == QMetaType::QString)
        return core::parseSize(toStdString(value.toString().trimmed()));
    bool ok = false;
    const qulonglong bytes = value.toULongLong(&ok);
    if (!ok)
        return std::nullopt;
    return static_cast<std::uint64_t>(bytes);
}

std::optional<std::uint64_t> countFromVariant(const QVariant &value)
{
    bool ok = false;
    if (value.typeId() == QMetaType::QString) {
        const qulonglong n = value.toString().trimmed().toULongLong(&ok);
        return ok ? std::optional<std::uint64_t>(n) : std::nullopt;
    }
    const qlonglong n = value.toLongLong(&ok);
    if (!ok || n < 0)
        return std::nullopt;
    return static_cast<std::uint64_t>(n);
}

QString problemsText(const core::Problems &problems)
{
    QStringList lines;
    for (const auto &p : problems) {
        const QString message = toQString(p.message);
        lines << (p.severity == core::Severity::Warning
                ? QCoreApplication::translate("Format", "Warning: %1").arg(message)
                : message);
    }
    return lines.join(QLatin1Char('\n'));
}

namespace {

QString fieldWords(const QString &key)
{
    // The labels of the editors where each field is set.
    static const std::pair<const char *, const char *> kFields[] = {
        {"transferSize", QT_TRANSLATE_NOOP("Format", "transfer size")},
        {"transferSizeBytes", QT_TRANSLATE_NOOP("Format", "transfer size")},
        {"alignment", QT_TRANSLATE_NOOP("Format", "alignment")},
        {"alignmentBytes", QT_TRANSLATE_NOOP("Format", "alignment")},
        {"reply", QT_TRANSLATE_NOOP("Format", "reply size")},
        {"replySizeBytes", QT_TRANSLATE_NOOP("Format", "reply size")},
        {"percentRead", QT_TRANSLATE_NOOP("Format", "% read")},
        {"percentRandom", QT_TRANSLATE_NOOP("Format", "% random")},
        {"share", QT_TRANSLATE_NOOP("Format", "% of access")},
        {"delay", QT_TRANSLATE_NOOP("Format", "delay")},
        {"burst", QT_TRANSLATE_NOOP("Format", "burst")},
        {"queueDepth", QT_TRANSLATE_NOOP("Format", "queue depth")},
        {"threads", QT_TRANSLATE_NOOP("Format", "threads")},
        {"lines", QT_TRANSLATE_NOOP("Format", "lines")},
        {"name", QT_TRANSLATE_NOOP("Format", "name")},
        {"path", QT_TRANSLATE_NOOP("Format", "path")},
        {"outstandingIos", QT_TRANSLATE_NOOP("Format", "outstanding I/Os")},
        {"testFileSizeBytes", QT_TRANSLATE_NOOP("Format", "test file size")},
        {"region", QT_TRANSLATE_NOOP("Format", "region")},
        {"defaultRegion", QT_TRANSLATE_NOOP("Format", "region")},
        {"offset", QT_TRANSLATE_NOOP("Format", "start")},
        {"offsetBytes", QT_TRANSLATE_NOOP("Format", "start")},
        {"size", QT_TRANSLATE_NOOP("Format", "size")},
        {"sizeBytes", QT_TRANSLATE_NOOP("Format", "size")},
        {"dataPattern", QT_TRANSLATE_NOOP("Format", "data pattern")},
        {"cpuAffinity", QT_TRANSLATE_NOOP("Format", "CPU affinity")},
        {"tree", QT_TRANSLATE_NOOP("Format", "file tree")},
        {"fileSize", QT_TRANSLATE_NOOP("Format", "file size")},
        {"filesPerLevel", QT_TRANSLATE_NOOP("Format", "files per folder")},
        {"runTime", QT_TRANSLATE_NOOP("Format", "run time per step")},
        {"rampUp", QT_TRANSLATE_NOOP("Format", "ramp-up")},
        {"interval", QT_TRANSLATE_NOOP("Format", "sampling interval")},
        {"series", QT_TRANSLATE_NOOP("Format", "series")},
        {"axes", QT_TRANSLATE_NOOP("Format", "axis")},
        {"values", QT_TRANSLATE_NOOP("Format", "value")},
        {"parameter", QT_TRANSLATE_NOOP("Format", "parameter")},
        {"workers", QT_TRANSLATE_NOOP("Format", "workers")},
        {"targets", QT_TRANSLATE_NOOP("Format", "targets")},
        {"description", QT_TRANSLATE_NOOP("Format", "description")},
        {"testType", QT_TRANSLATE_NOOP("Format", "test type")},
    };
    for (const auto &[key2, words] : kFields)
        if (key == QLatin1String(key2))
            return QCoreApplication::translate("Format", words);
    // Not in the table: the camel case split into words, never the bare identifier.
    QString words;
    for (const QChar c : key) {
        if (c.isUpper() && !words.isEmpty())
            words += QLatin1Char(' ');
        words += c.toLower();
    }
    return words;
}

QString quotedName(const std::string &name)
{
    return QCoreApplication::translate("Format", "\u201c%1\u201d").arg(toQString(name));
}

QString placeInWords(const QString &path, const core::Profile &profile)
{
    static const QRegularExpression kPart(QStringLiteral(R"(^([A-Za-z]+)(?:\[(\d+)\])?$)"));
    QStringList words;
    const core::Host *host = nullptr;
    const core::Worker *worker = nullptr;
    for (const QString &part : path.split(QLatin1Char('.'))) {
        const auto m = kPart.match(part);
        if (!m.hasMatch())
            return path;
        const QString key = m.captured(1);
        const bool indexed = m.capturedLength(2) > 0;
        const std::size_t index = indexed ? m.captured(2).toULongLong() : 0;
        if (key == QLatin1String("setup") && words.isEmpty()) {
            words << QCoreApplication::translate("Format", "Test Setup");
        } else if (key == QLatin1String("specs") && indexed) {
            const core::AccessSpec *spec
                = index < profile.specs.size() ? &profile.specs[index] : nullptr;
            words << (spec && !spec->name.empty()
                    ? QCoreApplication::translate("Format", "spec %1").arg(quotedName(spec->name))
                    : QCoreApplication::translate("Format", "spec %1").arg(index + 1));
        } else if (key == QLatin1String("lines") && indexed) {
            words << QCoreApplication::translate("Format", "line %1").arg(index + 1);
        } else if (key == QLatin1String("hosts") && indexed) {
            host = index < profile.hosts.size() ? &profile.hosts[index] : nullptr;
            // One manager is the window's only one: naming it adds nothing (unless the
            // path names one the profile does not have).
            if (profile.hosts.size() > 1 || !host)
                words << (host && !host->name.empty()
                        ? QCoreApplication::translate("Format", "manager %1")
                              .arg(quotedName(host->name))
                        : QCoreApplication::translate("Format", "manager %1").arg(index + 1));
        } else if (key == QLatin1String("workers") && indexed) {
            worker = host && index < host->workers.size() ? &host->workers[index] : nullptr;
            words << (worker && !worker->name.empty()
                    ? QCoreApplication::translate("Format", "worker %1")
                          .arg(quotedName(worker->name))
                    : QCoreApplication::translate("Format", "worker %1").arg(index + 1));
        } else if (key == QLatin1String("targets") && indexed) {
            const core::Target *target
                = worker && index < worker->targets.size() ? &worker->targets[index] : nullptr;
            words << (target && !target->path.empty()
                    ? QCoreApplication::translate("Format", "target %1")
                          .arg(quotedName(target->path))
                    : QCoreApplication::translate("Format", "target %1").arg(index + 1));
        } else if (indexed) {
            words << QStringLiteral("%1 %2").arg(fieldWords(key)).arg(index + 1);
        } else {
            words << fieldWords(key);
        }
    }
    return words.join(QStringLiteral(", "));
}

} // namespace

QString keepIoWhole(QString text)
{
    text.replace(QStringLiteral("I/O"), QStringLiteral("I\u2060/\u2060O"));
    return text;
}

QString placesInWords(const QString &text, const core::Profile &profile)
{
    // A path starts at one of the profile's top-level keys, not inside a word; "setup"
    // only with a field after it (the word itself is English).
    static const QRegularExpression kPath(QStringLiteral(
        R"(\b(?:setup(?=\.[A-Za-z])|specs\[\d+\]|hosts\[\d+\])(?:\.[A-Za-z]+(?:\[\d+\])?)*)"));
    QString out;
    qsizetype last = 0;
    auto it = kPath.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        out += text.mid(last, m.capturedStart() - last);
        out += placeInWords(m.captured(), profile);
        last = m.capturedEnd();
    }
    out += text.mid(last);
    return out;
}

QString problemText(const core::Problem &problem, const core::Profile &profile)
{
    const QString message = placesInWords(toQString(problem.message), profile);
    return problem.path.empty()
        ? message
        : QStringLiteral("%1: %2").arg(placeInWords(toQString(problem.path), profile), message);
}

} // namespace ioprism::ui
