// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

namespace core {

// torch.linspace(start, end, steps, dtype=float32) on the CPU as RangeFactoriesKernel.cpp's
// scalar loop computes it: step = (end − start)/(steps − 1) in float, then start + step·i for
// the first half and end − step·(steps − 1 − i) for the second, every operation in float.
// (torch's vectorised loop, taken for longer tensors on some builds, can differ by an ulp.)
inline std::vector<float> torchLinspace(float start, float end, int steps) {
    std::vector<float> out(static_cast<size_t>(steps));
    if (steps == 1) {
        out[0] = start;
        return out;
    }
    const float step = (end - start) / static_cast<float>(steps - 1);
    const int halfway = steps / 2;
    for (int i = 0; i < steps; ++i) {
        out[static_cast<size_t>(i)] = i < halfway ? start + step * static_cast<float>(i)
                                                  : end - step * static_cast<float>(steps - i - 1);
    }
    return out;
}

}  // namespace core
