// SPDX-License-Identifier: MIT
// PLACEHOLDER until the categorical engine lands (replaced by its owner).
#include "app/cli/commands.h"

namespace app::cli {
int runKernel(const Args&) { return fail("kernel: not built yet"); }
int runCategorical(const Args&) { return fail("categorical: not built yet"); }
}  // namespace app::cli
