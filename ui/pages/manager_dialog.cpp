// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/manager_dialog.h"

#include "ui/format.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include <thread>

namespace ioprism::ui {

ManagerDialog::ManagerDialog(Reach reach, const QString &title, QWidget *parent)
    : QDialog(parent)
    , m_reach(std::move(reach))
    , m_address(new QLineEdit(this))
    , m_tokenFile(new QLineEdit(this))
    , m_plaintext(new QCheckBox(tr("Plaintext (loopback or SSH tunnel)"), this))
    , m_pin(new QLineEdit(this))
    , m_error(new QLabel(this))
    , m_busy(new QProgressBar(this))
    , m_connect(new QPushButton(tr("Connect"), this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel, this))
{
    setWindowTitle(title);
    m_address->setPlaceholderText(QStringLiteral("db2.example.net:7355"));
    m_address->setToolTip(tr("Where ioprism-agent listens: host, host:port or [IPv6]:port "
                             "(port 7355 when none is given)."));
    m_tokenFile->setToolTip(tr("The file holding the agent's shared token (its first line), "
                               "the same file the agent was started with."));
    auto *browse = new QToolButton(this);
    browse->setText(tr("…"));
    browse->setToolTip(tr("Choose the token file."));
    connect(browse, &QToolButton::clicked, this, [this] {
        auto *chooser = new QFileDialog(this, tr("Token file"));
        chooser->setAttribute(Qt::WA_DeleteOnClose);
        chooser->setFileMode(QFileDialog::ExistingFile);
        connect(chooser, &QFileDialog::fileSelected, this,
            [this](const QString &file) { m_tokenFile->setText(file); });
        chooser->open();
    });
    m_plaintext->setToolTip(tr("Connect without TLS: only for an agent started with "
                               "--plaintext on this host, or reached through an SSH tunnel."));
    m_pin->setPlaceholderText(tr("SHA256:… (optional)"));
    m_pin->setToolTip(tr("The fingerprint the agent printed when it started. Empty: the "
                         "certificate is recorded on first use and must not change later."));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setToolTip(tr("Why the last attempt failed."));
    m_error->hide();
    m_busy->setRange(0, 0);
    m_busy->setTextVisible(false);
    m_busy->setToolTip(tr("Connecting to the agent…"));
    m_busy->hide();
    m_connect->setDefault(true);
    m_connect->setToolTip(tr("Connect to the agent, check its token and certificate, and add "
                             "it to the topology."));
    m_buttons->addButton(m_connect, QDialogButtonBox::ActionRole);
    m_buttons->button(QDialogButtonBox::Cancel)
        ->setToolTip(tr("Close without adding (a connection still being made is dropped)."));

    auto *tokenRow = new QHBoxLayout;
    tokenRow->addWidget(m_tokenFile, 1);
    tokenRow->addWidget(browse);
    auto *form = new QFormLayout;
    form->addRow(tr("Address:"), m_address);
    form->addRow(tr("Token file:"), tokenRow);
    form->addRow(QString(), m_plaintext);
    form->addRow(tr("Certificate pin:"), m_pin);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_busy);
    layout->addWidget(m_buttons);

    connect(m_connect, &QPushButton::clicked, this, &ManagerDialog::connectToManager);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(this, &QDialog::rejected, this, [this] {
        ++m_attempt; // a late answer is dropped (its connection closes with it)
        setConnecting(false);
    });
}

void ManagerDialog::setAccess(const ManagerAccess &access)
{
    m_address->setText(toQString(access.address));
    m_tokenFile->setText(toQString(access.tokenFile));
    m_plaintext->setChecked(access.plaintext);
    m_pin->setText(toQString(access.pin));
}

ManagerAccess ManagerDialog::access() const
{
    return {toStdString(m_address->text().trimmed()), toStdString(m_tokenFile->text().trimmed()),
        m_plaintext->isChecked(), toStdString(m_pin->text().trimmed())};
}

void ManagerDialog::connectToManager()
{
    if (m_connecting || !m_reach)
        return;
    const ManagerAccess a = access();
    if (a.address.empty()) {
        onResult(core::OpError {{}, "connect", {}, toStdString(tr("give the agent's address"))});
        return;
    }
    setConnecting(true);
    const std::uint64_t attempt = ++m_attempt;
    // Connecting blocks up to its timeout: on a thread of its own, the answer queued to
    // the GUI thread, where the guard says whether the dialog is still there.
    QPointer<ManagerDialog> guard(this);
    std::thread([reach = m_reach, a, guard, attempt] {
        auto result = std::make_shared<core::Result<ReachedManager>>(reach(a));
        QCoreApplication *app = QCoreApplication::instance();
        if (!app)
            return; // the application has ended meanwhile
        QMetaObject::invokeMethod(
            app,
            [guard, attempt, result] {
                if (guard && guard->m_attempt == attempt)
                    guard->onResult(std::move(*result));
            },
            Qt::QueuedConnection);
    }).detach();
}

void ManagerDialog::onResult(core::Result<ReachedManager> result)
{
    setConnecting(false);
    if (!result) {
        m_error->setText(toQString(result.error().toString()));
        m_error->show();
        return;
    }
    m_error->hide();
    emit reached(*result);
    accept();
}

void ManagerDialog::setConnecting(bool connecting)
{
    m_connecting = connecting;
    m_busy->setVisible(connecting);
    m_connect->setEnabled(!connecting);
    m_address->setEnabled(!connecting);
    m_tokenFile->setEnabled(!connecting);
    m_plaintext->setEnabled(!connecting);
    m_pin->setEnabled(!connecting);
    if (connecting)
        m_error->hide();
}

} // namespace ioprism::ui
