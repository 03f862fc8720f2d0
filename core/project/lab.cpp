// SPDX-License-Identifier: MIT
#include "core/project/lab.h"

namespace core::project {

Result<LabResult> runLab(const GaussianParams&, const LabSettings&, const SetupSources&,
                         const ParallelOptions&, Progress*) {
    return LabResult{};
}
io::Json labToJson(const LabResult&) { return io::Json::object(); }
std::string labToCsv(const LabResult&) { return {}; }

}  // namespace core::project
