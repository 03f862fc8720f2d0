// SPDX-License-Identifier: MIT
#include "ui/panels/gaussian_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

#include "core/data/bundled_files.h"
#include "core/data/gaussian_data.h"
#include "core/gaussian/trajectory_dp.h"
#include "core/project/gaussian_files.h"
#include "core/schedule/diffusers_config.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/trajectory/least_cost_path.h"
#include "core/util/limits.h"
#include "ui/charts/math_text.h"
#include "ui/document/bundled_data.h"
#include "ui/document/model_files.h"
#include "ui/panels/choice_combo.h"
#include "ui/panels/input_guard.h"
#include "ui/panels/mixture_editor.h"
#include "ui/panels/param_edits.h"

namespace ui::panels {

using document::GaussianParams;

namespace {

// The merge id of mixture drags: the steps of one drag collapse into one undo step.
constexpr int kMergeMixtureDrag = 201;

// Each of these reads a file (or builds data) for an edit, without touching the widgets, so
// that it can run off the GUI thread; an error names the file and what is wrong with it.

// The params with `spec` as the data, once its oracle builds (a bad spec or file is refused
// before it reaches the document).
core::Result<GaussianParams> withDataSpec(GaussianParams p, const QString& spec) {
    auto oracle = document::gaussianDataOracle(spec);
    if (!oracle) {
        return oracle.error();
    }
    p.data = spec.toStdString();
    return p;
}

// The params with the CSV table of β_n (or ᾱ_n) as the schedule, N from its length.
core::Result<GaussianParams> withScheduleFile(GaussianParams p, const QString& path) {
    auto schedule = core::schedule::customScheduleFromCsv(path.toStdString());
    if (!schedule) {
        return schedule.error();
    }
    p.schedule = "csv:" + QFileInfo(path).absoluteFilePath().toStdString();
    return p.withNumSteps(schedule->numSteps());  // the table's length is N
}

// The params with a diffusers scheduler_config.json as the schedule, N from it, and the
// trajectory its timestep_spacing names (at the project's K) when it names one.
core::Result<GaussianParams> withDiffusersConfig(GaussianParams p, const QString& path) {
    const std::string file = QFileInfo(path).absoluteFilePath().toStdString();
    auto config = core::schedule::readDiffusersConfig(file);
    if (!config) return config.error();
    if (auto schedule = core::schedule::diffusersSchedule(*config, file); !schedule) {
        return schedule.error();
    }
    p.schedule = core::schedule::kDiffusersPrefix + file;
    p = p.withNumSteps(config->numTrainTimesteps);
    if (const std::string spec = core::schedule::diffusersTrajectorySpec(*config, p.pathSteps);
        !spec.empty()) {
        if (core::Status s = p.setTrajectorySpec(spec); !s) return s.error();
    }
    return p;
}

// The params with the checkpoint as the ε-model, once it is known to fit N and the data.
core::Result<GaussianParams> withCheckpoint(GaussianParams p, const QString& path) {
    auto data = document::gaussianDataOracle(document::qs(p.data));
    if (!data) {
        return data.error();
    }
    const core::model::GaussianDataSampler& sampler = **data;
    auto network = document::loadGaussianModel(path, p.numSteps, sampler.dimension(), p.schedule);
    if (!network) {
        return network.error();
    }
    // A bundled checkpoint keeps its resource path.
    p.model = core::data::portableModelPath(
        (path.startsWith(':') || path.startsWith(core::data::kBundledPrefix)
             ? path
             : QFileInfo(path).absoluteFilePath())
            .toStdString());
    return p;
}

// The params with Γ imported from a file (CSV by its header, NPY as ms_eps) for this N.
core::Result<GaussianParams> withGammaFile(GaussianParams p, const QString& path) {
    auto schedule = core::schedule::gaussianScheduleFromSpec(p.schedule, p.numSteps);
    if (!schedule) {
        return schedule.error();
    }
    auto table = core::project::readGammaTable(path.toStdString(), *schedule);
    if (!table) {
        return table.error();
    }
    p.importedGamma.assign(table->gamma.begin() + 1, table->gamma.end());
    p.importedGammaName = QFileInfo(path).fileName().toStdString();
    return p;
}

// The params with each imported Γ_n over its bound replaced by the bound.
core::Result<GaussianParams> withClippedGamma(GaussianParams p) {
    if (auto clipped = p.clipImportedGamma(); !clipped) return clipped.error();
    return p;
}

}  // namespace

GaussianPanel::GaussianPanel(document::ProjectDocument* document,
                             jobs::JobRunner* files,
                             jobs::JobRunner* checks,
                             QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_edits(
          this,
          &m_refreshing,
          [this] { return m_document->gaussian(); },
          [this](const GaussianParams& p, const QString& text, int mergeId) {
              return m_document->setGaussian(p, text, mergeId);
          },
          [this] { onDocumentChanged(); },
          &m_errors) {
    m_files = files;
    m_checks = checks;
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(createProcessBox());
    layout->addWidget(createDataBox());
    layout->addWidget(createGammaBox());
    layout->addWidget(createTrajectoryBox());
    layout->addWidget(createSamplerBox());
    layout->addStretch(1);
    InputGuard::install(this, [this] { m_document->endDrag(); });
    connect(m_document, &document::ProjectDocument::gaussianChanged, this,
            &GaussianPanel::onDocumentChanged);
    connect(m_document, &document::ProjectDocument::projectReplaced, this,
            &GaussianPanel::onDocumentChanged);
    onDocumentChanged();
}

GaussianPanel::~GaussianPanel() {
    for (jobs::JobRunner* runner : {m_files.data(), m_checks.data()}) {
        if (runner != nullptr) runner->cancel();
    }
}

QGroupBox* GaussianPanel::createProcessBox() {
    auto* box = new QGroupBox(tr("Process"));
    auto* form = new QFormLayout(box);
    m_schedule = new QComboBox;
    addChoices(m_schedule, core::project::kGaussianSchedules);
    m_schedule->addItem(tr("custom table…"), "csv:");
    m_schedule->addItem(tr("diffusers config…"), core::schedule::kDiffusersPrefix);
    m_schedule->setToolTip(
        tr("The β_n schedule (Help ▸ Mathematics: gaussian.md#schedules); "
           "linear with N = 1000 is DDPM's. A "
           "custom table is a CSV with a beta column (β_1..β_N) or an alpha_bar "
           "column; its length sets N. A diffusers config is a scheduler_config.json: it sets "
           "N, and its timestep_spacing the trajectory."));
    m_numSteps = new QSpinBox;
    m_numSteps->setRange(core::limits::kGaussianSteps.min, core::limits::kGaussianSteps.max);
    m_numSteps->setToolTip(tr("N, the number of timesteps."));
    m_forward = new QComboBox;
    m_forward->addItem(tr("DDPM (η = 1)"), 1.0);
    m_forward->addItem(tr("DDIM (η = 0)"), 0.0);
    m_forward->addItem("η …", -1.0);
    m_forward->setToolTip(
        tr("The forward process on the trajectory: λ² = η²β̃ (Help ▸ "
           "Mathematics: gaussian.md#forward-process)."));
    m_eta = new QDoubleSpinBox;
    m_eta->setRange(0.0, 1.0);
    m_eta->setSingleStep(0.1);
    m_eta->setDecimals(3);
    form->addRow(tr("schedule"), m_schedule);
    m_scheduleNote = new QLabel;
    m_scheduleNote->setWordWrap(true);
    m_scheduleNote->setStyleSheet("color: #555;");
    m_scheduleNote->hide();
    form->addRow(m_scheduleNote);
    form->addRow(tr("steps N"), m_numSteps);
    form->addRow(tr("forward"), m_forward);
    form->addRow("η", m_eta);
    form->addRow(errorLabel("process"));

    // activated, not currentIndexChanged: choosing "custom" again picks another file.
    connect(m_schedule, &QComboBox::activated, this, [this] {
        const QString kind = m_schedule->currentData().toString();
        if (kind == core::schedule::kDiffusersPrefix) {
            const QString path = QFileDialog::getOpenFileName(
                this, tr("A diffusers scheduler config"), {}, tr("JSON files (*.json)"));
            if (path.isEmpty()) {
                onDocumentChanged();
            } else {
                loadDiffusersConfigInBackground(path);
            }
            return;
        }
        if (kind != "csv:") {
            m_edits.edit(tr("Change schedule"), "process",
                         [&](GaussianParams& p) { p.schedule = kind.toStdString(); });
            return;
        }
        const QString path =
            QFileDialog::getOpenFileName(this, tr("A custom β schedule"), {}, "CSV tables (*.csv)");
        if (path.isEmpty()) {
            onDocumentChanged();  // back to the current one
        } else {
            loadScheduleFileInBackground(path);
        }
    });
    m_edits.bind(m_numSteps, &QSpinBox::editingFinished, tr("Change N"), "process",
                 [this](GaussianParams& p) {
                     if (p.numSteps == m_numSteps->value()) return false;
                     p = p.withNumSteps(m_numSteps->value());
                     return true;
                 });
    m_edits.bind(m_forward, &QComboBox::currentIndexChanged, tr("Change forward process"),
                 "process", [this](GaussianParams& p) {
                     const double eta = m_forward->currentData().toDouble();
                     p.eta = eta >= 0.0 ? eta : m_eta->value();
                 });
    m_edits.bind(m_eta, &QDoubleSpinBox::editingFinished, tr("Change η"), "process",
                 [this](GaussianParams& p) { p.eta = m_eta->value(); });
    return box;
}

QGroupBox* GaussianPanel::createDataBox() {
    auto* box = new QGroupBox(tr("Data and model"));
    auto* form = new QFormLayout(box);
    m_data = new QComboBox;
    m_data->setObjectName("data");
    addChoices(m_data, core::project::kGaussianDataPresets);
    m_data->addItem(tr("other (type a spec)"), QString());
    m_data->setToolTip(
        tr("The data; the model is its exact oracle (the score of the noisy data)."));
    m_dataSpec = new QLineEdit;
    m_dataSpec->setToolTip(
        tr("A data spec: toy:NAME[,n=,seed=], gaussian:d=D,s=S, gmm:FILE.json, "
           "mixture:w,mx,my,s;… (2-D, up to 16 components, weights normalised), "
           "csv:FILE or digits[:test] (press Enter)."));
    m_mixture = new MixtureEditor;
    m_mixture->setObjectName("mixtureEditor");
    m_model = new QComboBox;
    m_model->addItem(tr("exact oracle"), QString());
    m_model->setToolTip(
        tr("The ε-model: the exact oracle of the data, or a trained network "
           "(a .safetensors checkpoint or a TorchScript .pt model; you can also drop one on "
           "the window)."));
    auto* openModel = new QPushButton(tr("Open…"));
    openModel->setToolTip(tr("Load a Gaussian checkpoint trained for this N and data dimension."));
    auto* trainModel = new QPushButton(tr("Train…"));
    trainModel->setToolTip(tr("Train a network on this data and schedule, then use it."));
    // The buttons under the model's name, which beside them was cut to "digits-gaussi" at
    // 1280 × 720.
    auto* modelButtons = new QHBoxLayout;
    modelButtons->addWidget(openModel);
    modelButtons->addWidget(trainModel);
    modelButtons->addStretch(1);
    form->addRow(tr("data"), m_data);
    form->addRow(tr("spec"), m_dataSpec);
    form->addRow(m_mixture);
    form->addRow(tr("model"), m_model);
    form->addRow(QString(), modelButtons);
    form->addRow(errorLabel("data"));

    connect(m_data, &QComboBox::currentIndexChanged, this, [this] {
        if (m_refreshing) return;
        const QString spec = m_data->currentData().toString();
        if (!spec.isEmpty()) {
            editDataSpec(spec);
        } else {
            m_dataSpec->setFocus();
        }
    });
    connect(m_dataSpec, &QLineEdit::returnPressed, this,
            [this] { editDataSpecInBackground(m_dataSpec->text().trimmed()); });
    connect(m_mixture, &MixtureEditor::specDragged, this,
            [this](const QString& spec, const QString& text, bool finished) {
                if (finished) {
                    m_document->endDrag();
                } else {
                    applyDataSpec(spec, text, kMergeMixtureDrag);
                }
            });
    connect(m_mixture, &MixtureEditor::specEdited, this,
            [this](const QString& spec, const QString& text) { applyDataSpec(spec, text, 0); });
    connect(m_model, &QComboBox::currentIndexChanged, this, [this] {
        if (m_refreshing) return;
        const std::string model = m_model->currentData().toString().toStdString();
        m_edits.edit(model.empty() ? tr("Use the exact oracle") : tr("Use a checkpoint"), "data",
                     [&](GaussianParams& p) { p.model = model; });
    });
    connect(openModel, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a Gaussian checkpoint"),
                                                          {}, tr("Models (*.safetensors *.pt)"));
        if (!path.isEmpty()) loadModelInBackground(path);
    });
    connect(trainModel, &QPushButton::clicked, this, [this] { emit trainRequested(); });
    return box;
}

QGroupBox* GaussianPanel::createGammaBox() {
    auto* box = new QGroupBox(tr("Γ estimate"));
    auto* form = new QFormLayout(box);
    m_samples = new QSpinBox;
    m_samples->setRange(core::limits::kGammaSamples.min, core::limits::kGammaSamples.max);
    m_samples->setToolTip(
        tr("M, Monte Carlo samples per timestep (Help ▸ Mathematics: "
           "gaussian.md#gamma)."));
    m_estimator = new QComboBox;
    m_estimator->setObjectName("estimator");
    addChoices(m_estimator, core::project::kGammaEstimators);
    m_estimator->setToolTip(charts::richMathText(
        tr("How Γ's Monte Carlo terms are formed. Score: ‖ε_θ‖²/d as in the "
           "paper, which in low dimension can exceed its bound. Low-variance "
           "(the default), for the exact oracle: per timestep the lower-variance "
           "of that and 1 − ‖ε_θ − ε‖²/d (both unbiased); for a network: the "
           "second (error), which also puts the network's own error into σ².")));
    m_seed = new QSpinBox;
    m_seed->setRange(0, 2147483647);
    form->addRow(tr("samples M"), m_samples);
    form->addRow(tr("estimator"), m_estimator);
    form->addRow(tr("seed"), m_seed);
    m_gammaSource = new QLabel;
    m_gammaSource->setWordWrap(true);
    auto* importGamma = new QPushButton(tr("Import…"));
    importGamma->setToolTip(
        tr("Use Γ from a file instead of estimating it: CSV with columns n,gamma "
           "or n,ms_eps, or an NPY array of ms_eps as the Analytic-DPM code saves "
           "it (length N + 1, entry 0 unused, or N)."));
    auto* exportGamma = new QPushButton(tr("Export…"));
    exportGamma->setToolTip(
        tr("Write the current Γ as CSV (n,gamma) or NPY (ms_eps, length N + 1)."));
    m_estimateGamma = new QPushButton(tr("Estimate"));
    m_estimateGamma->setToolTip(tr("Drop the imported Γ and estimate it with M samples."));
    auto* gammaRow = new QHBoxLayout;
    gammaRow->addWidget(importGamma);
    gammaRow->addWidget(exportGamma);
    gammaRow->addWidget(m_estimateGamma);
    form->addRow(tr("source"), m_gammaSource);
    form->addRow(tr("file"), gammaRow);
    form->addRow(errorLabel("gamma"));
    m_gammaWarning = new QLabel;
    m_gammaWarning->setObjectName("gammaWarning");
    m_gammaWarning->setWordWrap(true);
    m_gammaWarning->setTextFormat(Qt::RichText);
    m_gammaWarning->setStyleSheet("color: #8a4b00;");
    m_gammaWarning->hide();
    form->addRow(m_gammaWarning);
    connect(m_gammaWarning, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link == "clip") {
            clipImportedGamma();
        } else if (link == "segmented") {
            m_edits.edit(tr("Use the segmented DP"), "gamma", [](GaussianParams& p) {
                p.dpVariant = core::gaussian::DpVariant::Segmented;
            });
        } else {
            m_keptGammaCheck = m_gammaCheckKey;  // keep it as it is; asked again if it changes
            m_gammaWarning->hide();
        }
    });

    connect(importGamma, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Import Γ"), {}, "Γ files (*.csv *.npy)");
        if (!path.isEmpty()) importGammaFileInBackground(path);
    });
    connect(exportGamma, &QPushButton::clicked, this, [this] { emit exportGammaRequested(); });
    m_edits.bind(m_estimateGamma, &QPushButton::clicked, tr("Estimate Γ"), "gamma",
                 [](GaussianParams& p) {
                     p.importedGamma.clear();
                     p.importedGammaName.clear();
                 });
    m_edits.bind(m_samples, &QSpinBox::editingFinished, tr("Change M"), "gamma",
                 [this](GaussianParams& p) { p.gammaSamples = m_samples->value(); });
    m_edits.bind(m_estimator, &QComboBox::currentIndexChanged, tr("Change Γ estimator"), "gamma",
                 [this](GaussianParams& p) {
                     p.estimator = chosen(m_estimator, core::project::kGammaEstimators);
                 });
    m_edits.bind(m_seed, &QSpinBox::editingFinished, tr("Change seed"), "gamma",
                 [this](GaussianParams& p) { p.seed = static_cast<uint64_t>(m_seed->value()); });
    return box;
}

QGroupBox* GaussianPanel::createTrajectoryBox() {
    auto* box = new QGroupBox(tr("Trajectory"));
    auto* form = new QFormLayout(box);
    m_trajectory = new QComboBox;
    addChoices(m_trajectory, core::project::kGaussianTrajectories);
    m_trajectory->setToolTip(
        tr("Which timesteps the reverse process visits (Help ▸ "
           "Mathematics: gaussian.md#trajectories)."));
    m_trajectoryList = new QLineEdit;
    m_trajectoryList->setObjectName("trajectoryList");
    m_trajectoryList->setToolTip(
        tr("The timesteps, strictly increasing from 1 to at most N, e.g. "
           "1,10,50,200,1000 (press Enter)."));
    m_pathSteps = new QSpinBox;
    m_pathSteps->setRange(2, core::limits::kGaussianSteps.max);
    m_pathSteps->setToolTip(tr("The number of timesteps (denoiser evaluations)."));
    m_leadingOffset = new QSpinBox;
    m_leadingOffset->setObjectName("leadingOffset");
    m_leadingOffset->setRange(0, 9999);
    m_leadingOffset->setToolTip(
        tr("leading: the offset O added to every timestep t_i = i·⌊N/S⌋ + O (S steps) "
           "(diffusers' steps_offset)."));
    m_karrasRho = new QDoubleSpinBox;
    m_karrasRho->setObjectName("karrasRho");
    m_karrasRho->setRange(0.1, 100.0);
    m_karrasRho->setDecimals(2);
    m_karrasRho->setSingleStep(0.5);
    m_karrasRho->setToolTip(tr("Karras σ: ρ of the σ^{1/ρ} interpolation (EDM uses 7)."));
    m_diffusersClass = createDiffusersClassCombo();
    m_dpVariant = new QComboBox;
    m_dpVariant->setObjectName("dpVariant");
    addChoices(m_dpVariant, core::project::kDpVariants);
    m_dpVariant->setToolTip(
        tr("Where Γ exceeds its bound β̄Γ ≤ 1 (a Monte Carlo or imported Γ at "
           "large n), the clipped cost makes those steps free; the segmented DP "
           "of the paper's code sets the steps after the first such n aside and "
           "spaces them evenly."));
    form->addRow(tr("kind"), m_trajectory);
    form->addRow(tr("DP cost"), m_dpVariant);
    form->addRow(tr("steps"), m_pathSteps);
    form->addRow(tr("offset"), m_leadingOffset);
    form->addRow("ρ", m_karrasRho);
    form->addRow(tr("diffusers class"), m_diffusersClass);
    form->addRow(tr("timesteps"), m_trajectoryList);
    form->addRow(errorLabel("trajectory"));

    m_edits.bind(
        m_trajectory, &QComboBox::currentIndexChanged, tr("Change trajectory"), "trajectory",
        [this](GaussianParams& p) {
            p.trajectory = chosen(m_trajectory, core::project::kGaussianTrajectories);
            if (p.trajectory == document::GaussianTrajectory::List && p.trajectoryList.empty()) {
                // Start from the even trajectory of the current K, to edit.
                auto even = core::trajectory::gaussianEvenTrajectory(p.numSteps, p.pathSteps);
                QStringList steps;
                for (int t : even ? *even : std::vector<int>{1, p.numSteps}) {
                    steps << QString::number(t);
                }
                p.trajectoryList = steps.join(',').toStdString();
            }
        });
    connect(m_trajectoryList, &QLineEdit::returnPressed, this,
            [this] { editTrajectoryList(m_trajectoryList->text()); });
    m_edits.bind(m_pathSteps, &QSpinBox::valueChanged, tr("Change the number of steps"),
                 "trajectory", [](GaussianParams& p, int k) {
                     p.pathSteps = k;
                     p.pathStepsAsked = 0;  // the user's own K now
                 });
    m_edits.bind(m_dpVariant, &QComboBox::currentIndexChanged, tr("Change DP cost"), "trajectory",
                 [this](GaussianParams& p) {
                     p.dpVariant = chosen(m_dpVariant, core::project::kDpVariants);
                 });
    m_edits.bind(m_leadingOffset, &QSpinBox::editingFinished, tr("Change offset"), "trajectory",
                 [this](GaussianParams& p) { p.leadingOffset = m_leadingOffset->value(); });
    m_edits.bind(m_karrasRho, &QDoubleSpinBox::editingFinished, tr("Change ρ"), "trajectory",
                 [this](GaussianParams& p) { p.karrasRho = m_karrasRho->value(); });
    m_edits.bind(m_diffusersClass, &QComboBox::currentIndexChanged, tr("Change diffusers class"),
                 "trajectory", [this](GaussianParams& p) {
                     p.diffusersClass = m_diffusersClass->currentData().toString().toStdString();
                 });
    return box;
}

QComboBox* GaussianPanel::createDiffusersClassCombo() {
    auto* combo = new QComboBox;
    combo->setObjectName("diffusersClass");
    combo->addItem(tr("DDIMScheduler (default)"), QString());
    for (const char* name : core::schedule::kDiffusersClasses) {
        // DDIMScheduler is the default's arithmetic already.
        if (QLatin1String(name) == QLatin1String("DDIMScheduler")) continue;
        combo->addItem(QString::fromLatin1(name), QString::fromLatin1(name));
    }
    combo->setToolTip(
        tr("linspace, leading, trailing: the diffusers scheduler whose set_timesteps arithmetic "
           "is followed. DPMSolverMultistepScheduler and UniPCMultistepScheduler space S + 1 "
           "points and drop the last; EulerDiscreteScheduler's linspace timesteps are fractional "
           "(the nearest whole ones are used here, and its own σ are copied for k-diffusion)."));
    return combo;
}

QGroupBox* GaussianPanel::createSamplerBox() {
    auto* box = new QGroupBox(tr("Sampler"));
    auto* form = new QFormLayout(box);
    m_sampler = new QComboBox;
    m_sampler->setObjectName("sampler");
    m_compareSampler = new QComboBox;
    m_compareSampler->setObjectName("compareSampler");
    m_compareSampler->addItem(tr("none"), "none");
    addChoices(m_sampler, core::project::kSamplers);
    addChoices(m_compareSampler, core::project::kSamplers);
    m_sampler->setToolTip(
        tr("The Particles view's left pane (Help ▸ Mathematics: "
           "gaussian.md#reverse-samplers): DDPM uses σ² = β̃, DDIM "
           "λ² = η²β̃ with the η above; the analytic kinds the optimal σ² from Γ."));
    m_compareSampler->setToolTip(tr("The right pane, sampled from the same noise; none hides it."));
    m_clipFirst = new QCheckBox(tr("clip the first step (App. F.2)"));
    m_clipFirst->setToolTip(tr("Cap σ² of the last reverse pair (τ_1, τ_2) at "
                               "(y·(2/255)·√(π/2))² with y = %1, as the paper does when "
                               "sampling.")
                                .arg(document::kClipFirstY));
    m_particles = new QSpinBox;
    m_particles->setRange(core::limits::kViewParticles.min, core::limits::kViewParticles.max);
    m_particles->setToolTip(
        tr("Particles per sampler (image data: the first 36 are sampled and shown)."));
    form->addRow(tr("sampler A"), m_sampler);
    form->addRow(tr("compare B"), m_compareSampler);
    form->addRow("", m_clipFirst);
    form->addRow(tr("particles"), m_particles);
    form->addRow(errorLabel("sampler"));

    m_edits.bind(
        m_sampler, &QComboBox::currentIndexChanged, tr("Change sampler"), "sampler",
        [this](GaussianParams& p) { p.sampler = chosen(m_sampler, core::project::kSamplers); });
    m_edits.bind(m_compareSampler, &QComboBox::currentIndexChanged, tr("Change compared sampler"),
                 "sampler", [this](GaussianParams& p) {
                     p.compareSampler.reset();
                     if (m_compareSampler->currentData().toString() != "none") {
                         p.compareSampler = chosen(m_compareSampler, core::project::kSamplers);
                     }
                 });
    m_edits.bind(m_clipFirst, &QCheckBox::toggled, tr("Change first-step clip"), "sampler",
                 [](GaussianParams& p, bool on) { p.clipFirst = on; });
    m_edits.bind(m_particles, &QSpinBox::editingFinished, tr("Change particle count"), "sampler",
                 [this](GaussianParams& p) { p.particleCount = m_particles->value(); });
    return box;
}

QLabel* GaussianPanel::errorLabel(const QString& field) { return m_errors.create(field); }

void GaussianPanel::showError(const QString& field, const QString& message) {
    m_errors.show(field, message);
}

QString GaussianPanel::fieldError(const QString& field) const { return m_errors.message(field); }

void GaussianPanel::editDataSpec(const QString& spec) { applyDataSpec(spec, tr("Change data"), 0); }

bool GaussianPanel::applyDataSpec(const QString& spec, const QString& text, int mergeId) {
    return m_edits.applyPrepared(withDataSpec(m_document->gaussian(), spec), text, "data", mergeId);
}

bool GaussianPanel::loadScheduleFile(const QString& path) {
    return m_edits.applyPrepared(withScheduleFile(m_document->gaussian(), path),
                                 tr("Use a custom schedule"), "process");
}

void GaussianPanel::editTrajectoryList(const QString& text) {
    GaussianParams p = m_document->gaussian();
    p.trajectory = document::GaussianTrajectory::List;
    p.trajectoryList = text.simplified().remove(' ').toStdString();
    m_edits.apply(p, tr("Type the timesteps"), "trajectory");
}

bool GaussianPanel::loadModel(const QString& path) {
    return m_edits.applyPrepared(withCheckpoint(m_document->gaussian(), path),
                                 tr("Use a checkpoint"), "data");
}

bool GaussianPanel::importGammaFile(const QString& path) {
    return m_edits.applyPrepared(withGammaFile(m_document->gaussian(), path), tr("Import Γ"),
                                 "gamma");
}

void GaussianPanel::loadScheduleFileInBackground(const QString& path) {
    m_edits.prepareInBackground(
        *m_files, tr("Reading %1").arg(QFileInfo(path).fileName()), tr("Use a custom schedule"),
        "process", [path](GaussianParams p) { return withScheduleFile(std::move(p), path); });
}

bool GaussianPanel::loadDiffusersConfig(const QString& path) {
    return m_edits.applyPrepared(withDiffusersConfig(m_document->gaussian(), path),
                                 tr("Use a diffusers config"), "process");
}

void GaussianPanel::loadDiffusersConfigInBackground(const QString& path) {
    m_edits.prepareInBackground(
        *m_files, tr("Reading %1").arg(QFileInfo(path).fileName()), tr("Use a diffusers config"),
        "process", [path](GaussianParams p) { return withDiffusersConfig(std::move(p), path); });
}

void GaussianPanel::loadModelInBackground(const QString& path) {
    m_edits.prepareInBackground(
        *m_files, tr("Loading %1").arg(QFileInfo(path).fileName()), tr("Use a checkpoint"), "data",
        [path](GaussianParams p) { return withCheckpoint(std::move(p), path); });
}

void GaussianPanel::importGammaFileInBackground(const QString& path) {
    m_edits.prepareInBackground(
        *m_files, tr("Reading %1").arg(QFileInfo(path).fileName()), tr("Import Γ"), "gamma",
        [path](GaussianParams p) { return withGammaFile(std::move(p), path); });
}

void GaussianPanel::editDataSpecInBackground(const QString& spec) {
    m_edits.prepareInBackground(
        *m_files, tr("Reading the data"), tr("Change data"), "data",
        [spec](GaussianParams p) { return withDataSpec(std::move(p), spec); });
}

// The schedule's row: the combo on the spec's kind (a file's name for csv: and diffusers:), N
// locked for a table, and a config's unused keys said once each time the schedule becomes it.
void GaussianPanel::showSchedule(const GaussianParams& p) {
    const QString schedule = document::qs(p.schedule);
    const bool custom = schedule.startsWith("csv:");
    const QString diffusersPrefix = core::schedule::kDiffusersPrefix;
    const bool diffusers = schedule.startsWith(diffusersPrefix);
    m_schedule->setCurrentIndex(custom      ? m_schedule->findData("csv:")
                                : diffusers ? m_schedule->findData(diffusersPrefix)
                                            : std::max(0, m_schedule->findData(schedule)));
    m_schedule->setItemText(
        m_schedule->findData("csv:"),
        custom ? tr("custom: %1").arg(QFileInfo(schedule.mid(4)).fileName()) : tr("custom table…"));
    m_schedule->setItemText(
        m_schedule->findData(diffusersPrefix),
        diffusers ? tr("diffusers: %1")
                        .arg(QFileInfo(QString::fromStdString(
                                           core::schedule::splitScheduleSpec(p.schedule).base)
                                           .mid(diffusersPrefix.size()))
                                 .fileName())
                  : tr("diffusers config…"));
    m_numSteps->setEnabled(!custom && !diffusers);  // a table's length is its N
    // A config's unused keys are said once each time the schedule becomes it (picked, opened,
    // undone to).
    if (p.schedule != m_notedSchedule) {
        m_notedSchedule = p.schedule;
        const std::string note = p.scheduleNote();
        QString shown;
        if (!note.empty()) {
            // The file's name, not its path, so that the line wraps in the narrow panel.
            const std::string base = core::schedule::splitScheduleSpec(p.schedule).base;
            const std::string path = base.substr(diffusersPrefix.size());
            auto config = core::schedule::readDiffusersConfig(path);
            const QString file = QFileInfo(QString::fromStdString(path)).fileName();
            QStringList keys;
            QStringList lines;
            if (config) {
                for (const std::string& key : config->unknownKeys)
                    keys << QString::fromStdString(key);
            }
            if (!keys.isEmpty()) lines << tr("Keys of %1 not used here: %2").arg(file, keys.join(", "));
            if (config && !config->className.empty() &&
                !core::schedule::isDiffusersClass(config->className)) {
                lines << tr("%1 names the class %2, whose spacing is not known here: "
                            "DDIMScheduler's is used.")
                             .arg(file, QString::fromStdString(config->className));
            }
            shown = lines.join('\n');
            emit statusNote(QString::fromStdString(note));
        }
        m_scheduleNote->setText(shown);
        m_scheduleNote->setToolTip(QString::fromStdString(note));
        m_scheduleNote->setVisible(!shown.isEmpty());
    }
}

void GaussianPanel::onDocumentChanged() {
    const GaussianParams& p = m_document->gaussian();
    m_refreshing = true;
    showSchedule(p);
    m_numSteps->setValue(p.numSteps);
    const int forward = p.eta == 1.0 ? 0 : p.eta == 0.0 ? 1 : 2;
    m_forward->setCurrentIndex(forward);
    m_eta->setValue(p.eta);
    m_eta->setEnabled(forward == 2);
    const QString dataSpec = document::qs(p.data);
    const int data = m_data->findData(dataSpec);
    const auto mixture = core::data::parseMixtureSpec(p.data);
    const QString mixturePreset = QString::fromUtf8(core::project::kDefaultMixtureSpec.data(),
                                                    core::project::kDefaultMixtureSpec.size());
    m_data->setCurrentIndex(data >= 0 ? data
                            : mixture ? m_data->findData(mixturePreset)
                                      : m_data->count() - 1);
    m_dataSpec->setText(dataSpec);
    if (mixture) {
        m_mixture->setComponents(*mixture);
    }
    m_mixture->setVisible(mixture.ok());
    while (m_model->count() > 1) m_model->removeItem(1);
    if (!p.model.empty()) {
        const QString model = document::qs(p.model);
        // A bundled network by its file name, as on disk.
        m_model->addItem(
            QFileInfo(QString::fromStdString(core::data::bundledModelFile(model.toStdString())))
                .fileName(),
            model);
        m_model->setItemData(1, model, Qt::ToolTipRole);
    }
    m_model->setCurrentIndex(p.model.empty() ? 0 : 1);
    m_samples->setValue(p.gammaSamples);
    m_gammaSource->setText(p.importedGamma.empty()
                               ? tr("estimated (M samples per timestep)")
                               : tr("imported from %1").arg(document::qs(p.importedGammaName)));
    m_estimateGamma->setEnabled(!p.importedGamma.empty());
    showChoice(m_estimator, core::project::kGammaEstimators, p.estimator);
    m_seed->setValue(static_cast<int>(std::min<uint64_t>(p.seed, 2147483647)));
    showChoice(m_trajectory, core::project::kGaussianTrajectories, p.trajectory);
    m_pathSteps->setMaximum(p.numSteps);
    m_pathSteps->setValue(p.pathSteps);
    const bool list = p.trajectory == document::GaussianTrajectory::List;
    m_pathSteps->setEnabled(!list);
    m_leadingOffset->setValue(p.leadingOffset);
    m_leadingOffset->setEnabled(p.trajectory == document::GaussianTrajectory::Leading);
    m_karrasRho->setValue(p.karrasRho);
    m_karrasRho->setEnabled(p.trajectory == document::GaussianTrajectory::Karras);
    m_diffusersClass->setCurrentIndex(
        std::max(0, m_diffusersClass->findData(document::qs(p.diffusersClass))));
    m_diffusersClass->setEnabled(p.trajectory == document::GaussianTrajectory::Linspace ||
                                 p.trajectory == document::GaussianTrajectory::Leading ||
                                 p.trajectory == document::GaussianTrajectory::Trailing);
    showChoice(m_dpVariant, core::project::kDpVariants, p.dpVariant);
    m_trajectoryList->setText(document::qs(p.trajectoryList));
    m_trajectoryList->setEnabled(list);
    showChoice(m_sampler, core::project::kSamplers, p.sampler);
    if (p.compareSampler) {
        showChoice(m_compareSampler, core::project::kSamplers, *p.compareSampler);
    } else {
        m_compareSampler->setCurrentIndex(m_compareSampler->findData("none"));
    }
    m_clipFirst->setChecked(p.clipFirst);
    m_particles->setValue(p.particleCount);
    m_refreshing = false;
    m_errors.hideAll();
    checkImportedGamma();
}

void GaussianPanel::checkImportedGamma() {
    const GaussianParams& p = m_document->gaussian();
    // What the check depends on: the schedule, N and the values (and the DP cost, which the
    // warning's choices mention).
    std::string key;
    if (!p.importedGamma.empty()) {
        key = p.schedule + "|" + std::to_string(p.numSteps) + "|" + p.importedGammaName + "|" +
              std::to_string(static_cast<int>(p.dpVariant)) + "|" +
              std::to_string(std::hash<std::string>{}(
                  std::string(reinterpret_cast<const char*>(p.importedGamma.data()),
                              p.importedGamma.size() * sizeof(double))));
    }
    if (key == m_gammaCheckKey) return;
    m_gammaCheckKey = key;
    m_gammaWarning->hide();
    if (!m_checks) return;  // the explorer is gone (the window closes)
    if (key.empty()) {
        m_checks->cancel();
        return;
    }
    // The schedule may be a file: the check runs off the GUI thread.
    m_checks->start(
        tr("Checking the imported Γ"), [p, key, this](core::Progress&) -> std::function<void()> {
            auto over =
                std::make_shared<core::Result<std::vector<int>>>(p.importedGammaOverBound());
            return [this, key, over] {
                if (key != m_gammaCheckKey || key == m_keptGammaCheck) return;
                showGammaWarning(*over);
            };
        });
}

void GaussianPanel::showGammaWarning(const core::Result<std::vector<int>>& over) {
    const GaussianParams& p = m_document->gaussian();
    if (!over) {
        m_gammaWarning->setText(QString::fromStdString(over.error().toString()).toHtmlEscaped());
        m_gammaWarning->show();
        return;
    }
    if (over->empty()) return;
    QStringList steps;
    for (size_t i = 0; i < over->size() && i < 12; ++i) steps << QString::number((*over)[i]);
    if (over->size() > 12) steps << "…";
    QString text = tr("The imported Γ (%1) exceeds its bound β̄ₙΓₙ ≤ 1 at %2 of %3 "
                      "timesteps: n = %4. There σ² is clipped to 0 and the clipped DP "
                      "passes them for free.<br>")
                       .arg(document::qs(p.importedGammaName).toHtmlEscaped())
                       .arg(over->size())
                       .arg(p.numSteps)
                       .arg(steps.join(", "));
    text += tr("<a href=\"clip\">clip Γ to its bound</a>");
    if (p.dpVariant != core::gaussian::DpVariant::Segmented) {
        text += tr(" · <a href=\"segmented\">use the segmented DP</a>");
    }
    text += tr(" · <a href=\"keep\">keep as it is</a>");
    m_gammaWarning->setText(text);
    m_gammaWarning->show();
}

QString GaussianPanel::gammaWarning() const {
    return m_gammaWarning->isHidden() ? QString() : m_gammaWarning->text();
}

void GaussianPanel::clipImportedGamma() {
    m_edits.prepareInBackground(*m_files, tr("Clipping the imported Γ"), tr("Clip Γ to its bound"),
                                "gamma",
                                [](GaussianParams p) { return withClippedGamma(std::move(p)); });
}

}  // namespace ui::panels
