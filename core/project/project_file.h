// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/gaussian/gamma.h"
#include "core/project/categorical_params.h"
#include "core/project/gaussian_params.h"
#include "core/util/result.h"

// The project: both processes' parameters, which one is shown, and a Γ estimate kept with them.
// Read and written here (Qt-free), by the GUI's document and by the command line alike.
namespace core::project {

enum class ProcessKind { Categorical, Gaussian };

// A Γ estimate kept with the project, so that a reopened project shows it without
// recomputing. Not an edit: it is derived data, replaced whenever a new estimate finishes.
struct GammaCache {
    std::string key;                      // GaussianParams::gammaKey() it belongs to
    gaussian::GammaEstimate estimate;     // Γ_n with standard errors
    double dataVariance = 0.0;            // Σ Var[x_0,i]/d of the data
    bool operator==(const GammaCache& o) const {
        return key == o.key && estimate.gamma == o.estimate.gamma;
    }
};

struct Project {
    ProcessKind process = ProcessKind::Categorical;
    CategoricalParams categorical = CategoricalParams::example();
    GaussianParams gaussian = GaussianParams::example();
    GammaCache gammaCache;
    bool operator==(const Project&) const = default;
};

// The bundled examples by number (1..kNumExamples), as File ▸ Examples opens them; what each
// shows is in exampleTitle. Their networks are named "bundled:<file>"
// (core/data/bundled_files.h), which the GUI and the command line both resolve.
constexpr int kNumExamples = 7;
const char* exampleTitle(int number);
Result<Project> exampleProject(int number);

// The project file format: JSON with a version; files from a newer version are refused.
// Fields added later are optional and have defaults (an older Diffuscope ignores them: the Γ
// "estimator", which replaced the true/false "denoisingEstimator", then reads as the default).
// File paths inside (models, CSV tables) are written relative to `path`'s folder when they lie
// in it or below, and read back relative to it.
constexpr int kProjectFormatVersion = 1;
std::string projectToJson(const Project& project, const std::string& path = {});
Result<Project> projectFromJson(const std::string& bytes, const std::string& path);

// Reads a project file: a regular file of at most kMaxProjectFileBytes (a device, FIFO or a
// larger file is refused before anything is read), then projectFromJson.
constexpr uint64_t kMaxProjectFileBytes = 64ull << 20;  // far above any project with its Γ cache
Result<Project> readProjectFile(const std::string& path);

}  // namespace core::project
