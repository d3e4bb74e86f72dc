#include "ui/main_window.h"

namespace ioprism::ui {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("IOPrism"));
    setMinimumSize(800, 560);
}

} // namespace ioprism::ui
