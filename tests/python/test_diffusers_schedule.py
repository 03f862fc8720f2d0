"""diffusers:FILE in the Python tool against the app: ᾱ_n to the bit for every beta_schedule,
through σ_n = √((1 − ᾱ_n)/ᾱ_n) as `diffuscope timesteps --as k-diffusion` prints it (17
significant digits: each double read back exactly). Needs no torch."""
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "python"))
if PYTHON_DIR not in sys.path:
    sys.path.insert(0, PYTHON_DIR)

from diffuscope_torch.schedules import (ScheduleError, diffusers_trajectory_spec,  # noqa: E402
                                        gaussian_schedule, read_diffusers_config)

BINARY = os.environ.get("DIFFUSCOPE_BINARY") or os.path.join(HERE, "..", "..", "build", "app",
                                                             "diffuscope")

CONFIGS = {
    "linear": {"beta_schedule": "linear"},
    "scaled_linear": {"beta_schedule": "scaled_linear", "beta_start": 0.00085, "beta_end": 0.012},
    "squaredcos_cap_v2": {"beta_schedule": "squaredcos_cap_v2"},
    "sigmoid": {"beta_schedule": "sigmoid"},
    "linear_rescaled": {"beta_schedule": "scaled_linear", "beta_start": 0.00085,
                        "beta_end": 0.012, "rescale_betas_zero_snr": True},
    "trained_betas": {"num_train_timesteps": 5, "trained_betas": [0.1, 0.2, 0.3, 0.4, 0.5]},
}


@unittest.skipUnless(os.access(BINARY, os.X_OK), "the app is not built")
class DiffusersScheduleAgainstApp(unittest.TestCase):
    def app_sigmas(self, path, n):
        out = subprocess.run([BINARY, "timesteps", "--schedule", f"diffusers:{path}",
                              "--trajectory", f"even:{n}", "--as", "k-diffusion"],
                             capture_output=True, text=True, check=True).stdout
        return json.loads(out)["sigmas"]

    def test_alpha_bar_to_the_bit(self):
        with tempfile.TemporaryDirectory() as d:
            for name, body in CONFIGS.items():
                with self.subTest(beta_schedule=name):
                    path = os.path.join(d, name + ".json")
                    with open(path, "w") as f:
                        json.dump(body, f)
                    schedule = gaussian_schedule(f"diffusers:{path}", 0)
                    n = schedule.num_steps
                    sigmas = self.app_sigmas(path, n)
                    self.assertEqual(len(sigmas), n + 1)
                    for k, sigma in enumerate(sigmas[:-1]):
                        step = n - k
                        a = float(schedule.alpha_bar[step])
                        if a == 0.0:  # the zero-SNR end: the app takes ᾱ = 2⁻²⁴
                            self.assertEqual(sigma, math.sqrt((1.0 - 2.0**-24) / 2.0**-24))
                            continue
                        self.assertEqual(sigma, math.sqrt((1.0 - a) / a), f"n = {step}")


class DiffusersConfigReading(unittest.TestCase):
    def write(self, d, body):
        path = os.path.join(d, "c.json")
        with open(path, "w") as f:
            f.write(body)
        return path

    def test_spacing_and_refusals(self):
        with tempfile.TemporaryDirectory() as d:
            config = read_diffusers_config(self.write(
                d, '{"timestep_spacing": "leading", "steps_offset": 1, "foo": 2}'))
            self.assertEqual(diffusers_trajectory_spec(config, 7), "leading:7,offset=1")
            self.assertEqual(config["unknown_keys"], ["foo"])
            with self.assertRaises(ScheduleError) as caught:
                read_diffusers_config(self.write(d, '{"beta_schedule": "quadratic"}'))
            self.assertTrue(caught.exception.field.endswith(": beta_schedule"))
            path = self.write(d, '{"num_train_timesteps": 10}')
            with self.assertRaises(ScheduleError) as caught:
                gaussian_schedule(f"diffusers:{path}", 20)
            self.assertEqual(caught.exception.field, "num_steps")


if __name__ == "__main__":
    unittest.main()
