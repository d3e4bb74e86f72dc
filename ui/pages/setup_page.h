// The Test setup page: description, run time, ramp-up, sampling interval, which result
// rows are recorded, the seed, and the I/O engine (an application setting, not part of
// the profile: the same profile runs with any engine).
#pragma once

#include "ui/platform_services.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace ioprism::ui {

class ProfileDocument;

class SetupPage : public QWidget
{
    Q_OBJECT
public:
    explicit SetupPage(ProfileDocument *document, QWidget *parent = nullptr);

    core::EngineKind engine() const;
    // Selects `engine` when the page offers it and returns true; otherwise leaves the
    // choice as it is and returns false.
    bool setEngine(core::EngineKind engine);

    QLineEdit *runTimeField() const { return m_runTime; }
    QLineEdit *descriptionField() const { return m_description; }

signals:
    void engineChanged(ioprism::core::EngineKind engine);

private:
    void load();
    void commit();

    ProfileDocument *m_document;
    QLineEdit *m_description;
    QLineEdit *m_runTime;
    QLineEdit *m_rampUp;
    QComboBox *m_interval;
    QComboBox *m_record;
    QCheckBox *m_fixedSeed;
    QLineEdit *m_seed;
    QComboBox *m_engine;
    bool m_loading = false;
};

} // namespace ioprism::ui
