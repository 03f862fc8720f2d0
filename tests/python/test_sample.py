"""sample: the plan's sampler on exact-oracle models (tests/torch/make_test_models.py) against the
closed-form law of its output, against the app's own sampler within Monte Carlo error (when
DIFFUSCOPE_BINARY is set), and its refusals."""
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import torch

from diffuscope_torch import contract
from diffuscope_torch.errors import FieldError
from diffuscope_torch.sample import Plan
from diffuscope_torch.schedules import gaussian_schedule
from support import read_bytes, run_cli

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "torch"))
import make_test_models as models  # noqa: E402

BINARY = os.environ.get("DIFFUSCOPE_BINARY", "")
N = models.N
S2 = models.S * models.S  # the data N(0, S² I)
SCHED = gaussian_schedule("linear", N)
TRAJECTORY = [1, 200, 400, 600, 800, 1000]


def save_model(folder, prediction="epsilon", num_conditions=0, module=None):
    name = "exact" if module is None else type(module).__name__
    path = os.path.join(folder, f"{name}-{prediction}-{num_conditions}.pt")
    if module is None:
        module = models.ExactEps(prediction) if num_conditions == 0 else \
            models.ExactEpsConditional(prediction, num_conditions)
    contract.save(torch.jit.script(module), path, **models.gaussian(
        prediction=prediction, num_conditions=num_conditions))
    return path


def hand_plan(sampler="ddpm", eta=1.0, low=-100.0, high=100.0):
    """A plan written here from the formulas (DDPM: β̃ and the posterior mean; DDIM(η): λ² and
    √(β̄_s − λ²)), not by the app."""
    ab, bb = SCHED.alpha_bar, SCHED.beta_bar
    steps = []
    k = len(TRAJECTORY)
    for j in range(k):
        t = TRAJECTORY[k - 1 - j]
        s = TRAJECTORY[k - 2 - j] if j + 1 < k else 0
        if s == 0:
            steps.append({"t": t, "s": 0, "variance": 0.0, "x0": 1.0, "xt": 0.0, "eps": 0.0})
            continue
        beta_ts = 1.0 - ab[t] / ab[s]
        beta_tilde = bb[s] / bb[t] * beta_ts
        if sampler == "ddpm":
            steps.append({"t": t, "s": s, "variance": beta_tilde,
                          "x0": beta_ts * math.sqrt(ab[s]) / bb[t],
                          "xt": math.sqrt(ab[t] / ab[s]) * bb[s] / bb[t], "eps": 0.0})
        else:
            lam2 = eta * eta * beta_tilde
            steps.append({"t": t, "s": s, "variance": lam2, "x0": math.sqrt(ab[s]), "xt": 0.0,
                          "eps": math.sqrt(bb[s] - lam2)})
    return {"format": "diffuscope-plan", "version": 1, "schedule": "linear", "N": N,
            "alpha_bar": list(ab[1:]), "beta_bar": list(bb[1:]), "timesteps": TRAJECTORY,
            "steps": steps, "sampler": sampler, "eta": eta, "variance": "small", "clip": 0,
            "clip_threshold": None, "gamma_source": None, "data_range": [low, high]}


def app_plan(spec, num_steps, timesteps, sampler, eta, variance, clip=0.0, seed=0,
             low=-1.0, high=1.0):
    """A plan computed as `diffuscope plan` computes it (app/cli/cmd_gaussian.cpp, runPlan;
    core/gaussian/variance.cpp): pair quantities from log ᾱ differences, the analytic σ² from a
    random Γ (so that v is clipped at 0, at its cap, and in between), the first pair capped by a
    clip."""
    sched = gaussian_schedule(spec, num_steps)
    log_ab, ab, bb = sched.log_alpha_bar, sched.alpha_bar, sched.beta_bar
    rng = np.random.default_rng(seed)
    eta = 1.0 if sampler == "ddpm" else eta

    def beta_ts(s, t):
        return -math.expm1(log_ab[t] - log_ab[s])

    def beta_tilde(s, t):
        return beta_ts(s, t) * bb[s] / bb[t]

    half2 = 0.25 * (high - low) ** 2
    k = len(timesteps)
    sigma2 = []
    for j in range(k - 1):
        s, t = timesteps[k - 2 - j], timesteps[k - 1 - j]
        lam2 = eta * eta * beta_tilde(s, t)
        if variance == "analytic":
            a = math.exp(log_ab[t] - log_ab[s])
            r = max(0.0, (bb[s] - lam2) * a / bb[t])
            c = ab[s] * ((beta_ts(s, t) + a * lam2) / (bb[t] * (1.0 + math.sqrt(r)))) ** 2
            if ab[t] == 0.0:
                v = cap = half2
            else:
                v = bb[t] / ab[t] * (1.0 - bb[t] * rng.uniform(0.0, 2.0 / bb[t]))
                cap = min(bb[t] / ab[t], half2)
            sigma2.append(lam2 + c * min(max(v, 0.0), cap))
        else:
            sigma2.append(lam2 if variance == "small" else beta_ts(s, t))
    threshold = (clip * (2.0 / 255.0) * math.sqrt(math.pi / 2.0)) ** 2 if clip > 0 else None
    if threshold is not None:
        sigma2[-1] = min(sigma2[-1], threshold)
    steps = []
    for j in range(k):
        t = timesteps[k - 1 - j]
        s = timesteps[k - 2 - j] if j + 1 < k else 0
        c0, ct, ce, v = 1.0, 0.0, 0.0, 0.0
        if s > 0:
            v = sigma2[j]
            if sampler == "ddim":
                c0 = math.sqrt(ab[s])
                ce = math.sqrt(max(0.0, bb[s] - eta * eta * beta_tilde(s, t)))
            else:
                c0 = beta_ts(s, t) * math.sqrt(ab[s]) / bb[t]
                ct = math.sqrt(math.exp(log_ab[t] - log_ab[s])) * bb[s] / bb[t]
        steps.append({"t": t, "s": s, "variance": v, "x0": c0, "xt": ct, "eps": ce})
    return {"format": "diffuscope-plan", "version": 1, "schedule": spec, "N": num_steps,
            "alpha_bar": [float(a) for a in ab[1:]], "beta_bar": [float(b) for b in bb[1:]],
            "timesteps": list(timesteps), "sampler": sampler, "eta": eta, "variance": variance,
            "clip": clip, "clip_threshold": threshold, "gamma_source": None,
            "data_range": [low, high], "steps": steps}


def closed_form_variance(plan):
    """The output's variance per dimension: every step is linear in x_t for the exact
    denoiser x̂₀ = k_t x_t, k_t = √ᾱ_t S²/(ᾱ_t S² + β̄_t), so v_s = a²v_t + σ² from v = 1."""
    v = 1.0
    for step in plan["steps"]:
        t = step["t"]
        ab, bb = SCHED.alpha_bar[t], SCHED.beta_bar[t]
        k = math.sqrt(ab) * S2 / (ab * S2 + bb)
        if step["s"] == 0:
            return k * k * v
        a = step["x0"] * k + step["xt"] + step["eps"] * (1.0 - math.sqrt(ab) * k) / math.sqrt(bb)
        v = a * a * v + step["variance"]
    raise AssertionError("no decoder step")


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f)


def z_scores(a, b):
    """Per dimension, (mean difference, variance difference) over their standard errors: the
    sample variance's variance is (μ₄ − σ⁴)/n, from each sample's own fourth moment."""
    out = []
    for x in (a, b):
        x = x.reshape(len(x), -1).astype(np.float64)
        n = len(x)
        m = x.mean(0)
        v = x.var(0, ddof=1)
        m4 = ((x - m) ** 4).mean(0)
        out.append((m, v, v / n, (m4 - v * v) / n))
    (ma, va, sma, sva), (mb, vb, smb, svb) = out
    return (ma - mb) / np.sqrt(sma + smb), (va - vb) / np.sqrt(sva + svb)


class Sampler(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def sample(self, model, plan, count=20000, seed=1, extra=(), out="x.npy"):
        plan_path = os.path.join(self.dir, "plan.json")
        if isinstance(plan, dict):
            write_json(plan_path, plan)
        else:
            plan_path = plan
        path = os.path.join(self.dir, out)
        code, err = run_cli(["sample", "--model", model, "--plan", plan_path, "--count", count,
                             "--seed", seed, "--device", "cpu", "--out", path, *extra])
        self.assertEqual(code, 0, err)
        return np.load(path)

    def test_output_law_is_the_closed_form_one(self):
        # 20000 draws: the sample variance's standard error is v·√(2/20000) = 1 % of v; 4.5 of
        # them is a 4.5 % window, and a wrong coefficient anywhere moves v by far more.
        for prediction in ("epsilon", "sample", "v_prediction"):
            for sampler, eta in (("ddpm", 1.0), ("ddim", 0.5), ("ddim", 0.0)):
                with self.subTest(prediction=prediction, sampler=sampler, eta=eta):
                    plan = hand_plan(sampler, eta)
                    x = self.sample(save_model(self.dir, prediction), plan)
                    self.assertEqual(x.shape, (20000, 2))
                    self.assertEqual(x.dtype, np.float32)
                    v = closed_form_variance(plan)
                    n = len(x)
                    zv = (x.astype(np.float64).var(0, ddof=1) - v) / (v * math.sqrt(2.0 / (n - 1)))
                    zm = x.astype(np.float64).mean(0) / math.sqrt(v / n)
                    self.assertLess(np.max(np.abs(zv)), 4.5, f"variance {x.var(0)} vs {v}")
                    self.assertLess(np.max(np.abs(zm)), 4.5, f"mean {x.mean(0)}")

    def test_the_same_seed_gives_the_same_samples(self):
        model = save_model(self.dir)
        a = self.sample(model, hand_plan(), count=500, seed=7, out="a.npy")
        b = self.sample(model, hand_plan(), count=500, seed=7, out="b.npy")
        c = self.sample(model, hand_plan(), count=500, seed=8, out="c.npy")
        np.testing.assert_array_equal(a, b)
        self.assertFalse(np.array_equal(a, c))

    def test_clamps_x0_to_the_data_range(self):
        x = self.sample(save_model(self.dir), hand_plan(low=-0.1, high=0.2), count=2000)
        self.assertGreaterEqual(x.min(), np.float32(-0.1))  # the bounds as float32 holds them
        self.assertLessEqual(x.max(), np.float32(0.2))
        self.assertLess(x.min(), -0.09)  # x̂₀ does reach them
        self.assertGreater(x.max(), 0.19)

    def test_conditional_models_default_to_the_unconditional_prediction(self):
        plan = hand_plan()
        plain = self.sample(save_model(self.dir), plan, count=300, out="plain.npy")
        conditional = save_model(self.dir, num_conditions=3)
        unconditional = self.sample(conditional, plan, count=300, out="null.npy")
        np.testing.assert_array_equal(plain, unconditional)
        # label 1 shifts every prediction by −200: visibly other samples
        labelled = self.sample(conditional, plan, count=300, out="one.npy",
                               extra=["--condition", 1])
        self.assertGreater(float(np.abs(labelled - plain).max()), 1.0)

    def test_a_float64_model_gives_float64_samples(self):
        class Double(models.ExactEps):
            def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
                return self.exact(x, t)

        model = save_model(self.dir, module=Double("epsilon"))
        x = self.sample(model, hand_plan(), count=100)
        self.assertEqual(x.dtype, np.float64)

    def refused(self, argv):
        code, err = run_cli(argv)
        self.assertEqual(code, 2, err)
        self.assertEqual(err.strip().count("\n"), 0, err)
        return err

    def test_refusals_name_the_field(self):
        model = save_model(self.dir)
        out = os.path.join(self.dir, "out.npy")
        with open(out, "wb") as f:
            f.write(b"old")
        cases = [
            (lambda p: p.update(format="other"), "plan.json: format: \"other\""),
            (lambda p: p["steps"][2].update(variance=-1.0), "steps[2].variance: -1"),
            (lambda p: p["steps"][1].pop("x0"), "steps[1].x0: missing"),
            (lambda p: p.pop("beta_bar"), "beta_bar: missing"),
            (lambda p: p.update(sampler="euler"), "sampler: \"euler\""),
            (lambda p: p.update(timesteps=[1, 200, 200, 600, 800, 1000]), "timesteps[2]: 200"),
            (lambda p: p["steps"][0].update(t=999), "steps[0].t: 999"),
            (lambda p: p.update(data_range=[1, -1]), "data_range"),
        ]
        for change, expected in cases:
            with self.subTest(expected=expected):
                plan = hand_plan()
                change(plan)
                write_json(os.path.join(self.dir, "plan.json"), plan)
                err = self.refused(["sample", "--model", model, "--plan",
                                    os.path.join(self.dir, "plan.json"), "--count", 10, "--seed",
                                    0, "--device", "cpu", "--out", out])
                self.assertIn(expected, err)
        # a plan for another N or schedule than the model's
        other = hand_plan()
        other["alpha_bar"][9] *= 0.5
        other["beta_bar"][9] = 1.0 - other["alpha_bar"][9]  # a plan consistent in itself
        write_json(os.path.join(self.dir, "plan.json"), other)
        err = self.refused(["sample", "--model", model, "--plan",
                            os.path.join(self.dir, "plan.json"), "--count", 10, "--seed", 0,
                            "--device", "cpu", "--out", out])
        self.assertIn("alpha_bar[9]", err)
        self.assertIn("the plan's schedule is not the model's", err)
        write_json(os.path.join(self.dir, "plan.json"), hand_plan())
        base = ["sample", "--model", model, "--plan", os.path.join(self.dir, "plan.json"),
                "--seed", 0, "--out", out]
        self.assertIn("--count: 0", self.refused(base + ["--count", 0, "--device", "cpu"]))
        self.assertIn("--condition: 1", self.refused(base + ["--count", 5, "--device", "cpu",
                                                             "--condition", 1]))
        self.assertIn("--device: tpu", self.refused(base + ["--count", 5, "--device", "tpu"]))
        if not torch.cuda.is_available():
            self.assertIn("--device: cuda", self.refused(base + ["--count", 5, "--device",
                                                                 "cuda"]))
        for module, expected in ((models.WrongShape(), "expected an output tensor of shape"),
                                 (models.GaussianNotFiniteAt("epsilon", 600), "at n = 600 is not finite")):
            broken = save_model(self.dir, module=module)
            err = self.refused(["sample", "--model", broken, "--plan",
                                os.path.join(self.dir, "plan.json"), "--count", 5, "--seed", 0,
                                "--device", "cpu", "--out", out])
            self.assertIn(f"--model: {broken}: ", err)
            self.assertIn(expected, err)
        with open(out, "rb") as f:
            self.assertEqual(f.read(), b"old")  # nothing refused touched the old file


def snapshot(folder):
    """{name: bytes} of the files in `folder`."""
    return {name: read_bytes(os.path.join(folder, name)) for name in sorted(os.listdir(folder))}


class PlanConsistency(unittest.TestCase):
    """A plan is checked against itself before the model is read: β̄ = 1 − ᾱ, each step's mean
    coefficients and σ² against what its ᾱ, β̄, sampler, η, variance and clip give, and the
    labels against the numbers. A refusal is one line naming --plan, the entry and the value,
    and leaves every file as it was."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = cls.tmp.name
        cls.model = save_model(cls.dir)
        cls.plan_path = os.path.join(cls.dir, "p.json")
        cls.out = os.path.join(cls.dir, "x.npy")
        with open(cls.out, "wb") as f:
            f.write(b"old samples")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def refused(self, plan, *expected):
        write_json(self.plan_path, plan)
        before = snapshot(self.dir)
        code, err = run_cli(["sample", "--model", self.model, "--plan", self.plan_path,
                             "--count", 10, "--seed", 0, "--device", "cpu", "--out", self.out])
        self.assertEqual(code, 2, err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn(f"--plan: {self.plan_path}: ", err)
        for text in expected:
            self.assertIn(text, err)
        self.assertEqual(snapshot(self.dir), before)
        return err.strip()

    def test_beta_bar_must_be_one_minus_alpha_bar(self):
        plan = hand_plan()
        plan["beta_bar"][3] += 1e-9
        self.refused(plan, f"beta_bar[3]: {plan['beta_bar'][3]!r}: must equal 1 − alpha_bar[3] = "
                           f"{1.0 - plan['alpha_bar'][3]!r} within 1e-12")

    def test_an_edited_coefficient(self):
        for key in ("x0", "xt"):
            with self.subTest(key=key):
                plan = hand_plan()
                plan["steps"][1][key] *= 1.0 + 1e-6
                self.refused(plan, f"steps[1].{key}: {plan['steps'][1][key]!r}: must be ",
                             "the ddpm coefficient", "of t = 800, s = 600",
                             "within a relative 1e-09")
        plan = hand_plan("ddim", 0.5)
        plan["steps"][2]["x0"] *= 1.0 + 1e-6
        self.refused(plan, "steps[2].x0", "must be", "the ddim coefficient √ᾱ_s")
        plan = hand_plan()
        plan["steps"][2]["eps"] = 0.001
        self.refused(plan, "steps[2].eps: 0.001: must be 0.0, the ddpm coefficient 0")
        plan = hand_plan()
        plan["steps"][5]["x0"] = 0.9
        self.refused(plan, "steps[5].x0: 0.9: the last step (s = 0) outputs x̂₀")

    def test_the_sampler_label_must_fit_the_numbers(self):
        plan = hand_plan("ddpm")
        plan["sampler"] = "ddim"
        self.refused(plan, 'sampler: "ddim": contradicts steps[0] (t = 1000, s = 800): its '
                           'coefficients (x0 = ', "are a ddpm step's posterior mean")
        plan = hand_plan("ddim", 1.0)
        plan["sampler"] = "ddpm"
        self.refused(plan, 'sampler: "ddpm": contradicts steps[0]', "are a ddim step's")

    def test_eta(self):
        for value, text in (("lots", 'eta: "lots": η is a number in [0, 1]'),
                            (None, "eta: null: η is a number in [0, 1]"),
                            (1.5, "eta: 1.5: η is a number in [0, 1]"),
                            (True, "eta: true: η is a number")):
            with self.subTest(value=value):
                plan = hand_plan("ddim", 0.5)
                plan["eta"] = value
                self.refused(plan, text)
        plan = hand_plan("ddpm")
        plan["eta"] = 0.5
        self.refused(plan, "eta: 0.5: a ddpm plan has η = 1")
        plan = hand_plan("ddim", 0.5)
        plan["eta"] = 0.7
        self.refused(plan, "eta: 0.7: contradicts the steps: steps[0].eps = ",
                     "the DDIM coefficients √(β̄_s − η²β̃_{s|t}) of η = 0.5")

    def test_variances(self):
        plan = hand_plan()
        plan["steps"][2]["variance"] *= 1.01
        self.refused(plan, "steps[2].variance", "must be", "the small variance of a ddpm step "
                     "(t = 600, s = 400) is β̃_{s|t}")
        plan = hand_plan()
        plan["variance"] = "large"  # the numbers are β̃, not β_{t|s}
        self.refused(plan, "steps[0].variance", "the large variance of a ddpm step")
        plan = hand_plan("ddim", 0.5)
        plan["variance"] = "large"
        self.refused(plan, 'variance: "large": the ddim sampler\'s variance is analytic or small')
        ab, bb = SCHED.alpha_bar, SCHED.beta_bar
        beta_ts = 1.0 - ab[600] / ab[400]
        for factor, sigma2 in ((2.0, beta_ts / (1.0 - beta_ts)), (0.5, bb[400] / bb[600] * beta_ts)):
            with self.subTest(factor=factor):
                plan = hand_plan()
                plan["variance"] = "analytic"  # within [β̃_{s|t}, β_{t|s}/α_{t|s}]
                plan["steps"][2]["variance"] = factor * sigma2
                self.refused(plan, "steps[2].variance", "must lie in [",
                             "the analytic σ² of a ddpm step (t = 600, s = 400) lies in")
        plan = hand_plan()
        plan["clip"] = 1.0
        self.refused(plan, "clip_threshold: null: must be 9.66")
        plan = app_plan("linear", N, TRAJECTORY, "ddpm", 1.0, "small", clip=1.0)
        plan["steps"][4]["variance"] = plan["steps"][3]["variance"]  # not capped
        self.refused(plan, "steps[4].variance", "capped at clip_threshold")

    def test_plans_as_the_app_writes_them_are_read(self):
        # Every schedule kind, zero-SNR (ᾱ_N = 0), adjacent and far timesteps, every sampler,
        # η and variance, with and without a clip.
        rng = np.random.default_rng(5)
        count = 0
        for spec, n in (("linear", 1000), ("cosine", 1000), ("scaled-linear", 1000),
                        ("sigmoid", 200), ("cosine,zero-snr", 1000), ("linear", 20000)):
            trajectories = ([1, 2, 3, 4, 5, n - 1, n], list(range(1, min(n, 300) + 1)),
                            sorted({1, n, *rng.integers(1, n + 1, 30).tolist()}))
            for timesteps in trajectories:
                for sampler, eta, variance in (("ddpm", 1.0, "small"), ("ddpm", 1.0, "large"),
                                               ("ddpm", 1.0, "analytic"), ("ddim", 0.0, "small"),
                                               ("ddim", 0.3, "analytic"),
                                               ("ddim", 1.0, "analytic")):
                    for clip in (0.0, 1.0):
                        plan = app_plan(spec, n, timesteps, sampler, eta, variance, clip,
                                        seed=count)
                        write_json(self.plan_path, plan)
                        try:
                            Plan(self.plan_path)
                        except FieldError as e:
                            self.fail(f"{spec} N = {n} {sampler} η = {eta} {variance} clip = "
                                      f"{clip} K = {len(timesteps)}: {e}")
                        count += 1
        self.assertEqual(count, 6 * 3 * 6 * 2)


@unittest.skipUnless(BINARY and os.path.exists(BINARY), "DIFFUSCOPE_BINARY is not set")
class AgainstTheAppsSampler(unittest.TestCase):
    """`diffuscope plan` then this sampler, against `diffuscope sample` with the same Γ (same
    data, M and seed), trajectory and sampler: per dimension the means and variances agree
    within 4.5 standard errors. 4 cases × 2 dimensions × 2 statistics = 16 z-scores, so a
    correct sampler fails by chance with probability about 16·6.8e−6 ≈ 1e−4 (and the seeds are
    fixed). With 20000 draws each, a variance differs detectably at about 4.5·√2·1.4 % ≈ 9 %."""

    COUNT = 20000
    COMMON = ["--data", "gaussian:d=2,s=0.5", "--trajectory", "even:10", "--gamma-samples", "200",
              "--seed", "3", "--threads", "2"]

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def app(self, args):
        run = subprocess.run([BINARY, *args], capture_output=True, text=True)
        if run.returncode != 0 and "no LibTorch" in run.stderr:
            self.skipTest("the app was built without LibTorch")
        self.assertEqual(run.returncode, 0, run.stderr)
        return run

    def both(self, model, plan_args, sample_args):
        plan = os.path.join(self.dir, "plan.json")
        self.app(["plan", "--model", model, *self.COMMON, *plan_args, "--out", plan])
        csv = os.path.join(self.dir, "app.csv")
        self.app(["sample", "--model", model, *self.COMMON, *sample_args, "--count",
                  str(self.COUNT), "--out", csv])
        theirs = np.loadtxt(csv, delimiter=",", skiprows=1)
        out = os.path.join(self.dir, "ours.npy")
        code, err = run_cli(["sample", "--model", model, "--plan", plan, "--count", self.COUNT,
                             "--seed", 11, "--device", "cpu", "--out", out])
        self.assertEqual(code, 0, err)
        return np.load(out), theirs

    def test_agrees_with_the_apps_sampler(self):
        cases = [
            ("epsilon", 0, [], ["--sampler", "analytic-ddpm"]),
            ("sample", 0, ["--sampler", "ddim", "--eta", "0.5"],
             ["--sampler", "analytic-ddim", "--eta", "0.5"]),
            ("v_prediction", 0, ["--variance", "small", "--clip-first", "1"],
             ["--sampler", "ddpm", "--variance", "small", "--clip-first", "1"]),
            ("epsilon", 3, ["--variance", "large"], ["--sampler", "ddpm", "--variance", "large"]),
        ]
        for prediction, conditions, plan_args, sample_args in cases:
            with self.subTest(prediction=prediction, plan=plan_args):
                model = save_model(self.dir, prediction, conditions)
                ours, theirs = self.both(model, plan_args, sample_args)
                self.assertEqual(ours.shape, theirs.shape)
                zm, zv = z_scores(ours, theirs)
                self.assertLess(np.max(np.abs(zm)), 4.5, f"means {ours.mean(0)} {theirs.mean(0)}")
                self.assertLess(np.max(np.abs(zv)), 4.5, f"variances {ours.var(0)} {theirs.var(0)}")

    def test_a_different_variance_is_detected(self):
        # The same comparison fails when the plan's σ² are not the app sampler's: the test has
        # the power to see a wrong variance.
        model = save_model(self.dir)
        ours, theirs = self.both(model, ["--variance", "large"], ["--sampler", "analytic-ddpm"])
        _, zv = z_scores(ours, theirs)
        self.assertGreater(np.max(np.abs(zv)), 4.5, f"variances {ours.var(0)} {theirs.var(0)}")


if __name__ == "__main__":
    unittest.main()
