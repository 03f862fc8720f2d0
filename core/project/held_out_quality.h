// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

#include "core/evaluation/sample_quality.h"
#include "core/project/setup_sources.h"
#include "core/util/eigen_types.h"
#include "core/util/parallel.h"
#include "core/util/result.h"

// Sample quality against the held-out points of a project's data spec: which points are held out
// for each kind of data, and the measure (core/evaluation) chosen by the dimension.
namespace core::project {

// The held-out points of a Gaussian data spec (`count` of them): digits / digits:test → the digits' test split
// (all of it, count ignored); toy:… → a fresh draw of the same generator with a different seed (held out from
// the training/oracle points); gaussian:/gmm:/mixture: → draws keyed by `seed` with a purpose different from
// the one the oracle/samplers use; csv:FILE → refused (no held-out split known). Errors name the field and the value.
Result<Matrix> heldOutReference(const std::string& dataSpec, int count, uint64_t seed,
                                const SetupSources& sources);

// Chooses the measure by dimension (d ≤ 2 → mmd2 with kMmdBandwidths; d > 2 → frechet) against
// heldOutReference(dataSpec, evaluation::kQualityReferenceCount, seed, sources); at most kMaxQualitySamples samples are used.
Result<evaluation::SampleQuality> sampleQuality(const Matrix& samples, const std::string& dataSpec, uint64_t seed,
                                    const SetupSources& sources, const ParallelOptions& parallel = {});

// Samples as `diffuscope sample` writes them (columns x1..xd, one row per sample) as d×count;
// the --frames layout is refused. Errors name the file (as --samples).
Result<Matrix> readSamplesFile(const std::string& path);

}  // namespace core::project
