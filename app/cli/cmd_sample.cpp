// SPDX-License-Identifier: MIT
// The Analytic-DPM subcommand sample (docs/gaussian.md): samples drawn with a reverse sampler
// along a trajectory, written as CSV.
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/gaussian_run.h"
#include "app/cli/output_format.h"
#include "app/cli/sample_quality_json.h"
#include "app/cli/terminal_progress.h"
#include "core/io/csv.h"
#include "core/io/file_io.h"
#include "core/io/json.h"

namespace app::cli {

using core::Result;
using core::project::GaussianParams;
using namespace gaussian_options;

namespace {

// The samples as CSV, one row per sample (x1..xd); with frames, every frame with its timestep.
std::string samplesCsv(const core::gaussian::SampleResult& result, bool frames) {
    std::ostringstream text;
    const int d = static_cast<int>(result.samples.rows());
    if (frames) {
        text << "frame,t,sample";
    }
    for (int i = 0; i < d; ++i) {
        text << (frames || i > 0 ? "," : "") << 'x' << (i + 1);
    }
    text << '\n';
    auto writeMatrix = [&](const core::Matrix& m, int frame, int t) {
        for (Eigen::Index b = 0; b < m.cols(); ++b) {
            if (frames) {
                text << frame << ',' << t << ',' << b;
            }
            for (int i = 0; i < d; ++i) {
                text << (frames || i > 0 ? "," : "") << csvNumber(m(i, b));
            }
            text << '\n';
        }
    };
    if (frames) {
        for (size_t f = 0; f < result.frames.size(); ++f) {
            writeMatrix(result.frames[f], static_cast<int>(f), result.frameSteps[f]);
        }
    } else {
        writeMatrix(result.samples, 0, 0);
    }
    return text.str();
}

// What `sample --format json` prints: the run, and the final samples' quality against the
// held-out data of --data (null with a note when there are none, as for csv: data).
nlohmann::ordered_json sampleJson(const GaussianRun& run,
                                  const core::gaussian::SampleResult& result,
                                  const std::vector<int>& timesteps,
                                  const std::string& out) {
    const core::Matrix& samples = result.samples;
    const long long seed = static_cast<long long>(run.params.seed);
    nlohmann::ordered_json json;
    json["sampler"] = core::project::choiceId(core::project::kSamplers, run.params.sampler);
    json["trajectory"] = timesteps;
    json["steps"] = core::project::planStepsJson(result.plan);  // as `plan` writes them
    json["count"] = samples.cols();
    json["seed"] = seed;
    json["out"] = out;
    const std::string& data = run.params.data;
    if (data.rfind("csv:", 0) == 0) {
        json["quality"] = nullptr;
        json["quality_note"] = "a csv: data set has no held-out split to compare the samples with";
        return json;
    }
    Result<core::evaluation::SampleQuality> quality = core::project::sampleQuality(
        samples, data, run.params.seed, run.sources, {.numThreads = run.threads});
    if (quality) {
        json["quality"] = sampleQualityJson(*quality);
    } else {
        json["quality"] = nullptr;
        json["quality_note"] = quality.error().toString();
    }
    return json;
}

}  // namespace

const CommandSpec& sampleSpec() {
    static const CommandSpec spec{
        "sample",
        "draw samples with a reverse sampler along a trajectory and write them as CSV",
        "",
        {kDigits,
         kData,
         kModel,
         kSchedule,
         kSteps,
         choiceOption("sampler", core::project::kSamplers, "analytic-ddpm",
                      "the reverse sampler; dpm-solver-1 (= ddim with η = 0) and the "
                      "dpm-solver++ are deterministic ODE solvers",
                      "gaussian.sampler"),
         kTrajectory,
         valued("count", "B", "16", "the number of samples"),
         kSeed,
         required("out", "FILE", "the CSV file (columns x1..xd)"),
         valued("eta", "V", "0", "η of the DDIM samplers (the DPM-Solvers ignore it)"),
         kClipFirst,
         valued("variance", "small|large", "small", "the DDPM sampler's variance (β̃ or β)"),
         kGammaSamples,
         flag("frames", "write every step's samples, with columns frame,t,sample"),
         formatOption("csv|json", "csv",
                      "csv: write the file and say so; json: write it and print the run and the "
                      "samples' quality against held-out data of --data"),
         estimatorOption(),
         kThreads,
         kDataRange,
         dpVariantOption(),
         kProject},
        kDataNotes};
    return spec;
}

namespace {

// sample's own options into the run's sampler and η and the request: --sampler, --eta, --count,
// --clip-first, --variance and --frames (a project's sampler, η and particle count are the
// defaults).
Result<core::project::SampleRequest> loadSampleRequest(const Args& args, GaussianRun& run) {
    GaussianParams& params = run.params;
    if (!run.fromProject || args.has("sampler")) {
        auto kind = getChoice(args, "sampler", core::project::kSamplers);
        if (!kind) return kind.error();
        params.sampler = *kind;
    }
    if (core::Status s = loadEta(args, run); !s) return s.error();
    core::project::SampleRequest request;
    Result<int> count =
        run.fromProject ? args.getBounded("count", core::limits::kParticles, params.particleCount)
                        : args.getBounded("count", core::limits::kParticles);
    if (!count) return count.error();
    request.count = *count;
    Result<double> clipFirst = loadClipFirst(args, run);
    if (!clipFirst) return clipFirst.error();
    request.clipFirst = *clipFirst;
    // The analytic variance is a sampler of its own (--sampler analytic-ddpm).
    Result<core::gaussian::ReverseVariance> variance = parseReverseVariance(args.get("variance"));
    if (!variance) return variance.error();
    if (*variance == core::gaussian::ReverseVariance::Analytic) {
        return core::invalidArgument("--variance", "analytic",
                                     "expected small or large: the analytic variance is "
                                     "--sampler analytic-ddpm or analytic-ddim");
    }
    request.ddpmVariance = *variance == core::gaussian::ReverseVariance::Small
                               ? core::gaussian::BaselineVariance::Small
                               : core::gaussian::BaselineVariance::Large;
    request.range = run.range;
    request.frames = args.flag("frames");
    return request;
}

// The samples (and with --frames one copy per step) as doubles and as CSV text must fit.
core::Status checkSamplesFit(const core::project::SampleRequest& request,
                             int dimension,
                             size_t steps) {
    const double copies = request.frames ? steps + 1.0 : 1.0;
    return core::limits::checkMemory("--count", std::to_string(request.count),
                                     "count × d × " +
                                         std::string(request.frames ? "(K + 1) frames × " : "") +
                                         "(8 bytes + 25 characters of text)",
                                     33.0 * request.count * dimension * copies);
}

}  // namespace

int runSample(const Args& args) {
    Result<GaussianRun> run = loadGaussianRun(args, {});
    if (!run) {
        return fail(run.error());
    }
    Result<std::string> out = args.require("out");
    if (!out) {
        return fail(out.error());
    }
    Result<core::project::SampleRequest> request = loadSampleRequest(args, *run);
    if (!request) {
        return fail(request.error());
    }
    const std::string format = args.get("format");
    if (format != "csv" && format != "json") {
        return fail(core::invalidArgument("--format", format, "expected csv or json"));
    }
    const GaussianParams& params = run->params;
    Result<core::project::GaussianSetup> setup = buildGaussianSetup(*run);
    if (!setup) {
        return fail(setup.error());
    }
    std::vector<double> gamma;
    if (core::project::samplerNeedsGamma(params)) {
        Result<std::vector<double>> table = computeGamma(*run, *setup, false);
        if (!table) {
            return fail(table.error());
        }
        gamma = std::move(table).value();
    }
    Result<core::gaussian::ResolvedTrajectory> trajectory = core::project::projectTrajectory(
        params, setup->schedule, gamma, run->threads, nullptr, run->range);
    if (!trajectory) {
        return fail(trajectory.error());
    }
    const std::vector<int>& tau = trajectory->timesteps;
    if (core::Status fits = checkSamplesFit(*request, setup->dimension(), tau.size()); !fits) {
        return fail(fits.error());
    }
    if (core::Status writable = core::io::checkWritablePath(*out); !writable) {
        return fail(writable.error());
    }
    TerminalProgress observer;
    core::Progress progress(&observer, "sample");
    Result<core::gaussian::SampleResult> result =
        core::project::projectSample(params, *setup, gamma, tau, *request, run->threads, &progress);
    if (!result) {
        return fail(result.error());
    }
    if (core::Status s = core::io::writeFileAtomically(*out, samplesCsv(*result, request->frames));
        !s) {
        return fail(s.error());
    }
    if (!trajectory->endsNote.empty()) std::cerr << "note: " << trajectory->endsNote << '\n';
    if (format == "json") {
        printJson(std::cout, sampleJson(*run, *result, tau, *out));
    } else {
        std::cout << "wrote " << request->count << " samples to " << *out << '\n';
    }
    if (!gamma.empty())
        warnGammaOverBound(setup->schedule, gamma);  // after the samples are written
    return 0;
}

}  // namespace app::cli
