// SPDX-License-Identifier: MIT
#include "core/project/held_out_quality.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <string_view>

#include "core/data/digits.h"
#include "core/data/gaussian_data.h"
#include "core/data/toys.h"
#include "core/gaussian/rng_streams.h"
#include "core/io/file_io.h"
#include "core/io/reader_text.h"
#include "core/util/limits.h"
#include "core/util/rng.h"

namespace core::project {
namespace {

// "toy:NAME,n=…,seed=…" → (name, seed); the same parser as core::data::toyFromSpec.
struct ToyParts {
    std::string name;
    uint64_t seed = 0;
};
ToyParts toyParts(const std::string& spec) {
    ToyParts parts;
    const std::string rest = spec.substr(4);
    parts.name = rest.substr(0, rest.find(','));
    const size_t at = rest.find("seed=");
    if (at != std::string::npos) {
        parts.seed = std::strtoull(rest.c_str() + at + 5, nullptr, 10);
    }
    return parts;
}

// The seed of a toy's held-out draw: a function of the toy's own seed and the quality seed
// that never equals the toy's seed, so the reference shares no point index stream with it.
uint64_t heldOutToySeed(uint64_t toySeed, uint64_t seed) {
    uint64_t s = (toySeed ^ 0x51A1'17E5'0000'0000ull) + 0x9E37'79B9'7F4A'7C15ull * (seed + 1);
    return s == toySeed ? s + 1 : s;
}

}  // namespace

Result<Matrix> heldOutReference(const std::string& dataSpec, int count, uint64_t seed,
                                const SetupSources& sources) {
    if (data::isDigitsSpec(dataSpec)) {
        if (dataSpec != "digits" && dataSpec != "digits:train" && dataSpec != "digits:test") {
            return invalidArgument("data", dataSpec, "digits takes :train or :test");
        }
        auto digits = sources.digits();
        if (!digits) return digits.error();
        return data::digitsPoints(**digits, false);
    }
    if (auto ok = limits::checkRange(limits::kSamples, "reference count", count); !ok) {
        return ok.error();
    }
    if (dataSpec.rfind("csv:", 0) == 0) {
        return invalidArgument("data", dataSpec,
                               "a CSV file has no held-out split; compare with `--data` of "
                               "a toy, a distribution or the digits");
    }
    if (dataSpec.rfind("toy:", 0) == 0) {
        // Check the spec as the oracle does, then draw the same toy under another seed.
        if (auto points = data::toyFromSpec(dataSpec); !points) return points.error();
        const ToyParts parts = toyParts(dataSpec);
        Result<data::Toy> toy = data::parseToy(parts.name);
        if (!toy) return toy.error();
        return data::makeToy(*toy, count, heldOutToySeed(parts.seed, seed));
    }
    auto oracle = gaussianData(dataSpec, sources);
    if (!oracle) return oracle.error();
    const model::GaussianDataSampler& sampler = **oracle;
    const int d = sampler.dimension();
    if (auto ok = limits::checkMemory("reference count", std::to_string(count), "d·count·8 bytes",
                                      8.0 * d * count);
        !ok) {
        return ok.error();
    }
    Matrix points(d, count);
    Vector x(d);
    for (int i = 0; i < count; ++i) {
        CounterRng rng(seed, gaussian::rngStream(gaussian::RngPurpose::QualityReference, i), 0);
        sampler.sampleData(static_cast<uint64_t>(i), rng, x);
        points.col(i) = x;
    }
    return points;
}

Result<evaluation::SampleQuality> sampleQuality(const Matrix& samples, const std::string& dataSpec, uint64_t seed,
                                    const SetupSources& sources, const ParallelOptions& parallel) {
    Result<Matrix> reference = heldOutReference(dataSpec, evaluation::kQualityReferenceCount, seed, sources);
    if (!reference) return reference.error();
    if (reference->rows() != samples.rows()) {
        return invalidArgument("samples", std::to_string(samples.rows()) + " columns",
                               "the data " + dataSpec + " has " +
                                   std::to_string(reference->rows()) + " dimensions");
    }
    const Eigen::Index used = std::min<Eigen::Index>(samples.cols(), evaluation::kMaxQualitySamples);
    const Matrix head = samples.leftCols(used);
    evaluation::SampleQuality out;
    out.numSamples = static_cast<int>(used);
    out.numReference = static_cast<int>(reference->cols());
    if (data::isDigitsSpec(dataSpec)) {
        out.reference = "digits:test";
    } else if (dataSpec.rfind("toy:", 0) == 0) {
        const ToyParts parts = toyParts(dataSpec);
        out.reference = "toy:" + parts.name + ",n=" + std::to_string(evaluation::kQualityReferenceCount) +
                        ",seed=" + std::to_string(heldOutToySeed(parts.seed, seed));
    } else {
        out.reference = dataSpec + " (" + std::to_string(evaluation::kQualityReferenceCount) +
                        " held-out draws, seed " + std::to_string(seed) + ")";
    }
    if (samples.rows() <= 2) {
        Result<evaluation::Mmd2> mmd = evaluation::mmd2Unbiased(head, *reference, evaluation::kMmdBandwidths, parallel);
        if (!mmd) return mmd.error();
        out.measure = "mmd2";
        out.value = mmd->value;
        out.standardError = mmd->standardError;
        out.bandwidths = evaluation::kMmdBandwidths;
    } else {
        Result<double> distance = evaluation::frechetDistance(head, *reference);
        if (!distance) return distance.error();
        out.measure = "frechet";
        out.value = *distance;
        out.standardError = std::numeric_limits<double>::quiet_NaN();
    }
    return out;
}

Result<Matrix> readSamplesFile(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        return makeError(ErrorCode::IoError, "--samples", path,
                               "a directory, not a samples file");
    }
    // Through the core's reader, which refuses a FIFO, a device or a link to one by its status
    // before opening anything (std::ifstream blocked on a FIFO); the whole file, read below, is
    // refused by its size before it is read.
    Result<std::string> head = io::readRegularFileHead(path, 64);
    if (!head) {
        return makeError(ErrorCode::IoError, "--samples", path, head.error().message);
    }
    // A --frames file starts with the columns frame,t,sample: its rows are every step's
    // samples, not one set, so it is refused rather than mixed.
    const std::string_view header = io::withoutBom(*head);
    if (header.rfind("frame,t,sample", 0) == 0) {
        return invalidArgument("--samples", path,
                                     "the file holds every frame (sample --frames); write the "
                                     "samples without --frames");
    }
    Result<Matrix> points = data::readGaussianPointsCsv(path);
    if (!points) {
        Error e = points.error();
        if (e.field.empty()) e.field = "--samples " + path;
        return e;
    }
    return points;
}

}  // namespace core::project
