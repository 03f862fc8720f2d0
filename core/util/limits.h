// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "core/util/result.h"

// The one table of what the engines accept, shared by the command line, the project files and
// the GUI, so that an impossible request is refused up front, with the limit in the message,
// instead of ending in an allocation failure or a run with no end.
namespace core::limits {

struct IntRange {
    const char* what;  // for messages: "the number of classes K"
    long long min;
    long long max;
};

inline constexpr IntRange kClasses{"the number of classes K", 2, 256};
inline constexpr IntRange kSteps{"the number of steps N", 1, 100'000};
// The Gaussian process's timesteps: a trajectory needs two (the DP's N×N cost matrix is checked
// against memory where it is built).
inline constexpr IntRange kGaussianSteps{"the number of timesteps N", 2, 100'000};
inline constexpr IntRange kPositions{"the number of positions D", 1, 4096};
inline constexpr IntRange kConditions{"the number of condition labels", 0, 1000};
inline constexpr IntRange kDimension{"the data dimension d", 1, 65'536};
inline constexpr IntRange kSamples{"the number of samples", 1, 10'000'000};
inline constexpr IntRange kGammaSamples{"the number of Monte Carlo samples of Γ", 2, 10'000'000};
inline constexpr IntRange kLevels{"the number of quantisation levels", 2, 65'536};
inline constexpr IntRange kParticles{"the number of particles", 1, 10'000'000};
// The particles the Particles view draws and animates, every frame kept.
inline constexpr IntRange kViewParticles{"the number of particles shown", 1, 20'000};
// The partially masked sequences the decoding samplers' exact propagation may enumerate,
// (K + 1)^D: beyond, the output distribution needs Monte Carlo (--samples).
inline constexpr long long kDecodeExactStates = 1LL << 24;
inline constexpr IntRange kChains{"the number of chains", 1, 10'000'000};
// Decoding on a Markov chain: its states (one byte per decoded token, the mask included) and
// the sequence length D.
inline constexpr IntRange kChainStates{"the number of chain states K", 2, 64};
inline constexpr IntRange kChainLength{"the length D", 2, 4096};
inline constexpr IntRange kBatch{"the batch size", 1, 65'536};
inline constexpr IntRange kWidth{"the network width", 1, 8192};
inline constexpr IntRange kDepth{"the network depth", 1, 64};
inline constexpr IntRange kEmbedding{"an embedding size", 0, 8192};
inline constexpr IntRange kTrainingSteps{"the number of training steps", 1, 100'000'000};
inline constexpr IntRange kTrainingInterval{"a number of training steps", 0, 100'000'000};
inline constexpr IntRange kThreads{"the number of threads", 1, 256};
inline constexpr IntRange kCsvColumns{"the number of columns of a CSV file", 1, 65'536};
// 256 MB of realistic numbers ("0.1234567,") is about 26 million cells.
inline constexpr IntRange kCsvCells{"the number of cells of a CSV file", 1, 32'000'000};

// Strings and lists of a project file (and of the Lab's --config), checked by the readers so
// that a 100 000-character label never reaches a legend or a CSV.
struct TextLimit {
    const char* what;  // for messages: "a name or label"
    long long maxBytes;
};
// A legend label or a condition name: room for a sentence in any script (UTF-8 bytes).
inline constexpr TextLimit kNameText{"a name or label", 200};
// A schedule, data, trajectory or model specification, or a file path (PATH_MAX is 4096).
inline constexpr TextLimit kSpecText{"a specification or file path", 4096};
// A typed trajectory "1,3,7,…": N ≤ 10000 steps of at most 6 characters each.
inline constexpr TextLimit kListText{"a typed list", 100'000};
inline constexpr IntRange kLabConfigs{"the number of Lab configurations", 0, 16};
inline constexpr IntRange kLabKs{"the number of values of K in the Lab", 1, 32};
inline constexpr IntRange kControlPoints{"the number of control points", 0, 1000};
inline constexpr IntRange kConditionNames{"the number of conditions", 0, 1000};

// The most memory one computation may ask for. Well above every example (the largest, the
// N = 1000 cost matrices, take tens of MB) and below what a laptop has.
inline constexpr double kMaxWorkingBytes = 4e9;

// The most memory one rendered image may take (4 bytes a pixel): 1 GiB. The largest figure
// accepted at 96 dpi, 16384 × 16384 pixels, takes exactly this, so every size accepted before
// at 96 dpi still is, and more dots per inch are for smaller figures; above it Qt's raster
// engine and PNG writer fail part-way ("encoding the PNG failed") after minutes of work.
inline constexpr double kMaxImageBytes = 1024.0 * 1024.0 * 1024.0;

// A figure of width × height CSS pixels (96 to the inch) drawn at `dpi` into an image of
// 4 bytes a pixel: within kMaxImageBytes, or an error with the arithmetic, e.g.
// "--width × --height = 16384 × 16384 px at 300 dpi: the PNG needs
// 16384·16384·(300/96)²·4 bytes = 10 GB, …". `what` names the image ("the PNG").
Status checkImage(const std::string& what, long long width, long long height, double dpi);

// A size in bytes for people, in SI units: "512 bytes", "2.1 GB", "34 GB".
std::string formatBytes(double bytes);

// `value` within `range`, or an InvalidArgument naming `field`, the value and the range.
Status checkRange(const IntRange& range, const std::string& field, long long value);

// `text` within `limit`, or an InvalidArgument naming `field`, the start of the text, its size
// and the limit: "gaussian.lab.configs[0].name = "nnnn…" (100000 bytes): a name or label has at
// most 200 bytes".
Status checkText(const TextLimit& limit, const std::string& field, const std::string& text);

// A list of `count` entries within `range`: "… = 20000 entries: the number of … is at most …".
Status checkCount(const IntRange& range, const std::string& field, size_t count);

// `bytes` (what `formula` needs, e.g. "N·N·8 bytes") within kMaxWorkingBytes, or an error
// naming `field` and `value` and saying why: "needs N·N·8 bytes = 80 GB, more than the 4 GB …".
Status checkMemory(const std::string& field, const std::string& value, const std::string& formula,
                   double bytes);

}  // namespace core::limits
