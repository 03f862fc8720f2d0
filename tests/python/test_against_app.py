"""The script's Γ and the app's own estimate of the same TorchScript model agree within their
Monte Carlo errors. Runs when the ctest registration passes the built program as
DIFFUSCOPE_BINARY (and the build has LibTorch); skipped otherwise."""
import json
import os
import subprocess
import tempfile
import unittest

import numpy as np
import torch

from diffuscope_torch import contract
from diffuscope_torch.errors import FieldError
from diffuscope_torch.export import export_model
from fake_unet import CategoricalLogits
from support import run_cli, save_closed_form

BINARY = os.environ.get("DIFFUSCOPE_BINARY", "")


@unittest.skipUnless(BINARY and os.path.exists(BINARY), "DIFFUSCOPE_BINARY is not set")
class AgainstTheApp(unittest.TestCase):
    def test_ms_eps_equals_the_apps_gamma_within_the_errors(self):
        with tempfile.TemporaryDirectory() as tmp:
            steps, dim, s2, samples = 100, 2, 0.25, 400
            model = os.path.join(tmp, "model.pt")
            save_closed_form(model, "linear", steps, dim, s2, prediction="v_prediction")
            info = subprocess.run([BINARY, "info", model], capture_output=True, text=True)
            if info.returncode != 0 and "plugin is not installed" in info.stderr:
                self.skipTest("the app was built without LibTorch")
            self.assertEqual(info.returncode, 0, info.stderr)
            data = os.path.join(tmp, "x.npy")
            rng = np.random.default_rng(4)
            np.save(data, rng.normal(0.0, np.sqrt(s2), size=(50_000, dim)))
            script = os.path.join(tmp, "script.npy")
            code, err = run_cli(["ms-eps", "--model", model, "--data", data, "--samples", samples,
                                 "--seed", 1, "--out", script])
            self.assertEqual(code, 0, err)
            app = os.path.join(tmp, "app.npy")
            run = subprocess.run([BINARY, "gamma", "--data", f"gaussian:d={dim},s={np.sqrt(s2)}",
                                  "--steps", str(steps), "--model", model, "--estimator", "score",
                                  "--samples", str(samples), "--seed", "2", "--threads", "2",
                                  "--out", app], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            ours, theirs = np.load(script), np.load(app)
            stderr = np.load(os.path.join(tmp, "script.stderr.npy"))
            self.assertEqual(ours.shape, (steps + 1,))
            self.assertEqual(theirs.shape, (steps + 1,))
            # Two independent estimates with about the same standard error each: their
            # difference has √2 times it; 4.5σ at each of 100 timesteps fails by chance with
            # probability below 1e-3.
            z = (ours[1:] - theirs[1:]) / (np.sqrt(2.0) * np.maximum(stderr[1:], 1e-12))
            self.assertLess(np.max(np.abs(z)), 4.5, f"largest |z| {np.max(np.abs(z)):.2f}")
            # and the chi-square of all timesteps is consistent with noise alone
            self.assertLess(float(np.sum(z * z)), steps + 5 * np.sqrt(2 * steps))

    def test_nll_terms_equal_the_apps_nll_within_the_errors(self):
        import csv
        import math
        with tempfile.TemporaryDirectory() as tmp:
            steps, dim, s2, samples = 40, 3, 0.36, 20000
            model = os.path.join(tmp, "model.pt")
            save_closed_form(model, "linear", steps, dim, s2)
            data = os.path.join(tmp, "x.npy")
            np.save(data, np.random.default_rng(9).normal(0.0, np.sqrt(s2), (200_000, dim)))
            ts = [1, 4, 11, 25, 40]
            common = ["--data", f"gaussian:d={dim},s={np.sqrt(s2)}", "--model", model,
                      "--schedule", "linear", "--steps", str(steps), "--trajectory",
                      "list:" + ",".join(map(str, ts)), "--variance", "small"]
            plan = os.path.join(tmp, "plan.json")
            made = subprocess.run([BINARY, "plan", *common, "--out", plan], capture_output=True,
                                  text=True)
            if made.returncode != 0 and "no LibTorch" in made.stderr:
                self.skipTest("the app was built without LibTorch")
            self.assertEqual(made.returncode, 0, made.stderr)
            out = os.path.join(tmp, "terms.csv")
            code, err = run_cli(["ms-eps", "--model", model, "--data", data, "--samples",
                                 samples, "--seed", 0, "--out", out, "--nll-terms", plan,
                                 "--data-range=-3,3", "--batch", 1000])
            self.assertEqual(code, 0, err)
            with open(out) as f:
                rows = list(csv.DictReader(f))
            run = subprocess.run([BINARY, "nll", *common, "--levels", "256", "--samples",
                                  str(samples), "--data-range", "-3,3", "--threads", "2"],
                                 capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            app = json.loads(run.stdout)
            to_bits = 1.0 / (dim * math.log(2.0))
            theirs = [app["prior"]] + [t["bpd"] for t in app["terms"]] + [app["decoder"]]
            self.assertEqual([(int(r["s"]), int(r["t"])) for r in rows[1:5]],
                             [(t["s"], t["t"]) for t in app["terms"]])
            self.assertAlmostEqual(float(rows[5]["variance"]), app["decoder_variance"],
                                   delta=1e-12 * app["decoder_variance"])
            # Independent draws of the same size on each side: the difference has √2 times
            # the standard error of one.
            for row, value in zip(rows[:6], theirs):
                se = math.sqrt(2.0) * float(row["standard_error_nats"]) * to_bits
                self.assertLess(abs(float(row["bits_per_dim"]) - value), 4.5 * se + 1e-12,
                                (row, value))
            total = rows[6]
            se = math.hypot(float(total["standard_error_nats"]) * to_bits, app["standard_error"])
            self.assertLess(abs(float(total["bits_per_dim"]) - app["bpd"]), 4.5 * se)


class Half(torch.nn.Module):
    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return x * 0.5


class FourLogits(torch.nn.Module):
    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return torch.zeros(x.shape[0], x.shape[1], 4)


GAUSSIAN = {"process": "gaussian", "schedule": "cosine", "num_steps": 10, "shape": [3],
            "prediction": "epsilon"}
CATEGORICAL = {"process": "categorical", "schedule": "linear", "num_steps": 10, "shape": [3],
               "num_classes": 4}


@unittest.skipUnless(BINARY and os.path.exists(BINARY), "DIFFUSCOPE_BINARY is not set")
class ContractsAgainstTheApp(unittest.TestCase):
    """What the tool writes the app loads, and a contract one side refuses the other refuses."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def info(self, model):
        run = subprocess.run([BINARY, "info", model], capture_output=True)
        err = run.stderr.decode("utf-8")  # strict: the app's messages are valid UTF-8
        if run.returncode != 0 and "plugin is not installed" in err:
            self.skipTest("the app was built without LibTorch")
        self.assertIn(run.returncode, (0, 2), err)
        if run.returncode == 2:
            self.assertEqual(len(err.strip().splitlines()), 1, err)
        return run.returncode == 0, err

    def csv(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def test_the_app_loads_what_export_writes(self):
        custom = self.csv("beta.csv", "t,beta\n0.5,0.25\n")
        for schedule in ("linear", "cosine", "power:2", "power: 0.5", "info-linear",
                         "custom:" + custom):
            with self.subTest(schedule=schedule):
                model = self.path("cat.pt")
                export_model(CategoricalLogits(4), model, process="categorical",
                             schedule=schedule, num_steps=10, shape=[6], num_classes=4)
                ok, err = self.info(model)
                self.assertTrue(ok, err)
        gaussian_csv = self.csv("gauss.csv", "beta\n" + "0.01\n" * 50)
        for schedule in ("linear", "sigmoid", "scaled-linear", "cosine,zero-snr",
                         "csv:" + gaussian_csv):
            with self.subTest(schedule=schedule):
                model = self.path("gauss.pt")
                export_model(Half(), model, schedule=schedule, num_steps=50, shape=[2, 2])
                ok, err = self.info(model)
                self.assertTrue(ok, err)

    def test_both_sides_accept_and_refuse_the_same_contracts(self):
        good = self.csv("good.csv", "t,beta\n0,0\n0.5,0.25\n1,1\n")
        down = self.csv("down.csv", "t,beta\n0.2,0.5\n0.4,0.3\n")
        gauss = self.csv("gauss.csv", "beta\n" + "0.01\n" * 10)
        short = self.csv("short.csv", "beta\n0.01\n")
        cases = [dict(CATEGORICAL, schedule=s) for s in (
            "linear", "cosine", "uniform", "power:2", "power:0", "power:-1", "power:1_0",
            "power: 2", "power:2 ", "power:0x1p1", "power:inf", "info-linear", "linear:",
            "custom:" + good, "custom:" + down, "custom:" + self.path("none.csv"), "custom:",
            "cosine,zero-snr", "Linear")]
        cases += [dict(GAUSSIAN, schedule=s) for s in (
            "cosine,zero-snr", "sigmoid", "scaled-linear", "power:2", "csv:" + gauss,
            "csv:" + short, "linear,zero-snr,zero-snr", ",zero-snr", "x" * 5000)]
        cases += [dict(GAUSSIAN, schedule="linear,zero-snr", num_steps=1),
                  dict(GAUSSIAN, shape=[65536]), dict(GAUSSIAN, shape=[65537]),
                  dict(GAUSSIAN, shape=[256, 256, 2]), dict(GAUSSIAN, shape=[2, -3]),
                  dict(GAUSSIAN, shape=[3.0]), dict(GAUSSIAN, num_steps=10.0),
                  dict(GAUSSIAN, num_steps=1e300), dict(GAUSSIAN, num_steps="10"),
                  dict(GAUSSIAN, num_conditions=-1), dict(CATEGORICAL, shape=[4097]),
                  dict(CATEGORICAL, num_classes=1), dict(CATEGORICAL, num_classes=4.0)]
        body = json.dumps(GAUSSIAN)[1:]
        texts = [json.dumps(c) for c in cases] + [
            '{"\\ud800": 1, ' + body,
            '{"x": ' + "[" * 63 + "]" * 63 + ", " + body,
            '{"x": ' + "[" * 64 + "]" * 64 + ", " + body,
            '{"x": ' + "[" * 65 + "]" * 65 + ", " + body,
            '{"x": 1' + "0" * 30 + ", " + body,
            '{"x": 1' + "0" * 400 + ", " + body,
            '{"x": 1e400, ' + body,
            '{"x": -0, ' + body,
            b'{"x": "\xff", ' + body.encode()]
        accepted = 0
        for text in texts:
            with self.subTest(text=text[:100]):
                model = self.path("c.pt")
                module = Half() if '"gaussian"' in str(text) else FourLogits()
                torch.jit.save(torch.jit.script(module), model,
                               _extra_files={contract.CONTRACT_FILE: text})
                try:
                    contract.load(model)
                    ours, why = True, ""
                except FieldError as e:
                    ours, why = False, str(e)
                theirs, err = self.info(model)
                self.assertEqual(ours, theirs, f"tool: {why or 'accepted'}; app: "
                                               f"{err.strip() or 'accepted'}")
                accepted += ours
        self.assertEqual(accepted, 19)  # the table holds both kinds


if __name__ == "__main__":
    unittest.main()
