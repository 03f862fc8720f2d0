"""ms-eps --nll-terms against the closed forms of the exact Gaussian oracle."""
import csv
import json
import math
import os
import tempfile
import unittest

import numpy as np

from support import run_cli, save_closed_form

N = 40
DIM = 3
S2 = 0.36
LOW, HIGH, LEVELS = -10.0, 10.0, 65536  # a grid so fine that the data stay Gaussian


def beta_tilde(ab, s, t):
    return (1 - ab[s]) / (1 - ab[t]) * (1 - ab[t] / ab[s])


class NllTermsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        cls.data = os.path.join(d, "x.npy")
        np.save(cls.data, np.random.default_rng(2).normal(0, math.sqrt(S2), (4000, DIM)))
        cls.models = {}
        for prediction in ("epsilon", "sample", "v_prediction"):
            cls.models[prediction] = os.path.join(d, f"{prediction}.pt")
            cls.sched = save_closed_form(cls.models[prediction], "linear", N, DIM, S2,
                                         prediction)
        cls.ab = np.asarray(cls.sched.alpha_bar, dtype=np.float64)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def plan(self, name, timesteps, variance):
        ab = self.ab
        steps = []
        for j in range(len(timesteps) - 1, 0, -1):
            s, t = timesteps[j - 1], timesteps[j]
            v = beta_tilde(ab, s, t) if variance == "small" else 1 - ab[t] / ab[s]
            steps.append({"t": t, "s": s, "variance": v})
        steps.append({"t": timesteps[0], "s": 0, "variance": 1e-4})
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            json.dump({"format": "diffuscope-plan", "version": 1, "schedule": "linear", "N": N,
                       "alpha_bar": [float(a) for a in ab[1:]], "timesteps": timesteps,
                       "steps": steps, "variance": variance}, f)
        return path

    def terms(self, plan, prediction="epsilon", samples=10000, extra=()):
        out = os.path.join(self.tmp.name, "terms.csv")
        code, err = run_cli(["ms-eps", "--model", self.models[prediction], "--data", self.data,
                             "--samples", samples, "--seed", 5, "--out", out, "--nll-terms",
                             plan, "--levels", LEVELS, f"--data-range={LOW},{HIGH}", *extra])
        self.assertEqual(code, 0, err)
        with open(out) as f:
            return list(csv.DictReader(f))

    def expected_gap(self, t, q):
        """E‖x₀ − x̂₀*(x_t)‖² for x̂₀* = k x_t, k = √ᾱ s²/(ᾱ s² + β̄), data of mean square q."""
        a, b = self.ab[t], 1 - self.ab[t]
        k = math.sqrt(a) * S2 / (a * S2 + b)
        return DIM * ((1 - k * math.sqrt(a)) ** 2 * q + k * k * b)

    def test_terms_match_the_closed_forms(self):
        timesteps = [1, 4, 11, 25, 40]
        q = float(np.mean(np.square(np.load(self.data))))
        ab = self.ab
        for variance in ("small", "large"):
            rows = self.terms(self.plan(f"{variance}.json", timesteps, variance))
            self.assertEqual([r["term"] for r in rows],
                             ["prior", "pair", "pair", "pair", "pair", "decoder", "total"])
            pairs = [(int(r["s"]), int(r["t"])) for r in rows if r["term"] == "pair"]
            self.assertEqual(pairs, [(25, 40), (11, 25), (4, 11), (1, 4)])
            zs = []
            for r in rows[:-1]:
                s, t = int(r["s"]), int(r["t"])
                if r["term"] == "prior":
                    want = 0.5 * (DIM * (1 - ab[t] - math.log(1 - ab[t]) - 1) + ab[t] * DIM * q)
                elif r["term"] == "pair":
                    lam, sig = beta_tilde(ab, s, t), float(r["variance"])
                    c0 = (1 - ab[t] / ab[s]) * math.sqrt(ab[s]) / (1 - ab[t])
                    want = 0.5 * (DIM * (lam / sig + math.log(sig / lam) - 1)
                                  + c0 * c0 * self.expected_gap(t, q) / sig)
                else:
                    # A fine grid: −log of a bin ≈ −log(density · width).
                    var = beta_tilde(ab, 1, 2)
                    self.assertAlmostEqual(float(r["variance"]), var, delta=1e-15)
                    width = (HIGH - LOW) / (LEVELS - 1)
                    want = DIM * (0.5 * math.log(2 * math.pi * var) - math.log(width)) \
                        + self.expected_gap(t, q) / (2 * var)
                se = float(r["standard_error_nats"])
                zs.append((float(r["nats"]) - want) / max(se, 1e-12))
                self.assertAlmostEqual(float(r["bits_per_dim"]),
                                       float(r["nats"]) / (DIM * math.log(2)), delta=1e-12)
            self.assertLess(max(abs(z) for z in zs), 4.0, (variance, zs))
            # Six terms: Σz² is about χ²_6 (its 99.9 % point is 22.5).
            self.assertLess(sum(z * z for z in zs), 22.5, (variance, zs))
            total = rows[-1]
            self.assertAlmostEqual(float(total["nats"]),
                                   sum(float(r["nats"]) for r in rows[:-1]), delta=1e-9)
            if variance == "small":  # λ² = σ²: no variance mismatch part
                self.assertTrue(all(float(r["nats"]) >= 0 for r in rows[1:5]))

    def test_prediction_types_agree_and_batch_does_not_matter(self):
        plan = self.plan("p.json", [2, 9, 30], "large")
        ref = self.terms(plan, samples=200)
        again = self.terms(plan, samples=200, extra=("--batch", "7"))
        # Other calls of the network: the same draws, rounded by kernels of another shape.
        self.assertEqual(len(again), len(ref))
        for a, b in zip(again, ref):
            self.assertAlmostEqual(float(a["nats"]), float(b["nats"]),
                                   delta=1e-6 * abs(float(b["nats"])) + 1e-9)
        for prediction in ("sample", "v_prediction"):
            rows = self.terms(plan, prediction, samples=200)
            for a, b in zip(rows, ref):
                self.assertAlmostEqual(float(a["nats"]), float(b["nats"]),
                                       delta=1e-4 * abs(float(b["nats"])) + 1e-6)

    def test_refused_plans(self):
        good = self.plan("g.json", [1, 10, 40], "small")
        with open(good) as f:
            plan = json.load(f)
        cases = [("N", dict(plan, N=N + 1)),
                 ("alpha_bar", dict(plan, alpha_bar=[a * 0.99 for a in plan["alpha_bar"]])),
                 ("timesteps", dict(plan, timesteps=[10, 1])),
                 ("steps", dict(plan, steps=plan["steps"][1:]))]
        for field, bad in cases:
            with self.subTest(field=field):
                path = os.path.join(self.tmp.name, f"bad-{field}.json")
                with open(path, "w") as f:
                    json.dump(bad, f)
                out = os.path.join(self.tmp.name, "bad.csv")
                code, err = run_cli(["ms-eps", "--model", self.models["epsilon"], "--data",
                                     self.data, "--samples", 10, "--seed", 1, "--out", out,
                                     "--nll-terms", path])
                self.assertEqual(code, 2, err)
                self.assertEqual(len(err.strip().splitlines()), 1, err)
                self.assertIn(field, err)
                self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main()
