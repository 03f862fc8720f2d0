// SPDX-License-Identifier: MIT
// The build without LibTorch: TorchScript files are recognised and their contract read, then
// refused with the reason.
#include "core/model/torch_model.h"

namespace core::model {

bool torchModelsAvailable() { return false; }

Result<LoadedModel> loadTorchModel(std::string_view, const TorchContract&, const std::string& path) {
    return makeError(ErrorCode::InvalidArgument, path, "",
                     "a TorchScript model, but this build of Diffuscope has no LibTorch (build "
                     "it with libtorch-dev installed to open .pt files)");
}

}  // namespace core::model
