// SPDX-License-Identifier: MIT
#include "ui/training/train_dialog.h"

#include <QChart>
#include <QChartView>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>
#include <atomic>
#include <cmath>
#include <stdexcept>

#include "core/data/gaussian_data.h"
#include "core/model/checkpoint.h"
#include "core/project/training_setup.h"
#include "core/util/parallel.h"
#include "ui/charts/chart_panel.h"
#include "ui/charts/figure_chart.h"
#include "ui/document/project_model.h"

namespace ui::training {

core::Result<core::model::TrainSummary> runTraining(const TrainRequest& request,
                                                    core::Progress* progress) {
    auto set = core::project::trainingSet(request.project, request.process, request.params.seed,
                                          document::appSources());
    if (!set) return set.error();
    core::model::TrainParams params = request.params;
    params.resume = request.resume.get();
    if (auto fits = core::project::checkTrainingMemory(request.architecture, params.batch,
                                                       set->networkInputs());
        !fits) {
        return fits.error();
    }
    if (params.resume != nullptr) {
        if (auto same =
                core::project::checkResume(*params.resume, *set, request.architecture, params);
            !same) {
            return same.error();
        }
    }
    return core::project::trainAndSave(*set, request.architecture, params,
                                       request.outputPath.toStdString(), false, progress);
}

TrainDialog::TrainDialog(const document::Project& project,
                         document::ProcessKind process,
                         QWidget* parent)
    : QDialog(parent),
      m_project(project),
      m_process(process),
      m_losses(std::make_shared<LossBuffer>()) {
    const bool categorical = process == document::ProcessKind::Categorical;
    setWindowTitle(categorical ? tr("Train a categorical denoiser")
                               : tr("Train a Gaussian ε-model"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    auto spin = [](int low, int high, int value, const QString& tip) {
        auto* box = new QSpinBox;
        box->setRange(low, high);
        box->setValue(value);
        box->setToolTip(tip);
        return box;
    };
    const bool digits = categorical
                            ? project.categorical.dataSource == document::CategoricalData::Digits
                            : core::data::isDigitsSpec(project.gaussian.data);
    m_width = spin(4, 4096, digits ? 256 : 128, tr("Hidden units per layer."));
    m_depth = spin(1, 16, 3, tr("Residual blocks."));
    // The digits' defaults are the bundled networks' (the categorical one memorises its 1500
    // images when trained much longer).
    const int defaultSteps = !digits ? 5000 : categorical ? 2000 : 20000;
    m_steps = spin(1, 1000000, defaultSteps, tr("Optimiser steps (AdamW, cosine schedule)."));
    m_batch = spin(1, 65536, 128, tr("Examples per step."));
    m_learningRate = new QDoubleSpinBox;
    m_learningRate->setDecimals(5);
    m_learningRate->setRange(1e-5, 1.0);
    m_learningRate->setSingleStep(1e-4);
    m_learningRate->setValue(1e-3);
    m_learningRate->setToolTip(tr("Peak learning rate after the warm-up."));
    m_seed = spin(0, 2147483647, 1, tr("Initialisation and every random draw."));
    m_output =
        new QLineEdit(categorical ? "categorical-model.safetensors" : "gaussian-model.safetensors");
    m_output->setToolTip(tr("Where the checkpoint is saved (safetensors; written atomically)."));
    auto* browse = new QPushButton("…");
    auto* outputRow = new QHBoxLayout;
    outputRow->addWidget(m_output, 1);
    outputRow->addWidget(browse);
    form->addRow(tr("width"), m_width);
    form->addRow(tr("depth"), m_depth);
    form->addRow(tr("steps"), m_steps);
    form->addRow(tr("batch"), m_batch);
    form->addRow(tr("learning rate"), m_learningRate);
    form->addRow(tr("seed"), m_seed);
    form->addRow(tr("save to"), outputRow);
    layout->addLayout(form);

    layout->addWidget(createLossChart(categorical), 1);

    m_progress = new QProgressBar;
    m_progress->setRange(0, 1000);
    m_status = new QLabel(tr("Set the fields and press Train."));
    m_status->setWordWrap(true);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    auto* buttons = new QDialogButtonBox;
    m_start = buttons->addButton(tr("Train"), QDialogButtonBox::AcceptRole);
    m_resume = buttons->addButton(tr("Resume"), QDialogButtonBox::ActionRole);
    m_resume->setToolTip(
        tr("Continue the stopped run saved in the checkpoint file with its own "
           "settings; the result equals a run that never stopped."));
    m_resume->setEnabled(false);
    m_cancel = buttons->addButton(tr("Cancel training"), QDialogButtonBox::RejectRole);
    m_close = buttons->addButton(QDialogButtonBox::Close);
    m_close->setText(tr("Close"));  // Qt translates its standard buttons only with qtbase_*.qm
    m_cancel->setEnabled(false);
    m_cancel->setToolTip(
        tr("Stop now; the weights reached so far are saved and can be used (Esc)."));
    layout->addWidget(buttons);

    connectActions(browse);
    updateResumable();
}

// The training and held-out losses against the step, filled while training runs.
QChartView* TrainDialog::createLossChart(bool categorical) {
    auto* chart = new QChart;
    // The qualifier in the title: the axis's own title stays whole in the dialog's height.
    chart->setTitle(categorical ? tr("Loss") : tr("Loss (per dimension)"));
    m_trainSeries = new QLineSeries;
    m_trainSeries->setName(tr("training (mean of 20 steps)"));
    m_heldOutSeries = new QLineSeries;
    m_heldOutSeries->setName(tr("held out (EMA weights)"));
    m_heldOutSeries->setPointsVisible(true);
    m_axisStep = new QValueAxis;
    m_axisStep->setTitleText(tr("step"));
    m_axisStep->setLabelFormat("%d");
    m_axisLoss = new QValueAxis;
    m_axisLoss->setTitleText(categorical ? tr("cross-entropy (nats)") : tr("squared error of ε"));
    chart->addAxis(m_axisStep, Qt::AlignBottom);
    chart->addAxis(m_axisLoss, Qt::AlignLeft);
    for (QLineSeries* s : {m_trainSeries, m_heldOutSeries}) {
        chart->addSeries(s);
        s->attachAxis(m_axisStep);
        s->attachAxis(m_axisLoss);
    }
    m_axisStep->setRange(0, m_steps->value());
    auto* view = new QChartView(chart);
    charts::applyFigureStyle(chart, view);
    view->setMinimumSize(480, 300);
    return view;
}

void TrainDialog::connectActions(QPushButton* browse) {
    m_poll = new QTimer(this);
    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, &TrainDialog::pollLosses);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save the checkpoint"), m_output->text(), tr("Checkpoints (*.safetensors)"));
        if (!path.isEmpty()) m_output->setText(path);
    });
    connect(m_start, &QPushButton::clicked, this, &TrainDialog::start);
    connect(m_resume, &QPushButton::clicked, this, &TrainDialog::resume);
    connect(m_output, &QLineEdit::textChanged, this, [this] { updateResumable(); });
    connect(m_cancel, &QPushButton::clicked, this, &TrainDialog::cancel);
    connect(m_close, &QPushButton::clicked, this, [this] {
        cancel();
        m_runner.waitForFinished();
        accept();
    });
    connect(this, &QDialog::rejected, this, [this] {
        cancel();  // Esc or the window's close box: stop, and still save
        m_runner.waitForFinished();
    });
    connect(&m_runner, &jobs::JobRunner::failed, this,
            [this](const QString&, const QString& message) {
                m_status->setText(tr("Training failed: %1").arg(message));
                setRunning(false);
            });
    connect(&m_runner, &jobs::JobRunner::cancelled, this,
            [this](const QString&) { setRunning(false); });
    connect(&m_runner, &jobs::JobRunner::progressChanged, m_progress,
            [bar = m_progress](int permille, const QString&) { bar->setValue(permille); });
}

TrainDialog::~TrainDialog() {
    m_runner.stop();  // the trainer saves what it has
    m_runner.waitForFinished();
}

TrainRequest TrainDialog::request() const {
    TrainRequest r;
    r.process = m_process;
    r.project = m_project;
    r.architecture.width = m_width->value();
    r.architecture.depth = m_depth->value();
    r.params.steps = m_steps->value();
    r.params.batch = m_batch->value();
    r.params.learningRate = m_learningRate->value();
    r.params.seed = static_cast<uint64_t>(m_seed->value());
    r.params.warmupSteps = std::min(100, r.params.steps / 10);
    r.params.evalEvery = std::max(1, r.params.steps / 20);
    r.params.parallel.numThreads = core::defaultThreads();
    r.outputPath = m_output->text().trimmed();
    return r;
}

void TrainDialog::setOutputPath(const QString& path) { m_output->setText(path); }
void TrainDialog::setSteps(int steps) { m_steps->setValue(steps); }
void TrainDialog::setWidth(int width) { m_width->setValue(width); }
void TrainDialog::setBatch(int batch) { m_batch->setValue(batch); }

void TrainDialog::updateResumable() {
    m_resumeFrom.reset();
    const QString path = m_output->text().trimmed();
    if (!m_runner.isRunning() && !path.isEmpty() && QFileInfo::exists(path)) {
        auto loaded = core::model::loadMlpCheckpoint(path.toStdString());
        const bool sameProcess = loaded && (loaded->info.process == "categorical") ==
                                               (m_process == document::ProcessKind::Categorical);
        if (sameProcess && loaded->trainState != nullptr) {
            m_resumeFrom = loaded->trainState;
            m_resumeArchitecture = loaded->info.architecture;
        }
    }
    m_resume->setEnabled(m_resumeFrom != nullptr);
    m_resume->setText(m_resumeFrom ? tr("Resume from step %1").arg(m_resumeFrom->stepsDone)
                                   : tr("Resume"));
}

bool TrainDialog::canResume() const { return m_resumeFrom != nullptr; }

void TrainDialog::resume() {
    if (!m_resumeFrom) return;
    // The stopped run's own settings, so that the trainer's check passes and the result equals
    // an uninterrupted run.
    const TrainRequest current = request();
    auto stopped =
        core::project::stoppedRunSettings(*m_resumeFrom, m_resumeArchitecture, current.params);
    if (!stopped) {
        m_status->setText(tr("The checkpoint's training settings cannot be read."));
        return;
    }
    m_width->setValue(stopped->architecture.width);
    m_depth->setValue(stopped->architecture.depth);
    m_steps->setValue(stopped->params.steps);
    m_batch->setValue(stopped->params.batch);
    m_learningRate->setValue(stopped->params.learningRate);
    m_seed->setValue(static_cast<int>(stopped->params.seed));
    launch(m_resumeFrom);
}

void TrainDialog::setRunning(bool running) {
    m_start->setEnabled(!running);
    if (running) m_resume->setEnabled(false);
    m_cancel->setEnabled(running);
    for (QWidget* w : std::initializer_list<QWidget*>{m_width, m_depth, m_steps, m_batch,
                                                      m_learningRate, m_seed, m_output}) {
        w->setEnabled(!running);
    }
    if (running) {
        m_poll->start();
    } else {
        m_poll->stop();
        pollLosses();
    }
}

void TrainDialog::start() { launch(nullptr); }

void TrainDialog::launch(std::shared_ptr<const core::model::TrainState> resumeFrom) {
    TrainRequest r = request();
    r.resume = std::move(resumeFrom);
    if (auto valid = r.params.validate(); !valid) {
        m_status->setText(QString::fromStdString(valid.error().toString()));
        return;
    }
    if (r.outputPath.isEmpty()) {
        m_status->setText(tr("Choose where to save the checkpoint."));
        return;
    }
    {
        std::lock_guard lock(m_losses->mutex);
        for (auto* v : {&m_losses->train, &m_losses->heldOut, &m_losses->pendingTrain,
                        &m_losses->pendingHeldOut}) {
            v->clear();
        }
    }
    m_maxLoss = 0.0;
    m_trainSeries->clear();
    m_heldOutSeries->clear();
    m_axisStep->setRange(0, r.params.steps);
    if (r.resume) {
        // The curve continues the stopped run's.
        std::lock_guard lock(m_losses->mutex);
        for (size_t i = 0; i < r.resume->trainLoss.size(); ++i) {
            m_losses->pendingTrain.push_back({static_cast<int>(i) + 1, r.resume->trainLoss[i]});
        }
    }
    std::weak_ptr<LossBuffer> buffer = m_losses;
    r.params.onLoss = [buffer](const core::model::LossPoint& point, bool heldOut) {
        if (auto b = buffer.lock()) {
            std::lock_guard lock(b->mutex);
            (heldOut ? b->pendingHeldOut : b->pendingTrain).push_back(point);
        }
    };
    m_status->setText(r.resume ? tr("Resuming from step %1…").arg(r.resume->stepsDone)
                               : tr("Training…"));
    setRunning(true);
    m_runner.start(
        QT_TRANSLATE_NOOP("ui::jobs", "training"),
        [this, r](core::Progress& progress) -> std::function<void()> {
            // Stop (JobRunner::stop) aborts the token: the trainer ends at its next step and
            // returns the weights so far, which are saved and shown as this job's result.
            auto summary = runTraining(r, &progress);
            if (!summary) throw std::runtime_error(summary.error().toString());
            const core::model::TrainSummary done = *summary;
            const QString path = r.outputPath;
            return [this, done, path] {
                const double last = done.heldOut.empty() ? std::nan("") : done.heldOut.back().loss;
                m_status->setText(
                    (done.cancelled
                         ? tr("Cancelled after %1 steps in %2 s; held-out loss %3. Saved %4.")
                         : tr("Trained %1 steps in %2 s; held-out loss %3. Saved %4."))
                        .arg(done.stepsDone)
                        .arg(done.elapsedSeconds, 0, 'f', 1)
                        .arg(last, 0, 'g', 5)
                        .arg(path));
                setRunning(false);
                updateResumable();
                emit modelSaved(path);
            };
        });
}

void TrainDialog::cancel() {
    // The trainer stops at its next step and returns the EMA weights so far, which are saved:
    // the job finishes normally with summary.cancelled set.
    if (m_runner.isRunning()) {
        m_status->setText(tr("Stopping after the current step…"));
        m_runner.stop();
    }
}

std::vector<core::model::LossPoint> TrainDialog::trainLosses() const {
    std::lock_guard lock(m_losses->mutex);
    std::vector<core::model::LossPoint> all = m_losses->train;
    all.insert(all.end(), m_losses->pendingTrain.begin(), m_losses->pendingTrain.end());
    return all;
}

QString TrainDialog::status() const { return m_status->text(); }

void TrainDialog::pollLosses() {
    std::vector<core::model::LossPoint> train, heldOut;
    {
        std::lock_guard lock(m_losses->mutex);
        train.swap(m_losses->pendingTrain);
        heldOut.swap(m_losses->pendingHeldOut);
        m_losses->train.insert(m_losses->train.end(), train.begin(), train.end());
        m_losses->heldOut.insert(m_losses->heldOut.end(), heldOut.begin(), heldOut.end());
    }
    // The training curve as means of 20 steps: one point per 20 keeps the chart light.
    constexpr int kWindow = 20;
    const auto& all = m_losses->train;
    const size_t done = static_cast<size_t>(m_trainSeries->count()) * kWindow;
    for (size_t start = done; start + kWindow <= all.size(); start += kWindow) {
        double sum = 0.0;
        for (size_t i = start; i < start + kWindow; ++i) sum += all[i].loss;
        const double mean = sum / kWindow;
        m_trainSeries->append(all[start + kWindow - 1].step, mean);
        m_maxLoss = std::max(m_maxLoss, mean);
    }
    for (const auto& point : heldOut) {
        m_heldOutSeries->append(point.step, point.loss);
        m_maxLoss = std::max(m_maxLoss, point.loss);
    }
    if (m_maxLoss > 0.0) charts::setNiceRange(m_axisLoss, 0.0, m_maxLoss * 1.05);
}

}  // namespace ui::training
