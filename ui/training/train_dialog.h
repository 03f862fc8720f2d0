// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QString>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "core/model/trainer.h"
#include "ui/document/project_document.h"
#include "ui/jobs/job_runner.h"

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;
class QLineSeries;
class QValueAxis;
class QChartView;

// "Train…": trains a network on the data and schedule of the current project as a
// job, with a live loss curve, progress and Cancel, and saves the checkpoint atomically — a
// cancelled run saves the weights reached so far, which load like any other checkpoint.
namespace ui::training {

// What a training run is given: the process, its data and schedule from the project.
struct TrainRequest {
    document::ProcessKind process = document::ProcessKind::Gaussian;
    document::Project project;
    core::model::MlpConfig architecture;  // width, depth, activation
    core::model::TrainParams params;      // steps, batch, learning rate, seed
    QString outputPath;
    // The state of a stopped run to continue (null: a new run); params must be that run's.
    std::shared_ptr<const core::model::TrainState> resume;
};

// The whole run, for the job (and tests): builds the data set, trains, saves. Returns the
// checkpoint's path; throws nothing, errors are returned.
core::Result<core::model::TrainSummary> runTraining(const TrainRequest& request,
                                                    core::Progress* progress);

class TrainDialog : public QDialog {
    Q_OBJECT
public:
    TrainDialog(const document::Project& project,
                document::ProcessKind process,
                QWidget* parent = nullptr);
    ~TrainDialog() override;

    // The request the fields describe.
    TrainRequest request() const;
    // Field access for tests and for callers that preset them.
    void setOutputPath(const QString& path);
    void setSteps(int steps);
    void setWidth(int width);
    void setBatch(int batch);

    void start();
    // Continues the stopped run whose checkpoint is at the output path, with its settings.
    void resume();
    // Whether the output path holds a stopped run of this process (Resume is enabled).
    bool canResume() const;
    void cancel();
    bool isRunning() const { return m_runner.isRunning(); }
    void waitForFinished() { m_runner.waitForFinished(); }
    // The losses received so far (train: every step; held-out: every evaluation).
    std::vector<core::model::LossPoint> trainLosses() const;
    QString status() const;

signals:
    // A checkpoint was written (after a finished or a cancelled run).
    void modelSaved(const QString& path);

private:
    QChartView* createLossChart(bool categorical);
    void connectActions(QPushButton* browse);
    void pollLosses();
    void setRunning(bool running);
    void launch(std::shared_ptr<const core::model::TrainState> resumeFrom);
    void updateResumable();

    document::Project m_project;
    document::ProcessKind m_process;
    QSpinBox* m_width;
    QSpinBox* m_depth;
    QSpinBox* m_steps;
    QSpinBox* m_batch;
    QDoubleSpinBox* m_learningRate;
    QSpinBox* m_seed;
    QLineEdit* m_output;
    QProgressBar* m_progress;
    QLabel* m_status;
    QPushButton* m_start;
    QPushButton* m_resume;
    QPushButton* m_cancel;
    QPushButton* m_close;
    QLineSeries* m_trainSeries;
    QLineSeries* m_heldOutSeries;
    QValueAxis* m_axisStep;
    QValueAxis* m_axisLoss;
    QTimer* m_poll;
    jobs::JobRunner m_runner;

    // Losses arrive on the training thread and are drawn at 10 Hz on the GUI thread.
    struct LossBuffer {
        std::mutex mutex;
        std::vector<core::model::LossPoint> train, heldOut, pendingTrain, pendingHeldOut;
    };
    std::shared_ptr<LossBuffer> m_losses;
    double m_maxLoss = 0.0;
    std::shared_ptr<const core::model::TrainState> m_resumeFrom;  // what Resume continues
    std::string m_resumeArchitecture;                             // its architecture JSON
};

}  // namespace ui::training
