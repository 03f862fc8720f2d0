// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QFont>
#include <QMainWindow>
#include <QPointer>
#include <QTimer>
#include <memory>
#include <vector>

#include "ui/document/model_files.h"
#include "ui/document/project_model.h"
#include "ui/jobs/job_runner.h"

class QAction;
class QComboBox;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QTabWidget;

namespace ui::document {
class ProjectDocument;
class RecoveryStore;
}  // namespace ui::document
namespace ui::animation {
class TimeBar;
}
namespace ui::panels {
class CategoricalPanel;
class GaussianPanel;
}  // namespace ui::panels
namespace ui::charts {
class ViewPanel;
}
namespace ui::lessons {
class LessonPane;
}
class QStackedWidget;

namespace ui {

class CategoricalExplorer;
class GaussianExplorer;

// The application window: a process switch, the parameter dock, the views in tabs,
// the time bar, and a status bar with job progress and a cancel button. File, Edit, View and
// Help menus with shortcuts; autosave of a recovery copy every 30 s.
class ExplanationPane;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // recoveryFolder: where recovery copies live (empty: RecoveryStore::defaultFolder()).
    explicit MainWindow(QWidget* parent = nullptr, const QString& recoveryFolder = {});
    ~MainWindow() override;

    document::ProjectDocument* document() const { return m_document; }
    CategoricalExplorer* explorer() const { return m_explorer; }
    GaussianExplorer* gaussianExplorer() const { return m_gaussianExplorer; }
    animation::TimeBar* timeBar() const { return m_timeBar; }
    panels::CategoricalPanel* categoricalPanel() const { return m_panel; }
    // The view tabs of the process shown.
    QTabWidget* tabs() const;
    ExplanationPane* explanationPane() const { return m_explanation; }
    lessons::LessonPane* lessonPane() const { return m_lessons; }
    // Loads step `step` of lesson `lesson` (Help ▸ Lessons) after the unsaved-changes question,
    // and shows its view; false when the user kept the project.
    bool loadLessonStep(int lesson, int step);
    // Shows the view of that export name ("gamma", "step-costs", …) on its tab.
    bool showView(const QString& name);
    // Help ▸ Mathematics at a page ("gaussian.md#gamma").
    void showMathematics(const QString& page);
    // Presentation mode (F11): full screen, the side panes and toolbar hidden, text, lines and
    // controls 1.6 times larger; off restores the window as it was.
    void setPresentationMode(bool on);
    bool presentationMode() const { return m_presentation.active; }
    // The views on the current tab (two on the split Schedule & information page).
    std::vector<std::pair<QString, charts::ViewPanel*>> viewsOnScreen() const;
    // Shows the categorical or the Gaussian explorer (the process switch).
    void showProcess(int index);

    // Opens a project file; shows the error in a message box and changes nothing on failure.
    // Reads on the calling thread (scripts and tests); the menus use openFileInBackground.
    bool openFile(const QString& path);
    // The same, with the file read off the GUI thread; the project is replaced when it arrives.
    void openFileInBackground(const QString& path);
    jobs::JobRunner* fileRunner() { return &m_fileRunner; }
    // Uses a checkpoint as the model of its process (switching to it); what dropping a
    // .safetensors file on the window does. False, with a message, when it does not fit.
    bool loadModel(const QString& path);
    // The same with the checkpoint read off the GUI thread (File ▸ Open a model, a dropped file).
    void loadModelInBackground(const QString& path);
    // Opens the Train dialog for the current process and data.
    void showTrainDialog();
    panels::GaussianPanel* gaussianPanel() const { return m_gaussianPanel; }
    // Offers the newest recovery copy left by an instance that did not end cleanly (never one
    // whose instance is still running): restore, discard, or keep it for later.
    void offerRecovery();
    // The recovery copies whose instance is no longer running, newest first.
    QStringList recoveryCopies() const;
    // Loads a recovery copy as an untitled, unsaved project; the copy is kept (and becomes
    // this window's) until the project is saved or explicitly discarded.
    bool restoreRecovery(const QString& path);
    // Deletes a recovery copy the user chose to discard.
    bool discardRecovery(const QString& path);
    // Writes this window's recovery copy now (the 30 s timer calls it when the project changed).
    void autosave();
    // This window's recovery copy (it exists only once autosave wrote it).
    QString recoveryPath() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void setPlayerIconScale(double scale);
    void createMenus();
    void createFileMenu();
    void createLanguageMenu(QMenu* view);
    void createViewMenu();
    void createPlayMenu();
    void createHelpMenu();
    void createCentralViews();
    void createProcessSwitch();
    void createStatusBar();
    void connectTimeBar();
    void connectTitle();
    void createDocks();
    void updateTitle();
    void updateRecentMenu();
    void addRecentFile(const QString& path);
    // File ▸ Open: the unsaved-changes question, then a file dialog.
    void openWithDialog();
    bool maybeSave();
    bool save();
    bool saveAs();
    void exportCurrentView();
    void exportAllViews();
    void exportAnimation();
    void exportGamma();
    void connectJobRunner(jobs::JobRunner* runner);
    std::vector<jobs::JobRunner*> allJobRunners();
    // Shows the project read from path, or why it could not be.
    bool useOpenedFile(const QString& path, core::Result<document::Project> project);
    // Switches to the checkpoint's process and uses it there, or says why not.
    bool useLoadedModel(const QString& path, const core::Result<document::LoadedModelPtr>& loaded);
    std::vector<std::pair<QString, charts::ViewPanel*>> currentViews() const;

    document::ProjectDocument* m_document;
    CategoricalExplorer* m_explorer;
    GaussianExplorer* m_gaussianExplorer;
    QTabWidget* m_tabs;
    QTabWidget* m_gaussianTabs;
    ExplanationPane* m_explanation = nullptr;
    lessons::LessonPane* m_lessons = nullptr;
    struct Presentation {
        bool active = false;
        QByteArray windowState;  // saveState(): docks and toolbars
        bool wasMaximized = false;
        QFont font;           // the application font before
        QByteArray geometry;  // saveGeometry(): the window's place and size before
    } m_presentation;
    QStackedWidget* m_centralStack;
    QStackedWidget* m_panelStack;
    QScrollArea* m_panelScroll = nullptr;             // the parameters dock's, around m_panelStack
    static constexpr int kParametersDockWidth = 330;  // at least
    void fitParametersDock();
    panels::GaussianPanel* m_gaussianPanel;
    animation::TimeBar* m_timeBar;
    panels::CategoricalPanel* m_panel;
    QComboBox* m_process;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QLabel* m_jobLabel;
    QMenu* m_recentMenu = nullptr;
    QTimer m_autosave;
    std::unique_ptr<document::RecoveryStore> m_recovery;
    jobs::JobRunner m_fileRunner{jobs::JobWeight::Light};  // reads project files and models
    bool m_discardAnswered =
        false;                 // "Discard" was the answer to the last unsaved-changes question
    bool m_recovered = false;  // the project came from a recovery copy and was not saved yet
};

}  // namespace ui
