// SPDX-License-Identifier: MIT
#include "core/model/categorical_denoiser.h"

#include <cassert>
#include <vector>

namespace core::model {

void CategoricalDenoiser::predictPosition(int position,
                                          int xt,
                                          int condition,
                                          const DenoiserTime& time,
                                          std::span<double> out) const {
    // A programming error for a joint model: it needs the whole x_t.
    assert(factorised());
    (void)position;
    (void)xt;
    (void)condition;
    (void)time;
    (void)out;
}

}  // namespace core::model
