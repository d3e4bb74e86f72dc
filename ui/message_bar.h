// SPDX-License-Identifier: GPL-3.0-or-later
// A non-modal message bar across the top of the window (errors, warnings, notices),
// with a "Details" toggle for the full text and a close button. Messages are ordered by
// severity, errors first (in order of arrival within a level): a new error never waits
// behind an older notice. The first message is shown in full; up to kStackedRows more
// stack beneath it as one line each, each with its own close button, and a last line
// counts the rest. Nothing here blocks or steals focus.
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

    // A message about a state (a `topic`, e.g. why the profile cannot run) replaces the
    // earlier message of that topic, and goes with clearTopic() when the state changes:
    // a message never outlives what it describes. No topic: it stays until dismissed.
    void showMessage(
        Level level, const QString &text, const QString &details = {}, const QString &topic = {});
    void clearTopic(const QString &topic);
    static constexpr int kStackedRows = 3; // shown beneath the first message

    void dismiss(); // the first message; shows the next one, or hides the bar
    void dismissAt(int index); // a stacked message (0 is the first)
    void clearAll();

    int pendingCount() const { return static_cast<int>(m_queue.size()); }
    // Messages visible now: the first and the stacked rows.
    int shownCount() const;
    QString textAt(int index) const;
    Level levelAt(int index) const;
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
        QString topic;
    };
    void showFront();
    void rebuildStack();
    // The bar's background: the level's tint blended over the window colour.
    void applyTint();

    std::deque<Message> m_queue;
    QLabel *m_icon;
    QLabel *m_text;
    QToolButton *m_detailsButton;
    QToolButton *m_close;
    QPlainTextEdit *m_details;
    QWidget *m_stack; // one row per stacked message, then "n more"
    int m_stackedShown = 0;
    bool m_tinting = false; // applyTint() sets the palette: its own change is not news
};

} // namespace ioprism::ui
