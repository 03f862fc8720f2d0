// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>
#include <memory>

#include "core/project/categorical_setup.h"
#include "core/project/gaussian_setup.h"
#include "core/project/project_file.h"

// The GUI's document holds the core's project model (core/project), shared with the command
// line; these names let the GUI speak of it as its own, and adapt it to Qt's strings and bytes.
namespace ui::document {

using core::project::CategoricalData;
using core::project::CategoricalParams;
using core::project::CategoricalSetup;
using core::project::CategoricalTrajectory;
using core::project::GammaCache;
using core::project::GammaEstimatorChoice;
using core::project::GaussianParams;
using core::project::GaussianTrajectory;
using core::project::kClipFirstY;
using core::project::ProcessKind;
using core::project::Project;

// The app's sources: the digits and checkpoints embedded as Qt resources (":/…"), files on disk
// otherwise; loaded checkpoints are cached (keyed by path, size and modification time).
const core::project::SetupSources& appSources();

// The core's builders and file format with the app's sources and Qt's types.
core::Result<std::shared_ptr<const CategoricalSetup>> buildCategoricalSetup(
    const CategoricalParams& params);
// Whether building the set-up would read a file (a table file, or a checkpoint not loaded yet),
// so that it belongs off the GUI thread.
bool setupReadsFiles(const CategoricalParams& params);
QByteArray projectToJson(const Project& project, const QString& path = {});
core::Result<Project> projectFromJson(const QByteArray& bytes, const QString& path);
core::Result<Project> readProjectFile(const QString& path);

inline QString qs(const std::string& text) { return QString::fromStdString(text); }

}  // namespace ui::document
