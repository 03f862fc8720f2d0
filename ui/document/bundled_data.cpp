// SPDX-License-Identifier: MIT
#include "ui/document/bundled_data.h"

#include <QFile>

#include "core/data/gaussian_data.h"
#include "core/project/chain_decoding.h"
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

core::Result<core::data::MarkovChain> decodingChain(const std::string& source) {
    if (source != core::project::kBundledChain) return core::project::readChainSource(source);
    static const core::Result<core::data::MarkovChain> english = [] {
        const char* path = ":/data/english-chain.json";
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            return core::Result<core::data::MarkovChain>(
                core::makeError(core::ErrorCode::IoError, path, "", "the bundled chain is missing"));
        }
        return core::data::parseMarkovChain(file.readAll().toStdString(), core::project::kBundledChain);
    }();
    return english;
}

core::Result<std::shared_ptr<core::model::GaussianOracle>> gaussianDataOracle(const QString& spec) {
    return core::project::gaussianData(spec.toStdString(), appSources());
}

}  // namespace ui::document
