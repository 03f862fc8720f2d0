// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/data/digits.h"
#include "core/model/categorical_denoiser.h"
#include "core/model/checkpoint.h"
#include "core/model/gaussian_eps_model.h"
#include "core/model/gaussian_oracles.h"
#include "core/util/result.h"

// Where the set-up builders get bundled data and checkpoints. The GUI reads its embedded
// resources and keeps loaded models in a cache; the command line reads the files installed
// beside the executable. The builders themselves are the same for both.
namespace core::project {

using LoadedModelPtr = std::shared_ptr<const model::LoadedModel>;

struct SetupSources {
    // The bundled 8×8 digits (or the file given instead), parsed once.
    std::function<Result<std::shared_ptr<const data::Digits>>()> digits;
    // A checkpoint by path, read and checked (not yet fitted to a set-up).
    std::function<Result<LoadedModelPtr>(const std::string& path)> loadModel;
};

// Files on disk: the digits from `digitsPath`, or the bundled ones (share/diffuscope) when it
// is empty; model files read with core::model::loadModelFile.
SetupSources fileSources(const std::string& digitsPath = {});

// The data of a Gaussian data spec (core/data/gaussian_data.h); "digits" from `sources`.
Result<std::shared_ptr<model::GaussianOracle>> gaussianData(const std::string& spec,
                                                            const SetupSources& sources);

// The network of `path` fitted to a Gaussian set-up of N steps and data dimension d, or to a
// categorical one of K classes, D positions and C conditions (the message says what differs);
// `schedule` is the set-up's schedule spec, which a TorchScript contract's must match
// (model::checkGaussianFit).
Result<std::shared_ptr<const model::GaussianEpsModel>> gaussianNetwork(
    const std::string& path, int numSteps, int dimension, const SetupSources& sources,
    const std::string& schedule = {});
Result<std::shared_ptr<const model::CategoricalDenoiser>> categoricalNetwork(
    const std::string& path, int numClasses, int numPositions, int numConditions,
    const SetupSources& sources, const std::string& schedule = {});

}  // namespace core::project
