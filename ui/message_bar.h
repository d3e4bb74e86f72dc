// A non-modal message bar across the top of the window (errors, warnings, notices),
// with a "Details" toggle for the full text and a close button. Messages queue: closing
// one shows the next. Nothing here blocks or steals focus.
#pragma once

#include <QFrame>
#include <QString>

#include <deque>

class QLabel;
class QPlainTextEdit;
class QToolButton;

namespace ioprism::ui {

class MessageBar : public QFrame
{
    Q_OBJECT
public:
    enum class Level { Information, Warning, Error };

    explicit MessageBar(QWidget *parent = nullptr);

    void showMessage(Level level, const QString &text, const QString &details = {});
    void dismiss(); // the shown message; shows the next one, or hides the bar
    void clearAll();

    int pendingCount() const { return static_cast<int>(m_queue.size()); }
    QString currentText() const;
    QString currentDetails() const;
    Level currentLevel() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Message {
        Level level;
        QString text;
        QString details;
    };
    void showFront();
    // The bar's background: the level's tint blended over the window colour.
    void applyTint();

    std::deque<Message> m_queue;
    QLabel *m_icon;
    QLabel *m_text;
    QToolButton *m_detailsButton;
    QToolButton *m_close;
    QPlainTextEdit *m_details;
    bool m_tinting = false; // applyTint() sets the palette: its own change is not news
};

} // namespace ioprism::ui
