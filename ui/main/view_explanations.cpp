// SPDX-License-Identifier: MIT
#include "ui/main/view_explanations.h"

#include <QCoreApplication>

namespace ui {
namespace {

// The English texts, by view; translated when shown (context "ui::ViewExplanations").
struct ExplanationText {
    const char* view;
    const char* title;
    const char* shows;
    const char* read;
    const char* tryThis;
};

const ExplanationText kExplanations[] = {
    {"trajectories", QT_TRANSLATE_NOOP("ui::ViewExplanations", "Trajectories"),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Chains of K classes moving under the forward process x₀ → x₁ (each step keeps the "
         "class "
         "with probability (1 − βₜ)/(1 − βₛ), else redraws it from π) and under the reverse "
         "sampler x₁ → x₀ (the closed-form kernel q(xₛ | xₜ) built from the denoiser F). Each "
         "lane is one class; the red outlines are the exact marginal at the current time, the "
         "blue bars the chains' share, the dots the chains."),
     QT_TRANSLATE_NOOP("ui::ViewExplanations",
                       "Compare the blue bars with the red outlines: when the chains are "
                       "right, each bar fills its outline. Forward, everything drifts "
                       "towards π; in reverse, the chains return to the data distribution "
                       "of the chosen condition."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Play the forward process with a very non-uniform π and watch where the mass goes. "
         "Reduce the number of path steps: with one position, the exact denoiser and the "
         "closed-form kernel, the chains still end on the data at any number of steps; "
         "with several positions, fewer steps miss the dependence between them. Switch the "
         "kernel to the D3PM form and, unless π is uniform, they miss the data (Kernel "
         "comparison view).")},
    {"trajectories:images", QT_TRANSLATE_NOOP("ui::ViewExplanations", "Trajectories (images)"),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Each tile is one chain of D positions drawn as an image, moving under the forward "
         "process x₀ → x₁ (each position keeps its class with probability "
         "(1 − βₜ)/(1 − βₛ), else redraws it from π) or under the reverse sampler x₁ → x₀. "
         "In reverse, the tile framed in blue beside each sample is the denoiser's "
         "prediction x̂₀ = E[X₀ | xₜ] for it."),
     QT_TRANSLATE_NOOP("ui::ViewExplanations",
                       "In reverse, the samples turn from noise into images of the chosen "
                       "condition, and each prediction shows what the denoiser expects its "
                       "sample to become; forward, the images dissolve into draws from π."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Reduce the number of path steps and play the reverse process: with few steps "
         "many positions are drawn at once, independently, and the strokes break up. "
         "Choose a sampler under Sampler animated in Trajectories (Decoding view) to watch "
         "the order in which it fills the pixels.")},
    {"schedule", QT_TRANSLATE_NOOP("ui::ViewExplanations", "Schedule & information"),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "β(t), the probability that a class has been redrawn from π by time t, with 1 − β(t) "
         "(left axis), the mutual information I(X₀;Xₜ) in bits between the data and its noisy "
         "version (right axis), the impurity Gₜ, and the nodes of the trajectory in use."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "I(X₀;Xₜ) falls from H(X₀) at t = 0 to 0 at t = 1: how fast it falls is what the "
         "schedule decides. Nodes crowded where the information changes fast mean a "
         "trajectory that spends its steps where they matter."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Switch the schedule between linear, cosine and information-linear and watch the "
         "information curve straighten. Move the time slider and read β and I at that "
         "time.")},
    {"step-costs", QT_TRANSLATE_NOOP("ui::ViewExplanations", "Step costs"),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "J(n − 1, n), the cost of one step of the grid: the expected KL between the true "
         "reverse step and the model's, in nats. Their sum over a trajectory is the part of "
         "the "
         "negative ELBO that the trajectory decides."),
     QT_TRANSLATE_NOOP("ui::ViewExplanations",
                       "High points of the curve are steps where the process changes the data "
                       "most; a good trajectory puts "
                       "more nodes there. The DP trajectory minimises the summed cost exactly."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Compare the costs under the linear and cosine schedules. Choose the DP trajectory "
         "and see its nodes gather where the curve is high.")},
    {"matrices", QT_TRANSLATE_NOOP("ui::ViewExplanations", "Matrices"),
     QT_TRANSLATE_NOOP("ui::ViewExplanations",
                       "P₀,ₜ = (1 − βₜ)I + βₜ1πᵀ (from x₀ to xₜ), Pₛ,ₜ (from xₛ to xₜ) "
                       "and the reverse matrix Q (built from the denoiser's rows F(· | xₜ = j)) "
                       "whose row j is q(xₛ | xₜ = j), at the time "
                       "slider's step."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Each row sums to 1. Bright cells are likely transitions: P₀,ₜ fades from the "
         "identity to rows equal to π as t grows; Q sharpens towards the data as s → 0."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Move the time slider to the start and to the end and watch P₀,ₜ change from I to "
         "1πᵀ. Hover a cell to read its value and formula.")},
    {"kernels", QT_TRANSLATE_NOOP("ui::ViewExplanations", "Kernel comparison"),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Where reverse sampling ends with the closed-form kernel and with the D3PM-style "
         "kernel, against the data distribution, per class."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "The closer each kernel's bars are to the data bars, the better that kernel undoes "
         "the forward process with this denoiser and trajectory."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Change the number of path steps and read the two KLs in the line "
         "below the chart: with the exact denoiser the closed form reaches the data at "
         "any number of steps, while the D3PM-style kernel (unless π is "
         "uniform) misses it, by more as steps are added: each step adds its "
         "own error. With a trained network both kernels also carry the "
         "network's error, so neither KL is 0, even with a uniform π.")},
    {"decoding:chain", QT_TRANSLATE_NOOP("ui::ViewExplanations", "Decoding (text from a Markov chain)"),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Masked diffusion decodes a sequence of letters by starting with every position "
         "masked and unmasking positions over N steps. The letters come from a Markov chain, "
         "so the denoiser is exact for any mask pattern and every decoded sequence has a true "
         "likelihood: what the charts show is the sampler's own error, not a network's. "
         "Cross-entropy is −log p_chain(x) per letter (dashed: the chain's own entropy); "
         "pair TV compares the decoded adjacent letters with the chain's; the longest run "
         "counts one letter repeated. Below, the first decoded sequences, each letter on the "
         "colour of the step that unmasked it; on the right, which position when."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "A cross-entropy below the dashed line is not a better sampler: the text is more "
         "likely than the chain's own text because it repeats its likeliest words, and its "
         "pair TV rises. One letter per step in random order reproduces the chain: its "
         "cross-entropy meets the dashed line and its pair TV is as small as M sequences "
         "allow. Samplers less than two standard errors apart cannot be told apart."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Choose llada:low_confidence at the largest N and read its text, then random "
         "order's. Drag Text after step to watch which letters come first.")},
    {"decoding:digits", QT_TRANSLATE_NOOP("ui::ViewExplanations", "Decoding (digits)"),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Masked diffusion decodes an image by starting with every pixel masked and "
         "unmasking pixels over N steps: the ancestral sampler, or a fixed number of pixels "
         "per step chosen at random or by the denoiser's confidence, margin or entropy. The "
         "8×8 digits have far more possible images than chains can cover, so the charts "
         "show what Monte Carlo measures against N, with ±1 standard error bars: the share "
         "of decoded images a classifier recognises as their label, and the mean entropy "
         "per pixel, each beside the real training images' own (dashed). The map on the "
         "right shows which pixel first: each pixel's mean commit step for the sampler and "
         "N chosen above (dark: early)."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "A sampler that decodes many pixels in one step draws them independently and "
         "breaks the strokes: fewer images are recognised. Argmax and confidence orders "
         "keep the strokes but give up diversity: the entropy per pixel falls below the "
         "training images'. Samplers less than two standard errors apart cannot be told "
         "apart with this many chains."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Compare the ancestral sampler with confidence decoding at small N. Choose a "
         "sampler under Sampler animated in Trajectories and play the Trajectories view: "
         "the pixels appear in the sampler's order.")},
    {"decoding", QT_TRANSLATE_NOOP("ui::ViewExplanations", "Decoding"),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Masked diffusion decodes a sequence by starting with every position masked and "
         "unmasking positions over N steps. The ancestral sampler unmasks each masked "
         "position independently with the schedule's probability and draws its value from "
         "the denoiser's marginal given what is already decoded; the ordered samplers "
         "unmask a fixed number of positions per step (one per step when N = D with a "
         "linear schedule), choosing them at random or by the denoiser's confidence (the "
         "largest probability), margin (the gap between the top two) or entropy (the "
         "lowest first). The charts show the exact output distribution (Monte Carlo for "
         "large D) against N: its entropy with the data's as a dashed line, KL(data ‖ "
         "output) (how much of the data the sampler misses), KL(output ‖ data) (how much "
         "it makes up) and the total variation. A triangle above the plot marks an "
         "infinite KL: one distribution gives probability 0 to a sequence the other has. "
         "The raster on the right shows which token when: the probability that each "
         "position is unmasked after each step, for the sampler and N chosen above."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Positions unmasked in the same step are drawn independently from their own "
         "marginals, so their correlation is lost: at N = 1 the output is the product of "
         "the marginals and KL(data ‖ output) is the total correlation (for two positions, "
         "the mutual information). More steps decode fewer positions together; with one "
         "position per step a sampler that draws the values reproduces the data exactly, "
         "whatever its order. Argmax and a low temperature give up diversity: with one "
         "position per step argmax returns one sequence (entropy 0, an infinite "
         "KL(data ‖ output)). The float32 Gumbel draws, as torch computes them, cap the "
         "noise at about 16.6 (u never exceeds 1 − 2⁻²⁴), so a value whose log-weight "
         "lies about 19 below the best one's is never drawn."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Start from N = 1 and read KL(data ‖ output) off the chart: it is the correlation "
         "the decoder cannot see. Compare confidence with sampled values against "
         "confidence with argmax: both order the positions alike, but argmax collapses the "
         "entropy. Add a sampler with values=temperature:0.1;gumbel=float32 and compare "
         "it with gumbel=float64. Choose a sampler under Sampler animated in Trajectories "
         "and play the Trajectories view: the pixels appear in the sampler's order.")},
    {"particles:images", QT_TRANSLATE_NOOP("ui::ViewExplanations", "Particles (images)"),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Images pushed pixel by pixel through the Gaussian forward process xₜ = √ᾱₜ x₀ + "
         "√β̄ₜ ε, then back by two reverse samplers (A and B) started from the same noise; "
         "each tile is one sample."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "At the end of the reverse run the tiles should look like the data's images: "
         "speckled or blurred strokes are the samplers' errors. Both panes start from the "
         "same noise, so differences are the samplers' alone."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Compare DDPM with Analytic-DDPM with 10 steps: the analytic variance gives cleaner "
         "digits. Try 5 steps with the even and the DP trajectory.")},
    {"particles", QT_TRANSLATE_NOOP("ui::ViewExplanations", "Particles"),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Points pushed through the Gaussian forward process xₜ = √ᾱₜ x₀ + √β̄ₜ ε, then back "
         "by "
         "two reverse samplers (A and B) started from the same noise. Grey beneath: the "
         "density of the data."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "At the end of the reverse run the points should cover the grey density: points "
         "between the modes or outside it are the samplers' errors. Both panes start from the "
         "same points, so differences are the samplers' alone."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Compare DDPM with Analytic-DDPM with 10 steps: the analytic variance keeps the points "
         "on the data. Try 5 steps with the even and the DP trajectory.")},
    {"gamma", "Γ",
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Γₙ, the mean square of the score per dimension at each timestep n (β̄ₙΓₙ = "
         "E‖ε_θ(xₙ, n)‖²/d for the network or the oracle), with its standard error, and the "
         "average posterior variance vₙ = (β̄ₙ/ᾱₙ)(1 − β̄ₙΓₙ) = E Cov[x₀ | xₙ] per dimension."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "β̄ₙΓₙ ≤ 1 always holds for an exact model; a curve above that bound means the model "
         "or the estimate is off there. vₙ rises from 0 towards the data variance as n "
         "grows."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Raise the samples M and watch the error bars shrink. Load a network and compare its "
         "Γ with the exact oracle's.")},
    {"variance", QT_TRANSLATE_NOOP("ui::ViewExplanations", "Variance"),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "For each step (s, t) of the trajectory: the optimal reverse variance σ²ₛ|ₜ "
         "computed from Γ, its lower and upper bounds, and the DDPM choices β̃ (small) and β "
         "(large) for comparison. Points marked were clipped to a bound."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "The optimal variance always lies between the bounds. At few steps β̃ is far below it "
         "— the reason DDPM with β̃ is poor with few steps."),
     QT_TRANSLATE_NOOP("ui::ViewExplanations",
                       "Lower the steps to 5 and see the gap between β̃ and the optimum widen. "
                       "Change the schedule "
                       "to cosine and compare.")},
    {"gaussian-trajectory", QT_TRANSLATE_NOOP("ui::ViewExplanations", "Trajectory"),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "The timesteps of the DP-optimal, even, quadratic and chosen trajectory as rows of "
         "ticks over 1..N, their summed step cost ΣJ, and the cost matrix J(s, t) with the DP "
         "path drawn on it. Below: the negative ELBO in bits/dim against the number of steps."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Less ΣJ is a better trajectory for the same number of steps. The DP path is the cheapest "
         "route "
         "through the matrix; rows that do not start at 1 or end at N say so, and pay for it "
         "in the prior or the decoder term."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Hover a tick to read its timestep and step cost. Choose the leading spacing and see "
         "it never reach N. Press Compute NLL vs steps and compare the three variances.")},
    {"compare", QT_TRANSLATE_NOOP("ui::ViewExplanations", "Compare"),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "How fast the categorical and the Gaussian process destroy the same data, the 8×8 "
         "digits, on one time axis: the fraction of the data's information left, and the "
         "Gaussian SNR ᾱₙ/β̄ₙ."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Both curves start at 1 and fall to 0; a curve that falls early wastes the later "
         "steps on noise, one that falls late leaves little time to denoise."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Switch the Gaussian schedule from linear to cosine and watch its curve move later. "
         "Change the categorical schedule and compare.")},
    {"lab", QT_TRANSLATE_NOOP("ui::ViewExplanations", "Schedule lab"),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Several configurations (schedule, trajectory family, reverse "
         "variance, sampler) side "
         "by side: their timesteps, their per-step costs, the negative ELBO in "
         "bits/dim and the "
         "sample quality against the number of steps, with the DP optimum as the reference. "
         "The fifth chart shows each step in log σ (σ = √(β̄/ᾱ), step k = "
         "log σ at t_k minus log σ at t_(k−1)) against the step index, or the ratio "
         "of consecutive steps."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Lower is better for both the NLL and the sample distance (MMD² for 2-D data, the "
         "Fréchet distance for the digits). A configuration far above the reference with few "
         "steps is a choice that costs steps. DPM-Solver and the Euler samplers step in "
         "log σ; a second-order multistep solver such as DPM-Solver++(2M) extrapolates from "
         "the previous step and loses accuracy where the ratio of consecutive steps is far "
         "from 1 (a jump in step size)."),
     QT_TRANSLATE_NOOP(
         "ui::ViewExplanations",
         "Apply the presets: leading spacing without zero SNR, DDPM β̃ with few steps, Karras "
         "spacing on a linear-β model, and read what each shows.")},
};

}  // namespace

ViewExplanation viewExplanation(const QString& viewName) {
    const auto translated = [](const char* text) {
        return QCoreApplication::translate("ui::ViewExplanations", text);
    };
    for (const ExplanationText& e : kExplanations) {
        if (viewName == QLatin1String(e.view)) {
            return {translated(e.title), translated(e.shows), translated(e.read),
                    translated(e.tryThis)};
        }
    }
    return {};
}

}  // namespace ui
