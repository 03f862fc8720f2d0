"""The script's Γ and the app's own estimate of the same TorchScript model agree within their
Monte Carlo errors. Runs when the ctest registration passes the built program as
DIFFUSCOPE_BINARY (and the build has LibTorch); skipped otherwise."""
import os
import subprocess
import tempfile
import unittest

import numpy as np

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
            if info.returncode != 0 and "no LibTorch" in info.stderr:
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


if __name__ == "__main__":
    unittest.main()
