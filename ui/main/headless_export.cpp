// SPDX-License-Identifier: MIT
#include "ui/main/headless_export.h"

#include <QDir>
#include <QFileInfo>
#include <cmath>
#include <iostream>
#include <memory>

#include "core/project/gaussian_setup.h"
#include "ui/animation/animation_export.h"
#include "ui/animation/chains_view.h"
#include "ui/charts/chart_export.h"
#include "ui/document/project_document.h"
#include "ui/document/project_model.h"
#include "ui/main/categorical_explorer.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/views/gaussian_trajectory_view.h"

namespace ui {
namespace {

int fail(const QString& message) {
    std::cerr << "diffuscope: " << message.toStdString() << '\n';
    return 2;
}

bool isAnimation(const QString& view) {
    return view == "animation" || view == "particles-animation";
}

// Exports one view to `path` by its extension (png, svg, pdf, csv).
QString exportView(charts::ViewPanel* panel,
                   const QString& path,
                   const charts::ExportOptions& options) {
    if (charts::chartFormat(path) == "csv") {
        return panel->exportCsv(path);
    }
    return charts::exportWidget(panel, path, options);
}

// --out names a file of a format the view can write, checked before any work: the file written
// is always the one named (no extension of its own is added).
QString checkOutput(const HeadlessExportRequest& request) {
    if (request.view == "all") {
        // A folder, written whole or not at all; a name like a file's is a mistake, not a
        // folder to create (export --view all --out all.png made a folder called all.png).
        const QFileInfo info(request.out);
        if (info.exists() && !info.isDir()) {
            return QString("--out = %1: --view all writes a folder of figures, and this is a file")
                .arg(request.out);
        }
        if (!info.exists() && (!charts::chartFormat(request.out).isEmpty() ||
                               !animation::animationFormat(request.out).isEmpty() ||
                               request.out.endsWith(".json", Qt::CaseInsensitive))) {
            return QString(
                       "--out = %1: --view all writes a folder of figures (one file per view "
                       "and format); name a folder, not a .%2 file")
                .arg(request.out, info.suffix());
        }
        return {};
    }
    if (isAnimation(request.view)) {
        if (animation::animationFormat(request.out).isEmpty()) {
            return QString(
                       "--out = %1: an animation writes .gif or .png (a PNG frame sequence "
                       "NAME_0000.png, NAME_0001.png, …)")
                .arg(request.out);
        }
        return {};
    }
    if (charts::chartFormat(request.out).isEmpty()) {
        return QString("--out = %1: a chart view writes .png, .svg, .pdf or .csv").arg(request.out);
    }
    return {};
}

// Opens --project or loads --example into the document; the reason when neither works.
QString loadRequestedProject(document::ProjectDocument& document,
                             const HeadlessExportRequest& request) {
    if (!request.project.isEmpty() && !request.example.isEmpty()) {
        return "export: give --project or --example, not both";
    }
    if (!request.project.isEmpty()) {
        if (auto status = document.open(request.project); !status) {
            return QString::fromStdString(status.error().toString());
        }
    }
    if (!request.example.isEmpty()) {
        // File ▸ Examples, numbered from 1 in menu order.
        const auto examples = document::examples();
        bool ok = false;
        const int index = request.example.toInt(&ok);
        if (!ok || index < 1 || index > static_cast<int>(examples.size())) {
            return QString("--example: '%1' is not 1..%2 (the File ▸ Examples entries)")
                .arg(request.example)
                .arg(examples.size());
        }
        document.loadExample(examples[static_cast<size_t>(index - 1)].project);
    }
    return {};
}

// Writes the requested view (or all of them, or the animation) to request.out; the first
// error, empty when everything was written. `wrote` says what was written.
QString writeRequestedViews(const HeadlessExportRequest& request,
                            CategoricalExplorer& explorer,
                            GaussianExplorer* gaussian,
                            const std::vector<std::pair<QString, charts::ViewPanel*>>& allViews,
                            const charts::ExportOptions& exportOptions,
                            QString* wrote) {
    const QString& out = request.out;
    const QString& view = request.view;
    *wrote = out;
    if (isAnimation(view)) {
        const animation::AnimationSource source =
            view == "animation" ? animation::chainsAnimation(explorer.chainsView())
                                : animation::particlesAnimation(gaussian->particlesView());
        animation::AnimationExportOptions animationOptions;
        animationOptions.size = exportOptions.size;
        animationOptions.fps = request.fps;
        animationOptions.holdLastMs = static_cast<int>(std::lround(request.holdSeconds * 1000.0));
        if (animation::animationFormat(out) == "gif") {
            return animation::exportAnimationGif(source, out, animationOptions);
        }
        const QString prefix = out.chopped(4);
        const animation::AnimationLength length =
            animation::animationLength(source, animationOptions);
        *wrote =
            QString("%1 … %2 (%3 frames)")
                .arg(animation::animationFrameName(prefix, 0),
                     animation::animationFrameName(prefix, length.frames + length.heldFrames - 1))
                .arg(length.frames + length.heldFrames);
        return animation::exportAnimationFrames(source, prefix, animationOptions);
    }
    if (view == "all") {
        // Every file or none: a failure half-way (a full disk) leaves the folder as it was.
        return charts::exportViewsToFolder(out, allViews, {"png", "svg", "pdf", "csv"},
                                           exportOptions);
    }
    QStringList names;
    for (const auto& [name, candidate] : allViews) {
        if (name == view) {
            return exportView(candidate, out, exportOptions);
        }
        names << name;
    }
    return QString(
               "--view = %1: unknown view (one of %2, particles, gamma, variance, "
               "gaussian-trajectory, compare, lab, animation, particles-animation, all)")
        .arg(view, names.join(", "));
}

}  // namespace

int runHeadlessExport(const HeadlessExportRequest& request) {
    if (const QString error = checkOutput(request); !error.isEmpty()) {
        return fail(error);
    }
    charts::ExportOptions exportOptions;
    exportOptions.size = request.size;
    exportOptions.typedSize = request.typedSize;
    exportOptions.dpi = request.dpi;
    exportOptions.fontScale = request.fontScale;

    document::ProjectDocument document;
    if (const QString error = loadRequestedProject(document, request); !error.isEmpty()) {
        return fail(error);
    }
    // The whole project is checked before anything is written: a set-up that fails, a model
    // that would be replaced by the exact oracle, or a job that fails ends the export with the
    // reason, instead of some files being written and others not, or wrong figures.
    if (auto setup = document::buildCategoricalSetup(document.categorical()); !setup) {
        return fail(QString::fromStdString(setup.error().toString()));
    } else if (!(*setup)->modelError.empty()) {
        return fail("model: " + document::qs((*setup)->modelError));
    }
    QStringList problems;
    const auto collect = [&problems](const QString& message, bool isError) {
        if (isError) {
            problems << message;
        }
    };
    CategoricalExplorer explorer(&document);
    QObject::connect(&explorer, &CategoricalExplorer::jobMessage, collect);
    const QString& view = request.view;
    // The Gaussian views estimate Γ (seconds): only when one of them is asked for.
    std::unique_ptr<GaussianExplorer> gaussian;
    if (view == "all" || view == "particles" || view == "gamma" || view == "variance" ||
        view == "gaussian-trajectory" || view == "compare" || view == "lab" ||
        view == "particles-animation") {
        // Its model is checked first too, so a bad one is refused before Γ is estimated.
        if (auto setup = core::project::GaussianSetup::build(document.gaussian(),
                                                             document::appSources(), false);
            !setup) {
            return fail(QString::fromStdString(setup.error().toString()));
        } else if (!setup->modelError.empty()) {
            return fail("Gaussian model: " + document::qs(setup->modelError));
        }
        gaussian = std::make_unique<GaussianExplorer>(&document);
        QObject::connect(gaussian.get(), &GaussianExplorer::jobMessage, collect);
        gaussian->waitForJobs();
        // The lab runs when asked for, or with "all" when the project has configurations.
        const bool hasLab = !document.gaussian().lab.configs.empty();
        if (view == "lab" && !hasLab) {
            return fail(
                "--view = lab: the project has no lab configurations (add them in the "
                "Lab view, or run `diffuscope lab`)");
        }
        if (hasLab) {
            gaussian->runLab();
            gaussian->waitForJobs();
        }
    }
    if (view == "decoding" && !document.categorical().maskState) {
        return fail(
            "--view = decoding: the project has no mask state (decoding samplers need "
            "π = masked:K)");
    }
    explorer.waitForJobs();
    if (!problems.isEmpty()) {
        return fail(problems.front() + " (nothing was written)");
    }
    explorer.setPosition(static_cast<double>(explorer.trajectory().size() - 1));
    auto allViews = explorer.views();
    // The Decoding view is empty without a mask state: "all" leaves it out.
    if (!document.categorical().maskState) {
        std::erase_if(allViews, [](const auto& entry) { return entry.first == "decoding"; });
    }
    if (gaussian) {
        for (auto& entry : gaussian->views()) {
            if (entry.first == "lab" && document.gaussian().lab.configs.empty()) continue;
            allViews.push_back(entry);
        }
    }

    QString wrote;
    if (const QString error =
            writeRequestedViews(request, explorer, gaussian.get(), allViews, exportOptions, &wrote);
        !error.isEmpty()) {
        return fail(error);
    }
    std::cout << "wrote " << wrote.toStdString() << '\n';
    // The Trajectory view's NLL chart is a job of its own that export does not run: say that the
    // figure leaves it out rather than let it pass for complete.
    if (gaussian && (view == "gaussian-trajectory" || view == "all") &&
        !gaussian->trajectoryView()->hasNllCurves()) {
        std::cerr << "note: the Trajectory view's negative ELBO against the number of steps is "
                     "computed in the GUI only (Compute NLL vs steps); the figure leaves it out\n";
    }
    return 0;
}

}  // namespace ui
