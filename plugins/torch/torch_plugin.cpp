// SPDX-License-Identifier: MIT
// The LibTorch plugin: TorchScript modules behind the core's model interfaces. The one
// translation unit that includes LibTorch's headers (they take long to compile, and they cannot
// share one with Qt's `slots` keyword), built as a shared library that the core opens on first
// use (core/model/torch_plugin_api.h), so that a program that never opens a .pt never loads
// LibTorch.
#include <ATen/Parallel.h>
#include <torch/csrc/jit/runtime/print_handler.h>
#include <torch/script.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "core/util/model_error.h"
#include "core/model/torch_plugin_api.h"

namespace core::model {
namespace {

// Columns per forward call: large enough to keep the network's kernels busy, small enough that
// a batch of 28×28 images stays a few MB.
constexpr int64_t kMaxBatch = 256;

// LibTorch would split each operator across an OpenMP team of its own and run a script's forks
// on its inter-op pool; the engines already run one network call per OpenMP thread of the
// core's loops, and two teams on the same cores fight. Intra-op threads are set per thread, so
// every thread that calls the network sets them once; the inter-op pool once per process,
// before any network runs.
void runOnThisThreadOnly() {
    static std::once_flag interop;
    std::call_once(interop, [] {
        try {
            at::set_num_interop_threads(1);
        } catch (const std::exception&) {
            // Already started by another user of LibTorch in this process: keep its pool.
        }
    });
    thread_local bool set = false;
    if (!set) {
        at::set_num_threads(1);
        set = true;
    }
}

// LibTorch's messages carry a TorchScript traceback; the last line says what went wrong.
std::string oneLine(const char* what) {
    std::string text = what ? what : "";
    std::string last;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const size_t start = line.find_first_not_of(" \t\r");
        if (start != std::string::npos) last = line.substr(start);
    }
    if (last.size() > 300) last = last.substr(0, 297) + "…";
    return last.empty() ? "LibTorch reported an error without a message" : last;
}

// A number as the messages show it: nan, inf, -inf, or %g.
std::string valueText(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

// The contract's name of a prediction type (torch_contract.cpp is not linked into the plugin).
const char* predictionText(TorchPrediction prediction) {
    switch (prediction) {
        case TorchPrediction::Epsilon: return "epsilon";
        case TorchPrediction::Sample: return "sample";
        case TorchPrediction::VPrediction: return "v_prediction";
    }
    return "?";
}

// What a network prints (TorchScript's print) goes to stderr, never to the program's stdout,
// which carries the commands' results (--format json). LibTorch's handler is one process-wide
// pointer (atomic), set once before the first module runs.
void printToStderr(const std::string& text) { std::cerr << text << std::flush; }

void redirectNetworkPrints() {
    static std::once_flag once;
    std::call_once(once, [] { torch::jit::setPrintHandler(&printToStderr); });
}

// Per-position softmax of D×K float logits into doubles, shifted by each row's maximum.
void softmax(const float* logits, int64_t classes, int64_t positions, double* out) {
    for (int64_t p = 0; p < positions; ++p) {
        const float* row = logits + p * classes;
        double* probabilities = out + p * classes;
        double top = row[0];
        for (int64_t k = 1; k < classes; ++k) top = std::max(top, static_cast<double>(row[k]));
        double total = 0.0;
        for (int64_t k = 0; k < classes; ++k) {
            probabilities[k] = std::exp(static_cast<double>(row[k]) - top);
            total += probabilities[k];
        }
        for (int64_t k = 0; k < classes; ++k) probabilities[k] /= total;
    }
}

std::string shapeText(c10::IntArrayRef sizes) {
    std::string s = "[";
    for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
    return s + "]";
}

std::vector<int64_t> batchShape(int64_t batch, const std::vector<int>& shape) {
    std::vector<int64_t> sizes{batch};
    sizes.insert(sizes.end(), shape.begin(), shape.end());
    return sizes;
}

// The forward pass with the contract's arguments; the output must be a floating tensor of
// `expected` sizes. Throws c10::Error (LibTorch) or std::runtime_error (a wrong output).
at::Tensor runForward(torch::jit::Module& module, at::Tensor x, at::Tensor t, int numConditions,
                      const std::vector<int64_t>& expected) {
    std::vector<c10::IValue> inputs{std::move(x), std::move(t)};
    if (numConditions > 0) {
        // A conditional network is asked for its unconditional prediction with the label
        // num_conditions (the "null" class of classifier-free guidance).
        inputs.emplace_back(torch::full({expected[0]}, numConditions, torch::kInt64));
    }
    const c10::IValue output = module.forward(inputs);
    if (!output.isTensor()) {
        throw std::runtime_error("forward returned a " + output.tagKind() + ", not a tensor");
    }
    at::Tensor tensor = output.toTensor();
    if (!tensor.is_floating_point()) {
        throw std::runtime_error(std::string("forward returned a tensor of ") +
                                 c10::toString(tensor.scalar_type()) + ", not floats");
    }
    if (tensor.sizes() != c10::IntArrayRef(expected)) {
        throw std::runtime_error("forward returned shape " + shapeText(tensor.sizes()) +
                                 " where the contract implies " + shapeText(expected));
    }
    return tensor.to(torch::kDouble).contiguous();
}

class TorchGaussianModel final : public GaussianEpsModel {
public:
    TorchGaussianModel(torch::jit::Module module, TorchContract contract, std::string path)
        : m_module(std::move(module)), m_contract(std::move(contract)), m_path(std::move(path)) {}

    int dimension() const override { return m_contract.elements(); }
    std::vector<int> dataShape() const override { return m_contract.shape; }

    void predictEps(const ConstMatrixRef& x, const NoiseLevel& level, MatrixRef eps) const override {
        runOnThisThreadOnly();
        c10::InferenceMode noGradients;
        const int64_t d = dimension();
        const double sqrtAlphaBar = std::sqrt(level.alphaBar);
        const double sqrtBetaBar = std::sqrt(level.betaBar);
        for (int64_t first = 0; first < x.cols(); first += kMaxBatch) {
            const int64_t batch = std::min<int64_t>(kMaxBatch, x.cols() - first);
            const std::vector<int64_t> sizes = batchShape(batch, m_contract.shape);
            at::Tensor input = torch::empty(sizes, torch::kFloat32);
            float* in = input.data_ptr<float>();
            // A column of x is one data point, in the row-major order of its shape.
            for (int64_t j = 0; j < batch; ++j) {
                for (int64_t i = 0; i < d; ++i) in[j * d + i] = static_cast<float>(x(i, first + j));
            }
            at::Tensor out;
            try {
                out = runForward(m_module, input,
                                 torch::full({batch}, level.timestep - 1, torch::kInt64),
                                 m_contract.numConditions, sizes);
            } catch (const c10::Error& e) {
                throw ModelError(m_path + ": the network failed at n = " +
                                 std::to_string(level.timestep) + ": " +
                                 oneLine(e.what_without_backtrace()));
            } catch (const std::exception& e) {  // TorchScript's `raise`, a wrong output
                throw ModelError(m_path + ": the network failed at n = " +
                                 std::to_string(level.timestep) + ": " + oneLine(e.what()));
            }
            const double* o = out.data_ptr<double>();
            // Every output of every call: a NaN or ±inf prediction is the network's failure at
            // this n, never a number in a result.
            for (int64_t k = 0; k < batch * d; ++k) {
                if (!std::isfinite(o[k])) {
                    throw ModelError(m_path + ": the network's prediction (" +
                                     predictionText(m_contract.prediction) + ") at n = " +
                                     std::to_string(level.timestep) + " is not finite: " +
                                     valueText(o[k]) + " (data point " +
                                     std::to_string(first + k / d + 1) + ", element " +
                                     std::to_string(k % d + 1) + ")");
                }
            }
            for (int64_t j = 0; j < batch; ++j) {
                for (int64_t i = 0; i < d; ++i) {
                    const double prediction = o[j * d + i];
                    const double xi = x(i, first + j);
                    double e = prediction;
                    switch (m_contract.prediction) {
                        case TorchPrediction::Epsilon:
                            break;
                        case TorchPrediction::Sample:  // x₀: ε = (x − √ᾱ·x₀)/√β̄
                            e = (xi - sqrtAlphaBar * prediction) / sqrtBetaBar;
                            break;
                        case TorchPrediction::VPrediction:  // v = √ᾱ·ε − √β̄·x₀: ε = √ᾱ·v + √β̄·x
                            e = sqrtAlphaBar * prediction + sqrtBetaBar * xi;
                            break;
                    }
                    if (!std::isfinite(e)) {
                        throw ModelError(m_path + ": the network's ε at n = " +
                                         std::to_string(level.timestep) + " is not finite: " +
                                         valueText(e) + " (from the " +
                                         predictionText(m_contract.prediction) + " " +
                                         valueText(prediction) + ")");
                    }
                    eps(i, first + j) = e;
                }
            }
        }
    }

private:
    mutable torch::jit::Module m_module;  // forward is safe to run from several threads
    TorchContract m_contract;
    std::string m_path;
};

class TorchCategoricalDenoiser final : public CategoricalDenoiser {
public:
    TorchCategoricalDenoiser(torch::jit::Module module, TorchContract contract, std::string path)
        : m_module(std::move(module)), m_contract(std::move(contract)), m_path(std::move(path)) {}

    int numClasses() const override { return m_contract.numClasses; }
    int numPositions() const override { return m_contract.elements(); }
    int numConditions() const override { return std::max(1, m_contract.numConditions); }

    void predict(std::span<const int> xt, int condition, const DenoiserTime& time,
                 std::span<double> out) const override {
        runOnThisThreadOnly();
        c10::InferenceMode noGradients;
        const int64_t positions = numPositions();
        const int64_t classes = numClasses();
        at::Tensor x = torch::empty({1, positions}, torch::kInt64);
        int64_t* in = x.data_ptr<int64_t>();
        for (int64_t p = 0; p < positions; ++p) in[p] = xt[p];
        std::vector<c10::IValue> inputs{x, torch::full({1}, time.t, torch::kFloat32)};
        if (m_contract.numConditions > 0) {
            inputs.emplace_back(torch::full({1}, condition, torch::kInt64));
        }
        at::Tensor logits;
        try {
            const c10::IValue output = m_module.forward(inputs);
            if (!output.isTensor() || !output.toTensor().is_floating_point() ||
                output.toTensor().sizes() != c10::IntArrayRef({1, positions, classes})) {
                throw std::runtime_error("forward did not return float logits [1, D, K]");
            }
            logits = output.toTensor().to(torch::kFloat32).contiguous();
        } catch (const c10::Error& e) {
            throw ModelError(m_path + ": the network failed at t = " + std::to_string(time.t) +
                             ": " + oneLine(e.what_without_backtrace()));
        } catch (const std::exception& e) {
            throw ModelError(m_path + ": the network failed at t = " + std::to_string(time.t) +
                             ": " + oneLine(e.what()));
        }
        // Every logit of every call: NaN or ±inf is the network's failure at this t, never a
        // number in a result (softmax would turn it into NaN or a silently wrong row).
        const float* l = logits.data_ptr<float>();
        for (int64_t k = 0; k < positions * classes; ++k) {
            if (!std::isfinite(l[k])) {
                throw ModelError(m_path + ": the network's logits at t = " + valueText(time.t) +
                                 " are not finite: " + valueText(l[k]) + " (position " +
                                 std::to_string(k / classes + 1) + ", class " +
                                 std::to_string(k % classes) + ")");
            }
        }
        softmax(l, classes, positions, out.data());
    }

private:
    mutable torch::jit::Module m_module;
    TorchContract m_contract;
    std::string m_path;
};

// The number of arguments forward takes besides self, and how many of them have defaults.
std::pair<size_t, size_t> forwardArity(const torch::jit::Module& module) {
    const auto method = module.find_method("forward");
    if (!method) return {0, 0};
    const auto& arguments = method->function().getSchema().arguments();
    size_t defaults = 0;
    for (const auto& argument : arguments) defaults += argument.default_value().has_value();
    return {arguments.empty() ? 0 : arguments.size() - 1, defaults};
}

// The loader's work; throws what LibTorch throws.
void load(std::string_view bytes, const TorchContract& contract, const std::string& path,
          TorchPluginResult& out) {
    runOnThisThreadOnly();
    redirectNetworkPrints();
    std::istringstream stream{std::string(bytes)};
    torch::jit::ExtraFilesMap extra;
    torch::jit::Module module = torch::jit::load(stream, torch::kCPU, extra);
    module.eval();
    if (!module.find_method("forward")) {
        out.error = "the module has no forward method";
        return;
    }
    const auto [arguments, defaults] = forwardArity(module);
    const size_t wanted = contract.numConditions > 0 ? 3 : 2;
    if (arguments < wanted || arguments - defaults > wanted) {
        out.error = "forward takes " + std::to_string(arguments) + " arguments, but num_conditions = " +
                    std::to_string(contract.numConditions) + " means " + std::to_string(wanted) +
                    (wanted == 3 ? " (x, t, y)" : " (x, t)");
        return;
    }
    c10::InferenceMode noGradients;
    for (const auto& parameter : module.named_parameters(/*recurse=*/true)) {
        const auto sizes = parameter.value.sizes();
        out.parameters.emplace_back(parameter.name, std::vector<int64_t>(sizes.begin(), sizes.end()));
    }
    // One forward pass on a batch of two at both ends of the schedule, so a module that does
    // not keep the contract is refused now, with the reason, not in the middle of a job.
    if (contract.process == "gaussian") {
        const std::vector<int64_t> sizes = batchShape(2, contract.shape);
        at::Tensor t = torch::tensor({int64_t{0}, int64_t{contract.numSteps - 1}});
        at::Tensor result = runForward(module, torch::zeros(sizes, torch::kFloat32), t,
                                       contract.numConditions, sizes);
        if (!torch::isfinite(result).all().item<bool>()) {
            out.error = "the network's output on zeros is not finite";
            return;
        }
        out.gaussian = std::make_shared<const TorchGaussianModel>(module, contract, path);
    } else {
        const std::vector<int64_t> sizes{2, contract.elements(), contract.numClasses};
        at::Tensor result = runForward(module, torch::zeros({2, contract.elements()}, torch::kInt64),
                                       torch::tensor({0.5f, 1.0f}), contract.numConditions, sizes);
        if (!torch::isfinite(result).all().item<bool>()) {
            out.error = "the network's logits are not finite";
            return;
        }
        out.categorical = std::make_shared<const TorchCategoricalDenoiser>(module, contract, path);
    }
}

}  // namespace
}  // namespace core::model

extern "C" __attribute__((visibility("default"))) int diffuscope_torch_plugin_abi() {
    return core::model::kTorchPluginAbi;
}

extern "C" __attribute__((visibility("default"))) void diffuscope_torch_plugin_load(
    std::string_view bytes, const core::model::TorchContract& contract, const std::string& path,
    core::model::TorchPluginResult& out) {
    // No exception may cross back into the program: each becomes the result's error.
    try {
        core::model::load(bytes, contract, path, out);
    } catch (const c10::Error& e) {
        out = {};
        out.error = "LibTorch cannot use it: " + core::model::oneLine(e.what_without_backtrace());
    } catch (const std::bad_alloc&) {
        out = {};
        out.error = "LibTorch ran out of memory reading it";
    } catch (const std::exception& e) {
        out = {};
        out.error = std::string("the module does not keep the contract: ") +
                    core::model::oneLine(e.what());
    } catch (...) {
        out = {};
        out.error = "LibTorch failed without a message";
    }
}
