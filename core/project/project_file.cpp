// SPDX-License-Identifier: MIT
#include "core/project/project_file.h"

#include <cmath>
#include <filesystem>

#include "core/data/bundled_files.h"
#include "core/io/file_io.h"
#include "core/io/reader_text.h"
#include "core/project/chain_decoding.h"
#include "core/schedule/diffusers_config.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/limits.h"

namespace core::project {
namespace {

namespace fs = std::filesystem;

// Bundled models ("bundled:<file>", or a Qt resource path ':/…') are never relative.
bool isRelocatable(const std::string& file, const std::string& projectPath) {
    return !file.empty() && !projectPath.empty() && file[0] != ':' && !data::isBundledName(file);
}

// A file path as the project file stores it: relative to the project's folder when the file
// lies in it or below (so a folder of project + models can be moved), else unchanged.
std::string storedPath(const std::string& file, const std::string& projectPath) {
    if (!isRelocatable(file, projectPath) || fs::path(file).is_relative()) {
        return file;
    }
    const fs::path folder = fs::absolute(fs::path(projectPath)).parent_path().lexically_normal();
    const fs::path relative = fs::path(file).lexically_normal().lexically_relative(folder);
    if (relative.empty() || *relative.begin() == "..") {
        return file;
    }
    return relative.string();
}

// The inverse: relative paths are relative to the project's folder.
std::string resolvedPath(const std::string& stored, const std::string& projectPath) {
    if (!isRelocatable(stored, projectPath) || fs::path(stored).is_absolute()) {
        return stored;
    }
    const fs::path folder = fs::absolute(fs::path(projectPath)).parent_path();
    return (folder / stored).lexically_normal().string();
}

// Applies `map` to every file path a project holds.
template <typename Map>
void mapPaths(Project& project, Map map) {
    project.categorical.model = map(project.categorical.model);
    project.categorical.csvPath = map(project.categorical.csvPath);
    std::string& chain = project.categorical.decoding.chain.source;
    if (chain != kBundledChain) chain = map(chain);
    project.gaussian.model = map(project.gaussian.model);
    const schedule::ScheduleSpecParts parts = schedule::splitScheduleSpec(project.gaussian.schedule);
    for (const std::string prefix : {"csv:", schedule::kDiffusersPrefix}) {
        if (parts.base.rfind(prefix, 0) == 0) {
            project.gaussian.schedule = prefix + map(parts.base.substr(prefix.size())) +
                                        (parts.zeroSnr ? schedule::kZeroSnrSuffix : "");
            break;
        }
    }
}

io::Json gammaCacheToJson(const GammaCache& cache) {
    return {{"key", cache.key},
            {"timesteps", cache.estimate.timesteps},
            {"gamma", cache.estimate.gamma},
            {"standardError", cache.estimate.standardError},
            {"msEps", cache.estimate.msEps},
            {"numSamples", cache.estimate.numSamples},
            {"dataVariance", cache.dataVariance}};
}

double numberOr(const io::Json& v, double fallback) {
    return v.is_number() ? v.get<double>() : fallback;
}

// A damaged cache is dropped (Γ is then estimated again), never an error: it is derived data.
GammaCache gammaCacheFromJson(const io::Json& o) {
    static const io::Json kEmpty = io::Json::array();
    auto array = [&o](const char* key) -> const io::Json& {
        return o.contains(key) && o[key].is_array() ? o[key] : kEmpty;
    };
    const io::Json& timesteps = array("timesteps");
    const io::Json& gamma = array("gamma");
    const io::Json& se = array("standardError");
    const io::Json& msEps = array("msEps");
    if (timesteps.empty() || gamma.size() != timesteps.size() || se.size() != timesteps.size() ||
        msEps.size() != timesteps.size()) {
        return {};
    }
    GammaCache cache;
    int previous = 0;
    for (size_t i = 0; i < timesteps.size(); ++i) {
        const double n = numberOr(timesteps[i], -1);
        const double g = numberOr(gamma[i], -1);
        const double e = numberOr(se[i], -1);
        if (n <= previous || n != std::floor(n) || n > limits::kSteps.max || !(g >= 0) ||
            !std::isfinite(g) || !(e >= 0) || !std::isfinite(e)) {
            return {};
        }
        previous = static_cast<int>(n);
        cache.estimate.timesteps.push_back(previous);
        cache.estimate.gamma.push_back(g);
        cache.estimate.standardError.push_back(e);
        cache.estimate.msEps.push_back(numberOr(msEps[i], 0.0));
    }
    const double samples = o.contains("numSamples") ? numberOr(o["numSamples"], 0) : 0;
    cache.estimate.numSamples = std::abs(samples) < 1e9 ? static_cast<int>(samples) : 0;
    cache.dataVariance = o.contains("dataVariance") ? numberOr(o["dataVariance"], 0.0) : 0.0;
    cache.key = o.contains("key") && o["key"].is_string() ? o["key"].get<std::string>() : "";
    return cache;
}

// The header: the format name and a version this program reads.
Status checkHeader(const io::JsonFields& root, const std::string& where) {
    const io::Json* format = root.raw("format");
    if (format == nullptr || !format->is_string() ||
        format->get<std::string>() != "diffuscope-project") {
        return makeError(ErrorCode::ParseError, where, "", "not a Diffuscope project file");
    }
    const io::Json* version = root.raw("formatVersion");
    if (version == nullptr) {
        return makeError(ErrorCode::ParseError, where + ": formatVersion", "",
                         "the format version is missing");
    }
    const double number = version->is_number() ? version->get<double>() : -1.0;
    if (number < 1 || number != std::floor(number)) {
        return makeError(ErrorCode::ParseError, where + ": formatVersion",
                         io::jsonValueText(*version),
                         "must be a whole number from 1 to " +
                             std::to_string(kProjectFormatVersion));
    }
    if (number > kProjectFormatVersion) {
        return makeError(ErrorCode::Unsupported, where + ": formatVersion", shortestText(number),
                         "the file was written by a newer Diffuscope (this one reads version " +
                             std::to_string(kProjectFormatVersion) + ")");
    }
    return {};
}

Error located(Error error, const std::string& where) {
    error.field = where + ": " + error.field;
    return error;
}

// The reader proper; projectFromJson makes its errors safe to print.
Result<Project> readProject(const std::string& bytes, const std::string& where) {
    auto json = io::parseJsonStrict(bytes, where);
    if (!json) {
        Error error = json.error();
        if (error.message.rfind("not valid JSON", 0) == 0) {
            error.message = "not a valid project file" + error.message.substr(14);
        }
        return error;
    }
    if (!json->is_object()) {
        return makeError(ErrorCode::ParseError, where, "", "not a Diffuscope project file");
    }
    const io::JsonFields root(*json, "");
    if (auto header = checkHeader(root, where); !header) return header.error();
    Project project;
    const io::Json* process = root.raw("process");
    const std::string name = process != nullptr && process->is_string() ? process->get<std::string>() : "";
    if (name == "categorical") {
        project.process = ProcessKind::Categorical;
    } else if (name == "gaussian") {
        project.process = ProcessKind::Gaussian;
    } else {
        return makeError(ErrorCode::ParseError, where + ": process",
                         process == nullptr ? "missing"
                         : process->is_string() ? name
                                                : io::jsonValueText(*process),
                         "expected categorical or gaussian");
    }
    static const io::Json kEmpty = io::Json::object();
    const io::Json* categorical = root.raw("categorical");
    auto categoricalParams = CategoricalParams::fromJson(categorical ? *categorical : kEmpty);
    if (!categoricalParams) return located(categoricalParams.error(), where);
    project.categorical = *categoricalParams;
    const io::Json* gaussian = root.raw("gaussian");
    if (gaussian != nullptr && !gaussian->is_object()) {
        return makeError(ErrorCode::ParseError, where + ": gaussian", io::jsonValueText(*gaussian),
                         "an object is expected");
    }
    auto gaussianParams = GaussianParams::fromJson(gaussian ? *gaussian : kEmpty);
    if (!gaussianParams) return located(gaussianParams.error(), where);
    project.gaussian = *gaussianParams;
    if (const io::Json* cache = root.raw("gammaCache"); cache != nullptr && cache->is_object()) {
        project.gammaCache = gammaCacheFromJson(*cache);
    }
    // Older versions stored the GUI's bundled networks by their resource paths (":/models/…").
    project.categorical.model = data::portableModelPath(project.categorical.model);
    project.gaussian.model = data::portableModelPath(project.gaussian.model);
    mapPaths(project, [&where](const std::string& p) { return resolvedPath(p, where); });
    {
        // A cache for these settings is used as it is, in place of an estimate of Γ at every
        // timestep 1..N: one that does not cover them would fail every export, so it is refused
        // here, naming it (a cache for other settings is never used and stays as it is).
        const GammaCache& c = project.gammaCache;
        const int n = project.gaussian.numSteps;
        bool covers = static_cast<int>(c.estimate.timesteps.size()) == n;
        for (size_t i = 0; covers && i < c.estimate.timesteps.size(); ++i) {
            covers = c.estimate.timesteps[i] == static_cast<int>(i) + 1;
        }
        if (c.key == project.gaussian.gammaKey() && !covers) {
            return makeError(ErrorCode::ParseError, where + ": gammaCache.timesteps",
                             std::to_string(c.estimate.timesteps.size()) + " entries",
                             "the saved Γ of these settings must cover every timestep 1..N = " +
                                 std::to_string(n) +
                                 "; delete \"gammaCache\" to estimate Γ again");
        }
    }
    return project;
}

}  // namespace

std::string projectToJson(const Project& original, const std::string& path) {
    Project project = original;
    mapPaths(project, [&path](const std::string& p) { return storedPath(p, path); });
    io::Json root;
    root["format"] = "diffuscope-project";
    root["formatVersion"] = kProjectFormatVersion;
    root["process"] = project.process == ProcessKind::Categorical ? "categorical" : "gaussian";
    root["categorical"] = project.categorical.toJson();
    root["gaussian"] = project.gaussian.toJson();
    if (!project.gammaCache.key.empty()) {
        root["gammaCache"] = gammaCacheToJson(project.gammaCache);
    }
    return io::dumpJson(root);
}

Result<Project> projectFromJson(const std::string& bytes, const std::string& path) {
    auto project = readProject(bytes, path);
    if (!project) {
        // A value from the file (a name with a newline, say) must not break the one-line
        // message; the path is the user's own and stays as it is.
        Error error = project.error();
        error.value = io::printable(error.value);
        error.message = io::printable(error.message, 400);
        if (error.field.rfind(path, 0) == 0) {
            error.field = path + io::printable(error.field.substr(path.size()), 200);
        } else {
            error.field = io::printable(error.field, 200);
        }
        return error;
    }
    return project;
}

Result<Project> readProjectFile(const std::string& path) {
    auto bytes = io::readRegularFile(path, kMaxProjectFileBytes);
    if (!bytes) {
        return bytes.error();
    }
    return projectFromJson(*bytes, path);
}

const char* exampleTitle(int number) {
    switch (number) {
        case 1: return "Categorical: a two-condition table (K = 4 classes)";
        case 2: return "Categorical: 8×8 digits (L = 4) with the trained network";
        case 3: return "Gaussian: two moons with the trained network";
        case 4: return "Gaussian: 8×8 digits with the trained network";
        case 5: return "Gaussian: 8×8 digits with a convolutional U-Net (PyTorch)";
        case 6: return "Masked diffusion: 8×8 digits, which pixel first? (trained network)";
        case 7: return "Masked diffusion on text: which letter first?";
        default: return "";
    }
}

Result<Project> exampleProject(int number) {
    if (number < 1 || number > kNumExamples) {
        return invalidArgument("example", std::to_string(number),
                               "the examples are numbered 1 to " + std::to_string(kNumExamples));
    }
    Project p;
    const char* model = number == 2   ? "digits-categorical-l4.safetensors"
                        : number == 3 ? "moons-gaussian.safetensors"
                        : number == 4 ? "digits-gaussian.safetensors"
                        : number == 5 ? "digits-unet.pt"
                        : number == 6 ? "digits-masked-l4.safetensors"
                                      : nullptr;
    const std::string modelPath = model != nullptr ? data::bundledModelName(model) : "";
    if (number == 2) {
        p.categorical = CategoricalParams::example().withDigits(4);
        p.categorical.pi.assign(4, 0.25);  // what the bundled network was trained with
        p.categorical.schedule = schedule::BetaCurveKind::Cosine;
        p.categorical.numSteps = 50;
        p.categorical.pathSteps = 50;
        p.categorical.condition = 3;
        p.categorical.model = modelPath;
    } else if (number == 6) {
        // What the bundled masked network was trained with: 4 levels, the mask state, linear β.
        p.categorical = CategoricalParams::example().withDigits(4);
        p.categorical.maskState = true;
        p.categorical.schedule = schedule::BetaCurveKind::Linear;
        p.categorical.numSteps = 64;  // one pixel per step for the ordered samplers
        p.categorical.pathSteps = 64;
        p.categorical.condition = 3;
        p.categorical.model = modelPath;
        p.categorical.decoding.animated = 1;  // confidence with sampled values: pixels by confidence
    } else if (number == 7) {
        // Sequences of 128 letters from the bundled English chain, decoded by the reference
        // codes' samplers with the chain's exact denoiser; N = 128 is one letter per step.
        p.categorical.maskState = true;
        p.categorical.schedule = schedule::BetaCurveKind::Linear;
        p.categorical.decoding.chain = {kBundledChain, 128, 200};
        p.categorical.decoding.configs = {{"llada:random", "", "preset=llada:random"},
                                          {"llada:low_confidence", "", "preset=llada:low_confidence"},
                                          {"dream:entropy", "", "preset=dream:entropy"},
                                          {"fast-dllm:0.9", "", "preset=fast-dllm:0.9"}};
    } else if (number == 3) {
        p.process = ProcessKind::Gaussian;
        p.gaussian.data = "toy:moons,n=4000";  // the network's training points
        p.gaussian.model = modelPath;
        p.gaussian.gammaSamples = 50;
    } else if (number == 4 || number == 5) {
        // The same data and settings for the MLP and the U-Net, so the two can be compared.
        p.process = ProcessKind::Gaussian;
        p.gaussian.data = "digits";
        p.gaussian.model = modelPath;
        p.gaussian.gammaSamples = 20;
        p.gaussian.pathSteps = 25;
        p.gaussian.particleCount = 36;
    }
    return p;
}

}  // namespace core::project
