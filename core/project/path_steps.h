// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "core/util/limits.h"
#include "core/util/result.h"

// The number of path steps K that a smaller N caps (K ≤ N): the user's own K is remembered
// while capped and comes back, as far as N allows, when N rises again. Shared by the
// categorical and the Gaussian parameters.
namespace core::project {

// The K the user asked for: `asked` while the cap still holds (K = N and asked above it),
// otherwise K itself (K was changed since, or never capped).
inline int pathStepsWanted(int pathSteps, int asked, int numSteps) {
    return asked > pathSteps && pathSteps == numSteps ? asked : pathSteps;
}

// A stored "pathStepsAsked": 0 (not capped) or a K within its limits. A value that no longer
// applies (K changed since) is ignored by pathStepsWanted, and not written again.
inline Status checkPathStepsAsked(int asked, const limits::IntRange& range) {
    if (asked == 0 || (asked >= range.min && asked <= range.max)) return {};
    return invalidArgument("pathStepsAsked", std::to_string(asked),
                           "the path steps asked for before N capped them: 0 (not capped) or " +
                               std::to_string(range.min) + ".." + std::to_string(range.max));
}

// Whether the stored K applies: write "pathStepsAsked" only then.
inline bool pathStepsCapped(int pathSteps, int asked, int numSteps) {
    return pathStepsWanted(pathSteps, asked, numSteps) != pathSteps;
}

}  // namespace core::project
