// ioprism: the desktop application.
#include "ui/main_window.h"

#include <QApplication>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("IOPrism"));
    QApplication::setOrganizationName(QStringLiteral("IOPrism"));
    QApplication::setApplicationVersion(QStringLiteral(IOPRISM_VERSION));

    ioprism::ui::MainWindow window;
    window.show();
    return QApplication::exec();
}
