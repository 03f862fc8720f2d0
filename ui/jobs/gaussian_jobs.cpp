// SPDX-License-Identifier: MIT
#include "ui/jobs/gaussian_jobs.h"

namespace ui::jobs {

core::Result<std::shared_ptr<GaussianResults>> computeGaussianResults(
    const document::GaussianParams& params,
    std::shared_ptr<const GaussianResults> previous,
    const document::GammaCache& cache,
    PartialGammas& partials,
    int threads,
    core::Progress& progress) {
    auto results = std::make_shared<GaussianResults>();
    if (core::Status s =
            core::project::analyseGaussian(params, document::appSources(), previous.get(), cache,
                                           partials, threads, progress, *results);
        !s) {
        return s.error();
    }
    return results;
}

}  // namespace ui::jobs
