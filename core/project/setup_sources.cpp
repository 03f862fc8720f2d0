// SPDX-License-Identifier: MIT
#include "core/project/setup_sources.h"

#include <mutex>

#include "core/data/bundled_files.h"
#include "core/data/gaussian_data.h"
#include "core/model/model_file.h"
#include "core/model/oracle_specs.h"

namespace core::project {

SetupSources fileSources(const std::string& digitsPath) {
    SetupSources sources;
    // Read once, on first use, and shared by every set-up built from these sources.
    auto once = std::make_shared<std::once_flag>();
    auto digits = std::make_shared<Result<std::shared_ptr<const data::Digits>>>(
        makeError(ErrorCode::IoError, "digits", "", "not read"));
    sources.digits = [once, digits, digitsPath]() {
        std::call_once(*once, [&] {
            auto read = data::readDigitsOrBundled(digitsPath);
            if (read) {
                *digits = std::make_shared<const data::Digits>(std::move(read).value());
            } else {
                *digits = read.error();
            }
        });
        return *digits;
    };
    sources.loadModel = [](const std::string& path) -> Result<LoadedModelPtr> {
        auto loaded = model::loadModelFile(path);
        if (!loaded) return loaded.error();
        return LoadedModelPtr(std::make_shared<const model::LoadedModel>(std::move(loaded).value()));
    };
    return sources;
}

Result<std::shared_ptr<model::GaussianOracle>> gaussianData(const std::string& spec,
                                                            const SetupSources& sources) {
    if (!data::isDigitsSpec(spec)) {
        return model::gaussianOracleFromSpec(spec);
    }
    auto digits = sources.digits();
    if (!digits) return digits.error();
    return model::gaussianOracleFromSpec(spec, digits->get());
}

Result<std::shared_ptr<const model::GaussianEpsModel>> gaussianNetwork(
    const std::string& path, int numSteps, int dimension, const SetupSources& sources,
    const std::string& schedule) {
    auto loaded = sources.loadModel(path);
    if (!loaded) return loaded.error();
    if (auto fits = model::checkGaussianFit(**loaded, path, numSteps, dimension, schedule); !fits) {
        return fits.error();
    }
    return std::shared_ptr<const model::GaussianEpsModel>((*loaded)->gaussian);
}

Result<std::shared_ptr<const model::CategoricalDenoiser>> categoricalNetwork(
    const std::string& path, int numClasses, int numPositions, int numConditions,
    const SetupSources& sources, const std::string& schedule) {
    auto loaded = sources.loadModel(path);
    if (!loaded) return loaded.error();
    if (auto fits = model::checkCategoricalFit(**loaded, path, numClasses, numPositions,
                                               numConditions, schedule);
        !fits) {
        return fits.error();
    }
    return std::shared_ptr<const model::CategoricalDenoiser>((*loaded)->categorical);
}

}  // namespace core::project
