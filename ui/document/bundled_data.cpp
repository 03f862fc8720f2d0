// SPDX-License-Identifier: MIT
#include "ui/document/bundled_data.h"

#include <QFile>

#include "core/data/gaussian_data.h"
#include "ui/document/project_model.h"

namespace ui::document {

const core::Result<core::data::Digits>& bundledDigits() {
    // A function-local static: thread-safe initialisation, parsed once per process.
    static const core::Result<core::data::Digits> digits = [] {
        const char* path = ":/data/digits.csv.gz";
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            return core::Result<core::data::Digits>(core::makeError(
                core::ErrorCode::IoError, path, "", "the bundled digits are missing"));
        }
        const QByteArray bytes = file.readAll();
        auto text = core::data::gunzip(bytes.toStdString(), path);
        if (!text) {
            return core::Result<core::data::Digits>(text.error());
        }
        return core::data::parseDigits(*text, path);
    }();
    return digits;
}

core::Result<std::shared_ptr<core::model::GaussianOracle>> gaussianDataOracle(const QString& spec) {
    return core::project::gaussianData(spec.toStdString(), appSources());
}

}  // namespace ui::document
