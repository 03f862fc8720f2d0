"""sample: draws samples of a Gaussian contract model (ε, x₀ or v prediction) on a plan written by
`diffuscope plan`, in batches on the chosen device.

The plan carries everything the update needs: ᾱ_n and β̄_n (x̂₀ from the prediction), and for
each step (t → s, in sampling order) the mean coefficients and σ², so that

    x_s = x0·x̂₀ + xt·x_t + eps·ε̂ + σ z,    z ~ N(0, I),

with x̂₀ clamped to the plan's data range and, for the DDIM sampler, ε̂ = (x_t − √ᾱ_t x̂₀)/√β̄_t
(the ε consistent with the clamped x̂₀, as the app's sampler does). The last step (s = 0)
outputs x̂₀. x_{τ_K} and every z come from one torch.Generator seeded with --seed on the device:
the samples depend on the seed, the device and --batch.
"""
import io
import math
import sys

import numpy as np
import torch

from . import contract as contract_io
from . import limits
from .contract import read_strict_json
from .devices import device_of
from .errors import FieldError, Parser, integer, is_interrupt, network_error, printable
from .files import check_not_an_input, output_target, read_input, write_atomic
from .schedules import ScheduleError, gaussian_schedule

PLAN_FORMAT = "diffuscope-plan"
PLAN_VERSION = 1
SAMPLERS = ("ddpm", "ddim")
VARIANCES = ("analytic", "small", "large")
COUNT = limits.IntRange("the number of samples", 1, 10_000_000)  # the app's particle limit
# How closely a plan's numbers must agree with what its own ᾱ, β̄, sampler and η give: β̄_n with
# 1 − ᾱ_n absolutely; the mean coefficients and σ² relatively, plus an absolute floor far below
# anything that changes a sample (every coefficient is at most 1), for the rounding of
# recomputing them from ᾱ and β̄ rather than from the app's log ᾱ.
BETA_BAR_TOLERANCE = 1e-12
RELATIVE_TOLERANCE = 1e-9
ABSOLUTE_TOLERANCE = 1e-13
# Memory of one batch entry per data dimension: x, x̂₀, ε̂, the prediction and the noise in
# float64, and the float32 input.
BYTES_PER_BATCH_ENTRY = 48


def build_parser(prog="sample"):
    p = Parser(
        prog=prog,
        description="Samples a Gaussian contract model on a plan written by `diffuscope plan` "
                    "(its timesteps, each step's σ² and mean), batched on the device.",
        epilog="Output: OUT is an NPY array [count, *shape], float32 (float64 when the model "
               "returns float64).")
    p.add_argument("--model", required=True, help="TorchScript contract archive (Gaussian)")
    p.add_argument("--plan", required=True, help="the plan (JSON) of `diffuscope plan`")
    p.add_argument("--count", required=True, type=integer, help="the number of samples")
    p.add_argument("--seed", required=True, type=integer, help="seed (≥ 0) of every draw")
    p.add_argument("--out", required=True, help="output NPY file")
    p.add_argument("--batch", type=integer, default=1000,
                   help="samples per network call (default 1000)")
    p.add_argument("--device", default="auto",
                   help="cpu, cuda, cuda:K or auto (cuda when available; default)")
    p.add_argument("--condition", type=integer, default=None,
                   help="a conditional model's label, 0..num_conditions − 1 (default: its "
                        "unconditional prediction, label num_conditions, as the app asks)")
    return p






class Plan:
    """A plan file, checked field by field and against itself (β̄ = 1 − ᾱ, each step's mean
    coefficients and σ² from its ᾱ, β̄, sampler, η, variance and clip); errors name
    "--plan: PLAN: field" and the value."""

    def __init__(self, path):
        self.path = path
        value = read_strict_json(read_input(path, "--plan", limits.MAX_INPUT_FILE_BYTES),
                                 f"--plan: {path}")
        if not isinstance(value, dict):
            raise FieldError(f"--plan: {path}", contract_io.value_text(value),
                             "a plan is a JSON object")
        self.raw = value
        if self._get("format") != PLAN_FORMAT:
            self._refuse("format", f"expected \"{PLAN_FORMAT}\" (written by `diffuscope plan`)")
        if self._get("version") != PLAN_VERSION:
            self._refuse("version", f"this tool reads version {PLAN_VERSION}")
        self.num_steps = self._whole("N", self._get("N"), limits.STEPS)
        n = self.num_steps
        self.alpha_bar = self._numbers("alpha_bar", n, 0.0, 1.0)
        self.beta_bar = self._numbers("beta_bar", n, 0.0, 1.0)
        gap = np.abs(self.beta_bar - (1.0 - self.alpha_bar))
        if gap.max() > BETA_BAR_TOLERANCE:
            i = int(np.argmax(gap > BETA_BAR_TOLERANCE))
            self._refuse(f"beta_bar[{i}]", f"must equal 1 − alpha_bar[{i}] = "
                         f"{1.0 - float(self.alpha_bar[i])!r} within {BETA_BAR_TOLERANCE:g}",
                         contract_io.value_text(self.raw["beta_bar"][i]))
        self.sampler = self._get("sampler")
        if self.sampler not in SAMPLERS:
            self._refuse("sampler", "expected ddpm or ddim")
        eta = self._get("eta")
        if not self._is_number(eta) or not 0.0 <= eta <= 1.0:
            self._refuse("eta", "η is a number in [0, 1]")
        self.eta = float(eta)
        if self.sampler == "ddpm" and self.eta != 1.0:
            self._refuse("eta", "a ddpm plan has η = 1 (the DDPM forward process); η < 1 is "
                                "the ddim sampler's")
        self.variance = self._get("variance")
        if self.variance not in VARIANCES:
            self._refuse("variance", "expected analytic, small or large")
        if self.sampler == "ddim" and self.variance == "large":
            self._refuse("variance", "the ddim sampler's variance is analytic or small (η²β̃); "
                                     "large is the ddpm sampler's")
        clip = self._get("clip")
        if not self._is_number(clip) or clip < 0.0:
            self._refuse("clip", "a number y ≥ 0 is expected (0: no clip)")
        threshold = self._get("clip_threshold")
        self.clip_threshold = None
        if clip == 0:
            if threshold is not None:
                self._refuse("clip_threshold", "must be null when clip is 0")
        else:
            expected = clip_threshold_of(float(clip))
            if not self._is_number(threshold) or not _close(float(threshold), expected):
                self._refuse("clip_threshold", f"must be {expected!r} = (y·(2/255)·√(π/2))² "
                                               f"for clip = {contract_io.value_text(clip)}")
            self.clip_threshold = float(threshold)
        timesteps = self._get("timesteps")
        if not isinstance(timesteps, list) or len(timesteps) < 2:
            self._refuse("timesteps", "a list of at least 2 timesteps is expected")
        self.timesteps = [self._whole(f"timesteps[{i}]", v, limits.IntRange("a timestep", 1, n))
                          for i, v in enumerate(timesteps)]
        for i in range(1, len(self.timesteps)):
            if self.timesteps[i] <= self.timesteps[i - 1]:
                self._refuse(f"timesteps[{i}]", "the timesteps must increase",
                             self.timesteps[i])
        data_range = self._get("data_range")
        if not (isinstance(data_range, list) and len(data_range) == 2 and
                all(self._is_number(v) for v in data_range) and data_range[0] < data_range[1]):
            self._refuse("data_range", "expected [a, b] with a < b")
        self.low, self.high = float(data_range[0]), float(data_range[1])
        steps = self._get("steps")
        k = len(self.timesteps)
        if not isinstance(steps, list) or len(steps) != k:
            self._refuse("steps", f"a list of {k} steps (one per timestep) is expected")
        self.steps = []
        for j, step in enumerate(steps):
            where = f"steps[{j}]"
            if not isinstance(step, dict):
                self._refuse(where, "a step is an object")
            t_expected = self.timesteps[k - 1 - j]
            s_expected = self.timesteps[k - 2 - j] if j + 1 < k else 0
            for key, expected in (("t", t_expected), ("s", s_expected)):
                if step.get(key) != expected or isinstance(step.get(key), bool):
                    self._refuse(f"{where}.{key}", f"expected {expected} (the timesteps in "
                                 f"sampling order)", contract_io.value_text(step.get(key, None))
                                 if key in step else "missing")
            coefficients = {}
            for key in ("variance", "x0", "xt", "eps"):
                v = step.get(key)
                if not self._is_number(v):
                    self._refuse(f"{where}.{key}", "a finite number is expected",
                                 contract_io.value_text(v) if key in step else "missing")
                coefficients[key] = float(v)
            if coefficients["variance"] < 0.0:
                self._refuse(f"{where}.variance", "σ² must be ≥ 0", coefficients["variance"])
            self.steps.append((t_expected, s_expected, coefficients))
        self._check_steps()

    # The numbers of each step against the plan's own ᾱ, β̄, sampler, η, variance and clip, as
    # `diffuscope plan` computes them (app/cli/cmd_gaussian.cpp, runPlan).

    def _pair(self, j, t, s):
        """The pair quantities of step j (t → s, s ≥ 1) from the plan's ᾱ and β̄."""
        ab_s, ab_t = float(self.alpha_bar[s - 1]), float(self.alpha_bar[t - 1])
        bb_s, bb_t = float(self.beta_bar[s - 1]), float(self.beta_bar[t - 1])
        if not (ab_s > 0.0 and bb_t > 0.0 and ab_t <= ab_s):
            self._refuse(f"alpha_bar[{t - 1}]", f"steps[{j}] goes from t = {t} to s = {s}, "
                         f"where ᾱ_s = {ab_s!r}: ᾱ must not increase from s to t, ᾱ_s must be "
                         f"> 0 and β̄_t > 0", contract_io.value_text(self.raw["alpha_bar"][t - 1]))
        log_ts = _log_alpha_bar(ab_t, bb_t) - _log_alpha_bar(ab_s, bb_s)
        alpha_ts, beta_ts = math.exp(log_ts), -math.expm1(log_ts)
        beta_tilde = beta_ts * bb_s / bb_t
        return ab_s, ab_t, bb_s, bb_t, alpha_ts, beta_ts, beta_tilde

    @staticmethod
    def _means(sampler, eta, pair):
        """{x0, xt, eps} of a sampler's mean: DDPM's posterior mean, DDIM(η)'s update."""
        ab_s, _, bb_s, bb_t, alpha_ts, beta_ts, beta_tilde = pair
        if sampler == "ddpm":
            return {"x0": beta_ts * math.sqrt(ab_s) / bb_t,
                    "xt": math.sqrt(alpha_ts) * bb_s / bb_t, "eps": 0.0}
        return {"x0": math.sqrt(ab_s), "xt": 0.0,
                "eps": math.sqrt(max(0.0, bb_s - eta * eta * beta_tilde))}

    def _check_steps(self):
        first_pair = len(self.steps) - 2  # (τ₁, τ₂), the pair a clip caps
        for j, (t, s, co) in enumerate(self.steps):
            where = f"steps[{j}]"
            if s == 0:
                for key, expected in (("x0", 1.0), ("xt", 0.0), ("eps", 0.0), ("variance", 0.0)):
                    if co[key] != expected:
                        self._refuse(f"{where}.{key}", "the last step (s = 0) outputs x̂₀: "
                                     "x0 = 1, xt = eps = variance = 0", repr(co[key]))
                continue
            pair = self._pair(j, t, s)
            ours = self._means(self.sampler, self.eta, pair)
            if not all(_close(co[k], ours[k]) for k in ours):
                self._refuse_means(j, t, s, co, pair, ours)
            self._check_variance(j, t, s, co["variance"], pair, j == first_pair)

    def _refuse_means(self, j, t, s, co, pair, ours):
        where = f"steps[{j}]"
        numbers = ", ".join(f"{k} = {co[k]!r}" for k in ("x0", "xt", "eps"))
        if self.sampler == "ddim":
            ddpm = self._means("ddpm", 1.0, pair)
            if all(_close(co[k], ddpm[k]) for k in ddpm):
                self._refuse("sampler", f"contradicts {where} (t = {t}, s = {s}): its "
                             f"coefficients ({numbers}) are a ddpm step's posterior mean")
            if _close(co["x0"], ours["x0"]) and _close(co["xt"], 0.0):
                implied = self._implied_eta(co["eps"], pair)
                if implied is not None and self._every_eps_fits(implied):
                    self._refuse("eta", f"contradicts the steps: {where}.eps = {co['eps']!r} "
                                 f"(t = {t}, s = {s}) and every other step's are the DDIM "
                                 f"coefficients √(β̄_s − η²β̃_{{s|t}}) of η = {implied:.9g}")
        elif _close(co["x0"], math.sqrt(pair[0])) and _close(co["xt"], 0.0):
            self._refuse("sampler", f"contradicts {where} (t = {t}, s = {s}): its "
                         f"coefficients ({numbers}) are a ddim step's (x0 = √ᾱ_s, xt = 0)")
        formulas = {"ddpm": {"x0": "β_{t|s}·√ᾱ_s/β̄_t", "xt": "√α_{t|s}·β̄_s/β̄_t",
                             "eps": "0"},
                    "ddim": {"x0": "√ᾱ_s", "xt": "0", "eps": "√(β̄_s − η²β̃_{s|t})"}}
        for key in ("x0", "xt", "eps"):
            if not _close(co[key], ours[key]):
                self._refuse(f"{where}.{key}", f"must be {ours[key]!r}, the {self.sampler} "
                             f"coefficient {formulas[self.sampler][key]} of t = {t}, s = {s} "
                             f"from the plan's alpha_bar and beta_bar"
                             f"{', η = ' + repr(self.eta) if self.sampler == 'ddim' else ''}, "
                             f"within a relative {RELATIVE_TOLERANCE:g}", repr(co[key]))

    @staticmethod
    def _implied_eta(eps, pair):
        """The η ∈ [0, 1] whose DDIM coefficient is `eps`, or None."""
        _, _, bb_s, _, _, _, beta_tilde = pair
        if not beta_tilde > 0.0:
            return None
        eta2 = (bb_s - eps * eps) / beta_tilde
        if not -1e-9 <= eta2 <= 1.0 + 1e-9:
            return None
        return math.sqrt(min(1.0, max(0.0, eta2)))

    def _every_eps_fits(self, eta):
        for j, (t, s, co) in enumerate(self.steps):
            if s > 0 and not _close(co["eps"], self._means("ddim", eta, self._pair(j, t, s))
                                    ["eps"], relative=1e-6):
                return False
        return True

    def _check_variance(self, j, t, s, sigma2, pair, first_pair):
        ab_s, ab_t, bb_s, bb_t, alpha_ts, beta_ts, beta_tilde = pair
        lambda2 = self.eta * self.eta * beta_tilde
        lambda_name = "β̃_{s|t}" if self.sampler == "ddpm" else "η²β̃_{s|t}"
        if self.variance == "analytic":
            # Bao et al. 2022, Theorem 2 (Eq. 11) and Eq. 12: λ² + c·v with v in
            # [0, min(β̄_t/ᾱ_t, ((b − a)/2)²)], c the coefficient of v (varianceCoefficient).
            r = max(0.0, (bb_s - lambda2) * alpha_ts / bb_t)
            one_minus_sqrt_r = (beta_ts + alpha_ts * lambda2) / (bb_t * (1.0 + math.sqrt(r)))
            c = ab_s * one_minus_sqrt_r * one_minus_sqrt_r
            half_width2 = 0.25 * (self.high - self.low) ** 2
            cap = half_width2 if ab_t == 0.0 else min(bb_t / ab_t, half_width2)
            low, high = lambda2, lambda2 + c * cap
            what = (f"the analytic σ² of a {self.sampler} step (t = {t}, s = {s}) lies in "
                    f"[λ², λ² + c·min(β̄_t/ᾱ_t, ((b − a)/2)²)] with λ² = {lambda_name}")
        else:
            low = high = lambda2 if self.variance == "small" else beta_ts
            what = (f"the {self.variance} variance of a {self.sampler} step (t = {t}, s = {s}) "
                    f"is {lambda_name if self.variance == 'small' else 'β_{t|s}'}")
        if first_pair and self.clip_threshold is not None:
            low, high = min(low, self.clip_threshold), min(high, self.clip_threshold)
            what += f", capped at clip_threshold = {self.clip_threshold!r}"
        if low == high:
            if not _close(sigma2, low):
                self._refuse(f"steps[{j}].variance", f"must be {low!r}: {what}, within a "
                             f"relative {RELATIVE_TOLERANCE:g}", repr(sigma2))
        elif not (sigma2 >= low - _tolerance(low) and sigma2 <= high + _tolerance(high)):
            self._refuse(f"steps[{j}].variance", f"must lie in [{low!r}, {high!r}]: {what}",
                         repr(sigma2))

    def _get(self, key):
        return self.raw.get(key)

    def _refuse(self, key, reason, value=None):
        shown = value if value is not None else (
            contract_io.value_text(self.raw[key]) if key in self.raw else "missing")
        raise FieldError(f"--plan: {self.path}: {key}", shown, reason)

    @staticmethod
    def _is_number(v):
        return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)

    def _whole(self, key, v, limit):
        if isinstance(v, bool) or not isinstance(v, int) or not limit.min <= v <= limit.max:
            self._refuse(key, f"{limit.what}: a whole number in {limit.min}..{limit.max} is "
                              f"expected", contract_io.value_text(v))
        return v

    def _numbers(self, key, count, low, high):
        values = self._get(key)
        if not isinstance(values, list) or len(values) != count:
            self._refuse(key, f"a list of N = {count} numbers is expected")
        for i, v in enumerate(values):
            if not self._is_number(v) or not low <= v <= high:
                self._refuse(f"{key}[{i}]", f"a number in [{low:g}, {high:g}] is expected",
                             contract_io.value_text(v))
        return np.asarray(values, dtype=np.float64)


def _tolerance(expected, relative=RELATIVE_TOLERANCE):
    return relative * abs(expected) + ABSOLUTE_TOLERANCE


def _close(got, expected, relative=RELATIVE_TOLERANCE):
    return abs(got - expected) <= _tolerance(expected, relative)


def _log_alpha_bar(alpha_bar, beta_bar):
    """log ᾱ from ᾱ and β̄ = 1 − ᾱ, from whichever keeps the digits (−∞ at ᾱ = 0)."""
    if alpha_bar == 0.0:
        return -math.inf
    return math.log1p(-beta_bar) if beta_bar < 0.5 else math.log(alpha_bar)


def clip_threshold_of(y):
    """App. F.2 (core/gaussian/variance.cpp, firstPairClipThreshold): (y·(2/255)·√(π/2))²."""
    scale = y * (2.0 / 255.0) * math.sqrt(math.pi / 2.0)
    return scale * scale


def _check_model_schedule(plan, c, model_path):
    if c["num_steps"] != plan.num_steps:
        raise FieldError(f"{plan.path}: N", plan.num_steps,
                         f"the model {model_path} has num_steps = {c['num_steps']}")
    try:
        sched = gaussian_schedule(c["schedule"], c["num_steps"])
    except ScheduleError as e:
        raise FieldError(e.field, e.value, e.reason) from None
    theirs = np.asarray(sched.alpha_bar[1:], dtype=np.float64)
    worst = int(np.argmax(np.abs(theirs - plan.alpha_bar)))
    if abs(theirs[worst] - plan.alpha_bar[worst]) > 1e-9 * max(1.0, abs(theirs[worst])):
        raise FieldError(f"{plan.path}: alpha_bar[{worst}]", repr(float(plan.alpha_bar[worst])),
                         f"the plan's schedule is not the model's ({printable(c['schedule'], 60)}"
                         f": ᾱ_{worst + 1} = {float(theirs[worst])!r})")


def sample(module, c, plan, count, seed, batch, device, condition, model_path):
    """(samples [count, *shape] as numpy, output dtype) of the plan's sampler."""
    shape = tuple(c["shape"])
    d = int(np.prod(shape))
    num_conditions = c["num_conditions"]
    label = num_conditions if condition is None else condition
    module = module.to(device)
    module.eval()
    generator = torch.Generator(device=device)
    generator.manual_seed(seed)
    alpha_bar = plan.alpha_bar
    beta_bar = plan.beta_bar
    out_dtype = torch.float32
    chunks = []
    for start in range(0, count, batch):
        b = min(batch, count - start)
        x = torch.randn((b, d), generator=generator, device=device, dtype=torch.float64)
        for t, s, co in plan.steps:
            ab, bb = float(alpha_bar[t - 1]), float(beta_bar[t - 1])
            inputs = [x.to(torch.float32).reshape((b,) + shape),
                      torch.full((b,), t - 1, dtype=torch.int64, device=device)]
            if num_conditions > 0:
                inputs.append(torch.full((b,), label, dtype=torch.int64, device=device))
            try:
                with torch.no_grad():
                    out = module(*inputs)
            except (torch.jit.Error, RuntimeError) as e:
                if is_interrupt(e):
                    raise KeyboardInterrupt from None
                raise network_error(e, model_path) from None
            if not isinstance(out, torch.Tensor) or tuple(out.shape) != (b,) + shape:
                got = list(out.shape) if isinstance(out, torch.Tensor) else type(out).__name__
                raise FieldError("--model", model_path, f"expected an output tensor of shape "
                                 f"{[b] + list(shape)}, got {got}")
            if not out.is_floating_point():
                raise FieldError("--model", model_path, f"returned {out.dtype}, not floats")
            if out.dtype == torch.float64:
                out_dtype = torch.float64
            pred = out.to(torch.float64).reshape(b, d)
            if not bool(torch.isfinite(pred).all()):
                raise FieldError("--model", model_path, f"the network's prediction at n = {t} "
                                 f"is not finite")
            if c["prediction"] == "sample":
                x0 = pred
            elif c["prediction"] == "v_prediction":
                x0 = math.sqrt(ab) * x - math.sqrt(bb) * pred
            else:
                if ab == 0.0:
                    raise FieldError(f"{plan.path}: alpha_bar[{t - 1}]", "0",
                                     "at ᾱ = 0 an ε-prediction says nothing about x₀; use a "
                                     "trajectory that ends before N")
                x0 = x / math.sqrt(ab) - math.sqrt(bb / ab) * pred
            x0 = x0.clamp(plan.low, plan.high)
            if s == 0:
                x = x0
                break
            eps = None
            if co["eps"] != 0.0:
                eps = (x - math.sqrt(ab) * x0) / math.sqrt(bb)
            x = co["x0"] * x0 + co["xt"] * x + (co["eps"] * eps if eps is not None else 0.0)
            if co["variance"] > 0.0:
                z = torch.randn((b, d), generator=generator, device=device, dtype=torch.float64)
                x = x + math.sqrt(co["variance"]) * z
        if not bool(torch.isfinite(x).all()):
            raise FieldError("--model", model_path, "a sample is not finite")
        chunks.append(x.to("cpu"))
    samples = torch.cat(chunks).reshape((count,) + shape).to(out_dtype)
    return samples.numpy()


def run(args):
    # The output is none of the inputs, checked before anything is read.
    check_not_an_input([(args.out, "--out")], ((args.model, "--model"), (args.plan, "--plan")))
    limits.check_range(COUNT, "--count", args.count)
    if args.seed < 0:
        raise FieldError("--seed", args.seed, "must be ≥ 0")
    limits.check_range(limits.SEED, "--seed", args.seed)
    limits.check_range(limits.BATCH, "--batch", args.batch)
    device = device_of(args.device)
    plan = Plan(args.plan)
    module, c = contract_io.load(args.model, "--model")
    if c["process"] != "gaussian":
        raise FieldError("process", c["process"], "sample needs a Gaussian model (ε, x₀ or v "
                         "prediction)")
    if args.condition is not None:
        if c["num_conditions"] == 0:
            raise FieldError("--condition", args.condition, "the model is unconditional")
        if not 0 <= args.condition < c["num_conditions"]:
            raise FieldError("--condition", args.condition, f"a label in 0.."
                             f"{c['num_conditions'] - 1} is expected")
    _check_model_schedule(plan, c, args.model)
    d = int(np.prod(c["shape"]))
    batch = min(args.batch, args.count)
    limits.check_memory("--batch", args.batch, f"batch·d·{BYTES_PER_BATCH_ENTRY} bytes "
                        f"(d = {d})", batch * d * BYTES_PER_BATCH_ENTRY)
    limits.check_memory("--count", args.count, f"count·d·8 bytes (d = {d})", args.count * d * 8)
    output_target(args.out, "--out")
    samples = sample(module, c, plan, args.count, args.seed, batch, device, args.condition,
                     args.model)
    buffer = io.BytesIO()
    np.save(buffer, samples)
    write_atomic(args.out, buffer.getvalue(), "--out")
    print(f"wrote {args.out}: {args.count} samples of shape {list(c['shape'])} "
          f"({samples.dtype}, {plan.sampler}, {len(plan.steps)} steps, {device})")
    return 0


def main(argv=None, prog="sample"):
    args = build_parser(prog).parse_args(argv)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
