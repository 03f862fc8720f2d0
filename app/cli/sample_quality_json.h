// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/project/held_out_quality.h"
#include "core/util/result.h"

// The `quality` object that `diffuscope quality` prints and `sample --format json` embeds
// (keys in docs/conventions.md): cmd_quality.cpp.
namespace app::cli {

nlohmann::ordered_json sampleQualityJson(const core::evaluation::SampleQuality& quality);

}  // namespace app::cli
