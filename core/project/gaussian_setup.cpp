// SPDX-License-Identifier: MIT
#include "core/project/gaussian_setup.h"

namespace core::project {

Result<GaussianSetup> GaussianSetup::build(const GaussianParams& params,
                                           const SetupSources& sources, bool strictModel,
                                           bool withData) {
    GaussianSetup setup;
    auto schedule = schedule::gaussianScheduleFromSpec(params.schedule, params.numSteps);
    if (!schedule) return schedule.error();
    setup.schedule = std::move(schedule).value();
    if (!withData) return setup;
    auto data = gaussianData(params.data, sources);
    if (!data) return data.error();
    setup.data = *data;
    setup.model = *data;
    if (!params.model.empty()) {
        const model::GaussianDataSampler& sampler = **data;
        auto network = gaussianNetwork(params.model, params.numSteps, sampler.dimension(), sources,
                                       params.schedule);
        if (network) {
            setup.model = *network;
            setup.usesNetwork = true;
        } else if (strictModel) {
            return network.error();
        } else {
            setup.modelError = network.error().toString();
        }
    }
    auto estimator = resolveEstimator(params.estimator, !setup.usesNetwork);
    if (!estimator) return estimator.error();
    setup.estimator = *estimator;
    return setup;
}

}  // namespace core::project
