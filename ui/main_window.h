#pragma once

#include <QMainWindow>

namespace ioprism::ui {

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
};

} // namespace ioprism::ui
