// SPDX-License-Identifier: MIT
// PLACEHOLDER until the Gaussian engine lands (replaced by its owner).
#include "app/cli/commands.h"

namespace app::cli {
int runGamma(const Args&) { return fail("gamma: not built yet"); }
int runVariance(const Args&) { return fail("variance: not built yet"); }
int runNll(const Args&) { return fail("nll: not built yet"); }
int runSample(const Args&) { return fail("sample: not built yet"); }
}  // namespace app::cli
