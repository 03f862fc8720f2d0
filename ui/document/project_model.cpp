// SPDX-License-Identifier: MIT
#include "ui/document/project_model.h"

#include "ui/document/bundled_data.h"
#include "ui/document/model_files.h"

namespace ui::document {

const core::project::SetupSources& appSources() {
    static const core::project::SetupSources sources = [] {
        core::project::SetupSources s;
        s.digits = []() -> core::Result<std::shared_ptr<const core::data::Digits>> {
            const auto& digits = bundledDigits();
            if (!digits) return digits.error();
            // Parsed once per process and never freed: a non-owning pointer.
            return std::shared_ptr<const core::data::Digits>(&*digits,
                                                             [](const core::data::Digits*) {});
        };
        s.loadModel = [](const std::string& path) { return loadModelFile(qs(path)); };
        return s;
    }();
    return sources;
}

core::Result<std::shared_ptr<const CategoricalSetup>> buildCategoricalSetup(
    const CategoricalParams& params) {
    return CategoricalSetup::build(params, appSources());
}

bool setupReadsFiles(const CategoricalParams& params) {
    return params.dataSource == core::project::CategoricalData::CsvFile ||
           (!params.model.empty() && !isModelLoaded(qs(params.model)));
}

QByteArray projectToJson(const Project& project, const QString& path) {
    return QByteArray::fromStdString(core::project::projectToJson(project, path.toStdString()));
}

core::Result<Project> projectFromJson(const QByteArray& bytes, const QString& path) {
    return core::project::projectFromJson(bytes.toStdString(), path.toStdString());
}

core::Result<Project> readProjectFile(const QString& path) {
    return core::project::readProjectFile(path.toStdString());
}

}  // namespace ui::document
