// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/icons.h"

#include <QHash>
#include <QImageReader>

// Q_INIT_RESOURCE must be used outside any namespace. Calling it here links the
// compiled resources into every executable that uses ioprism_ui (a static library's
// resource initialiser is otherwise dropped by the linker).
static void initIoprismResources()
{
    Q_INIT_RESOURCE(ioprism);
}

namespace ioprism::ui {

namespace {

struct IconNames {
    const char *theme; // freedesktop icon name, "" when the theme has no fitting one
    const char *file; // ours, under :/icons/
};

IconNames namesOf(IconId id)
{
    switch (id) {
    case IconId::App:
        return {"", "ioprism"};
    case IconId::New:
        return {"document-new", "new"};
    case IconId::Open:
        return {"document-open", "open"};
    case IconId::Save:
        return {"document-save", "save"};
    case IconId::SaveAs:
        return {"document-save-as", "save-as"};
    case IconId::Start:
        return {"media-playback-start", "start"};
    case IconId::Stop:
        return {"media-playback-stop", "stop"};
    case IconId::Export:
        return {"document-export", "export"};
    case IconId::Host:
        return {"computer", "host"};
    case IconId::Worker:
        return {"", "worker"};
    case IconId::Disk:
        return {"drive-harddisk", "disk"};
    case IconId::TestFile:
        return {"text-x-generic", "test-file"};
    case IconId::FileTree:
        return {"folder", "file-tree"};
    case IconId::Add:
        return {"list-add", "add"};
    case IconId::Remove:
        return {"list-remove", "remove"};
    case IconId::Duplicate:
        return {"edit-copy", "duplicate"};
    case IconId::Up:
        return {"go-up", "up"};
    case IconId::Down:
        return {"go-down", "down"};
    case IconId::Preset:
        return {"", "preset"};
    case IconId::Follow:
        return {"", "follow"};
    case IconId::Refresh:
        return {"view-refresh", "refresh"};
    case IconId::Assign:
        return {"go-next", "assign"};
    case IconId::Unassign:
        return {"go-previous", "unassign"};
    case IconId::Plot:
        return {"", "plot"};
    case IconId::Results:
        return {"", "results"};
    case IconId::Setup:
        return {"", "setup"};
    case IconId::Specs:
        return {"", "specs"};
    }
    return {"", "ioprism"};
}

// Ours: the SVG where Qt can draw SVG (its svg icon engine, Linux: libqt6svg6), else
// the PNG renderings of it that the build made (the Windows build has no QtSvg:
// ui/CMakeLists.txt, IOPRISM_ICONS_AS_PNG).
QIcon ownIcon(const char *file)
{
    static const bool svg = QImageReader::supportedImageFormats().contains("svg");
    if (svg)
        return QIcon(QStringLiteral(":/icons/%1.svg").arg(QLatin1String(file)));
    QIcon rendered;
    for (const int size : {16, 24, 32, 48, 64})
        rendered.addFile(QStringLiteral(":/icons/png/%1-%2.png").arg(QLatin1String(file)).arg(size),
            QSize(size, size));
    return rendered;
}

} // namespace

QIcon icon(IconId id)
{
    static const bool initialised = [] {
        initIoprismResources();
        return true;
    }();
    (void)initialised;
    static QHash<int, QIcon> cache;
    const int key = static_cast<int>(id);
    if (auto it = cache.constFind(key); it != cache.constEnd())
        return *it;
    const IconNames names = namesOf(id);
    const QIcon ours = ownIcon(names.file);
    QIcon result = *names.theme ? QIcon::fromTheme(QLatin1String(names.theme), ours) : ours;
    cache.insert(key, result);
    return result;
}

} // namespace ioprism::ui
