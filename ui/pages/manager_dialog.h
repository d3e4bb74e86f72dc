// SPDX-License-Identifier: GPL-3.0-or-later
// "Add manager…" and "Bind to agent…": the address of an ioprism-agent, its token file,
// plaintext (loopback or an SSH tunnel) and an optional certificate pin. Connect reaches
// it off the GUI thread (PlatformServices::reachManager on a thread of its own; the
// answer comes back queued) while a busy bar shows; the window stays usable and Cancel
// closes the dialog at once (a connection that still completes is then closed). A
// refusal (a wrong token, a changed certificate, no agent there) is said in the dialog
// and nothing is added; a manager reached is handed over with reached() and the dialog
// closes.
#pragma once

#include "ui/platform_services.h"

#include <QDialog>

#include <functional>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace ioprism::ui {

class ManagerDialog : public QDialog
{
    Q_OBJECT
public:
    using Reach = std::function<core::Result<ReachedManager>(const ManagerAccess &)>;
    ManagerDialog(Reach reach, const QString &title, QWidget *parent = nullptr);

    void setAccess(const ManagerAccess &access);
    ManagerAccess access() const;

    // Starts connecting (the Connect button).
    void connectToManager();
    bool isConnecting() const { return m_connecting; }

    QLineEdit *addressField() const { return m_address; }
    QLineEdit *tokenFileField() const { return m_tokenFile; }
    QCheckBox *plaintextField() const { return m_plaintext; }
    QLineEdit *pinField() const { return m_pin; }
    QLabel *errorLabel() const { return m_error; }
    QPushButton *connectButton() const { return m_connect; }

signals:
    void reached(const ioprism::ui::ReachedManager &manager);

private:
    void onResult(core::Result<ReachedManager> result);
    void setConnecting(bool connecting);

    Reach m_reach;
    QLineEdit *m_address;
    QLineEdit *m_tokenFile;
    QCheckBox *m_plaintext;
    QLineEdit *m_pin;
    QLabel *m_error;
    QProgressBar *m_busy;
    QPushButton *m_connect;
    QDialogButtonBox *m_buttons;
    bool m_connecting = false;
    std::uint64_t m_attempt = 0; // answers of an earlier attempt are dropped
};

} // namespace ioprism::ui
