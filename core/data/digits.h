// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/data/categorical_table.h"
#include "core/util/result.h"

// The bundled 8×8 handwritten digits (resources/data/digits.csv.gz; UCI "Optical Recognition
// of Handwritten Digits", CC BY 4.0): 64 pixel intensities 0..16 and a label 0..9 per image.
namespace core::data {

constexpr int kDigitsSide = 8;
constexpr int kDigitsPixels = 64;
constexpr int kDigitsMaxIntensity = 16;
constexpr int kDigitsTestCount = 297;  // the last 297 images are the fixed test split

struct Digits {
    std::vector<int> pixels;  // numImages × 64, row-major, 0..16
    std::vector<int> labels;  // numImages, 0..9
    int numImages() const { return static_cast<int>(labels.size()); }
    const int* image(int i) const { return pixels.data() + static_cast<size_t>(i) * kDigitsPixels; }
    // Images [0, n − 297) train, the rest test (fewer than 297 images: all train).
    int numTrain() const { return std::max(0, numImages() - kDigitsTestCount); }
};

// Decompresses gzip data (zlib); an error names `path` when the data is not valid gzip.
Result<std::string> gunzip(const std::string& compressed, const std::string& path);

// Parses the CSV text: 65 integers per line. Errors name path:line and the column.
Result<Digits> parseDigits(const std::string& text, const std::string& path);
// Reads a .csv.gz (or plain .csv) file.
Result<Digits> readDigits(const std::string& path);

// The categorical view: intensity v in 0..16 → class ⌊v·L/17⌋ in 0..L−1 (L = 17 keeps v).
// L must lie in 2..17.
Result<std::vector<int>> quantiseDigits(const std::vector<int>& pixels, int levels);

// One split (train: the first numTrain() images, else the rest) quantised to L levels:
// rows M×64 row-major classes, and the M labels.
struct QuantisedDigits {
    std::vector<int> rows;
    std::vector<int> labels;
};
Result<QuantisedDigits> quantisedSplit(const Digits& digits, int levels, bool trainSplit);

// A split as a categorical table: D = 64, K = levels, condition c = label c (rows ordered by
// label, so conditions are "0".."9" in that order), images equally likely within their label.
Result<CategoricalTable> digitsTable(const QuantisedDigits& split, int levels);

// The Gaussian view: v in 0..16 → v/8 − 1 in [−1, 1] (the 17-level grid).
std::vector<double> scaleDigits(const std::vector<int>& pixels);

}  // namespace core::data
