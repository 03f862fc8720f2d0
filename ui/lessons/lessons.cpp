// SPDX-License-Identifier: MIT
#include "ui/lessons/lessons.h"

#include <sys/stat.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <functional>

#include "core/categorical/information.h"
#include "core/io/file_io.h"
#include "core/project/decoding_runs.h"
#include "core/project/lab.h"
#include "core/project/lab_settings.h"
#include "core/project/chain_decoding.h"
#include "core/project/project_file.h"
#include "core/util/parallel.h"
#include "ui/document/bundled_data.h"
#include "ui/document/project_document.h"
#include "ui/document/project_model.h"

namespace ui::lessons {
namespace {

using core::project::CategoricalTrajectory;
using core::project::GaussianTrajectory;
using core::schedule::BetaCurveKind;
using document::Project;
using Categorical = core::project::CategoricalParams;
using Gaussian = core::project::GaussianParams;

// A categorical step: the default example changed by `change`.
Project categorical(const std::function<void(Categorical&)>& change) {
    Project p;
    p.process = document::ProcessKind::Categorical;
    change(p.categorical);
    return p;
}

// The pairs (x1, x2) of lesson 4, K = 3: mostly equal, so a denoiser that predicts each
// position alone loses their correlation in large steps.
constexpr const char* kPairsCsv = "x1,x2,p\n0,0,0.45\n1,1,0.45\n0,1,0.05\n2,2,0.05\n";

}  // namespace

// The pairs as a file (the project format refers to table files): written into the
// application's data folder, so a saved lesson step keeps working. It is the program's own file:
// whatever stands there that is not a regular file of exactly these bytes is replaced. It is
// read only through the core's reader (a FIFO, a device or a link to one is refused by its status
// before anything is opened, and at most 4 kB are read), so start-up neither blocks nor reads
// without end.
std::string pairsFile() {
    const QString folder =
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/lessons";
    const std::string path = (folder + "/pairs.csv").toStdString();
    const core::Result<std::string> existing = core::io::readRegularFile(path, 4096);
    if (existing && *existing == kPairsCsv) {
        return path;
    }
    QDir().mkpath(folder);
    // writeFileAtomically writes through a link (into its target) and refuses a FIFO or a
    // device: anything but a regular file is removed first (a link only, never its target). A
    // folder is left alone; the step's set-up then names the path and why it cannot be read.
    struct stat info {};
    if (::lstat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode)) {
        ::unlink(path.c_str());
    }
    (void)core::io::writeFileAtomically(path, kPairsCsv);
    return path;
}

namespace {

// A categorical step on the pairs, changed by `change`.
Project pairs(const std::function<void(Categorical&)>& change) {
    return categorical([&change](Categorical& c) {
        c = c.withNumClasses(3);
        c.pi = {1.0 / 3, 1.0 / 3, 1.0 / 3};
        c.dataSource = core::project::CategoricalData::CsvFile;
        c.csvPath = pairsFile();
        c.conditionNames = {"all"};
        c.condition = 0;
        change(c);
    });
}

// A Gaussian step: the two moons with their exact oracle (N = 1000, linear β) changed by
// `change`. M = 100 keeps Γ to about a second.
Project gaussian(const std::function<void(Gaussian&)>& change) {
    Project p;
    p.process = document::ProcessKind::Gaussian;
    p.gaussian.gammaSamples = 100;
    change(p.gaussian);
    return p;
}

// The example with the bundled moons network (File ▸ Examples).
Project moonsNetwork() {
    for (const document::Example& example : document::examples()) {
        if (example.project.process == document::ProcessKind::Gaussian &&
            example.project.gaussian.data.starts_with("toy:moons")) {
            return example.project;
        }
    }
    return gaussian([](Gaussian&) {});
}

// The lab's preset of that id applied to the project's Gaussian parameters.
void applyLabPreset(Gaussian& g, const std::string& id) {
    if (const core::project::LabPreset* preset = core::project::findLabPreset(id)) {
        (void)core::project::applyLabPreset(*preset, g);  // a lesson's project has no network
    }
}

// The lessons' texts; a class so that they are translated in the context "Lessons".
class LessonBook {
    Q_DECLARE_TR_FUNCTIONS(Lessons)
public:
    static std::vector<Lesson> build();

private:
    static Lesson forwardProcess();
    static Lesson kernels();
    static Lesson information();
    static Lesson categoricalDp();
    static Lesson optimalVariance();
    static Lesson smallK();
    static Lesson gaussianDp();
    static Lesson masked();
    static Lesson whichTokenFirst();
    static Lesson whichLetterFirst();
};

std::vector<Lesson> LessonBook::build() {
    return {forwardProcess(), kernels(),    information(), categoricalDp(),  optimalVariance(),
            smallK(),         gaussianDp(), masked(),      whichTokenFirst(), whichLetterFirst()};
}

Lesson LessonBook::forwardProcess() {
    return {tr("1. The forward process and π"),
            "categorical.md#forward-process",
            {{tr("Chains forget their class"),
              tr("<p>Each lane is one of K = 4 classes. The dots are chains started from the "
                 "data; at every step a chain keeps its class or, with a probability given by "
                 "the schedule β, redraws it from the prior π. The red outlines are the exact "
                 "marginal q(xₜ), the blue bars the chains' share, so each bar should fill its "
                 "outline.</p>"
                 "<p>Here π is uniform: at t = 1 every class holds a quarter of the chains, "
                 "whatever the data were.</p>"),
              tr("Press Play (Space) and watch the outlines flatten to ¼ each. Drag the time "
                 "slider back and forth: the outlines are exact at every t."),
              "trajectories", categorical([](Categorical& c) {
                  c.pi = {0.25, 0.25, 0.25, 0.25};
              }),
              /*playsForward=*/true},
             {tr("A prior that is not uniform"),
              tr("<p>The same data with π = (0.7, 0.1, 0.1, 0.1): redrawn chains land mostly in "
                 "class 0, so the forward process ends at π, not at the uniform "
                 "distribution. The reverse process must start from π too.</p>"),
              tr("Type π = 0.1, 0.1, 0.1, 0.7 in the panel and play again: the mass now flows "
                 "to class 3. A π that does not sum to 1 is offered a one-click "
                 "normalisation."),
              "trajectories", categorical([](Categorical& c) {
                  c.pi = {0.7, 0.1, 0.1, 0.1};
              }),
              /*playsForward=*/true},
             {tr("The matrix P₀,ₜ"),
              tr("<p>P₀,ₜ = (1 − βₜ)I + βₜ1πᵀ carries x₀ to xₜ in one step. At t = 0 it is the "
                 "identity; at t = 1 every row equals π. Pₛ,ₜ, from an earlier time s, has the "
                 "same form with (1 − βₜ)/(1 − βₛ) in place of 1 − βₜ.</p>"),
              tr("Move the time slider from the start to the end and watch the diagonal fade "
                 "into rows equal to π. Hover a cell to read its value."),
              "matrices", categorical([](Categorical& c) {
                  c.pi = {0.7, 0.1, 0.1, 0.1};
              }),
              // The slider starts at t = 0 (the identity), as the step asks the student to move it.
              /*playsForward=*/true}}};
}

Lesson LessonBook::kernels() {
    return {tr("2. The closed-form and the D3PM-style kernel"),
            "categorical.md#reverse-kernel",
            {{tr("A uniform prior"),
              tr("<p>The reverse kernel q(xₛ | xₜ) turns the denoiser F(x₀ | xₜ) into a step "
                 "back in time. This view runs reverse sampling from π with two kernels and "
                 "the exact denoiser, and shows where each ends next to the data. The closed "
                 "form is the exact posterior averaged over F; the D3PM-style kernel drops a "
                 "division inside that average.</p>"
                 "<p>With a uniform π the closed form lands on the data exactly; the D3PM-style "
                 "kernel misses by up to about 0.1 per class, and more steps do not fix it. The "
                 "status line gives KL(data ‖ each) in nats.</p>"),
              tr("Raise the path steps in the panel from 10 to 50: the D3PM-style kernel's miss "
                 "stays."),
              "kernels", categorical([](Categorical& c) {
                  c.pi = {0.25, 0.25, 0.25, 0.25};
              })},
             {tr("An absorbing prior"),
              tr("<p>With a mask state that takes all of π (masked diffusion) both kernels "
                 "bring the chains back to the data: the D3PM-style kernel is exact only in "
                 "this absorbing case, which is why it serves masked models well.</p>"),
              tr("Compare the two KL values in the status line with those of the previous "
                 "step."),
              "kernels", categorical([](Categorical& c) { c.maskState = true; })}}};
}

Lesson LessonBook::information() {
    return {tr("3. Information and the schedule"),
            "categorical.md#information",
            {{tr("A linear schedule"),
              tr("<p>The mutual information I(X₀;Xₜ) between the data and its noisy version "
                 "starts at the data's entropy and falls to 0. With a linear β(t) most of it is "
                 "gone early: the late steps see almost pure noise.</p>"),
              tr("Read I at t = 0.5 with the time slider. Where is half of the information "
                 "lost?"),
              "schedule", categorical([](Categorical& c) { c.schedule = BetaCurveKind::Linear; })},
             {tr("The cosine schedule"),
              tr("<p>The cosine schedule keeps β small for longer, so the information falls "
                 "later and more evenly: steps are spent where the data still carry "
                 "signal.</p>"),
              tr("Compare the step costs below the schedule with those of the linear "
                 "schedule (the previous step)."),
              "schedule", categorical([](Categorical& c) { c.schedule = BetaCurveKind::Cosine; })},
             {tr("Information-linear"),
              tr("<p>The information-linear schedule is solved from the data so that "
                 "I(X₀;Xₜ) falls on a straight line: every step of the even trajectory then "
                 "removes the same amount of information.</p>"),
              tr("Change the data table (or π): the schedule is solved again and the "
                 "information stays a straight line."),
              "schedule",
              categorical([](Categorical& c) { c.schedule = BetaCurveKind::InformationLinear; })}}};
}

Lesson LessonBook::categoricalDp() {
    return {tr("4. DP-chosen steps (categorical)"),
            "categorical.md#step-costs",
            {{tr("One position: every path costs the same"),
              tr("<p>The curve is J(n − 1, n), the cost in nats of one step of the fine grid; "
                 "a trajectory of a few steps pays J(s, t) for each of its jumps, and their sum is "
                 "the negative ELBO it decides. With one position and the exact denoiser the "
                 "reverse chain is exact, so every trajectory costs the same: H(X₀ | C). The "
                 "status line says so.</p>"),
              tr("Compare the even and the DP value in the status line: they agree to the "
                 "last digit."),
              "step-costs", categorical([](Categorical& c) {
                  c.pathSteps = 10;
                  c.trajectory = CategoricalTrajectory::Dp;
              })},
             {tr("Two positions, even steps"),
              tr("<p>Now the data are pairs (x1, x2) of K = 3 classes that are strongly "
                 "correlated, and the denoiser predicts each position on its own. Large steps "
                 "lose the correlation, so the choice of steps matters. The 10 steps here "
                 "are evenly spaced.</p>"),
              tr("Read the even trajectory's negative ELBO in the status line."), "step-costs",
              pairs([](Categorical& c) { c.pathSteps = 10; })},
             {tr("Two positions, the DP optimum"),
              tr("<p>Dynamic programming over every trajectory of 10 steps finds the one "
                 "with the least cost exactly. Its nodes (the markers) gather where the step "
                 "costs are high.</p>"),
              tr("Compare its negative ELBO with the even one. Lower the steps to 3: the DP's "
                 "advantage grows as the steps become fewer."),
              "step-costs", pairs([](Categorical& c) {
                  c.pathSteps = 10;
                  c.trajectory = CategoricalTrajectory::Dp;
              })}}};
}

Lesson LessonBook::optimalVariance() {
    return {tr("5. Γ and the optimal reverse variance"),
            "gaussian.md#optimal-variance",
            {{tr("Γ of the exact denoiser"),
              tr("<p>For Gaussian diffusion the best reverse variance depends on the model "
                 "only through Γₙ, the mean square of the score per dimension. Here the data "
                 "are the two moons and the model is their exact oracle, so β̄ₙΓₙ ≤ 1 holds "
                 "everywhere.</p>"),
              tr("Raise the samples M in the panel and watch the error bars of Γ shrink."), "gamma",
              gaussian([](Gaussian&) {})},
             {tr("The optimal variance and its bounds"),
              tr("<p>From Γ follows the analytic optimal variance σ*² of each reverse step, "
                 "between its lower and upper bound, next to the two classic choices β̃ "
                 "(DDPM's small variance) and β (the large one).</p>"),
              tr("Switch the trajectory to even with 10 and then 100 steps: the classic "
                 "choices are far from σ*² when the steps are few."),
              "variance", gaussian([](Gaussian&) {})},
             {tr("A trained network"),
              tr("<p>The same quantities for a small trained network instead of the oracle. "
                 "Its Γ is estimated from its own errors; where the network is poor, Γ moves "
                 "and so does the variance it prescribes.</p>"),
              tr("Compare this Γ with the oracle's of the first step of this lesson."), "gamma",
              moonsNetwork()}}};
}

Lesson LessonBook::smallK() {
    return {tr("6. Why β̃ fails with few steps"),
            "gaussian.md#baselines",
            {{tr("Ten steps"),
              tr("<p>Left: DDPM with its small variance β̃; right: Analytic-DDPM, both from "
                 "the same noise in 10 even steps. β̃ is the right variance only when the "
                 "steps are small; with large steps it is far too small, and more of DDPM's "
                 "samples land off the moons.</p>"),
              tr("Play the reverse run (Space) and compare where the points end."), "particles",
              gaussian([](Gaussian& g) {
                  g.trajectory = GaussianTrajectory::Even;
                  g.pathSteps = 10;
                  g.sampler = core::gaussian::SamplerKind::Ddpm;
                  g.compareSampler = core::gaussian::SamplerKind::AnalyticDdpm;
              }),
              /*playsForward=*/false,
              /*particlesZoom=*/2.0},
             {tr("A hundred steps"),
              tr("<p>With 100 steps each step is small, β̃ is close to the optimal variance and "
                 "both samplers reach the moons.</p>"),
              tr("Lower the number of steps one by one and find where DDPM's samples start to go "
                 "wrong."),
              "particles", gaussian([](Gaussian& g) {
                  g.trajectory = GaussianTrajectory::Even;
                  g.pathSteps = 100;
                  g.sampler = core::gaussian::SamplerKind::Ddpm;
                  g.compareSampler = core::gaussian::SamplerKind::AnalyticDdpm;
              }),
              /*playsForward=*/false,
              /*particlesZoom=*/2.0},
             {tr("The likelihood says the same"),
              tr("<p>The lab scores DDPM with β̃, DDPM with β and Analytic-DDPM by their "
                 "likelihood bound (bits per dimension) and sample quality for 5 to 100 "
                 "steps.</p>"),
              tr("Press Run in the view. Which variance wins with 5 steps, and with 100?"), "lab",
              gaussian([](Gaussian& g) { applyLabPreset(g, "ddpm-small-k"); })}}};
}

Lesson LessonBook::gaussianDp() {
    return {
        tr("7. DP and even trajectories (Gaussian)"),
        "gaussian.md#trajectories",
        {{tr("Even timesteps"),
          tr("<p>The heatmap shows the cost J(s, t) of every possible jump from s to t; a "
             "trajectory of 10 steps is a path through it, and its total cost is the "
             "part of the NLL it decides. Here the timesteps are evenly spaced.</p>"),
          tr("Read the total cost ΣJ and the listed timesteps."), "gaussian-trajectory",
          gaussian([](Gaussian& g) {
              g.trajectory = GaussianTrajectory::Even;
              g.pathSteps = 10;
          })},
         {tr("The DP-optimal timesteps"),
          tr("<p>The DP finds the 10 timesteps with the least total cost; it spends "
             "more of them near the data (small n), where the steps are expensive.</p>"),
          tr("Compare ΣJ with the even trajectory's, and copy the timesteps with the "
             "list's Copy button."),
          "gaussian-trajectory", gaussian([](Gaussian& g) {
              g.trajectory = GaussianTrajectory::Dp;
              g.pathSteps = 10;
          })},
         {tr("Across the number of steps"),
          tr("<p>The lab runs even and DP timesteps with the analytic variance from "
             "5 to 100 steps and plots the NLL against the number of steps.</p>"),
          tr("Press Run. Where is the DP's advantage largest?"), "lab", gaussian([](Gaussian& g) {
              g.lab.configs = {{.name = "even", .trajectory = "even"},
                               {.name = "dp", .trajectory = "dp"}};
          })}}};
}

Lesson LessonBook::masked() {
    return {tr("8. Masked diffusion and its ELBO"),
            "categorical.md#masked-diffusion",
            {{tr("A mask state"),
              tr("<p>Masked (absorbing) diffusion adds a class of its own, the mask, and puts "
                 "all of π on it: a chain that is redrawn becomes masked and stays so. The "
                 "reverse process unmasks the chains one by one.</p>"),
              tr("Play the forward run and watch the chains collect in the mask lane."),
              "trajectories", categorical([](Categorical& c) { c.maskState = true; })},
             {tr("The ELBO does not depend on the schedule"),
              tr("<p>With infinitely many steps the negative ELBO of masked diffusion is a "
                 "weighted cross-entropy, and with the exact denoiser it equals the entropy of "
                 "the data whatever the schedule. The data are now the correlated pairs of "
                 "lesson 4 with a linear schedule; the status line gives the continuous-time "
                 "value and the N-step ones, which approach it from above as N grows.</p>"),
              tr("Note the continuous-time value, then go to the next step."), "step-costs",
              pairs([](Categorical& c) {
                  c.maskState = true;
                  c.schedule = BetaCurveKind::Linear;
              })},
             {tr("Another schedule, the same ELBO"),
              tr("<p>The cosine schedule spreads the step costs differently and changes the "
                 "N-step values, but the continuous-time negative ELBO is the same as with the "
                 "linear schedule.</p>"),
              tr("Try the power schedule with different exponents p: the continuous-time value "
                 "does not move."),
              "step-costs", pairs([](Categorical& c) {
                  c.maskState = true;
                  c.schedule = BetaCurveKind::Cosine;
              })}}};
}

// The numbers lesson 9 speaks of, decoded exactly on the pairs with the linear schedule.
struct DecodingNumbers {
    QString mutualInformation;  // I(X₁;X₂) of the table
    QString klAtOneStep;        // ancestral, N = 1: KL(data ‖ output)
    QString klOnePerStep;       // confidence, sampled values, N = 2: KL(data ‖ output)
    QString argmaxEntropy;      // confidence, argmax, N = 2: H(output)
    QString argmaxSequence;     // its one sequence
    QString dataEntropy;        // H(X₁, X₂)
    QString lowConfidenceKl;    // llada:low_confidence, N = 2: KL(data ‖ output)
    QString randomKl;           // llada:random, N = 2: KL(data ‖ output)
};

DecodingNumbers decodingNumbers(const Categorical& params) {
    DecodingNumbers numbers;
    const QString unknown = QStringLiteral("?");
    numbers = {unknown, unknown, unknown, unknown, unknown, unknown, unknown, unknown};
    auto setup = document::buildCategoricalSetup(params);
    if (!setup) return numbers;
    const auto entropy = core::categorical::dataEntropy((*setup)->table, params.condition);
    numbers.mutualInformation = QString::number(entropy.positions - entropy.joint, 'f', 4);
    numbers.dataEntropy = QString::number(entropy.joint, 'f', 4);
    auto run = [&](const char* spec, int steps) -> core::Result<core::categorical::DecodeResult> {
        auto sampler = core::project::parseSamplerSpec(spec);
        if (!sampler) return sampler.error();
        core::project::DecodeRequest request;
        request.sampler = *sampler;
        request.numSteps = steps;
        return core::project::projectDecode(**setup, request, 1);
    };
    auto value = [](const core::categorical::DecodeMeasure& m) {
        return m.value ? QString::number(*m.value, 'f', 4) : QStringLiteral("∞");
    };
    if (auto one = run("order=ancestral;values=sample", 1)) {
        numbers.klAtOneStep = value(one->klDataOutput);
    }
    if (auto ordered = run("order=confidence;values=sample", 2)) {
        numbers.klOnePerStep = value(ordered->klDataOutput);
    }
    if (auto llada = run("preset=llada:low_confidence", 2)) {
        numbers.lowConfidenceKl = value(llada->klDataOutput);
    }
    if (auto random = run("preset=llada:random", 2)) {
        numbers.randomKl = value(random->klDataOutput);
    }
    if (auto argmax = run("order=confidence;values=argmax", 2)) {
        numbers.argmaxEntropy = value(argmax->entropy);
        if (argmax->distribution.size() == 1) {
            QStringList x;
            for (int v : argmax->distribution.front().x) x << QString::number(v);
            numbers.argmaxSequence = "(" + x.join(", ") + ")";
        }
    }
    return numbers;
}

Lesson LessonBook::whichTokenFirst() {
    const auto masked = [](int animated) {
        return pairs([animated](Categorical& c) {
            c.maskState = true;
            c.schedule = BetaCurveKind::Linear;
            c.pathSteps = 2;
            c.decoding.animated = animated;
        });
    };
    const DecodingNumbers n = decodingNumbers(masked(-1).categorical);
    // LLaDA's two orders beside the confidence order, the low-confidence one animated.
    const auto llada = pairs([](Categorical& c) {
        c.maskState = true;
        c.schedule = BetaCurveKind::Linear;
        c.pathSteps = 2;
        c.decoding.configs = {{"llada:random", "", "preset=llada:random"},
                              {"llada:low_confidence", "", "preset=llada:low_confidence"},
                              {"confidence", "", "order=confidence;values=sample"}};
        c.decoding.animated = 1;
    });
    return {tr("9. Which token first? Decoding masked diffusion"),
            "categorical.md#decoding-samplers",
            {{tr("One step loses the correlation"),
              tr("<p>A masked-diffusion decoder starts with both positions of the pairs masked "
                 "and unmasks them over N steps. Positions unmasked in the same step are drawn "
                 "independently from their marginals, so with N = 1 the output is the product of "
                 "the two marginals. Its KL(data ‖ output) is then the mutual information of the "
                 "two positions: %1 nats decoded, %2 nats computed from the table.</p>")
                  .arg(n.klAtOneStep, n.mutualInformation),
              tr("Read KL(data ‖ output) at N = 1 in the Decoding view, then follow each sampler "
                 "as N grows."),
              "decoding", masked(-1)},
             {tr("One token per step reproduces the data"),
              tr("<p>With N = 2 = D steps of the linear schedule the ordered samplers unmask one "
                 "position per step; the second is drawn given the first, so with the exact "
                 "denoiser the output is the data whatever the order: confidence with sampled "
                 "values has KL(data ‖ output) = %1 nats. The Trajectories view now animates that "
                 "sampler: each chain unmasks first the position whose predicted distribution "
                 "is the most confident.</p>")
                  .arg(n.klOnePerStep),
              tr("Play the reverse run and watch which position each chain unmasks first."),
              "trajectories", masked(1)},
             {tr("Argmax collapses to one sequence"),
              tr("<p>The same order with argmax values always decodes the same sequence %1: its "
                 "entropy is %2 nats against the data's %3, and KL(data ‖ output) is infinite "
                 "(a triangle above the chart). A low temperature goes the same way "
                 "gradually.</p>")
                  .arg(n.argmaxSequence, n.argmaxEntropy, n.dataEntropy),
              tr("Add a sampler with values=temperature:0.3 and compare its entropy with the "
                 "sampled and the argmax values."),
              "decoding", masked(2)},
             {tr("LLaDA draws first, then ranks"),
              tr("<p>LLaDA's low-confidence decoding draws a value at every masked position "
                 "first and then keeps the positions whose drawn value the model finds most "
                 "probable. At N = 2 = D, one token per step, its KL(data ‖ output) is %1 nats, "
                 "where LLaDA's random order gives %2 nats and the confidence order above "
                 "reproduces the data: choosing the position after seeing the draw favours the "
                 "values that were likely anyway, and the output loses some of the data's "
                 "variety.</p>")
                  .arg(n.lowConfidenceKl, n.randomKl),
              tr("Compare the two LLaDA rows as N grows, and add llada:low_confidence again "
                 "with temperature=0.5 in its sampler string (Add preset)."),
              "decoding", llada}}};
}

// The numbers lesson 10 quotes, computed as the Decoding view computes them for its project (the
// same request, so the same numbers to the last digit): each sampler at N = D.
struct ChainNumbers {
    QString chainEntropy;      // nats per letter
    QString randomCrossEntropy, randomPairTv;
    QString confidenceCrossEntropy, confidencePairTv;
    QString confidenceText;    // the start of llada:low_confidence's first sequence
    QString length;            // D
};

ChainNumbers chainNumbers(const Categorical& params) {
    const QString unknown = QStringLiteral("?");
    ChainNumbers numbers{unknown, unknown, unknown, unknown, unknown, unknown, unknown};
    const core::project::DecodingChain& given = params.decoding.chain;
    auto chain = document::decodingChain(given.source);
    auto setup = document::buildCategoricalSetup(params);
    if (!chain || !setup) return numbers;
    numbers.length = QString::number(given.length);
    numbers.chainEntropy = QString::number(core::data::chainEntropyPerToken(*chain, given.length), 'f', 3);
    auto run = [&](const char* spec) -> core::Result<core::project::ChainDecodeRun> {
        auto sampler = core::project::parseSamplerSpec(spec);
        if (!sampler) return sampler.error();
        core::project::ChainDecodeRequest request;
        request.sampler = *sampler;
        request.length = given.length;
        request.numSteps = given.length;
        request.samples = given.samples;
        request.seed = params.seed;
        request.trajectories = core::project::kChainShownSequences;
        return core::project::projectDecodeChain(*chain, (*setup)->curve, request, core::defaultThreads());
    };
    auto value = [](const core::categorical::DecodeMeasure& m) {
        return m.value ? QString::number(*m.value, 'f', 3) : QStringLiteral("?");
    };
    if (auto random = run("preset=llada:random")) {
        numbers.randomCrossEntropy = value(random->measures.crossEntropy);
        numbers.randomPairTv = value(random->measures.pairTotalVariation);
    }
    if (auto confidence = run("preset=llada:low_confidence")) {
        numbers.confidenceCrossEntropy = value(confidence->measures.crossEntropy);
        numbers.confidencePairTv = value(confidence->measures.pairTotalVariation);
        if (!confidence->measures.samples.empty()) {
            numbers.confidenceText = QString::fromStdString(confidence->measures.samples.front()).left(48);
        }
    }
    return numbers;
}

Lesson LessonBook::whichLetterFirst() {
    // Example 7 with LLaDA's two orders.
    Project text = *core::project::exampleProject(7);
    text.categorical.decoding.configs = {{"llada:random", "", "preset=llada:random"},
                                         {"llada:low_confidence", "", "preset=llada:low_confidence"}};
    const ChainNumbers n = chainNumbers(text.categorical);
    return {tr("10. Which letter first? Decoding text"),
            "categorical.md#decoding-on-a-markov-chain",
            {{tr("One letter per step reproduces the chain"),
              tr("<p>The Decoding view now decodes sequences of %1 letters of a Markov chain fitted "
                 "on English text. Its denoiser is exact for any mask pattern and every decoded "
                 "sequence has a true likelihood, so what the charts show is the sampler's own "
                 "error. LLaDA's random order with N = %1 unmasks one letter per step, drawn given "
                 "the letters already there: its cross-entropy is %2 nats per letter, the chain's "
                 "own entropy is %3, and its adjacent letters are as close to the chain's as the "
                 "sequences allow (pair TV %4).</p>")
                  .arg(n.length, n.randomCrossEntropy, n.chainEntropy, n.randomPairTv),
              tr("Choose llada:random at N = %1 under Text and commits of, and read its text: it "
                 "looks like English letters, if not like English words.")
                  .arg(n.length),
              "decoding", text},
             {tr("Confidence decoding: likelier text, repeated words"),
              tr("<p>LLaDA's low-confidence decoding unmasks first the positions whose drawn letter "
                 "the denoiser finds most probable. At N = %1 its cross-entropy is %2 nats per "
                 "letter, below the chain's own %3: its text is more likely than the chain's own "
                 "text. It reads \"%4…\": the likeliest letters, repeated, and its adjacent "
                 "letters are far from the chain's (pair TV %5 against %6 for random order). A "
                 "cross-entropy below the dashed line is lost variety, not a better sampler.</p>")
                  .arg(n.length, n.confidenceCrossEntropy, n.chainEntropy, n.confidenceText.toHtmlEscaped(),
                       n.confidencePairTv, n.randomPairTv),
              tr("Choose llada:low_confidence at N = %1 and drag Text after step from 0: which letters "
                 "come first, and where?")
                  .arg(n.length),
              "decoding", text}}};
}

}  // namespace

const std::vector<Lesson>& lessons() {
    static const std::vector<Lesson> all = LessonBook::build();
    return all;
}

}  // namespace ui::lessons
