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
from diffuscope_torch.schedules import gaussian_schedule
from support import run_cli

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
        write_json(os.path.join(self.dir, "plan.json"), other)
        err = self.refused(["sample", "--model", model, "--plan",
                            os.path.join(self.dir, "plan.json"), "--count", 10, "--seed", 0,
                            "--device", "cpu", "--out", out])
        self.assertIn("alpha_bar[9]", err)
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
