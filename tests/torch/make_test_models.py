"""Writes the TorchScript models the C++ tests open: modules written by hand from the contract
(closed-form networks whose every output the tests can compute independently), and files that
break it in every way the loader must refuse or survive.

    python3 make_test_models.py OUTDIR
"""
import json
import os
import sys
import zipfile

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from diffuscope_torch import contract  # noqa: E402

N = 1000
S = 0.5  # the Gaussian data's standard deviation: data N(0, S² I)


def linear_alpha_bar(n_steps):
    c = 1000.0 / n_steps
    betas = np.linspace(c * 1e-4, c * 0.02, n_steps, dtype=np.float64)
    log_alpha_bar = np.cumsum(np.log1p(-betas))
    return np.exp(log_alpha_bar), -np.expm1(log_alpha_bar)


class ExactEps(torch.nn.Module):
    """ε of data N(0, S²I), exactly: ε*(x_n) = √β̄ x_n / (ᾱ S² + β̄), returned as the
    contract's prediction type (ε, x₀ or v), computed in float64."""

    def __init__(self, prediction: str):
        super().__init__()
        alpha_bar, beta_bar = linear_alpha_bar(N)
        self.register_buffer("alpha_bar", torch.tensor(alpha_bar, dtype=torch.float64))
        self.register_buffer("beta_bar", torch.tensor(beta_bar, dtype=torch.float64))
        self.prediction = prediction
        self.variance = S * S

    def exact(self, x: torch.Tensor, t: torch.Tensor):
        shape = [x.shape[0]] + [1] * (x.dim() - 1)
        ab = self.alpha_bar[t].view(shape)
        bb = self.beta_bar[t].view(shape)
        xd = x.double()
        eps = torch.sqrt(bb) * xd / (ab * self.variance + bb)
        x0 = (xd - torch.sqrt(bb) * eps) / torch.sqrt(ab)
        if self.prediction == "sample":
            return x0
        if self.prediction == "v_prediction":
            return torch.sqrt(ab) * eps - torch.sqrt(bb) * x0
        return eps

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return self.exact(x, t).float()


class ExactEpsConditional(ExactEps):
    """The same, conditional: any label but the null one (num_conditions) shifts the output,
    so a caller that passes the wrong label gets visibly wrong numbers."""

    def __init__(self, prediction: str, num_conditions: int):
        super().__init__(prediction)
        self.num_conditions = num_conditions

    def forward(self, x: torch.Tensor, t: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        shape = [x.shape[0]] + [1] * (x.dim() - 1)
        shift = (y - self.num_conditions).double().view(shape) * 100.0
        return (self.exact(x, t) + shift).float()


class ElementScale(torch.nn.Module):
    """ε = w ⊙ x with w[i] = 0.1·(i + 1) in the row-major order of the data point's shape, so
    the tests see whether the app lays a column out in that order."""

    def __init__(self, shape):
        super().__init__()
        count = int(np.prod(shape))
        self.register_buffer("w", (0.1 * torch.arange(1, count + 1, dtype=torch.float32)).view(shape))

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return x * self.w


class CategoricalLogits(torch.nn.Module):
    """logits[b, d, k] = 2·[x[b, d] = k] + t[b]·k (+ 0.7·k·y[b] when conditional)."""

    def __init__(self, classes: int, conditional: bool):
        super().__init__()
        self.classes = classes
        self.conditional = conditional

    def forward(self, x: torch.Tensor, t: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        k = torch.arange(self.classes, dtype=torch.float32)
        onehot = torch.nn.functional.one_hot(x, self.classes).float()
        logits = 2.0 * onehot + t.view(-1, 1, 1) * k.view(1, 1, -1)
        if self.conditional:
            logits = logits + 0.7 * k.view(1, 1, -1) * y.double().float().view(-1, 1, 1)
        return logits


class CategoricalUnconditional(torch.nn.Module):
    def __init__(self, classes: int):
        super().__init__()
        self.inner = CategoricalLogits(classes, False)

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return self.inner(x, t, torch.zeros_like(t, dtype=torch.int64))


class WrongShape(torch.nn.Module):
    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return x[:, :1]


class IntegerOutput(torch.nn.Module):
    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return x.long()


class NotFinite(torch.nn.Module):
    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return x / x


class CategoricalNotFiniteEarly(torch.nn.Module):
    """Good logits at the loader's t = 0.5 and 1, and `value` (NaN, +inf or -inf) in one logit
    for t < 0.3: the engines must refuse the prediction at that t, not compute with it."""

    def __init__(self, classes: int, value: float):
        super().__init__()
        self.inner = CategoricalLogits(classes, False)
        self.value = value

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        logits = self.inner(x, t, torch.zeros_like(t, dtype=torch.int64))
        bad = (t < 0.3).view(-1, 1, 1) & (torch.arange(logits.shape[2]) == 1).view(1, 1, -1)
        return torch.where(bad, torch.full_like(logits, self.value), logits)


class GaussianNotFiniteAt(torch.nn.Module):
    """The exact ε (as `prediction`) everywhere but at n = `step` (t = step − 1), where the first
    element is NaN: the loader's n = 1 and N pass."""

    def __init__(self, prediction: str, step: int):
        super().__init__()
        self.inner = ExactEps(prediction)
        self.step = step

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        out = self.inner(x, t)
        flat = out.reshape(out.shape[0], -1)
        bad = (t == self.step - 1).view(-1, 1) & (torch.arange(flat.shape[1]) == 0).view(1, -1)
        return torch.where(bad, torch.full_like(flat, float("nan")), flat).view(out.shape)


class Prints(torch.nn.Module):
    """The exact categorical logits, printing a line on every call: what a network prints must
    not reach the program's stdout (it would break --format json)."""

    def __init__(self, classes: int):
        super().__init__()
        self.inner = CategoricalLogits(classes, False)

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        print("network says hello at t =", t)
        return self.inner(x, t, torch.zeros_like(t, dtype=torch.int64))


class PrintsGaussian(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = ExactEps("epsilon")

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        print("network says hello")
        return self.inner(x, t)


class FailsOnLargeBatches(torch.nn.Module):
    """Keeps the contract on the loader's batch of two, then fails: the error must reach the
    user as a message, not end the program."""

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        if x.shape[0] > 2:
            raise RuntimeError("this network refuses batches larger than 2")
        return x


class ReturnsTuple(torch.nn.Module):
    def forward(self, x: torch.Tensor, t: torch.Tensor):
        return (x, x)


def save(module, name, **fields):
    contract.save(torch.jit.script(module), os.path.join(OUT, name), **fields)


def gaussian(shape=(2,), prediction="epsilon", num_conditions=0, num_steps=N):
    return dict(process="gaussian", prediction=prediction, schedule="linear", num_steps=num_steps,
                shape=list(shape), num_conditions=num_conditions)


def main():
    os.makedirs(OUT, exist_ok=True)
    for prediction in contract.PREDICTIONS:
        save(ExactEps(prediction), f"exact-{prediction}.pt", **gaussian(prediction=prediction))
        save(ExactEpsConditional(prediction, 3), f"exact-{prediction}-conditional.pt",
             **gaussian(prediction=prediction, num_conditions=3))
    # A network trained under a diffusers config that says v_prediction, and configs saying
    # each prediction_type (the fit check compares them with the contract's prediction).
    for prediction in contract.PREDICTIONS:
        with open(os.path.join(OUT, f"scheduler-{prediction}.json"), "w") as f:
            json.dump({"num_train_timesteps": N, "prediction_type": prediction}, f)
    save(ExactEps("v_prediction"), "exact-v_prediction-diffusers.pt",
         **dict(gaussian(prediction="v_prediction"),
                schedule="diffusers:" + os.path.abspath(os.path.join(OUT, "scheduler-v_prediction.json"))))
    save(ExactEps("epsilon"), "exact-image.pt", **gaussian(shape=(1, 2, 2)))
    save(ElementScale((1, 2, 3)), "scale-image.pt", **gaussian(shape=(1, 2, 3)))
    cat = dict(process="categorical", schedule="linear", num_steps=N, shape=[3], num_classes=4)
    save(CategoricalUnconditional(4), "categorical.pt", **cat)
    save(CategoricalLogits(4, True), "categorical-conditional.pt", **dict(cat, num_conditions=5))

    # Modules that break the contract.
    save(WrongShape(), "wrong-shape.pt", **gaussian())
    save(IntegerOutput(), "integer-output.pt", **gaussian())
    save(NotFinite(), "not-finite.pt", **gaussian())
    save(FailsOnLargeBatches(), "fails-later.pt", **gaussian())
    save(ReturnsTuple(), "returns-tuple.pt", **gaussian())
    save(ExactEps("epsilon"), "missing-label.pt", **gaussian(num_conditions=3))
    save(CategoricalUnconditional(4), "categorical-wrong-k.pt", **dict(cat, num_classes=5))
    # Networks that pass the load check and return NaN or ±inf later.
    save(CategoricalNotFiniteEarly(4, float("nan")), "categorical-nan-early.pt", **cat)
    save(CategoricalNotFiniteEarly(4, float("inf")), "categorical-inf-early.pt", **cat)
    save(CategoricalNotFiniteEarly(4, float("-inf")), "categorical-neginf-early.pt", **cat)
    for prediction in contract.PREDICTIONS:
        save(GaussianNotFiniteAt(prediction, 500), f"nan-at-500-{prediction}.pt",
             **gaussian(prediction=prediction))
    # Good networks whose contract names another schedule than the default linear one.
    save(ExactEps("epsilon"), "cosine-zero-snr.pt", **dict(gaussian(), schedule="cosine,zero-snr"))
    save(CategoricalUnconditional(4), "categorical-cosine.pt", **dict(cat, schedule="cosine"))
    # A conditional categorical network of the digits' shape (D = 64, 10 labels), for evaluate.
    save(CategoricalLogits(4, True), "digits-categorical.pt",
         **dict(cat, shape=[64], num_conditions=10))
    # Networks that print.
    save(Prints(4), "categorical-prints.pt", **cat)
    save(PrintsGaussian(), "prints.pt", **gaussian())
    torch.jit.save(torch.jit.script(ExactEps("epsilon")), os.path.join(OUT, "no-contract.pt"))

    # Contracts with a wrong field, written into an otherwise good archive.
    good = torch.jit.script(ExactEps("epsilon"))
    bad = {
        "bad-prediction.pt": dict(gaussian(), prediction="x0"),
        "bad-process.pt": dict(gaussian(), process="poisson"),
        "bad-shape.pt": dict(gaussian(), shape=[0, 2]),
        "bad-steps.pt": dict(gaussian(), num_steps=-5),
        "schedule-with-n.pt": dict(gaussian(), schedule="linear,N=1000"),
        # Schedules the app's own parsers refuse: a device, a folder, 500 kB, an unknown name.
        "schedule-dev-zero.pt": dict(gaussian(), schedule="csv:/dev/zero"),
        "schedule-folder.pt": dict(gaussian(), schedule="csv:/tmp"),
        "schedule-huge.pt": dict(gaussian(), schedule="linear" + "x" * 500_000),
        "schedule-unknown.pt": dict(gaussian(), schedule="quadratic"),
        "categorical-uniform.pt": dict(cat, schedule="uniform"),
        # Numbers over a limit, and text that must not reach a message as it is.
        "shape-too-big.pt": dict(gaussian(), shape=[65537]),
        "shape-negative.pt": dict(gaussian(), shape=[2, -3]),
        "categorical-too-long.pt": dict(cat, shape=[4097]),
        "steps-too-big.pt": dict(gaussian(), num_steps=10**12),
        "conditions-fraction.pt": dict(gaussian(), num_conditions=2.5),
        "contract-control.pt": dict(gaussian(), process="gau\nss\x1bian\u009b"),
    }
    for name, fields in bad.items():
        torch.jit.save(good, os.path.join(OUT, name),
                       _extra_files={contract.CONTRACT_FILE: json.dumps(fields)})
    torch.jit.save(good, os.path.join(OUT, "contract-not-json.pt"),
                   _extra_files={contract.CONTRACT_FILE: "{process: gaussian"})
    torch.jit.save(good, os.path.join(OUT, "contract-invalid-utf8.pt"),
                   _extra_files={contract.CONTRACT_FILE: b'{"process": "gau\xff\xfessian"}'})

    # A ZIP file that is no TorchScript archive, and a weights file (torch.save) given a contract.
    with zipfile.ZipFile(os.path.join(OUT, "plain.zip.pt"), "w") as z:
        z.writestr("notes.txt", "hello")
    weights = os.path.join(OUT, "weights-with-contract.pt")
    torch.save({"w": torch.ones(3)}, weights)
    folder = zipfile.ZipFile(weights).namelist()[0].split("/")[0]
    with zipfile.ZipFile(weights, "a") as z:
        z.writestr(f"{folder}/extra/{contract.CONTRACT_FILE}", contract.contract_json(**gaussian()))


if __name__ == "__main__":
    torch.manual_seed(0)
    OUT = sys.argv[1]
    main()
