// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

#include "core/gaussian/gamma.h"
#include "core/util/result.h"
#include "ui/document/categorical_params.h"
#include "ui/document/gaussian_params.h"

// The project and its file format, apart from the document that edits it (and its undo stack),
// so that the reader needs Qt Core only: the project-file fuzzer links just this.
namespace ui::document {

enum class ProcessKind { Categorical, Gaussian };

// A Γ estimate kept with the project, so that a reopened project shows it without
// recomputing. Not an edit: it is derived data, replaced whenever a new estimate finishes.
struct GammaCache {
    QString key;                               // GaussianParams::gammaKey() it belongs to
    core::gaussian::GammaEstimate estimate;    // Γ_n with standard errors
    double dataVariance = 0.0;                 // Σ Var[x_0,i]/d of the data
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

// The project file format: JSON with a version; files from a newer version are refused.
// File paths inside (models, CSV tables) are written relative to `path`'s folder when they lie
// in it or below, and read back relative to it.
constexpr int kProjectFormatVersion = 1;
QByteArray projectToJson(const Project& project, const QString& path = {});
core::Result<Project> projectFromJson(const QByteArray& bytes, const QString& path);

// Reads a project file: a regular file of at most kMaxProjectFileBytes (a device, FIFO or a
// larger file is refused before anything is read), then projectFromJson.
constexpr uint64_t kMaxProjectFileBytes = 64ull << 20;  // far above any project with its Γ cache
core::Result<Project> readProjectFile(const QString& path);

}  // namespace ui::document
