"""ms-eps --nll-terms PLAN: the terms of the negative ELBO (the app's NLL, docs/gaussian.md#nll)
of a Gaussian contract model on the trajectory of a plan, written as CSV.

Per data point x₀ (drawn from --data keyed by (seed, point), clamped to [a, b] and snapped to
the L-level grid), in nats summed over the d dimensions, one fresh ε per term keyed by
(seed, point, t):
- prior: KL(N(√ᾱ_{τ_K} x₀, β̄_{τ_K}) ‖ N(0, I));
- pair (s, t), s ≥ 1: ½[d(λ²/σ² + log(σ²/λ²) − 1) + (β_{t|s}√ᾱ_s/β̄_t)²‖x₀ − x̂₀(x_t)‖²/σ²],
  λ² = β̃_{s|t}, σ² the plan's variance of the step (t, s);
- decoder (0, τ₁): −Σ log of the discretised Gaussian around x̂₀(x_{τ₁}) with variance β̃_{1|2}
  when τ₁ = 1, β̃_{τ₁|τ₂} otherwise (the app's rule, not the plan's last step), bins of
  half-width (b − a)/(2(L − 1)), open edge bins, each probability floored at 10⁻¹².
x̂₀ is the network's prediction turned into x₀ and clamped to [a, b].
"""
import json
import math

import numpy as np
import torch

from . import limits
from .errors import FieldError
from .files import read_input, write_atomic

PLAN_FORMAT = "diffuscope-plan"
MAX_LEVELS = 65_536
COLUMNS = "term,s,t,variance,nats,standard_error_nats,bits_per_dim"
# Purposes keyed into the draws, so that an NLL run and a Γ run with one seed draw apart.
_DATA, _NOISE = 1, 2


def parse_range(text):
    try:
        low, high = (float(v) for v in text.split(","))
    except ValueError:
        raise FieldError("--data-range", text, "expected two numbers a,b") from None
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise FieldError("--data-range", text, "needs finite a < b")
    return low, high


def read_plan(path, setup):
    """(timesteps, ᾱ as an array indexed 0..N with ᾱ_0 = 1, {(t, s): σ²}) of a plan, checked
    against the model: its N and ᾱ must be the model's schedule's."""
    field = "--nll-terms"
    data = read_input(path, field, limits.MAX_INPUT_FILE_BYTES)

    def no_constant(name):
        raise ValueError(f"{name} is not JSON")

    try:
        plan = json.loads(data.decode("utf-8"), parse_constant=no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise FieldError(field, path, f"not a JSON plan ({e})") from None
    if not isinstance(plan, dict) or plan.get("format") != PLAN_FORMAT:
        raise FieldError(field, path, f"not a plan (\"format\" must be \"{PLAN_FORMAT}\")")
    if plan.get("version") != 1:
        raise FieldError("version", plan.get("version"), f"{path}: only version 1 is read")
    N = setup.num_steps
    if plan.get("N") != N:
        raise FieldError("N", plan.get("N"), f"{path}: the model has N = {N}")
    alpha_bar = plan.get("alpha_bar")
    if not (isinstance(alpha_bar, list) and len(alpha_bar) == N
            and all(isinstance(a, (int, float)) and not isinstance(a, bool) for a in alpha_bar)):
        raise FieldError("alpha_bar", path, f"must be a list of N = {N} numbers ᾱ_1..ᾱ_N")
    ab = np.concatenate([[1.0], np.asarray(alpha_bar, dtype=np.float64)])
    model_ab = np.asarray(setup.schedule.alpha_bar, dtype=np.float64)
    worst = int(np.argmax(np.abs(ab - model_ab)))
    if abs(ab[worst] - model_ab[worst]) > 1e-9 * max(1.0, abs(model_ab[worst])):
        raise FieldError("alpha_bar", f"ᾱ_{worst} = {ab[worst]!r}",
                         f"{path}: the model's schedule has {model_ab[worst]!r}; the plan was "
                         f"made for another schedule")
    timesteps = plan.get("timesteps")
    if not (isinstance(timesteps, list) and len(timesteps) >= 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in timesteps)
            and all(1 <= n <= N for n in timesteps)
            and all(a < b for a, b in zip(timesteps, timesteps[1:]))):
        raise FieldError("timesteps", path, f"must be at least 2 ascending timesteps in "
                                            f"1..{N}")
    variances = {}
    steps = plan.get("steps")
    if not isinstance(steps, list):
        raise FieldError("steps", path, "must be a list of {\"t\", \"s\", \"variance\"}")
    for i, step in enumerate(steps):
        if not (isinstance(step, dict) and isinstance(step.get("t"), int)
                and isinstance(step.get("s"), int)
                and isinstance(step.get("variance"), (int, float))):
            raise FieldError(f"steps[{i}]", path, "must be {\"t\": n, \"s\": n, \"variance\": σ²}")
        variances[step["t"], step["s"]] = float(step["variance"])
    for s, t in zip(timesteps, timesteps[1:]):
        v = variances.get((t, s))
        if v is None:
            raise FieldError("steps", path, f"no step from t = {t} to s = {s}, a pair of the "
                                            f"timesteps")
        if not (math.isfinite(v) and v > 0.0):
            raise FieldError(f"variance of the step t = {t}, s = {s}", v,
                             f"{path}: must be a finite number > 0")
    if ab[timesteps[0]] == 0.0:
        raise FieldError("timesteps", path, f"τ₁ = {timesteps[0]} has ᾱ = 0")
    return timesteps, ab, variances


def beta_tilde(ab, s, t):
    """β̃_{s|t} = β̄_s/β̄_t · (1 − ᾱ_t/ᾱ_s)."""
    return (1.0 - ab[s]) / (1.0 - ab[t]) * (1.0 - ab[t] / ab[s])


def decoder_variance(ab, timesteps):
    return beta_tilde(ab, 1, 2) if timesteps[0] == 1 else beta_tilde(ab, timesteps[0],
                                                                     timesteps[1])


class _Call:
    """One network call: rows (t, point) of x_t, padded to `size` rows with copies of the
    first (same shape on every call)."""

    def __init__(self, x32, ts, size):
        self.items = ts
        b = len(ts)
        self.x32 = x32
        self.padded_x, self.padded_t = x32, np.asarray(ts, dtype=np.int64) - 1
        if size > b:
            self.padded_x = np.concatenate([x32, np.repeat(x32[:1], size - b, 0)])
            self.padded_t = np.concatenate([self.padded_t, np.repeat(self.padded_t[:1],
                                                                     size - b)])


def snap(x, levels, low, high):
    step = (high - low) / (levels - 1)
    return low + np.rint((np.clip(x, low, high) - low) / step) * step


def compute_terms(setup, plan, samples, seed, batch, device, levels, data_range):
    """Per-point nats [terms, samples] in the row order prior, pairs (sampling order),
    decoder, and the row labels [(term, s, t, variance)]."""
    from .ms_eps import _forward
    timesteps, ab, variances = plan
    low, high = data_range
    d, K = setup.dim, len(timesteps)
    bb = 1.0 - ab
    points = np.empty((samples, d), dtype=np.float64)
    count = setup.data.shape[0]
    for m in range(samples):
        rng = np.random.Generator(np.random.Philox(np.random.SeedSequence([seed, _DATA, m])))
        row = np.asarray(setup.data[int(rng.integers(count))], dtype=np.float64).reshape(-1)
        if not np.all(np.isfinite(row)):
            raise FieldError("--data", setup.data_path, "holds a value that is not finite")
        points[m] = snap(row, levels, low, high)
    # ‖x₀ − x̂₀(x_t)‖² and the decoder's log-likelihood per (timestep, point).
    gap = {t: np.empty(samples) for t in timesteps}
    decoder_nats = np.empty(samples)
    dec_std = math.sqrt(decoder_variance(ab, timesteps))
    half = 0.5 * (high - low) / (levels - 1)
    items = [(t, m) for t in timesteps for m in range(samples)]
    for start in range(0, len(items), batch):
        chunk = items[start:start + batch]
        ts = np.array([t for t, _ in chunk], dtype=np.int64)
        x0 = points[[m for _, m in chunk]]
        eps = np.empty_like(x0)
        for i, (t, m) in enumerate(chunk):
            rng = np.random.Generator(np.random.Philox(
                np.random.SeedSequence([seed, _NOISE, m, t])))
            eps[i] = rng.standard_normal(d)
        sa, sb = np.sqrt(ab[ts])[:, None], np.sqrt(bb[ts])[:, None]
        x32 = (sa * x0 + sb * eps).astype(np.float32)
        call = _Call(x32, ts, batch)
        out = _forward(setup, call, device)
        out = out[:len(chunk)].detach().to("cpu", torch.float64).numpy().reshape(len(chunk), d)
        if not np.all(np.isfinite(out)):
            raise FieldError("--model", setup.model_path, "the network's prediction holds NaN "
                                                          "or ±inf; refusing to write the terms")
        seen = x32.astype(np.float64)
        if setup.prediction == "sample":
            x0_hat = out
        elif setup.prediction == "v_prediction":
            x0_hat = sa * seen - sb * out
        else:
            x0_hat = (seen - sb * out) / sa
        x0_hat = np.clip(x0_hat, low, high)
        for i, (t, m) in enumerate(chunk):
            gap[t][m] = float(np.sum(np.square(x0[i] - x0_hat[i])))
            if t == timesteps[0]:
                decoder_nats[m] = -float(np.sum(log_discretized_gaussian(
                    x0[i], x0_hat[i], dec_std, half, low, high)))
    rows, labels = [], []
    top = timesteps[-1]
    prior = 0.5 * (d * (bb[top] - math.log(bb[top]) - 1.0) + ab[top] * np.sum(points ** 2, 1))
    rows.append(prior)
    labels.append(("prior", -1, top, 1.0))
    for j in range(K - 1, 0, -1):
        s, t = timesteps[j - 1], timesteps[j]
        sigma2 = variances[t, s]
        lambda2 = beta_tilde(ab, s, t)
        c0 = (1.0 - ab[t] / ab[s]) * math.sqrt(ab[s]) / bb[t]
        rows.append(0.5 * (d * (lambda2 / sigma2 + math.log(sigma2 / lambda2) - 1.0)
                           + c0 * c0 * gap[t] / sigma2))
        labels.append(("pair", s, t, sigma2))
    rows.append(decoder_nats)
    labels.append(("decoder", 0, timesteps[0], dec_std * dec_std))
    return np.stack(rows), labels


def log_discretized_gaussian(x, mean, std, half, low, high):
    """log P(x's bin) under N(mean, std²), the edge bins open to ±∞, floored at 10⁻¹²."""
    lower = np.where(x - half <= low + 0.5 * half, -np.inf, (x - half - mean) / std)
    upper = np.where(x + half >= high - 0.5 * half, np.inf, (x + half - mean) / std)
    return np.log(np.maximum(normal_interval(lower, upper), 1e-12))


def normal_interval(lower, upper):
    """P(lower < Z < upper), Z standard normal, from the tail that keeps the digits."""
    erfc = np.vectorize(math.erfc, otypes=[np.float64])
    r = 1.0 / math.sqrt(2.0)
    return np.where(lower >= 0.0, 0.5 * (erfc(lower * r) - erfc(upper * r)),
                    np.where(upper <= 0.0, 0.5 * (erfc(-upper * r) - erfc(-lower * r)),
                             1.0 - 0.5 * erfc(-lower * r) - 0.5 * erfc(upper * r)))


def csv_text(per_point, labels, d):
    """The CSV: one row per term (mean over the points, its standard error, bits/dim), then
    the total (per-point sums)."""
    samples = per_point.shape[1]
    to_bits = 1.0 / (d * math.log(2.0))
    lines = [COLUMNS]
    for row, (term, s, t, variance) in zip(per_point, labels):
        mean = float(row.mean())
        se = float(row.std(ddof=1) / math.sqrt(samples))
        lines.append(f"{term},{s},{t},{variance!r},{mean!r},{se!r},{mean * to_bits!r}")
    total = per_point.sum(axis=0)
    mean, se = float(total.mean()), float(total.std(ddof=1) / math.sqrt(samples))
    lines.append(f"total,,,,{mean!r},{se!r},{mean * to_bits!r}")
    return "\n".join(lines) + "\n"


def run_nll_terms(args, setup, device):
    from .files import output_target
    if not 2 <= args.levels <= MAX_LEVELS:
        raise FieldError("--levels", args.levels, f"must lie between 2 and {MAX_LEVELS}")
    data_range = parse_range(args.data_range)
    # The snapped points and the per-point terms are kept (about d + K + 2 doubles a point).
    limits.check_memory("--samples", args.samples, f"samples·(d + 2)·8 bytes (d = {setup.dim}) "
                        f"and more per timestep", args.samples * (setup.dim + 2) * 8)
    output_target(args.out, "--out")
    plan = read_plan(args.nll_terms, setup)
    per_point, labels = compute_terms(setup, plan, args.samples, args.seed, args.batch, device,
                                      args.levels, data_range)
    write_atomic(args.out, csv_text(per_point, labels, setup.dim).encode("utf-8"), "--out")
    return 0
