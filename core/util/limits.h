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
inline constexpr IntRange kPositions{"the number of positions D", 1, 4096};
inline constexpr IntRange kConditions{"the number of condition labels", 0, 1000};
inline constexpr IntRange kDimension{"the data dimension d", 1, 65'536};
inline constexpr IntRange kSamples{"the number of samples", 1, 10'000'000};
inline constexpr IntRange kGammaSamples{"the number of Monte Carlo samples of Γ", 2, 10'000'000};
inline constexpr IntRange kLevels{"the number of quantisation levels", 2, 65'536};
inline constexpr IntRange kParticles{"the number of particles", 1, 10'000'000};
inline constexpr IntRange kChains{"the number of chains", 1, 10'000'000};
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

// The most memory one computation may ask for. Well above every example (the largest, the
// N = 1000 cost matrices, take tens of MB) and below what a laptop has.
inline constexpr double kMaxWorkingBytes = 4e9;

// A size in bytes for people, in SI units: "512 bytes", "2.1 GB", "34 GB".
std::string formatBytes(double bytes);

// `value` within `range`, or an InvalidArgument naming `field`, the value and the range.
Status checkRange(const IntRange& range, const std::string& field, long long value);

// `bytes` (what `formula` needs, e.g. "N·N·8 bytes") within kMaxWorkingBytes, or an error
// naming `field` and `value` and saying why: "needs N·N·8 bytes = 80 GB, more than the 4 GB …".
Status checkMemory(const std::string& field, const std::string& value, const std::string& formula,
                   double bytes);

}  // namespace core::limits
