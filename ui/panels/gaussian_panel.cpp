// SPDX-License-Identifier: MIT
#include "ui/panels/gaussian_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QPushButton>

#include "core/data/gaussian_data.h"
#include "core/gaussian/gamma.h"
#include "core/io/gamma_file.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/trajectory/least_cost_path.h"
#include "ui/document/bundled_data.h"
#include "ui/document/model_files.h"
#include "ui/panels/choice_combo.h"
#include "ui/panels/mixture_editor.h"

namespace ui::panels {

using document::GaussianParams;

namespace {

// The merge id of mixture drags: the steps of one drag collapse into one undo step.
constexpr int kMergeMixtureDrag = 201;

// The data combo's mixture preset: three components on the editor's plane.
const char* kDefaultMixture = "mixture:0.4,-1.2,-0.6,0.45;0.35,1.2,-0.6,0.45;0.25,0,1.1,0.35";

}  // namespace

GaussianPanel::GaussianPanel(document::ProjectDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);

    auto* processBox = new QGroupBox("Process");
    auto* processForm = new QFormLayout(processBox);
    m_schedule = new QComboBox;
    for (const char* kind : {"linear", "cosine", "scaled-linear", "sigmoid"}) {
        m_schedule->addItem(kind, kind);
    }
    m_schedule->addItem("custom table…", "csv:");
    m_schedule->setToolTip("The β_n schedule (Help ▸ Mathematics: gaussian.md#schedules); "
                           "linear with N = 1000 is DDPM's. A "
                           "custom table is a CSV with a beta column (β_1..β_N) or an alpha_bar "
                           "column; its length sets N.");
    m_numSteps = new QSpinBox;
    m_numSteps->setRange(2, 10000);
    m_numSteps->setToolTip("N, the number of timesteps.");
    m_forward = new QComboBox;
    m_forward->addItem("DDPM (η = 1)", 1.0);
    m_forward->addItem("DDIM (η = 0)", 0.0);
    m_forward->addItem("η …", -1.0);
    m_forward->setToolTip("The forward process on the trajectory: λ² = η²β̃ (Help ▸ "
                          "Mathematics: gaussian.md#forward-process).");
    m_eta = new QDoubleSpinBox;
    m_eta->setRange(0.0, 1.0);
    m_eta->setSingleStep(0.1);
    m_eta->setDecimals(3);
    processForm->addRow("schedule", m_schedule);
    processForm->addRow("steps N", m_numSteps);
    processForm->addRow("forward", m_forward);
    processForm->addRow("η", m_eta);
    processForm->addRow(errorLabel("process"));
    layout->addWidget(processBox);

    auto* dataBox = new QGroupBox("Data and model");
    auto* dataForm = new QFormLayout(dataBox);
    m_data = new QComboBox;
    m_data->setObjectName("data");
    m_data->addItem("two moons", "toy:moons,n=2000");
    m_data->addItem("checkerboard", "toy:checkerboard,n=2000");
    m_data->addItem("swiss roll", "toy:swissroll,n=2000");
    m_data->addItem("ring", "toy:ring,n=2000");
    m_data->addItem("Gaussian N(0, 0.5² I), d = 2", "gaussian:d=2,s=0.5");
    m_data->addItem("8×8 digits (64-D, training split)", "digits");
    m_data->addItem("Gaussian mixture (drag on the plane)", kDefaultMixture);
    m_data->addItem("other (type a spec)", QString());
    m_data->setToolTip("The data; the model is its exact oracle (the score of the noisy data).");
    m_dataSpec = new QLineEdit;
    m_dataSpec->setToolTip(
        "A data spec: toy:NAME[,n=,seed=], gaussian:d=D,s=S, gmm:FILE.json, "
        "mixture:w,mx,my,s;… (2-D, up to 16 components, weights normalised), "
        "csv:FILE or digits[:test] (press Enter).");
    m_mixture = new MixtureEditor;
    m_mixture->setObjectName("mixtureEditor");
    m_model = new QComboBox;
    m_model->addItem("exact oracle", QString());
    m_model->setToolTip("The ε-model: the exact oracle of the data, or a trained network "
                        "(a .safetensors checkpoint; you can also drop one on the window).");
    auto* openModel = new QPushButton("Open…");
    openModel->setToolTip("Load a Gaussian checkpoint trained for this N and data dimension.");
    auto* trainModel = new QPushButton("Train…");
    trainModel->setToolTip("Train a network on this data and schedule, then use it.");
    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(m_model, 1);
    modelRow->addWidget(openModel);
    modelRow->addWidget(trainModel);
    dataForm->addRow("data", m_data);
    dataForm->addRow("spec", m_dataSpec);
    dataForm->addRow(m_mixture);
    dataForm->addRow("model", modelRow);
    dataForm->addRow(errorLabel("data"));
    layout->addWidget(dataBox);

    auto* gammaBox = new QGroupBox("Γ estimate");
    auto* gammaForm = new QFormLayout(gammaBox);
    m_samples = new QSpinBox;
    m_samples->setRange(1, 100000);
    m_samples->setToolTip("M, Monte Carlo samples per timestep (Help ▸ Mathematics: "
                          "gaussian.md#gamma).");
    m_estimator = new QComboBox;
    m_estimator->setObjectName("estimator");
    addChoices(m_estimator, core::project::kGammaEstimators);
    m_estimator->setToolTip("How Γ's Monte Carlo terms are formed. Score: ‖ε_θ‖²/d as in the "
                            "paper, which in low dimension can exceed its bound. Low-variance "
                            "(the default), for the exact oracle: per timestep the lower-variance "
                            "of that and 1 − ‖ε_θ − ε‖²/d (both unbiased); for a network: the "
                            "second (error), which also puts the network's own error into σ².");
    m_seed = new QSpinBox;
    m_seed->setRange(0, 2147483647);
    gammaForm->addRow("samples M", m_samples);
    gammaForm->addRow("estimator", m_estimator);
    gammaForm->addRow("seed", m_seed);
    m_gammaSource = new QLabel;
    m_gammaSource->setWordWrap(true);
    auto* importGamma = new QPushButton("Import…");
    importGamma->setToolTip("Use Γ from a file instead of estimating it: CSV with columns n,gamma "
                            "or n,ms_eps, or an NPY array of ms_eps as the Analytic-DPM code saves "
                            "it (length N + 1, entry 0 unused, or N).");
    auto* exportGamma = new QPushButton("Export…");
    exportGamma->setToolTip("Write the current Γ as CSV (n,gamma) or NPY (ms_eps, length N + 1).");
    m_estimateGamma = new QPushButton("Estimate");
    m_estimateGamma->setToolTip("Drop the imported Γ and estimate it with M samples.");
    auto* gammaRow = new QHBoxLayout;
    gammaRow->addWidget(importGamma);
    gammaRow->addWidget(exportGamma);
    gammaRow->addWidget(m_estimateGamma);
    gammaForm->addRow("source", m_gammaSource);
    gammaForm->addRow("file", gammaRow);
    gammaForm->addRow(errorLabel("gamma"));
    layout->addWidget(gammaBox);

    auto* trajectoryBox = new QGroupBox("Trajectory");
    auto* trajectoryForm = new QFormLayout(trajectoryBox);
    m_trajectory = new QComboBox;
    addChoices(m_trajectory, core::project::kGaussianTrajectories);
    m_trajectory->setToolTip("Which K timesteps the reverse process visits (Help ▸ "
                             "Mathematics: gaussian.md#trajectories).");
    m_trajectoryList = new QLineEdit;
    m_trajectoryList->setObjectName("trajectoryList");
    m_trajectoryList->setToolTip("The timesteps, strictly increasing from 1 to N, e.g. "
                                 "1,10,50,200,1000 (press Enter).");
    m_pathSteps = new QSpinBox;
    m_pathSteps->setRange(2, 10000);
    m_pathSteps->setToolTip("K, the number of timesteps (denoiser evaluations).");
    trajectoryForm->addRow("kind", m_trajectory);
    trajectoryForm->addRow("timesteps K", m_pathSteps);
    trajectoryForm->addRow("timesteps", m_trajectoryList);
    trajectoryForm->addRow(errorLabel("trajectory"));
    layout->addWidget(trajectoryBox);

    auto* samplerBox = new QGroupBox("Sampler");
    auto* samplerForm = new QFormLayout(samplerBox);
    m_sampler = new QComboBox;
    m_sampler->setObjectName("sampler");
    m_compareSampler = new QComboBox;
    m_compareSampler->setObjectName("compareSampler");
    m_compareSampler->addItem("none", "none");
    addChoices(m_sampler, core::project::kSamplers);
    addChoices(m_compareSampler, core::project::kSamplers);
    m_sampler->setToolTip("The Particles view's left pane (Help ▸ Mathematics: "
                          "gaussian.md#reverse-samplers): DDPM uses σ² = β̃, DDIM "
                          "λ² = η²β̃ with the η above; the analytic kinds the optimal σ² from Γ.");
    m_compareSampler->setToolTip("The right pane, sampled from the same noise x_τK; none hides it.");
    m_clipFirst = new QCheckBox("clip the first step (App. F.2)");
    m_clipFirst->setToolTip(QString("Cap σ² of the last reverse pair (τ_1, τ_2) at "
                                    "(y·(2/255)·√(π/2))² with y = %1, as the paper does when "
                                    "sampling.")
                                .arg(document::kClipFirstY));
    m_particles = new QSpinBox;
    m_particles->setRange(1, 20000);
    m_particles->setToolTip("Particles per sampler (image data: the first 36 are sampled and shown).");
    samplerForm->addRow("sampler A", m_sampler);
    samplerForm->addRow("compare B", m_compareSampler);
    samplerForm->addRow("", m_clipFirst);
    samplerForm->addRow("particles", m_particles);
    samplerForm->addRow(errorLabel("sampler"));
    layout->addWidget(samplerBox);
    layout->addStretch(1);

    auto params = [this] { return m_document->gaussian(); };
    // activated, not currentIndexChanged: choosing "custom" again picks another file.
    connect(m_schedule, &QComboBox::activated, this, [=, this] {
        const QString kind = m_schedule->currentData().toString();
        if (kind == "csv:") {
            const QString path = QFileDialog::getOpenFileName(this, "A custom β schedule", {},
                                                              "CSV tables (*.csv)");
            if (path.isEmpty() || !loadScheduleFile(path)) onDocumentChanged();  // back to the current one
            return;
        }
        GaussianParams p = params();
        p.schedule = kind.toStdString();
        apply(p, "Change schedule", "process");
    });
    connect(m_numSteps, &QSpinBox::editingFinished, this, [=, this] {
        GaussianParams p = params();
        if (p.numSteps == m_numSteps->value()) return;
        p.numSteps = m_numSteps->value();
        p.importedGamma.clear();  // it was for the old N
        p.importedGammaName.clear();
        p.pathSteps = std::min(p.pathSteps, p.numSteps);
        apply(p, "Change N", "process");
    });
    connect(m_forward, &QComboBox::currentIndexChanged, this, [=, this] {
        if (m_refreshing) return;
        const double eta = m_forward->currentData().toDouble();
        GaussianParams p = params();
        p.eta = eta >= 0.0 ? eta : m_eta->value();
        apply(p, "Change forward process", "process");
    });
    connect(m_eta, &QDoubleSpinBox::editingFinished, this, [=, this] {
        GaussianParams p = params();
        p.eta = m_eta->value();
        apply(p, "Change η", "process");
    });
    connect(m_data, &QComboBox::currentIndexChanged, this, [=, this] {
        if (m_refreshing) return;
        const QString spec = m_data->currentData().toString();
        if (!spec.isEmpty()) {
            editDataSpec(spec);
        } else {
            m_dataSpec->setFocus();
        }
    });
    connect(m_dataSpec, &QLineEdit::returnPressed, this,
            [this] { editDataSpec(m_dataSpec->text().trimmed()); });
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
    connect(m_model, &QComboBox::currentIndexChanged, this, [=, this] {
        if (m_refreshing) return;
        GaussianParams p = params();
        p.model = m_model->currentData().toString().toStdString();
        apply(p, p.model.empty() ? "Use the exact oracle" : "Use a checkpoint", "data");
    });
    connect(openModel, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, "Open a Gaussian checkpoint", {},
                                                          "Checkpoints (*.safetensors)");
        if (!path.isEmpty()) loadModel(path);
    });
    connect(trainModel, &QPushButton::clicked, this, [this] { emit trainRequested(); });
    connect(importGamma, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, "Import Γ", {},
                                                          "Γ files (*.csv *.npy)");
        if (!path.isEmpty()) importGammaFile(path);
    });
    connect(exportGamma, &QPushButton::clicked, this, [this] { emit exportGammaRequested(); });
    connect(m_estimateGamma, &QPushButton::clicked, this, [=, this] {
        GaussianParams p = params();
        p.importedGamma.clear();
        p.importedGammaName.clear();
        apply(p, "Estimate Γ", "gamma");
    });
    connect(m_samples, &QSpinBox::editingFinished, this, [=, this] {
        GaussianParams p = params();
        p.gammaSamples = m_samples->value();
        apply(p, "Change M", "gamma");
    });
    connect(m_estimator, &QComboBox::currentIndexChanged, this, [=, this] {
        if (m_refreshing) return;
        GaussianParams p = params();
        p.estimator = chosen(m_estimator, core::project::kGammaEstimators);
        apply(p, "Change Γ estimator", "gamma");
    });
    connect(m_seed, &QSpinBox::editingFinished, this, [=, this] {
        GaussianParams p = params();
        p.seed = static_cast<uint64_t>(m_seed->value());
        apply(p, "Change seed", "gamma");
    });
    connect(m_trajectory, &QComboBox::currentIndexChanged, this, [=, this] {
        if (m_refreshing) return;
        GaussianParams p = params();
        p.trajectory = chosen(m_trajectory, core::project::kGaussianTrajectories);
        if (p.trajectory == document::GaussianTrajectory::List && p.trajectoryList.empty()) {
            // Start from the even trajectory of the current K, to edit.
            auto even = core::trajectory::gaussianEvenTrajectory(p.numSteps, p.pathSteps);
            QStringList steps;
            for (int t : even ? *even : std::vector<int>{1, p.numSteps}) steps << QString::number(t);
            p.trajectoryList = steps.join(',').toStdString();
        }
        apply(p, "Change trajectory", "trajectory");
    });
    connect(m_trajectoryList, &QLineEdit::returnPressed, this,
            [this] { editTrajectoryList(m_trajectoryList->text()); });
    connect(m_pathSteps, &QSpinBox::valueChanged, this, [=, this](int k) {
        if (m_refreshing) return;
        GaussianParams p = params();
        p.pathSteps = k;
        apply(p, "Change K", "trajectory");
    });
    connect(m_sampler, &QComboBox::currentIndexChanged, this, [=, this] {
        if (m_refreshing) return;
        GaussianParams p = params();
        p.sampler = chosen(m_sampler, core::project::kSamplers);
        apply(p, "Change sampler", "sampler");
    });
    connect(m_compareSampler, &QComboBox::currentIndexChanged, this, [=, this] {
        if (m_refreshing) return;
        GaussianParams p = params();
        p.compareSampler.reset();
        if (m_compareSampler->currentData().toString() != "none") {
            p.compareSampler = chosen(m_compareSampler, core::project::kSamplers);
        }
        apply(p, "Change compared sampler", "sampler");
    });
    connect(m_clipFirst, &QCheckBox::toggled, this, [=, this](bool on) {
        if (m_refreshing) return;
        GaussianParams p = params();
        p.clipFirst = on;
        apply(p, "Change first-step clip", "sampler");
    });
    connect(m_particles, &QSpinBox::editingFinished, this, [=, this] {
        GaussianParams p = params();
        p.particleCount = m_particles->value();
        apply(p, "Change particle count", "sampler");
    });
    connect(m_document, &document::ProjectDocument::gaussianChanged, this,
            &GaussianPanel::onDocumentChanged);
    connect(m_document, &document::ProjectDocument::projectReplaced, this,
            &GaussianPanel::onDocumentChanged);
    onDocumentChanged();
}

QLabel* GaussianPanel::errorLabel(const QString& field) { return m_errors.create(field); }

void GaussianPanel::showError(const QString& field, const QString& message) {
    m_errors.show(field, message);
}

QString GaussianPanel::fieldError(const QString& field) const { return m_errors.message(field); }

bool GaussianPanel::apply(const GaussianParams& params,
                          const QString& text,
                          const QString& field,
                          int mergeId) {
    const core::Status status = m_document->setGaussian(params, text, mergeId);
    if (!status) {
        const QString message = QString::fromStdString(status.error().toString());
        onDocumentChanged();
        showError(field, message);
        return false;
    }
    showError(field, {});
    return true;
}

void GaussianPanel::editDataSpec(const QString& spec) { applyDataSpec(spec, "Change data", 0); }

bool GaussianPanel::applyDataSpec(const QString& spec, const QString& text, int mergeId) {
    // Build the oracle once here so a bad spec or file is refused before it reaches the document.
    auto oracle = document::gaussianDataOracle(spec);
    if (!oracle) {
        onDocumentChanged();
        showError("data", QString::fromStdString(oracle.error().toString()));
        return false;
    }
    GaussianParams p = m_document->gaussian();
    p.data = spec.toStdString();
    return apply(p, text, "data", mergeId);
}

bool GaussianPanel::loadScheduleFile(const QString& path) {
    auto schedule = core::schedule::customScheduleFromCsv(path.toStdString());
    if (!schedule) {
        showError("process", QString::fromStdString(schedule.error().toString()));
        return false;
    }
    GaussianParams p = m_document->gaussian();
    p.schedule = "csv:" + QFileInfo(path).absoluteFilePath().toStdString();
    if (p.numSteps != schedule->numSteps()) {
        p.numSteps = schedule->numSteps();  // the table's length is N
        p.importedGamma.clear();
        p.importedGammaName.clear();
        p.pathSteps = std::min(p.pathSteps, p.numSteps);
        if (p.trajectory == document::GaussianTrajectory::List) {
            p.trajectory = document::GaussianTrajectory::Even;  // the typed list was for the old N
        }
    }
    return apply(p, "Use a custom schedule", "process");
}

void GaussianPanel::editTrajectoryList(const QString& text) {
    GaussianParams p = m_document->gaussian();
    p.trajectory = document::GaussianTrajectory::List;
    p.trajectoryList = text.simplified().remove(' ').toStdString();
    apply(p, "Type the timesteps", "trajectory");
}

bool GaussianPanel::loadModel(const QString& path) {
    GaussianParams p = m_document->gaussian();
    auto data = document::gaussianDataOracle(document::qs(p.data));
    if (!data) {
        showError("data", QString::fromStdString(data.error().toString()));
        return false;
    }
    const core::model::GaussianDataSampler& sampler = **data;
    auto network = document::loadGaussianModel(path, p.numSteps, sampler.dimension());
    if (!network) {
        showError("data", QString::fromStdString(network.error().toString()));
        return false;
    }
    // A bundled checkpoint keeps its resource path.
    p.model = (path.startsWith(':') ? path : QFileInfo(path).absoluteFilePath()).toStdString();
    return apply(p, "Use a checkpoint", "data");
}

bool GaussianPanel::importGammaFile(const QString& path) {
    GaussianParams p = m_document->gaussian();
    auto file = core::io::readGammaFile(path.toStdString(), p.numSteps, core::io::GammaKind::MsEps);
    if (!file) {
        showError("gamma", QString::fromStdString(file.error().toString()));
        return false;
    }
    auto schedule = core::schedule::gaussianScheduleFromSpec(p.schedule, p.numSteps);
    if (!schedule) {
        showError("gamma", QString::fromStdString(schedule.error().toString()));
        return false;
    }
    const std::vector<double> gamma = file->kind == core::io::GammaKind::MsEps
                                          ? core::gaussian::gammaFromMsEps(file->values, *schedule)
                                          : file->values;
    p.importedGamma.assign(gamma.begin() + 1, gamma.end());
    p.importedGammaName = QFileInfo(path).fileName().toStdString();
    return apply(p, "Import Γ", "gamma");
}

void GaussianPanel::onDocumentChanged() {
    const GaussianParams& p = m_document->gaussian();
    m_refreshing = true;
    const QString schedule = document::qs(p.schedule);
    const bool custom = schedule.startsWith("csv:");
    m_schedule->setCurrentIndex(custom ? m_schedule->findData("csv:")
                                       : std::max(0, m_schedule->findData(schedule)));
    m_schedule->setItemText(m_schedule->findData("csv:"),
                            custom ? "custom: " + QFileInfo(schedule.mid(4)).fileName()
                                   : QString("custom table…"));
    m_numSteps->setEnabled(!custom);  // a table's length is its N
    m_numSteps->setValue(p.numSteps);
    const int forward = p.eta == 1.0 ? 0 : p.eta == 0.0 ? 1 : 2;
    m_forward->setCurrentIndex(forward);
    m_eta->setValue(p.eta);
    m_eta->setEnabled(forward == 2);
    const QString dataSpec = document::qs(p.data);
    const int data = m_data->findData(dataSpec);
    const auto mixture = core::data::parseMixtureSpec(p.data);
    m_data->setCurrentIndex(data >= 0 ? data
                            : mixture ? m_data->findData(kDefaultMixture)
                                      : m_data->count() - 1);
    m_dataSpec->setText(dataSpec);
    if (mixture) {
        m_mixture->setComponents(*mixture);
    }
    m_mixture->setVisible(mixture.ok());
    while (m_model->count() > 1) m_model->removeItem(1);
    if (!p.model.empty()) {
        const QString model = document::qs(p.model);
        m_model->addItem(QFileInfo(model).fileName(), model);
        m_model->setItemData(1, model, Qt::ToolTipRole);
    }
    m_model->setCurrentIndex(p.model.empty() ? 0 : 1);
    m_samples->setValue(p.gammaSamples);
    m_gammaSource->setText(p.importedGamma.empty()
                               ? QString("estimated (M samples per timestep)")
                               : QString("imported from %1").arg(document::qs(p.importedGammaName)));
    m_estimateGamma->setEnabled(!p.importedGamma.empty());
    showChoice(m_estimator, core::project::kGammaEstimators, p.estimator);
    m_seed->setValue(static_cast<int>(std::min<uint64_t>(p.seed, 2147483647)));
    showChoice(m_trajectory, core::project::kGaussianTrajectories, p.trajectory);
    m_pathSteps->setMaximum(p.numSteps);
    m_pathSteps->setValue(p.pathSteps);
    const bool list = p.trajectory == document::GaussianTrajectory::List;
    m_pathSteps->setEnabled(!list);
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
}

}  // namespace ui::panels
