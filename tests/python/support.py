"""Shared pieces of the Python tests: paths, a closed-form Gaussian model, running the CLI."""
import contextlib
import io
import math
import os
import sys
from typing import List

import numpy as np
import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "python"))
if PYTHON_DIR not in sys.path:
    sys.path.insert(0, PYTHON_DIR)

torch.set_num_threads(1)

from diffuscope_torch import contract  # noqa: E402
from diffuscope_torch.schedules import gaussian_schedule  # noqa: E402

PREDICTION_CODES = {"epsilon": 0, "sample": 1, "v_prediction": 2}


class ClosedFormGaussian(nn.Module):
    """The exact denoiser of data x₀ ~ N(0, s² I): ε*(x_n) = √β̄ x_n/(ᾱ s² + β̄) and
    x̂₀*(x_n) = √ᾱ s² x_n/(ᾱ s² + β̄) (finite at ᾱ = 0), computed in float64."""

    def __init__(self, alpha_bar, beta_bar, s2: float, prediction: str):
        super().__init__()
        self.register_buffer("sa", torch.tensor(np.sqrt(alpha_bar[1:]), dtype=torch.float64))
        self.register_buffer("sb", torch.tensor(np.sqrt(beta_bar[1:]), dtype=torch.float64))
        self.s2 = float(s2)
        self.kind = PREDICTION_CODES[prediction]

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        view: List[int] = [-1] + [1] * (x.dim() - 1)
        sa = self.sa[t].reshape(view)
        sb = self.sb[t].reshape(view)
        xd = x.to(torch.float64)
        denominator = sa * sa * self.s2 + sb * sb
        eps = sb * xd / denominator
        x0 = sa * self.s2 * xd / denominator
        if self.kind == 0:
            out = eps
        elif self.kind == 1:
            out = x0
        else:
            out = sa * eps - sb * x0
        return out.to(torch.float32)


class ConditionalClosedForm(nn.Module):
    """ClosedFormGaussian behind forward(x, t, y); any label but the unconditional one
    (num_conditions) shifts the output far away."""

    def __init__(self, inner: ClosedFormGaussian, num_conditions: int):
        super().__init__()
        self.inner = inner
        self.num_conditions = num_conditions

    def forward(self, x: torch.Tensor, t: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        view: List[int] = [-1] + [1] * (x.dim() - 1)
        shift = (y - self.num_conditions).to(torch.float32).reshape(view) * 1000.0
        return self.inner(x, t) + shift


def save_conditional_closed_form(path, schedule, num_steps, dim, s2, num_conditions,
                                 prediction="epsilon"):
    sched = gaussian_schedule(schedule, num_steps)
    inner = ClosedFormGaussian(sched.alpha_bar, sched.beta_bar, s2, prediction)
    module = torch.jit.script(ConditionalClosedForm(inner, num_conditions))
    contract.save(module, path, process="gaussian", schedule=schedule, num_steps=num_steps,
                  shape=[dim], prediction=prediction, num_conditions=num_conditions)
    return sched


def save_closed_form(path, schedule, num_steps, dim, s2, prediction="epsilon"):
    sched = gaussian_schedule(schedule, num_steps)
    module = torch.jit.script(ClosedFormGaussian(sched.alpha_bar, sched.beta_bar, s2, prediction))
    contract.save(module, path, process="gaussian", schedule=schedule, num_steps=num_steps,
                  shape=[dim], prediction=prediction)
    return sched


def run_cli(argv, env=None):
    """(exit code, stderr text) of `python3 -m diffuscope_torch argv…`, run in this process."""
    from diffuscope_torch.__main__ import main
    saved = {}
    for key, value in (env or {}).items():
        saved[key] = os.environ.get(key)
        os.environ[key] = value
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            code = main([str(a) for a in argv])
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return code, err.getvalue()


def subprocess_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = PYTHON_DIR + (os.pathsep + env["PYTHONPATH"]
                                      if env.get("PYTHONPATH") else "")
    env["OMP_NUM_THREADS"] = "1"  # two ranks on two cores
    return env


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def stderr_of(path):
    return path[:-4] + ".stderr.npy"


__all__ = ["ClosedFormGaussian", "save_closed_form", "save_conditional_closed_form", "run_cli", "subprocess_env", "read_bytes",
           "stderr_of", "PYTHON_DIR", "math"]
