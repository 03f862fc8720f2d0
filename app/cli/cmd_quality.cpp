// SPDX-License-Identifier: MIT
// `diffuscope quality`: how close a samples file is to held-out data (docs/gaussian.md,
// "Sample quality").
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "app/cli/output_format.h"
#include "app/cli/sample_quality_json.h"
#include "core/project/setup_sources.h"
#include "core/util/parallel.h"

namespace app::cli {

nlohmann::ordered_json sampleQualityJson(const core::evaluation::SampleQuality& quality) {
    nlohmann::ordered_json json;
    json["measure"] = quality.measure;
    json["value"] = quality.value;
    json["standard_error"] = quality.standardError;  // NaN (frechet) prints as null
    json["num_samples"] = quality.numSamples;
    json["num_reference"] = quality.numReference;
    json["reference"] = quality.reference;
    json["bandwidths"] = quality.bandwidths;
    return json;
}

const CommandSpec& qualitySpec() {
    static const CommandSpec spec{
        "quality",
        "sample quality of a samples file against held-out data (MMD² or Fréchet distance)",
        "",
        {required("samples", "FILE", "samples as `diffuscope sample` writes them (columns x1..xd)"),
         required("data", "D",
                  "the data the samples imitate; its held-out points are the reference"),
         valued("digits", "FILE", "",
                "the digits file for --data digits (default: the bundled copy)"),
         seedOption("0", "the seed of drawn reference points"),
         formatOption("json", "json", "the output format (quality writes json)"), threadsOption()},
        "2-D data: unbiased MMD² with Gaussian kernels and its standard error, against 2000\n"
        "held-out points; the digits: the Fréchet distance of Gaussian fits to the test split.\n"
        "D as for `sample`; csv:FILE has no held-out split and is refused. The formulas are in\n"
        "docs/gaussian.md, the keys in docs/conventions.md.\n"};
    return spec;
}

int runQuality(const Args& args) {
    core::Result<std::string> samplesPath = args.require("samples");
    core::Result<std::string> data = args.require("data");
    core::Result<long long> seed = args.getInt64("seed");
    core::Result<int> threads = threadCount(args);
    if (!samplesPath || !data || !seed || !threads) {
        return fail(!samplesPath ? samplesPath.error()
                    : !data      ? data.error()
                    : !seed      ? seed.error()
                                 : threads.error());
    }
    if (args.get("format") != "json") {
        return fail(core::invalidArgument("--format", args.get("format"), "quality writes json"));
    }
    core::Result<core::Matrix> samples = core::project::readSamplesFile(*samplesPath);
    if (!samples) {
        return fail(samples.error());
    }
    core::Result<core::evaluation::SampleQuality> quality = core::project::sampleQuality(
        *samples, *data, static_cast<uint64_t>(*seed),
        core::project::fileSources(args.get("digits")), {.numThreads = *threads});
    if (!quality) {
        core::Error e = quality.error();
        if (e.field.rfind("samples", 0) == 0)
            e.field = "--samples " + *samplesPath + ": " + e.field;
        return fail(e);
    }
    printJson(std::cout, sampleQualityJson(*quality));
    return 0;
}

}  // namespace app::cli
