"""`diffuscope timesteps --as diffusers` against the set_timesteps arithmetic of diffusers'
scheduler classes, for every timestep_spacing, steps_offset 0 and 1, N = 1000 and 250 and
K = 7, 10, 25, 76, with the class named by the config's _class_name.

The reference functions below restate, line for line in NumPy, the `set_timesteps` bodies of
diffusers' DDIMScheduler, DDPMScheduler, DPMSolverMultistepScheduler (default
lambda_min_clipped = -inf, so last_timestep = N), UniPCMultistepScheduler and
EulerDiscreteScheduler (huggingface/diffusers, src/diffusers/schedulers/scheduling_*.py,
Apache License 2.0). diffusers itself is not a Debian package, so it cannot run here."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "python"))
if PYTHON_DIR not in sys.path:
    sys.path.insert(0, PYTHON_DIR)

from diffuscope_torch.schedules import diffusers_trajectory_spec, read_diffusers_config  # noqa: E402

BINARY = os.environ.get("DIFFUSCOPE_BINARY") or os.path.join(HERE, "..", "..", "build", "app",
                                                             "diffuscope")


def ddim_timesteps(n, k, spacing, offset):
    """DDIMScheduler.set_timesteps (DDPMScheduler's is the same for these spacings)."""
    if spacing == "linspace":
        return np.linspace(0, n - 1, k).round()[::-1].copy().astype(np.int64)
    if spacing == "leading":
        step_ratio = n // k
        timesteps = (np.arange(0, k) * step_ratio).round()[::-1].copy().astype(np.int64)
        return timesteps + offset
    step_ratio = n / k
    return np.round(np.arange(n, 0, -step_ratio)).astype(np.int64) - 1


def multistep_timesteps(n, k, spacing, offset):
    """DPMSolverMultistepScheduler.set_timesteps and UniPCMultistepScheduler.set_timesteps."""
    if spacing == "linspace":
        return np.linspace(0, n - 1, k + 1).round()[::-1][:-1].copy().astype(np.int64)
    if spacing == "leading":
        step_ratio = n // (k + 1)
        timesteps = (np.arange(0, k + 1) * step_ratio).round()[::-1][:-1].copy().astype(np.int64)
        return timesteps + offset
    step_ratio = n / k
    return np.arange(n, 0, -step_ratio).round().copy().astype(np.int64) - 1


def euler_timesteps(n, k, spacing, offset):
    """EulerDiscreteScheduler.set_timesteps: float32, fractional for linspace."""
    if spacing == "linspace":
        return np.linspace(0, n - 1, k, dtype=np.float32)[::-1].copy()
    if spacing == "leading":
        step_ratio = n // k
        timesteps = (np.arange(0, k) * step_ratio).round()[::-1].copy().astype(np.float32)
        return timesteps + offset
    step_ratio = n / k
    return (np.arange(n, 0, -step_ratio)).round().copy().astype(np.float32) - 1


REFERENCES = {
    "DDIMScheduler": ddim_timesteps,
    "DDPMScheduler": ddim_timesteps,
    "DPMSolverMultistepScheduler": multistep_timesteps,
    "UniPCMultistepScheduler": multistep_timesteps,
    "EulerDiscreteScheduler": euler_timesteps,
}


def app_json(args):
    run = subprocess.run([BINARY, "timesteps", *args], capture_output=True, text=True)
    if run.returncode != 0:
        raise AssertionError(f"{args}: {run.stderr}")
    return json.loads(run.stdout), run.stderr


@unittest.skipUnless(os.access(BINARY, os.X_OK), "the app is not built")
class SetTimestepsAgainstApp(unittest.TestCase):
    def test_every_class_spacing_offset_n_and_k(self):
        compared = 0
        with tempfile.TemporaryDirectory() as d:
            for name, reference in REFERENCES.items():
                for spacing in ("linspace", "leading", "trailing"):
                    for offset in (0, 1):
                        for n in (1000, 250):
                            path = os.path.join(d, f"{name}-{spacing}-{offset}-{n}.json")
                            with open(path, "w") as f:
                                json.dump({"_class_name": name, "num_train_timesteps": n,
                                           "timestep_spacing": spacing,
                                           "steps_offset": offset}, f)
                            config = read_diffusers_config(path)
                            for k in (1, 7, 10, 25, 76):
                                expected = reference(n, k, spacing, offset)
                                if len(expected) != k:  # arange's float end (N = 1000, K = 61)
                                    continue
                                spec = diffusers_trajectory_spec(config, k)
                                with self.subTest(cls=name, spacing=spacing, offset=offset, n=n,
                                                  k=k, spec=spec):
                                    out, _ = app_json(["--schedule", f"diffusers:{path}",
                                                       "--trajectory", spec, "--as", "diffusers"])
                                    self.assertEqual(out["timesteps"],
                                                     [float(t) if name == "EulerDiscreteScheduler"
                                                      else int(t) for t in expected])
                                    # DDIMScheduler.step's previous timestep, t − N//K.
                                    whole = np.round(expected).astype(np.int64)
                                    self.assertEqual(out["previous"],
                                                     [int(t) - n // k for t in whole])
                                    compared += 1
                            # Without --trajectory the config names the same spec (K = 10).
                            with self.subTest(cls=name, spacing=spacing, offset=offset, n=n):
                                named, _ = app_json(["--schedule", f"diffusers:{path}",
                                                     "--as", "diffusers"])
                                given, _ = app_json(["--schedule", f"diffusers:{path}",
                                                     "--trajectory",
                                                     diffusers_trajectory_spec(config, 10),
                                                     "--as", "diffusers"])
                                self.assertEqual(named, given)
        self.assertGreater(compared, 200)

    def test_the_classes_differ_where_diffusers_says(self):
        # K = 7 at N = 1000: DDIM's linspace(0, 999, 7) against the multistep classes' eight
        # points without the last.
        self.assertEqual(list(ddim_timesteps(1000, 7, "linspace", 0)),
                         [999, 832, 666, 500, 333, 166, 0])
        self.assertEqual(list(multistep_timesteps(1000, 7, "linspace", 0)),
                         [999, 856, 714, 571, 428, 285, 143])
        self.assertEqual(list(euler_timesteps(1000, 7, "linspace", 0)),
                         [999.0, 832.5, 666.0, 499.5, 333.0, 166.5, 0.0])


if __name__ == "__main__":
    unittest.main()
