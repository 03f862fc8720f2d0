// SPDX-License-Identifier: MIT
// `diffuscope lab`: the schedule lab (docs/gaussian.md, "Schedule lab") on a project's Gaussian
// set-up, with JSON or CSV output.
#include <iostream>
#include <sstream>

#include "app/cli/commands.h"
#include "app/cli/output_format.h"
#include "app/cli/terminal_progress.h"
#include "core/io/file_io.h"
#include "core/io/reader_text.h"
#include "core/project/lab.h"
#include "core/project/project_file.h"
#include "core/util/parallel.h"

namespace app::cli {
namespace {

std::string presetList() {
    std::string ids;
    for (const auto& p : core::project::labPresets()) ids += (ids.empty() ? "" : ", ") + p.id;
    return ids;
}

// The lab's settings: --preset's and --config's configurations (else the project's), --k,
// --quality-samples and --nll-points over the preset's and project's values. A preset with a
// schedule sets the project's.
core::Result<core::project::LabSettings> labSettings(const Args& args,
                                                     core::project::GaussianParams& params) {
    core::project::LabSettings settings = params.lab;
    std::vector<core::project::LabConfig> configs;
    if (args.has("preset")) {
        const core::project::LabPreset* preset = core::project::findLabPreset(args.get("preset"));
        if (preset == nullptr) {
            return core::invalidArgument("--preset", args.get("preset"),
                                         "expected one of " + presetList());
        }
        core::project::GaussianParams withPreset = params;
        if (core::Status s = core::project::applyLabPreset(*preset, withPreset); !s) {
            core::Error e = s.error();
            e.field = "--preset";
            return e;
        }
        params.schedule = withPreset.schedule;
        configs = withPreset.lab.configs;
        settings.ks = withPreset.lab.ks;
    }
    for (const std::string& text : args.getAll("config")) {
        auto config = core::project::parseLabConfig(text);
        if (!config) {
            core::Error e = config.error();
            // The spec as given, cut short: a 100 000-character name stays one short line.
            e.message = "--config " + core::io::printable(text, 80) + ": " + e.message;
            return e;
        }
        configs.push_back(*config);
    }
    if (!configs.empty()) settings.configs = configs;
    if (settings.configs.empty()) {
        return core::invalidArgument("--config", "none",
                                     "the project has no lab configurations: give --config SPEC "
                                     "(or --preset ID)");
    }
    if (args.has("k")) {
        auto ks = parseIntList(args.get("k"), "--k");
        if (!ks) return ks.error();
        settings.ks = *ks;
    }
    if (args.has("quality-samples")) {
        auto b = args.getInt("quality-samples");
        if (!b) return b.error();
        settings.qualitySamples = *b;
    }
    if (args.has("nll-points")) {
        auto p = args.getInt("nll-points");
        if (!p) return p.error();
        settings.nllPoints = *p;
    }
    return settings;
}

// The option a settings error is about, when it came from one.
core::Error optionError(core::Error e) {
    if (e.field == "lab.ks") e.field = "--k";
    if (e.field == "lab.qualitySamples") e.field = "--quality-samples";
    if (e.field == "lab.nllPoints") e.field = "--nll-points";
    return e;
}

}  // namespace

const CommandSpec& labSpec() {
    static const CommandSpec spec{
        "lab",
        "compare schedules, spacings, variances and samplers against K (the schedule lab)",
        "",
        {required("project", "FILE",
                  "the project: its Gaussian set-up (data, model, N, Γ's M, seed)"),
         repeated("config", "SPEC", "a configuration, see below; default: the project's lab"),
         valued("preset", "ID", "", "a preset's configurations (listed below), before --config's"),
         valued("k", "K1,K2,…", "", "the K of the sweep, increasing (default: the project's lab)"),
         valued("quality-samples", "B", "",
                "samples per configuration and K for the quality, 0 for none (default 1000)"),
         valued("nll-points", "P", "", "data points of the NLL (default 1000)"),
         formatOption("json|csv", "json", "the output"),
         valued("out", "FILE", "", "write there (atomically) instead of stdout"), threadsOption()},
        "SPEC: name=…;schedule=…;trajectory=…;variance=…;sampler=… (';'-separated, each key\n"
        "optional). schedule: empty for the project's, ,zero-snr for the project's with zero\n"
        "terminal SNR, or linear|cosine|scaled-linear|sigmoid|csv:FILE[,zero-snr]. trajectory\n"
        "(default even): even, quadratic, dp, linspace, leading[,offset=O], trailing, logsnr,\n"
        "karras[,rho=R]. variance (default analytic): small (β̃), large (β), analytic.\n"
        "sampler (default analytic-ddpm): analytic-ddpm, analytic-ddim, ddpm, ddim,\n"
        "dpm-solver-1, dpm-solver++2m, dpm-solver++3m. Every run is compared with the DP\n"
        "optimum (dp:K, analytic variance, analytic-ddpm, the project's schedule).\n"
        "Presets: leading-without-zero-snr, ddpm-small-k, karras-on-linear.\n"
        "Output keys and CSV columns: docs/conventions.md.\n"};
    return spec;
}

int runLab(const Args& args) {
    core::Result<std::string> path = args.require("project");
    if (!path) return fail(path.error());
    const std::string format = args.get("format");
    if (format != "json" && format != "csv") {
        return fail(core::invalidArgument("--format", format, "expected json or csv"));
    }
    core::Result<int> threads = threadCount(args);
    if (!threads) return fail(threads.error());
    if (args.has("out")) {
        if (core::Status s = core::io::checkWritablePath(args.get("out")); !s)
            return fail(s.error());
    }
    auto project = core::project::readProjectFile(*path);
    if (!project) return fail(project.error());
    core::project::GaussianParams params = project->gaussian;
    auto settings = labSettings(args, params);
    if (!settings) return fail(settings.error());

    TerminalProgress observer;
    core::Progress progress(&observer, "lab");
    auto result = core::project::runLab(params, *settings, core::project::fileSources(),
                                        {.numThreads = *threads}, &progress);
    if (!result) return fail(optionError(result.error()));
    std::string text;
    if (format == "csv") {
        text = core::project::labToCsv(*result);
    } else {
        std::ostringstream out;
        printJson(out, core::project::labToJson(*result));
        text = out.str();
    }
    if (args.has("out")) {
        if (core::Status s = core::io::writeFileAtomically(args.get("out"), text); !s) {
            return fail(s.error());
        }
        std::cout << "wrote " << args.get("out") << '\n';
    } else {
        std::cout << text;
    }
    return 0;
}

}  // namespace app::cli
