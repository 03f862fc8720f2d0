// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <memory>

#include "core/model/checkpoint.h"
#include "core/project/setup_sources.h"
#include "core/util/result.h"

// Checkpoint files as the app opens them: a path on disk, or a bundled network by its portable
// name "bundled:<file>" (read from the copy compiled in; older ":/models/<file>" paths too).
// Loaded models are kept (keyed by path, size and modification time), so re-running a job after
// an edit does not re-read the file; safe to call from job threads.
namespace ui::document {

using LoadedModelPtr = core::project::LoadedModelPtr;

// Reads and checks the checkpoint; errors name the file and the problem.
core::Result<LoadedModelPtr> loadModelFile(const QString& path);
// Whether loadModelFile(path) would answer from its cache (the file unchanged since).
bool isModelLoaded(const QString& path);

// The core's fit-checked loaders (core/project/setup_sources.h) with the app's sources.
core::Result<std::shared_ptr<const core::model::GaussianEpsModel>> loadGaussianModel(
    const QString& path, int numSteps, int dimension, const std::string& schedule = {});
core::Result<std::shared_ptr<const core::model::CategoricalDenoiser>> loadCategoricalModel(
    const QString& path,
    int numClasses,
    int numPositions,
    int numConditions,
    const std::string& schedule = {});

// The checkpoints bundled with the app (resources/models, trained by `diffuscope train`).
inline const char* kBundledDigitsCategorical = "bundled:digits-categorical-l4.safetensors";
inline const char* kBundledDigitsGaussian = "bundled:digits-gaussian.safetensors";
inline const char* kBundledMoons = "bundled:moons-gaussian.safetensors";

// The embedded resource a bundled name stands for (":/models/<file>"); other paths unchanged.
QString embeddedPath(const QString& path);

}  // namespace ui::document
