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

// Samples as `diffuscope sample` writes them (columns x1..xd, one row per sample) as d×count;
// the --frames layout is refused. Errors name the file.
core::Result<core::Matrix> readSamplesCsv(const std::string& path);

}  // namespace app::cli
