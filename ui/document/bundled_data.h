// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <memory>

#include "core/data/digits.h"
#include "core/data/markov_chain.h"
#include "core/model/gaussian_oracles.h"
#include "core/util/result.h"

// Data sets compiled into the application (Qt resources), parsed once on first use.
namespace ui::document {

// The 8×8 digits (resources/data/digits.csv.gz, CC BY 4.0; see resources/data/README.md).
const core::Result<core::data::Digits>& bundledDigits();

// The chain a decoding source names: "english" from the resources (parsed once), else the file.
core::Result<core::data::MarkovChain> decodingChain(const std::string& source);

// core::model::gaussianOracleFromSpec with the bundled digits behind the "digits" spec.
core::Result<std::shared_ptr<core::model::GaussianOracle>> gaussianDataOracle(const QString& spec);

}  // namespace ui::document
