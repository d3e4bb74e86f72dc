#include "ui/message_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace ioprism::ui {

MessageBar::MessageBar(QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
    , m_detailsButton(new QToolButton(this))
    , m_close(new QToolButton(this))
    , m_details(new QPlainTextEdit(this))
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->setSpacing(4);
    auto *row = new QHBoxLayout;
    row->addWidget(m_icon);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->addWidget(m_text, 1);
    m_detailsButton->setText(tr("Details"));
    m_detailsButton->setCheckable(true);
    m_detailsButton->setToolTip(tr("Show or hide the full text of this message"));
    row->addWidget(m_detailsButton);
    m_close->setText(QStringLiteral("✕"));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Dismiss this message (the next one, if any, shows)"));
    row->addWidget(m_close);
    layout->addLayout(row);
    m_details->setReadOnly(true);
    m_details->setMaximumHeight(140);
    m_details->setToolTip(tr("Full text of the message; select to copy"));
    m_details->hide();
    layout->addWidget(m_details);

    connect(m_detailsButton, &QToolButton::toggled, m_details, &QWidget::setVisible);
    connect(m_close, &QToolButton::clicked, this, &MessageBar::dismiss);
    hide();
}

void MessageBar::showMessage(Level level, const QString &text, const QString &details)
{
    m_queue.push_back({level, text, details});
    if (m_queue.size() == 1)
        showFront();
    else
        m_close->setToolTip(tr("Dismiss this message (%n more waiting)", nullptr,
            static_cast<int>(m_queue.size()) - 1));
}

void MessageBar::dismiss()
{
    if (!m_queue.empty())
        m_queue.pop_front();
    showFront();
}

void MessageBar::clearAll()
{
    m_queue.clear();
    showFront();
}

QString MessageBar::currentText() const
{
    return m_queue.empty() ? QString() : m_queue.front().text;
}

QString MessageBar::currentDetails() const
{
    return m_queue.empty() ? QString() : m_queue.front().details;
}

MessageBar::Level MessageBar::currentLevel() const
{
    return m_queue.empty() ? Level::Information : m_queue.front().level;
}

void MessageBar::showFront()
{
    if (m_queue.empty()) {
        hide();
        return;
    }
    const Message &m = m_queue.front();
    QStyle::StandardPixmap pixmap = QStyle::SP_MessageBoxInformation;
    if (m.level == Level::Warning)
        pixmap = QStyle::SP_MessageBoxWarning;
    else if (m.level == Level::Error)
        pixmap = QStyle::SP_MessageBoxCritical;
    applyTint();
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_icon->setPixmap(style()->standardIcon(pixmap).pixmap(size, size));
    QString text = m.text;
    if (m_queue.size() > 1)
        text += tr("  (%n more)", nullptr, static_cast<int>(m_queue.size()) - 1);
    m_text->setText(text);
    m_text->setToolTip(m.details.isEmpty() ? m.text : m.details);
    m_details->setPlainText(m.details);
    m_detailsButton->setVisible(!m.details.isEmpty());
    m_detailsButton->setChecked(false);
    m_details->hide();
    show();
}

void MessageBar::applyTint()
{
    QColor tint;
    switch (currentLevel()) {
    case Level::Information:
        tint = QColor(59, 130, 246, 45);
        break;
    case Level::Warning:
        tint = QColor(234, 179, 8, 60);
        break;
    case Level::Error:
        tint = QColor(220, 38, 38, 55);
        break;
    }
    QPalette p = palette();
    QColor base = parentWidget() ? parentWidget()->palette().color(QPalette::Window)
                                 : p.color(QPalette::Window);
    // Blend the tint over the window colour so the bar reads on light and dark palettes.
    const float a = tint.alphaF();
    QColor blended = QColor::fromRgbF(base.redF() * (1 - a) + tint.redF() * a,
        base.greenF() * (1 - a) + tint.greenF() * a, base.blueF() * (1 - a) + tint.blueF() * a);
    p.setColor(QPalette::Window, blended);
    m_tinting = true;
    setPalette(p);
    m_tinting = false;
}

void MessageBar::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    // The system switched between light and dark: blend over the new window colour.
    if (event->type() == QEvent::PaletteChange && !m_tinting && !m_queue.empty())
        applyTint();
}

} // namespace ioprism::ui
