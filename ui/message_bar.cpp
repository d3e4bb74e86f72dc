// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/message_bar.h"

#include "ui/format.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace ioprism::ui {

namespace {

QStyle::StandardPixmap iconOf(MessageBar::Level level)
{
    switch (level) {
    case MessageBar::Level::Warning:
        return QStyle::SP_MessageBoxWarning;
    case MessageBar::Level::Error:
        return QStyle::SP_MessageBoxCritical;
    case MessageBar::Level::Information:
        break;
    }
    return QStyle::SP_MessageBoxInformation;
}

} // namespace

MessageBar::MessageBar(QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
    , m_detailsButton(new QToolButton(this))
    , m_close(new QToolButton(this))
    , m_details(new QPlainTextEdit(this))
    , m_stack(new QWidget(this))
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
    auto *stackLayout = new QVBoxLayout(m_stack);
    stackLayout->setContentsMargins(0, 0, 0, 0);
    stackLayout->setSpacing(2);
    m_stack->setToolTip(tr("More messages, most severe first; close each on its own"));
    layout->addWidget(m_stack);

    connect(m_detailsButton, &QToolButton::toggled, m_details, &QWidget::setVisible);
    connect(m_close, &QToolButton::clicked, this, &MessageBar::dismiss);
    hide();
}

void MessageBar::showMessage(
    Level level, const QString &text, const QString &details, const QString &topic)
{
    const bool frontHadTopic
        = !topic.isEmpty() && !m_queue.empty() && m_queue.front().topic == topic;
    if (!topic.isEmpty())
        std::erase_if(m_queue, [&topic](const Message &m) { return m.topic == topic; });
    // After every message at least as severe: errors first, then warnings, then notices.
    auto at = std::find_if(m_queue.begin(), m_queue.end(),
        [level](const Message &m) { return static_cast<int>(m.level) < static_cast<int>(level); });
    const bool newFront = at == m_queue.begin() || frontHadTopic;
    m_queue.insert(at, {level, text, details, topic});
    if (newFront)
        showFront();
    else
        rebuildStack();
}

void MessageBar::clearTopic(const QString &topic)
{
    if (topic.isEmpty() || m_queue.empty())
        return;
    const bool front = m_queue.front().topic == topic;
    if (std::erase_if(m_queue, [&topic](const Message &m) { return m.topic == topic; }) == 0)
        return;
    if (front)
        showFront();
    else
        rebuildStack();
}

void MessageBar::dismiss()
{
    dismissAt(0);
}

void MessageBar::dismissAt(int index)
{
    if (index < 0 || index >= pendingCount())
        return;
    m_queue.erase(m_queue.begin() + index);
    if (index == 0)
        showFront();
    else
        rebuildStack();
}

int MessageBar::shownCount() const
{
    return m_queue.empty() ? 0 : 1 + m_stackedShown;
}

QString MessageBar::textAt(int index) const
{
    return index >= 0 && index < pendingCount() ? m_queue[static_cast<std::size_t>(index)].text
                                                : QString();
}

MessageBar::Level MessageBar::levelAt(int index) const
{
    return index >= 0 && index < pendingCount() ? m_queue[static_cast<std::size_t>(index)].level
                                                : Level::Information;
}

void MessageBar::rebuildStack()
{
    // Rows are few and change only with messages: rebuilt whole, no bookkeeping.
    auto *stackLayout = m_stack->layout();
    while (QLayoutItem *item = stackLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    const int stacked = std::min(pendingCount() - 1, kStackedRows);
    m_stackedShown = std::max(stacked, 0);
    for (int i = 1; i <= stacked; ++i) {
        const Message &m = m_queue[static_cast<std::size_t>(i)];
        auto *row = new QWidget(m_stack);
        auto *rowLayout = new QHBoxLayout(row);
        rowLayout->setContentsMargins(0, 0, 0, 0);
        auto *icon = new QLabel(row);
        icon->setPixmap(style()->standardIcon(iconOf(m.level)).pixmap(size, size));
        rowLayout->addWidget(icon);
        auto *text = new QLabel(row);
        // One line: the first line of the text, elided by the label's width.
        text->setText(m.text.section(QLatin1Char('\n'), 0, 0));
        text->setToolTip(
            m.details.isEmpty() ? m.text : m.text + QStringLiteral("\n\n") + m.details);
        text->setTextInteractionFlags(Qt::TextSelectableByMouse);
        text->setMinimumWidth(0);
        text->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        rowLayout->addWidget(text, 1);
        auto *close = new QToolButton(row);
        close->setText(QStringLiteral("✕"));
        close->setAutoRaise(true);
        close->setToolTip(tr("Dismiss this message"));
        connect(close, &QToolButton::clicked, this, [this, row] {
            // The row's index now (rows above it may have gone).
            const int index = m_stack->layout()->indexOf(row) + 1;
            QMetaObject::invokeMethod(
                this, [this, index] { dismissAt(index); }, Qt::QueuedConnection);
        });
        rowLayout->addWidget(close);
        stackLayout->addWidget(row);
        row->show(); // now, not on the next event loop turn (the layout's default)
    }
    if (const int rest = pendingCount() - 1 - stacked; rest > 0) {
        auto *more
            = new QLabel(tr("%n more message(s): close one to see them", nullptr, rest), m_stack);
        more->setToolTip(tr("Messages beyond these wait until one above is closed"));
        stackLayout->addWidget(more);
        more->show();
    }
    m_stack->setVisible(stacked > 0);
    m_close->setToolTip(pendingCount() > 1
            ? tr("Dismiss this message (%n more waiting)", nullptr, pendingCount() - 1)
            : tr("Dismiss this message (the next one, if any, shows)"));
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
        rebuildStack();
        hide();
        return;
    }
    const Message &m = m_queue.front();
    applyTint();
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_icon->setPixmap(style()->standardIcon(iconOf(m.level)).pixmap(size, size));
    m_text->setText(keepIoWhole(m.text));
    m_text->setToolTip(m.details.isEmpty() ? m.text : m.details);
    m_details->setPlainText(m.details);
    m_detailsButton->setVisible(!m.details.isEmpty());
    m_detailsButton->setChecked(false);
    m_details->hide();
    rebuildStack();
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
